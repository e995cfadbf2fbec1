"""Fuzzing the table server (issue 11, "And keep measuring"): Hypothesis draws
hostile inputs for every HTTP endpoint and WebSocket message type against a real
server, on SQLite and on PostgreSQL; :mod:`.fuzzing` says what is checked after each.

``PELOTON_FUZZ_EXAMPLES`` sets how many inputs a run tries per database (default
:data:`DEFAULT_EXAMPLES`, a few seconds each); ``PELOTON_FUZZ_RANDOM=1`` draws new
inputs on each run instead of the same ones. ``benchmarks/fuzz_server.py`` runs a
larger campaign and prints its figures.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from .fuzzing import Campaign, one_input
from .helpers import Server
from .hostile_support import ArgServer, fresh_db, running

DEFAULT_EXAMPLES = 76  # 4 of each of the 19 kinds
EXAMPLES = int(os.environ.get("PELOTON_FUZZ_EXAMPLES", DEFAULT_EXAMPLES))
RANDOM = os.environ.get("PELOTON_FUZZ_RANDOM", "") not in ("", "0")


@pytest.fixture(scope="module")
def yardstick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ArgServer]:
    """A second server nobody fuzzes: its latency says how busy the machine is."""
    with fresh_db("sqlite", tmp_path_factory.mktemp("yardstick")) as url, running(url) as srv:
        yield srv


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisDeprecationWarning")
def test_hostile_inputs_break_nothing(server: Server, yardstick: ArgServer) -> None:
    began = time.monotonic()
    campaign = Campaign(server, yardstick)
    try:
        every, body = one_input(campaign)
        run = settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=not RANDOM,
            database=None,
            # Every failure is collected, not raised: no shrinking to do.
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )(given(every)(body))
        run()
    finally:
        campaign.close()
    print(
        f"\n{server.db_url.split(':')[0]}, {time.monotonic() - began:.0f} s: {campaign.summary()}"
    )
    assert not campaign.failures and not campaign.stopped, campaign.summary()
    assert not campaign.latency_problem(), campaign.summary()
