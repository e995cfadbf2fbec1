"""Settings every test shares.

Hypothesis's per-example deadline is a wall-clock assertion: on a machine shared with
other work, a first example that waits for a core (or imports a module) fails it while
the same example passes at once on a retry (``FlakyFailure``). Speed is shown by the
scripts in ``benchmarks/``, never asserted by tests, so the deadline is off everywhere,
and so is the health check that fails a test whose examples are slow to draw.

Examples are derandomized: every run of a test draws the same examples, so a property
that fails in CI fails the same way on a developer's machine (``PELOTON_HYPOTHESIS=explore``
draws fresh examples each run, to hunt for new counterexamples).
"""

import os

from hypothesis import HealthCheck, settings

_UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow], "print_blob": True}
settings.register_profile("peloton", derandomize=True, **_UNTIMED)
settings.register_profile("explore", **_UNTIMED)
settings.load_profile("explore" if os.environ.get("PELOTON_HYPOTHESIS") == "explore" else "peloton")
