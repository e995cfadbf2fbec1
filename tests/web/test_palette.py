"""The team colours of the web table (ui.js) stand out from the road and stay apart,
also faded (a rider that has moved is drawn at the opacity style.css gives it) and for
the three common colour vision deficiencies.

The colours, the road's fills and the fading are read from the files the browser is
served, so this measures what players see. Thresholds:

* contrast with every road fill (WCAG 2.1 relative luminance ratio): at least 3:1 —
  the WCAG 2.1 minimum for graphical objects (SC 1.4.11) — and at least 2:1 faded;
* pairwise difference, CIEDE2000 ΔE00, over each road fill: at least 20 in normal
  vision and 12 faded; at least 9 (faded 6) for protanopia, deuteranopia and
  tritanopia, simulated with the Machado, Oliveira and Fernandes (2009) matrices at
  full severity. A ΔE00 of about 2 is just noticeable; the team letter on every rider
  is the second cue where colours come close.
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "peloton" / "web"

RGB = tuple[float, float, float]


def _hex(text: str) -> RGB:
    h = text.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)


def _block(source: str, name: str) -> dict[str, str]:
    """The `KEY: "#rrggbb"` pairs of the JS object literal `name`."""
    match = re.search(name + r"\s*=\s*\{(.*?)\}", source, re.S)
    assert match, name
    return dict(re.findall(r'(\w+):\s*"(#[0-9a-fA-F]{6})"', match.group(1)))


TEAMS = _block((WEB / "js" / "ui.js").read_text(), "TEAM_COLOURS")
ROAD = _block((WEB / "js" / "board.js").read_text(), "SECTION_FILL")


def _fade() -> float:
    """The opacity of a moved rider on the board (the last rule that sets it wins)."""
    css = (WEB / "css" / "style.css").read_text()
    found = re.findall(r"\.board \.rider\.moved[^{]*\{[^}]*opacity:\s*([0-9.]+)", css)
    assert found, "no opacity for .board .rider.moved"
    return float(found[-1])


FADE = _fade()


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def luminance(rgb: RGB) -> float:
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def over(colour: RGB, ground: RGB, alpha: float) -> RGB:
    """``colour`` drawn at opacity ``alpha`` on ``ground``."""
    return (
        alpha * colour[0] + (1 - alpha) * ground[0],
        alpha * colour[1] + (1 - alpha) * ground[1],
        alpha * colour[2] + (1 - alpha) * ground[2],
    )


def lab(rgb: RGB) -> RGB:
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(lab1: RGB, lab2: RGB) -> float:
    """ΔE00 (Sharma, Wu and Dalal's formulation)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar**7 / (cbar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else h2p - h1p
    if dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) > 180:
        hbar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    else:
        hbar = (h1p + h2p) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbar - 30))
        + 0.24 * math.cos(math.radians(2 * hbar))
        + 0.32 * math.cos(math.radians(3 * hbar + 6))
        - 0.20 * math.cos(math.radians(4 * hbar - 63))
    )
    dtheta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp**7 / (cbarp**7 + 25**7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh)
    )


#: Machado et al. (2009), severity 1.0, on linear RGB.
DEFICIENCIES: dict[str, tuple[RGB, RGB, RGB]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def seen(rgb: RGB, vision: str) -> RGB:
    if vision == "normal":
        return rgb
    lin = [_linear(c) for c in rgb]
    m = DEFICIENCIES[vision]
    r, g, b = (_gamma(sum(m[i][j] * lin[j] for j in range(3))) for i in range(3))
    return (r, g, b)


def test_the_palette_is_read_from_the_served_files() -> None:
    assert sorted(TEAMS) == list("ABCDEFG")  # seven teams (MC-2.2: 2 to 7 players)
    assert set(ROAD) == {"start", "plain", "sprint", "mountain"}
    assert 0.5 <= FADE < 1
    assert len(set(TEAMS.values())) == 7


@pytest.mark.parametrize("team", sorted(TEAMS))
def test_each_team_colour_stands_out_from_the_road(team: str) -> None:
    colour = _hex(TEAMS[team])
    for name, fill in ROAD.items():
        road = _hex(fill)
        assert contrast(colour, road) >= 3.0, (team, name, contrast(colour, road))
        faded = over(colour, road, FADE)
        assert contrast(faded, road) >= 2.0, (team, name, "faded", contrast(faded, road))


@pytest.mark.parametrize(
    "vision,least,least_faded",
    [("normal", 20, 12), ("protanopia", 9, 6), ("deuteranopia", 9, 6), ("tritanopia", 9, 6)],
)
def test_team_colours_stay_apart(vision: str, least: float, least_faded: float) -> None:
    for (t1, c1), (t2, c2) in itertools.combinations(sorted(TEAMS.items()), 2):
        a, b = _hex(c1), _hex(c2)
        d = ciede2000(lab(seen(a, vision)), lab(seen(b, vision)))
        assert d >= least, (vision, t1, t2, round(d, 1))
        for name, fill in ROAD.items():
            road = _hex(fill)
            fa, fb = over(a, road, FADE), over(b, road, FADE)
            d = ciede2000(lab(seen(fa, vision)), lab(seen(fb, vision)))
            assert d >= least_faded, (vision, "faded on", name, t1, t2, round(d, 1))


def test_the_measures_are_the_published_ones() -> None:
    """The measures themselves: WCAG's black on white is 21:1; Sharma et al.'s test
    pair 1 (L*a*b* 50, 2.6772, -79.7751 against 50, 0, -82.7485) is ΔE00 2.0425."""
    assert contrast((0, 0, 0), (1, 1, 1)) == pytest.approx(21)
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    # A colour-blind simulation keeps grey grey.
    grey = seen((0.5, 0.5, 0.5), "deuteranopia")
    assert max(grey) - min(grey) < 0.01
