"""Cyclo's lessons on the engine of every game's lessons (:mod:`peloton.core.lesson`):
what a lesson needs of Cyclo (:func:`lesson_rules`), a step's start as a position in
CYN under the lesson's options or a mode of its own (:func:`lesson_position`), and the
facts a lesson's texts state about riders, teams and the result (:func:`claim_problems`).

A step's ``start`` is a CYN (CY-14.2) played under the lesson's ``[options]``. A step
that needs another game, such as the Pro lesson's time trial after a classic, names
the options it changes before a bar: ``"mode=itt course=prologue | 2 AS1:a8*1 / A*1"``
(each ``name=value`` one of the game's options, read as it is written, a number as a
number); the options it does not name are the lesson's.
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
from ..rules import dice_count, terrain_at
from ..snapshot import snapshot
from ..start import OPTIONS, from_options, from_position
from ..state import State

__all__ = [
    "RIDER_KEYS",
    "claim_problems",
    "lesson_position",
    "lesson_rules",
    "load_lesson",
    "pro_lesson",
    "starter_lesson",
]

#: What a claim about a ``rider`` may state (besides ``rider``): its ``square`` (``a44``,
#: ``a#3`` on the run-out, ``None`` once finished), the ``dice`` it rolls from where it
#: stands (CY-4.2), the ground it stands on (``terrain``), its own ``tokens``, its
#: ``skip``, ``technical`` and ``hunger`` flags, whether it has ``finished``.
RIDER_KEYS = frozenset(
    {"square", "dice", "terrain", "tokens", "skip", "technical", "hunger", "finished"}
)
#: What a claim about the race may state: a ``team``'s ``team_tokens``, the ``places``
#: (the first riders across, in order), the ``winner``, riders' ``times`` (a table of
#: id = seconds, CY-10.2) and whether the race is ``over``.
RACE_KEYS = frozenset({"team", "team_tokens", "places", "winner", "times", "over"})


def lesson_position(text: str, options: Mapping[str, Any]) -> State:
    """The game at ``text``: a CYN played under ``options``, or, with ``name=value``
    words before a ``|``, under ``options`` with those changed (module docstring).
    :class:`ConfigError` names an option that is not the game's or a word that is not
    ``name=value``; the CYN's own errors say what is wrong with the position."""
    head, bar, cyn = text.partition("|")
    if not bar:
        return from_position(text.strip(), options)
    changed: dict[str, Any] = {}
    for word in head.split():
        name, equals, value = word.partition("=")
        if not equals or not name or not value:
            raise ConfigError(f"a step's start option must be name=value, not {word!r}")
        if name not in OPTIONS:
            raise ConfigError(
                f"a step's start names no Cyclo option {name!r} (options: {', '.join(OPTIONS)})"
            )
        changed[name] = int(value) if value.isdigit() else value
    return from_position(cyn.strip(), {**options, **changed})


def lesson_rules() -> LessonRules:
    """What a lesson needs of Cyclo: a fresh game, a move in words, the snapshot, a
    step's start (:func:`lesson_position`) and the game's claims. Cyclo hides nothing
    (CY-13.3): the learner sees the moves as they were played."""
    return LessonRules(
        new_game=from_options,
        describe=describe,
        snapshot=snapshot,
        position=lesson_position,
        claim=claim_problems,
    )


def load_lesson(text: str) -> Lesson:
    """A Cyclo lesson from its TOML text (the format of :mod:`peloton.core.lesson`).
    Raises :class:`~peloton.ConfigError` for a malformed lesson or a scripted move the
    engine refuses, naming the step."""
    return core_lesson.load_lesson(text, lesson_rules())


def _bundled(name: str) -> Lesson:
    return load_lesson(resources.files(__package__).joinpath(name).read_text("utf-8"))


@cache
def starter_lesson() -> Lesson:
    """The Starter lesson (``starter.toml``): terrain and dice, room on the road, an
    event card, the finish. Loaded once."""
    return _bundled("starter.toml")


@cache
def pro_lesson() -> Lesson:
    """The Pro lesson (``pro.toml``): tokens, holding back, a swap, the wheel, a
    team's attack, hunger, and a time trial's clock. Loaded once."""
    return _bundled("pro.toml")


# ---------------------------------------------------------------- claims


def claim_problems(state: State, claim: Mapping[str, Any]) -> list[str]:
    """What is untrue in ``claim`` about ``state`` (an empty list: all of it holds):
    a claim names a ``rider`` and facts about it (:data:`RIDER_KEYS`), or states facts
    about the race (:data:`RACE_KEYS`)."""
    if "rider" in claim:
        return _rider_problems(state, claim)
    unknown = set(claim) - RACE_KEYS
    if unknown:
        return [f"unknown claim key(s) {sorted(unknown)}"]
    problems = []
    if "team_tokens" in claim:
        team = claim.get("team")
        held = state.team_tokens.get(str(team), 0)
        if held != claim["team_tokens"]:
            problems.append(f"team {team} holds {held} team tokens, not {claim['team_tokens']}")
    result = state.result
    if "places" in claim and list(result.places[: len(claim["places"])]) != claim["places"]:
        problems.append(f"the places are {list(result.places)}, not {claim['places']}")
    if "winner" in claim and result.winner != claim["winner"]:
        problems.append(f"the winner is {result.winner}, not {claim['winner']}")
    for rider, seconds in dict(claim.get("times", {})).items():
        if result.times.get(rider) != seconds:
            problems.append(f"{rider}'s time is {result.times.get(rider)}, not {seconds}")
    if "over" in claim and state.is_over != claim["over"]:
        problems.append(f"the race is {'' if state.is_over else 'not '}over")
    if not {"team_tokens", "places", "winner", "times", "over"} & set(claim):
        problems.append(f"claim {dict(claim)} says nothing checkable")
    return problems


def _rider_problems(state: State, claim: Mapping[str, Any]) -> list[str]:
    rid = str(claim["rider"])
    if rid not in state.setup.riders:
        return [f"no rider {rid} (riders: {', '.join(state.setup.riders)})"]
    unknown = set(claim) - RIDER_KEYS - {"rider"}
    if unknown:
        return [f"unknown claim key(s) {sorted(unknown)} about {rid}"]
    if not set(claim) & RIDER_KEYS:
        return [f"claim about {rid} says nothing checkable"]
    info = state.rider(rid)
    facts: dict[str, Any] = {
        "square": info.square,
        "tokens": info.tokens,
        "skip": info.skip,
        "technical": info.technical,
        "hunger": info.hunger,
        "finished": info.finished,
    }
    racing = info.position is not None and not info.finished
    if racing:
        facts["dice"] = dice_count(state.setup, state.position, rid)
        facts["terrain"] = terrain_at(state.setup, state.position.pos[rid]).name
    problems = []
    for key in RIDER_KEYS & set(claim):
        if key not in facts:
            problems.append(f"{rid} is not racing: no {key}")
        elif facts[key] != claim[key]:
            problems.append(f"{rid}: {key} is {facts[key]!r}, not {claim[key]!r}")
    return problems
