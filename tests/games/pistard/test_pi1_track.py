"""PI-1: track, riders, distance."""

from __future__ import annotations

import json
from pathlib import Path

from peloton.games import pistard as pi

from .helpers import STRIPES, at, play


def test_pi_1_1_default_track_shape_and_colours() -> None:
    """PI-1.1: 40 rows x lanes a-d, every square one of four colours (the default
    layout is a fixed table shipped with the game)."""
    layout = pi.Layout.load("default")
    assert layout.length == 40 and len(layout.rows) == 40
    assert all(len(row) == 4 and set(row) <= set("ygbr") for row in layout.rows)
    state = pi.from_options({})
    assert state.layout == layout and state.length == 40
    assert layout.names[0] == "a1" and layout.names[-1] == "d40"
    assert layout.colour_name(layout.codes["a1"]) in pi.COLOURS


def test_pi_1_1_default_layout_design() -> None:
    """PI-1.1 [decision]: each row holds every colour once; each lane shows every
    colour in every block of 8 rows; no lane runs a colour three rows (loop included)
    but each has a few doubles, where the second colour bonus can be won."""
    rows = pi.Layout.load("default").rows
    assert all(sorted(row) == sorted("ygbr") for row in rows)
    for lane in range(4):
        col = [row[lane] for row in rows]
        for block in range(0, 40, 8):
            assert set(col[block : block + 8]) == set("ygbr")
        runs = [col[i] == col[(i + 1) % 40] for i in range(40)]
        assert not any(runs[i] and runs[(i + 1) % 40] for i in range(40))
        assert 3 <= sum(runs) <= 4


def test_pi_1_1_layout_from_files(tmp_path: Path) -> None:
    """PI-1.1: any layout of the same shape loads from a TOML or JSON file."""
    rows = ["rgby"] * 20 + ["ygbr"] * 20
    toml = tmp_path / "mine.toml"
    toml.write_text(
        'name = "mine"\nlength = 40\nrows = [' + ", ".join(f'"{r}"' for r in rows) + "]\n"
    )
    js = tmp_path / "mine.json"
    js.write_text(json.dumps({"name": "mine", "rows": rows}))
    a, b = pi.Layout.load(str(toml)), pi.Layout.from_file(js)
    assert a.rows == b.rows == tuple(rows)
    state = pi.from_options({"layout": str(toml)})
    assert state.layout.colour_name(state.layout.codes["a1"]) == "red"
    inline = pi.from_options({"layout": {"name": "inline", "rows": rows}})
    assert inline.layout.rows == tuple(rows)


def test_pi_1_1_length_option() -> None:
    """PI-1.1: ``length`` rows (default 40); the default colours repeat to fill it."""
    state = pi.from_options({"length": 56})
    assert state.length == 56 and state.layout.rows[40:] == state.layout.rows[:16]
    short = pi.from_options({"length": 24})
    assert short.layout.rows == pi.Layout.load("default").rows[:24]


def test_pi_1_2_players_riders_colours() -> None:
    """PI-1.2: 2-4 players, 4 riders each, one of each base colour (rider n has
    COLOURS[n-1]: 1 yellow, 2 green, 3 blue, 4 red)."""
    for players in (2, 3, 4):
        state = pi.from_options({"players": players})
        assert state.players == tuple("ABCD"[:players])
        assert len(state.riders) == 4 * players
    assert [pi.base_colour_name(r) for r in pi.team_riders("C")] == [
        "yellow",
        "green",
        "blue",
        "red",
    ]


def test_pi_1_2_dice_are_riders_still_racing() -> None:
    """PI-1.2: a player has as many dice as riders still racing."""
    state = at("A1:1.a10,A2:1.b10,B1:1.c12,B2:1.a3,B3:1.b3,B4:out")
    assert state.is_chance and state.roller == "B" and state.dice_to_roll() == 3
    assert {len(m.dice) for m in state.legal_moves()} == {3}
    play(state, "roll:1,2,3", "B1=1:c13", "roll:1,1")
    assert state.rolls["A"] == (1, 1)


def test_pi_1_3_distance_counts_laps() -> None:
    """PI-1.3: distance in rows from the start line, not wrapping; the line lies before
    row 1 (lap 2 row 5 is distance 45)."""
    state = at("A1:2.c5,B1:1.b39")
    assert state.dist["A1"] == 45 and state.lap_of("A1") == 2
    play(state, "roll:1", "A1=1:c6", "roll:3", "B1=3:b2")
    assert state.dist["B1"] == 42 and state.lap_of("B1") == 2 and state.square_of("B1") == "b2"


def test_pi_1_1_stripes_helper_layout() -> None:
    """The scenario layout used by these tests: lane a yellow ... lane d red."""
    assert STRIPES.colour_name(STRIPES.codes["a7"]) == "yellow"
    assert STRIPES.colour_name(STRIPES.codes["d7"]) == "red"


def test_bundled_layouts_listed() -> None:
    assert "default" in pi.bundled_names()
