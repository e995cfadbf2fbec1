"""Competition requests checked without a server: whatever JSON a client sends, the
check answers a new competition or an :class:`ApiError` with a 400 saying why, never
another exception (Hypothesis), and a competition's next table asks for the seats of
its game."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.games import cyclo as cy
from peloton.server.errors import ApiError
from peloton.server.live.competitions import (
    CompetitionSeat,
    LiveCompetition,
    check_request,
    table_request,
)
from peloton.server.storage.store import now

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 9) | st.sampled_from(["tour", "itt", "leg", "x"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
LEG = st.fixed_dictionaries(
    {"mode": st.sampled_from(["itt", "leg", "ttt", "sprint", None, 3])},
    optional={"course": st.sampled_from(["prologue", "ttt", "nowhere", None, 7])},
)
SETTINGS = st.fixed_dictionaries(
    {},
    optional={
        "legs": st.one_of(st.just("tour"), st.lists(LEG, max_size=3), JSON),
        "level": st.sampled_from(["starter", "pro", "legend", 1]),
        "events": st.one_of(st.booleans(), JSON),
        "entries": st.integers(0, 3),
        "mode": st.sampled_from(["sprint", "team-sprint", "pursuit", "team-pursuit", "keirin"]),
        "players": st.integers(0, 8),
    },
)
REQUEST = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {
            "kind": st.one_of(st.sampled_from([*cy.KINDS, "giro"]), JSON),
            "seats": st.one_of(
                st.lists(st.sampled_from(["human", "greedy", "random", "wizard"]), max_size=8),
                JSON,
            ),
        },
        optional={"settings": st.one_of(SETTINGS, JSON)},
    ),
)


@settings(max_examples=50, deadline=None)
@given(REQUEST)
def test_any_request_is_a_competition_or_a_clear_400(request: Any) -> None:
    try:
        kind, settings_, seats, competition = check_request(request)
    except ApiError as exc:
        assert exc.status == 400 and exc.message
        return
    assert kind in cy.KINDS and competition.kind == kind
    assert settings_["players"] == len(seats) == len(request["seats"])
    assert [s.seat for s in seats] == [chr(ord("A") + i) for i in range(len(seats))]
    assert type(competition).from_settings(settings_).settings == settings_


def test_a_heat_seats_its_two_teams_and_a_lone_team_rides_a_solo_game() -> None:
    seats = [CompetitionSeat("A", "human"), CompetitionSeat("B", "greedy"),
             CompetitionSeat("C", "random")]  # fmt: skip
    series = LiveCompetition(
        "c", now(), "pursuit-series", {}, seats, [], cy.KINDS["pursuit-series"](3)
    )
    first = table_request(series)
    assert first["options"]["teams"] == ["A", "B"]
    assert (first["seats"], first["solo"]) == (["human", "greedy"], False)
    race = LiveCompetition("s", now(), "stage", {}, seats, [], cy.StageRace(3))
    whole = table_request(race)
    assert (whole["seats"], whole["solo"]) == (["human", "greedy", "random"], False)
    assert "events" not in whole["options"]  # left to the mode, as a create request says
