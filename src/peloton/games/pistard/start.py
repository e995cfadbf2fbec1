"""How a Pistard game starts: a new game, from options, or from a position text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import ConfigError, NotationError, StateError
from ...core.registry import Option
from .notation import OUT, START, Position, parse_position
from .paths import BONUSES, BOTH
from .riders import MAX_PLAYERS, MIN_PLAYERS, TEAM_LETTERS, team_riders, teams_for
from .scoring import DEFAULT_TARGET, MAX_TARGET
from .state import State
from .track import DEFAULT_LENGTH, MAX_LENGTH, MIN_LENGTH, Layout, bundled_names, resolve_layout

#: The game's options: ``{name: Option(default, help, choices)}`` (docs/games.md).
OPTIONS: dict[str, Option] = {
    "players": Option(
        2, f"number of players, {MIN_PLAYERS} to {MAX_PLAYERS} (teams A-D, 4 riders each)"
    ),
    "length": Option(
        DEFAULT_LENGTH,
        f"rows in the loop, {MIN_LENGTH} to {MAX_LENGTH} (PI-1.1; PI-4.1 laps by it)",
    ),
    "layout": Option(
        "default",
        "track colours: a bundled layout name, a .toml/.json file, or inline keys",
        tuple(bundled_names()),
    ),
    "bonus": Option(
        BOTH,
        "end-of-move bonus: both (the standard game, PI-3.6); house rules: colour (PI-3.4 only), "
        "shelter (PI-3.5 only) or none",
        tuple(BONUSES),
    ),
    "target": Option(
        DEFAULT_TARGET, f"points that win the game at once, 1 to {MAX_TARGET} (PI-4.3)"
    ),
}


def check_options(bonus: object, target: object) -> None:
    """Raise :class:`ConfigError` unless ``bonus`` and ``target`` are valid."""
    if bonus not in BONUSES:
        raise ConfigError(f"bonus must be one of {', '.join(BONUSES)}, not {bonus!r}")
    if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= MAX_TARGET:
        raise ConfigError(
            f"target must be a whole number of points from 1 to {MAX_TARGET}, not {target!r}"
        )


def _layout(layout: Layout | str | Mapping[str, Any], length: object) -> Layout:
    if length is not None and (isinstance(length, bool) or not isinstance(length, int)):
        raise ConfigError(f"length must be a whole number of rows, not {length!r}")
    return resolve_layout(layout, length)


def new_game(
    players: int = 2,
    *,
    layout: Layout | str | Mapping[str, Any] = "default",
    length: int | None = None,
    bonus: str = BOTH,
    target: int = DEFAULT_TARGET,
    seed: int | None = None,
    target_at_round_end: bool = False,
) -> State:
    """A new game of ``players`` teams at the first move (PI-2).

    ``layout`` is a :class:`Layout`, a bundled name or file, or inline keys; ``length``
    resizes a bundled layout (any other must have that length); ``seed`` is kept for
    the record (the seed of the chance :class:`~peloton.core.rng.Rng` the caller uses).
    ``target_at_round_end`` replays a game recorded before PI-4.3 was corrected (the
    target was then checked at the end of the round); no table plays it.
    """
    teams = teams_for(players)
    check_options(bonus, target)
    state = State(
        teams,
        _layout(layout, length),
        bonus=bonus,
        target=target,
        target_at_round_end=target_at_round_end,
    )
    state.seed = seed
    return state


def game_arguments(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The keyword arguments of :func:`new_game` that JSON ``options`` stand for
    (missing ones take their defaults); :class:`ConfigError` for an unknown option
    or a layout of the wrong type."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ConfigError(
            f"unknown Pistard option(s) {', '.join(map(repr, unknown))} (known: {', '.join(OPTIONS)})"
        )
    values = {name: options.get(name, option.default) for name, option in OPTIONS.items()}
    if "layout" in options and not isinstance(values["layout"], str | Mapping):
        raise ConfigError(
            f"layout must be a layout name, a file path or inline keys, not {values['layout']!r}"
        )
    # A length given alone resizes the bundled layout; without one the layout decides.
    values["length"] = options.get("length")
    return values


def from_options(options: Mapping[str, Any] | None = None) -> State:
    """A new game from JSON options (see :data:`OPTIONS`); missing ones take their
    defaults, unknown or bad ones raise :class:`ConfigError` naming the option."""
    return new_game(**game_arguments(options))


def from_position(
    text: str,
    *,
    layout: Layout | str | Mapping[str, Any] = "default",
    length: int | None = None,
    bonus: str = BOTH,
    target: int = DEFAULT_TARGET,
    target_at_round_end: bool = False,
) -> State:
    """The state at the start of the round a position text describes (see
    :mod:`.notation`). :class:`NotationError` for text that is malformed or describes
    an impossible position, saying what is wrong. The state keeps the text (canonical)
    as ``start``, so that its record replays from it."""
    check_options(bonus, target)
    track = _layout(layout, length)
    pos = parse_position(text)
    letters = "".join(sorted({rid[0] for rid in pos.riders}))
    if not MIN_PLAYERS <= len(letters) <= MAX_PLAYERS or letters != TEAM_LETTERS[: len(letters)]:
        raise NotationError(
            f"position {text!r} must give teams A, B (C, D) in order, not {letters or 'none'}"
        )
    teams = tuple(letters)
    for team in teams:
        missing = [r for r in team_riders(team) if r not in pos.riders]
        if missing:
            raise NotationError(f"position {text!r} does not say where {', '.join(missing)} are")
    for team in [*pos.points, *pos.last]:
        if team not in teams:
            raise NotationError(f"position {text!r} names team {team}, which has no riders")
    state = State(teams, track, bonus=bonus, target=target, target_at_round_end=target_at_round_end)
    taken: dict[int, str] = {}
    for rid, (lap, where) in pos.riders.items():
        if where == OUT:
            state.out.append(rid)
            continue
        if where == START:
            continue
        sq = track.parse_square(where)
        if sq is None:
            raise NotationError(
                f"position square {where!r} of {rid} is not on the track (rows 1-{track.length})"
            )
        if sq in taken:
            raise NotationError(f"position puts {taken[sq]} and {rid} both on {where}")
        taken[sq] = rid
        state.place(rid, (lap - 1) * track.length + (sq >> 2) + 1, sq & 3)
    racing = state.racing
    if not racing:
        raise NotationError(f"position {text!r} has no rider left in the race")
    state.lead = leader = max(state.dist[r] for r in racing)
    for rid in racing:
        if leader - state.dist[rid] >= track.length:
            raise NotationError(
                f"position {text!r}: {rid} is a lap behind the leader and should be out (PI-4.1)"
            )
    state.points.update(pos.points)
    state.laps = dict(pos.laps)
    state.recency = list(pos.last)
    if any(p >= target for p in state.points.values()):
        raise NotationError(
            f"position {text!r}: a player already has the target of {target} points"
        )
    state.out.sort(key=lambda r: r)
    state.begin_round(pos.round)
    state.start = to_position(state)
    return state


def to_position(state: State) -> str:
    """The position text of a state at the start of a later round (:class:`StateError`
    at any other moment: the text has no room for rolls or riders already moved)."""
    if not state.at_round_start:
        raise StateError("a position text describes the start of a later round (round 2 on)")
    riders: dict[str, tuple[int, str]] = {}
    for rid in state.riders:
        if rid in state.out:
            riders[rid] = (0, OUT)
        elif state.lane[rid] < 0:
            riders[rid] = (0, START)
        else:
            square = state.square_of(rid)
            assert square is not None
            riders[rid] = (state.lap_of(rid), square)
    pos = Position(state.round, riders, dict(state.points), dict(state.laps), list(state.recency))
    return pos.to_text()
