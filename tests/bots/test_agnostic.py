"""Bots are game-agnostic: they drive any game through the core protocol, and the
greedy bot finds a game's heuristic through the registry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from peloton import ConfigError
from peloton.bots import greedy, make_bot, play_out
from peloton.core import registry
from peloton.core.protocol import GameState
from peloton.core.rng import Rng


class Nim:
    """A toy game on the core protocol: take 1 to 3 stones; who takes the last wins."""

    game = "toy-nim"

    def __init__(self, stones: int) -> None:
        self.stones = stones
        self.turn = 0
        self.history: list[int] = []

    @property
    def players(self) -> tuple[str, ...]:
        return ("A", "B")

    @property
    def current_player(self) -> str | None:
        return None if self.is_over else self.players[self.turn]

    @property
    def is_over(self) -> bool:
        return self.stones == 0

    @property
    def is_chance(self) -> bool:
        return False

    @property
    def result(self) -> str | None:
        # The player who took the last stone is the one who is not to move now.
        return self.players[1 - self.turn] if self.is_over else None

    def legal_moves(self) -> list[int]:
        return [n for n in (1, 2, 3) if n <= self.stones]

    def play(self, move: Any) -> None:
        assert move in self.legal_moves(), move
        self.stones -= move
        self.turn = 1 - self.turn
        self.history.append(move)

    def copy(self) -> Nim:
        new = Nim(self.stones)
        new.turn, new.history = self.turn, list(self.history)
        return new

    def view(self, player: str | None) -> Nim:
        return self.copy()

    def chance_move(self, rng: Rng) -> Any:
        raise AssertionError("no chance in Nim")

    def parse_move(self, text: str) -> int:
        return int(text)


def perfect_nim(state: Nim, moves: Sequence[int]) -> list[float]:
    """Leave a multiple of four stones: the winning Nim strategy."""
    return [1.0 if (state.stones - m) % 4 == 0 else 0.0 for m in moves]


@pytest.fixture
def toy_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let tests register games and heuristics without leaking into other tests."""
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))


def test_nim_satisfies_the_core_protocol() -> None:
    assert isinstance(Nim(5), GameState)


def test_random_bot_plays_any_game_with_legal_moves() -> None:
    for seed in range(20):
        state = Nim(21)
        bot = make_bot("random", seed)
        while not state.is_over:
            move = bot.choose(state)
            assert move in state.legal_moves()
            state.play(move)
        assert state.result in ("A", "B")


def test_greedy_uses_heuristics_a_game_registers(toy_registry: None) -> None:
    registry.register(registry.GameInfo("toy-nim", "Nim", dict, {"score_moves": perfect_nim}))
    for seed in range(20):
        state = play_out(Nim(10), {"A": make_bot("greedy", seed), "B": make_bot("random", seed)})
        assert state.result == "A"  # 10 stones: the first player wins by taking 2


def test_greedy_plays_the_registered_heuristics_choice(toy_registry: None) -> None:
    registry.register(registry.GameInfo("toy-nim", "Nim", dict, {"score_moves": perfect_nim}))
    assert make_bot("greedy", 1).choose(Nim(7)) == 3  # leaves 4


def test_mind_cycling_registers_its_heuristics() -> None:
    from peloton.games.mindcycling import heuristics

    assert greedy.heuristics_for("mind-cycling")["score_moves"] is heuristics.score_moves


def test_greedy_without_a_heuristic_says_so(toy_registry: None) -> None:
    registry.register(registry.GameInfo("toy-nim", "Nim", dict))
    with pytest.raises(ConfigError, match="'toy-nim' has none"):
        make_bot("greedy", 1).choose(Nim(7))


def test_greedy_on_an_unknown_game_is_a_config_error(toy_registry: None) -> None:
    with pytest.raises(ConfigError, match="unknown game 'toy-nim'"):
        make_bot("greedy", 1).choose(Nim(7))


def test_greedy_passes_options_to_the_heuristic(toy_registry: None) -> None:
    seen: list[dict[str, Any]] = []

    def score(state: Nim, moves: Sequence[int], **options: Any) -> list[float]:
        seen.append(options)
        return [float(m) for m in moves]

    registry.register(registry.GameInfo("toy-nim", "Nim", dict, {"score_moves": score}))
    bot = greedy.GreedyBot(1, depth=2)
    assert bot.choose(Nim(7)) == 3
    assert seen == [{"depth": 2}]


def test_greedy_breaks_ties_with_its_seed(toy_registry: None) -> None:
    registry.register(
        registry.GameInfo("toy-nim", "Nim", dict, {"score_moves": lambda s, ms: [0.0] * len(ms)})
    )
    picks = {seed: [make_bot("greedy", seed).choose(Nim(9)) for _ in range(1)] for seed in range(30)}
    assert {p[0] for p in picks.values()} == {1, 2, 3}
    again = {seed: [make_bot("greedy", seed).choose(Nim(9))] for seed in range(30)}
    assert again == picks
