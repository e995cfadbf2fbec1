"""The MCTS bot: legal, reproducible, game-agnostic, multi-player aware, and stronger
than random. Budgets here are iteration counts, never wall-clock times."""

from __future__ import annotations

from typing import Any

import pytest

from peloton import ConfigError
from peloton.bots import make_bot, play_out
from peloton.bots.greedy import EasyBot
from peloton.bots.mcts import MCTSBot, Node, _anchored, _Search
from peloton.core import registry
from peloton.core.rng import Rng
from peloton.games import mindcycling as mc
from peloton.games.mindcycling import playouts

from .test_agnostic import Nim


@pytest.fixture
def toy_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))


def midgame(teams: int = 2, riders: int = 6, course: str = "standard", rounds: int = 4) -> mc.State:
    state = mc.new_game(course, mc.default_teams(teams, riders))
    bot = make_bot("greedy", 3)
    while state.round < rounds:
        state.play(bot.choose(state))
    return state


def test_mcts_returns_a_legal_move_and_leaves_the_state_alone() -> None:
    for state in (mc.new_game("short", mc.default_teams(2, 3)), midgame(), midgame(6, 6)):
        before = state.copy()
        move = MCTSBot(1, iterations=40).choose(state)
        assert move in state.legal_moves()
        assert state == before


def test_mcts_with_an_iteration_budget_is_reproducible() -> None:
    state = midgame()
    picks = [MCTSBot(7, iterations=60).choose(state) for _ in range(2)]
    assert picks[0] == picks[1]
    # Without settling early (which depends on the game's heuristics), the whole budget runs.
    bot = MCTSBot(7, iterations=60, settle=False)
    bot.choose(state)
    assert bot.last_iterations == 60


def test_mcts_time_budget_runs_at_least_one_playout() -> None:
    bot = MCTSBot(1, seconds=1e-9)
    assert bot.choose(midgame()) in midgame().legal_moves()
    assert bot.last_iterations >= 1


def test_mcts_finds_the_forced_win_in_nim() -> None:
    # 7 stones: taking 3 leaves a multiple of four, the only winning move.
    for seed in range(5):
        assert MCTSBot(seed, iterations=400).choose(Nim(7)) == 3
    assert MCTSBot(1, iterations=600).choose(Nim(10)) == 2


def test_mcts_beats_random_at_nim() -> None:
    wins = 0
    for g in range(10):
        mcts, rand = MCTSBot(g, iterations=500), make_bot("random", 50 + g)
        seats = {"A": mcts, "B": rand} if g % 2 == 0 else {"A": rand, "B": mcts}
        state = play_out(Nim(13 if g % 2 == 0 else 12), seats)  # the MCTS side can win
        wins += state.result == ("A" if g % 2 == 0 else "B")
    assert wins >= 8  # measured: 9 of 10 (random playouts see random replies as best)


def test_mcts_uses_the_rollout_policy_and_evaluation_a_game_registers(toy_registry: None) -> None:
    calls: dict[str, int] = {"rollout": 0, "evaluate": 0}

    def rollout(state: Nim, rng: Rng) -> int:
        calls["rollout"] += 1
        return 1

    def evaluate(state: Nim) -> dict[str, float]:
        calls["evaluate"] += 1
        winner = state.result if state.is_over else None
        return {p: 1.0 if p == winner else 0.0 for p in state.players}

    registry.register(
        registry.GameInfo("toy-nim", "Nim", dict, {"rollout_move": rollout, "evaluate": evaluate})
    )
    bot = MCTSBot(1, iterations=50, horizon=2, settle=False)
    assert bot.choose(Nim(9)) in (1, 2, 3)
    assert calls["rollout"] > 0 and calls["evaluate"] == 50


def test_the_game_says_how_long_playouts_run(toy_registry: None) -> None:
    calls: dict[str, int] = {"rollout": 0, "evaluate": 0}
    asked: list[int | None] = [0]

    def rollout(state: Nim, rng: Rng) -> int:
        calls["rollout"] += 1
        return 1

    def evaluate(state: Nim) -> dict[str, float]:
        calls["evaluate"] += 1
        return {p: 0.5 for p in state.players}

    hooks: Any = {"rollout_move": rollout, "evaluate": evaluate, "horizon": lambda state: asked[0]}
    registry.register(registry.GameInfo("toy-nim", "Nim", dict, hooks))
    MCTSBot(1, iterations=30, settle=False).choose(Nim(9))
    assert calls == {"rollout": 0, "evaluate": 30}  # horizon 0: the new position is scored at once
    asked[0] = None
    calls.update(rollout=0, evaluate=0)
    MCTSBot(1, iterations=30, settle=False).choose(Nim(9))
    assert (
        calls["rollout"] > 0 and calls["evaluate"] == 30
    )  # to the end, where evaluate is the outcome
    calls["rollout"] = 0
    MCTSBot(1, iterations=30, settle=False, horizon=1).choose(Nim(9))  # the bot's own horizon wins
    assert 0 < calls["rollout"] <= 30


