"""What each viewer is shown of a table (docs/protocol.md), built in one place: the
table summary, the table detail, the ``welcome`` and ``update`` messages, and
replays.

A viewer is a seat letter, or ``None`` for a spectator. For a game with hidden
information everything is built from ``snapshot(state, viewer)`` and
``public_moves(state, viewer)``; a game whose snapshot is the same for every viewer
(``public_snapshot``) gets one message for all. Each event builds each distinct
message once, however many connections receive it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ..core.errors import ConfigError
from . import protocol as p
from .games import GameSpec, bots_for
from .live import FINISHED, Connection, LiveTable

#: Keys of a summary that an option of the same name never overwrites.
SUMMARY_KEYS = frozenset(
    [
        "id",
        "status",
        "created",
        "game",
        "title",
        "options",
        "solo",
        "round",
        "moves",
        "seats",
        "result",
    ]
)


def shown(options: Mapping[str, Any]) -> dict[str, Any]:
    """Options as a table summary shows them: an object (a course) by its ``name``."""
    return {k: (v.get("name", "custom") if isinstance(v, dict) else v) for k, v in options.items()}


def objects(options: Mapping[str, Any]) -> dict[str, Any]:
    """The object options in full, as ``<option>_data`` (a course as ``course_data``)."""
    return {f"{k}_data": v for k, v in options.items() if isinstance(v, dict)}


def game(spec: GameSpec) -> dict[str, Any]:
    """A game in ``GET /api/games``: its facts, options, seats and bots. A game that
    seats one player (``min_players`` 1) has a solo game; ``solo_options`` are the
    options of the one-seat game its defaults make (a solo game may ride another
    course or team by default), or ``None`` where its defaults need more seats and the
    player picks options that seat one (a game whose solo game is another mode)."""
    solo = spec.min_seats == 1
    solo_options: dict[str, Any] | None = None
    if solo and "players" in spec.options:
        alone = {"players": 1}
        try:
            solo_options = shown(spec.effective_options(spec.new_state(alone), alone))
        except ConfigError:  # one seat only with other options than the defaults
            solo_options = None
    return {
        "name": spec.name,
        "title": spec.title,
        "hidden_information": spec.hidden,
        "has_chance": spec.info.has_chance,
        "courses": spec.course_cls is not None,
        "options": [
            {"name": name, "default": option.default, "help": option.help}
            | ({"choices": list(option.choices)} if option.choices else {})
            for name, option in spec.options.items()
        ],
        "seats": {"min": spec.min_seats, "max": spec.max_seats, "letters": list(spec.letters)},
        "solo": solo,
        "solo_options": solo_options,
        "solver": spec.solve_solo_fn is not None,
        "bots": bots_for(spec.name),
    }


def iso(moment: datetime) -> str:
    """``2026-11-29T23:30:00Z``."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def summary(table: LiveTable) -> dict[str, Any]:
    """The table summary: the lobby's line and the ``table`` of every message."""
    status = table.status
    options = shown(table.options)
    data: dict[str, Any] = {
        "id": table.id,
        "status": status,
        "created": iso(table.created),
        "game": table.spec.name,
        "title": table.spec.title,
    }
    # The protocol's first form: each option at the top level too (course, riders...).
    for key, value in options.items():
        if key not in SUMMARY_KEYS:
            data[key] = value
    data["options"] = options
    data["solo"] = len(table.seats) == 1
    if (played := table.round) is not None:
        data["round"] = played
    data["moves"] = table.moves_played
    data["seats"] = [
        {"seat": s.seat, "kind": s.kind, "name": s.name, "taken": s.taken}
        for s in table.seats.values()
    ]
    if status == FINISHED:
        data["result"] = result(table)
    return data


def full_summary(table: LiveTable) -> dict[str, Any]:
    """The summary with the table's object options in full (a ``course_data``): what a
    client needs to draw the board, given by the detail and every ``welcome``."""
    return {**summary(table), **objects(table.options)}


def result(table: LiveTable) -> Any:
    """The game's result as JSON (the final one once finished)."""
    if table.final is not None:
        return table.final["result"]
    return table.spec.snapshot(table.state, None).get("result")


