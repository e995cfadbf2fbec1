"""Every term a game's web view marks (``data-term``) is explained in that game's
terms file, so no word at the table is left without its explanation."""

from __future__ import annotations

import re
import tomllib
from importlib import resources

import pytest

from .sources import SRC

#: Each game's view modules.
VIEWS = {
    "mind-cycling": ["mindcycling.js"],
    "mind-twist": ["mindtwist.js"],
    "pistard": ["pistard.js"],
    "cyclo": ["cyclo.js", "cyclo_panels.js"],
}


def marked_terms(text: str) -> set[str]:
    """The term keys a view's source marks: ``term: "key"``, both branches of a
    ``term: cond ? "a" : "b"``, and the values of its ``TERM`` table."""
    keys = set(re.findall(r'\bterm:\s*"([\w-]+)"', text))
    for line in text.splitlines():
        if "term:" in line:
            for pair in re.findall(r'\?\s*"([\w-]+)"\s*:\s*"([\w-]+)"', line):
                keys |= set(pair)
    table = re.search(r"const TERM = \{(.*?)\};", text, re.S)
    if table:
        keys |= set(re.findall(r':\s*"([\w-]+)"', table.group(1)))
    return keys


@pytest.mark.parametrize("game", sorted(VIEWS))
def test_every_marked_term_is_explained(game: str) -> None:
    terms = tomllib.loads(
        (resources.files("peloton.rulebook") / f"{game}.terms.toml").read_text(encoding="utf-8")
    )
    marked: set[str] = set()
    for name in VIEWS[game]:
        marked |= marked_terms((SRC / "web" / "js" / name).read_text(encoding="utf-8"))
    assert len(marked) >= 5, marked  # the view marks its words
    assert marked - set(terms) == set()


def test_the_scan_reads_every_form() -> None:
    source = 'a, dataset: { term: "wind" }\nb, { term: x ? "expert-wind" : "wind" }\nconst TERM = {\n  a: "link",\n};'
    assert marked_terms(source) == {"wind", "expert-wind", "link"}
