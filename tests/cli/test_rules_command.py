"""``peloton rules GAME [RULE-ID]``: a game's rules in the terminal, whole or one rule
(its diagrams drawn by the terminal board), the game's words with ``--terms``; paged on
a terminal, plain when piped; bad names refused with the names that exist."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from peloton import rulebook
from peloton.cli import app

ENV = {**os.environ, "COLUMNS": "100", "PYTHONUNBUFFERED": "1"}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_one_rule_with_its_diagram() -> None:
    """MC-6.5, the relay: its text and its diagram on the terminal road."""
    code, out, _ = run("rules", "mind-cycling", "MC-6.5")
    assert code == 0
    assert "The relay  [MC-6.5]" in out
    assert "↑BD1+" in out and "~AD1+" in out  # the train drawn, the front rider in the wind
    assert "The same train." in out  # the caption
    assert "Wind and shelter" not in out  # only that rule


def test_a_rule_of_each_game() -> None:
    for game in rulebook.games():
        book = rulebook.load(game)
        rid = book.rule_ids[len(book.rule_ids) // 2]
        code, out, err = run("rules", game, rid)
        assert code == 0, err
        assert f"[{rid}" in out or f" {rid}]" in out, (game, rid)


def test_the_whole_page_piped_is_plain_text() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "peloton", "rules", "pistard"],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "\x1b[" not in proc.stdout  # no colour codes in a pipe
    for section in rulebook.load("pistard").sections:
        assert section.title in proc.stdout
    assert "S/F" in proc.stdout  # the track of a diagram


def test_a_terminal_gets_the_pager(tmp_path: Path) -> None:
    """On a terminal the page goes through the pager ($PAGER): here one that keeps
    what it is given."""
    kept = tmp_path / "paged.txt"
    pager = f"{sys.executable} -c \"import sys; open(r'{kept}', 'w').write(sys.stdin.read())\""
    main, child = pty.openpty()
    proc = subprocess.run(
        [sys.executable, "-m", "peloton", "rules", "mind-twist", "MT-3.1"],
        stdin=child,
        stdout=child,
        stderr=subprocess.PIPE,
        env={**ENV, "PAGER": pager, "TERM": "xterm"},
        timeout=120,
    )
    os.close(child)
    os.close(main)
    assert proc.returncode == 0, proc.stderr
    assert "Sideswiping" in kept.read_text()


def test_terms() -> None:
    code, out, _ = run("rules", "mind-twist", "--terms")
    assert code == 0
    for term in rulebook.load("mind-twist").terms.values():
        assert term.name in out and term.rule in out


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (
            ["chess"],
            2,
            "no rules for 'chess': the games with rules are cyclo, mind-cycling, mind-twist, pistard",
        ),
        (["pistard", "PI-9.9"], 1, "Pistard has no rule 'PI-9.9' (its rules: PI-1.1 to PI-5.2)"),
        (["pistard", "PI-3.4", "--terms"], 2, "give a RULE-ID or --terms, not both"),
    ],
)
def test_bad_names_are_refused_plainly(args: list[str], code: int, message: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "peloton", "rules", *args],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
    )
    assert proc.returncode == code
    assert proc.stdout == ""
    assert message in " ".join(proc.stderr.split())


def test_the_terminal_help_explains_the_legend_words() -> None:
    """At the terminal table, ``?`` shows the help, then every word of the legend
    explained with its rule (what a tooltip does at the web table)."""
    from peloton.games import mindcycling as mc
    from peloton.terminal.prompt import QuitGame, human_turn

    from .helpers import Recorder, Script

    state = mc.from_mcn("short", "1 AC1:a2,AD1:b3+,AS1:c2,BC1:d3,BD1:c3+,BS1:e2")
    out = Recorder(width=120)
    with pytest.raises(QuitGame):
        human_turn(state, out.console, Script(["?", "q"]), redraw=lambda: None)
    text = " ".join(out.text.split())
    assert "How to play a turn" in text
    for key in ("wind", "link", "bottle", "feed", "rock"):
        term = rulebook.load("mind-cycling").terms[key]
        assert term.name in text and term.rule in text, key
    assert "peloton rules mind-cycling RULE-ID" in text