def test_progressive_bias_leans_to_the_ordering_between_equal_moves() -> None:
    """Two moves equally good so far: UCB1 alone takes the first, the progressive
    bias the one the ordering ranks higher; the bias fades as visits grow, so a move
    really better wins over it."""
    node = Node(None, 0)
    node.visits = 20
    first, second = Node(1, 1), Node(2, 1)
    for child, prior in ((first, 0.0), (second, 1.0)):
        child.visits, child.totals, child.prior = 10, [5.0, 5.0], prior
    node.children = [first, second]
    assert _Search.select(node, 0, 0.7) is first
    assert _Search.select(node, 0, 0.7, bias=0.1) is second
    first.totals = [6.0, 4.0]  # 0.6 against 0.5: the bias (0.1 / 11) does not overturn it
    assert _Search.select(node, 0, 0.7, bias=0.1) is first
    with pytest.raises(ConfigError, match="bias"):
        MCTSBot(1, bias=-0.1)


def test_the_anchor_keeps_the_orderings_best_move_unless_clearly_beaten() -> None:
    """The root's first child is the ordering's best move: the most visited move is
    played instead only when its mean reward beats that move's by the margin."""
    root = Node(None, 0)
    first, other = Node(1, 1), Node(2, 1)
    first.visits, first.totals = 10, [5.0, 5.0]  # 0.5
    other.visits, other.totals = 30, [16.5, 13.5]  # 0.55
    root.children = [first, other]
    assert _anchored(root, other, 0, 0.0) is other  # no anchor: the most visited
    assert _anchored(root, other, 0, 0.1) is first  # 0.05 better is not enough
    assert _anchored(root, other, 0, 0.05) is other
    assert _anchored(root, first, 0, 0.1) is first
    first.totals = [6.0, 4.0]  # the ordering's move is the better: it is played
    assert _anchored(root, other, 0, 0.01) is first
    with pytest.raises(ConfigError, match="anchor"):
        MCTSBot(1, anchor=-0.5)


def test_the_anchor_overrules_a_misleading_ordering_only_when_the_search_is_sure(
    toy_registry: None,
) -> None:
    """Nim from 5 stones: taking 1 wins, the ordering ranks taking 3 best. With a
    margin above 1 (rewards lie in [0, 1]) the ordering's move is always played; with
    a small one the search's clear win overrules it; with the game's hook as well."""
    margin = [0.0]
    hooks: Any = {"score_moves": lambda state, moves: list(moves), "anchor": lambda s: margin[0]}
    registry.register(registry.GameInfo("toy-nim", "Nim", dict, hooks))
    assert MCTSBot(1, iterations=400).choose(Nim(5)) == 1
    assert MCTSBot(1, iterations=400, anchor=1.5).choose(Nim(5)) == 3
    assert MCTSBot(1, iterations=400, anchor=0.2).choose(Nim(5)) == 1
    margin[0] = 1.5
    assert MCTSBot(1, iterations=400).choose(Nim(5)) == 3
    assert MCTSBot(1, iterations=400, anchor=0.0).choose(Nim(5)) == 1  # the bot's own wins


def test_settling_early_picks_the_move_the_whole_budget_picks() -> None:
    # The settled stop only ends a search whose most visited move can no longer be
    # overtaken, so with an iteration budget the choice is the same, in fewer playouts.
    saved = 0
    for seed in range(6):
        for stones in (7, 9, 10, 13):
            whole = MCTSBot(seed, iterations=300, settle=False)
            early = MCTSBot(seed, iterations=300)
            assert early.choose(Nim(stones)) == whole.choose(Nim(stones))
            assert whole.last_iterations == 300 and early.last_iterations <= 300
            saved += 300 - early.last_iterations
    assert saved > 0


class ThreeWay:
    """Three players take turns once each; the last picks who wins among the first two
    (or itself). Max^n: player C must pick itself."""

    game = "toy-three"

    def __init__(self) -> None:
        self.picks: list[str] = []

    players = ("A", "B", "C")

    @property
    def current_player(self) -> str | None:
        return None if self.is_over else self.players[len(self.picks)]

    @property
    def is_over(self) -> bool:
        return len(self.picks) == 3

    @property
    def is_chance(self) -> bool:
        return False

    @property
    def result(self) -> str | None:
        return self.picks[-1] if self.is_over else None

    def legal_moves(self) -> list[str]:
        return list(self.players)

    def play(self, move: Any) -> None:
        self.picks.append(move)

    def copy(self) -> ThreeWay:
        new = ThreeWay()
        new.picks = list(self.picks)
        return new

    def view(self, player: str | None) -> ThreeWay:
        return self.copy()

    def chance_move(self, rng: Rng) -> Any:
        raise AssertionError

    def parse_move(self, text: str) -> str:
        return text


def test_each_player_maximises_its_own_reward() -> None:
    state = ThreeWay()
    state.play("A")
    state.play("B")
    assert MCTSBot(1, iterations=60).choose(state) == "C"


