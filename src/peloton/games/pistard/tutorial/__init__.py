"""The first-race tutorial of Pistard: a scripted lesson (:mod:`.lesson`, data in
``lesson.toml``) played through the real engine, from the first roll of the dice to a
win at the target.

>>> from peloton.games.pistard.tutorial import first_race
>>> lesson = first_race()
>>> lesson.steps[0].id, lesson.expected(0, 0)
('dice', 'A1=6')
>>> state, done, turns = lesson.opening(0)     # both rolls are played for the learner
>>> [turn.describe for turn in turns]
['A rolls 2, 4, 5 and 6', 'B rolls 1, 3, 5 and 6']
>>> state, done, turns = lesson.play(0, done, "A1=6")
>>> turns[0].describe
'Team A gives the 6 to A1 for the first move'
"""

from ....core.lesson import Lesson, OffLessonError, Step, Turn, tutorial
from .lesson import RIDER_KEYS, claim_problems, first_race, load_lesson, position

#: The tutorial the server offers (``GameInfo.tutorial``): the first race.
TUTORIAL = tutorial(first_race)

__all__ = [
    "RIDER_KEYS",
    "TUTORIAL",
    "Lesson",
    "OffLessonError",
    "Step",
    "Turn",
    "claim_problems",
    "first_race",
    "load_lesson",
    "position",
]
