"""The rules pages for players: every page parses and passes its checks (each rule id
anchored once, every diagram a position its game accepts, every term's rule anchored),
the format's errors are reported plainly, and rule ids resolve to their section."""

from __future__ import annotations

from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from peloton import rulebook
from peloton.core.errors import ConfigError
from peloton.rulebook.html import render
from peloton.rulebook.positions import diagram_state

PAGES = rulebook.games()


def test_the_games_with_rules_pages() -> None:
    # Cyclo's page is written alongside; every other game has its page here.
    assert {"mind-cycling", "mind-twist", "pistard"} <= set(PAGES)


@pytest.mark.parametrize("game", PAGES)
def test_page_is_sound(game: str) -> None:
    book = rulebook.check(game)
    assert book.rule_ids, "a page explains some rules"
    assert book.diagrams and book.terms
    assert next(s for s in book.sections if s.level == 1).title == book.title


@pytest.mark.parametrize("game", PAGES)
def test_every_diagram_is_built_through_the_game(game: str) -> None:
    for diagram in rulebook.load(game).diagrams:
        state = diagram_state(game, diagram.options, diagram.position)
        assert state.game == game
        assert not state.is_over or game == "mind-cycling"


def test_mind_cycling_page_covers_the_mechanics() -> None:
    """At least a diagram each for wind and shelter, the expert wind, a train with its
    wheel and relay, an attack, exhaustion, the finish and the solo challenge."""
    book = rulebook.load("mind-cycling")
    with_diagram = {rid for s in book.sections if "```diagram" in s.body for rid in s.rule_ids}
    for rid in ("MC-5.4", "MC-5.5", "MC-6.1", "MC-6.5", "MC-7.2", "MC-7.4", "MC-8.1", "MC-9.4"):
        assert rid in with_diagram, rid
    wind = [d for d in book.diagrams if d.options.get("wind") == "left"]
    assert wind and book.section_of("MC-5.5").line < wind[0].line


def test_every_terms_file_is_well_formed() -> None:
    """Each game's terms file (Cyclo's too, whose page is written alongside) parses,
    and each term cites a rule of its own game."""
    files = [
        p for p in resources.files("peloton.rulebook").iterdir() if p.name.endswith(".terms.toml")
    ]
    assert {p.name.split(".")[0] for p in files} >= {
        "mind-cycling",
        "mind-twist",
        "pistard",
        "cyclo",
    }
    for path in files:
        game = path.name.removesuffix(".terms.toml")
        book = rulebook.parse(game, f"# {game}\n", path.read_text(encoding="utf-8"))
        assert book.problems == (), path.name
        prefixes = {t.rule.split("-")[0] for t in book.terms.values()}
        assert len(prefixes) == 1, (path.name, prefixes)
        for term in book.terms.values():
            assert 20 <= len(term.says) <= 200 and term.says.endswith("."), term.key


def test_rule_lookup() -> None:
    book = rulebook.load("mind-cycling")
    assert book.section_of("MC-6.5").title == "The relay"
    assert book.section_of("mc-6.5").title == "The relay"  # typed in lower case
    assert book.anchor_of("MC-8.1") == "MC-8.1"
    # Two ids under one heading: each leads to it.
    assert book.section_of("MC-2.3") == book.section_of("MC-2.2")
    assert "MC-6.5" in book.section_text("MC-6.5")
    with pytest.raises(ConfigError, match=r"has no rule 'MC-99.1' \(its rules: MC-1.1 to "):
        book.section_of("MC-99.1")
    assert rulebook.game_of_rule("PI-3.4") == "pistard"
    assert rulebook.game_of_rule("nonsense") is None


def test_unknown_game_has_no_page() -> None:
    with pytest.raises(ConfigError, match="no rules page for 'chess'"):
        rulebook.load("chess")


BAD_PAGE = """# Game
## Twice {MT-1.1}
## Again {MT-1.1 PI-2.1}
## Braces {not ids}
```diagram
{"position": "R40 B0 R", "caption": "past the finish"}
```
```diagram
{"caption": "no position", "colour": "red"}
```
```diagram
not json
```
"""

BAD_TERMS = """
[good]
name = "milestone"
says = "A safe space."
rule = "MT-1.1"
[orphan]
name = "orphan"
says = "Cites a rule no heading anchors."
rule = "MT-9.9"
[short]
name = "short"
"""


def test_every_problem_of_a_page_is_named() -> None:
    book = rulebook.parse("mind-twist", BAD_PAGE, BAD_TERMS)
    problems = rulebook.validate(book)
    expected = [
        "heading '## Braces {not ids}' has braces that hold no rule ids",
        "diagram 2 (line 8) has unknown key(s) colour",
        "diagram 2 (line 8) needs a 'position' text",
        "diagram 3 (line 11) is not JSON",
        "term 'short' needs says, rule",
        "rule ids of several games: MT, PI",
        "rule MT-1.1 is anchored 2 times",
        "term 'orphan' cites rule MT-9.9, which no heading anchors",
        "diagram 1 (line 5): position 'R40 B0 R': red on space 40 is past the path",
    ]
    for wanted in expected:
        assert any(wanted in p for p in problems), (wanted, problems)
    assert len(problems) == len(expected)


def test_an_unclosed_fence_and_bad_toml_are_problems() -> None:
    book = rulebook.parse("pistard", "# P\n```diagram\n{}\n", "[x\n")
    assert "a fenced block is never closed" in book.problems
    assert any(p.startswith("the terms file is not TOML") for p in book.problems)


@pytest.mark.parametrize("game", PAGES)
def test_html_anchors_every_rule_once(game: str) -> None:
    book = rulebook.load(game)
    page = render(book)
    for rid in book.rule_ids:
        assert page.html.count(f'id="{rid}"') == 1, rid
    assert page.html.count("<figure") == len(book.diagrams)
    assert "{" + book.rule_ids[0] not in page.html  # the braces are gone from headings


@given(st.text(max_size=300))
def test_any_text_parses_without_crashing(text: str) -> None:
    """Whatever the text, parsing gives a page (problems listed, never an exception)."""
    book = rulebook.parse("mind-twist", text)
    assert isinstance(book.problems, tuple)
    render(book)


def test_raw_html_in_a_page_is_escaped() -> None:
    book = rulebook.parse("mind-twist", "# T\n\n<script>alert(1)</script>\n")
    assert "<script>" not in render(book).html
