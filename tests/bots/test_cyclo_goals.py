"""Cyclo's bots ride for each mode's goal: time in the time trials (a team time trial
for its third rider), points as well as the win in a leg; MCTS's evaluation scores
that goal; and every bot plays only legal moves and ends every game of every mode."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.bots import make_bot, play_out
from peloton.bots.mcts import MCTSBot
from peloton.core.rng import Rng
from peloton.games import cyclo as cy
from peloton.games.cyclo.bots import goals, lines, points_model, race_model, timed
from peloton.games.cyclo.bots.heuristics import score_moves
from peloton.games.cyclo.bots.time_model import landing_seconds, seconds_to_line


def best(state: cy.State) -> set[str]:
    """The greedy bot's top-scoring moves."""
    moves = state.legal_moves()
    scores = score_moves(state, moves)
    top = max(scores)
    return {str(m) for m, s in zip(moves, scores, strict=True) if s >= top - 1e-9}


def play(state: cy.State, *moves: str) -> cy.State:
    """Play moves in order, riding on past any swap window the moves do not answer."""
    for move in moves:
        if state.phase == "swap" and "~" not in move:
            state.play(f"{state.due}~-")
        state.play(move)
    return state


# ------------------------------------------------------------------ the time model


def test_cy_10_2_seconds_to_line_fall_with_position_and_tokens() -> None:
    """CY-10.2: 10 seconds a round less the squares past the line; more tokens or a
    square further on never cost time, and past the line each square is a second."""
    setup = cy.new_game("ttt", players=1).setup  # A1 C1 E1: 90 spaces
    flat = range(0, 71)  # A1, C1 and E1's flat: the last km (71-90) has smaller panels
    for kind in ("sprinter", "climber", "helper"):
        for k in range(0, 10):
            row = [seconds_to_line(setup, kind, x, k) for x in range(setup.finish + 1)]
            assert all(row[x] >= row[x + 1] - 1e-9 for x in flat[:-1]), (kind, k)
            more = [seconds_to_line(setup, kind, x, k + 1) for x in range(setup.finish + 1)]
            assert all(m <= r + 1e-9 for m, r in zip(more, row, strict=True))
        assert landing_seconds(setup, kind, setup.finish + 4, 0) == -4.0
        assert landing_seconds(setup, kind, setup.cap, 3) == -9.0  # at most 9 squares count
    # From the last space two dice always cross: 10 seconds less the mean squares past
    # (a helper rolls 2 dice on the last km: past = the sum, counted up to 9).
    past = sum(min(a + b, 9) for a in range(1, 7) for b in range(1, 7)) / 36
    assert seconds_to_line(setup, "helper", 90, 0) == pytest.approx(10 - past)


# ------------------------------------------------------------------ greedy, per mode


def test_cy_10_3_ttt_team_tokens_wait_for_the_third_rider() -> None:
    """CY-10.3: a team's time is its third rider's: its first rider keeps the team
    tokens for the third (in a classic, the team's best rider spends them)."""
    cyn = "6 AC1:a78,AH1:a60,AH2:a40,AS1:a80 / A*2"
    ttt = play(cy.from_cyn(cyn, "ttt", course="ttt"), "roll:1,2,3")
    assert all("/" not in move for move in best(ttt))
    classic = play(cy.from_cyn(cyn, "classic", course="ttt"), "roll:1,2,3")
    assert best(classic) == {"AS1-#8/tt"}
    weights = timed.weights(ttt, "A")
    assert weights["AH1"] == 1.0 and weights["AS1"] < weights["AC1"] < 1.0


def test_cy_10_3_ttt_rider_ahead_gives_its_wheel_to_the_third_rider() -> None:
    """CY-10.3, CY-5.1: with the team's third rider right behind it, a rider
    accelerates with one token (it may be followed) instead of attacking with two (it
    may not): the third rider then takes 13 spaces without rolling."""
    cyn = "6 AC1:a70,AH1:a49,AH2:a30,AS1:a50*2"
    moves = ("roll:1,1", "AC1-72", "AS1~-", "roll:3,4")
    ttt = play(cy.from_cyn(cyn, "ttt", course="ttt"), *moves)
    assert best(ttt) == {"AS1-63/r"}
    ttt.play("AS1-63/r")
    assert ttt.phase == "wheel" and best(ttt) == {"AH1>AS1"}
    classic = play(cy.from_cyn(cyn, "classic", course="ttt"), *moves)
    assert best(classic) == {"AS1-69/rr"}


