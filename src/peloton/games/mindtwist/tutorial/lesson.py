"""The first Mind Twist lesson: a scripted race, one idea a step, played through the
real engine by the lessons of every game (:mod:`peloton.core.lesson`).

The lesson is data (``lesson.toml`` beside this module): its steps start from an
MT-4.3 position (``start = "R13 B15 R"``) or where the step before ended, and list
their moves in play order, the learner's (red) and blue's alike. Blue's dials are
hidden from the learner until the rules reveal them (MT-4.1): the moves are shown as
the public record gives them (``dial:?``, :func:`~..snapshot.public_moves`), each
move is said in words from the learner's view, so "your move" asks for a guess
without its outcome, and the position is the learner's snapshot.

Besides the generic claims, a step may claim what a milestone does for a token
(MT-3): :func:`claim_problems`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from ....core import lesson as core_lesson
from ....core.errors import ConfigError
from ....core.lesson import Lesson, LessonRules
from ..describe import describe
from ..notation import PLAYERS, Move
from ..snapshot import public_moves, snapshot
from ..start import from_options, from_position
from ..state import State

#: The keys of a Mind Twist claim: the ``player`` whose token it is about, and what
#: a sideswipe would do to it (MT-3).
CLAIM_KEYS = frozenset({"player", "safe", "falls_back_to"})

__all__ = ["CLAIM_KEYS", "claim_problems", "first_game", "lesson_rules", "load_lesson"]


def lesson_rules(learner: str) -> LessonRules:
    """What the lessons need of Mind Twist, for a lesson whose learner is ``learner``
    (``R`` or ``B``): a move is said in words as the learner sees it, so that neither
    the move a step asks for nor the log says the other player's hidden dial."""
    if learner not in PLAYERS:
        raise ConfigError(
            f"a Mind Twist lesson's learner (key 'learner') is R or B, not {learner!r}"
        )

    def said(state: State, move: Move | str) -> str:
        # From the learner's view: a guess at a hidden dial is said without its
        # outcome ("Red guesses 3"), which the full state would give away.
        return describe(state.view(learner), move)

    return LessonRules(
        new_game=from_options,
        describe=said,
        snapshot=snapshot,
        position=lambda text, options: from_position(text, **options),
        public_moves=public_moves,
        claim=claim_problems,
    )


def load_lesson(text: str) -> Lesson:
    """A Mind Twist lesson from its TOML text (the format of
    :mod:`peloton.core.lesson`). Raises :class:`~peloton.ConfigError` for a malformed
    lesson or a scripted move the engine refuses, naming the step."""
    try:
        # The core's default learner is "A", no Mind Twist seat: a lesson names its own.
        learner = tomllib.loads(text).get("learner", "A")
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"the lesson is not valid TOML: {exc}") from None
    return core_lesson.load_lesson(text, lesson_rules(str(learner)))


@cache
def first_game() -> Lesson:
    """The lesson of the web tutorial (``lesson.toml``), loaded once."""
    text = resources.files(__package__).joinpath("lesson.toml").read_text("utf-8")
    return load_lesson(text)


# ---------------------------------------------------------------- claims


def claim_problems(state: State, claim: Mapping[str, Any]) -> list[str]:
    """What is untrue in ``claim`` about ``state`` (an empty list: all of it holds).

    A claim names a ``player`` (``R`` or ``B``) and says whether its token is ``safe``
    (on a milestone or the start: never sideswiped, MT-3.1) or where a sideswipe
    would send it back to (``falls_back_to``: the nearest milestone behind it, else
    the start, MT-3.2)."""
    unknown = set(claim) - CLAIM_KEYS
    if unknown:
        return [
            f"unknown claim key(s) {sorted(unknown)} (a Mind Twist claim names a player "
            "and says safe or falls_back_to)"
        ]
    player = claim.get("player")
    if player not in PLAYERS:
        return [f"a Mind Twist claim names a player, R or B, not {player!r}"]
    if not {"safe", "falls_back_to"} & set(claim):
        return [f"claim {dict(claim)} says nothing checkable"]
    board, space = state.board, state.space(player)
    safe = board.is_protected(space)
    problems = []
    if "safe" in claim and claim["safe"] != safe:
        problems.append(f"{player} on {space} is {'' if safe else 'not '}safe from a sideswipe")
    if "falls_back_to" in claim:
        if safe:
            problems.append(f"{player} on {space} cannot be sideswiped: it falls back nowhere")
        elif claim["falls_back_to"] != board.fallback(space):
            problems.append(
                f"{player} on {space} falls back to {board.fallback(space)}, "
                f"not {claim['falls_back_to']!r}"
            )
    return problems
