"""Game records: JSON documents holding everything needed to replay a game exactly.

Every record is one JSON object with at least ``format`` (``"peloton-record/1"``) and
``game``; the rest belongs to the game. :func:`load_record` checks those two fields
and hands the object to the game's own loader, so any record
can be opened without knowing its game in advance. What every game's record holds
besides its options (``players``, ``start``, ``moves``, ``result``, and ``seed`` for a
game of chance) is the declared :class:`RecordEnvelope`, which each game's loader
reads with :func:`read_envelope` before its own fields.
"""

from __future__ import annotations

import dataclasses
import json
from enum import Enum
from pathlib import Path
from typing import Any, ClassVar, Generic, Self, TypeVar

from . import registry
from .errors import PelotonError, RecordError

RECORD_FORMAT = "peloton-record/1"

#: The state type of a game's records.
S = TypeVar("S")


#: The metadata key of an envelope field: what an error says the field must be.
MUST_BE = "must_be"


@dataclasses.dataclass(kw_only=True)
class RecordEnvelope:
    """What every game's record holds besides its own fields: who played each seat
    (``players``: an object per seat, absent or null for nobody named),
    the ``start`` position (``None``: the game's own start), every move text, and the
    ``result`` (whose form is the game's). Strict: a move is text, not a number.

    A plain dataclass that pydantic checks (:func:`read_envelope`), imported only
    when a record is read: the rules engine needs no third-party package to play."""

    #: pydantic's settings for the check (a plain dict: nothing is imported here).
    __pydantic_config__: ClassVar[dict[str, Any]] = {"extra": "ignore"}

    players: dict[str, dict[str, Any]] = dataclasses.field(
        default_factory=dict,
        metadata={MUST_BE: "an object mapping each team letter to an object"},
    )
    start: str | None = None
    moves: list[str]
    result: Any = None


@dataclasses.dataclass(kw_only=True)
class ChanceRecordEnvelope(RecordEnvelope):
    """The envelope of a game of chance: also the ``seed`` its rolls and draws came
    from (``None``: a record that cannot be resumed)."""

    seed: int | None = dataclasses.field(default=None, metadata={MUST_BE: "an integer or null"})


#: An envelope model (:class:`RecordEnvelope` or a subclass).
E = TypeVar("E", bound=RecordEnvelope)


#: pydantic's validator of each envelope class read so far.
_CHECKERS: dict[type, Any] = {}


def _checker(model: type) -> Any:
    """pydantic's validator of an envelope class, built once (pydantic loads here)."""
    found = _CHECKERS.get(model)
    if found is None:
        from pydantic import TypeAdapter

        found = _CHECKERS[model] = TypeAdapter(model)
    return found


def decode_record(text: str) -> dict[str, Any]:
    """Parse record text into a dict, checking the JSON and the format header."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"record is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"record must be a JSON object, not {type(data).__name__}")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(
            f"unsupported record format {_shown(data.get('format'))} (expected {RECORD_FORMAT!r})"
        )
    if not isinstance(data.get("game"), str):
        raise RecordError("record has no 'game' name")
    return data


def read_envelope(data: dict[str, Any], model: type[E], *, start: str = "a position text") -> E:
    """The common fields of a game's record; :class:`RecordError` naming the first
    one that is wrong (a move that is not text carries its ``index``). ``start`` says
    what the game's start position is written as."""
    from pydantic import ValidationError

    if "players" in data and data["players"] is None:  # the first records wrote null
        data = {**data, "players": {}}
    try:
        # As JSON: in strict mode pydantic reads a dataclass from a JSON object only.
        found: E = _checker(model).validate_json(json.dumps(data), strict=True)
        return found
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
    path, given = first["loc"], first.get("input")
    name = str(path[0])
    if name == "moves":
        if first["type"] == "missing":
            raise RecordError("record has no 'moves' field")
        if len(path) > 1 and isinstance(path[1], int):
            index = path[1]
            raise RecordError(f"record move {index} is not text: {_shown(given)}", index=index)
        raise RecordError(
            f"record field 'moves' has the wrong type: it must be a list of move texts, "
            f"not {_shown(data.get('moves'))}"
        )
    if name == "start":
        raise RecordError(
            f"record 'start' must be {start} or null, not {_shown(data.get('start'))}"
        )
    rules = {f.name: f.metadata.get(MUST_BE) for f in dataclasses.fields(model)}
    raise RecordError(
        f"record {name!r} must be {rules.get(name) or 'valid'}, not {_shown(data.get(name))}"
    )


