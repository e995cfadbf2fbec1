"""The engine against the independent track model (``track_model.py``), move by move.

Random track events (every mode; both levels; 1 or 2 entries; the bundled velodrome
and random ones) are played on both at once. Before every move the legal moves must
be the same texts; after every move the phase, the rider due, the player to act, the
round, every rider's square, tokens and points must agree; at every round start the
CYN; at the end the result (CY-8.6)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.core.rng import Rng
from peloton.games import cyclo as cy
from peloton.games.cyclo import track

from .track_model import SEATS, TrackModel


class Discrepancy(AssertionError):
    """The engine and the model disagree."""


def check_event(
    mode: str, players: int, level: str, entries: int, velodrome: dict[str, Any], seed: int
) -> int:
    """Play one random event on both; the moves played."""
    teams = "ABCDEF"[:players]
    state = cy.new_game(mode, players=players, level=level, entries=entries, course=velodrome)
    model = TrackModel.new_event(mode, teams, level, entries, velodrome)
    rng, pick = Rng(seed), random.Random(seed)
    where = f"{mode} {players}x{entries} {level} {velodrome} seed {seed}"
    moves = 0
    while True:
        if state.at_round_start and state.to_cyn() != model.to_cyn():
            raise Discrepancy(f"{where}: CYN {state.to_cyn()!r} vs model {model.to_cyn()!r}")
        for what, ours, theirs in (
            ("over", state.is_over, model.over),
            ("phase", state.phase, model.phase),
            ("due", state.due, model.due),
            ("player", state.current_player, model.current_player),
            ("round", state.round, model.round),
        ):
            if ours != theirs:
                raise Discrepancy(f"{where}, move {moves}: {what} {ours!r} vs model {theirs!r}")
        for r in model.riders:
            info = state.rider(r.id)
            if (info.square, info.tokens, state.position.points.get(r.id, 0)) != (
                model.square(r),
                r.tokens,
                r.points,
            ):
                raise Discrepancy(
                    f"{where}, move {moves}: {r.id} {info.square} *{info.tokens} vs model "
                    f"{model.square(r)} *{r.tokens} +{r.points}"
                )
        if state.is_over:
            break
        legal = sorted(str(m) for m in state.legal_moves())
        if legal != sorted(model.legal()):
            raise Discrepancy(
                f"{where}, move {moves}: legal {legal} vs model {sorted(model.legal())}"
            )
        move = str(state.chance_move(rng)) if state.is_chance else pick.choice(legal)
        state.play(move)
        model.play(move)
        moves += 1
    ours = state.result.to_dict()
    theirs = model.result()
    if ours != theirs:
        raise Discrepancy(f"{where}: result {ours} vs model {theirs}")
    return moves


@st.composite
def events(draw: st.DrawFn) -> tuple[str, int, str, int, dict[str, Any], int]:
    mode = draw(st.sampled_from(sorted(SEATS)))
    low, high, fixed = SEATS[mode]
    players = draw(st.integers(low, high))
    entries = 1 if fixed else draw(st.sampled_from([1, 2]))
    if mode == "elimination" and players * entries < 3:
        players = 3
    lap = draw(st.sampled_from([20, 20, 10, 16, 30]))
    width = draw(st.sampled_from([4, 4, 1, 2, 3, 6]))
    velodrome = {
        "name": "velodrome" if (lap, width) == (20, 4) else "v",
        "lap": lap,
        "width": width,
    }
    level = draw(st.sampled_from(["pro", "starter"]))
    return mode, players, level, entries, velodrome, draw(st.integers(0, 2**32))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events())
def test_the_engine_plays_every_track_event_as_the_model(
    event: tuple[str, int, str, int, dict[str, Any], int],
) -> None:
    check_event(*event)


def test_the_check_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison catches a defect: a points race whose finish paid double."""
    velodrome = {"name": "velodrome", "lap": 20, "width": 4}
    check_event("points", 3, "pro", 1, velodrome, 1)  # the real engine agrees
    monkeypatch.setattr(track, "POINTS_RACE_FACTORS", {3: 2, 6: 2})
    with pytest.raises(Discrepancy, match=r"CYN|result"):
        check_event("points", 3, "pro", 1, velodrome, 1)
