"""The analysis of records (``peloton.analysis.review``): Mind Twist exact from its
solver (MT-5), the other games searched, chance steps never judged, and the same
analysis for the same seed whatever the number of processes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis_records import record
from peloton.analysis.review import (
    THRESHOLDS,
    Budget,
    analyse,
    analyst_of,
    classify,
    to_json,
)
from peloton.analysis.review.search import SearchAnalyst
from peloton.bots import make_bot
from peloton.core.errors import RecordError
from peloton.core.rng import Rng
from peloton.games import mindcycling as mc
from peloton.games import mindtwist as mt
from peloton.games.mindtwist.solver import solution_for
from peloton.games.mindtwist.solver.analysis import move_values

#: A search budget for tests: a few playouts, the same on every machine.
TINY = Budget(seconds=None, iterations=6)


def test_mt_5_the_solvers_best_move_costs_nothing_and_a_worse_one_its_exact_loss() -> None:
    state = mt.new_game()
    values = move_values(state)
    analyst = analyst_of("mind-twist")
    best = max(values, key=values.__getitem__)
    worst = min(values, key=values.__getitem__)
    assert values[best] - values[worst] > 0.01  # a position where the choice matters
    found = analyst.assess(state, state.parse_move(best), TINY, Rng(0))
    assert (found.cost, found.best) == (0.0, best)
    assert found.best_value == pytest.approx(solution_for(state).value(state))
    worse = analyst.assess(state, state.parse_move(worst), TINY, Rng(0))
    assert worse.cost == pytest.approx(values[best] - values[worst], abs=1e-12)
    assert worse.best != worst


@pytest.mark.parametrize("guess", ["guess:1", "guess:2", "guess:3", "pass"])
def test_mt_2_2_a_guess_is_judged_without_the_hidden_dial(guess: str) -> None:
    analyst = analyst_of("mind-twist")
    seen = []
    for dial in ("dial:1", "dial:3"):
        state = mt.new_game()
        state.play(dial)
        view = state.view(state.current_player)
        seen.append(analyst.assess(view, view.parse_move(guess), TINY, Rng(0)))
    assert seen[0] == seen[1]


def test_mt_the_record_analysis_reads_the_mover_view_only(tmp_path: Path) -> None:
    data = record("mind-twist", str(tmp_path), seed=2)
    analysis = analyse(data, TINY)
    assert analysis.engine == "mind-twist solver"
    guesses = [p for p in analysis.positions if p.played.startswith(("guess", "pass"))]
    assert guesses and all(p.cost is not None and p.cost >= 0 for p in guesses)
    for p in analysis.positions:
        assert sum(p.chances.values()) == pytest.approx(1.0)


def test_a_mind_cycling_record_is_searched_and_its_best_moves_are_legal(tmp_path: Path) -> None:
    data = record("mind-cycling", str(tmp_path), moves=12)
    analysis = analyse(data, TINY)
    assert analysis.engine == "mcts"
    states = mc.Record.from_dict(data).states()
    for p, state in zip(analysis.positions, states, strict=False):
        assert p.best in {str(m) for m in state.legal_moves()}
        assert p.best_value is not None and p.played_value is not None
        assert p.cost == pytest.approx(max(0.0, p.best_value - p.played_value))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mc_8_3_the_search_sees_that_crossing_first_takes_two_medals(seed: int) -> None:
    # BC1 leads the climb (b63, moving first); crossing now makes it the stage winner
    # and the first past the mountain's last row (MC-8.3): two medals to A's sprinter
    # one, the trophy (MC-8.4). Stopping short lets AC1 (c62, bottle) attack past.
    state = mc.from_mcn(
        "standard", "20 AC1:c62+,BC1:b63,AS1:a40,AD1:b40,BS1:d40,BD1:e40 / / sprint=AS1"
    )
    analyst = SearchAnalyst()
    short = analyst.assess(state.copy(), state.parse_move("BC1-a66"), Budget(None, 100), Rng(seed))
    assert short.best == "BC1-#" and classify(short.cost) == "blunder"
    crossed = analyst.assess(state.copy(), state.parse_move("BC1-#"), Budget(None, 100), Rng(seed))
    assert (crossed.best, crossed.cost) == ("BC1-#", 0.0)


@pytest.mark.parametrize("game", ["pistard", "cyclo"])
def test_chance_steps_get_chances_but_no_cost(game: str, tmp_path: Path) -> None:
    analysis = analyse(record(game, str(tmp_path), moves=10), TINY)
    chance = [p for p in analysis.positions if p.chance]
    decided = [p for p in analysis.positions if not p.chance]
    assert chance and decided  # dice were rolled (PI-2.1, CY-2) and moves made
    assert all(p.cost is None and p.kind is None and p.mover == "chance" for p in chance)
    assert all(p.cost is not None and p.kind is not None for p in decided)
    assert set(analysis.summary()) == set(analysis.players)


def test_same_seed_same_analysis_with_one_or_two_processes(tmp_path: Path) -> None:
    data = record("pistard", str(tmp_path), moves=8)
    one = to_json(analyse(data, TINY, jobs=1, seed=5))
    two = to_json(analyse(data, TINY, jobs=2, seed=5))
    assert one == two
    assert to_json(analyse(data, TINY, jobs=1, seed=6)) != one


def test_an_illegal_move_is_named_by_its_index(tmp_path: Path) -> None:
    data = record("mind-twist", str(tmp_path))
    data["moves"][3] = "dial:7"
    with pytest.raises(RecordError, match="move 3") as caught:
        analyse(data, TINY)
    assert caught.value.index == 3


def test_a_record_of_an_unknown_game_is_refused(tmp_path: Path) -> None:
    data = {**record("mind-twist", str(tmp_path)), "game": "chess"}
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        analyse(data, TINY)


@pytest.mark.parametrize(
    ("cost", "kind"),
    [(0.0, "best"), (0.019, "best"), (0.03, "good"), (0.05, "inaccuracy"), (0.1, "mistake"),
     (0.25, "blunder")],
)  # fmt: skip
def test_classes_follow_the_thresholds(cost: float, kind: str) -> None:
    assert classify(cost) == kind
    assert [name for name, _ in THRESHOLDS] == ["blunder", "mistake", "inaccuracy"]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["mind-twist", "mind-cycling", "pistard", "cyclo"]),
    seed=st.integers(0, 10_000),
    length=st.integers(1, 6),
)
def test_chances_are_a_distribution_and_costs_are_never_negative(
    game: str, seed: int, length: int
) -> None:
    state = _opening(game, seed, length)
    data = json.loads(state)
    analysis = analyse(data, Budget(None, 3), seed=seed)
    for p in analysis.positions:
        assert sum(p.chances.values()) == pytest.approx(1.0)
        assert all(0.0 <= v <= 1.0 for v in p.chances.values())
        assert p.chance or (p.cost is not None and p.cost >= 0.0)


def _opening(game: str, seed: int, length: int) -> str:
    """The record text of ``length`` moves of random play of ``game``."""
    from peloton.core import registry

    package = __import__(registry.package(game), fromlist=["Record"])
    state = (
        package.new_game()
        if game != "mind-cycling"
        else mc.new_game("short", mc.default_teams(2, 3))
    )
    bot = make_bot("random", seed)
    rng = Rng(seed)
    for _ in range(length):
        if state.is_over:
            break
        state.play(state.chance_move(rng) if state.is_chance else bot.choose(state))
    kwargs = {"seed": seed} if game in ("pistard", "cyclo") else {}
    return str(package.Record.from_state(state, **kwargs).to_json())
