"""The rules in the browser: the rules pages with their diagrams drawn by the games'
own board renderers, the table's Rules panel beside the board, rule ids that lead to
their rule, and terms that explain themselves on hover and on tap."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from peloton import rulebook

from .conftest import Server, artifact, open_page
from .helpers import root


def watch_console(page: Page) -> list[str]:
    """The console errors ``page`` logs from now on (a failed request included)."""
    logged: list[str] = []
    page.on("console", lambda m: logged.append(m.text) if m.type == "error" else None)
    return logged


@pytest.fixture()
def phone(browser: Browser) -> Iterator[BrowserContext]:
    """A phone: 390×844, touch screen."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        reduced_motion="reduce",
    )
    yield ctx
    ctx.close()


@pytest.mark.parametrize("game", rulebook.games())
def test_rules_page_draws_every_diagram(server: Server, new_context: Any, game: str) -> None:
    ctx = new_context()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    logged = watch_console(page)
    page.goto(f"{server.url}/rules/{game}")
    book = rulebook.load(game)
    figures = page.locator("figure.rules-diagram")
    expect(figures).to_have_count(len(book.diagrams))
    for n in range(len(book.diagrams)):
        # Drawn by the game's SVG renderer, the one the table uses.
        expect(figures.nth(n).locator("svg").first).to_be_attached()
    # Each rule id is an anchor of its heading.
    for rid in book.rule_ids:
        assert page.evaluate("id => !!document.getElementById(id)", rid), rid
    page.screenshot(path=artifact(f"rules-{game}.png"), full_page=False)
    assert errors == [] and logged == []


def test_rules_page_anchor_and_index(server: Server, new_context: Any) -> None:
    page = open_page(new_context(), f"{server.url}/rules")
    links = page.get_by_test_id("rules-game")
    expect(links).to_have_count(len(rulebook.games()))
    page.get_by_role("link", name="Mind Cycling", exact=True).first.click()
    expect(page).to_have_url(f"{server.url}/rules/mind-cycling")
    page.goto(f"{server.url}/rules/mind-cycling#MC-6.5")
    heading = page.locator("h2", has_text="The relay")
    expect(heading).to_be_in_viewport()
    assert page.errors == []  # type: ignore[attr-defined]


def test_unknown_rules_page_is_a_404_naming_the_pages(server: Server) -> None:
    import urllib.error
    import urllib.request

    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(f"{server.url}/rules/chess")
    assert caught.value.code == 404
    assert "all the games" in caught.value.read().decode()


def test_lobby_links_to_the_rules(server: Server, new_context: Any) -> None:
    page = open_page(new_context(), f"{server.url}/")
    page.get_by_test_id("rules-link").click()
    expect(page.get_by_test_id("rules-index")).to_be_visible()
    # The lobby's option helps cite rule ids: each one is a link to its rule.
    page.goto(f"{server.url}/")
    link = page.locator("#game-options a.rule-link").first
    expect(link).to_be_visible()
    assert link.get_attribute("href") == f"/rules/mind-cycling#{link.inner_text()}"
    assert page.errors == []  # type: ignore[attr-defined]


def test_table_rules_panel_opens_beside_the_board(server: Server, new_context: Any) -> None:
    table_id = server.create(course="short", riders=3, seats=["human", "greedy"])
    page = open_page(new_context(1280, 800), f"{server.url}/table/{table_id}")
    logged = watch_console(page)
    expect(root(page)).to_have_attribute("data-game", "mind-cycling")
    page.get_by_test_id("rules-toggle").click()
    panel = page.get_by_test_id("rules-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("figure.rules-diagram svg").first).to_be_attached()
    # The road's frame shrinks to stay beside the panel, not under it.
    expect(page.get_by_test_id("board")).to_be_visible()
    board, side = page.get_by_test_id("board-scroll").bounding_box(), panel.bounding_box()
    assert board is not None and side is not None
    assert board["x"] + board["width"] <= side["x"] + 1
    assert board["width"] > 400
    # A rule id in the panel jumps to its anchor, inside the panel.
    panel.locator('a.rule-id[href="#MC-9.1"]').first.scroll_into_view_if_needed()
    panel.locator('.rules-text a[href="#MC-7.4"]').first.click()
    anchor = panel.locator('[id="MC-7.4"]')
    expect(anchor).to_be_in_viewport()
    assert page.url.endswith(f"/table/{table_id}")  # still at the table
    page.screenshot(path=artifact("rules-panel-1280.png"))
    page.get_by_test_id("rules-close").click()
    expect(panel).to_be_hidden()
    assert page.errors == [] and logged == []  # type: ignore[attr-defined]


def test_term_explains_itself_on_hover(server: Server, new_context: Any) -> None:
    table_id = server.create(course="short", riders=3, seats=["human", "greedy"])
    page = open_page(new_context(1280, 800), f"{server.url}/table/{table_id}")
    term = page.locator('#legend [data-term="wind"]').first
    expect(term).to_have_attribute("tabindex", "0")
    term.hover()
    tip = page.get_by_test_id("term-tip")
    expect(tip).to_be_visible()
    says = rulebook.load("mind-cycling").terms["wind"]
    expect(tip).to_contain_text(says.says)
    described = term.get_attribute("aria-describedby")
    assert described and page.locator(f'[id="{described}"]').text_content().startswith(
        "in the wind"
    )  # type: ignore[union-attr]
    page.screenshot(path=artifact("term-hover-1280.png"))
    # Its link opens the Rules panel at the rule, and the game stays.
    tip.get_by_role("link").click()
    panel = page.get_by_test_id("rules-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(f'[id="{says.rule}"]')).to_be_in_viewport()
    page.keyboard.press("Escape")
    assert page.errors == []  # type: ignore[attr-defined]


def test_term_explains_itself_on_tap(server: Server, phone: BrowserContext) -> None:
    table_id = server.create(course="short", riders=3, seats=["human", "greedy"])
    page = open_page(phone, f"{server.url}/table/{table_id}")
    # Once live the legend stays put (it is drawn again with each table message).
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "live")
    # On a phone the legend starts folded under its title: open it first.
    page.get_by_test_id("mc-legend").locator("summary").tap()
    term = page.locator('#legend [data-term="link"]')
    term.tap()
    tip = page.get_by_test_id("term-tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text(rulebook.load("mind-cycling").terms["link"].says)
    page.screenshot(path=artifact("term-tap-390.png"))
    # The Rules panel fills the phone's screen and closes again.
    page.get_by_test_id("rules-toggle").tap()
    panel = page.get_by_test_id("rules-panel")
    expect(panel).to_be_visible()
    box = panel.bounding_box()
    assert box is not None and box["width"] >= 389
    page.screenshot(path=artifact("rules-panel-390.png"))
    page.get_by_test_id("rules-close").tap()
    expect(panel).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.errors == []  # type: ignore[attr-defined]


def test_rules_page_on_a_phone(server: Server, phone: BrowserContext) -> None:
    page = open_page(phone, f"{server.url}/rules/mind-cycling#MC-6.1")
    expect(page.locator('[id="MC-6.1"]')).to_be_in_viewport()
    figure = page.locator("figure.rules-diagram").nth(3)
    figure.scroll_into_view_if_needed()
    expect(figure.locator("svg").first).to_be_visible()
    # The roads scroll inside their frames; the page itself does not scroll sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=artifact("rules-mind-cycling-390.png"))
    assert page.errors == []  # type: ignore[attr-defined]
