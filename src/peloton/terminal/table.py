"""The terminal table for any game: humans type their moves, bots move on their own,
the dice roll themselves, and the record is saved however the session ends.

Hidden information (Mind Twist) is respected at a shared screen: each human is shown
only ``state.view(their seat)``, a secret move (the dial) is typed unseen, and when
two humans share the keyboard the screen is cleared and the next player is asked to
take it before anything of theirs is drawn. The move log shows each move as the
people at the table may see it (``public_moves``), and says so when a hidden move is
revealed later.

Without hidden information two humans share the screen freely; the keyboard is only
handed over (without clearing the screen) when the game calls a player to a decision
out of the run of turns (:meth:`TerminalGame.interrupts`: Cyclo's swap answers) and
handed back after it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..bots.base import bot_view, hides_information
from ..core.rng import Rng
from .games import FULL_VIEW, TerminalGame, game_package
from .play import TerminalSession
from .prompt import QUIT_WORDS, Ask, QuitGame
from .seats import Seat
from .turn import human_move

#: Clears the screen and the terminal's scrollback, where the last player's secret
#: could otherwise be scrolled back to.
CLEAR_ALL = "\033[H\033[2J\033[3J"
#: The table's viewer when nothing need be kept from anyone at the screen.
EVERYONE = FULL_VIEW


class TableSession(TerminalSession):
    """One game of any registered game at the terminal, from ``state`` to its end.

    ``chance`` draws the dice (required for games with chance steps); ``save`` writes
    the record (given the state and the seats' ``players`` entries).
    """

    def __init__(
        self,
        state: Any,
        seats: list[Seat],
        game: TerminalGame,
        console: Console,
        ask: Ask,
        *,
        secret_ask: Ask | None = None,
        chance: Rng | None = None,
        save: Callable[[Any, dict[str, dict[str, str]]], None] | None = None,
        record_path: Path | None = None,
    ) -> None:
        if [s.team for s in seats] != list(state.players):
            raise ValueError(
                f"seats {', '.join(s.team for s in seats)} do not match players {', '.join(state.players)}"
            )
        self.state = state
        self.seats = {seat.team: seat for seat in seats}
        self.game = game
        self.console = console
        self.ask = ask
        self.secret_ask = secret_ask or ask
        self.chance = chance
        self.save = save
        self.record_path = record_path
        self.players = {seat.team: seat.label for seat in seats}
        self.package = game_package(state.game)
        self.hidden = hides_information(state)
        humans = [seat.team for seat in seats if seat.is_human]
        self.shared = len(humans) > 1
        self.hot_seat = self.hidden and self.shared
        # The screen is shared by everyone at the table: a lone human may see their own
        # secrets there; several humans only what all of them may see; with bots alone
        # there is nobody to keep anything from.
        if not self.hidden or not humans:
            self.viewer: str | None = EVERYONE
        else:
            self.viewer = humans[0] if len(humans) == 1 else None
        self.watching = bool(humans)
        self._at_keyboard: str | None = None
        # Whether the last human step was a decision out of the run of turns.
        self._interrupted = False
        self._logged: list[str] = []
        # With bots alone and a game in rounds (Pistard), one line per round.
        self._by_round = not self.watching and hasattr(state, "round")
        self._round: Any = None
        self._pending: list[str] = []

    # ------------------------------------------------------------ running

    def _loop(self) -> None:
        state = self.state
        if self.watching:
            self.console.print(Rule(self.game.title))
        while not state.is_over:
            if self._by_round and state.round != self._round:
                self._flush_round()
                self._round = state.round
            if state.is_chance:
                if self.chance is None:
                    raise ValueError(
                        f"{state.game} has a chance step: the session needs a chance Rng"
                    )
                move = state.chance_move(self.chance)
                line = self.game.chance_text(state, move)  # before the roll: who rolls
                state.play(move)
                self._emit(line, str(move))
                self._logged.append(str(move))
                continue
            player = state.current_player
            seat = self.seats[player]
            if seat.is_human:
                move = self._human(seat)
            else:
                assert seat.bot is not None
                move = seat.bot.choose(bot_view(state, self.hidden))
            state.play(move)
            self._log(seat)

    def _human(self, seat: Seat) -> Any:
        interrupting = self.shared and self.game.interrupts(self.state)
        if self._at_keyboard not in (None, seat.team) and (
            self.hot_seat or interrupting or self._interrupted
        ):
            self.hand_over(seat)
        self._at_keyboard = seat.team
        self._interrupted = interrupting
        view = self.state.view(seat.team) if self.hidden else self.state
        self.draw(seat.team, view)
        ask = self.secret_ask if self.game.secret(view) else self.ask
        return human_move(
            view, self.game, self.players, self.console, ask, partial(self.draw, seat.team, view)
        )

    def hand_over(self, seat: Seat) -> None:
        """Wait until the next player has the keyboard; with hidden information, clear
        the screen before and after."""
        if self.hidden:
            self._clear()
        self.console.print(Rule("hand over"))
        line = Text("Pass the keyboard to ")
        line.append_text(self.game.seat_text(seat.team, self.players))
        line.append(". Everyone else: look away." if self.hidden else ".")
        self.console.print(line)
        if (
            self.ask(f"{seat.team}: press Enter when you are ready (q quit) > ").strip().lower()
            in QUIT_WORDS
        ):
            raise QuitGame
        if self.hidden:
            self._clear()

    def _clear(self) -> None:
        if self.console.is_terminal:
            self.console.file.write(CLEAR_ALL)
            self.console.file.flush()

    # ------------------------------------------------------------ output

    def _seen(self, viewer: str | None) -> Any:
        return self.state if viewer == EVERYONE else self.state.view(viewer)

    def draw(self, viewer: str | None, view: Any = None) -> None:
        """Print the board as ``viewer`` sees it."""
        shown = self._seen(viewer) if view is None else view
        self.console.print(self.game.render(shown, self.players, viewer))

    def _log(self, seat: Seat) -> None:
        """Print the moves played since the last log line, as the table may see them,
        and any earlier move revealed since."""
        public = self.public()
        for i, (was, now) in enumerate(zip(self._logged, public, strict=False)):
            if was != now:
                self.console.print(Text(f"  revealed: move {i + 1} was {now}", "italic"))
        for text in public[len(self._logged) :]:
            line = Text("  ")
            line.append(seat.team, self.game.seat_style(seat.team))
            line.append(f" {seat.label:<8} {text}")
            words = self.game.aftermath(self.state, text) if self.watching else ""
            if words:
                line.append("  ")
                line.append_text(Text(words) if isinstance(words, str) else words)
            self._emit(line, text)
        self._logged = public

    def _emit(self, line: Text, text: str) -> None:
        if self._by_round:
            self._pending.append(text)
        else:
            self.console.print(line)

    def _flush_round(self) -> None:
        """Print the moves gathered for a bots-only round, if any."""
        if self._pending:
            line = Text(f"round {self._round}: ", "bold") + Text(" ".join(self._pending))
            self.console.print(line, soft_wrap=True)
            self._pending = []

    def public(self) -> list[str]:
        """Every move played so far, as the table's screen may show them."""
        if self.viewer == EVERYONE:
            # Nobody at the screen is kept from anything: every move as played, which the
            # full record holds (public_moves(None) would hide them as from a spectator).
            return list(self.package.Record.from_state(self.state).moves)
        return [str(m) for m in self.package.public_moves(self.state, self.viewer)]

    def _show_end(self) -> None:
        if self.state.is_over or not self.watching:
            self.draw(self.viewer)
        self.console.print(self.game.outcome(self._seen(self.viewer), self.players))

    def _write_record(self, path: Path) -> bool:
        if self.save is None:
            return False
        players = {team: seat_entry(seat) for team, seat in self.seats.items()}
        self.save(self.state, players)
        return True


def seat_entry(seat: Seat) -> dict[str, str]:
    """A seat as the records of the newer games list it: name, kind and controller."""
    entry = {
        "name": seat.label,
        "kind": "human" if seat.is_human else "bot",
        "controller": seat.controller,
    }
    if seat.seed is not None:
        entry["seed"] = str(seat.seed)
    return entry
