"""The first-race lesson: a scripted race on a tiny course, one mechanic a step.

The lesson is data (``lesson.toml`` beside this module, on ``course.toml``), played by
the lessons of every game (:mod:`peloton.core.lesson`): each step has a start (a
position in MCN, or where the step before ended), texts, and the step's moves in play
order. The learner's team plays its moves (each checked by the engine: an illegal move
is refused with the engine's reason, a legal one that is not the lesson's is refused
too), every other team's move is played for it as soon as it is its turn.

Each step also lists *claims*, the facts its texts state ("AD1 rides against the
wind: 6 rows"); :func:`claim_problems` checks one against a state, so a test can
prove every text true through the real engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from ....core import lesson as core_lesson
from ....core.lesson import Lesson, LessonRules, OffLessonError, Step, Turn
from ..course import Course
from ..notation import FINISH, Move
from ..snapshot import KIND_NAMES, describe_move, snapshot
from ..start import from_mcn, from_options
from ..state import State

#: Keys a claim about a rider may check (besides ``rider``).
RIDER_KEYS = frozenset(
    {
        "square",
        "bottle",
        "wind",
        "allowance",
        "exhausted",
        "leader",
        "train_place",
        "section",
        "finished",
        "farthest",
        "attack_farthest",
        "can",
        "cannot",
    }
)
MEDALS = ("cyclist", "sprinter", "climber", "team")

__all__ = [
    "Lesson",
    "OffLessonError",
    "Step",
    "Turn",
    "claim_problems",
    "first_race",
    "load_lesson",
    "tutorial_course",
]


def _rules(course: Course) -> LessonRules:
    return LessonRules(
        new_game=lambda options: from_options({**options, "course": course.to_dict()}),
        describe=lambda state, move: describe_move(state, state.check(move)),
        snapshot=lambda state, viewer: snapshot(state, viewer),
        position=lambda text, options: from_mcn(course, text),
        claim=claim_problems,
    )


def load_lesson(text: str, course: Course) -> Lesson:
    """A lesson from its TOML text (the format of ``lesson.toml``) on ``course``.
    Raises :class:`~peloton.ConfigError` for a malformed lesson and the engine's
    errors for a scripted move or position the engine refuses."""
    return core_lesson.load_lesson(text, _rules(course))


@cache
def first_race() -> Lesson:
    """The lesson of the web tutorial (``lesson.toml`` on ``course.toml``), loaded once."""
    folder = resources.files(__package__)
    return load_lesson(folder.joinpath("lesson.toml").read_text("utf-8"), tutorial_course())


@cache
def tutorial_course() -> Course:
    """The lesson's own course (``course.toml``): too short for a real race, so not
    among the bundled courses."""
    text = resources.files(__package__).joinpath("course.toml").read_text("utf-8")
    return Course.from_text(text, toml=True, source="tutorial")


# ---------------------------------------------------------------- claims


def claim_problems(state: State, claim: Mapping[str, Any]) -> list[str]:
    """What is untrue in ``claim`` about ``state`` (an empty list: all of it holds).

    A claim names a ``rider`` and facts about it (:data:`RIDER_KEYS`), or a ``medal``
    and its ``holder``, or the first ``places``, or the ``trophy``, or whether the race
    is ``over``."""
    if "rider" in claim:
        return _rider_problems(state, claim)
    problems = []
    result = state.result
    if "medal" in claim:
        if claim["medal"] not in MEDALS:
            return [f"no medal {claim['medal']!r} (medals: {', '.join(MEDALS)})"]
        held = result.medals.get(claim["medal"])
        if held != claim.get("holder"):
            problems.append(f"{claim['medal']} medal held by {held}, not {claim.get('holder')}")
    if "places" in claim and list(result.places[: len(claim["places"])]) != claim["places"]:
        problems.append(f"the first across are {list(result.places)}, not {claim['places']}")
    if "trophy" in claim and result.trophy != claim["trophy"]:
        problems.append(f"trophy held by {result.trophy}, not {claim['trophy']}")
    if "over" in claim and state.is_over != claim["over"]:
        problems.append(f"the race is {'' if state.is_over else 'not '}over")
    if not {"medal", "places", "trophy", "over"} & set(claim):
        problems.append(f"claim {dict(claim)} says nothing checkable")
    return problems


def _rider_problems(state: State, claim: Mapping[str, Any]) -> list[str]:
    rid = claim["rider"]
    if rid not in state.ids:
        return [f"no rider {rid}"]
    unknown = set(claim) - RIDER_KEYS - {"rider"}
    if unknown:
        return [f"unknown claim key(s) {sorted(unknown)} about {rid}"]
    rider = state.rider(rid)
    facts: dict[str, Any] = {
        "square": rider.square,
        "bottle": rider.has_bottle,
        "finished": rider.square is None,
    }
    assessment = state.assessment(rid)
    if assessment is not None:
        facts.update(
            wind=assessment.against_wind,
            allowance=assessment.allowance,
            exhausted=assessment.exhausted,
            leader=assessment.leader,
            train_place=assessment.train_place,
            section=assessment.section,
        )
    problems = []
    for key, value in facts.items():
        if key in claim and claim[key] != value:
            problems.append(f"{rid}: {key} is {value!r}, not {claim[key]!r}")
    turn_keys = {"farthest", "attack_farthest", "can", "cannot"} & set(claim)
    if turn_keys and state.current_rider != rid:
        return [
            *problems,
            f"{rid}: {sorted(turn_keys)} need its turn, but {state.current_rider} is to play",
        ]
    legal = state.legal_moves()
    kinds = {KIND_NAMES[m.kind] for m in legal}
    for kind in claim.get("can", ()):
        if kind not in kinds:
            problems.append(f"{rid} cannot {kind} (its kinds of move: {sorted(kinds)})")
    for kind in claim.get("cannot", ()):
        if kind in kinds:
            problems.append(f"{rid} can {kind}")
    for key, kind in (("farthest", "-"), ("attack_farthest", "!")):
        if key in claim:
            reach = _farthest(state, rid, [m for m in legal if m.kind == kind])
            if reach != claim[key]:
                problems.append(f"{rid}: {key} is {reach} rows, not {claim[key]}")
    return problems


def _farthest(state: State, rid: str, moves: list[Move]) -> int:
    """The most rows one of ``moves`` takes ``rid`` forward (the line counts as the
    finish row)."""
    here = state.course.row_lane(state.rider(rid).square or "")[0]
    rows = [
        state.course.finish if m.square == FINISH else state.course.row_lane(m.square or "")[0]
        for m in moves
    ]
    return max(rows, default=here) - here
