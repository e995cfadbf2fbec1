"""The rules pages on the web: ``/rules`` (the index), ``/rules/{game}`` (a game's
page, whole) and ``/api/rules/{game}`` (the same content as JSON, for the table's
Rules panel), ``/api/rules/{game}/terms`` (the terms the table's tooltips explain).

A page's diagrams are built here, once per game, through the game's own API
(:func:`peloton.rulebook.positions.diagram_state`); each is sent as the game's
``snapshot`` with the table summary a board needs (its course, its wind...), and the
page's script draws it with the same view class as a live table (``rules.js``).
"""

from __future__ import annotations

import html
import json
from functools import cache
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from ... import rulebook
from ...rulebook.html import render, summary
from ...rulebook.positions import diagram_state
from ..errors import NOT_FOUND, ApiError
from ..games import objects as object_options
from ..games import shown, spec

PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} · Peloton</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/css/style.css">
  {script}
</head>
<body class="rules-page" data-game="{game}">
  <header class="topbar">
    <a class="brand" href="/" title="back to the lobby"><span class="brand-mark" aria-hidden="true"></span>Peloton</a>
    <div class="title-block">
      <h1>{heading}</h1>
      <div class="subtitle">{subtitle}</div>
    </div>
    <nav class="top-actions rules-games" aria-label="rules of each game">{nav}</nav>
  </header>
  <main class="rules-main">
{body}
  </main>
</body>
</html>
"""


def _nav(current: str | None) -> str:
    links = [
        f'<a class="btn ghost" href="/rules"{" aria-current=page" if current is None else ""}>All games</a>'
    ]
    for name in rulebook.games():
        book = rulebook.load(name)
        here = ' aria-current="page"' if name == current else ""
        links.append(
            f'<a class="btn ghost" href="/rules/{html.escape(name)}"{here}>{html.escape(book.title)}</a>'
        )
    return "".join(links)


def diagram(game: str, drawn: rulebook.Diagram) -> dict[str, Any]:
    """A diagram as the page's script draws it: the game's snapshot of the position and
    the table summary its view needs (``course_data``, ``wind``...)."""
    game_spec = spec(game)
    state = diagram_state(game, drawn.options, drawn.position)
    options = game_spec.effective_options(state, drawn.options)
    table: dict[str, Any] = {"game": game, "title": game_spec.title}
    table.update({k: v for k, v in shown(options).items() if k not in table})
    table["options"] = shown(options)
    table.update(object_options(options))
    players = list(getattr(state, "players", []))
    table["solo"] = len(players) == 1
    table["seats"] = [{"seat": p, "kind": "human", "name": "", "taken": False} for p in players]
    return {
        "index": drawn.index,
        "position": drawn.position,
        "caption": drawn.caption,
        "highlight": list(drawn.highlight),
        # A diagram is to look at, not to play: no legal moves to light up.
        "snapshot": game_spec.snapshot(state, None) | {key: [] for key in game_spec.move_lists},
        "table": table,
    }


@cache
def content(game: str) -> dict[str, Any]:
    """A game's rules as JSON: title, HTML, contents, diagrams and terms (built once:
    the pages are part of the installed package). :class:`~peloton.core.errors.ConfigError`
    for a game without a rules page."""
    book = rulebook.load(game)
    page = render(book)
    return {
        "game": game,
        "title": book.title,
        "html": page.html,
        "toc": [{"anchor": a, "title": t, "rules": list(r)} for a, t, r in page.toc],
        "rules": book.rule_ids,
        "diagrams": [diagram(game, d) for d in book.diagrams],
        "terms": terms(game),
    }


async def _content(game: str) -> dict[str, Any]:
    """:func:`content` off the event loop: its first build per game draws every diagram
    (seconds), and every table's moves wait on the loop meanwhile."""
    return await run_in_threadpool(content, game)