def test_cy_10_2_itt_rider_crossing_spends_for_squares_past_the_line() -> None:
    """CY-10.2: each square past the line is a second off: the leader crosses as far
    past as its tokens take it (9 at most)."""
    state = play(cy.from_cyn("4 AS1:a15*2", "itt", course="prologue"), "roll:1,1,1")
    assert best(state) == {"AS1-#9/rr"}  # 15 + 3 + 12: 10 past the line, 9 count
    assert timed.weights(state, "A") == {"AS1": 1.0}
    # Tokens that change nothing are kept (a stage race saves them, CY-12.2).
    state = play(cy.from_cyn("4 AS1:a15*2", "itt", course="prologue"), "roll:6,6,6")
    assert best(state) == {"AS1-#9"}


def test_cy_9_3_leg_rider_takes_a_wheel_over_a_paying_line() -> None:
    """CY-9.3, CY-5.1: in a leg AH1 follows BC1 over the sprint line after 50 (6
    spaces, less than an average roll, but 3 green points for second place); in a
    classic it declines the same wheel."""
    cyn = "6 AH1:a45,AS1:a80,BC1:a46 / A*2"
    moves = ("roll:1,2", "AS1-83", "roll:2,4", "BC1-52")
    leg = play(cy.from_cyn(cyn, "leg", course="flat-stage"), *moves)
    assert leg.phase == "wheel" and best(leg) == {"AH1>BC1"}
    assert lines.line_points(leg, "AH1", 45, 51) == 3
    classic = play(cy.from_cyn(cyn, "classic", course="flat-stage"), *moves)
    assert best(classic) == {"AH1>-"}


def test_cy_9_3_a_helpers_team_token_is_kept_for_the_leader_not_for_points() -> None:
    """CY-9.3: the sprint line after 50 would pay AH1 5 green points, but a helper's
    team token pays no points: the leader's win needs it more."""
    state = play(cy.from_cyn("6 AH1:a44,AS1:a80 / A*2", "leg", course="flat-stage"),
                 "roll:1,2", "AS1-83", "roll:1,2")  # fmt: skip
    assert best(state) == {"AH1-47"}
    assert lines.line_points(state, "AH1", 44, 53) == 5


def test_cy_11_2_tempo_rider_sprints_for_the_paying_lines() -> None:
    """CY-11.2: a tempo race pays 2, 1 every half lap: with two tokens AS1 crosses the
    lines after 10 and 20 first (4 points)."""
    state = play(cy.from_cyn("3 AS1:a8*3,BS1:a2*3", "tempo"), "roll:1,1")
    assert best(state) == {"AS1-22/rr"}
    assert lines.line_points(state, "AS1", 8, 22) == 4


def test_cy_8_2_a_line_ranks_this_rounds_crossers_by_their_squares() -> None:
    """CY-8.2: BS1 crossed the line after 10 this round and stands on 15: AS1 crossing
    it now takes first place only by landing beyond 15."""
    state = play(cy.from_cyn("3 AS1:a6*3,BS1:a8*3", "tempo"), "roll:3,4", "BS1-15")
    assert state.due == "AS1"
    assert [lines.line_points(state, "AS1", 6, end) for end in (10, 12, 15, 16)] == [0, 1, 1, 2]


def test_cy_11_4_keirin_riders_stay_behind_the_pacer() -> None:
    """CY-11.4: while the pacer rides (on 7 in round 1) no ride ends at or past it and
    no token is spent: the bots take the square right behind it."""
    state = play(cy.new_game("keirin", players=3), "roll:6,6")
    assert best(state) == {"AS1-6"}
    assert str(MCTSBot(1, iterations=50).choose(state)) == "AS1-6"


