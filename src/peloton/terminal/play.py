"""The interactive game loop: humans type their moves, bots move on their own.

:class:`GameSession` takes the console to print to and the ``ask`` function to read
lines with, so tests drive whole games with scripted input. The record is saved
whenever the session ends: the race is over, the player quits (``q``), input ends
(EOF) or the user presses Ctrl-C.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..games.mindcycling import Move, Record, State
from .board import TEAM_STYLES
from .panel import render_classification, render_view
from .prompt import Ask, QuitGame, destination_marks, human_turn
from .seats import Seat

#: Exit codes of a session (``peloton play`` exits with them).
EXIT_OK = 0
EXIT_INPUT_ENDED = 1
EXIT_SAVE_FAILED = 1
EXIT_INTERRUPTED = 130


class TerminalSession:
    """What every game at the terminal does around its own loop: the ways a session
    ends, and the record saved whichever it is. Subclasses play (``_loop``), print
    what is left of the log (``_flush_round``), the end (``_show_end``) and write the
    record (``_write_record``)."""

    console: Console
    record_path: Path | None

    def run(self) -> int:
        """Play until the game ends or the user leaves; returns the exit code."""
        code = EXIT_OK
        try:
            self._loop()
        except QuitGame:
            self.console.print("You left the game.")
        except EOFError:
            self.console.print(Text("\nInput ended before the game did.", "bold red"))
            code = EXIT_INPUT_ENDED
        except KeyboardInterrupt:
            self.console.print(Text("\nInterrupted.", "bold red"))
            code = EXIT_INTERRUPTED
        finally:
            self._flush_round()
            saved = self._save_record()
        self._show_end()
        if saved is not None:
            self.console.print(f"Record saved to {saved}", markup=False, soft_wrap=True)
        elif self.record_path is not None and code == EXIT_OK:
            code = EXIT_SAVE_FAILED
        return code

    def _save_record(self) -> Path | None:
        """Where the record was saved; None if none was asked for or it could not be."""
        if self.record_path is None:
            return None
        try:
            written = self._write_record(self.record_path)
        except OSError as exc:
            self.console.print(
                Text(f"✗ cannot save the record to {self.record_path}: {exc}", "bold red")
            )
            return None
        return self.record_path if written else None

    def _loop(self) -> None:
        raise NotImplementedError

    def _flush_round(self) -> None:
        raise NotImplementedError

    def _show_end(self) -> None:
        raise NotImplementedError

    def _write_record(self, path: Path) -> bool:
        """Save the record to ``path``; whether there was a way to."""
        raise NotImplementedError


class GameSession(TerminalSession):
    """One game at the terminal, from the current position of ``state`` to its end."""

    def __init__(
        self,
        state: State,
        seats: list[Seat],
        console: Console,
        ask: Ask,
        *,
        record_path: Path | None = None,
        full_board: bool = False,
    ) -> None:
        if [s.team for s in seats] != list(state.players):
            raise ValueError(
                f"seats {', '.join(s.team for s in seats)} do not match teams {', '.join(state.players)}"
            )
        self.state = state
        self.seats = {seat.team: seat for seat in seats}
        self.console = console
        self.ask = ask
        self.record_path = record_path
        self.full_board = full_board
        self.players = {seat.team: seat.label for seat in seats}
        # Without a human at the table nobody needs the board after every move: bot
        # moves are gathered into one line per round instead.
        self.watching = any(seat.is_human for seat in seats)
        self._round_moves: list[str] = []

    # ------------------------------------------------------------ running

    def _loop(self) -> None:
        state = self.state
        last_round = -1
        while not state.is_over:
            if state.round != last_round:
                self._flush_round()
                last_round = state.round
                if self.watching:
                    title = "Setup" if state.round == 0 else f"Round {state.round}"
                    self.console.print(Rule(title))
            team = state.current_player
            assert team is not None  # not over
            seat = self.seats[team]
            if seat.is_human:
                self._flush_round()
                marks = destination_marks(state)
                self.draw(marks)
                move = human_turn(state, self.console, self.ask, partial(self.draw, marks))
            else:
                assert seat.bot is not None
                move = seat.bot.choose(state.copy())
            state.play(move)
            self._log(seat, move)

    # ------------------------------------------------------------ output

    def draw(self, marks: dict[str, str] | None = None) -> None:
        """Print the board and the side panel."""
        self.console.print(render_view(self.state, self.players, full=self.full_board, marks=marks))

    def _log(self, seat: Seat, move: Move) -> None:
        if not self.watching:
            self._round_moves.append(str(move))
            return
        line = Text("  ")
        line.append(seat.team, TEAM_STYLES.get(seat.team, "bold"))
        line.append(f" {seat.label:<8} {move}")
        self.console.print(line)

    def _flush_round(self) -> None:
        """Print the moves gathered for a bot-only round, if any."""
        if not self._round_moves:
            return
        round_no = self.state.round - 1 if self.state.at_round_start else self.state.round
        title = "setup" if round_no <= 0 else f"round {round_no}"
        self.console.print(Text(f"{title}: ", "bold") + Text(" ".join(self._round_moves)))
        self._round_moves = []

    def _show_end(self) -> None:
        if self.state.is_over:
            self.draw()
        self.console.print(render_classification(self.state, self.players))

    def _write_record(self, path: Path) -> bool:
        players = {team: seat.player() for team, seat in self.seats.items()}
        Record.from_state(self.state, players=players).save(path)
        return True
