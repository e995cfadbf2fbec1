"""A rules page as HTML, rendered on the server with markdown-it.

Each heading gets its anchor (its first rule id, else a slug of its title) and shows
its rule ids as small links to themselves, every further id anchored on its link, so
``#MC-5.6`` lands on the heading that explains it. Each diagram becomes an empty
``<figure data-diagram="N">`` with its caption: the page's script draws the position
into it with the game's own board renderer (see :mod:`peloton.server.http.rules`).

>>> from peloton import rulebook
>>> page = render(rulebook.load("mind-twist"))
>>> '<h2 id="MT-3.1"' in page.html and 'data-diagram="0"' in page.html
True
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from . import _BRACES, _HEADING, Rulebook, Section


@dataclass(frozen=True)
class Page:
    """A rendered rules page: its HTML and its table of contents."""

    html: str
    #: ``(anchor, title, rule ids)`` of every level-2 heading, in page order.
    toc: list[tuple[str, str, tuple[str, ...]]]


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    return md


def _plain_headings(text: str) -> str:
    """The page with the braces taken off its headings (line numbers kept)."""
    out = []
    for line in text.splitlines():
        if _HEADING.match(line):
            line = _BRACES.sub("", line)
        out.append(line)
    return "\n".join(out) + "\n"


def _badges(section: Section) -> str:
    links = []
    for n, rid in enumerate(section.rule_ids):
        anchor = "" if n == 0 else f' id="{html.escape(rid)}"'
        links.append(
            f'<a class="rule-id"{anchor} href="#{html.escape(rid)}" '
            f'title="rule {html.escape(rid)}">{html.escape(rid)}</a>'
        )
    return f' <span class="rule-ids">{"".join(links)}</span>' if links else ""


def render(book: Rulebook) -> Page:
    """The HTML of ``book``'s page (no ``<html>`` around it) and its contents."""
    md = _markdown()
    tokens = md.parse(_plain_headings(book.text))
    by_line = {s.line: s for s in book.sections}
    diagram_index = 0
    pending: dict[int, Section] = {}  # heading_close token index -> its section
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.map is not None:
            section = by_line.get(token.map[0] + 1)
            if section is not None:
                token.attrSet("id", section.anchor)
                if section.rule_ids:
                    token.attrSet("class", "ruled")
                pending[i + 2] = section
        elif token.type == "fence" and token.info.strip() == "diagram":
            token.meta["diagram"] = diagram_index
            diagram_index += 1

    def fence(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        if "diagram" not in token.meta:
            return str(default_fence(tokens, idx, options, env))
        n = token.meta["diagram"]
        caption = book.diagrams[n].caption if n < len(book.diagrams) else ""
        return (
            f'<figure class="rules-diagram" id="diagram-{n + 1}" data-diagram="{n}">'
            f'<div class="diagram-board" data-testid="rules-diagram"></div>'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>\n"
        )

    def heading_close(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
        section = pending.get(idx)
        badges = _badges(section) if section is not None else ""
        return f"{badges}</{tokens[idx].tag}>\n"

    default_fence = md.renderer.rules["fence"]  # type: ignore[attr-defined]
    md.add_render_rule("fence", fence)
    md.add_render_rule("heading_close", heading_close)
    body = md.renderer.render(tokens, md.options, {})
    toc = [(s.anchor, s.title, s.rule_ids) for s in book.sections if s.level == 2]
    return Page(body, toc)


def summary(book: Rulebook) -> str:
    """The page's first paragraph as plain text (the rules index shows it)."""
    for section in book.sections:
        for paragraph in section.body.split("\n\n"):
            text = " ".join(paragraph.split())
            if text and not text.startswith(("```", "|", "-", "#")):
                return text
    return ""
