"""A fuzzing campaign against ``peloton serve``: many more hostile inputs than the
``make test`` run of ``tests/server/test_fuzz.py``, with new random inputs each run.

Starts the server on SQLite in a temporary directory (``--db URL`` for another
database, e.g. a PostgreSQL URL from ``scripts/test-postgres.sh`` with a fresh
database name), runs ``--inputs`` inputs spread evenly over every HTTP endpoint and
WebSocket message type (``tests/server/fuzzing.py`` says what is sent and what is
checked after each), then prints the figures: inputs tried per kind and the time
they took, failures by kind with examples, and the latency another table's client
saw meanwhile (beside a second, untouched server's as a yardstick).

    python benchmarks/fuzz_server.py [--inputs 3000] [--db URL] [--seed N]

Prints figures only; nothing here is asserted by tests. Exit status 1 if any failure
was found.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
import warnings
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.errors import HypothesisDeprecationWarning, HypothesisWarning

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.fuzzing import Campaign, one_input
from tests.server.helpers import Server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--inputs", type=int, default=3000, help="hostile inputs to send (default 3000)"
    )
    parser.add_argument("--db", help="database URL (default: SQLite in a temporary directory)")
    parser.add_argument(
        "--seed", type=int, help="draw the same inputs as another run with this seed"
    )
    args = parser.parse_args()
    warnings.simplefilter("ignore", HypothesisWarning)
    warnings.simplefilter("ignore", HypothesisDeprecationWarning)
    # The client library logs a server's abrupt close (a frame over 64 KiB) as its own
    # error; the campaign counts what matters.
    logging.getLogger("websockets").setLevel(logging.CRITICAL)
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite:///{tmp}/fuzz.db"
        server = Server(url).start()
        yardstick = Server(
            f"sqlite:///{tmp}/yardstick.db"
        ).start()  # untouched: how busy the machine is
        began = time.monotonic()
        campaign = Campaign(server, yardstick)
        try:
            every, body = one_input(campaign)
            run = settings(
                max_examples=args.inputs,
                deadline=None,
                database=None,
                phases=[Phase.generate],
                suppress_health_check=list(HealthCheck),
            )(given(every)(body))
            if args.seed is not None:
                run = seed(args.seed)(run)
            run()
        finally:
            campaign.close()
            server.stop()
            yardstick.stop()
        elapsed = time.monotonic() - began
    tried = sum(campaign.tried.values())
    print(
        f"database: {url.split(':', 1)[0]}; {tried} inputs in {elapsed:.0f} s ({tried / elapsed:.1f} a second)"
    )
    print(campaign.summary())
    return 1 if campaign.failures or campaign.stopped or campaign.latency_problem() else 0


if __name__ == "__main__":
    sys.exit(main())
