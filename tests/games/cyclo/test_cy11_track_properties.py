"""Hypothesis properties of the track events (CY-11): random legal play from random
seeds, in every track mode, with 1 or 2 entries, in Pro and Starter, always ends and
ranks every rider exactly once; no loop space ever holds two riders of one world in
one lane (CY-19.1); the CYN at every round start reads back to the same position."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.core.rng import Rng
from peloton.games import cyclo as cy

MAX_MOVES = 20_000
#: The seats each track mode takes (CY-2.1) and whether ``entries`` applies.
SEATS = {
    "sprint": (2, 2, False),
    "team-sprint": (1, 2, False),
    "pursuit": (1, 2, False),
    "team-pursuit": (1, 2, False),
    "keirin": (2, 6, True),
    "scratch": (2, 6, True),
    "elimination": (2, 6, True),
    "tempo": (2, 6, True),
    "points": (2, 6, True),
}


@st.composite
def track_games(draw: st.DrawFn) -> dict[str, Any]:
    mode = draw(st.sampled_from(sorted(SEATS)))
    low, high, bunch = SEATS[mode]
    players = draw(st.integers(low, high))
    entries = draw(st.sampled_from([1, 2])) if bunch else 1
    if mode == "elimination" and players * entries < 3:
        players = 3
    return {
        "mode": mode,
        "players": players,
        "entries": entries,
        "level": draw(st.sampled_from(["pro", "starter"])),
    }


def check_loop_squares(state: cy.State) -> None:
    """No loop square holds two riders of one world; lanes stay within the track."""
    setup, p = state.setup, state.position
    seen: dict[tuple[int, int, int], str] = {}
    for rider, where in p.pos.items():
        key = (setup.world[rider], setup.slots[where], p.lane[rider])
        assert key not in seen, f"{seen.get(key)} and {rider} share a square"
        seen[key] = rider
        if 1 <= where <= setup.finish:
            assert p.lane[rider] < setup.course.width  # type: ignore[operator]
        if p.pacer is not None:
            assert where < p.pacer, f"{rider} on {where}, at or past the pacer {p.pacer}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(track_games(), st.integers(0, 2**32))
def test_every_track_event_ends_and_ranks_every_rider_once(
    options: dict[str, Any], seed: int
) -> None:
    state = cy.from_options(options)
    rng, pick = Rng(seed), random.Random(seed)
    for _ in range(MAX_MOVES):
        if state.is_over:
            break
        if state.at_round_start:
            check_loop_squares(state)
            again = cy.from_cyn(
                state.to_cyn(),
                options["mode"],
                level=options["level"],
                entries=options["entries"],
            )
            assert again.to_cyn() == state.to_cyn() and again.position.pacer == state.position.pacer
        if state.is_chance:
            state.play(state.chance_move(rng))
        else:
            moves = state.legal_moves()
            state.play(moves[pick.randrange(len(moves))])
    assert state.is_over, f"not over after {MAX_MOVES} moves"
    result = state.result
    assert sorted(result.places) == sorted(state.setup.riders)  # each exactly once
    assert result.over and result.winner_team == result.teams[0]
    if options["mode"] == "elimination":  # one out a line, n − 2 lines before the finish
        assert (
            len(result.eliminated) == len(state.setup.riders) - 2
            or len(state.position.finishers) > 1
        )
    else:
        assert result.eliminated == ()
    if options["mode"] in ("tempo", "points"):
        points = [result.points[r] for r in result.places]
        assert points == sorted(points, reverse=True)
