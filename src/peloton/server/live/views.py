"""What each viewer is shown of a table (docs/protocol.md), built in one place: the
table summary, the table detail, the ``welcome`` and ``update`` messages (replays
are built in the workers: :mod:`..work.jobs`, :mod:`..work.replays`).

A viewer is a seat letter, or ``None`` for a spectator. For a game with hidden
information everything is built from ``snapshot(state, viewer)`` and
``public_moves(state, viewer)``; a game whose snapshot is the same for every viewer
(``public_snapshot``) gets one message for all. Each event builds each distinct
message once, however many connections receive it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import orjson

from ...core.errors import ConfigError
from ..deltas import Change, diff
from ..games import GameSpec, bots_for, objects, shown
from . import messages as p
from .table import FINISHED, Connection, LiveTable

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
        "rematch",
        "competition",
        "rated",
        "clock",
        "standin",
    ]
)


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
        "seats_by": {
            name: {choice: list(seats) for choice, seats in by.items()}
            for name, by in spec.seats_by_option.items()
        },
        "choice_facts": spec.choice_facts,
        "solo": solo,
        "solo_options": solo_options,
        "solver": spec.solve_solo_fn is not None,
        "bots": bots_for(spec.name),
        # What the game offers beyond its tables, for the lobby's links.
        **spec.offers(),
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
        {"seat": s.seat, "kind": s.kind, "name": s.name, "taken": s.taken, "profile": s.profile}
        | ({"away": s.away, "standin": s.standin} if s.away else {})
        for s in table.seats.values()
    ]
    data["rated"] = table.rated
    if table.clock is not None:  # each seat's seconds left, and whose clock runs
        data["clock"] = table.clock.view()
    data["standin"] = table.standin
    if status == FINISHED:
        data["result"] = result(table)
    if table.rematch is not None:
        data["rematch"] = table.rematch
    if table.competition is not None:
        data["competition"] = table.competition
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
    """``GET /api/tables/{id}``: the full summary, the viewer's seat and snapshot (legal
    moves only for the seat to move)."""
    snap, legal = seen(table, viewer)
    return {
        **full_summary(table),
        "seat": viewer,
        "snapshot": _with_legal(table, viewer, snap, legal),
    }


def seen(table: LiveTable, viewer: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """What ``viewer`` sees of the position: the snapshot without its lists of the moves
    at hand (``legal``, and any other of the game's ``MOVE_LISTS``: the base of the next
    update's delta), and those lists by key (empty: the game's snapshot has none)."""
    snap = table.spec.snapshot(table.state, viewer)
    return snap, {key: snap.pop(key) for key in table.spec.move_lists if key in snap}


def _with_legal(
    table: LiveTable, viewer: str | None, snap: dict[str, Any], legal: dict[str, Any]
) -> dict[str, Any]:
    """The whole snapshot as ``viewer`` gets it: the moves at hand for the seat to move,
    empty lists for everyone else (nobody else may play them)."""
    mover = viewer is not None and viewer == table.state.current_player
    return {**snap, **(legal if mover else {key: [] for key in legal})}


def _base_key(table: LiveTable, viewer: str | None) -> str | None:
    """Whose delta base a viewer shares: everyone's (``None``) where the snapshot is
    the same for every viewer, else the viewer's own."""
    return None if table.spec.public else viewer


# ---------------------------------------------------------------- messages


def welcome(table: LiveTable, seat: str | None) -> str:
    """A ``welcome`` message: the full state as ``seat`` may see it. What it shows is
    the base of the next ``update``'s deltas for that viewer (the table's lock is held)."""
    snap, legal = seen(table, seat)
    table.shown[_base_key(table, seat)] = snap
    head = summary(table)
    if table.shown_head is None:
        table.shown_head = head
    return _welcome(
        {**head, **objects(table.options)}, seat, _with_legal(table, seat, snap, legal), table
    )


def welcomes(table: LiveTable) -> list[tuple[Connection, str]]:
    """A ``welcome`` for every connection (a seat was taken: the table changed without
    a move), each distinct snapshot built once; they are the bases of the next deltas."""
    head = summary(table)
    full = {**head, **objects(table.options)}
    built: dict[str | None, tuple[dict[str, Any], Any]] = {}
    out = []
    for conn in table.connections:
        key = _base_key(table, conn.seat)
        if key not in built:
            built[key] = seen(table, key)
        snap, legal = built[key]
        snap_shown = _with_legal(table, conn.seat, snap, legal)
        out.append((conn, _welcome(full, conn.seat, snap_shown, table)))
    table.shown = {key: snap for key, (snap, _) in built.items()}
    table.shown_head = head
    return out


#: ``said(viewer, shown move) -> sentence``: a move in words as a viewer may read it.
Sentences = Callable[[str | None, str], str]