def final(table: LiveTable) -> dict[str, Any]:
    """What a finished table keeps in the database (the lobby lists it without replaying)."""
    data: dict[str, Any] = {"moves": len(table.texts), "result": result(table)}
    if (played := table.round) is not None:
        data["round"] = played
    return data


def detail(table: LiveTable, viewer: str | None) -> dict[str, Any]:
    """``GET /api/tables/{id}``: the full summary, the viewer's seat and snapshot."""
    return {
        **full_summary(table),
        "seat": viewer,
        "snapshot": table.spec.snapshot(table.state, viewer),
    }


# ---------------------------------------------------------------- messages


def welcome(table: LiveTable, seat: str | None) -> str:
    """A ``welcome`` message: the full state as ``seat`` may see it."""
    return _welcome(full_summary(table), seat, table.spec.snapshot(table.state, seat))


def welcomes(table: LiveTable) -> list[tuple[Connection, str]]:
    """A ``welcome`` for every connection (a seat was taken: the table changed without
    a move), each distinct one built once."""
    spec = table.spec
    head = full_summary(table)
    public = spec.public
    built: dict[str | None, dict[str, Any]] = {}
    out = []
    for conn in table.connections:
        viewer = None if public else conn.seat
        snap = built.get(viewer)
        if snap is None:
            snap = built[viewer] = spec.snapshot(table.state, viewer)
        out.append((conn, _welcome(head, conn.seat, snap)))
    return out


def updates(table: LiveTable, index: int, move: str, by: str) -> list[tuple[Connection, str]]:
    """The ``update`` of move ``index`` (``move``, played by ``by``) for every
    connection, as its viewer may see it; each distinct message built once."""
    spec = table.spec
    head = summary(table)
    public = spec.public  # the snapshot is the same for every viewer: one message for all
    built: dict[str | None, str] = {}
    out = []
    for conn in table.connections:
        viewer = None if public else conn.seat
        message = built.get(viewer)
        if message is None:
            shown_move = spec.public_moves(table.state, viewer)[index] if spec.hidden else move
            message = built[viewer] = _update(
                index, shown_move, by, spec.snapshot(table.state, viewer), head
            )
        out.append((conn, message))
    return out


def _welcome(head: dict[str, Any], seat: str | None, snap: dict[str, Any]) -> str:
    return p.dumps({"type": "welcome", "seat": seat, "table": head, "snapshot": snap})


def _update(index: int, move: str, by: str, snap: dict[str, Any], head: dict[str, Any]) -> str:
    # The head of the text is read by benchmarks/server_load.py (tests/server check it).
    return p.dumps(
        {"type": "update", "index": index, "move": move, "by": by, "snapshot": snap, "table": head}
    )


# ---------------------------------------------------------------- replays


def table_replay(table: LiveTable, texts: list[str], viewer: str | None) -> dict[str, Any]:
    """A table's replay (its moves ``texts``) as ``viewer`` may see it (blocking): the
    viewer's snapshot before each move and after the last, and the moves as the
    viewer may see them."""
    spec = table.spec
    state = spec.new_state(table.options, table.seed)
    snaps = [spec.snapshot(state, viewer)]
    for text in texts:
        state.play(text)
        snaps.append(spec.snapshot(state, viewer))
    return {
        "game": spec.name,
        "moves": spec.public_moves(state, viewer) if spec.hidden else list(texts),
        "snapshots": snaps,
        "options": shown(table.options),
        **objects(table.options),
        "players": table.players(),
    }


def record_replay(spec: GameSpec, record: Any) -> dict[str, Any]:
    """The replay of an uploaded record (blocking): spectators' snapshots, and the
    record's own moves (the uploader's file)."""
    states = record.states()
    written = record.to_dict()
    given = written.get("options") if isinstance(written.get("options"), dict) else {}
    options = spec.effective_options(states[0], given)
    return {
        "game": spec.name,
        "moves": list(record.moves),
        "snapshots": [spec.snapshot(s, None) for s in states],
        "options": shown(options),
        **objects(options),
        "players": record.players,
    }
