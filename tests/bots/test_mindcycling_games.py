"""Random and greedy bots play whole Mind Cycling games: legal moves only, every
variant finishes, and the same seeds replay the same game."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from peloton.bots import Bot, make_bot, play_out
from peloton.games import mindcycling as mc

BOTS = ("random", "greedy")


def checked_play(state: mc.State, bots: dict[str, Bot], max_moves: int = 5_000) -> mc.State:
    """Play to the end, checking every choice is legal and leaves the state untouched."""
    for _ in range(max_moves):
        if state.is_over:
            return state
        before = state.copy()
        bot = bots[state.current_player]  # type: ignore[index]
        move = bot.choose(state)
        assert state == before, f"{bot.name} changed the state while choosing"
        assert move in state.legal_moves(), f"{bot.name} chose illegal {move}"
        state.play(move)
    raise AssertionError(f"game not over after {max_moves} moves")


def seats(state: mc.State, names: tuple[str, ...], seed: int) -> dict[str, Bot]:
    return {t: make_bot(names[i % len(names)], seed + i) for i, t in enumerate(state.players)}


GAMES: dict[str, Callable[[], mc.State]] = {
    "standard-6x6": lambda: mc.new_game("standard", mc.default_teams(6, 6)),
    "short-3-riders": lambda: mc.new_game("short", mc.default_teams(4, 3)),
    "short-7-teams": lambda: mc.new_game("short", mc.default_teams(7, 3)),
    "standard-2x4": lambda: mc.new_game("standard", mc.default_teams(2, 4)),
    "expert-left": lambda: mc.new_game("standard", mc.default_teams(3, 5), wind="left"),
    "expert-right": lambda: mc.new_game("short", mc.default_teams(2, 3), wind="right"),
    "solo": lambda: mc.new_solo("solo"),
    "solo-expert-left": lambda: mc.new_solo("solo", wind="left"),
    "no-relay": lambda: mc.new_game("standard", mc.default_teams(2, 6), relay_limit=0),
}


@pytest.mark.parametrize("name", BOTS)
@pytest.mark.parametrize("game", GAMES)
def test_bot_plays_legal_moves_to_the_end(name: str, game: str) -> None:
    state = GAMES[game]()
    checked_play(state, seats(state, (name,), seed=7))
    assert state.is_over
    result = state.result
    if state.solo:
        assert result.solo_score is not None
        assert len(result.places) >= 4  # MC-9.3
    else:
        assert result.trophy in state.players
        assert "cyclist" in result.medals and "team" in result.medals


def test_mixed_table_finishes() -> None:
    state = mc.new_game("standard", mc.default_teams(6, 6))
    checked_play(state, seats(state, ("greedy", "random"), seed=3))
    assert state.result.trophy in state.players


def test_bot_plays_on_from_a_position_mid_race() -> None:
    state = mc.from_mcn("standard", "9 AC1:b40,AD1:c44,BC1:e38,BD1:d45+ / AS1,BS1 / sprint=AS1")
    checked_play(state, seats(state, ("greedy", "random"), seed=1))
    assert state.is_over
    assert set(state.result.places) == {"AS1", "BS1", "AC1", "AD1", "BC1", "BD1"}


def play(names: tuple[str, ...], seed: int, game: str = "standard-6x6") -> list[str]:
    state = GAMES[game]()
    play_out(state, seats(state, names, seed))
    return [str(m) for m in state.history]


@pytest.mark.parametrize("names", [("random",), ("greedy",), ("greedy", "random")])
def test_same_seeds_replay_the_same_game(names: tuple[str, ...]) -> None:
    assert play(names, 11) == play(names, 11)
    assert play(names, 11, "expert-left") == play(names, 11, "expert-left")


@pytest.mark.parametrize("names", [("random",), ("greedy",)])
def test_different_seeds_give_different_games(names: tuple[str, ...]) -> None:
    games = {tuple(play(names, seed)) for seed in range(4)}
    assert len(games) == 4


def test_bots_record_and_replay() -> None:
    state = mc.new_game("short", mc.default_teams(3, 3), wind="right")
    play_out(state, seats(state, ("greedy", "random"), seed=5))
    record = mc.Record.from_state(state)
    replayed = mc.Record.from_json(record.to_json()).replay()
    assert replayed == state
