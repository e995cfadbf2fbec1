"""The documentation site (mkdocs.yml) builds strictly: every page of docs/ is in its
nav, every link and anchor between its pages leads somewhere, and each game's rules
page of the package is on it with its diagrams drawn (docs/hooks.py). ``make test`` builds it too; this test
also says what the site holds. The README stays a front page."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from docs_examples import ROOT, documents
from peloton import rulebook

MKDOCS = str(Path(sys.executable).parent / "mkdocs")


def build(site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [MKDOCS, "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_site_builds_strictly_with_every_page(tmp_path: Path) -> None:
    built = build(tmp_path / "site")
    assert built.returncode == 0, built.stderr[-3000:]
    for page in documents():
        if page.parent.name == "docs":
            assert (tmp_path / "site" / page.with_suffix(".html").name).exists(), page
    for game in rulebook.games():
        book = rulebook.load(game)
        html = (tmp_path / "site" / "rules" / f"{game}.html").read_text(encoding="utf-8")
        assert f'id="{book.sections[1].anchor}"' in html, game
        # every diagram drawn as the terminal draws it, none left for a script to fill
        assert html.count('<pre class="diagram-board"') == len(book.diagrams) > 0, game
        assert '<div class="diagram-board"' not in html, game
    # docs/games.md links the package's rules page; on the site that is the rules page
    games = (tmp_path / "site" / "games.html").read_text(encoding="utf-8")
    assert 'href="rules/mind-cycling.html"' in games
    # a table cell's escaped pipe reads as GitHub shows it
    cli = (tmp_path / "site" / "cli.html").read_text(encoding="utf-8")
    assert "<code>peloton play mind-twist|pistard|cyclo" in cli and "\\|" not in cli


def test_the_strict_build_fails_on_a_link_to_nowhere(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [a page](missing.md#part).\n")
    (tmp_path / "mkdocs.yml").write_text(
        (ROOT / "mkdocs.yml")
        .read_text(encoding="utf-8")
        .split("\nnav:")[0]
        .replace("hooks:\n  - docs/hooks.py\n", "")
    )
    built = subprocess.run(
        [MKDOCS, "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode != 0 and "missing.md" in built.stderr, built.stderr


def test_the_readme_is_a_front_page() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 250
    assert "docs/images/table.png" in "\n".join(lines)
