"""CY-12.3 to CY-12.6 with real track games: the omnium, the sprint tournament and the
pursuit series hand out their games, take them back from bots, refuse the games they
did not ask for, and their files replay to the same standings.
"""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.core.errors import RecordError, StateError
from peloton.games import cyclo as cy
from peloton.games.cyclo.competitions.omnium import finishing_order

from .test_cy12_competitions import SHORT, ride, run


def options(competition: cy.Competition) -> list[dict[str, Any]]:
    """The options of every game a competition took, in order."""
    return [record.options for record in competition.records]


# ---------------------------------------------------------------- CY-12.3


def test_cy12_3_an_omnium_rides_its_four_races_with_the_same_riders() -> None:
    omnium = cy.Omnium(2, entries=2)
    games = run(omnium, 11)
    assert [g.options()["mode"] for g in games] == ["scratch", "elimination", "tempo", "points"]
    assert all(sorted(g.setup.riders) == list(omnium.riders) for g in games)
    points = {r: 0 for r in omnium.riders}
    for game in games[:3]:
        for place, rider in enumerate(game.result.places[:6]):
            points[rider] += (15, 10, 5, 3, 2, 1)[place]
    for rider, scored in games[3].result.points.items():
        points[rider] += scored
    assert dict(omnium.standings["points"]) == points
    assert omnium.is_over and omnium.winner == omnium.standings["points"][0][0]
    assert max(points.values()) == points[omnium.winner]


def test_cy12_3_the_points_races_finish_line_breaks_the_ties() -> None:
    omnium = cy.Omnium(4)
    games = run(omnium, 5)
    race = games[3]
    assert omnium.table.finish == finishing_order(race)
    assert set(finishing_order(race)) == set(omnium.riders)
    order = omnium.table.order()
    for first, second in pairwise(order):
        if omnium.table.points(first) == omnium.table.points(second):
            assert omnium.table.finish.index(first) < omnium.table.finish.index(second)


def test_cy12_3_saved_tokens_start_the_next_race_with_at_most_five() -> None:
    omnium = cy.Omnium(3)
    first = omnium.next_game()
    assert first is not None and first.rider("AS1").tokens == 3
    omnium.add(ride(first, 2, frugal=True))  # nobody spends: every rider saves 3
    assert omnium.standings["tokens"] == dict.fromkeys(omnium.riders, 3)
    second = omnium.next_game()
    assert second is not None and second.options()["tokens"] == dict.fromkeys(omnium.riders, 3)
    assert {r: second.rider(r).tokens for r in omnium.riders} == dict.fromkeys(omnium.riders, 5)
    omnium.add(ride(second, 3))  # the random bot spends some
    left = second.result.tokens_left
    third = omnium.next_game()
    assert third is not None
    assert {r: third.rider(r).tokens for r in omnium.riders} == {
        r: min(5, 3 + left[r]) for r in omnium.riders
    }


# ---------------------------------------------------------------- CY-12.4


def test_cy12_4_sprint_duels_are_heats_of_the_two_teams_until_two_wins() -> None:
    tournament = cy.SprintTournament(3)
    games = run(tournament, 7)
    teams = [o["teams"] for o in options(tournament)]
    assert [t for i, t in enumerate(teams) if i == 0 or t != teams[i - 1]] == [
        ["A", "B"], ["A", "C"], ["B", "C"],
    ]  # fmt: skip
    duels = tournament.standings["duels"]
    assert len(games) == sum(len(d["heats"]) for d in duels)
    # no tokens carry from heat to heat: every heat starts its riders with 3
    assert all(o["tokens"] is None for o in options(tournament))
    assert all(
        cy.from_options(o).rider(o["teams"][0] + "S1").tokens == 3 for o in options(tournament)
    )
    for duel, game_teams in zip(duels, [["A", "B"], ["A", "C"], ["B", "C"]], strict=True):
        heats = [g for g in games if g.options()["teams"] == game_teams]
        winners = [g.result.places[0][0] for g in heats]
        assert [h["winner"] for h in duel["heats"]] == winners
        assert winners.count(duel["winner"]) == 2 == max(winners.count(t) for t in game_teams)


def test_cy12_4_a_team_sprint_duel_goes_to_the_lower_team_time() -> None:
    tournament = cy.SprintTournament(2, mode="team-sprint")
    games = run(tournament, 4)
    last = games[-1].result.team_times
    assert tournament.winner == min(last, key=last.__getitem__)
    assert all(len(set(g.result.team_times.values())) == 1 for g in games[:-1])  # re-rides


# ---------------------------------------------------------------- CY-12.5


@pytest.mark.parametrize("mode", ["pursuit", "team-pursuit"])
def test_cy12_5_qualifying_then_the_final_of_the_best_two(mode: str) -> None:
    series = cy.PursuitSeries(5, mode=mode)
    games = run(series, 9)
    teams = [o["teams"] for o in options(series)]
    assert teams[:3] == [["A", "B"], ["C", "D"], ["E"]]
    best = [t for t, _ in series.standings["qualifying"][:2]]
    assert all(final == sorted(best) for final in teams[3:])
    final = games[-1].result
    times = final.team_times if mode == "team-pursuit" else {
        r[0]: t for r, t in final.times.items()
    }  # fmt: skip
    assert series.winner == min(best, key=lambda t: times[t])
    assert [row["team"] for row in series.standings["table"]][:2] == [
        series.winner, series.standings["runner_up"],
    ]  # fmt: skip


