"""Issue 18 in the browser: two players at a clocked table see the clock of the seat
to move count down; one leaves from the table menu (after a confirm dialog), the
table's stand-in bot plays the seat at once and every screen says so; then that player
takes the seat back and moves again. The create form sends the time control and the
stand-in level. (Mind Cycling: the two teams place their riders in turn, MC-3.1.)"""

from __future__ import annotations

import re
from collections import Counter

from playwright.sync_api import Page, expect

from .conftest import Server, artifact, open_page
from .helpers import join, play_turn, root


def clock_of(page: Page, seat: str):  # type: ignore[no-untyped-def]
    return page.locator(f'[data-testid="clock"][data-seat="{seat}"]')


def test_the_clock_counts_down_a_player_leaves_and_takes_the_seat_back(
    server: Server, new_context
) -> None:
    table_id = server.create(
        game="mind-cycling", course="short", riders=3, seats=["human", "human"],
        clock="rapid", standin="greedy",
    )  # fmt: skip
    url = f"{server.url}/table/{table_id}"
    ada = open_page(new_context(), url)
    bob = open_page(new_context(390, 844), url)  # Bob plays on a phone
    join(ada, "A", "Ada")
    join(bob, "B", "Bob")
    for page in (ada, bob):
        expect(root(page)).to_have_attribute("data-status", "running")
        expect(clock_of(page, "A")).to_have_attribute("data-running", "true")
        expect(page.get_by_test_id("clock-control")).to_contain_text("10 min + 10 s")
    # A's clock counts down on both screens (the server charged nothing yet: 600 s).
    start = int(clock_of(ada, "A").get_attribute("data-seconds") or "0")
    assert 590 <= start <= 600
    expect(clock_of(ada, "A")).not_to_have_attribute("data-seconds", str(start), timeout=5000)
    expect(clock_of(bob, "A")).not_to_have_attribute("data-seconds", "600", timeout=5000)
    expect(clock_of(ada, "B")).to_have_attribute("data-seconds", "600")
    ada.screenshot(path=str(artifact("clock-counting-1280.png")))

    used: Counter[str] = Counter()
    play_turn(ada, 0, used)
    expect(clock_of(bob, "B")).to_have_attribute("data-running", "true")
    expect(clock_of(ada, "A")).to_have_attribute("data-running", "false")

    # Bob leaves: the menu, the confirm dialog, and the bot plays his seat at once.
    bob.get_by_test_id("table-menu-button").click()
    bob.get_by_test_id("leave-table").click()
    expect(bob.get_by_test_id("leave-dialog")).to_be_visible()
    expect(bob.get_by_test_id("leave-dialog")).to_contain_text("A bot (greedy) plays your seat")
    bob.screenshot(path=str(artifact("leave-confirm-390.png")))
    bob.get_by_test_id("leave-confirm").click()
    expect(root(ada)).to_have_attribute("data-moves", "2")
    expect(root(ada)).to_have_attribute("data-my-turn", "true")
    seat_b = '[data-testid="seats"] [data-seat="B"]'
    for page in (ada, bob):
        expect(page.locator(seat_b)).to_contain_text("played by a bot (greedy)")
    expect(bob.get_by_test_id("reclaim-seat")).to_be_visible()
    expect(bob.get_by_test_id("table-menu")).to_be_hidden()
    watcher = open_page(new_context(), url)
    expect(watcher.locator(seat_b)).to_contain_text("played by a bot (greedy)")
    expect(watcher.get_by_test_id("reclaim-seat")).to_be_hidden()  # it never held the seat
    lobby = open_page(new_context(), server.url)
    card = lobby.locator(f'[data-testid="table-card"][data-table-id="{table_id}"]')
    expect(card).to_contain_text("Bob · played by a bot (greedy)")
    ada.screenshot(path=str(artifact("bot-plays-the-seat-1280.png")))
    bob.screenshot(path=str(artifact("bot-plays-the-seat-390.png")))

    # Bob takes his seat back; after Ada's move it is his turn, and he moves himself.
    bob.get_by_test_id("reclaim-seat").click()
    expect(bob.get_by_test_id("away-box")).to_be_hidden()
    expect(ada.locator(seat_b)).not_to_contain_text("played by a bot")
    play_turn(ada, 2, used)
    play_turn(bob, 3, used)
    expect(root(ada)).to_have_attribute("data-moves", "4")
    expect(root(ada)).to_have_attribute("data-my-turn", "true")
    expect(clock_of(ada, "A")).to_have_attribute("data-running", "true")
    bob.screenshot(path=str(artifact("seat-taken-back-390.png")))
    for page in (ada, bob, watcher, lobby):
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_create_form_sends_the_clock_and_the_stand_in(server: Server, new_context) -> None:
    page = open_page(new_context(), server.url)
    expect(page.get_by_test_id("clock-kind")).to_be_visible()
    page.get_by_test_id("clock-kind").select_option("custom-realtime")
    page.get_by_test_id("clock-minutes").fill("5")
    page.get_by_test_id("clock-increment").fill("3")
    page.get_by_test_id("standin").select_option("easy")
    page.screenshot(path=str(artifact("create-form-clock-1280.png")))
    creator = page.get_by_test_id("creator-name")
    if creator.count() and creator.is_visible():
        creator.fill("Ada")
    page.get_by_test_id("create-table").click()
    expect(page).to_have_url(re.compile(r"/table/\w+$"))
    table_id = page.url.rstrip("/").split("/")[-1]
    detail = server.table(table_id)
    assert detail["standin"] == "easy"
    assert (detail["clock"]["kind"], detail["clock"]["bank"], detail["clock"]["increment"]) == (
        "realtime", 300, 3,
    )  # fmt: skip
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_table_every_player_left_is_abandoned_in_the_lobby_and_its_page(
    server: Server, new_context
) -> None:
    table_id = server.create(
        game="mind-cycling", course="short", riders=3, seats=["human", "human"]
    )
    tokens = [
        server.post(f"/api/tables/{table_id}/join", {"seat": seat, "name": f"P{seat}"})["token"]
        for seat in "AB"
    ]
    for token in tokens:  # both players leave the running table
        headers = {"Authorization": f"Bearer {token}"}
        server.request_json("POST", f"/api/tables/{table_id}/leave", headers)
    lobby = open_page(new_context(), server.url)
    group = lobby.get_by_test_id("tables-abandoned")
    expect(group.locator(f'[data-table-id="{table_id}"]')).to_be_visible()
    expect(lobby.get_by_text("Abandoned — every player left")).to_be_visible()
    page = open_page(new_context(390, 844), f"{server.url}/table/{table_id}")
    expect(page.get_by_test_id("table-status")).to_have_text("abandoned")
    expect(page.get_by_test_id("abandoned")).to_be_visible()
    expect(page.get_by_test_id("download-record")).to_be_visible()
    expect(page.get_by_test_id("table-menu")).to_be_hidden()
    page.screenshot(path=str(artifact("abandoned-table-390.png")))
    for p in (lobby, page):
        assert p.errors == []  # type: ignore[attr-defined]
