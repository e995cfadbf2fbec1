"""Every relative link of README.md and docs/*.md leads somewhere: the file exists
(in the repository, so a reader on GitHub or in a checkout finds it) and a ``#part``
names one of its headings. Links to other sites are not followed (no network here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docs_examples import ROOT, documents, name

#: ``[text](target)``, the target without spaces (a title after it is not used here).
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
INLINE_CODE = re.compile(r"`[^`\n]*`")


def prose(path: Path) -> str:
    """The page without its code blocks and inline code (``f[x](y)`` is not a link)."""
    kept: list[str] = []
    fenced = False
    for line in path.read_text().splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            kept.append(INLINE_CODE.sub("", line))
    return "\n".join(kept)


def slugs(path: Path) -> set[str]:
    """The anchors of a Markdown page's headings, as GitHub makes them."""
    found = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*$", prose(path), flags=re.M):
        text = re.sub(r"[*_`]", "", heading).strip().lower()
        found.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", text)))
    return found


def relative_links() -> list[tuple[Path, str]]:
    return [
        (path, target)
        for path in documents()
        for target in LINK.findall(prose(path))
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)  # http:, https:, mailto:
    ]


def test_the_pages_link_to_each_other() -> None:
    """The README links into the docs, and the docs pages to each other (each target
    written from the repository's root here)."""
    targets = set()
    for path, target in relative_links():
        file, hash_, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        targets.add(name(linked) + hash_ + anchor)
    assert {"docs/ci.md", "docs/games.md", "docs/cyclo.md#figures"} <= targets
    readme = {target for path, target in relative_links() if path.name == "README.md"}
    assert {"docs/playing.md", "docs/figures.md", "docs/index.md"} <= readme


@pytest.mark.parametrize(
    ("path", "target"), relative_links(), ids=lambda x: name(x) if isinstance(x, Path) else x
)
def test_every_relative_link_resolves(path: Path, target: str) -> None:
    file, _, anchor = target.partition("#")
    linked = (path.parent / file).resolve() if file else path
    assert linked.is_relative_to(ROOT), f"{name(path)}: {target} leaves the repository"
    assert linked.exists(), f"{name(path)}: {target} does not exist"
    if anchor:
        assert linked.suffix == ".md" and anchor in slugs(linked), (
            f"{name(path)}: {target}: no heading #{anchor} in {name(linked)}"
        )
