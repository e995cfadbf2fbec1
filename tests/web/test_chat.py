"""The table chat in the browser (issue 18, item 3): two players and a spectator chat,
each message shows who wrote it and when; HTML in a message is shown as text; the
players mute the spectators; a reload and the replay show the chat again."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, WebSocketRoute, expect

from .conftest import Server, artifact, open_page
from .helpers import join, play_over_socket, root

XSS = '<img src=x onerror="window.pwned=1"><b>bold</b>'


def chat_lines(page: Page) -> Locator:
    return page.get_by_test_id("chat-line")


def write(page: Page, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-input").press("Enter")


def seated(page: Page, seat: str, name: str) -> None:
    """Take a seat and wait for the welcome in it (the chat's mute switch is a seated
    player's), on a live connection: what the page writes then reaches the server."""
    join(page, seat, name)
    expect(page.get_by_test_id("chat-mute")).to_be_visible()
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "live")


def token_of(page: Page, table_id: str) -> str:
    token = page.evaluate(f"localStorage.getItem('peloton.token.{table_id}')")
    assert isinstance(token, str)
    return token


def test_two_players_and_a_spectator_chat(server: Server, new_context) -> None:
    table_id = server.create(game="mind-twist", seats=["human", "human"])
    url = f"{server.url}/table/{table_id}"
    ada = open_page(new_context(1280, 800), url)
    seated(ada, "R", "Ada")
    bo = open_page(new_context(1280, 800), url)
    seated(bo, "B", "Bo")
    rail = open_page(new_context(390, 844), url)
    expect(root(rail)).to_have_attribute("data-welcomes", "1")
    expect(rail.get_by_test_id("connection")).to_have_attribute("data-state", "live")
    dialogs: list[str] = []
    for page in (ada, bo, rail):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

    # A player writes: both players and the spectator read it, with who and when.
    rail.evaluate("window.scrollTo(0, 0)")  # the phone shows the board, not the chat
    write(ada, "good luck, Bo!")
    for page in (ada, bo, rail):
        line = chat_lines(page).last
        expect(line).to_contain_text("good luck, Bo!")
        expect(line).to_have_attribute("data-seat", "R")
        expect(line.locator(".chat-who")).to_have_text("Ada")
        expect(line.locator("time")).to_have_text(re.compile(r"\d"))
    # Out of sight, the message is counted as new until the chat is seen.
    expect(rail.get_by_test_id("chat-unread")).to_have_text("1 new")
    rail.get_by_test_id("chat-list").scroll_into_view_if_needed()
    expect(rail.get_by_test_id("chat-unread")).to_be_hidden()
    # HTML is shown as the text it is: no image, no bold, no script ran.
    write(bo, XSS)
    for page in (ada, bo, rail):
        expect(chat_lines(page).last.get_by_test_id("chat-text")).to_have_text(XSS)
        assert page.locator("#chat img, #chat b").count() == 0
        assert page.evaluate("window.pwned") is None
    # The spectator writes under a name of their choosing, marked as a spectator.
    expect(rail.get_by_test_id("chat-status")).to_contain_text("spectator")
    rail.get_by_test_id("chat-name").fill("Eddy")
    write(rail, "allez!")
    for page in (ada, bo, rail):
        line = chat_lines(page).last
        expect(line).to_have_attribute("data-seat", "")
        expect(line.locator(".chat-who")).to_have_text("Eddy (spectator)")
    rail.screenshot(path=str(artifact("chat-phone.png")), full_page=True)

    # A player mutes the spectators: the spectator may read, not write.
    expect(rail.get_by_test_id("chat-mute")).to_be_hidden()
    ada.get_by_test_id("chat-mute").check()
    expect(rail.get_by_test_id("chat")).to_have_attribute("data-muted", "true")
    expect(rail.get_by_test_id("chat-status")).to_contain_text("muted the spectators")
    expect(rail.get_by_test_id("chat-input")).to_be_disabled()
    expect(bo.get_by_test_id("chat-mute")).to_be_checked()
    expect(bo.get_by_test_id("chat-status")).to_contain_text("Spectators are muted (by seat R)")
    write(bo, "quiet please")
    expect(chat_lines(rail).last).to_contain_text("quiet please")
    bo.get_by_test_id("chat-mute").uncheck()
    expect(rail.get_by_test_id("chat-input")).to_be_enabled()

    # A move, then a message: the replay shows the chat up to the move on the board.
    play_over_socket(server, table_id, token_of(ada, table_id), "dial:2", 0)
    expect(root(bo)).to_have_attribute("data-moves", "1")
    write(bo, "after the dial")
    expect(chat_lines(ada)).to_have_count(5)
    ada.screenshot(path=str(artifact("chat-laptop.png")), full_page=True)

    # A reload shows the whole chat again.
    bo.reload()
    expect(chat_lines(bo)).to_have_count(5)
    expect(chat_lines(bo).nth(1).get_by_test_id("chat-text")).to_have_text(XSS)

    rail.get_by_test_id("replay-toggle").click()
    expect(root(rail)).to_have_attribute("data-replay-index", "1")
    expect(chat_lines(rail)).to_have_count(5)
    expect(rail.get_by_test_id("chat-form")).to_be_hidden()
    rail.get_by_test_id("replay-first").click()
    expect(root(rail)).to_have_attribute("data-replay-index", "0")
    expect(chat_lines(rail)).to_have_count(4)  # "after the dial" came after move 1
    expect(rail.get_by_test_id("chat-status")).to_contain_text("up to move 0")
    rail.get_by_test_id("replay-toggle").click()
    expect(chat_lines(rail)).to_have_count(5)
    expect(rail.get_by_test_id("chat-form")).to_be_visible()

    download = ada.get_by_test_id("chat-download")
    expect(download).to_have_attribute("href", f"/api/tables/{table_id}/chat")
    assert dialogs == []
    for page in (ada, bo, rail):
        assert page.evaluate("window.pwned") is None
        assert page.errors == []  # type: ignore[attr-defined]


