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

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from .fuzzing import Campaign, one_input
from .helpers import Server

DEFAULT_EXAMPLES = 100
EXAMPLES = int(os.environ.get("PELOTON_FUZZ_EXAMPLES", DEFAULT_EXAMPLES))
RANDOM = os.environ.get("PELOTON_FUZZ_RANDOM", "") not in ("", "0")


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisDeprecationWarning")
def test_hostile_inputs_break_nothing(server: Server) -> None:
    began = time.monotonic()
    campaign = Campaign(server)
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
    print(f"\n{server.db_url.split(':')[0]}, {time.monotonic() - began:.0f} s: {campaign.summary()}")
    assert not campaign.failures and not campaign.stopped, campaign.summary()
    assert not campaign.latency_problem(), campaign.summary()
