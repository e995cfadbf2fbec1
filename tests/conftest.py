"""Settings every test shares.

Hypothesis's per-example deadline is a wall-clock assertion: on a machine shared with
other work, a first example that waits for a core (or imports a module) fails it while
the same example passes at once on a retry (``FlakyFailure``). Speed is shown by the
scripts in ``benchmarks/``, never asserted by tests, so the deadline is off everywhere.
"""

from hypothesis import settings

settings.register_profile("peloton", deadline=None)
settings.load_profile("peloton")