class Dice:
    """One chance roll of a die, then A guesses odd or even: right, A wins; wrong, B."""

    game = "toy-dice"
    players = ("A", "B")

    def __init__(self) -> None:
        self.roll: int | None = None
        self.guess: str | None = None

    @property
    def is_chance(self) -> bool:
        return self.roll is None

    @property
    def current_player(self) -> str | None:
        return None if self.is_over else ("chance" if self.is_chance else "A")

    @property
    def is_over(self) -> bool:
        return self.guess is not None

    @property
    def result(self) -> str | None:
        if self.roll is None or self.guess is None:
            return None
        return "A" if (self.roll % 2 == 0) == (self.guess == "even") else "B"

    def legal_moves(self) -> list[str]:
        return [] if self.is_chance or self.is_over else ["odd", "even"]

    def play(self, move: Any) -> None:
        if self.is_chance:
            self.roll = move
        else:
            self.guess = move

    def copy(self) -> Dice:
        new = Dice()
        new.roll, new.guess = self.roll, self.guess
        return new

    def view(self, player: str | None) -> Dice:
        return self.copy()

    def chance_move(self, rng: Rng) -> int:
        return rng.randint(1, 6)

    def parse_move(self, text: str) -> str:
        return text


def test_mcts_plays_through_chance_steps() -> None:
    state = Dice()
    state.play(4)
    assert MCTSBot(1, iterations=30).choose(state) == "even"
    # A search started before the roll samples chance outcomes without error.
    search_root = Dice()
    from peloton.bots.mcts import _Search

    search = _Search(MCTSBot(2, iterations=20), search_root)
    for _ in range(20):
        search.iterate()
    assert search.root.visits == 20 and search.root.children


def test_mcts_beats_random_on_a_short_game() -> None:
    wins = 0
    for g in range(4):
        state = mc.new_game("short", mc.default_teams(2, 3))
        mcts, rand = MCTSBot(g, iterations=12), make_bot("random", 90 + g)
        me = "A" if g % 2 == 0 else "B"
        play_out(state, {"A": mcts, "B": rand} if me == "A" else {"A": rand, "B": mcts})
        wins += state.result.trophy == me
    assert wins == 4


def test_named_levels_and_budget_names() -> None:
    assert isinstance(make_bot("easy", 1), EasyBot)
    assert make_bot("medium", 1).name == "medium"
    hard, expert = make_bot("hard", 1), make_bot("expert", 1)
    assert isinstance(hard, MCTSBot) and isinstance(expert, MCTSBot)
    assert hard.seconds is not None and expert.seconds is not None and hard.seconds < expert.seconds
    bot = make_bot("mcts:25", 3)
    assert isinstance(bot, MCTSBot) and bot.iterations == 25 and bot.name == "mcts:25"
    timed = make_bot("mcts:0.5s", 3)
    assert isinstance(timed, MCTSBot) and timed.seconds == 0.5 and timed.iterations is None
    state = mc.new_game("short", mc.default_teams(2, 3))
    assert make_bot("easy", 2).choose(state) in state.legal_moves()


@pytest.mark.parametrize("spec", ["mcts:", "mcts:x", "mcts:0", "mcts:-1s", "mcts:1.5"])
def test_bad_mcts_budgets_are_config_errors(spec: str) -> None:
    with pytest.raises(ConfigError, match="MCTS"):
        make_bot(spec)


def test_evaluation_is_a_reward_per_team_in_unit_range() -> None:
    for state in (
        mc.new_game("standard", mc.default_teams(3, 6)),
        midgame(),
        midgame(6, 6, rounds=8),
    ):
        values = playouts.evaluate(state)
        assert set(values) == set(state.players)
        assert all(0.0 <= v <= 1.0 for v in values.values())
    done = play_out(mc.new_game("short", mc.default_teams(2, 3)), make_bot("greedy", 1))
    values = playouts.evaluate(done)
    assert values == playouts.outcome(done)
    winner = done.result.trophy
    assert winner is not None and values[winner] == max(values.values()) and values[winner] > 0.6


def test_rollout_policy_plays_legal_moves_to_the_end() -> None:
    rng = Rng(5)
    state = mc.new_game("standard", mc.default_teams(2, 6))
    moves = 0
    while not state.is_over:
        move = playouts.rollout_move(state, rng)
        state.play(move)  # play validates
        moves += 1
    assert moves < 400


def test_mcts_cpu_clock_budget_reads_the_process_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    from peloton.bots import mcts

    ticks = iter(range(10_000))
    monkeypatch.setitem(mcts._CLOCKS, "cpu", lambda: next(ticks) * 0.01)  # 10 ms a reading
    bot = MCTSBot(1, seconds=0.05, clock="cpu", settle=False)
    assert bot.choose(midgame()) in midgame().legal_moves()
    assert 1 <= bot.last_iterations <= 5  # the fake CPU clock ran out, whatever the wall clock did
    assert "clock='cpu'" in repr(bot) and MCTSBot(1, seconds=1.0).clock == "wall"
    with pytest.raises(ConfigError, match="clock"):
        MCTSBot(1, seconds=1.0, clock="sundial")
