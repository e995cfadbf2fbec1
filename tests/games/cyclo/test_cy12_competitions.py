"""CY-12.1, CY-12.2, CY-12.6: competitions, the stage race and competition files.

Legs are ridden on a short inline course (two boards, B = 2) so that whole games are
quick; the time and jersey rules are also checked on hand-made leg results, where
every tie can be set up exactly.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.bots import make_bot
from peloton.core.errors import ConfigError, RecordError, StateError
from peloton.core.rng import Rng
from peloton.games import cyclo as cy
from peloton.games.cyclo.competitions.stage_race import Classification

#: Two boards (B = 2): a sprint line after 3, a category-3 climb with its line after 8.
SHORT = {
    "name": "short",
    "boards": [
        {
            "name": "S1",
            "runs": [["flat", 6, 3], ["climb", 4, 3]],
            "lines": [[3, "sprint"], [8, "mountain", "3"]],
            "finish": False,
        },
        {"name": "S2", "runs": [["flat", 8, 3]], "finish": True},
    ],
}
TWO_LEGS = [{"mode": "leg", "course": SHORT}, {"mode": "itt", "course": SHORT}]
TOKEN_SPEND = re.compile(r"/[rt]+$")


def ride(state: cy.State, seed: int, *, frugal: bool = False) -> cy.State:
    """Play ``state`` to its end: random bots (``frugal``: riders never spend a
    token), dice from ``Rng(seed)``."""
    dice, pick = Rng(seed), Rng(seed + 1)
    bot = make_bot("random", seed, game="cyclo")
    for _ in range(20_000):
        if state.is_over:
            return state
        if state.is_chance:
            state.play(state.chance_move(dice))
        elif frugal:
            moves = [m for m in state.legal_moves() if not TOKEN_SPEND.search(str(m))]
            state.play(pick.choice(moves))
        else:
            state.play(bot.choose(state))
    raise AssertionError("the game did not end")


def run(race: cy.Competition, seed: int, **kwargs: Any) -> list[cy.State]:
    """Ride every game of ``race`` (seeds ``seed``, ``seed + 10`` …); the games."""
    games = []
    while (state := race.next_game(seed=seed + 10 * len(games))) is not None:
        race.add(ride(state, seed + 10 * len(games), **kwargs))
        games.append(state)
    return games


def result(places: str, times: dict[str, int] | None = None, **extra: Any) -> cy.Result:
    """A hand-made leg result: ``places`` as ``"AS1 BS1 …"``."""
    return cy.Result(places=tuple(places.split()), teams=(), times=times or {}, **extra)


# ---------------------------------------------------------------- CY-12.1


def test_cy12_1_the_games_know_nothing_of_competitions() -> None:
    package = Path(cy.__file__).parent
    competition = {
        "competition",
        "competitions",
        "stage_race",
        "omnium",
        "sprint_tournament",
        "pursuit_series",
    }
    for path in package.glob("*.py"):
        if path.stem in competition | {"__init__"}:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            (node.module or "").rsplit(".", 1)[-1]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
        }
        assert not imported & competition, path.name


def test_cy12_1_each_game_is_a_new_game_taken_back_finished() -> None:
    race = cy.StageRace(2, legs=TWO_LEGS)
    state = race.next_game(seed=4)
    assert state is not None and state.start is None and not state.history
    assert state.options()["mode"] == "leg" and state.seed == 4
    assert state.options() == cy.from_options(race.next_options()).options()
    race.add(ride(state, 4))
    assert len(race.records) == 1 and race.records[0].moves == [str(m) for m in state.history]
    assert race.records[0].seed == 4


# ---------------------------------------------------------------- CY-12.2


def test_cy12_2_the_tour_is_a_prologue_two_stages_and_a_team_time_trial() -> None:
    race = cy.StageRace(3)
    assert race.legs == [
        {"mode": "itt", "course": "prologue"},
        {"mode": "leg", "course": "flat-stage"},
        {"mode": "leg", "course": "mountain-stage"},
        {"mode": "ttt", "course": "ttt"},
    ]
    assert race.next_options() == {
        "mode": "itt",
        "players": 3,
        "course": "prologue",
        "level": "pro",
        "events": None,
        "tokens": None,
    }
    assert race.settings == {
        "players": 3,
        "legs": "tour",
        "level": "pro",
        "events": False,
        "bonus_seconds": False,
    }


def test_cy12_2_events_ride_on_the_road_legs_only() -> None:
    race = cy.StageRace(2, legs=[{"mode": "itt", "course": SHORT}, {"mode": "leg"}], events=True)
    first = race.next_game()
    assert first is not None and not first.setup.events
    race.add(ride(first, 1))
    second = race.next_game()
    assert second is not None and second.setup.events
    assert second.setup.course.name == "flat-stage"  # the mode's own course (CY-1.5)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"legs": "giro"}, "unknown legs 'giro'"),
        ({"legs": []}, "a list of"),
        ({"legs": [{"mode": "classic"}]}, "leg 1: mode 'classic' is not a stage race leg"),
        ({"legs": [{"mode": "leg", "km": 3}]}, "leg 1 has unknown key"),
        ({"legs": ["leg"]}, "leg 1 must be"),
        ({"legs": [{"mode": "itt"}, {"mode": "leg", "course": "nowhere"}]}, "leg 2 .*nowhere"),
        ({"players": 1}, r"leg 2 \(leg on flat-stage\)"),
        ({"players": 7}, "leg 1"),
        ({"players": "2"}, "number of teams"),
        ({"level": "amateur"}, "unknown level"),
        ({"bonus_seconds": "yes"}, "'bonus_seconds' must be true or false"),
    ],
)
def test_cy12_2_bad_settings_are_named(kwargs: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {"players": 2, **kwargs}
    with pytest.raises(ConfigError, match=message):
        cy.StageRace(**arguments)


def test_cy12_2_leg_times_are_added_up() -> None:
    race = cy.StageRace(2, legs=TWO_LEGS)
    games = run(race, 3)
    riders = sorted(games[0].setup.riders)
    total = {r: sum(g.result.times[r] for g in games) for r in riders}
    assert dict(race.standings["yellow"]) == total
    assert race.standings["ridden"] == 2 and race.standings["legs"] == 2
    assert race.is_over and race.winner == race.standings["yellow"][0][0]


def test_cy12_2_bonus_seconds_take_a_legs_green_points_off_its_time() -> None:
    plain, bonus = (
        cy.StageRace(2, legs=TWO_LEGS),
        cy.StageRace(2, legs=TWO_LEGS, bonus_seconds=True),
    )
    games = run(plain, 8)
    run(bonus, 8)  # the same seeds: the same games
    leg = games[0].result
    assert any(leg.points.values()), "the leg paid green points"
    for rider, time in bonus.standings["yellow"]:
        assert time == dict(plain.standings["yellow"])[rider] - leg.points[rider]
    assert bonus.standings["green"] == plain.standings["green"]  # points are kept all the same


def test_cy12_2_times_are_green_and_red_points_are_summed_on_given_results() -> None:
    gc = Classification(("AS1", "BS1"), bonus_seconds=True)
    gc.add_leg(result("AS1 BS1", {"AS1": 0, "BS1": 10}, points={"AS1": 15, "BS1": 10}))
    gc.add_leg(result("BS1 AS1", {"AS1": 20, "BS1": 0}, mountain={"AS1": 3}))
    assert gc.time == {"AS1": 0 - 15 + 20, "BS1": 10 - 10 + 0}
    assert gc.green == {"AS1": 15, "BS1": 10} and gc.red == {"AS1": 3, "BS1": 0}


def test_cy12_2_saved_tokens_start_the_next_leg_with_at_most_five() -> None:
    # Leg 1 on SHORT (B = 2): riders start with 2 own tokens and spend none; leg 2 on
    # flat-stage (B = 4): min(5, 4 + 2) = 5 own tokens, and team tokens min(5, 4) = 4.
    race = cy.StageRace(2, legs=[{"mode": "leg", "course": SHORT}, {"mode": "leg"}])
    first = race.next_game()
    assert first is not None and first.rider("AS1").tokens == 2 and first.team_tokens["A"] == 2
    race.add(ride(first, 5, frugal=True))
    left = first.result.tokens_left
    assert set(left.values()) == {2} and all(n == 2 for n in first.team_tokens.values())
    assert race.standings["tokens"] == left
    assert race.next_options()["tokens"] == left  # type: ignore[index]
    second = race.next_game()
    assert second is not None
    assert {r: second.rider(r).tokens for r in left} == dict.fromkeys(left, 5)
    assert second.team_tokens == {"A": 4, "B": 4}  # team tokens are never saved


def test_cy12_2_a_rider_that_spent_its_tokens_starts_with_b() -> None:
    race = cy.StageRace(2, legs=[{"mode": "leg", "course": SHORT}, {"mode": "leg"}])
    first = race.next_game()
    assert first is not None
    race.add(ride(first, 5))  # the random bot spends tokens
    left = first.result.tokens_left
    assert set(left.values()) != {2}, "some rider spent a token"
    second = race.next_game()
    assert second is not None
    assert {r: second.rider(r).tokens for r in left} == {r: min(5, 4 + n) for r, n in left.items()}


def test_cy12_2_saved_is_the_tokens_left_at_most_five() -> None:
    gc = Classification(("AS1", "BS1"))
    gc.add_leg(result("AS1 BS1", tokens_left={"AS1": 3, "BS1": 0}))
    assert gc.saved == {"AS1": 3, "BS1": 0}
    gc.add_leg(result("AS1 BS1", tokens_left={"AS1": 1, "BS1": 5}))
    assert gc.saved == {"AS1": 1, "BS1": 5}  # what is left, not added to what was saved


def test_cy12_2_starter_saves_no_tokens() -> None:
    race = cy.StageRace(2, legs=TWO_LEGS, level="starter")
    first = race.next_game()
    assert first is not None
    race.add(ride(first, 2))
    assert set(race.standings["tokens"].values()) == {0}
    assert race.next_options()["tokens"] is None  # type: ignore[index]


def test_cy12_2_yellow_is_the_lowest_time_ties_by_the_latest_place_then_id() -> None:
    gc = Classification(("AS1", "BC1", "BS1", "CS1"))
    assert gc.yellow() == ["AS1", "BC1", "BS1", "CS1"]  # all level, no leg yet: by id
    gc.add_leg(result("CS1 BS1 AS1 BC1", {"AS1": 0, "BS1": 0, "BC1": 0, "CS1": 10}))
    assert gc.yellow() == ["BS1", "AS1", "BC1", "CS1"]
    gc.add_leg(result("AS1 BC1 CS1 BS1", {"AS1": 0, "BS1": 0, "BC1": 0, "CS1": 0}))
    assert gc.yellow() == ["AS1", "BC1", "BS1", "CS1"]  # the latest leg decides, not the first


def test_cy12_2_green_and_red_go_to_the_most_points_ties_in_yellow_order() -> None:
    gc = Classification(("AS1", "BS1", "CS1"))
    gc.add_leg(
        result(
            "CS1 BS1 AS1",
            {"AS1": 20, "BS1": 10, "CS1": 0},
            points={"AS1": 10, "BS1": 10, "CS1": 3},
            mountain={"AS1": 7, "BS1": 2, "CS1": 2},
        )
    )
    assert gc.by_points(gc.green) == ["BS1", "AS1", "CS1"]  # BS1 is ahead on time
    assert gc.by_points(gc.red) == ["AS1", "CS1", "BS1"]  # CS1 is ahead on time
    standings = gc.standings()
    assert standings["jerseys"] == {"yellow": "CS1", "green": "BS1", "red": "AS1"}
    assert standings["green"] == [["BS1", 10], ["AS1", 10], ["CS1", 3]]
    assert standings["red"] == [["AS1", 7], ["CS1", 2], ["BS1", 2]]


def test_cy12_2_a_rider_stopped_by_the_round_guard_is_timed_after_the_slowest() -> None:
    gc = Classification(("AS1", "BS1"))
    gc.add_leg(result("AS1 BS1", {"AS1": 0}))
    assert gc.time == {"AS1": 0, "BS1": 10}


# ---------------------------------------------------------------- CY-12.6


def test_cy12_6_standings_are_json_ready_and_shaped() -> None:
    race = cy.StageRace(2, legs=TWO_LEGS)
    run(race, 6)
    standings = race.standings
    assert json.loads(json.dumps(standings)) == standings
    assert set(standings) == {"yellow", "green", "red", "jerseys", "tokens", "legs", "ridden"}
    riders = sorted(race.classification.riders)
    for jersey in ("yellow", "green", "red"):
        rows = standings[jersey]
        assert sorted(r for r, _ in rows) == riders and all(isinstance(v, int) for _, v in rows)
        assert standings["jerseys"][jersey] == rows[0][0]
    assert sorted(standings["tokens"]) == riders


def test_cy12_6_next_game_is_none_once_over() -> None:
    race = cy.StageRace(2, legs=[{"mode": "itt", "course": SHORT}])
    assert not race.is_over and race.winner is None
    run(race, 1)
    assert race.is_over and race.next_game() is None and race.next_options() is None
    assert race.winner == race.standings["jerseys"]["yellow"]


def test_cy12_6_the_seed_is_aside() -> None:
    race = cy.StageRace(2, legs=TWO_LEGS)
    state = cy.from_options(race.next_options())  # no seed at all
    race.add(ride(state, 9))
    state = race.next_game(seed=123)
    assert state is not None
    state.seed = 77
    race.add(ride(state, 9))
    assert race.is_over and [r.seed for r in race.records] == [None, 77]


def refusals() -> list[tuple[str, Any, str]]:
    leg = {"mode": "leg", "players": 2, "course": SHORT}
    return [
        ("unfinished", lambda: cy.from_options(leg), "not finished"),
        ("another mode", lambda: ride(cy.from_options({**leg, "mode": "itt"}), 1), "mode 'itt'"),
        ("another course", lambda: ride(cy.from_options({**leg, "course": None}), 1), "course"),
        ("more teams", lambda: ride(cy.from_options({**leg, "players": 3}), 1), "teams"),
        ("starter", lambda: ride(cy.from_options({**leg, "level": "starter"}), 1), "level"),
        ("cards", lambda: ride(cy.from_options({**leg, "events": True}), 1), "events"),
        (
            "saved tokens",
            lambda: ride(cy.from_options({**leg, "tokens": {"AS1": 1}}), 1),
            "tokens",
        ),
        (
            "a position",
            lambda: ride(cy.from_cyn("1 AS1:a5*2,BS1:a4*2 / A*2,B*2", "leg", course=SHORT), 1),
            "position",
        ),
        ("not a game", lambda: "AS1-5", "Cyclo games"),
    ]


@pytest.mark.parametrize(("why", "game", "message"), refusals(), ids=[r[0] for r in refusals()])
def test_cy12_6_add_refuses_a_game_it_did_not_ask_for(why: str, game: Any, message: str) -> None:
    race = cy.StageRace(2, legs=TWO_LEGS)
    before = race.to_dict()
    with pytest.raises(StateError, match=message):
        race.add(game())
    assert race.to_dict() == before and race.next_options() == race._options(0, {})


def test_cy12_6_add_refuses_the_right_game_in_the_wrong_order_and_after_the_end() -> None:
    race = cy.StageRace(2, legs=TWO_LEGS)
    itt = ride(cy.from_options({"mode": "itt", "players": 2, "course": SHORT}), 1)
    with pytest.raises(StateError, match=r"game 1 is not the one .*mode 'itt' \(expected 'leg'\)"):
        race.add(itt)
    run(race, 2)
    with pytest.raises(StateError, match="over after 2 games"):
        race.add(itt)


def test_cy12_6_a_competition_file_replays() -> None:
    race = cy.StageRace(2, legs=TWO_LEGS, bonus_seconds=True)
    run(race, 4)
    data = race.to_dict()
    assert data["format"] == "peloton-cyclo-competition/1" == cy.COMPETITION_FORMAT
    assert data["kind"] == "stage" and data["settings"]["bonus_seconds"] is True
    assert [g["format"] for g in data["games"]] == ["peloton-record/1"] * 2
    again = cy.load_competition(json.loads(json.dumps(data)))
    assert isinstance(again, cy.StageRace)
    assert again.standings == race.standings and again.to_dict() == data
    half = cy.load_competition({**data, "games": data["games"][:1]})  # saved mid-way
    assert half.standings["ridden"] == 1 and half.next_options() == race._options(
        1, half.classification.saved
    )
    assert cy.load_competition(json.dumps(data)).standings == race.standings  # JSON text


def corrupt(data: dict[str, Any]) -> list[tuple[str, Any, str]]:
    games = data["games"]
    bad_move = json.loads(json.dumps(games[0]))
    bad_move["moves"][3] = "AS1-99"
    return [
        ("not an object", [], "JSON object"),
        ("not JSON", "{oops", "must be JSON"),
        ("wrong format", {**data, "format": "peloton-record/1"}, "not a Cyclo competition file"),
        ("unknown kind", {**data, "kind": "criterium"}, "unknown competition kind 'criterium'"),
        ("another kind's settings", {**data, "kind": "omnium"}, "unknown omnium setting"),
        ("no settings", {**data, "settings": None}, "'settings' must be an object"),
        ("bad settings", {**data, "settings": {"players": 2, "laps": 3}}, "'laps'"),
        ("no games", {**data, "games": {}}, "'games' must be a list"),
        ("a record that does not replay", {**data, "games": [bad_move]}, "game 1 .*'AS1-99'"),
        ("not a record", {**data, "games": [games[0], 7]}, "game 2 of the competition"),
        ("games swapped", {**data, "games": games[::-1]}, "game 1 .*not the one"),
        ("a game too many", {**data, "games": [*games, games[1]]}, "game 3 .*over"),
    ]


def test_cy12_6_a_corrupt_competition_file_is_a_clear_error() -> None:
    race = cy.StageRace(2, legs=TWO_LEGS)
    run(race, 4)
    for why, data, message in corrupt(race.to_dict()):
        with pytest.raises(RecordError, match=message):
            cy.load_competition(data)
        assert why


# ---------------------------------------------------------------- properties

RACES = st.fixed_dictionaries(
    {
        "players": st.integers(2, 3),
        "legs": st.lists(
            st.sampled_from(
                [
                    {"mode": "leg", "course": SHORT},
                    {"mode": "itt", "course": SHORT},
                    {"mode": "ttt", "course": SHORT},
                ]
            ),
            min_size=1,
            max_size=3,
        ),
        "level": st.sampled_from(["pro", "starter"]),
        "events": st.booleans(),
        "bonus_seconds": st.booleans(),
    }
)
SLOW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(RACES, st.integers(0, 10_000))
def test_bot_stage_races_end_and_standings_are_a_function_of_the_games(
    race_settings: dict[str, Any], seed: int
) -> None:
    race = cy.StageRace(**race_settings)
    games = run(race, seed)
    assert race.is_over and len(games) == len(race_settings["legs"])
    assert race.winner == race.standings["yellow"][0][0]
    again = cy.StageRace(**race_settings)
    for record in race.records:
        again.add(record.replay())  # the same games, played anew from their records
    assert again.standings == race.standings


@SLOW
@given(RACES, st.integers(0, 10_000), st.integers(0, 3))
def test_a_competition_file_replays_to_the_same_standings(
    race_settings: dict[str, Any], seed: int, cut: int
) -> None:
    race = cy.StageRace(**race_settings)
    run(race, seed)
    data = race.to_dict()
    data["games"] = data["games"][:cut]
    loaded = cy.load_competition(json.loads(json.dumps(data)))
    replayed = cy.StageRace(**race_settings)
    for state in [r.replay() for r in race.records][:cut]:
        replayed.add(state)
    assert loaded.standings == replayed.standings
    assert loaded.to_dict() == replayed.to_dict()
