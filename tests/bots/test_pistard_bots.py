"""Bots play Pistard through the core protocol: random, greedy and MCTS finish games
with legal moves only, chance drawn by ``play_out``; greedy beats random clearly.

Strength, measured when written (benchmarks/pistard_playout.py --strength 1000): the
greedy bot won 999 of 1000 two-player games against the random bot (95% Wilson
interval [99.4%, 100%]) and 500 of 500 four-player games against three random bots
([99.2%, 100%]). The thresholds below fail only on a real loss of strength.
"""

from __future__ import annotations

import pytest

from peloton.bots import Bot, make_bot, play_out
from peloton.core.rng import Rng
from peloton.games import pistard as pi


def checked_play(
    state: pi.State, bots: dict[str, Bot], rng: Rng, max_moves: int = 20_000
) -> pi.State:
    """Play to the end, checking every choice is legal and leaves the state untouched."""
    for _ in range(max_moves):
        if state.is_over:
            return state
        if state.is_chance:
            state.play(state.chance_move(rng))
            continue
        before = state.copy()
        bot = bots[state.current_player]  # type: ignore[index]
        move = bot.choose(state)
        assert state == before, f"{bot.name} changed the state while choosing"
        assert move in state.legal_moves(), f"{bot.name} chose illegal {move}"
        state.play(move)
    raise AssertionError(f"game not over after {max_moves} moves")


@pytest.mark.parametrize("name", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bonus", pi.BONUSES)
def test_bots_play_legal_moves_to_the_end(name: str, players: int, bonus: str) -> None:
    state = pi.from_options({"players": players, "bonus": bonus})
    bots = {t: make_bot(name, 10 * players + i) for i, t in enumerate(state.players)}
    checked_play(state, bots, Rng(players))
    assert state.is_over and state.result.winner in state.players
    assert state.points[state.result.winner] >= state.target


def test_play_out_with_chance() -> None:
    state = pi.from_options({"players": 3, "length": 24})
    play_out(state, make_bot("greedy", 1), chance=Rng(2), max_moves=20_000)
    assert state.is_over


def test_same_seeds_same_game() -> None:
    def game(seed: int) -> list[str]:
        state = pi.from_options({"players": 2})
        bots = {"A": make_bot("greedy", seed), "B": make_bot("random", seed + 1)}
        return [str(m) for m in play_out(state, bots, chance=Rng(seed)).history]

    assert game(5) == game(5) != game(6)


def greedy_wins(players: int, games: int) -> int:
    """Games won by one greedy bot against random bots, its seat rotating."""
    wins = 0
    for g in range(games):
        state = pi.from_options({"players": players})
        seat = state.players[g % players]
        bots = {
            t: make_bot("greedy" if t == seat else "random", 1_000 * g + i)
            for i, t in enumerate(state.players)
        }
        play_out(state, bots, chance=Rng(50_000 + g))
        wins += state.result.winner == seat
    return wins


def test_greedy_beats_random_two_players() -> None:
    assert greedy_wins(2, 40) >= 36


def test_greedy_beats_random_at_four() -> None:
    # A random player would win a quarter of these.
    assert greedy_wins(4, 12) >= 10


def test_greedy_spends_dice_well() -> None:
    """The greedy bot uses its smallest die on a rider that cannot move and takes a
    free bonus square."""
    state = pi.from_position(
        "2 A1:2.b10,A2:2.a1,A3:out,A4:out,B1:1.a11,B2:1.b11,B3:1.c11,B4:out",
        layout={"name": "stripes", "rows": ["ygbr"] * 40},
    )
    state.play("roll:2,6")
    assert str(make_bot("greedy", 1).choose(state)) == "A1=2:-"
    state.play("A1=2:-")
    move = make_bot("greedy", 1).choose(state)  # A2 (green) with a 6: b7 then b8, b9
    assert str(move) == "A2=6:b7+b8+b9"


def test_mcts_completes_games() -> None:
    state = pi.from_options({"players": 2, "length": 20, "target": 3})
    bots = {"A": make_bot("mcts:50", 1), "B": make_bot("greedy", 2)}
    checked_play(state, bots, Rng(3))
    assert state.is_over


def test_heuristics_hooks() -> None:
    hooks = pi.HEURISTICS
    state = pi.from_options({"players": 3})
    rng = Rng(4)
    for _ in range(80):
        state.play(state.chance_move(rng) if state.is_chance else hooks["rollout_move"](state, rng))
    rewards = hooks["evaluate"](state)
    assert set(rewards) == set(state.players) and all(0.0 <= r <= 1.0 for r in rewards.values())
    assert abs(sum(rewards.values()) - 1.0) < 1e-9
    play_out(state, make_bot("greedy", 1), chance=rng)
    assert hooks["outcome"](state) == {t: float(t == state.result.winner) for t in state.players}


def test_shelter_term_rewards_a_teammate_s_shelter() -> None:
    """The (measured, off by default) shelter term: ending where a teammate still to
    move could stop directly behind scores ``Weights.shelter`` more; where only a
    rival could, that much less."""
    from peloton.games.pistard.heuristics import Weights, score_moves

    state = pi.from_position(
        "2 A1:2.b10,A2:2.b5,A3:out,A4:out,B1:1.a30,B2:out,B3:out,B4:out",
        layout={"name": "stripes", "rows": ["ygbr"] * 40},
    )
    state.play("roll:2,3")
    moves = state.legal_moves()
    plain = score_moves(state, moves)
    helped = score_moves(state, moves, weights=Weights(shelter=1.0))
    for move, a, b in zip(moves, plain, helped, strict=True):
        # A2 (distance 45) may stop on row 11 (behind row 12) but not on row 12.
        assert b - a == (1.0 if move.end is not None and move.end[1:] == "12" else 0.0), move
    rival = pi.from_position(
        "2 A1:2.b10,A2:out,A3:out,A4:out,B1:2.b5,B2:out,B3:out,B4:out",
        layout={"name": "stripes", "rows": ["ygbr"] * 40},
    )
    rival.play("roll:2")
    moves = rival.legal_moves()
    diffs = {
        str(m): b - a
        for m, a, b in zip(
            moves,
            score_moves(rival, moves),
            score_moves(rival, moves, weights=Weights(shelter=1.0)),
            strict=True,
        )
    }
    assert diffs["A1=2:b12"] == -1.0
