"""Mind Twist bots: ``optimal`` plays the solver's mixed strategies from views (never
the hidden dial); ``pass3`` always dials 3 and passes. Their measured strength agrees
with what the solver predicts.

The two bots live in the game package and are found through the game's registry entry
(``GameInfo.bots``): :func:`game_bot` builds them from it."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from importlib import import_module

import pytest

from peloton import ConfigError, StateError
from peloton.bots import Bot, make_bot
from peloton.core import registry
from peloton.games import mindcycling as mc
from peloton.games import mindtwist as mt
from peloton.games.mindtwist.bots import OptimalBot, Pass3Bot

#: z of a two-sided 99% interval.
Z99 = 2.576


def game_bot(name: str, seed: int) -> Bot:
    """A bot by name: Mind Twist's own from its registry entry, any other from
    :func:`make_bot`."""
    path = registry.get("mind-twist").bots.get(name)
    if path is None:
        return make_bot(name, seed)
    module, _, attr = path.partition(":")
    bot: Bot = getattr(import_module(module), attr)(seed)
    return bot


def play_from_views(state: mt.State, bots: dict[str, Bot]) -> mt.State:
    """Play to the end, each bot given only ``state.view(current player)``."""
    while not state.is_over:
        player = state.current_player
        assert player is not None
        state.play(bots[player].choose(state.view(player)))
    return state


def win_rate(opponent: str, games: int, seed: int) -> float:
    """The optimal bot's share of wins, seats swapped every game."""
    wins = 0
    for i in range(games):
        optimal, other = game_bot("optimal", seed + 2 * i), game_bot(opponent, seed + 2 * i + 1)
        seats = {"R": optimal, "B": other} if i % 2 == 0 else {"R": other, "B": optimal}
        state = play_from_views(mt.new_game(), seats)
        wins += seats[state.result] is optimal  # type: ignore[index]
    return wins / games


def test_bots_by_name() -> None:
    """The registry names the game's own bots by their new home, below peloton.bots."""
    assert dict(registry.get("mind-twist").bots) == {
        "optimal": "peloton.games.mindtwist.bots:OptimalBot",
        "pass3": "peloton.games.mindtwist.bots:Pass3Bot",
    }
    optimal, pass3 = game_bot("optimal", 3), game_bot("pass3", 4)
    assert isinstance(optimal, OptimalBot) and optimal.name == "optimal" and optimal.seed == 3
    assert isinstance(pass3, Pass3Bot) and pass3.name == "pass3"


def test_pass3_dials_three_and_never_challenges() -> None:
    bot = game_bot("pass3", 1)
    s = mt.new_game()
    assert str(bot.choose(s.view("R"))) == "dial:3"
    s.play("dial:1")
    assert str(bot.choose(s.view("B"))) == "pass"


def test_optimal_plays_from_a_view_without_the_dial() -> None:
    """The guesser's view hides the dial; the bot's choice cannot depend on it: the
    same seed gives the same answer whatever was dialled."""
    for position in ("R0 B0 R", "R20 B22 B", "R27 B15 R"):
        answers = set()
        for dial in (1, 2, 3):
            s = mt.from_position(position)
            s.play(f"dial:{dial}")
            view = s.view(s.current_player)
            assert view.dial_hidden
            answers.add(str(game_bot("optimal", 11).choose(view)))
            # Even handed the full state, it does not look at the dial.
            answers.add(str(game_bot("optimal", 11).choose(s)))
        assert len(answers) == 1


def test_optimal_draws_from_the_solver_strategy() -> None:
    """At the start the bot's dials follow the solver's mix (99% bands)."""
    solution = mt.solve()
    bot = game_bot("optimal", 5)
    start = mt.new_game()
    n = 3000
    counts = Counter(str(bot.choose(start)) for _ in range(n))
    for move, p in solution.dial_strategy(start).items():
        band = Z99 * math.sqrt(p * (1 - p) / n) + 1e-9
        assert abs(counts[move] / n - p) <= band, (move, counts)
    start.play("dial:2")
    view = start.view("B")
    counts = Counter(str(bot.choose(view)) for _ in range(n))
    for move, p in solution.guess_strategy(view).items():
        assert abs(counts[move] / n - p) <= Z99 * math.sqrt(p * (1 - p) / n) + 1e-9, (move, counts)