def test_a_flood_is_refused_in_the_panel_and_the_text_comes_back(
    server: Server, new_context
) -> None:
    table_id = server.create(game="mind-twist", seats=["human", "greedy"])
    page = open_page(new_context(1280, 800), f"{server.url}/table/{table_id}")
    seated(page, "R", "Ada")
    # Six messages sent at once from the panel's form (in one go, so that all six
    # reach the server well within the 10 s window): the sixth is refused.
    texts = [f"message {i}" for i in range(5)] + ["one too many"]
    page.evaluate(
        """(texts) => {
          const input = document.querySelector('[data-testid="chat-input"]');
          const form = document.querySelector('[data-testid="chat-form"]');
          for (const text of texts) { input.value = text; form.requestSubmit(); }
        }""",
        texts,
    )
    expect(chat_lines(page)).to_have_count(5)
    note = page.get_by_test_id("chat-note")
    expect(note).to_contain_text("too fast")
    expect(note).to_have_class(re.compile("refused"))
    expect(page.get_by_test_id("chat-input")).to_have_value("one too many")
    expect(chat_lines(page)).to_have_count(5)
    # The error went to the chat panel, not the table's error banner.
    expect(page.get_by_test_id("error")).to_be_hidden()
    page.reload()
    expect(chat_lines(page)).to_have_count(5)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_reconnected_page_catches_up_on_the_chat(server: Server, new_context) -> None:
    """A dropped connection comes back with the chat so far: a message written while
    it was away is shown, and none twice."""
    table_id = server.create(game="mind-twist", seats=["human", "human"])
    url = f"{server.url}/table/{table_id}"
    ctx = new_context(1280, 800)
    routes: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:
        ws.connect_to_server()  # a pass-through the test can cut
        routes.append(ws)

    ctx.route_web_socket("**/ws/tables/**", through)
    ada = open_page(ctx, url)
    seated(ada, "R", "Ada")
    bo = open_page(new_context(1280, 800), url)
    seated(bo, "B", "Bo")
    write(ada, "before the cut")
    expect(chat_lines(bo)).to_have_count(1)
    welcomes = int(root(ada).get_attribute("data-welcomes") or 0)
    routes[-1].close(code=1012, reason="server restart")
    write(bo, "while you were away")
    expect(root(ada)).to_have_attribute("data-welcomes", str(welcomes + 1))
    expect(chat_lines(ada)).to_have_count(2)
    expect(chat_lines(ada).last).to_contain_text("while you were away")
    write(ada, "back again")
    expect(chat_lines(bo)).to_have_count(3)
    expect(chat_lines(ada)).to_have_count(3)
    assert ada.errors == [] and bo.errors == []  # type: ignore[attr-defined]