def _shown(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (a record may be large)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def read_record_text(path: str | Path) -> str:
    """The text of a record file; :class:`RecordError` if it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read record {str(path)!r}: {exc}") from None


def play_recorded(state: Any, index: int, text: str) -> None:
    """Play move ``index`` of a record (its ``text``) on ``state``; a move the rules
    refuse is a :class:`RecordError` carrying that index."""
    try:
        state.play(text)
    except PelotonError as exc:
        raise RecordError(f"record move {index} ({text!r}) rejected: {exc}", index=index) from exc


class Everything(Enum):
    """The viewer who sees everything: the full record."""

    FULL = "full"


#: ``Record.to_dict(FULL)`` (the default) is the full record; ``to_dict(player)`` the
#: public record that player may see, ``to_dict(None)`` a spectator's.
FULL = Everything.FULL

#: Who a record is written for: a player, ``None`` (a spectator) or :data:`FULL`.
Viewer = str | Everything | None


class RecordFile(Generic[S]):
    """What every game's record class shares: JSON text and files, and replaying.

    A subclass (a dataclass with a ``moves`` list of move texts) provides
    ``to_dict(viewer)`` (the JSON object; a game that hides nothing ignores the
    viewer), ``from_dict(data)`` (which validates by replaying) and
    ``initial_state()``; a game whose records may hide moves also overrides
    :meth:`play_move`."""

    moves: list[str]

    def initial_state(self) -> S:
        """The state before the first recorded move."""
        raise NotImplementedError

    def play_move(self, state: S, index: int) -> None:
        """Play record move ``index`` on ``state`` (:class:`RecordError` if refused)."""
        play_recorded(state, index, self.moves[index])

    def start_state(self) -> S:
        """:meth:`initial_state`, a record that cannot start being a :class:`RecordError`."""
        try:
            return self.initial_state()
        except RecordError:
            raise
        except PelotonError as exc:
            raise RecordError(f"record cannot start: {exc}") from exc

    def states(self) -> list[S]:
        """The state before each move and after the last (for stepping through a replay)."""
        state = self.start_state()
        out = [self._copy(state)]
        for i in range(len(self.moves)):
            self.play_move(state, i)
            out.append(self._copy(state))
        return out

    def replay(self) -> S:
        """Replay every move through the rules; :class:`RecordError` names the first
        move refused with its 0-based ``index``."""
        state = self.start_state()
        for i in range(len(self.moves)):
            self.play_move(state, i)
        return state

    @staticmethod
    def _copy(state: S) -> S:
        copy: S = state.copy()  # type: ignore[attr-defined]
        return copy

    def to_dict(self, viewer: Viewer = FULL) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        raise NotImplementedError

    def to_json(self, viewer: Viewer = FULL, indent: int | None = 1) -> str:
        """JSON text of :meth:`to_dict`."""
        return json.dumps(self.to_dict(viewer), indent=indent)

    def save(self, path: str | Path, viewer: Viewer = FULL) -> None:
        """Write the record (or ``viewer``'s public record) to a file."""
        Path(path).write_text(self.to_json(viewer) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, text: str) -> Self:
        """Parse record text; :class:`RecordError` says what is wrong with it."""
        return cls.from_dict(decode_record(text))

    @classmethod
    def load(cls, path: str | Path) -> Self:
        """Read a record file."""
        return cls.from_json(read_record_text(path))


def load_record(source: str | Path) -> Any:
    """Load a record of any registered game from JSON text or a file path."""
    text = read_record_text(source) if isinstance(source, Path) else source
    data = decode_record(text)
    try:
        info = registry.get(data["game"])
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    return info.load_record(data)


def require(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """``data[key]`` if present and of ``kind``; otherwise a :class:`RecordError`."""
    if key not in data:
        raise RecordError(f"record has no {key!r} field")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"record field {key!r} has the wrong type: {value!r}")
    return value
