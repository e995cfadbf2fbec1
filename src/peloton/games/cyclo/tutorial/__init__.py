"""Cyclo's tutorial: two scripted lessons played through the real engine, the Starter
lesson (``starter.toml``: terrain and dice, room on the road, an event card, the
finish) and the Pro lesson (``pro.toml``: own and team tokens, holding back, a swap,
the wheel, hunger, a time trial's clock). Each is data the game ships, on the lessons
of every game (:mod:`peloton.core.lesson`); :mod:`.lesson` holds what Cyclo adds.

>>> from peloton.games.cyclo.tutorial import starter_lesson
>>> lesson = starter_lesson()
>>> state, done, turns = lesson.opening(0)      # the dice are played for you
>>> lesson.steps[0].id, [t.move for t in turns], lesson.expected(0, done)
('two-dice', ['roll:2,4'], 'AC1-46')
>>> state, done, turns = lesson.play(0, done, "AC1-46")
>>> state.rider("AC1").square, turns[0].describe
('a46', 'AC1 rides to space 46')
"""

from ....core.lesson import tutorial
from .lesson import (
    claim_problems,
    lesson_position,
    lesson_rules,
    load_lesson,
    pro_lesson,
    starter_lesson,
)

#: The tutorial the server offers (``GameInfo.tutorial``): Starter first, then Pro.
TUTORIAL = tutorial(starter_lesson, first="starter", more={"pro": pro_lesson})

__all__ = [
    "TUTORIAL",
    "claim_problems",
    "lesson_position",
    "lesson_rules",
    "load_lesson",
    "pro_lesson",
    "starter_lesson",
]
