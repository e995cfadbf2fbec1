"""Create requests of docs/protocol.md, the same for every game: the game, its
options (checked by the game's ``from_options``), the seats, and ``solo``.

A request without ``game`` is the first game's, and options may also be given at the
top level beside ``seats`` (the protocol's first form, kept for its clients).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...core.errors import PelotonError
from ...core.registry import FIRST_GAME
from .. import games
from ..errors import (
    BAD_REQUEST,
    ApiError,
    bad_course,
    bad_options,
    create_error,
    field_problem,
    shown,
)
from ..games import COURSE_OPTION, HUMAN, GameSpec
from ..inputs import name_problem
from .clocks import TimeControl
from .presence import DEFAULT_STANDIN, check_settings

#: The longest player's name (a seat's, a creator's).
MAX_NAME = 40

#: The keys of a create request that are not options.
REQUEST_KEYS = ("game", "options", "seats", "solo", "creator", "clock", "standin", "rated")


@dataclass(frozen=True)
class Created:
    """A create request, checked: the game and its first state."""

    spec: GameSpec
    #: Every option of the game (effective values: what the table stores).
    options: dict[str, Any]
    #: One seat kind per seat, in the order of ``letters``.
    seats: list[str]
    letters: list[str]
    state: Any
    #: The time control and the stand-in level (:mod:`.presence`).
    clock: TimeControl = field(default_factory=TimeControl)
    standin: str = DEFAULT_STANDIN
    #: Whether the table is rated (``"rated"``, true by default).
    rated: bool = True


class CreateRequest(BaseModel):
    """The envelope of a create request, the same for every game. Its fields are
    strict (``"solo": 1`` is not true); any other key is an option of the game given
    at the top level (the protocol's first form), checked by :func:`_given_options`.
    ``clock`` and ``standin`` are read by :func:`.presence.check_settings`."""

    model_config = ConfigDict(strict=True, extra="allow")

    game: str = Field(default=FIRST_GAME, description="a game's name")
    options: dict[str, Any] = Field(default_factory=dict, description="an object of option values")
    seats: list[str] = Field(description="a list of seat kinds")
    solo: bool = Field(default=False, description="true or false")
    rated: bool = Field(default=True, description="true or false")
    creator: Any = None
    clock: Any = None
    standin: Any = None


def _envelope(request: dict[str, Any]) -> CreateRequest:
    """The request's :class:`CreateRequest`; ``400 bad_options`` naming the first field
    that is wrong, as the protocol words it."""
    try:
        return CreateRequest.model_validate(request)
    except ValidationError as exc:
        problem = field_problem(exc)
    name = str(problem.path[0]) if problem.path else "?"
    given = "None" if problem.missing else shown(problem.given)
    if name != "game":
        # An unknown game is answered first, as before the envelope had a model; and
        # the seat kinds a 'seats' answer lists depend on the game.
        spec = _spec_of(request.get("game", FIRST_GAME))
    if name == "seats":
        kinds = [HUMAN, *games.bots_for(spec.name)]
        raise bad_options(
            f"'seats' must be a list of seat kinds ({', '.join(kinds)}), one per seat, "
            f"not {shown(request.get('seats'))}"
        )
    rule = (
        CreateRequest.model_fields[name].description if name in CreateRequest.model_fields else None
    )
    raise bad_options(f"{name!r} must be {rule or 'valid'}, not {given}")


def _spec_of(name: Any) -> GameSpec:
    """The game called ``name``; ``400 bad_options`` for a name no game has."""
    try:
        return games.spec(name)
    except PelotonError as exc:
        raise bad_options(str(exc)) from None


def check_create(request: Any, seed: int | None = None) -> Created:
    """Validate a create request (docs/protocol.md); the new game, knowing its chance
    ``seed``. Raises :class:`ApiError`: ``bad_request``, ``bad_options``, or
    ``bad_course`` for the course of a game that has courses."""
    if not isinstance(request, dict):
        raise ApiError(
            400, "bad_request", "a create request is a JSON object (see docs/protocol.md)"
        )
    envelope = _envelope(request)
    spec = _spec_of(envelope.game)
    given = _given_options(spec, envelope)
    clock, standin = check_settings(spec, request)
    seats = _check_seats(spec, envelope.seats)
    given = _check_solo(spec, envelope.solo, len(seats), given)
    courses = spec.course_cls is not None
    for option, value in given.items():
        try:
            spec.check_choice(option, value)
        except PelotonError as exc:
            raise (bad_course if courses and option == COURSE_OPTION else bad_options)(
                str(exc)
            ) from None
    try:
        state = spec.new_state(given, seed)
        options = spec.effective_options(state, given)
    except PelotonError as exc:
        raise create_error(exc, courses=courses) from None
    except (
        TypeError,
        ValueError,
        KeyError,
    ) as exc:  # defensive: from_options should raise ConfigError
        raise bad_options(f"bad options: {exc}") from None
    letters = list(state.players)
    if len(letters) != len(seats):
        raise bad_options(
            f"a {spec.title} game with these options has {len(letters)} seats, not {len(seats)}"
        )
    return Created(spec, options, seats, letters, state, clock, standin, rated=envelope.rated)


def _given_options(spec: GameSpec, request: CreateRequest) -> dict[str, Any]:
    """The options a request gives: its ``options`` object and, in the first form,
    option keys at the top level (both agreeing where both give one)."""
    options = request.options
    flat = dict(request.model_extra or {})
    unknown = sorted((set(flat) | set(options)) - set(spec.options))
    if unknown:
        raise bad_options(
            f"unknown option(s) {', '.join(map(repr, unknown))} of {spec.name}; "
            f"options: {', '.join(spec.options)} (a request has {', '.join(REQUEST_KEYS)})"
        )
    for key, value in flat.items():
        if key in options and options[key] != value:
            raise bad_options(f"option {key!r} is given twice with different values")
    return {**flat, **options}


def _check_seats(spec: GameSpec, seats: list[str]) -> list[str]:
    """The ``seats`` of a request: one seat kind per seat (human or one of the bots
    offered for the game), within the game's seat range."""
    kinds = [HUMAN, *games.bots_for(spec.name)]
    for kind in seats:
        if kind not in kinds:
            raise bad_options(
                f"no seat kind {kind!r} at {spec.title} tables; a seat is one of {', '.join(kinds)}"
            )
    if not spec.min_seats <= len(seats) <= spec.max_seats:
        span = (
            str(spec.min_seats)
            if spec.min_seats == spec.max_seats
            else f"{spec.min_seats} to {spec.max_seats}"
        )
        raise bad_options(f"a {spec.title} table has {span} seats, not {len(seats)}")
    return seats


def _check_solo(spec: GameSpec, solo: bool, seats: int, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options with ``players`` set from the seats. A one-seat table is a game's
    solo version, asked for with ``"solo": true`` (or the option ``players`` 1): a
    single seat alone is more likely a mistake than a wish to ride alone."""
    if solo and spec.min_seats != 1:
        raise bad_options(f"{spec.title} has no solo game")
    if solo and seats != 1:
        raise bad_options(f"the solo game has exactly one seat, not {seats}")
    if seats == 1 and spec.max_seats > 1 and not solo and given.get("players") != 1:
        raise bad_options('a table of one seat is the solo game: ask for it with "solo": true')
    if "players" not in spec.options:
        return dict(given)
    if "players" in given and given["players"] != seats:
        raise bad_options(
            f"option 'players' is {given['players']!r} but 'seats' lists {seats} seats"
        )
    return {**given, "players": seats}


def checked_name(name: Any, what: str = "'name'") -> str:
    """A player's name, its spaces tidied; ``400 bad_request`` saying what is wrong."""
    if not isinstance(name, str):
        raise ApiError(
            400, BAD_REQUEST, f"{what} must be 1 to {MAX_NAME} characters, not {repr(name)[:60]}"
        )
    problem = name_problem(name, MAX_NAME)
    if problem is not None:
        shown = repr(name) if len(name) <= 60 else repr(name[:60] + "…")
        raise ApiError(400, BAD_REQUEST, f"{what} {problem}, not {shown}")
    return " ".join(name.split())


class Creator(BaseModel):
    """A create request's ``creator``: the seat its creator takes, and their name
    (checked by :func:`checked_name`)."""

    model_config = ConfigDict(strict=True, extra="ignore")

    seat: str
    name: Any = None


def creator_of(request: Any) -> tuple[str, str] | None:
    """The creator's seat and name of a create request (``"creator": {"seat": "A",
    "name": "Ada"}``), or ``None`` when the creator only watches; ``400`` if malformed."""
    if not isinstance(request, dict) or request.get("creator") is None:
        return None
    try:
        creator = Creator.model_validate(request["creator"])
    except ValidationError:
        raise ApiError(
            400,
            BAD_REQUEST,
            f'\'creator\' is an object {{"seat": "A", "name": "Ada"}}, not {shown(request["creator"])}',
        ) from None
    return creator.seat, checked_name(creator.name, "'creator' name")
