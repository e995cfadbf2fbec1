"""Optimal play of Mind Twist (MT-5): the exact solution of every position and a
certificate of its precision.

* :mod:`.matrix_game`: the exact simplex for one stage game (3 dials against 3 guesses
  or a pass);
* :mod:`.solution`: value iteration over every position, :class:`Solution` (values and
  both roles' optimal mixed strategies) and :func:`solve` (cached per board);
* :mod:`.certificate`: :func:`certify`, proven bounds on the values from what the
  solver's strategies guarantee.
"""

from .certificate import Certificate, certify
from .solution import Solution, compute, solution_for, solve

__all__ = ["Certificate", "Solution", "certify", "compute", "solution_for", "solve"]
