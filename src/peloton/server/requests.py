"""Create requests of docs/protocol.md: Mind Cycling's own (course, riders, wind,
relay limit, seats, solo) and the other games' (game, options through the game's
``from_options``, seats), and :class:`ApiError`, the HTTP error answer."""

from __future__ import annotations

from typing import Any

from ..core.errors import CourseError, PelotonError
from ..games import mindcycling as mc
from . import games

HUMAN = "human"


class ApiError(Exception):
    """An HTTP error answer: ``{"error": {"code", "message", ...extra}}``."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON answer."""
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


def fresh_mc_state(course: mc.Course, teams: dict[str, str], wind: str, relay_limit: int, solo: bool) -> mc.State:
    """A new Mind Cycling game (or the solo challenge, team A alone) for a table."""
    if solo:
        return mc.new_solo(course, teams["A"], wind=wind, relay_limit=relay_limit)
    return mc.new_game(course, teams, wind=wind, relay_limit=relay_limit)


CREATE_KEYS = ("course", "riders", "wind", "relay_limit", "seats", "solo")
#: The keys of a create request for the other games.
GAME_KEYS = ("game", "options", "seats")


def bad_options(message: str) -> ApiError:
    """The 400 answer to a create request whose options are wrong."""
    return ApiError(400, "bad_options", message)


def check_seats(seats: Any, game: str, each: str) -> list[str]:
    """The ``seats`` of a create request: a list of the seat kinds ``game``'s tables
    offer (human or one of its bots), one per ``each`` (team or player)."""
    kinds = [HUMAN, *games.bots_for(game)]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise bad_options(f"'seats' must be a list of seat kinds ({', '.join(kinds)}), one per {each}, not {seats!r}")
    for kind in seats:
        if kind not in kinds:
            raise bad_options(f"no seat kind {kind!r} at this game's tables; a seat is one of {', '.join(kinds)}")
    return seats


def check_course(value: Any) -> mc.Course:
    """The course of a create request: a bundled name or a course object."""
    try:
        if isinstance(value, str):
            if value not in mc.bundled_names():
                raise CourseError(f"no bundled course called {value!r} (bundled: {', '.join(mc.bundled_names())})")
            return mc.Course.load(value)
        if isinstance(value, dict):
            return mc.Course.from_dict(value)
        raise CourseError(f"'course' must be a bundled course name or a course object, not {value!r}")
    except CourseError as exc:
        raise ApiError(400, "bad_course", str(exc), problems=exc.problems) from None


def check_create_request(request: Any) -> dict[str, Any]:
    """Validate a create request; the options with the new game's state."""
    if not isinstance(request, dict):
        raise ApiError(400, "bad_request", "a create request is a JSON object (see docs/protocol.md)")
    request = _merge_mc_options(request)
    unknown = sorted(set(request) - set(CREATE_KEYS))
    if unknown:
        raise bad_options(f"unknown option(s) {', '.join(map(repr, unknown))}; options: {', '.join(CREATE_KEYS)}")
    solo = request.get("solo", False)
    if not isinstance(solo, bool):
        raise bad_options(f"'solo' must be true or false, not {solo!r}")
    course = check_course(request.get("course", "solo" if solo else "standard"))
    seats = check_seats(request.get("seats"), games.MIND_CYCLING, "team")
    if solo and len(seats) != 1:
        raise bad_options(f"the solo challenge has exactly one seat, not {len(seats)}")
    if not solo and not 2 <= len(seats) <= 7:
        raise bad_options(f"a table has 2 to 7 seats, not {len(seats)}")
    riders = request.get("riders", len(mc.SOLO_COMPOSITION) if solo else 6)
    if isinstance(riders, bool) or not isinstance(riders, int) or not 3 <= riders <= 6:
        raise bad_options(f"'riders' must be a whole number from 3 to 6, not {riders!r}")
    if solo and riders != len(mc.SOLO_COMPOSITION):
        raise bad_options(f"the solo team has {len(mc.SOLO_COMPOSITION)} riders, not {riders}")
    wind = request.get("wind", "front")
    relay_limit = request.get("relay_limit", 3)
    teams = {"A": mc.SOLO_COMPOSITION} if solo else mc.default_teams(len(seats), riders)
    try:
        state = fresh_mc_state(course, teams, wind, relay_limit, solo)
    except CourseError as exc:
        raise ApiError(400, "bad_course", str(exc), problems=exc.problems) from None
    except PelotonError as exc:
        raise bad_options(str(exc)) from None
    return {
        "course": course,
        "seats": seats,
        "riders": riders,
        "wind": wind,
        "relay_limit": relay_limit,
        "solo": solo,
        "teams": dict(state.teams),
        "state": state,
    }


def _merge_mc_options(request: dict[str, Any]) -> dict[str, Any]:
    """A Mind Cycling request with ``game`` and ``options`` folded into the old flat
    keys (both forms are accepted; ``players`` must agree with ``seats``)."""
    request = {k: v for k, v in request.items() if k != "game"}
    options = request.pop("options", None)
    if options is None:
        return request
    if not isinstance(options, dict):
        raise bad_options(f"'options' must be an object of option values, not {options!r}")
    for key, value in options.items():
        if key == "players":
            seats = request.get("seats")
            if isinstance(seats, list) and value != len(seats):
                raise bad_options(f"option 'players' is {value!r} but 'seats' lists {len(seats)} seats")
            continue
        if key in request and request[key] != value:
            raise bad_options(f"option {key!r} is given twice with different values")
        request[key] = value
    return request


def check_game_request(spec: games.GameSpec, request: dict[str, Any]) -> dict[str, Any]:
    """Validate a create request of a game other than Mind Cycling: its seats, and
    its options through the game's ``from_options``; the new game's state."""
    unknown = sorted(set(request) - set(GAME_KEYS))
    if unknown:
        raise bad_options(
            f"unknown key(s) {', '.join(map(repr, unknown))} for a {spec.name} table; "
            f"a request has {', '.join(GAME_KEYS)} (the game's settings go in 'options')"
        )
    options = request.get("options", {})
    if not isinstance(options, dict):
        raise bad_options(f"'options' must be an object of option values, not {options!r}")
    unknown = sorted(set(options) - set(spec.options))
    if unknown:
        raise bad_options(f"unknown option(s) {', '.join(map(repr, unknown))} of {spec.name}; options: {', '.join(spec.options)}")
    seats = check_seats(request.get("seats"), spec.name, "player")
    if not spec.min_seats <= len(seats) <= spec.max_seats:
        span = str(spec.min_seats) if spec.min_seats == spec.max_seats else f"{spec.min_seats} to {spec.max_seats}"
        raise bad_options(f"a {spec.title} table has {span} seats, not {len(seats)}")
    if "players" in spec.options:
        if "players" in options and options["players"] != len(seats):
            raise bad_options(f"option 'players' is {options['players']!r} but 'seats' lists {len(seats)} seats")
        options = {**options, "players": len(seats)}
    full = {**spec.defaults(), **options}
    try:
        games.check_choices(spec, full)
        state = spec.new_state(full)
    except PelotonError as exc:
        raise bad_options(str(exc)) from None
    except (TypeError, ValueError) as exc:  # defensive: from_options should raise ConfigError
        raise bad_options(f"bad options: {exc}") from None
    letters = list(state.players)
    if len(letters) != len(seats):
        raise bad_options(f"a {spec.title} game with these options has {len(letters)} seats, not {len(seats)}")
    return {"state": state, "options": full, "seats": seats, "letters": letters}
