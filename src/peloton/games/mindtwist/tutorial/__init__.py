"""The Mind Twist tutorial: a first race against a scripted blue, one idea a step
(the secret dial, a challenge right and wrong, the sideswipe, the milestones, the
bluff and the finish), played through the real engine (:mod:`.lesson`).

Blue's dial stays hidden from the learner until a wrong guess or a pass shows it:

>>> from peloton.games.mindtwist.tutorial import first_game
>>> lesson = first_game()
>>> lesson.steps[0].id, lesson.expected(0, 0)
('dial', 'dial:3')
>>> state, done, turns = lesson.opening(1)
>>> [(t.by, t.move, t.describe) for t in turns]
[('B', 'dial:?', 'Blue turns the dial in secret')]
>>> lesson.ask(state, lesson.expected(1, done))
'Red guesses 3'
"""

from ....core.lesson import tutorial
from .lesson import CLAIM_KEYS, claim_problems, first_game, lesson_rules, load_lesson

#: The tutorial the server offers (``GameInfo.tutorial``): the first race.
TUTORIAL = tutorial(first_game)

__all__ = ["CLAIM_KEYS", "TUTORIAL", "claim_problems", "first_game", "lesson_rules", "load_lesson"]
