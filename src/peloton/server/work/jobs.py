"""The work the server runs in its worker processes (:mod:`.workers`), by name: a
bot's decision, a course check, a table's replay, an uploaded record's replay.

Each job is a plain function of plain (picklable) arguments. It answers what the
HTTP handler or the table needs, refusals included, as data: an engine error never
crosses the process boundary as an exception (a job that raises is a bug, logged by
the server).
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from ...bots import make_bot
from ...core import record as core_record
from ...core.errors import CourseError, PelotonError, RecordError
from ...core.registry import FIRST_GAME
from ...core.rng import Rng
from .. import games
from ..games import GameSpec, objects, shown
from ..inputs import InputError, loads_json, loads_toml
from ..limits import MAX_RECORD_MOVES
from . import replays
from .drafts import check_draft

# ---------------------------------------------------------------- bots


@dataclass(frozen=True)
class Position:
    """What a bot's job is told of its table: enough to rebuild the position through
    the rules (states are not sent between processes: a game's values need not
    pickle, and the rules rebuild exactly what the server holds)."""

    #: The table's key (the cache of positions a worker keeps).
    table: str
    game: str
    options: dict[str, Any]
    seed: int | None
    #: The stored moves so far (the full ones: the worker is the server).
    texts: list[str]
    #: Whose view the bot gets (a game with hidden information), else ``None``.
    viewer: str | None


#: Positions a worker rebuilt lately, by table: a table's next decision plays only the
#: moves since (a game's states are rebuilt move by move, not sent).
_POSITIONS: OrderedDict[str, tuple[list[str], Any]] = OrderedDict()
_KEPT_POSITIONS = 64


def _rebuild(where: Position) -> Any:
    """The state of ``where`` (its viewer's view), from this worker's cache if it can."""
    spec = games.spec(where.game)
    cached = _POSITIONS.pop(where.table, None)
    if cached is not None and where.texts[: len(cached[0])] == cached[0]:
        played, state = cached
    else:
        played, state = [], spec.new_state(where.options, where.seed)
    for text in where.texts[len(played) :]:
        state.play(text)
    _POSITIONS[where.table] = (list(where.texts), state)
    while len(_POSITIONS) > _KEPT_POSITIONS:
        _POSITIONS.popitem(last=False)
    return state.view(where.viewer) if where.viewer is not None else state.copy()


def bot_move(kind: str, seed: int, where: Position) -> str:
    """The move (its notation) the ``kind`` bot seeded with ``seed`` chooses at
    ``where`` (its own view in a game with hidden information)."""
    return str(make_bot(kind, seed, game=where.game).choose(_rebuild(where)))


def random_move(seed: int, where: Position) -> str:
    """A legal move drawn from ``seed``: what a bot plays when its own choice took
    longer than a table may ask for."""
    return str(Rng(seed).choice(list(_rebuild(where).legal_moves())))


# ---------------------------------------------------------------- courses


def check_course(game: str, body: Mapping[str, Any]) -> tuple[str, Any]:
    """``POST /api/courses/check``: ``("ok", answer)`` or ``("bad_request", message)``.
    The text is parsed here with the server's limits (:mod:`..inputs`), then checked
    by the game's ``Course.from_dict``."""
    course_cls = games.spec(game).course_cls
    try:
        if isinstance(body.get("course"), dict):
            course = course_cls.from_dict(body["course"])
        else:
            text, fmt = body.get("text"), body.get("format")
            if not isinstance(text, str):
                return ("bad_request", f"'text' must be the course file's text, not {_short(text)}")
            if fmt is None:
                fmt = "json" if text.lstrip().startswith("{") else "toml"
            if fmt not in ("toml", "json"):
                return ("bad_request", f"'format' must be 'toml' or 'json', not {_short(fmt)}")
            course = course_cls.from_dict(_parse_course(text, fmt))
    except InputError as exc:
        return ("bad_request", str(exc))
    except CourseError as exc:
        return ("ok", {"ok": False, "problems": list(exc.problems)})
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        # A value of a type the course loader did not expect: a malformed course.
        return (
            "ok",
            {
                "ok": False,
                "problems": [f"the course is malformed ({type(exc).__name__}: {_short(str(exc))})"],
            },
        )
    return ("ok", {"ok": True, "course": course.to_dict()})


def _parse_course(text: str, fmt: str) -> Any:
    """The data of a course text: a :class:`CourseError` (a problem of the course,
    answered ``ok: false``) for text that is not valid TOML or JSON, an
    :class:`InputError` (a 400) for text over the server's limits."""
    source = "uploaded course"
    try:
        return loads_toml(text, repr(source)) if fmt == "toml" else loads_json(text, repr(source))
    except InputError as exc:
        if exc.syntax:
            raise CourseError(str(exc)) from None
        raise


def dump(value: Any) -> bytes:
    """JSON bytes of an answer (orjson: ten times faster; the standard library for
    what orjson refuses, such as an integer over 64 bits a record may carry)."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return json.dumps(value, ensure_ascii=False).encode("utf-8")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:80] + "…"


# ---------------------------------------------------------------- replays


def table_replay(
    game: str,
    options: dict[str, Any],
    seed: int | None,
    texts: list[str],
    viewer: str | None,
    players: dict[str, Any],
) -> bytes:
    """A table's replay (``texts``: its stored moves) as ``viewer`` may see it, as JSON."""
    spec = games.spec(game)
    state = spec.new_state(options, seed)
    # Each move in words, from the state before it; in a game with hidden information
    # once the move as the viewer sees it is known (the end), from the whole state (the
    # move's outcome is the viewer's to read, a move it may not see says nothing: as
    # views.sentences_before says it live), in a second walk through the moves: a copy
    # of the state kept for each move would hold the game's history as often.
    said: list[str] = []

    def positions() -> Iterator[dict[str, Any]]:
        yield spec.snapshot(state, viewer)
        for text in texts:
            if not spec.hidden:
                said.append(spec.describe(state, text))
            state.play(text)
            yield spec.snapshot(state, viewer)

    extra = {"options": shown(options), **objects(options), "players": players}
    answer = replays.replay(spec.name, [], positions(), extra, spec.move_lists)
    moves = spec.public_moves(state, viewer) if spec.hidden else list(texts)
    if spec.hidden:
        again = spec.new_state(options, seed)
        for text, seen in zip(texts, moves, strict=True):
            said.append(spec.describe(again, seen))
            again.play(text)
    answer["moves"] = moves
    answer["sentences"] = said
    return dump(answer)


def upload_replay(body: bytes) -> tuple[str, Any, Any]:
    """``POST /api/replay``: ``("ok", JSON bytes, None)``, or ``("bad_record", message,
    index)`` (``index``: the first bad move, or ``None``)."""
    try:
        data = loads_json(body, "the record")
        return ("ok", _record_replay(data), None)
    except InputError as exc:
        return ("bad_record", str(exc), None)
    except RecordError as exc:
        return ("bad_record", str(exc), exc.index)
    except PelotonError as exc:  # the loader should only raise RecordError
        return ("bad_record", str(exc), None)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        # A loader that met a value of a type it did not expect (a list for the wind):
        # the record is malformed, whatever the loader's own checks missed.
        return (
            "bad_record",
            f"the record is malformed ({type(exc).__name__}: {_short(str(exc))})",
            None,
        )


def _record_replay(data: Any) -> bytes:
    if not isinstance(data, dict):
        raise RecordError(f"record must be a JSON object, not {type(data).__name__}")
    moves = data.get("moves")
    if isinstance(moves, list) and len(moves) > MAX_RECORD_MOVES:
        raise RecordError(
            f"the record has {len(moves)} moves: this server replays at most {MAX_RECORD_MOVES}"
        )
    if data.get("format") != core_record.RECORD_FORMAT:
        raise RecordError(
            f"unsupported record format {_short(data.get('format'))} (expected {core_record.RECORD_FORMAT!r})"
        )
    if not isinstance(data.get("game"), str):
        raise RecordError("record has no 'game' name")
    try:
        spec = games.spec(data["game"])
    except PelotonError:
        # A record of a game this server does not host: the first game's loader
        # refuses it, naming the record's game.
        spec = games.spec(FIRST_GAME)
    _check_choices(spec, data)
    record = spec.module.Record.from_dict(data)
    # One state walked through the moves, not ``record.states()``: a copy per position
    # costs what the game holds so far, and a game that keeps its log as it goes (Mind
    # Twist) would read it again from the start in every copy.
    state = record.start_state()
    written = record.to_dict()
    given = written.get("options") if isinstance(written.get("options"), dict) else {}
    options = spec.effective_options(state, given)
    extra = {"options": shown(options), **objects(options), "players": record.players}
    sentences: list[str] = []

    def positions() -> Iterator[dict[str, Any]]:
        yield spec.snapshot(state, None)
        for i, move in enumerate(record.moves):
            sentences.append(spec.describe(state, move))
            record.play_move(state, i)
            yield spec.snapshot(state, None)

    answer = replays.replay(spec.name, list(record.moves), positions(), extra, spec.move_lists)
    answer["sentences"] = sentences
    return dump(answer)


def _check_choices(spec: GameSpec, data: dict[str, Any]) -> None:
    """The rule of table creation for an uploaded record's options: an option with
    choices is one of them or an object (a course, a layout), never a text naming
    something else. A record's text never names a file of the server; every such
    refusal reads the same, whatever the text names."""
    options = data.get("options")
    if not isinstance(options, dict):
        return
    for name, value in options.items():
        try:
            spec.check_choice(name, value)
        except PelotonError as exc:
            raise RecordError(f"record {exc}") from None


# ---------------------------------------------------------------- the solo solver


def solve_solo(
    game: str, options: dict[str, Any], deadline: float, overrun: float
) -> dict[str, Any]:
    """The solo solver's answer for a solo game, due by ``deadline`` (``time.time()``):
    given what is left until then, less ``overrun`` (what the solver tends to run over
    its limit). ``{"solution": ..., "limit": the seconds it was given}``."""
    limit = max(0.1, deadline - time.time() - overrun)
    return {"solution": games.spec(game).solve_solo(options, limit), "limit": limit}


# ---------------------------------------------------------------- start-up


def warm_up() -> int:
    """Import every game this server hosts, and the bots: a worker's first real job
    then does not pay for them (at start-up, on a busy machine, several seconds)."""
    import importlib

    for name in ("peloton.bots.levels", "peloton.bots.mcts", "peloton.bots.greedy"):
        importlib.import_module(name)
    return len(games.available())


#: The jobs a worker runs, by name.
JOBS: dict[str, Callable[..., Any]] = {
    "bot_move": bot_move,
    "random_move": random_move,
    "check_course": check_course,
    "check_draft": check_draft,
    "table_replay": table_replay,
    "upload_replay": upload_replay,
    "solve_solo": solve_solo,
    "warm_up": warm_up,
}
