"""A rules page in the terminal (``peloton rules``): its Markdown drawn by Rich, each
diagram drawn by the game's terminal board (the one ``peloton play`` draws), and the
game's terms as a glossary.

Headings show the rule ids they explain in brackets (``Wind and shelter [MC-5.4]``),
so that a reader can pass one to ``peloton rules GAME RULE-ID``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from .. import rulebook
from ..rulebook.positions import diagram_state
from .games import FULL_VIEW, terminal_game

_FENCE = re.compile(r"^```diagram\s*$")
_SQUARE = re.compile(r"^[a-z]\d+$")


def _headings(text: str) -> str:
    """Braces of rule ids turned into brackets a reader sees: ``{MC-5.4}`` -> ``[MC-5.4]``."""
    out = []
    for line in text.splitlines():
        if line.startswith("#"):
            line = re.sub(r"\s*\{([A-Z]{2}-[\d. A-Z-]+)\}\s*$", r"  [\1]", line)
        out.append(line)
    return "\n".join(out)


def draw_diagram(game: str, data: dict[str, Any]) -> RenderableType:
    """A diagram's position drawn by the game's terminal board, its caption under it."""
    options = data.get("options", {})
    state = diagram_state(game, options, data["position"])
    highlight = [h for h in data.get("highlight", []) if _SQUARE.match(h)]
    if game == "mind-cycling":
        from .board import render_board

        board: RenderableType = render_board(
            state.course, state, marks={sq: "*" for sq in highlight}
        )
    else:
        board = terminal_game(game).render(state, {}, FULL_VIEW)
    caption = Text(data.get("caption", ""), "italic")
    return Padding(Group(board, caption), (0, 0, 1, 2))


def render_markdown(game: str, text: str) -> list[RenderableType]:
    """The renderables of a page (or a part of it): Markdown between the diagrams."""
    parts: list[RenderableType] = []
    chunk: list[str] = []
    diagram: list[str] | None = None
    for line in text.splitlines():
        if diagram is not None:
            if line.strip().startswith("```"):
                parts.append(draw_diagram(game, json.loads("\n".join(diagram))))
                diagram = None
            else:
                diagram.append(line)
        elif _FENCE.match(line.strip()):
            if chunk:
                parts.append(Markdown(_headings("\n".join(chunk))))
            chunk, diagram = [], []
        else:
            chunk.append(line)
    if chunk:
        parts.append(Markdown(_headings("\n".join(chunk))))
    return parts


def render_rules(game: str, rule_id: str | None = None) -> RenderableType:
    """The rules page of ``game``, or only the part explaining ``rule_id`` (with its
    sub-sections); :class:`~peloton.core.errors.ConfigError` naming the game's rule ids
    for an id it does not have."""
    book = rulebook.load(game)
    text = book.section_text(rule_id) if rule_id else book.text
    parts = render_markdown(game, text)
    if rule_id is None:
        parts.append(
            Text(f"One rule: peloton rules {game} RULE-ID   Every word: --terms", "grey50")
        )
    return Group(*parts)


def render_terms(game: str) -> RenderableType:
    """The game's terms, each with its explanation and its rule."""
    book = rulebook.load(game)
    table = Table(title=f"{book.title}: words of the game", title_justify="left", show_lines=False)
    table.add_column("term", style="bold", no_wrap=True)
    table.add_column("what it means")
    table.add_column("rule", no_wrap=True)
    for term in sorted(book.terms.values(), key=lambda t: t.name.lower()):
        table.add_row(term.name, term.says, term.rule)
    return table


def help_with_terms(help_text: RenderableType, game: str) -> RenderableType:
    """A game's ``?`` help followed by its words explained (the terminal's answer to
    the web table's tooltips) and how to read one rule; the help alone for a game
    without a rules page."""
    if game not in rulebook.games():
        return help_text
    head = Text(help_text) if isinstance(help_text, str) else help_text
    more = Text(f"One rule in full: peloton rules {game} RULE-ID (the ids in brackets).", "grey50")
    return Group(head, Text(""), render_terms(game), more)
