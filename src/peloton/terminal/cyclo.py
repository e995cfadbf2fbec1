"""Cyclo The Game at the terminal: the board (:mod:`.cyclo_board`), the legal moves
in words, the shorthands a player may type, the rolls and cards as they fall, and
who is called to the keyboard.

A ride is numbered once per token choice, at its full distance ("AS1 rides to 56
(lands a55)", "AS1 accelerates (r) to 62"); a rider that may hold back types a nearer
target (``53``, ``58/r``). A swap proposed to a rival, a wheel offered to a rival of
the rider who rode and a fall picked by a rival's team are decisions out of the run
of turns: with two humans at the keyboard the table hands it over to that team and
back (:meth:`CycloTerminal.interrupts`). Cyclo hides nothing (CY-13.3), so everyone
at the screen sees the whole board.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..games import cyclo as cy
from .cyclo_board import (
    DICE_FACES,
    Extras,
    board,
    legend,
    line_name,
    ordinal,
    team_style,
    type_name,
)
from .cyclo_track import is_track, laps_of, track_board, track_legend
from .games import TerminalGame

#: Token choices in the order their rides are listed (CY-4.3).
TOKEN_ORDER = ("", "r", "t", "rr", "rt", "tt")
TOKEN_WORDS = {"r": "r: an own token", "t": "t: a team token"}
YES = {"y", "yes", "accept", "follow"}
NO = {"n", "no", "decline"}
RIDE_ON = {"-", "no", "n", "ride", "ride on"}
_TARGET = re.compile(r"(#?[0-9]+)(?:/(rr|rt|tt|r|t))?")
_RIDER = re.compile(r"[A-Fa-f](?:[Ss]1|[Cc]1|[Hh][12])")

HELP = """\
How to play a turn of Cyclo The Game
  number        play the move with that number in the list
  notation      any legal move, e.g. AS1-56, AS1-62/r (an own token), BC1-70/t (a team
                token), AH1-#4/rt (past the finish), AS1~BH1, AS1~-, BH1~yes, AH1>BC1,
                AH1>-, fall:-, fall:AH1,BH1
  56 56/r #4    the rider due rides to that target: where the ground allows holding
                back, any target short of its full ride
  r t rr rt tt  the full ride spending those tokens (r own, t team)
  yes, no       accept or decline a swap; take a wheel or let it go
  -             ride on without proposing a swap; at a fall, nobody else falls
  BH1           propose a swap to BH1; at a fall, bring BH1 down too (AH1 BH1: both)
  m, moves      list the legal moves again    b, board  draw the board again
  ?, help       this help and the legend      q, quit   save and leave
