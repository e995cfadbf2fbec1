"""The repository stands alone: no text in README.md, docs/ or src/ links to the
team's private reference (``../shared``, ``spec/``), and the README and the docs
link to the rules pages that are the players' rules."""

from __future__ import annotations

import re
from pathlib import Path

from peloton import rulebook

from .sources import ROOT

OUTSIDE = re.compile(r"\.\./shared|(?<![\w-])spec/")
TEXT = {".md", ".py", ".js", ".html", ".css", ".toml", ".json", ".txt"}


def scanned() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder in ("docs", "src"):
        files += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in TEXT]
    return files


def test_nothing_links_outside_the_repository() -> None:
    files = scanned()
    assert len(files) > 100
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in files
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OUTSIDE.search(line)
    ]
    assert found == []


def test_the_scan_would_catch_one() -> None:
    assert OUTSIDE.search("see [the spec](../shared/spec/pistard.md)")
    assert OUTSIDE.search("rules in spec/mind-cycling.md")
    assert not OUTSIDE.search("the spec is silent; the rulebook/ pages say")


def test_readme_and_docs_link_every_rules_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    games_doc = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    for game in rulebook.games():
        if game == "cyclo":
            continue  # written alongside: linked where it is merged
        assert f"(src/peloton/rulebook/{game}.md)" in readme, game
    assert "src/peloton/rulebook/" in games_doc
