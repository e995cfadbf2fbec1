"""Two players and a spectator in real browsers play a whole short race by clicking."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import Server, artifact, open_page
from .helpers import join, play_to_the_end, root


def shown_places(page: Page) -> list[str]:
    return page.locator('[data-testid="classification"] li').evaluate_all(
        "items => items.map(li => li.dataset.rider)"
    )


def test_two_players_and_a_bot_race_to_the_end_by_clicking(server: Server, new_context) -> None:
    table_id = server.create(course="short", riders=3, seats=["human", "human", "greedy"])
    url = f"{server.url}/table/{table_id}"
    ada = open_page(new_context(), url)
    bob = open_page(new_context(), url)
    join(ada, "A", "Ada")
    expect(bob.locator('[data-testid="join-seat"][data-seat="A"]')).to_have_count(0)
    join(bob, "B", "Bob")
    spectator = open_page(new_context(), url)
    expect(root(spectator)).to_have_attribute("data-status", "running")
    expect(spectator.get_by_test_id("join")).to_be_hidden()

    pages = {"A": ada, "B": bob}
    used = play_to_the_end(server, table_id, pages, until=lambda snap: snap["round"] >= 3)
    mid = server.table(table_id)["snapshot"]
    player = pages[mid["current_player"]]
    expect(root(player)).to_have_attribute("data-my-turn", "true")
    player.screenshot(path=artifact("mid-race-1280.png"), full_page=True)
    used += play_to_the_end(server, table_id, pages)
    assert used["place"] == 6
    assert used["square"] > 0

    detail = server.table(table_id)
    assert detail["status"] == "finished"
    result = detail["snapshot"]["result"]
    assert result["over"]
    for page in (ada, bob, spectator):
        expect(root(page)).to_have_attribute("data-phase", "over")
        expect(root(page)).to_have_attribute("data-moves", str(detail["snapshot"]["moves_played"]))
        expect(page.get_by_test_id("trophy")).to_have_attribute("data-team", result["trophy"])
        expect(page.locator('[data-testid="classification"] li')).to_have_count(
            len(result["places"])
        )
        assert shown_places(page) == result["places"]
        for medal, holder in result["medals"].items():
            expect(page.locator(f'[data-testid="medals"] [data-medal="{medal}"]')).to_contain_text(
                holder
            )
        assert page.errors == []  # type: ignore[attr-defined]
    expect(root(ada)).to_have_attribute("data-seat", "A")
    expect(root(bob)).to_have_attribute("data-seat", "B")
    expect(root(spectator)).to_have_attribute("data-seat", "")
    # The log on every page holds every move of the game.
    expect(spectator.get_by_test_id("log-move")).to_have_count(detail["snapshot"]["moves_played"])
    ada.screenshot(path=artifact("final-board-1280.png"), full_page=True)
