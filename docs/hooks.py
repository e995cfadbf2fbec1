"""MkDocs hooks (mkdocs.yml ``hooks:``): the players' rules pages on the site, and a
table cell's escaped pipe read as GitHub reads it.

The rules for players live in the package (``src/peloton/rulebook/<game>.md``), where
the web table's ``/rules`` and ``peloton rules`` read them, outside ``docs/``. So that
the site has them too, each is rendered here by the package's own renderer into a page
``rules/<game>.md`` (its terms file beside it), and a docs page's link to
``../src/peloton/rulebook/<file>`` (the link that works on GitHub and in a checkout) is
pointed at that page. The strict build still fails on any other link that leads
nowhere. The web table draws a diagram's board with its script; here each is drawn as
``peloton rules`` draws it in the terminal, in colour.
"""

from __future__ import annotations

import os
import posixpath
import re
from importlib import resources
from typing import Any

from mkdocs.structure.files import File, Files
from rich.console import Console
from rich.terminal_theme import MONOKAI

from peloton import rulebook
from peloton.rulebook import Diagram, html
from peloton.terminal.rules import draw_diagram

#: A link to a rules page or a terms file, from a page anywhere under docs/.
RULEBOOK_LINK = re.compile(r"\]\((?:\.\./)+src/peloton/rulebook/([\w.-]+?\.(?:md|terms\.toml))")


#: Where the web table's script draws a diagram (peloton.rulebook.html).
EMPTY_BOARD = '<div class="diagram-board" data-testid="rules-diagram"></div>'
#: A terminal drawing as HTML: its colours inline, on the terminal's background.
TERMINAL = (
    '<pre class="diagram-board" style="color:{foreground};background-color:{background};'
    'line-height:1.25;font-size:0.7rem;padding:0.6em 0.8em"><code>{code}</code></pre>'
)


def terminal_drawing(game: str, diagram: Diagram) -> str:
    """``diagram``'s position as ``peloton rules`` draws it (its caption is the page's)."""
    with open(os.devnull, "w", encoding="utf-8") as nowhere:
        console = Console(
            record=True, width=100, force_terminal=True, color_system="truecolor", file=nowhere
        )
        data = {"position": diagram.position, "options": diagram.options, "caption": ""}
        console.print(draw_diagram(game, {**data, "highlight": list(diagram.highlight)}))
    return console.export_html(theme=MONOKAI, inline_styles=True, code_format=TERMINAL)


def rules_page(game: str) -> str:
    """The site page of ``game``'s rules: the rendered HTML in one raw block, each
    diagram drawn in place."""
    book = rulebook.load(game)
    parts = html.render(book).html.split(EMPTY_BOARD)
    assert len(parts) == len(book.diagrams) + 1, game
    page = parts[0] + "".join(
        terminal_drawing(game, diagram) + after
        for diagram, after in zip(book.diagrams, parts[1:], strict=True)
    )
    return f'<div class="peloton-rules">\n{page}\n</div>\n'


def on_files(files: Files, config: Any) -> Files:
    for game in rulebook.games():
        files.append(File.generated(config, f"rules/{game}.md", content=rules_page(game)))
        terms = resources.files("peloton.rulebook") / f"{game}.terms.toml"
        if terms.is_file():
            name = f"rules/{game}.terms.toml"
            files.append(File.generated(config, name, content=terms.read_text("utf-8")))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    here = posixpath.dirname(page.file.src_uri)
    rules = posixpath.relpath("rules", here or ".")
    return RULEBOOK_LINK.sub(lambda link: f"]({rules}/{link[1]}", markdown)


#: A table cell: GitHub and MkDocs both need ``\|`` for a pipe in a cell's code span.
CELL = re.compile(r"<td>.*?</td>", re.S)


def on_page_content(content: str, page: Any, config: Any, files: Files) -> str:
    """A cell's ``\\|`` as the pipe it means: GitHub shows a code span's escaped pipe as
    ``|``, Python-Markdown keeps the backslash inside code."""
    return CELL.sub(lambda cell: cell[0].replace("\\|", "|"), content)
