"""How a Mind Cycling game starts: the typed constructors (a new game, a solo game, an
MCN position) and the game-package contract's options (docs/games.md): a game from a
dict of JSON options, and the options described.

The web create form, ``peloton simulate --option k=v`` and the terminal all pass the
same options through :func:`from_options`, which calls the typed constructors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import ConfigError, NotationError
from ...core.registry import Option
from .course import Course, bundled_names, row_of
from .notation import parse_mcn
from .riders import (
    DEFAULT_COMPOSITIONS,
    SOLO_COMPOSITION,
    TEAM_LETTERS,
    default_teams,
    team_rider_ids,
)
from .state import DEFAULT_RELAY_LIMIT, WINDS, State, check_rules


def _course(course: Course | str) -> Course:
    return Course.load(course) if isinstance(course, str) else course


def new_game(
    course: Course | str,
    teams: Mapping[str, str],
    *,
    wind: str = "front",
    relay_limit: int = DEFAULT_RELAY_LIMIT,
) -> State:
    """A new game of 2 to 7 teams, starting with setup (MC-3)."""
    return State(_course(course), teams, wind=wind, relay_limit=relay_limit)


def new_solo(
    course: Course | str,
    team: str = SOLO_COMPOSITION,
    *,
    wind: str = "front",
    relay_limit: int = DEFAULT_RELAY_LIMIT,
) -> State:
    """A new solo game (MC-9): one team of five, placed on the start zone's last row."""
    return State(_course(course), {"A": team}, wind=wind, relay_limit=relay_limit, solo=True)


def from_mcn(
    course: Course | str,
    text: str,
    *,
    wind: str = "front",
    relay_limit: int = DEFAULT_RELAY_LIMIT,
) -> State:
    """The state at the start of the round an MCN text describes (MC-10.2).

    Teams and compositions follow from the rider ids; one team means the solo version.
    Raises :class:`peloton.NotationError` for text that is malformed or describes an
    impossible position, saying what is wrong.
    """
    course = _course(course)
    check_rules(wind, relay_limit)  # bad options are a ConfigError, not a notation one
    pos = parse_mcn(text)
    every = [*pos.riders, *pos.finished]
    if not every:
        raise NotationError(f"MCN {text!r} names no rider")
    letters = sorted({rid[0] for rid in every})
    if "".join(letters) != TEAM_LETTERS[: len(letters)]:
        raise NotationError(
            f"MCN {text!r}: teams must be lettered from A without gaps, not {letters}"
        )
    comps: dict[str, str] = {}
    for t in letters:
        ids = sorted(rid for rid in every if rid[0] == t)
        comp = "".join(rid[1] for rid in ids)
        # Ordinals must run 1, 2 per type (MC-2.3) for the ids to make a team.
        expected = team_rider_ids(t, "".join(sorted(comp, key="DSC".index)))
        if sorted(expected) != ids:
            raise NotationError(
                f"MCN {text!r}: team {t}'s rider ids {ids} are not numbered 1, 2 per type"
            )
        comps[t] = comp
    try:
        state = State(course, comps, wind=wind, relay_limit=relay_limit, solo=len(comps) == 1)
    except ConfigError as exc:
        raise NotationError(f"MCN {text!r}: {exc}") from None
    race = state.race
    for rid, (name, bottle) in pos.riders.items():
        sq = course.parse_square(name)
        if sq is None:
            raise NotationError(f"MCN {text!r}: {rid}'s square {name} is not on the road")
        if course.is_rock(sq):
            raise NotationError(f"MCN {text!r}: {rid} stands on the rock at {name}")
        if sq in race.rider_at:
            raise NotationError(f"MCN {text!r}: {rid} and {race.rider_at[sq]} share square {name}")
        race.put(rid, sq)
        if not bottle:
            race.bottles.discard(rid)
        else:
            race.bottles.add(rid)
    for rid in pos.finished:
        race.bottles.discard(rid)
    race.finished = list(pos.finished)
    if race.finished:  # MC-8.3: the first across holds Best Cyclist
        race.medals["cyclist"] = race.finished[0]
    for key, medal in (("sprint", "sprinter"), ("mountain", "climber")):
        holder = pos.medals.get(key)
        if holder is None:
            continue
        last = course.last_row_of(key)
        if last is None:
            raise NotationError(f"MCN {text!r}: course {course.name!r} has no {key} section")
        if holder not in state.ids:
            raise NotationError(f"MCN {text!r}: the {key} medal holder {holder} is not in the game")
        if holder in race.square_of and row_of(race.square_of[holder]) <= last:
            raise NotationError(
                f"MCN {text!r}: {holder} holds the {key} medal but has not passed row {last}"
            )
        race.medals[medal] = holder
    state.start_round(pos.round)
    return state