ELIMINATION_ROUND = ("roll:4,5", "AS1-25", "roll:1,4", "BS1-19", "roll:2,3", "CS1-17")


@pytest.mark.parametrize("mode", ["elimination", "scratch"])
def test_cy_11_5_elimination_rider_declines_a_wheel_that_leaves_it_rearmost(mode: str) -> None:
    """CY-11.5, CY-5.1: AS1 crossed the line after 20 this round, so the rearmost
    rider at the end of it is out. BC1 may follow AC1 to 12, 8 spaces without
    rolling, where it would be rearmost: in the elimination race it rides its own turn
    (three tokens take it past AC1); in a scratch race it follows."""
    cyn = "3 AC1:a5*3,AS1:a16*3,BC1:a4*3,BS1:a14*3,CS1:a12*3"
    if mode == "elimination":
        cyn += " / - / CC1:out / 1=AS1+BS1+CS1"
    state = play(cy.from_cyn(cyn, mode, entries=2), *ELIMINATION_ROUND, "roll:3,5", "AC1-13")
    assert state.phase == "wheel" and state.due == "BC1"
    assert best(state) == ({"BC1>-"} if mode == "elimination" else {"BC1>AC1"})
    if mode == "elimination":
        assert lines.elimination_risk(state, "BC1", 12) == 1.0
        assert lines.ride_risk(state, "BC1") == 0.0


def test_cy_11_5_elimination_rider_rides_clear_of_the_back() -> None:
    """CY-11.5: AC1, last to ride and rearmost, spends its tokens to pass CS1 on 17:
    landing short of it means going out."""
    cyn = "3 AC1:a5*3,AS1:a16*3,BS1:a14*3,CS1:a12*3 / - / BC1:out / 1=AS1+BS1+CS1"
    state = play(cy.from_cyn(cyn, "elimination", entries=2), *ELIMINATION_ROUND, "roll:2,3")
    assert state.due == "AC1"
    assert best(state) == {"AC1-22/rr"}  # 5 + 5 + 12: past CS1 and BS1
    assert lines.elimination_risk(state, "AC1", 16) == 1.0


# ------------------------------------------------------------------ MCTS's goal


def test_cy_10_4_time_modes_evaluate_the_time_rank() -> None:
    """CY-10.3, CY-10.4: in a ttt of three teams the evaluation ranks the teams by
    their third riders (B's is ahead, A's behind though A's best is in front), and
    the finished game's outcome is the time rank: 1, 1/2, 0."""
    state = cy.from_cyn(
        "6 AC1:a40,AH1:a30,AH2:b30,AS1:a85,BC1:a60,BH1:b60,BH2:c60,BS1:a61,"
        "CC1:a50,CH1:b50,CH2:c50,CS1:a51",
        "ttt",
        course="ttt",
    )
    values = goals.evaluate(state)
    assert values["B"] > values["C"] > values["A"]
    assert sum(values.values()) == pytest.approx(1.5)  # n/2: each pair shares one win
    end = cy.new_game("ttt", players=3)
    play_out(end, {t: make_bot("greedy", 1) for t in "ABC"}, chance=Rng(2))
    first, second, third = end.result.teams
    assert goals.outcome(end) == {first: 1.0, second: 0.5, third: 0.0}


def test_cy_11_2_points_races_evaluate_the_points_rank() -> None:
    """CY-11.2: a tempo race ranks by points: level on the track, the team with 4
    points leads, more so once fewer points are left to pay."""
    early = goals.evaluate(cy.from_cyn("3 AS1:a12+4,BS1:b12", "tempo"))
    passed = ",".join(f"{k}=AS1+BS1" for k in range(1, 10))  # every half lap but the finish
    late = goals.evaluate(cy.from_cyn(f"8 AS1:a92+4,BS1:b92 / - / - / {passed}", "tempo"))
    assert 0.5 < early["A"] < late["A"] and late["A"] > 0.9
    assert sum(early.values()) == pytest.approx(1)