def sentences_before(table: LiveTable, move: Any) -> Sentences:
    """How each viewer's ``update`` will say ``move`` in words, taken before it is
    played (``describe`` reads the state before the move). A game that hides nothing
    says it once for all. With hidden information the move is said as the viewer sees
    it (``dial:?``), from the whole state before it: the update goes out once the move
    is played, so what the move's outcome reveals is the viewer's to read (a guess
    says whether it was right; a viewer's own view before it, with no dial, could not),
    and a move the viewer may not see says nothing of itself. Each distinct shown move
    is said once."""
    spec, state = table.spec, table.state
    if not spec.hidden:
        sentence = spec.describe(state, move)
        return lambda viewer, shown: sentence
    before = state.copy()
    texts: dict[str, str] = {}

    def said(viewer: str | None, shown: str) -> str:
        if shown not in texts:
            texts[shown] = spec.describe(before, shown)
        return texts[shown]

    return said


def update_texts(
    table: LiveTable, index: int, move: str, by: str, said: Sentences | None = None
) -> dict[str | None, str]:
    """The distinct ``update`` texts of move ``index`` (``move``, played by ``by``),
    keyed by the viewer who gets them: a seat letter, or ``None`` for spectators and
    any seat without a text of its own. Each is built once, with the move in words
    (``said``, taken before the move by :func:`sentences_before`). Empty when nobody
    is at the table.

    An update carries the changes (:mod:`..deltas`) from the snapshot this viewer was
    last sent to the new one, without legal moves, and from the last summary sent to
    the new one (the clock in full: its seconds run between messages); the seat to
    move gets its legal moves in ``legal`` (and the game's other ``MOVE_LISTS``). A seat gets a text of its own while one of
    its connections is at the table and the snapshot depends on the viewer, or when
    it is to move. The new snapshots are the bases of the next update."""
    if not table.connections:  # nobody to keep a base for: the next hello sets it
        table.shown, table.shown_head = {}, None
        return {}
    spec, state = table.spec, table.state
    head = summary(table)
    table_changes = _summary_changes(table.shown_head, head)
    table.shown_head = head
    seats = {conn.seat for conn in table.connections} - {None}
    viewers: set[str | None] = {None} if spec.public else {None, *seats}
    mover = state.current_player
    shown: dict[str | None, dict[str, Any]] = {}
    texts: dict[str | None, str] = {}
    for viewer in viewers:
        snap, legal = seen(table, viewer)
        before = table.shown.get(viewer)
        changes = diff(before, snap) if before is not None else [[[], snap]]
        shown[viewer] = snap
        shown_move = spec.public_moves(state, viewer)[index] if spec.hidden else move
        sentence = said(viewer, shown_move) if said is not None else shown_move
        text = _update(index, shown_move, by, sentence, changes, table_changes)
        texts[viewer] = text
        if any(legal.values()) and mover in seats and (viewer == mover or spec.public):
            # The seat to move: the same text with its legal moves (no second encoding).
            texts[mover] = f"{text[:-1]},{orjson.dumps(legal).decode()[1:-1]}}}"
    table.shown = shown
    return texts


def _summary_changes(before: dict[str, Any] | None, after: dict[str, Any]) -> list[Change]:
    """The changes of the summary; its ``clock`` always whole (its seconds are read when
    a message is built, so the last one sent may not be what a newer ``welcome`` gave)."""
    if before is None:
        return [[[], after]]
    changes = [c for c in diff(before, after) if not (c[0] and c[0][0] == "clock")]
    if "clock" in after:
        changes.append([["clock"], after["clock"]])
    return changes


def updates(
    table: LiveTable, index: int, move: str, by: str, said: Sentences | None = None
) -> list[tuple[Connection, str]]:
    """The ``update`` of move ``index`` for every connection: its viewer's text of
    :func:`update_texts` (the spectators' where its seat has none)."""
    texts = update_texts(table, index, move, by, said)
    return [(conn, texts.get(conn.seat) or texts[None]) for conn in table.connections]


def invitations(table: LiveTable, by: str) -> list[tuple[Connection, str]]:
    """The ``rematch`` message for everyone still at a finished table: ``by``'s seat
    opened the rematch ``table.rematch``; each may follow the link to take their seat."""
    head = table.shown_head = summary(table)  # the base of the next update's changes
    message = p.dumps(
        {
            "type": "rematch",
            "id": table.rematch,
            "url": f"/table/{table.rematch}",
            "by": by,
            "table": head,
        }
    )
    return [(conn, message) for conn in table.connections]


def _welcome(head: dict[str, Any], seat: str | None, snap: dict[str, Any], table: LiveTable) -> str:
    # ``move_lists``: the snapshot's keys that only an update to the seat to move fills.
    return p.dumps({
        "type": "welcome", "seat": seat, "table": head, "snapshot": snap,
        "move_lists": list(table.spec.move_lists),
    })  # fmt: skip


def _update(
    index: int,
    move: str,
    by: str,
    sentence: str,
    changes: list[Change],
    table_changes: list[Change],
) -> str:
    # The head of the text is read by benchmarks/server_load.py (tests/server check it).
    return p.dumps(
        {
            "type": "update",
            "index": index,
            "move": move,
            "by": by,
            "sentence": sentence,
            "changes": changes,
            "table_changes": table_changes,
        }
    )