def test_optimal_bot_on_other_boards() -> None:
    s = mt.from_options({"length": 12, "milestones": [4, 8]})
    bots: dict[str, Bot] = {"R": game_bot("optimal", 1), "B": game_bot("optimal", 2)}
    assert play_from_views(s, bots).is_over


def test_bots_refuse_other_games_and_finished_ones() -> None:
    state = mc.new_game("short", mc.default_teams(2, 3))
    for name in ("optimal", "pass3"):
        with pytest.raises(ConfigError, match="Mind Twist only"):
            game_bot(name, 1).choose(state)
    over = mt.from_position("R29 B0 R")
    over.play("dial:1")
    over.play("pass")
    with pytest.raises(StateError):
        game_bot("optimal", 1).choose(over)


@pytest.mark.parametrize(
    ("opponent", "dial", "response"),
    [
        ("random", lambda a, o: (1 / 3,) * 3, lambda a, o: (0.25,) * 4),
        ("pass3", lambda a, o: (0.0, 0.0, 1.0), lambda a, o: (0.0, 0.0, 0.0, 1.0)),
    ],
    ids=["random", "pass3"],
)
def test_measured_strength_matches_the_solver(
    opponent: str, dial: object, response: object
) -> None:
    """Over 2000 games (seats swapped) the optimal bot wins as often as the solver
    predicts against that opponent's fixed strategy (within a 99% interval), and more
    than half of them."""
    as_red, as_blue = mt.solve().against(dial, response)  # type: ignore[arg-type]
    predicted = (as_red + as_blue) / 2
    games = 2000
    measured = win_rate(opponent, games, seed=1000)
    band = Z99 * math.sqrt(predicted * (1 - predicted) / games)
    assert abs(measured - predicted) <= band, (measured, predicted)
    assert measured > 0.5
    # The game value bounds what any opponent can hold the optimal bot to.
    value = mt.solve().value("R0 B0 R")
    assert as_red >= value - 1e-9 and as_blue >= 1 - value - 1e-9


def test_optimal_bot_when_blue_starts() -> None:
    """Option ``first``: with blue active first, the optimal bot wins against pass3 as
    often as the solver predicts for the player moving first (as blue) and second (as
    red), within 99% intervals over 1000 games each."""
    first, second = mt.solve().against(
        lambda a, o: (0.0, 0.0, 1.0), lambda a, o: (0.0, 0.0, 0.0, 1.0)
    )
    games = 1000
    for seat, predicted in (("B", first), ("R", second)):
        wins = 0
        for i in range(games):
            other = "R" if seat == "B" else "B"
            bots = {seat: game_bot("optimal", 4000 + 2 * i), other: game_bot("pass3", 4001 + 2 * i)}
            state = play_from_views(mt.from_options({"first": "B"}), bots)
            wins += state.result == seat
        band = Z99 * math.sqrt(predicted * (1 - predicted) / games)
        assert abs(wins / games - predicted) <= band, (seat, wins / games, predicted)


def test_against_optimal_itself_is_the_value() -> None:
    """Sanity of the prediction: optimal against optimal gives the game value."""
    solution = mt.solve(10, (3, 6))

    def dials(a: int, o: int) -> Sequence[float]:
        return solution.dials[a][o]

    def responses(a: int, o: int) -> Sequence[float]:
        return solution.responses[a][o]

    as_red, as_blue = solution.against(dials, responses)
    assert as_red == pytest.approx(solution.value("R0 B0 R"), abs=1e-9)
    assert as_blue == pytest.approx(1 - solution.value("R0 B0 R"), abs=1e-9)
