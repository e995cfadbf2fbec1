"""MkDocs hooks (mkdocs.yml ``hooks:``): the players' rules pages on the site.

The rules for players live in the package (``src/peloton/rulebook/<game>.md``), where
the web table's ``/rules`` and ``peloton rules`` read them, outside ``docs/``. So that
the site has them too, each is rendered here by the package's own renderer into a page
``rules/<game>.md`` (its terms file beside it), and a docs page's link to
``../src/peloton/rulebook/<file>`` (the link that works on GitHub and in a checkout) is
pointed at that page. The strict build still fails on any other link that leads
nowhere. A diagram shows its caption: the board is drawn by the web table's script.
"""

from __future__ import annotations

import posixpath
import re
from importlib import resources
from typing import Any

from mkdocs.structure.files import File, Files

from peloton import rulebook
from peloton.rulebook import html

#: A link to a rules page or a terms file, from a page anywhere under docs/.
RULEBOOK_LINK = re.compile(r"\]\((?:\.\./)+src/peloton/rulebook/([\w.-]+?\.(?:md|terms\.toml))")


def rules_page(game: str) -> str:
    """The site page of ``game``'s rules: the rendered HTML in one raw block."""
    book = rulebook.load(game)
    note = (
        '<p class="rules-note"><em>Each diagram is drawn on the board at the web '
        "table's rules page (<code>/rules</code>) and by <code>peloton rules "
        f"{game}</code>; here it shows its caption.</em></p>"
    )
    return f'<div class="peloton-rules">\n{html.render(book).html}\n{note}\n</div>\n'


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
