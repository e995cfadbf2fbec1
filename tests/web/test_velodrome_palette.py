"""The team colours stand out from the velodrome's loop as they do from the road
(tests/web/test_palette.py, whose measures and thresholds this reuses): the loop's
fills and the fading of a rider whose turn is over are read from the served files."""

from __future__ import annotations

import itertools
import re

import pytest

from .test_palette import TEAMS, WEB, _hex, ciede2000, contrast, lab, over, seen


def _loop_fills() -> list[str]:
    source = (WEB / "js" / "cyclo_track.js").read_text()
    match = re.search(r"LOOP_FILL\s*=\s*\[([^\]]*)\]", source)
    assert match, "no LOOP_FILL in cyclo_track.js"
    return re.findall(r'"(#[0-9a-fA-F]{6})"', match.group(1))


def _fade() -> float:
    css = (WEB / "css" / "style.css").read_text()
    found = re.findall(r"\.vd-board \.vd-rider\.done[^{]*\{[^}]*opacity:\s*([0-9.]+)", css)
    assert found, "no opacity for .vd-board .vd-rider.done"
    return float(found[-1])


LOOP = _loop_fills()
FADE = _fade()


def test_the_loop_is_read_from_the_served_files() -> None:
    assert len(LOOP) == 2 and LOOP[0] != LOOP[1]
    assert 0.5 <= FADE < 1


@pytest.mark.parametrize("team", sorted(TEAMS))
def test_each_team_colour_stands_out_from_the_loop(team: str) -> None:
    colour = _hex(TEAMS[team])
    for fill in LOOP:
        ground = _hex(fill)
        assert contrast(colour, ground) >= 3.0, (team, fill, contrast(colour, ground))
        faded = over(colour, ground, FADE)
        assert contrast(faded, ground) >= 2.0, (team, fill, "faded", contrast(faded, ground))


@pytest.mark.parametrize(
    "vision,least_faded",
    [("normal", 12), ("protanopia", 6), ("deuteranopia", 6), ("tritanopia", 6)],
)
def test_team_colours_stay_apart_on_the_loop(vision: str, least_faded: float) -> None:
    for (t1, c1), (t2, c2) in itertools.combinations(sorted(TEAMS.items()), 2):
        for fill in LOOP:
            ground = _hex(fill)
            fa, fb = over(_hex(c1), ground, FADE), over(_hex(c2), ground, FADE)
            d = ciede2000(lab(seen(fa, vision)), lab(seen(fb, vision)))
            assert d >= least_faded, (vision, fill, t1, t2, round(d, 1))