A ride names its target; room and dark squares decide where the rider lands, which
the list shows. Rolls and cards are drawn by the table from --seed."""


class Story:
    """Who acted at each move of a game (the rider due just before it: the roller of a
    roll, the drawer of a card), found by replaying the moves from the game's start.

    The replay is kept between calls: a game only grows, and a replay stepping back
    reads a prefix of what is known."""

    def __init__(self) -> None:
        self._key: tuple[str | None, str] | None = None
        self._moves: list[str] = []
        self._actors: list[str | None] = []
        self._shadow: cy.State | None = None

    def actors(self, state: cy.State) -> list[str | None]:
        """The rider due before each move of ``state.history``."""
        moves = cy.public_moves(state)
        key = (state.start, json.dumps(state.options(), sort_keys=True))
        if key == self._key and self._moves[: len(moves)] == moves:
            return self._actors[: len(moves)]
        if key != self._key or moves[: len(self._moves)] != self._moves or self._shadow is None:
            self._key, self._moves, self._actors = key, [], []
            self._shadow = cy.Record(options=state.options(), start=state.start).initial_state()
        for text in moves[len(self._moves) :]:
            self._actors.append(self._shadow.due)
            self._shadow.play(text)
            self._moves.append(text)
        return list(self._actors)


class CycloTerminal(TerminalGame):
    """The terminal's drawing of Cyclo The Game."""

    title = "Cyclo The Game"
    help: RenderableType = Group(Text(HELP), Text(""), legend(), Text(""), track_legend())

    def __init__(self) -> None:
        self.story = Story()
        self._memo: tuple[cy.State, int, dict[str, Any]] | None = None

    # ------------------------------------------------------------ facts

    def data(self, state: cy.State) -> dict[str, Any]:
        """The snapshot of ``state`` (kept while the state does not move on)."""
        # The memo holds the state itself, so that its id is never another's.
        memo = self._memo
        if memo is None or memo[0] is not state or memo[1] != len(state.history):
            memo = self._memo = (state, len(state.history), cy.snapshot(state))
        return memo[2]

    def space(self, state: cy.State, position: int) -> Mapping[str, Any]:
        """A course space (the start line reads as position 1, CY-19.4)."""
        spaces = self.data(state)["course"]["spaces"]
        return spaces[min(max(position, 1), len(spaces)) - 1]  # type: ignore[no-any-return]

    def ground(self, state: cy.State, rider: str) -> str:
        """The ground a rider stands on, in words."""
        info = state.rider(rider)
        if info.position is None:
            return "done"
        if info.position == 0:
            return "start line"
        if info.position > self.finish(state):
            return "run-out"
        return type_name(self.space(state, info.position)["type"])

    def finish(self, state: cy.State) -> int:
        """N: the finish line lies after this position."""
        return int(self.data(state)["course"]["length"])

    def target(self, state: cy.State, move: cy.Ride) -> int:
        """A ride's target as a position (``#4`` is N+4)."""
        return move.target + self.finish(state) if move.runout else move.target

    def where(self, state: cy.State, position: int) -> str:
        """A position as written: ``56``, or ``#4`` on the run-out."""
        n = self.finish(state)
        return f"#{position - n}" if position > n else str(position)

    def last_ride(self, state: cy.State) -> str | None:
        """The rider of the latest ride: the wheel step, draws and fall after it belong
        to its turn."""
        for move in reversed(state.history):
            if isinstance(move, cy.Ride):
                return move.rider
        return None

    def extras(self, state: cy.State) -> Extras:
        """Who rolled the last dice and drew the last card, and how far the rider due
        may ride (for the board)."""
        actors = self.story.actors(state)
        roller = drawer = None
        for move, actor in zip(reversed(state.history), reversed(actors), strict=True):
            if roller is None and isinstance(move, cy.Roll):
                roller = actor
            if drawer is None and isinstance(move, cy.Draw):
                drawer = actor
            if roller and drawer:
                break
        if state.phase == "ride":
            roller = state.due
        reach = None
        if state.phase == "ride":
            reach = max(
                (self.target(state, m) for m in state.legal_moves() if isinstance(m, cy.Ride)),
                default=None,
            )
        return Extras(roller, drawer, reach)

    # ------------------------------------------------------------ the board

    def seat_style(self, player: str | None) -> str:
        return team_style(player or "")

    def seat_text(self, player: str, players: Mapping[str, str]) -> Text:
        who = players.get(player)
        return Text(f"team {player} ({who})" if who else f"team {player}", self.seat_style(player))

    def render(self, state: Any, players: Mapping[str, str], viewer: str | None) -> RenderableType:
        data = self.data(state)
        course = data["course"]
        head = Text(f"Cyclo · {data['mode']} · {data['level'].capitalize()} · ", "bold")
        if is_track(data):
            track = data["track"]
            head.append(
                f"velodrome ({track['lap']} spaces a lap), "
                f"{laps_of(track['distance'], track['lap'])}, finish after {track['distance']}",
                "bold",
            )
            head.append(" · race over" if data["is_over"] else f" · round {data['round']}", "bold")
            seat = lambda team: self.seat_text(team, players)  # noqa: E731
            return track_board(data, head, seat, self.extras(state))
        head.append(
            f"{course['name']} ({' '.join(course['boards'])}, finish after {course['length']})",
            "bold",
        )
        head.append(" · race over" if data["is_over"] else f" · round {data['round']}", "bold")
        if data["events"]:
            head.append(" · event cards", "bold")
        return board(data, head, lambda team: self.seat_text(team, players), self.extras(state))

    # ------------------------------------------------------------ the turn

    def describe(self, state: Any, players: Mapping[str, str]) -> Text:
        due, phase = state.due, state.phase
        team = state.current_player or ""
        text = Text(f"Team {team}", self.seat_style(team))
        if phase == "answer":
            proposer = self.data(state)["proposer"]
            text.append(f", {proposer} proposes to swap with {due} — accept? (yes/no)")
            mine, theirs = state.rider(due).square, state.rider(proposer).square
            text.append(
                f"\n  accepted, {due} rides now from {theirs} and {proposer} later from {mine}; "
                f"declined, {proposer} rides on from {theirs}",
                "grey70",
            )
            return text
        info = state.rider(due)
        text.append(f", {due} on {info.square} ({self.ground(state, due)})")
        if phase == "swap":
            text.append(" may propose a swap before rolling, or ride on")
        elif phase == "ride":
            text.append_text(self._ride_facts(state, due, info))
        elif phase == "wheel":
            leader = self.data(state)["leader"]
            text.append(
                f": take {leader}'s wheel? {leader} rode to {state.rider(leader).square} (yes/no)"
            )
        elif phase == "fall":
            text.append(
                " fell and loses its next turn: bring down up to 2 riders with it (its teammates, or "
                "riders on its space, all within 3 spaces)?"
            )
        return text

    def _ride_facts(self, state: cy.State, due: str, info: cy.RiderInfo) -> Text:
        dice = self.data(state)["dice"]
        rides = [m for m in state.legal_moves() if isinstance(m, cy.Ride)]
        plain = [self.target(state, m) for m in rides if not m.tokens]
        text = Text(f" rolled {' '.join(map(str, dice))}")
        if plain:
            text.append(f": reaches {self.where(state, max(plain))} without tokens")
        spend = max((len(m.tokens) for m in rides), default=0)
        if info.tokens or state.team_tokens.get(due[0]):
            text.append(f"; own tokens {info.tokens}, team {state.team_tokens.get(due[0], 0)}, ")
            text.append(f"up to {spend} here" if spend else "none to spend here")
        if self._holds_back(state, rides):
            text.append("; may hold back")
        return text

    def _holds_back(self, state: cy.State, rides: Sequence[cy.Ride]) -> bool:
        full = {m.tokens: self.target(state, m) for m in self._full_rides(state, rides)}
        return any(self.target(state, m) < full[m.tokens] for m in rides)

    def _full_rides(self, state: cy.State, rides: Sequence[cy.Ride]) -> list[cy.Ride]:
        """The ride of each token choice at its full distance, in :data:`TOKEN_ORDER`."""
        best: dict[str, cy.Ride] = {}
        for move in rides:
            if move.tokens not in best or self.target(state, move) > self.target(
                state, best[move.tokens]
            ):
                best[move.tokens] = move
        return [best[t] for t in TOKEN_ORDER if t in best]

    def order(self, state: Any, moves: Sequence[Any]) -> list[Any]:
        if state.phase == "ride":
            return list(self._full_rides(state, [m for m in moves if isinstance(m, cy.Ride)]))
        return super().order(state, moves)

    def order_note(self, state: Any) -> str | None:
        if state.phase == "ride":
            return "One ride per token choice, at its full distance, fewest tokens first."
        return super().order_note(state)

    def label(self, state: Any, move: Any) -> Text:
        text = Text(self._words(state, move))
        text.append(f"  {move}", "grey62")
        return text

    def _words(self, state: cy.State, move: Any) -> str:
        if isinstance(move, cy.Ride):
            verb = (
                "rides"
                if not move.tokens
                else ("accelerates" if len(move.tokens) == 1 else "attacks")
            )
            spent = f" ({move.tokens})" if move.tokens else ""
            where = self.where(state, self.target(state, move))
            return f"{move.rider} {verb}{spent} to {where} ({self.landing(state, move)})"
        if isinstance(move, cy.Swap):
            if move.partner is None:
                return f"{move.rider} rides on (no swap)"
            square = state.rider(move.partner).square
            if move.partner[0] == move.rider[0]:
                return f"{move.rider} swaps with {move.partner} on {square} (a teammate: at once)"
            return f"{move.rider} proposes a swap to {move.partner} on {square}"
        if isinstance(move, cy.Answer):
            proposer = self.data(state)["proposer"]
            if move.accept:
                return f"{move.rider} accepts {proposer}'s swap (rides now from {state.rider(proposer).square})"
            return f"{move.rider} declines {proposer}'s swap"
        if isinstance(move, cy.Wheel):
            if move.leader is None:
                return f"{move.rider} lets {self.data(state)['leader']} go"
            after = state.copy()
            after.play(move)
            return (
                f"{move.rider} takes {move.leader}'s wheel (lands {after.rider(move.rider).square})"
            )
        if isinstance(move, cy.Fall):
            if not move.picks:
                return "nobody else falls"
            return f"{' and '.join(move.picks)} {'falls' if len(move.picks) == 1 else 'fall'} too"
        return str(move)

    def landing(self, state: cy.State, move: cy.Ride) -> str:
        """Where a ride takes its rider, as the engine plays it on a copy, with what
        happens on the way: a dark square, an event space, a line crossed."""
        rider = move.rider
        start = state.rider(rider).position or 0
        after = state.copy()
        after.play(move)
        info = after.rider(rider)
        if info.position is None:  # finished, and the round's end took it off the run-out
            past = {f["rider"]: f["past"] for f in cy.snapshot(after)["finish"]}.get(rider)
            return f"finishes on #{past}" if past else "finishes"
        if info.position > self.finish(state):
            return f"finishes on {info.square}"
        if info.position == start:
            return f"stays on {info.square}: no room"
        notes = [f"lands {info.square}"]
        room = self._room(state, rider, min(self.target(state, move), self.finish(state) + 9))
        if room is not None and room > info.position and self.space(state, room)["dark"]:
            notes.append(f"dark square {room}")
        if self.data(state)["events"] and self.space(state, info.position)["event"]:
            notes.append("event card")
        for line in self.data(state)["course"]["lines"]:
            # Only lines that score are worth a word (a classic's sprint line counts for nothing).
            if (
                start <= line["after"] < info.position
                and line["kind"] != "finish"
                and line["scores"]
            ):
                notes.append(f"crosses the {line_name(line)} line")
        return ", ".join(notes)

    def _room(self, state: cy.State, rider: str, aim: int) -> int | None:
        """The space a rider aiming at ``aim`` finds room on (CY-4.5), before any dark
        square sends it back: read only to say that one did."""
        data = self.data(state)
        start = state.rider(rider).position or 0
        worlds = cy.MODES[data["mode"]].worlds
        others = [
            r
            for r in data["riders"]
            if r["id"] != rider
            and r["position"] is not None
            and (worlds == "one" or (worlds == "team" and r["team"] == rider[0]))
        ]
        for q in range(aim, start, -1):
            if q > self.finish(state):
                return q
            if sum(r["position"] == q for r in others) < self.space(state, q)["width"]:
                return q
        return None

    def hint(self, state: Any) -> Text | None:
        if state.phase != "ride":
            return None
        rides = [m for m in state.legal_moves() if isinstance(m, cy.Ride)]
        if not self._holds_back(state, rides):
            return None
        spans: dict[tuple[int, int], list[str]] = {}
        for tokens in TOKEN_ORDER:
            targets = [self.target(state, m) for m in rides if m.tokens == tokens]
            if targets:
                spans.setdefault((min(targets), max(targets)), []).append(tokens or "no token")
        parts = [
            f"{self.where(state, lo)}-{self.where(state, hi)} with {' or '.join(choices)}"
            for (lo, hi), choices in spans.items()
        ]
        full = {m.tokens: self.target(state, m) for m in self._full_rides(state, rides)}
        examples = [
            f"{self.where(state, full[t] - 1)}{'/' + t if t else ''}"
            for t in ("", "r")
            if t in full and full[t] - 1 > (state.rider(state.due).position or 0)
        ]
        text = "Or hold back: type a nearer target" + (
            f", e.g. {' or '.join(examples)}" if examples else ""
        )
        return Text(text + ": " + "; ".join(parts), "grey70")

    def expand(self, state: Any, text: str) -> str:
        word = text.strip()
        low = word.lower()
        due, phase = state.due, state.phase
        if due is None:
            return word
        if phase == "ride":
            target = _TARGET.fullmatch(word)
            if target:
                return f"{due}-{target.group(1)}" + (
                    f"/{target.group(2)}" if target.group(2) else ""
                )
            if low in TOKEN_ORDER[1:]:
                full = {
                    m.tokens: m
                    for m in self._full_rides(
                        state, [m for m in state.legal_moves() if isinstance(m, cy.Ride)]
                    )
                }
                return str(full[low]) if low in full else f"{due}-?/{low}"
        if phase == "swap":
            if low in RIDE_ON:
                return f"{due}~-"
            if _RIDER.fullmatch(word):
                return f"{due}~{word.upper()}"
        if phase == "answer" and low in YES | NO:
            return f"{due}~{'yes' if low in YES else 'no'}"
        if phase == "wheel" and low in YES | NO:
            return f"{due}>{self.data(state)['leader'] if low in YES else '-'}"
        if phase == "fall":
            if low in RIDE_ON | {"none", "nobody"}:
                return "fall:-"
            picks = [p.upper() for p in re.split(r"[\s,]+", word) if p]
            if picks and all(_RIDER.fullmatch(p) for p in picks):
                return "fall:" + ",".join(sorted(picks))
        return word

    def step(self, state: Any) -> str:
        due, phase = state.due, state.phase
        return {
            "swap": f"{due}'s swap window (team {state.current_player})",
            "answer": f"{due} answers {self.data(state)['proposer']}'s swap (team {state.current_player})",
            "roll": f"{due}'s roll (chance)",
            "ride": f"{due} rides (team {state.current_player})",
            "wheel": f"{due} may take {self.data(state)['leader']}'s wheel (team {state.current_player})",
            "draw": f"a card is drawn for {due} (chance)",
            "fall": f"team {state.current_player} picks who falls with {due}",
            "over": "the race is over",
        }[phase]

    def interrupts(self, state: Any) -> bool:
        # A swap answer is always a rival's (a teammate swaps at once, CY-6.3); a wheel
        # or a fall goes out of turn when it is not the team of the rider who rode.
        if state.phase == "answer":
            return True
        if state.phase in ("wheel", "fall"):
            rode = self.last_ride(state)
            return rode is not None and state.due is not None and rode[0] != state.due[0]
        return False

    # ------------------------------------------------------------ the log

    def chance_text(self, state: Any, move: Any) -> Text:
        due = state.due or "?"
        line = Text("  ")
        line.append(due, team_style(due[0]))
        if isinstance(move, cy.Roll):
            line.append(f" rolls {' '.join(DICE_FACES[d - 1] for d in move.dice)}  ", "bold")
            line.append(" ".join(map(str, move.dice)), "bold")
            line.append(f" ({self.ground(state, due)})", "grey70")
        else:
            data = self.data(state)
            info = data["deck"][move.card]
            line.append(" draws a card: ", "bold")
            line.append(info["name"], "bold magenta")
            line.append(f" — {info['effect']}")
            position = state.rider(due).position or 0
            space = self.space(state, position)
            card = next(c for c in cy.CARDS if c.id == move.card)
            if position <= self.finish(state) and card.discarded_on(space["type"], space["board"]):
                line.append(f" (no effect here: {card.limit})", "grey70")
        line.append(f"   ({move})", "grey50")
        return line

    def aftermath(self, state: Any, move: str) -> str:
        played = cy.parse_move(move)
        if isinstance(played, cy.Ride) or (isinstance(played, cy.Wheel) and played.leader):
            info = state.rider(played.rider)
            return f"→ {info.square}" if info.square else "→ finished"
        if isinstance(played, cy.Swap) and played.partner:
            if played.partner[0] == played.rider[0]:
                return (
                    f"swapped: {played.partner} {state.rider(played.partner).square}, "
                    f"{played.rider} {state.rider(played.rider).square}"
                )
            return f"proposes a swap to {played.partner}"
        if isinstance(played, cy.Answer):
            return "accepted" if played.accept else "declined"
        if isinstance(played, cy.Fall) and played.picks:
            return f"{' and '.join(played.picks)} down too"
        return ""

    # ------------------------------------------------------------ positions, result

    def from_position(self, text: str, options: Mapping[str, Any]) -> cy.State:
        return cy.from_position(text, options)

    def outcome(self, state: Any, players: Mapping[str, str]) -> RenderableType:
        result = state.result
        over = state.is_over
        head = Text("Result" if over else "Standing (the race is not finished)", "bold underline")
        table = Table(box=None, padding=(0, 1), pad_edge=False)
        table.add_column("place", justify="right")
        table.add_column("rider")
        table.add_column("team")
        timed = bool(result.times)
        if timed:
            table.add_column("time", justify="right")
        leg = state.options()["mode"] == "leg"
        if leg:
            table.add_column("green", justify="right")
            table.add_column("red", justify="right")
        for i, rider in enumerate(result.places, start=1):
            row: list[RenderableType] = [
                f"{i}.",
                Text(rider, team_style(rider[0])),
                self.seat_text(rider[0], players),
            ]
            if timed:
                row.append(f"{result.times[rider]} s" if rider in result.times else "-")
            if leg:
                row += [str(result.points.get(rider, 0)), str(result.mountain.get(rider, 0))]
            table.add_row(*row)
        lines: list[RenderableType] = [head, table]
        teams = Text("Teams: ")
        for i, team in enumerate(result.teams, start=1):
            teams.append(f"{'  ' if i > 1 else ''}{ordinal(i)} ")
            teams.append_text(self.seat_text(team, players))
            if team in result.team_times:
                teams.append(f" {result.team_times[team]} s")
        lines.append(teams)
        if result.winner is not None:
            line = Text("Winner: ", "bold")
            line.append(result.winner, team_style(result.winner[0]))
            line.append(" (")
            line.append_text(self.seat_text(result.winner[0], players))
            line.append(")")
            lines.append(line)
        elif result.winner_team is not None:
            line = Text("Winning team: ", "bold")
            line.append_text(self.seat_text(result.winner_team, players))
            lines.append(line)
        return Group(*lines)