def test_cy_11_2_points_evaluation_pays_places_not_the_whole_table() -> None:
    """CY-11.2: a points race line pays 5, 3, 2, 1: with two riders level on the
    track each expects half of 5 + 3 a line (not the whole table to one of them), and
    points already won count fully against those still to pay."""
    state = cy.from_cyn("3 AS1:a12,BS1:b12", "points")
    expected = points_model.expected_points(state)
    setup = state.setup
    paying = sum(pays[0] + pays[1] for pays in (*setup.pays, setup.finish_pays))
    assert expected["AS1"].mean == pytest.approx(paying / 2, abs=1.5)
    assert expected["AS1"].mean + expected["BS1"].mean == pytest.approx(paying)
    # Level on the track, 6 points up: worth more than level, less than certain.
    ahead = goals.evaluate(cy.from_cyn("3 AS1:a12+6,BS1:b12", "points"))
    assert 0.5 < ahead["A"] < 0.95


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 400))
def test_cy_11_2_expected_points_share_out_exactly_what_the_lines_pay(
    seed: int, moves: int
) -> None:
    """CY-11.2: two riders of a points race both cross every line, so whatever the
    position their expected points add up to the first two places of every line and
    of the finish, paid or still to pay; and the points rank stays a share."""
    state = cy.from_options({"mode": "points", "players": 2})
    rng, bot = Rng(seed), make_bot("greedy", seed % 1000, game="cyclo")
    for _ in range(moves):
        if state.is_over:
            break
        state.play(state.chance_move(rng) if state.is_chance else bot.choose(state))
    setup = state.setup
    paying = sum(pays[0] + pays[1] for pays in (*setup.pays, setup.finish_pays))
    expected = points_model.expected_points(state)
    assert sum(e.mean for e in expected.values()) == pytest.approx(paying)
    assert all(e.spread >= 0 for e in expected.values())
    values = goals.evaluate(state)
    assert sum(values.values()) == pytest.approx(1) and all(0 <= v <= 1 for v in values.values())


def test_cy_8_2_a_line_crossed_this_round_is_credited_at_once() -> None:
    """CY-8.2, CY-11.2: BS1 rode over the half-lap line this round (the list is paid
    at the end of the round): the evaluation already credits it the first place's 2
    points, where before the ride it could still be passed there."""
    before = play(cy.from_cyn("3 AS1:a6*3,BS1:a8*3", "tempo"), "roll:3,4")
    after = play(before.copy(), "BS1-15")
    assert after.position.crossed[0] == ["BS1"] and not after.position.points
    first = points_model.expected_points(after)["BS1"]
    rest = points_model.expected_points(before)["BS1"]
    assert first.mean > rest.mean
    # Its 2 points are sure: AS1, still to ride from 6, can take the second place's 1.
    assert points_model.expected_points(after)["AS1"].mean < first.mean - 1.5
    assert goals.evaluate(after)["B"] > goals.evaluate(before)["B"]


def test_cy_10_3_ttt_evaluation_ranks_a_better_third_rider_higher() -> None:
    """CY-10.3: level teams but for one rider: moving A's third rider on is worth
    more to A than moving its leader on by as much (the leader's time is not the
    team's)."""
    level = "6 AC1:a60,AH1:a50,AH2:b50,AS1:a70,BC1:a60,BH1:b50,BH2:c50,BS1:a70"
    base = goals.evaluate(cy.from_cyn(level, "ttt", course="ttt"))
    assert base["A"] == pytest.approx(0.5, abs=0.01)
    third = goals.evaluate(cy.from_cyn(level.replace("AH1:a50", "AH1:a58"), "ttt", course="ttt"))
    leader = goals.evaluate(cy.from_cyn(level.replace("AS1:a70", "AS1:a78"), "ttt", course="ttt"))
    assert third["A"] > leader["A"] + 0.05 and third["A"] > 0.55
    assert leader["A"] == pytest.approx(0.5, abs=0.02)


