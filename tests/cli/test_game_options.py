"""Mind Cycling to the game-package contract (docs/games.md): ``from_options``,
``OPTIONS`` and ``public_moves``, which the CLI, simulate and the server share."""

from __future__ import annotations

import json

import pytest

from peloton.core.errors import ConfigError
from peloton.games import mindcycling as mc


def test_defaults_are_a_two_team_race_on_the_standard_course() -> None:
    state = mc.from_options({})
    assert state.players == ("A", "B")
    assert state.course.name == "standard"
    assert state.teams == {"A": "DDSSCC", "B": "DDSSCC"}
    assert (state.wind, state.relay_limit, state.solo) == ("front", 3, False)
    assert mc.from_options(None) == state


def test_every_option_documented_with_a_json_default() -> None:
    assert set(mc.OPTIONS) == {"players", "course", "riders", "wind", "relay_limit"}
    for default, help_text, _choices in mc.OPTIONS.values():
        json.dumps(default)
        assert help_text
    defaults = {name: option.default for name, option in mc.OPTIONS.items()}
    assert mc.from_options(defaults) == mc.from_options({})


def test_options_reach_the_game() -> None:
    state = mc.from_options(
        {"players": 3, "course": "short", "riders": 3, "wind": "left", "relay_limit": 2}
    )
    assert state.players == ("A", "B", "C")
    assert state.course.name == "short"
    assert state.teams["C"] == "DSC"
    assert (state.wind, state.relay_limit) == ("left", 2)


def test_one_player_is_the_solo_challenge_on_the_solo_course_mc_9_1() -> None:
    assert mc.from_options({"players": 7, "riders": 3}).players == tuple("ABCDEFG")  # MC-2.2
    state = mc.from_options({"players": 1})
    assert state.solo and state.players == ("A",)
    assert state.course.name == "solo"
    assert state.teams == {"A": mc.SOLO_COMPOSITION}
    assert mc.from_options({"players": 1, "course": "standard"}).course.name == "standard"
    assert mc.from_options({"players": 1, "riders": 5}).solo


def test_a_course_object_passes_through_unchanged() -> None:
    course = mc.Course.load("short").to_dict()
    state = mc.from_options({"course": course, "riders": 3})
    assert state.course == mc.Course.load("short")
    assert json.loads(json.dumps(course)) == course  # the option is plain JSON


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"players": 0}, "'players'"),
        ({"players": 8}, "'players'"),
        ({"players": 7}, "'players'"),  # 42 riders: no room on standard
        ({"players": "2"}, "'players'"),
        ({"players": True}, "'players'"),
        ({"players": 6, "course": "short"}, "'players'"),
        ({"riders": 7}, "'riders'"),
        ({"riders": 2.5}, "'riders'"),
        ({"players": 1, "riders": 6}, "'riders'"),
        ({"wind": "north"}, "'wind'"),
        ({"relay_limit": -1}, "'relay_limit'"),
        ({"course": "moon"}, "'course'"),
        ({"course": "../../etc/passwd.toml"}, "'course'"),
        ({"course": 3}, "'course'"),
        ({"course": {"finish": "x"}}, "course"),
        ({"colour": "red"}, "'colour'"),
    ],
)
def test_bad_options_raise_a_config_error_naming_the_option(
    options: dict[str, object], named: str
) -> None:
    with pytest.raises(ConfigError) as info:
        mc.from_options(options)
    assert named in str(info.value)


def test_public_moves_are_every_played_move_for_every_viewer() -> None:
    state = mc.from_options({"players": 2, "riders": 3, "course": "short"})
    assert mc.public_moves(state) == []
    for _ in range(4):
        state.play(state.legal_moves()[0])
    moves = [str(m) for m in state.history]
    assert len(moves) == 4
    assert mc.public_moves(state) == moves
    assert mc.public_moves(state, "A") == mc.public_moves(state, "B") == moves
