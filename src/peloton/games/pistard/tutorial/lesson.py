"""Pistard's first lesson: a scripted race on the default track, one idea a step.

The lesson is data (``lesson.toml`` beside this module), played by the lessons of
every game (:mod:`peloton.core.lesson`): the first steps play the game from its first
move, the later ones start from a position in the game's notation (PI-5.1) to reach a
lap's end, an elimination and the target quickly. Team A's moves are the learner's;
team B's moves and every roll of the dice are scripted, so the lesson always goes the
same way.

Besides the generic claims (a value of the snapshot, a legal or a refused move) a step
may state facts about a rider or a square of the track; :func:`claim_problems` checks
them through the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from ....core import lesson as core_lesson
from ....core.errors import ConfigError
from ....core.lesson import Lesson, LessonRules
from ..describe import describe
from ..riders import base_colour_name
from ..snapshot import snapshot
from ..start import from_options, from_position, game_arguments
from ..state import State
from ..track import COLOURS

#: What a claim about a rider may state (besides ``rider``): where it stands, on
#: which lap, whether it is out, its base colour, whether it is due to move.
RIDER_KEYS = frozenset({"square", "lap", "eliminated", "colour", "due"})

__all__ = ["RIDER_KEYS", "claim_problems", "first_race", "load_lesson", "position"]


def position(text: str, options: Mapping[str, Any]) -> State:
    """A step's ``start``: the position ``text`` (PI-5.1) under the lesson's options.
    :class:`ConfigError` when its teams are not the options' players."""
    arguments = game_arguments(options)
    players = arguments.pop("players")
    state = from_position(text, **arguments)
    if len(state.players) != players:
        raise ConfigError(
            f"position {text!r} has {len(state.players)} teams, the lesson's options {players}"
        )
    return state


RULES = LessonRules(
    new_game=from_options,
    describe=describe,
    snapshot=snapshot,
    position=position,
    claim=lambda state, claim: claim_problems(state, claim),
)


def load_lesson(text: str) -> Lesson:
    """A lesson from its TOML text (the format of :mod:`peloton.core.lesson`).
    Raises :class:`~peloton.ConfigError` for a malformed lesson and the engine's errors
    for a scripted move or a position the engine refuses."""
    return core_lesson.load_lesson(text, RULES)


@cache
def first_race() -> Lesson:
    """The lesson of the web tutorial (``lesson.toml``), loaded once."""
    return load_lesson(resources.files(__package__).joinpath("lesson.toml").read_text("utf-8"))


# ---------------------------------------------------------------- claims


def claim_problems(state: State, claim: Mapping[str, Any]) -> list[str]:
    """What is untrue in ``claim`` about ``state`` (an empty list: all of it holds).

    A claim names a ``rider`` and facts about it (:data:`RIDER_KEYS`), or a square of
    the track (``track = "b8"``) and its ``colour``."""
    if "rider" in claim:
        return _rider_problems(state, claim)
    if "track" in claim:
        return _track_problems(state, claim)
    return [f"claim {dict(claim)} names neither a rider nor a track square"]


def _rider_problems(state: State, claim: Mapping[str, Any]) -> list[str]:
    rid = claim["rider"]
    if rid not in state.riders:
        return [f"no rider {rid!r} (riders: {', '.join(state.riders)})"]
    unknown = set(claim) - RIDER_KEYS - {"rider"}
    if unknown:
        return [f"unknown claim key(s) {sorted(unknown)} about {rid}"]
    facts = {
        "square": state.square_of(rid),
        "lap": state.lap_of(rid),
        "eliminated": rid in state.out,
        "colour": base_colour_name(rid),
        "due": state.due == rid,
    }
    return [
        f"{rid}: {key} is {value!r}, not {claim[key]!r}"
        for key, value in facts.items()
        if key in claim and claim[key] != value
    ]


def _track_problems(state: State, claim: Mapping[str, Any]) -> list[str]:
    name = claim["track"]
    unknown = set(claim) - {"track", "colour"}
    if unknown or "colour" not in claim:
        return [f"a claim on square {name!r} states its colour and nothing else"]
    code = state.layout.parse_square(str(name))
    if code is None:
        return [f"no square {name!r} on the track (rows 1-{state.length}, lanes a-d)"]
    colour = COLOURS[state.layout.colour[code]]
    return [] if colour == claim["colour"] else [f"{name} is {colour}, not {claim['colour']}"]
