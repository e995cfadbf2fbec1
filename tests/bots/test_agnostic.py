"""Bots are game-agnostic: they drive any game through the core protocol, and the
greedy bot finds a game's heuristic through the registry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from peloton import ConfigError, StateError
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

    def chance_outcomes(self) -> list[tuple[Any, float]]:
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
    picks = {
        seed: [make_bot("greedy", seed).choose(Nim(9)) for _ in range(1)] for seed in range(30)
    }
    assert {p[0] for p in picks.values()} == {1, 2, 3}
    again = {seed: [make_bot("greedy", seed).choose(Nim(9))] for seed in range(30)}
    assert again == picks


class Secret(Nim):
    """Nim where A also holds a secret number that B may not see (hidden information),
    and where a die decides, before each turn, how many stones fall off the heap."""

    game = "toy-secret"

    def __init__(self, stones: int, secret: int | None = 7, dice: bool = False) -> None:
        super().__init__(stones)
        self.secret = secret
        self.dice = dice
        self.rolled = False
        self.viewer: str | None = "everyone"

    @property
    def is_chance(self) -> bool:
        return self.dice and not self.rolled and not self.is_over

    @property
    def current_player(self) -> str | None:
        return "chance" if self.is_chance else super().current_player

    def chance_move(self, rng: Rng) -> Any:
        return ("roll", rng.randint(0, 1))

    def legal_moves(self) -> list[Any]:
        return [] if self.is_chance else super().legal_moves()

    def play(self, move: Any) -> None:
        if isinstance(move, tuple):
            self.stones = max(1, self.stones - move[1])
            self.rolled = True
            self.history.append(move)
            return
        super().play(move)
        self.rolled = False

    def copy(self) -> Secret:
        new = Secret(self.stones, self.secret, self.dice)
        new.turn, new.history, new.rolled = self.turn, list(self.history), self.rolled
        return new

    def view(self, player: str | None) -> Secret:
        new = self.copy()
        new.viewer = player
        if player != "A":
            new.secret = None
        return new


class Spy:
    """A bot that remembers what it was shown and takes one stone."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def choose(self, state: Any) -> Any:
        self.seen.append(state)
        return state.legal_moves()[0]


def test_play_out_gives_bots_only_their_seats_view_in_a_hidden_game(toy_registry: None) -> None:
    registry.register(registry.GameInfo("toy-secret", "Secret", dict, hidden_information=True))
    a, b = Spy(), Spy()
    state = play_out(Secret(6), {"A": a, "B": b})
    assert state.is_over
    assert a.seen and b.seen
    assert all(s is not state and s.viewer == "A" and s.secret == 7 for s in a.seen)
    assert all(s is not state and s.viewer == "B" and s.secret is None for s in b.seen)


def test_play_out_hands_the_state_itself_when_nothing_is_hidden(toy_registry: None) -> None:
    registry.register(registry.GameInfo("toy-secret", "Secret", dict, hidden_information=False))
    spy = Spy()
    state = Secret(5)
    play_out(state, spy)
    assert spy.seen and all(s is state for s in spy.seen)  # no copy per move


def test_play_out_gives_an_unregistered_game_views_to_be_safe() -> None:
    spy = Spy()
    state = Secret(4)
    play_out(state, spy)
    assert spy.seen and all(s is not state and s.viewer in ("A", "B") for s in spy.seen)


def test_play_out_draws_chance_steps_from_the_chance_rng(toy_registry: None) -> None:
    registry.register(registry.GameInfo("toy-secret", "Secret", dict))

    def game(seed: int) -> list[Any]:
        return play_out(Secret(30, dice=True), make_bot("random", 1), chance=Rng(seed)).history

    assert game(3) == game(3)
    assert any(game(3) != game(s) for s in range(4, 10))
    assert all(isinstance(m, int) for m in game(3)[1::2])  # a roll before every turn
    with pytest.raises(StateError, match="needs a chance Rng"):
        play_out(Secret(30, dice=True), make_bot("random", 1))


def test_mind_cycling_bots_see_the_state_itself() -> None:
    from peloton.bots.base import bot_view
    from peloton.games import mindcycling as mc

    state = mc.from_options({"course": "short", "riders": 3})
    assert bot_view(state) is state
