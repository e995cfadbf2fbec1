"""The bot hooks: greedy choices that use tokens, wheels and swaps sensibly; playouts,
evaluation and outcome; the generic bots finish Cyclo games."""

from __future__ import annotations

from typing import Any

import pytest

from peloton.bots import make_bot, play_out
from peloton.core.rng import Rng
from peloton.games import cyclo as cy
from peloton.games.cyclo.bots.heuristics import (
    ANCHOR,
    HEURISTICS,
    evaluate,
    outcome,
    rollout_move,
    score_moves,
)

from .helpers import at, play

SHORT: dict[str, Any] = {"name": "short", "boards": ["E1"]}


def best(state: cy.State) -> set[str]:
    """The moves of top score."""
    moves = state.legal_moves()
    scores = score_moves(state, moves)
    top = max(scores)
    return {str(m) for m, s in zip(moves, scores, strict=True) if s >= top - 1e-9}


def test_rides_go_furthest_with_own_tokens_and_dodge_dark_squares() -> None:
    assert best(play(at("3 AH1:a20*4 / A*4"), "roll:2,3")) == {"AH1-37/rr"}
    assert best(play(at("3 AH1:a72"), "roll:2,3")) == {"AH1-76"}  # 77 is dark: back to 74
    # team tokens go to the team's leader, not to a helper behind it
    assert best(play(at("3 AH1:a20,AS1:a40 / A*4"), "roll:6,6", "AS1-64/tt", "roll:2,3")) == {
        "AH1-25"
    }
    assert best(play(at("3 AH1:a40,AS1:a20 / A*4"), "roll:2,3")) == {"AH1-57/tt"}


def test_wheels_are_taken_when_worth_a_roll() -> None:
    ride = play(at("8 AH1:a54*4,BC1:a55*4 / A*4,B*4"), "BC1~-", "roll:4,5", "BC1-70/t")
    assert best(ride) == {"AH1>BC1"}  # 15 spaces without rolling
    short = play(at("8 AH1:a54*4,BC1:a55*4 / A*4,B*4"), "BC1~-", "roll:1,1", "BC1-57")
    assert best(short) == {"AH1>-"}  # 2 spaces: less than a roll


def test_swaps() -> None:
    assert best(at("9 AS1:a30*4,BH1:a29*4 / A*4,B*4")) == {"AS1~-"}  # never help a rival
    asked = play(at("9 AS1:a30*4,BH1:a29*4 / A*4,B*4"), "AS1~BH1")
    assert best(asked) == {"BH1~yes"}  # BH1 gains a square
    level = play(at("9 AS1:b30*4,BH1:a30*4 / A*4,B*4"), "BH1~AS1")
    assert best(level) == {"AS1~no"}
    leader = at("9 AH1:a30*4,AS1:a29*4,BS1:a10*4 / A*4,B*4")
    assert best(leader) == {
        "AH1~AS1"
    }  # AS1's last-km dice make it A's leader: it takes the square ahead
    kept = at("9 AH1:a30*4,AH2:a29*4,AS1:a10*4,BS1:b10*4 / A*4,B*4")
    assert best(kept) == {"AH1~-"}  # AH1 is A's leader: it keeps its square
    helpers = play(at("9 AH1:a30*4,AH2:a29*4,AS1:a40*4,BS1:a10*4 / A*4,B*4"), "roll:1,1", "AS1-42")
    assert best(helpers) == {"AH1~AH2"}  # two helpers: AH2 rides first, AH1 may take its wheel


def test_a_fall_brings_down_rivals() -> None:
    state = play(
        at("3 AC1:a39s,AH1:a36,BS1:b38s", level="starter"), "roll:1,1", "AH1-38", "draw:fall"
    )
    assert best(state) == {"fall:BS1"}


def test_rollout_evaluate_outcome() -> None:
    state = cy.new_game("classic", players=3, seed=4)
    rng = Rng(4)
    while not state.is_over:
        values = evaluate(state)
        assert set(values) == set(state.players) and sum(values.values()) == pytest.approx(1)
        assert all(0 <= v <= 1 for v in values.values())
        state.play(state.chance_move(rng) if state.is_chance else rollout_move(state, rng))
    assert outcome(state) == {t: float(t == state.result.winner_team) for t in state.players}
    assert evaluate(state) == outcome(state)


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(10):
        state = cy.from_options({"course": "flemish-4"})
        greedy = state.players[seed % 2]
        bots = {t: make_bot("greedy" if t == greedy else "random", seed) for t in state.players}
        play_out(state, bots, chance=Rng(seed))
        wins += state.result.winner_team == greedy
    assert wins >= 9


def test_mcts_plays_a_game_to_its_end() -> None:
    state = cy.from_options({"course": SHORT})
    bots = {"A": make_bot("mcts:4", 1), "B": make_bot("greedy", 2)}
    play_out(state, bots, chance=Rng(1), max_moves=5_000)
    assert state.is_over and state.result.winner_team in ("A", "B")


def test_mcts_is_anchored_to_the_greedy_line_in_the_team_modes_and_the_keirin_only() -> None:
    # CY-10.3, CY-11.3: the team modes rank a team by its third rider, which the
    # evaluation sees riders apart; CY-11.4: the keirin's pacer, which the race model
    # does not know. There the search must clearly beat greedy's move.
    anchor = HEURISTICS["anchor"]
    anchored = ("ttt", "team-pursuit", "team-sprint", "keirin")
    for mode in cy.AVAILABLE:
        state = cy.from_options({"mode": mode, "players": 3 if mode == "elimination" else 2})
        assert anchor(state) == (ANCHOR if mode in anchored else 0)
    assert 0 < ANCHOR < 1