# ---------------------------------------------------------------- options (docs/games.md)

#: Seats a Mind Cycling game may have from the options (1 is the solo challenge).
MIN_PLAYERS, MAX_PLAYERS = 1, 7  # MC-2.2: solo, or 2 to 7 teams

#: ``{name: Option(default, help, choices)}`` for every option :func:`from_options` accepts.
OPTIONS: dict[str, Option] = {
    "players": Option(
        2, f"number of teams, {MIN_PLAYERS} to {MAX_PLAYERS}; 1 is the solo challenge (MC-9)"
    ),
    "course": Option(
        "standard",
        f"a bundled course ({', '.join(bundled_names())}) or a course object (MC-1.5); "
        "when omitted, the solo challenge rides the solo course",
        tuple(bundled_names()),
    ),
    "riders": Option(
        6,
        "riders per team, 3 to 6 (MC-2.2); the solo team always has 5",
        tuple(sorted(DEFAULT_COMPOSITIONS)),
    ),
    "wind": Option("front", f"wind direction: {', '.join(WINDS)} (MC-5.5)", tuple(WINDS)),
    "relay_limit": Option(
        DEFAULT_RELAY_LIMIT,
        "how many riders behind a train's front rider may relay: train places 2 to relay_limit + 1, "
        "as the train stood at the round's start (MC-6.5); 0: no relays",
    ),
}


def options_of(state: State) -> dict[str, Any]:
    """Every option ``state`` was made with, as JSON (the course as an object, so that a
    game replays on the course it was made with whatever the bundled files become; the
    solo challenge's course and riders differ from the defaults)."""
    return {
        "players": len(state.teams),
        "course": state.course.to_dict(),
        "riders": len(next(iter(state.teams.values()))),
        "wind": state.wind,
        "relay_limit": state.relay_limit,
    }


def _int_option(options: Mapping[str, Any], name: str, low: int, high: int | None) -> int:
    value = options.get(name, OPTIONS[name][0])
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"option {name!r} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise ConfigError(f"option {name!r} must be {span}, not {value}")
    return value


def _course_option(options: Mapping[str, Any], solo: bool) -> Course:
    if "course" not in options:
        return Course.load("solo" if solo else str(OPTIONS["course"][0]))
    value = options["course"]
    if isinstance(value, str):
        # Names only: a file path here would let a web client read the server's files.
        if value not in bundled_names():
            raise ConfigError(
                f"option 'course' names no bundled course {value!r} (bundled: {', '.join(bundled_names())})"
            )
        return Course.load(value)
    if isinstance(value, Mapping):
        return Course.from_dict(value)  # CourseError (a ConfigError) lists every problem
    raise ConfigError(f"option 'course' must be a course name or a course object, not {value!r}")


def from_options(options: Mapping[str, Any] | None = None) -> State:
    """A new game from JSON options (see :data:`OPTIONS`); missing ones take their
    defaults. Raises :class:`ConfigError` naming the first bad or unknown option."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ConfigError(
            f"unknown Mind Cycling option(s) {', '.join(map(repr, unknown))} (options: {', '.join(OPTIONS)})"
        )
    players = _int_option(options, "players", MIN_PLAYERS, MAX_PLAYERS)
    solo = players == 1
    wind = options.get("wind", OPTIONS["wind"][0])
    if wind not in WINDS:
        raise ConfigError(f"option 'wind' must be one of {', '.join(WINDS)}, not {wind!r}")
    relay_limit = _int_option(options, "relay_limit", 0, None)
    course = _course_option(options, solo)
    if solo:
        if "riders" in options and options["riders"] != len(SOLO_COMPOSITION):
            raise ConfigError(
                f"option 'riders': the solo team has {len(SOLO_COMPOSITION)} riders, not {options['riders']!r}"
            )
        return new_solo(course, wind=wind, relay_limit=relay_limit)
    riders = _int_option(options, "riders", min(DEFAULT_COMPOSITIONS), max(DEFAULT_COMPOSITIONS))
    try:
        return new_game(course, default_teams(players, riders), wind=wind, relay_limit=relay_limit)
    except ConfigError as exc:
        if "start zone" in str(exc):  # too many riders for the course: say which option
            raise ConfigError(f"option 'players': {exc}") from None
        raise
