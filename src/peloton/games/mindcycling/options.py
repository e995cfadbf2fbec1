"""Mind Cycling to the game-package contract (docs/games.md): a game from a dict of
JSON options, the options described, and the public move list.

The web create form, ``peloton simulate --option k=v`` and the terminal all pass the
same options through :func:`from_options`; ``new_game``/``new_solo`` stay the typed
constructors it calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import ConfigError
from ...core.registry import Option
from .course import Course, bundled_names
from .riders import DEFAULT_COMPOSITIONS, SOLO_COMPOSITION, default_teams
from .start import new_game, new_solo
from .state import DEFAULT_RELAY_LIMIT, WINDS, State

#: Seats a Mind Cycling game may have from the options (1 is the solo challenge).
MIN_PLAYERS, MAX_PLAYERS = 1, 7  # MC-2.2: solo, or 2 to 7 teams

#: ``{name: Option(default, help, choices)}`` for every option :func:`from_options` accepts.
OPTIONS: dict[str, Option] = {
    "players": Option(2, f"number of teams, {MIN_PLAYERS} to {MAX_PLAYERS}; 1 is the solo challenge (MC-9)"),
    "course": Option(
        "standard",
        f"a bundled course ({', '.join(bundled_names())}) or a course object (MC-1.5); "
        "when omitted, the solo challenge rides the solo course",
        tuple(bundled_names()),
    ),
    "riders": Option(6, "riders per team, 3 to 6 (MC-2.2); the solo team always has 5"),
    "wind": Option("front", f"wind direction: {', '.join(WINDS)} (MC-5.5)", tuple(WINDS)),
    "relay_limit": Option(
        DEFAULT_RELAY_LIMIT,
        "how many riders behind a train's front rider may relay: train places 2 to relay_limit + 1, "
        "as the train stood at the round's start (MC-6.5); 0: no relays",
    ),
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


def public_moves(state: State, viewer: str | None = None) -> list[str]:
    """The moves played so far, in notation, as ``viewer`` may see them: Mind Cycling
    hides nothing, so every viewer sees them all."""
    return [str(move) for move in state.history]
