"""The first-race tutorial of Mind Cycling: its course and its scripted lesson
(:mod:`.lesson`), played through the real engine. The course is not among the bundled
courses: it is the lesson's own, too short for a real race.

>>> from peloton.games.mindcycling.tutorial import first_race
>>> lesson = first_race()
>>> lesson.steps[0].id, lesson.expected(0, 0)
('wind', 'AD1-b9')
>>> state, done, turns = lesson.play(0, 0, "AD1-b9")
>>> state.rider("AD1").square, turns[0].describe
('b9', 'AD1 (domestique) rides against the wind to b9 (6 rows)')
"""

from typing import Any

from ....core.lesson import tutorial
from .lesson import (
    Lesson,
    OffLessonError,
    Step,
    Turn,
    claim_problems,
    first_race,
    load_lesson,
    tutorial_course,
)


def _overview(lesson: Lesson) -> dict[str, Any]:
    return {"course": tutorial_course().to_dict()}


#: The tutorial the server offers (``GameInfo.tutorial``): the first race.
TUTORIAL = tutorial(first_race, _overview)

__all__ = [
    "TUTORIAL",
    "Lesson",
    "OffLessonError",
    "Step",
    "Turn",
    "claim_problems",
    "first_race",
    "load_lesson",
    "tutorial_course",
]