# ---------------------------------------------------------------- CY-12.6

KINDS = [
    lambda: cy.Omnium(3),
    lambda: cy.SprintTournament(3, mode="team-sprint", level="starter"),
    lambda: cy.PursuitSeries(4),
]


@pytest.mark.parametrize("make", KINDS, ids=["omnium", "sprint-tournament", "pursuit-series"])
def test_cy12_6_add_refuses_what_it_did_not_ask_for(make: Any) -> None:
    competition = make()
    before = competition.to_dict()
    unfinished = competition.next_game()
    with pytest.raises(StateError, match="not finished"):
        competition.add(unfinished)
    with pytest.raises(StateError, match=r"game 1 is not the one .*mode 'itt'"):
        competition.add(ride(cy.new_game("itt", players=1, course=SHORT), 3))
    with pytest.raises(StateError, match="takes Cyclo games"):
        competition.add("AS1-5")
    other = "starter" if competition.settings["level"] == "pro" else "pro"
    wrong = {**competition.next_options(), "level": other}
    with pytest.raises(StateError, match=r"game 1 is not the one .*level"):
        competition.add(ride(cy.from_options(wrong), 3))
    assert competition.to_dict() == before


def test_cy12_6_a_heat_of_another_duel_is_refused() -> None:
    tournament = cy.SprintTournament(3)
    heat = ride(cy.new_game("sprint", teams=["A", "C"]), 1)
    with pytest.raises(StateError, match=r"teams \['A', 'C'\] \(expected \['A', 'B'\]\)"):
        tournament.add(heat)
    series = cy.PursuitSeries(3)
    with pytest.raises(StateError, match="teams"):
        series.add(ride(cy.new_game("pursuit", teams=["B", "C"]), 1))


def corrupt(data: dict[str, Any]) -> list[tuple[str, Any, str]]:
    games = data["games"]
    bad_move = json.loads(json.dumps(games[0]))
    bad_move["moves"][1] = "AS1-99"
    return [
        ("a record that does not replay", {**data, "games": [bad_move]}, "game 1 .*'AS1-99'"),
        ("not a record", {**data, "games": [games[0], "x"]}, "game 2 of the competition"),
        ("games swapped", {**data, "games": games[::-1]}, "game 1 .*not the one"),
        ("a game too many", {**data, "games": [*games, games[-1]]}, r"game \d+ .*over"),
        ("no games", {**data, "games": None}, "'games' must be a list"),
    ]


@pytest.mark.parametrize("make", KINDS, ids=["omnium", "sprint-tournament", "pursuit-series"])
def test_cy12_6_a_corrupt_file_is_a_clear_record_error(make: Any) -> None:
    competition = make()
    run(competition, 6)
    data = competition.to_dict()
    assert json.loads(json.dumps(data))["standings"] == competition.standings
    for why, bad, message in corrupt(data):
        if why == "games swapped" and data["games"][0] == data["games"][-1]:
            continue
        with pytest.raises(RecordError, match=message):
            cy.load_competition(bad)


# ---------------------------------------------------------------- properties

COMPETITIONS = st.one_of(
    st.builds(  # at least three riders: three teams, or two of two
        cy.Omnium,
        st.integers(3, 4),
        entries=st.sampled_from([1, 2]),
        level=st.sampled_from(["pro", "starter"]),
    ),
    st.builds(cy.Omnium, st.just(2), entries=st.just(2)),
    st.builds(
        cy.SprintTournament,
        st.integers(2, 4),
        mode=st.sampled_from(["sprint", "team-sprint"]),
        level=st.sampled_from(["pro", "starter"]),
    ),
    st.builds(
        cy.PursuitSeries,
        st.integers(2, 5),
        mode=st.sampled_from(["pursuit", "team-pursuit"]),
        level=st.sampled_from(["pro", "starter"]),
    ),
)
SLOW = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def settings_of(competition: cy.Competition) -> tuple[type[cy.Competition], dict[str, Any]]:
    return type(competition), competition.settings


@SLOW
@given(st.data(), st.integers(0, 10_000))
def test_bot_competitions_end_and_standings_are_a_function_of_the_games(
    data: st.DataObject, seed: int
) -> None:
    competition = data.draw(COMPETITIONS)
    games = run(competition, seed)
    assert competition.is_over and competition.next_game() is None and games
    assert competition.winner is not None
    kind, arguments = settings_of(competition)
    again = kind(**arguments)
    for record in competition.records:
        again.add(record.replay())  # the same games, played anew from their records
    assert again.standings == competition.standings and again.winner == competition.winner


@SLOW
@given(st.data(), st.integers(0, 10_000), st.integers(0, 8))
def test_a_competition_file_replays_to_the_same_standings(
    data: st.DataObject, seed: int, cut: int
) -> None:
    competition = data.draw(COMPETITIONS)
    run(competition, seed)
    saved = competition.to_dict()
    saved["games"] = saved["games"][:cut]
    loaded = cy.load_competition(json.loads(json.dumps(saved)))
    kind, arguments = settings_of(competition)
    replayed = kind(**arguments)
    for record in competition.records[:cut]:
        replayed.add(record.replay())
    assert loaded.standings == replayed.standings and loaded.to_dict() == replayed.to_dict()
    assert loaded.next_options() == replayed.next_options()
