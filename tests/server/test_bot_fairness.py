"""A new table's bots are not starved by another client's heavy tables (issue 32,
point 2; docs/protocol.md, "Work off the event loop").

One client (127.0.0.1) opens Mind Twist tables of ``optimal`` v ``optimal``, each on
its own board (the optimal bot solves its board on first use: seconds of CPU). Then
another client (127.0.0.2) opens a table of ``pass3`` bots: its first bot move comes
while most of the heavy tables still wait for theirs. Before the fix every new table's
first move was *unknown*, taken for heavy, and queued behind all of them.

Ordering and state only: no wall-clock figure (benchmarks/bot_starvation.py prints it).
"""

from __future__ import annotations

import time

import httpx

from .helpers import TIMEOUT, Server, create

#: Heavy tables the first client opens.
HEAVY = 8
#: A failure bound on the wait for the new table's first move (not a figure).
PATIENCE = 240.0
PROBE_CLIENT = "127.0.0.2"


def moves(http: httpx.Client, table: str) -> int:
    answer = http.get(f"/api/tables/{table}")
    assert answer.status_code == 200, answer.text
    return int(answer.json()["moves"])


def test_a_new_tables_bot_moves_before_another_clients_heavy_tables(
    server: Server, http: httpx.Client
) -> None:
    """Issue 32, point 2: a job whose cost is unknown does not queue behind known or
    likely heavy ones, and one client's heavy jobs hold a capped share of the workers."""
    heavy = [
        create(
            http,
            game="mind-twist",
            options={"length": 60, "milestones": [10 + n, 25 + n, 40 + n]},
            seats=["optimal", "optimal"],
        )
        for n in range(HEAVY)
    ]
    transport = httpx.HTTPTransport(local_address=PROBE_CLIENT)
    with httpx.Client(base_url=server.url, timeout=TIMEOUT, transport=transport) as probe:
        table = create(probe, game="mind-twist", seats=["pass3", "pass3"])
        deadline = time.monotonic() + PATIENCE
        while moves(probe, table) == 0:
            assert time.monotonic() < deadline, "the new table's bot never moved"
            time.sleep(0.05)
    pending = sum(moves(http, t) == 0 for t in heavy)
    # The first client runs one long job at a time (this machine's share): the new
    # table's move came while nearly all its tables still waited for their first.
    assert pending >= HEAVY - 3, f"only {pending} of {HEAVY} heavy tables were still waiting"