def test_cy_5_1_ttt_evaluation_sees_the_wheel_a_ride_offers_a_teammate() -> None:
    """CY-5.1, CY-10.3: AS1's ride offers its wheel to AH1, the team's third rider:
    the position is worth what following makes of it, more than declining, and more
    than the level start of the round."""
    cyn = "6 AC1:a70,AH1:a49,AH2:a30,AS1:a50*2,BC1:a70,BH1:a49,BH2:a30,BS1:a50*2"
    state = play(cy.from_cyn(cyn, "ttt", course="ttt"), "roll:1,1", "AC1-72", "roll:3,4")
    state.play("AS1-63/r")
    assert state.phase == "wheel" and state.due == "AH1"
    follow, decline = (play(state.copy(), move) for move in ("AH1>AS1", "AH1>-"))
    value = goals.evaluate(state)
    assert value == goals.evaluate(follow)
    assert value["A"] > goals.evaluate(decline)["A"] + 0.1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["ttt", "team-pursuit", "team-sprint"]),
    st.integers(0, 2**32),
    st.integers(0, 300),
)
def test_cy_10_3_team_time_spread_widens_the_evaluation_never_turns_it(
    mode: str, seed: int, moves: int
) -> None:
    """CY-10.3: the team modes' spread (goals.TEAM_TIME_SPREAD) widens each team's
    time, never moves it: the team ahead stays ahead, its share only nearer an even
    one, and the shares still add up to 1."""
    state = cy.from_options({"mode": mode, "players": 2})
    rng, bot = Rng(seed), make_bot("greedy", seed % 1000, game="cyclo")
    for _ in range(moves):
        if state.is_over:
            break
        state.play(state.chance_move(rng) if state.is_chance else bot.choose(state))
    times = race_model.race_times(state, goals.NOISE)
    narrow = goals.team_times(state, times, spread=1.0)
    wide = goals.team_times(state, times)
    assert goals.TEAM_TIME_SPREAD > 1
    for team in state.players:
        assert [m for m, _ in wide[team]] == [m for m, _ in narrow[team]]
        assert [v for _, v in wide[team]] == pytest.approx(
            [v * goals.TEAM_TIME_SPREAD for _, v in narrow[team]]
        )
    sure, fair = race_model.rank_shares(narrow)["A"], race_model.rank_shares(wide)["A"]
    assert abs(fair - 0.5) <= abs(sure - 0.5) + 1e-9
    assert (fair - 0.5) * (sure - 0.5) >= -1e-12
    if not state.is_over:
        values = goals.evaluate(state)
        assert sum(values.values()) == pytest.approx(1)
        assert all(0 <= v <= 1 for v in values.values())


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 200))
def test_cy_11_4_keirin_evaluation_is_the_rank_share_widened(seed: int, moves: int) -> None:
    """CY-11.4: the keirin's evaluation is the finishing order's rank share with the
    race model's variances goals.KEIRIN_SPREAD times wider (it knows nothing of the
    pacer): the team ahead stays ahead, only less sure."""
    state = cy.from_options({"mode": "keirin", "players": 2, "entries": 2})
    rng, bot = Rng(seed), make_bot("greedy", seed % 1000, game="cyclo")
    for _ in range(moves):
        if state.is_over:
            break
        state.play(state.chance_move(rng) if state.is_chance else bot.choose(state))
    if state.is_over:
        assert goals.evaluate(state) == goals.outcome(state)
        return
    sure = race_model.rank_shares(race_model.race_times(state, goals.NOISE))["A"]
    wide = race_model.rank_shares(race_model.race_times(state, goals.NOISE * goals.KEIRIN_SPREAD))[
        "A"
    ]
    assert goals.evaluate(state)["A"] == pytest.approx(wide)
    assert goals.KEIRIN_SPREAD > 1
    assert abs(wide - 0.5) <= abs(sure - 0.5) + 1e-9
    assert (wide - 0.5) * (sure - 0.5) >= -1e-12


def test_cy_11_5_elimination_evaluation_counts_the_rider_going_out() -> None:
    """CY-11.5: the line after 20 fell this round and AC1, last to ride, has no token:
    two dice cannot take it past CS1 on 17, so it goes out at the end of the round, and
    the evaluation already values team A without it."""
    cyn = "3 AC1:a5,AS1:a16*3,BS1:a14*3,CS1:a12*3 / - / BC1:out / 1=AS1+BS1+CS1"
    state = play(cy.from_cyn(cyn, "elimination", entries=2), *ELIMINATION_ROUND)
    assert state.due == "AC1" and state.is_chance
    assert lines.ride_risk(state, "AC1") == pytest.approx(1.0)
    without = race_model.rank_shares(race_model.race_times(state, goals.NOISE, without="AC1"))
    assert goals.evaluate(state) == pytest.approx(without)


