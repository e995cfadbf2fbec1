"""Count to five, a toy game that offers everything a game may offer beyond its tables
(docs/games.md, "What a game offers"): a tutorial, a course editor and a competition.

Two players, A and B, take turns adding 1 or 2 to a shared total (``+1``, ``+2``); who
brings it to the ``target`` (5 by default) wins. Its "course" is that target. The
server tests load it into a real server through ``PELOTON_EXTRA_GAMES`` (it registers
itself on import, as every game package does), so the server serves it knowing
nothing of it: the proof that the server names no game.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from peloton.core import registry
from peloton.core.errors import (
    ConfigError,
    IllegalMoveError,
    NotationError,
    RecordError,
    StateError,
)
from peloton.core.offers import Competitions, Editor, OffLessonError, Tutorial
from peloton.core.record import FULL, RecordFile, Viewer

GAME = "toy-count"
PLAYERS = ("A", "B")
LOWEST, HIGHEST = 3, 30


@dataclass(frozen=True)
class Move:
    """``+1`` or ``+2``."""

    step: int
    game: str = GAME

    def __str__(self) -> str:
        return f"+{self.step}"


def parse_move(text: Any) -> Move:
    if not isinstance(text, str) or text not in ("+1", "+2"):
        raise NotationError(f"a move of {GAME} is +1 or +2, not {str(text)[:20]!r}")
    return Move(int(text[1]))


class State:
    """The total so far and whose turn it is."""

    game = GAME
    is_chance = False

    def __init__(self, target: int = 5, total: int = 0, first: int = 0) -> None:
        self.target, self.total, self.first = target, total, first
        self.players = PLAYERS
        self.history: list[Move] = []

    @property
    def is_over(self) -> bool:
        return self.total >= self.target

    @property
    def current_player(self) -> str | None:
        return None if self.is_over else PLAYERS[(self.first + len(self.history)) % 2]

    @property
    def result(self) -> str | None:
        """The winner, the player who made the last move, once over."""
        return PLAYERS[(self.first + len(self.history) - 1) % 2] if self.is_over else None

    def legal_moves(self) -> list[Move]:
        return [] if self.is_over else [Move(s) for s in (1, 2) if self.total + s <= self.target]

    def check(self, move: Any) -> Move:
        found = move if isinstance(move, Move) else parse_move(move)
        if found not in self.legal_moves():
            raise IllegalMoveError(f"{found} is not legal: the total is {self.total}")
        return found

    def play(self, move: Any) -> None:
        found = self.check(move)
        self.total += found.step
        self.history.append(found)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def copy(self) -> State:
        twin = State(self.target, self.total, self.first)
        twin.history = list(self.history)
        return twin

    def view(self, player: str | None) -> State:
        return self.copy()

    def chance_move(self, rng: Any) -> Any:
        raise StateError("no chance in this game")

    def chance_outcomes(self) -> Any:
        raise StateError("no chance in this game")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and vars(self) == vars(other)


def from_options(options: Mapping[str, Any]) -> State:
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise ConfigError(f"unknown option(s) {sorted(unknown)} (options: target, players)")
    if options.get("players", 2) != 2:
        raise ConfigError("option 'players': this game has two")
    target = options.get("target", 5)
    if isinstance(target, bool) or not isinstance(target, int) or not LOWEST <= target <= HIGHEST:
        raise ConfigError(f"option 'target' must be {LOWEST} to {HIGHEST}, not {target!r}")
    return State(target)


def snapshot(state: State, viewer: str | None = None) -> dict[str, Any]:
    return {
        "game": GAME,
        "players": list(state.players),
        "current_player": state.current_player,
        "is_over": state.is_over,
        "result": state.result,
        "legal": [str(m) for m in state.legal_moves()],
        "total": state.total,
        "target": state.target,
    }


def describe(state: State, move: Any) -> str:
    step = parse_move(str(move)).step
    return f"{state.current_player} adds {step}, to {state.total + step}"


@dataclass
class Record(RecordFile[State]):
    target: int = 5
    players: dict[str, dict[str, str]] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)

    @classmethod
    def from_state(cls, state: State, players: dict[str, dict[str, str]] | None = None) -> Record:
        return cls(state.target, dict(players or {}), [str(m) for m in state.history])

    def initial_state(self) -> State:
        return State(self.target)

    def to_dict(self, viewer: Viewer = FULL) -> dict[str, Any]:
        return {"game": GAME, "options": {"target": self.target}, "players": self.players,
                "moves": list(self.moves)}  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        if not isinstance(data, dict) or data.get("game") != GAME:
            raise RecordError(f"not a record of {GAME}")
        record = cls(data.get("options", {}).get("target", 5), data.get("players", {}),
                     list(data.get("moves", [])))  # fmt: skip
        record.replay()
        return record


load_record = Record.from_dict
OPTIONS = {
    "target": registry.Option(5, "the total that wins"),
    "players": registry.Option(2, "the players (always two)"),
}


# ---------------------------------------------------------------- the tutorial


@dataclass(frozen=True)
class Step:
    id: str
    title: str
    text: str
    after: str
    moves: tuple[str, ...]
    total: int


@dataclass(frozen=True)
class Turn:
    move: str
    by: str
    describe: str


class Lesson:
    """Two steps: add two (B answers one), then win from 3."""

    title, learner = "Count to five", "A"
    steps = (
        Step("add", "Add two", "Add two to the total.", "B added one.", ("+2", "+1"), 0),
        Step("win", "Win", "Bring the total to five.", "You won!", ("+2",), 3),
    )

    def state_at(self, index: int, done: int) -> State:
        state = State(5, self.steps[index].total)
        for move in self.steps[index].moves[:done]:
            state.play(move)
        return state

    def expected(self, index: int, done: int) -> str | None:
        moves = self.steps[index].moves
        return moves[done] if done < len(moves) and done % 2 == 0 else None

    def opening(self, index: int) -> tuple[State, int, list[Turn]]:
        return self.state_at(index, 0), 0, []

    def play(self, index: int, done: int, text: str) -> tuple[State, int, list[Turn]]:
        expected = self.expected(index, done)
        if expected is None:
            raise ValueError(f"step {index + 1} has no move of yours at position {done}")
        state = self.state_at(index, done)
        move = state.check(text)
        if str(move) != expected:
            raise OffLessonError(f"{move} is legal, but this step asks for {expected}")
        turns = [Turn(expected, "you", describe(state, move))]
        state.play(move)
        for reply in self.steps[index].moves[done + 1 : done + 2]:
            turns.append(Turn(reply, "B", describe(state, reply)))
            state.play(reply)
        return state, done + len(turns), turns

    def snapshot(self, state: State) -> dict[str, Any]:
        return snapshot(state)

    def ask(self, state: State, move: str) -> str:
        return f"add {move[1]}"


LESSON = Lesson()
TUTORIAL = Tutorial(lesson=lambda: LESSON, overview=lambda lesson: {"target": 5})


# ---------------------------------------------------------------- the editor


def _problems(data: Any) -> list[str]:
    if not isinstance(data, dict):
        return ["a course is a table of keys"]
    target = data.get("target")
    if isinstance(target, bool) or not isinstance(target, int) or not LOWEST <= target <= HIGHEST:
        return [f"'target' must be {LOWEST} to {HIGHEST}, not {target!r}"]
    return []


def _draft(data: Any) -> tuple[dict[str, Any] | None, list[str]]:
    if not isinstance(data, dict):
        return None, ["not a table"]
    return {"name": str(data.get("name", "custom")), "target": data.get("target")}, []


def _text(draft: Mapping[str, Any]) -> str:
    text = f'name = "{draft["name"]}"\ntarget = {draft["target"]}\n'
    tomllib.loads(text)  # what it writes reads back
    return text


EDITOR = Editor(
    draft=_draft,
    problems=_problems,
    place=lambda problem: {"row": None, "square": None, "key": "target"},
    text=_text,
)


# ---------------------------------------------------------------- the competition


class Match:
    """Best of ``games`` games, the first player changing each game."""

    kind, title = "toy-match", "toy match"

    def __init__(self, players: int = 2, games: int = 3) -> None:
        if players != 2 or isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise ConfigError("a toy match is two players and at least one game")
        self.players, self.games = players, games
        self.wins = {"A": 0, "B": 0}
        self.records: list[Record] = []

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> Match:
        try:
            return cls(**settings)
        except TypeError as exc:
            raise ConfigError(f"bad settings: {exc}") from None

    @property
    def settings(self) -> dict[str, Any]:
        return {"players": self.players, "games": self.games}

    @property
    def is_over(self) -> bool:
        return max(self.wins.values()) * 2 > self.games or len(self.records) == self.games

    def next_options(self) -> dict[str, Any] | None:
        return None if self.is_over else {"target": 5 + len(self.records)}

    def add(self, state: State, players: Any) -> None:
        if not state.is_over or state.target != 5 + len(self.records):
            raise StateError("not the game this match asked for")
        self.wins[str(state.result)] += 1
        self.records.append(Record.from_state(state, players))

    @property
    def standings(self) -> dict[str, Any]:
        leader = max(self.wins, key=lambda seat: self.wins[seat])
        return {"wins": dict(self.wins), "played": len(self.records), "leader": leader}

    @property
    def winner(self) -> str | None:
        return self.standings["leader"] if self.is_over else None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "settings": self.settings,
                "games": [r.to_dict() for r in self.records]}  # fmt: skip


COMPETITIONS = Competitions(
    kinds={Match.kind: Match},
    game_word=lambda kind: "round",
    game_name=lambda options: f"to {options.get('target')}",
    games=lambda standings: None,
)


registry.register(
    registry.GameInfo(
        GAME,
        "Count to five",
        load_record,
        options=OPTIONS,
        public_snapshot=True,
        describe=describe,
        tutorial=f"{__name__}:TUTORIAL",
        editor=f"{__name__}:EDITOR",
        competitions=f"{__name__}:COMPETITIONS",
    )
)
