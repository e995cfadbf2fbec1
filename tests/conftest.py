"""Settings every test shares.

Hypothesis's per-example deadline is a wall-clock assertion: on a machine shared with
other work, a first example that waits for a core (or imports a module) fails it while
the same example passes at once on a retry (``FlakyFailure``). Speed is shown by the
scripts in ``benchmarks/``, never asserted by tests, so the deadline is off everywhere.

Examples are derandomized: every run of a test draws the same examples, so a property
that fails in CI fails the same way on a developer's machine (``PELOTON_HYPOTHESIS=explore``
draws fresh examples each run, to hunt for new counterexamples).
"""

import os

from hypothesis import settings

settings.register_profile("peloton", deadline=None, derandomize=True, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile("explore" if os.environ.get("PELOTON_HYPOTHESIS") == "explore" else "peloton")