def terms(game: str) -> dict[str, Any]:
    """A game's terms: ``{key: {name, says, rule, href}}``."""
    book = rulebook.load(game)
    return {
        key: {
            "name": t.name,
            "says": t.says,
            "rule": t.rule,
            "href": f"/rules/{game}#{book.anchor_of(t.rule)}",
        }
        for key, t in book.terms.items()
    }


def index_data() -> dict[str, Any]:
    """Every game with a rules page: its name, title, rule-id prefix and first lines."""
    out = []
    for name in rulebook.games():
        book = rulebook.load(name)
        out.append(
            {
                "name": name,
                "title": book.title,
                "prefix": rulebook.prefix_of(name),
                "href": f"/rules/{name}",
                "summary": summary(book),
            }
        )
    return {"games": out}


def _known(request: Request) -> str:
    game = str(request.path_params["game"])
    if game not in rulebook.games():
        pages = ", ".join(rulebook.games())
        raise ApiError(404, NOT_FOUND, f"no rules page for {game!r} (rules pages: {pages})")
    return game


async def api_index(request: Request) -> Response:
    """``GET /api/rules``."""
    return JSONResponse(index_data())


async def api_rules(request: Request) -> Response:
    """``GET /api/rules/{game}``: the page's content as JSON (the table's Rules panel)."""
    return JSONResponse(await _content(_known(request)))


async def api_terms(request: Request) -> Response:
    """``GET /api/rules/{game}/terms``: the game's terms (the table's tooltips)."""
    return JSONResponse(terms(_known(request)))


def _json_script(data: Any) -> str:
    # "</" would end the script element early: JSON allows the escape "<\/".
    return json.dumps(data).replace("</", "<\\/")


async def index_page(request: Request) -> Response:
    """``GET /rules``: every game's rules page, with its first lines."""
    cards = []
    for game in index_data()["games"]:
        cards.append(
            f'<li class="panel rules-card"><h2><a href="{game["href"]}" data-testid="rules-game">'
            f"{html.escape(game['title'])}</a></h2><p>{html.escape(game['summary'])}</p></li>"
        )
    body = f'<ul class="rules-index" data-testid="rules-index">{"".join(cards)}</ul>'
    return _page(
        "Rules",
        "Rules of the games",
        "How to play each game at Peloton's tables, with diagrams.",
        body,
    )


async def game_page(request: Request) -> Response:
    """``GET /rules/{game}``: the whole rules page, its diagrams drawn by the game's
    board renderer (``rules.js``); a 404 page naming the rules pages for another name."""
    game = request.path_params["game"]
    if game not in rulebook.games():
        body = (
            f'<section class="panel" data-testid="rules-missing"><p>There is no rules page for '
            f'“{html.escape(game)}”. See <a href="/rules">all the games\' rules</a>.</p></section>'
        )
        return _page("No such rules", "No such rules", "", body, status=404)
    data = await _content(game)
    toc = "".join(
        f'<li><a href="#{html.escape(item["anchor"])}">{html.escape(item["title"])}</a></li>'
        for item in data["toc"]
    )
    body = (
        f'<nav class="panel rules-toc" aria-label="contents"><h2>Contents</h2><ol>{toc}</ol></nav>'
        f'<article class="panel rules-text" data-testid="rules-text">{data["html"]}</article>'
        f'<script type="application/json" id="rules-data">{_json_script(data)}</script>'
    )
    return _page(
        html.escape(data["title"]) + " rules",
        html.escape(data["title"]) + ": the rules",
        "Every rule, with diagrams drawn on the game's own board.",
        body,
        game=game,
    )


def _page(
    title: str,
    heading: str,
    subtitle: str,
    body: str,
    *,
    game: str | None = None,
    status: int = 200,
) -> Response:
    """A rules page in the site's frame; a game's page loads the diagram renderer."""
    script = '<script type="module" src="/static/js/rules_page.js"></script>' if game else ""
    return HTMLResponse(
        PAGE.format(
            title=title,
            script=script,
            game=html.escape(game or ""),
            heading=heading,
            subtitle=subtitle,
            nav=_nav(game),
            body=body,
        ),
        status_code=status,
    )
