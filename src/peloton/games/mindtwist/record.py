"""Game records (docs/games.md): JSON holding everything needed to replay a game.

**Public records and ``dial:?``.** ``Record.to_dict(viewer)`` writes the dials
``viewer`` has not seen as ``dial:?`` (MT-4.2). Loading still replays such a record
exactly: a dial stays unrevealed only when the guess after it was right, so a
``dial:?`` followed by ``guess:N`` replays as ``dial:N`` (nobody moves on a correct
guess, so no position ever depends on it). A ``dial:?`` followed by anything else is
rejected; a ``dial:?`` as the last move (a guess still due) leaves the replayed state
a view whose dial is hidden.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.errors import ConfigError, NotationError, PelotonError, RecordError
from ...core.record import (
    FULL,
    RECORD_FORMAT,
    Everything,
    RecordEnvelope,
    RecordFile,
    read_envelope,
)
from .board import Board
from .notation import GUESS, PLAYERS, Move, format_position, parse_move
from .snapshot import public_moves
from .start import board_from_options, first_from_options, from_position
from .state import GAME, State


@dataclass
class Record(RecordFile[State]):
    """A Mind Twist game record. ``players`` maps ``R``/``B`` to
    ``{"name": ..., "kind": ...}``; ``first`` is the player active first (option
    ``first``; a record without it is red's); ``start`` is the MT-4.3 start position
    when the tokens did not both start on space 0 (its active player is ``first``)."""

    board: Board = field(default_factory=Board)
    players: dict[str, dict[str, str]] = field(default_factory=dict)
    start: str | None = None
    moves: list[str] = field(default_factory=list)
    result: str | None = None
    first: str = PLAYERS[0]

    # ------------------------------------------------------------ from a game

    @classmethod
    def from_state(cls, state: State, players: dict[str, dict[str, str]] | None = None) -> Record:
        """The record of a game played so far, as ``state`` knows it (a view's record
        holds ``dial:?`` where that view does)."""
        red, blue, first = state.start
        return cls(
            board=state.board,
            players={p: dict(v) for p, v in (players or {}).items()},
            start=None if red == blue == 0 else format_position(red, blue, first),
            moves=[str(m) for m in state.history],
            result=state.result,
            first=first,
        )

    def initial_state(self) -> State:
        """The state before the first recorded move."""
        if self.start is None:
            return State(self.board, 0, 0, self.first)
        return from_position(self.start, **self.board.options(), first=self.first)

    def play_move(self, state: State, index: int) -> None:
        """Play record move ``index``, reading ``dial:?`` as the module says."""
        _play(state, self.moves, index)

    # ------------------------------------------------------------ JSON

    def to_dict(self, viewer: str | Everything | None = FULL) -> dict[str, Any]:
        """The record as JSON data: the full record by default, or the public record
        ``viewer`` (``"R"``, ``"B"``, ``None`` for a spectator) may see."""
        moves = list(self.moves) if viewer is FULL else public_moves(self.replay(), viewer)
        return {
            "format": RECORD_FORMAT,
            "game": GAME,
            "options": {**self.board.options(), "first": self.first},
            "start": self.start,
            "players": {p: dict(v) for p, v in self.players.items()},
            "moves": moves,
            "result": self.result,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """A record from its decoded JSON object, validated by replaying it."""
        if not isinstance(data, dict):
            raise RecordError(f"a record must be a JSON object, not {type(data).__name__}")
        if data.get("game") != GAME:
            raise RecordError(f"this is a record of {data.get('game')!r}, not of {GAME!r}")
        if data.get("format", RECORD_FORMAT) != RECORD_FORMAT:
            raise RecordError(
                f"unsupported record format {data.get('format')!r} (expected {RECORD_FORMAT!r})"
            )
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError(f"record 'options' must be an object, not {options!r}")
        try:
            board = board_from_options(options)
            first = first_from_options(options)
        except ConfigError as exc:
            raise RecordError(f"record options are invalid: {exc}") from None
        envelope = read_envelope(data, RecordEnvelope)
        players = envelope.players
        if not set(players) <= set(PLAYERS):
            raise RecordError(f"record 'players' must map R and B to objects: {players!r}")
        result = envelope.result
        if result is not None and result not in PLAYERS:
            raise RecordError(f"record 'result' must be R, B or null, not {result!r}")
        # (a null result is taken from the replay: a game in progress has none)
        record = cls(
            board=board,
            players={p: {k: str(v) for k, v in info.items()} for p, info in players.items()},
            start=envelope.start,
            moves=envelope.moves,
            result=result,
            first=first,
        )
        # Loading replays every move, so a corrupt record is rejected here, naming its
        # first bad move; the replayed winner must be the recorded one.
        state = record.replay()
        if result is not None and state.result != result:
            raise RecordError(f"record says {result} won but its moves give {state.result!r}")
        record.result = state.result
        return record


def _play(state: State, moves: list[str], index: int) -> None:
    """Play record move ``index`` on ``state``, reading ``dial:?`` as the module says."""
    text = moves[index]
    try:
        move: Move | str = parse_move(text)
        if isinstance(move, Move) and move.is_hidden:
            if index + 1 == len(moves):
                state.play_unseen_dial()
                return
            after = moves[index + 1]
            try:
                guess = parse_move(after)
            except NotationError:
                guess = None
            if guess is None or guess.kind != GUESS:
                raise RecordError(
                    f"record move {index} ('dial:?') rejected: an unrevealed dial must be followed by "
                    f"the guess that found it, not {after!r} (a pass or a wrong guess reveals the dial)",
                    index=index,
                )
            move = f"dial:{guess.amount}"
        state.play(move)
    except RecordError:
        raise
    except PelotonError as exc:
        raise RecordError(f"record move {index} ({text!r}) rejected: {exc}", index=index) from exc


def load_record(data: dict[str, Any]) -> Record:
    """Registry hook: a decoded record object of this game."""
    return Record.from_dict(data)