def test_rank_shares_of_two_teams_are_win_shares() -> None:
    times = {"A": [(3.0, 0.4), (4.0, 0.3)], "B": [(3.4, 0.2)]}
    ranks = race_model.rank_shares(times)
    wins = race_model.win_shares(times)
    assert ranks["A"] == pytest.approx(wins["A"], abs=0.02)
    assert race_model.rank_shares({"A": [(2.0, 0.1)], "B": [], "C": [(1.0, 0.1)]})["B"] == 0


def test_cy_9_3_leg_evaluation_counts_green_and_red_points() -> None:
    """CY-9.3, CY-12.2: level on the road, the team with the green and red points is
    worth more in a leg; in a classic they would be level."""
    level = "6 AS1:a70,BS1:b70"
    leg = goals.evaluate(cy.from_cyn(level, "leg", course="flat-stage"))
    assert leg["A"] == pytest.approx(0.5, abs=0.02)
    ahead = goals.evaluate(cy.from_cyn("6 AS1:a70+8^3,BS1:b70+2", "leg", course="flat-stage"))
    assert ahead["A"] > 0.6 and sum(ahead.values()) == pytest.approx(1)


def test_mcts_time_trial_keeps_the_team_tokens_for_the_third_rider() -> None:
    """CY-10.3: MCTS scoring the time rank leaves the team tokens to the third rider,
    as the greedy bot does."""
    state = cy.from_cyn(
        "6 AC1:a78,AH1:a60,AH2:a40,AS1:a80,BC1:a70,BH1:a62,BH2:b62,BS1:b70 / A*2,B*2",
        "ttt",
        course="ttt",
    )
    play(state, "roll:1,2,3")
    move = MCTSBot(3, iterations=300).choose(state)
    assert "t" not in str(move).partition("/")[2], move


# ------------------------------------------------------------------ properties


class Checked:
    """Checks that every move its bot picks is legal."""

    def __init__(self, name: str, seed: int) -> None:
        self.inner = make_bot(name, seed, game="cyclo")
        self.name = name

    def choose(self, state: cy.State) -> Any:
        move = self.inner.choose(state)
        assert move in state.legal_moves(), (self.name, move, state.phase)
        return move


BOTS = ("random", "easy", "greedy", "mcts:2")


@st.composite
def games(draw: st.DrawFn) -> tuple[cy.State, dict[str, Checked]]:
    mode = draw(st.sampled_from(cy.AVAILABLE))
    low, high = cy.MODES[mode].teams
    players = draw(st.integers(low, min(high, 3)))
    level = draw(st.sampled_from(("pro", "starter")))
    options: dict[str, Any] = {"mode": mode, "players": players, "level": level}
    if cy.MODES[mode].riders is None:  # 1 or 2 entries a team; an elimination needs 3 riders
        options["entries"] = draw(st.integers(1 if players > 2 or mode != "elimination" else 2, 2))
    if mode in ("classic", "leg"):  # a short road race: the start and the finish boards
        options["course"] = {"name": "short", "boards": ["A1", "D2", "E1"]}
    state = cy.from_options(options)
    bots = {
        t: Checked(draw(st.sampled_from(BOTS)), draw(st.integers(0, 999))) for t in state.players
    }
    return state, bots


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 2**32))
def test_bots_play_only_legal_moves_and_every_game_ends(
    game: tuple[cy.State, dict[str, Checked]], seed: int
) -> None:
    state, bots = game
    play_out(state, bots, chance=Rng(seed), max_moves=50_000)
    assert state.is_over and state.round <= 300
    values = goals.outcome(state)
    assert set(values) == set(state.players) and all(0 <= v <= 1 for v in values.values())
