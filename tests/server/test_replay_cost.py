"""Issue 32, point 8: a replay costs in proportion to its moves, for a player, a
spectator and an uploaded record (docs/protocol.md, "Replays").

Cost is counted, not timed: the Python calls a replay makes (``sys.setprofile``),
which the same code makes alike on any machine however busy. A Mind Twist replay of
1,100 moves made 16 times the calls of one of 275 when each snapshot read the whole
history again; four times the moves must cost at most five times the calls.
``benchmarks/replay_cost.py`` prints the seconds.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from peloton.server.games import spec
from peloton.server.work import jobs

SHORT, LONG = 275, 1100


def long_mind_twist(moves: int) -> tuple[dict[str, Any], list[str]]:
    """A Mind Twist game on the longest board in which Red dials 1 and Blue guesses
    it right but every tenth time, so that it lasts ``moves`` moves (MT-2.2: a right
    guess keeps the dialer on the spot, and the other player dials next)."""
    options = {"length": 60}
    state = spec("mind-twist").new_state(options, None)
    texts: list[str] = []
    while len(texts) < moves:
        text = (
            "dial:1"
            if state.phase == "dial"
            else ("guess:2" if len(texts) % 20 == 1 else "guess:1")
        )
        texts.append(text)
        state.play(text)
    assert not state.is_over
    return options, texts


def calls(run: Callable[[], Any]) -> int:
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def upload(options: dict[str, Any], texts: list[str]) -> Callable[[], Any]:
    state = spec("mind-twist").new_state(options, None)
    for text in texts:
        state.play(text)
    body = orjson.dumps(spec("mind-twist").record(state, {}, None).to_dict())

    def run() -> None:
        status, _, _ = jobs.upload_replay(body)
        assert status == "ok"

    return run


@pytest.mark.parametrize("viewer", ["R", "B", None, "upload"])
def test_a_replay_costs_in_proportion_to_its_moves(viewer: str | None) -> None:
    options, texts = long_mind_twist(LONG)
    costs = []
    for n in (SHORT, LONG):
        if viewer == "upload":
            run = upload(options, texts[:n])
        else:

            def run(n: int = n) -> None:
                jobs.table_replay("mind-twist", options, None, texts[:n], viewer, {})

        costs.append(calls(run))
    assert costs[1] <= 5 * costs[0], f"{SHORT} moves: {costs[0]} calls, {LONG}: {costs[1]}"
