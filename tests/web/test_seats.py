"""Seats: joining, a taken seat, the token in localStorage putting a player back in
their seat after a reload, spectators."""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import expect

from .conftest import Server, open_page
from .helpers import join, play_turn, root


def test_reload_puts_players_back_in_their_seats(server: Server, new_context) -> None:
    table_id = server.create(course="short", riders=3, seats=["human", "human", "greedy"])
    url = f"{server.url}/table/{table_id}"
    ada = open_page(new_context(), url)
    bob = open_page(new_context(), url)
    expect(bob.get_by_test_id("join-seat")).to_have_count(2)
    join(ada, "A", "Ada")
    token = ada.evaluate(f"localStorage.getItem('peloton.token.{table_id}')")
    assert token

    # Bob's page is told the seat went (a welcome); a stale click is refused in the page.
    expect(bob.get_by_test_id("join-seat")).to_have_count(1)
    expect(bob.locator('[data-testid="seats"] [data-seat="A"]')).to_contain_text("Ada")
    join(bob, "B", "Bob")
    expect(root(ada)).to_have_attribute("data-status", "running")

    used: Counter[str] = Counter()
    play_turn(ada, 0, used)  # A places its first rider
    expect(root(bob)).to_have_attribute("data-my-turn", "true")

    ada.reload()
    expect(root(ada)).to_have_attribute("data-seat", "A")
    expect(root(ada)).to_have_attribute("data-moves", "1")
    expect(root(ada)).to_have_attribute("data-my-turn", "false")
    expect(ada.get_by_test_id("join")).to_be_hidden()
    expect(ada.locator('[data-testid="seats"] [data-seat="A"]')).to_contain_text("you")
    assert ada.evaluate(f"localStorage.getItem('peloton.token.{table_id}')") == token

    bob.reload()
    expect(root(bob)).to_have_attribute("data-seat", "B")
    play_turn(bob, 1, used)  # Bob still plays after his reload
    expect(root(ada)).to_have_attribute("data-moves", "3")  # ... and the bot C answered
    expect(ada.get_by_test_id("log-move")).to_have_count(3)
    expect(root(ada)).to_have_attribute("data-my-turn", "true")

    # A spectator (no token) watches: no seat, no join offer, no controls.
    watcher = open_page(new_context(), url)
    expect(root(watcher)).to_have_attribute("data-moves", "3")
    expect(root(watcher)).to_have_attribute("data-seat", "")
    expect(watcher.get_by_test_id("join")).to_be_hidden()
    expect(watcher.get_by_test_id("place-rider")).to_have_count(0)
    expect(watcher.locator("[data-square].legal")).to_have_count(0)
    for page in (ada, bob, watcher):
        assert page.errors == []  # type: ignore[attr-defined]


def test_a_taken_seat_and_a_bad_token_are_reported_in_the_page(server: Server, new_context) -> None:
    table_id = server.create(course="short", riders=3, seats=["human", "human"])
    url = f"{server.url}/table/{table_id}"
    # This page's live connection is cut off (a mock that never answers), so it does
    # not hear that seat A goes: clicking it meets the server's 409, shown in the page.
    ctx = new_context()
    ctx.route_web_socket("**/ws/tables/**", lambda ws: None)
    late = open_page(ctx, url)
    expect(late.get_by_test_id("join-seat")).to_have_count(2)
    server.post(f"/api/tables/{table_id}/join", {"seat": "A", "name": "Quick"})
    late.get_by_test_id("join-name").fill("Late")
    late.locator('[data-testid="join-seat"][data-seat="A"]').click()
    expect(late.get_by_test_id("error-message")).to_contain_text("taken")
    expect(late.get_by_test_id("join-seat")).to_have_count(1)  # the page refreshed
    expect(root(late)).to_have_attribute("data-seat", "")

    # Joining without a name is refused in the page.
    late.get_by_test_id("join-name").fill("")
    late.get_by_test_id("join-seat").click()
    expect(late.get_by_test_id("error-message")).to_contain_text("name")

    # A token that is not this table's: the server says so, the page forgets it and watches.
    ctx = new_context()
    ctx.add_init_script(f"localStorage.setItem('peloton.token.{table_id}', 'not-a-token')")
    stranger = open_page(ctx, url)
    expect(stranger.get_by_test_id("error-message")).to_contain_text("token")
    expect(root(stranger)).to_have_attribute("data-seat", "")
    expect(stranger.get_by_test_id("connection")).to_have_attribute("data-state", "live")
    assert stranger.evaluate(f"localStorage.getItem('peloton.token.{table_id}')") is None


def test_a_name_being_typed_is_kept_when_another_player_takes_a_seat(
    server: Server, new_context
) -> None:
    """A player typing their name while someone else takes a seat keeps what they typed:
    the join form is built again with the seats still free, not emptied (a name lost
    there made the click refused: "Enter your name")."""
    table_id = server.create(course="short", riders=3, seats=["human", "human"])
    page = open_page(new_context(), f"{server.url}/table/{table_id}")
    expect(page.get_by_test_id("join-seat")).to_have_count(2)
    page.get_by_test_id("join-name").fill("Bob")
    server.post(f"/api/tables/{table_id}/join", {"seat": "A", "name": "Ada"})
    expect(page.get_by_test_id("join-seat")).to_have_count(1)
    expect(page.get_by_test_id("join-name")).to_have_value("Bob")
    page.get_by_test_id("join-seat").click()
    expect(root(page)).to_have_attribute("data-seat", "B")
    assert page.errors == []  # type: ignore[attr-defined]
