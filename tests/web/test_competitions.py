"""Cyclo competitions in real browsers: a human and two bots ride a short stage race
(a prologue and one road stage, CY-12.2) to the end from the lobby's "New
competition" form, going from leg to leg by the end dialog's "Next leg", and read the
standings page: the jerseys, the classifications with their gaps, the plot of the
general classification after each leg, and the competition file."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Page, expect

from peloton.games import cyclo as cy

from .conftest import Server, artifact, open_page
from .helpers import root


def snapshot(server: Server, table_id: str) -> dict[str, Any]:
    snap: dict[str, Any] = server.table(table_id)["snapshot"]
    return snap


def ride_to_the_end(server: Server, page: Page, table_id: str, seat: str) -> None:
    """Ride ``seat``'s riders by clicking the full roll's square whenever it is their
    turn, until the leg is over (the bots and the dice play by themselves)."""
    board = page.get_by_test_id("board")
    for _ in range(3000):
        snap = snapshot(server, table_id)
        if snap["is_over"]:
            return
        if snap["current_player"] != seat or snap["is_chance"] or snap["phase"] != "ride":
            time.sleep(0.02)  # a poll: the server rolls the dice and the bots ride
            continue
        n = snap["moves_played"]
        expect(root(page)).to_have_attribute("data-moves", str(n))
        expect(root(page)).to_have_attribute("data-my-turn", "true")
        board.locator(".legal.full").click()
        expect(root(page)).not_to_have_attribute("data-moves", str(n))
    raise AssertionError(f"table {table_id} did not finish")


def test_a_human_and_bots_ride_a_stage_race_from_the_lobby_to_its_standings(
    server: Server, new_context
) -> None:
    page = open_page(new_context(), server.url + "/")
    form = page.get_by_test_id("competition-form")
    expect(form).to_have_attribute("data-ready", "true")
    page.get_by_test_id("comp-kind").select_option("stage")
    page.get_by_test_id("comp-teams").select_option("3")
    page.get_by_test_id("legs-chosen").check()
    legs = page.get_by_test_id("leg-row")
    expect(legs).to_have_count(2)
    legs.nth(0).get_by_test_id("leg-mode").select_option("itt")
    legs.nth(0).get_by_test_id("leg-course").select_option("prologue")
    legs.nth(1).get_by_test_id("leg-mode").select_option("leg")
    legs.nth(1).get_by_test_id("leg-course").select_option("ttt")  # a short road stage
    page.get_by_test_id("comp-level").select_option("starter")
    seats = page.get_by_test_id("comp-seat")
    seats.nth(0).select_option("human")
    seats.nth(1).select_option("greedy")
    seats.nth(2).select_option("random")
    page.get_by_test_id("comp-creator-name").fill("Ada")
    form.screenshot(path=artifact("competition-form-1280.png"))
    page.get_by_test_id("create-competition").click()
    page.wait_for_url("**/table/*")
    first = page.url.rsplit("/", 1)[1]
    table = server.table(first)
    comp_id = table["competition"]
    assert (table["options"]["mode"], table["options"]["level"]) == ("itt", "starter")
    assert [(s["seat"], s["kind"], s["name"]) for s in table["seats"]] == [
        ("A", "human", "Ada"),
        ("B", "greedy", "greedy"),
        ("C", "random", "random"),
    ]
    expect(root(page)).to_have_attribute("data-seat", "A")
    standings_link = page.get_by_test_id("table-standings")
    expect(standings_link).to_have_attribute("href", f"/competitions/{comp_id}")
    # Someone watching the standings on a phone meanwhile: the race under way, its table
    # linked, nobody leading before the first leg is in; the page follows the race.
    watcher = open_page(new_context(390, 844), f"{server.url}/competitions/{comp_id}")
    expect(watcher.get_by_test_id("competition-root")).to_have_attribute("data-status", "running")
    expect(watcher.get_by_test_id("current-table")).to_have_attribute("href", f"/table/{first}")
    expect(watcher.get_by_test_id("jerseys")).to_contain_text("No leg finished yet")
    expect(watcher.get_by_test_id("jersey")).to_have_count(0)

    # The prologue, then the end dialog's way to the next leg.
    ride_to_the_end(server, page, first, "A")
    dialog = page.get_by_test_id("end-dialog")
    expect(dialog).to_be_visible()
    following = dialog.get_by_test_id("next-game")
    expect(following).to_have_text("Next leg")
    expect(dialog.get_by_test_id("rematch")).to_have_count(0)  # a leg has no rematch
    second = following.get_attribute("data-table")
    assert second and second != first
    page.screenshot(path=artifact("competition-next-leg-1280.png"), full_page=True)
    following.click()
    page.wait_for_url(f"**/table/{second}")
    expect(root(page)).to_have_attribute("data-seat", "A")  # seated again, the same token
    assert server.table(second)["options"]["mode"] == "leg"

    ride_to_the_end(server, page, second, "A")
    expect(dialog).to_be_visible()
    final = dialog.get_by_test_id("final-standings")
    expect(final).to_be_visible()
    final.click()
    page.wait_for_url(f"**/competitions/{comp_id}")

    # The standings: three jerseys, the classifications, the plot of both legs.
    standings = page.get_by_test_id("competition-root")
    expect(standings).to_have_attribute("data-status", "finished")
    detail = server.get(f"/api/competitions/{comp_id}")
    jerseys = page.get_by_test_id("jersey")
    expect(jerseys).to_have_count(3)
    for jersey in ("yellow", "green", "red"):
        wearer = detail["standings"]["jerseys"][jersey]
        expect(page.locator(f'[data-testid="jersey"][data-jersey="{jersey}"]')).to_have_attribute(
            "data-rider", wearer
        )
    gc = page.locator('[data-testid="classification"][data-list="yellow"]')
    rows = gc.get_by_test_id("standing-row")
    expect(rows).to_have_count(12)  # 3 teams of 4
    leader, time_ = detail["standings"]["yellow"][0]
    expect(rows.first).to_have_attribute("data-rider", leader)
    expect(rows.first).to_contain_text(f"{time_ // 60}:{time_ % 60:02d}")
    last, slowest = detail["standings"]["yellow"][-1]
    gap = slowest - time_
    expect(rows.last).to_have_attribute("data-rider", last)
    expect(rows.last).to_contain_text(f"+{gap // 60}:{gap % 60:02d}")
    plot = page.get_by_test_id("plot")
    expect(plot).to_have_attribute("data-games", "2")
    expect(plot.locator("polyline.series")).to_have_count(3)
    expect(plot.locator('polyline.series[data-team="A"]')).to_have_count(1)
    expect(page.get_by_test_id("game-row")).to_have_count(2)
    expect(page.get_by_test_id("current-table")).to_be_hidden()
    page.screenshot(path=artifact("competition-standings-1280.png"), full_page=True)

    # The file downloads and loads: both legs, replayed through the rules.
    with page.expect_download() as download:
        page.get_by_test_id("download-file").click()
    data = download.value.path().read_text()
    loaded = cy.load_competition(data)
    assert loaded.is_over and loaded.standings == detail["standings"]

    # The watcher's page followed the race to its end by itself.
    expect(watcher.get_by_test_id("competition-root")).to_have_attribute("data-status", "finished")
    expect(watcher.get_by_test_id("jersey")).to_have_count(3)
    expect(watcher.get_by_test_id("current-table")).to_be_hidden()

    # On a phone, the same page fits its width.
    phone = open_page(new_context(390, 844), f"{server.url}/competitions/{comp_id}")
    expect(phone.get_by_test_id("jersey")).to_have_count(3)
    expect(phone.get_by_test_id("plot").locator("polyline.series")).to_have_count(3)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=artifact("competition-standings-390.png"), full_page=True)

    # A page opened on a finished leg later asks the competition where it went on.
    late = open_page(new_context(), f"{server.url}/table/{first}")
    expect(late.get_by_test_id("end-dialog").get_by_test_id("next-game")).to_have_attribute(
        "data-table", second
    )

    # The lobby lists the competition, finished, won by the yellow jersey.
    lobby = open_page(new_context(), server.url + "/")
    card = lobby.locator(f'[data-testid="competition-card"][data-competition="{comp_id}"]')
    expect(card).to_have_attribute("data-status", "finished")
    expect(card).to_contain_text(f"winner {leader}")
    for seen in (page, watcher, phone, late, lobby):
        assert seen.errors == []  # type: ignore[attr-defined]


def test_a_human_and_bots_ride_an_omnium_event_by_event_to_its_standings(
    server: Server, new_context
) -> None:
    """CY-12.3: the omnium's four track events, each a table, "Next event" between them."""
    page = open_page(new_context(), server.url + "/")
    form = page.get_by_test_id("competition-form")
    expect(form).to_have_attribute("data-ready", "true")
    page.get_by_test_id("comp-kind").select_option("omnium")
    expect(page.get_by_test_id("legs-tour")).to_have_count(0)  # an omnium has no legs
    page.get_by_test_id("comp-teams").select_option("3")
    page.get_by_test_id("comp-level").select_option("starter")
    seats = page.get_by_test_id("comp-seat")
    seats.nth(0).select_option("human")
    seats.nth(1).select_option("greedy")
    seats.nth(2).select_option("greedy")
    page.get_by_test_id("comp-creator-name").fill("Ada")
    page.get_by_test_id("create-competition").click()
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    comp_id = server.table(table_id)["competition"]
    events = []
    for number in range(1, 5):
        events.append(server.table(table_id)["options"]["mode"])
        expect(root(page)).to_have_attribute("data-seat", "A")
        ride_to_the_end(server, page, table_id, "A")
        dialog = page.get_by_test_id("end-dialog")
        expect(dialog).to_be_visible()
        if number < 4:
            following = dialog.get_by_test_id("next-game")
            expect(following).to_have_text("Next event")
            if number == 1:
                page.screenshot(path=artifact("competition-next-event-1280.png"), full_page=True)
            table_id = following.get_attribute("data-table") or ""
            following.click()
            page.wait_for_url(f"**/table/{table_id}")
    assert events == ["scratch", "elimination", "tempo", "points"]
    dialog.get_by_test_id("final-standings").click()
    page.wait_for_url(f"**/competitions/{comp_id}")
    expect(page.get_by_test_id("competition-root")).to_have_attribute("data-status", "finished")
    detail = server.get(f"/api/competitions/{comp_id}")
    winner = detail["winner"]
    leader = page.get_by_test_id("jersey")
    expect(leader).to_have_attribute("data-rider", winner)
    expect(leader).to_contain_text("Winner")
    points = page.locator('[data-testid="classification"][data-list="points"]')
    expect(points.get_by_test_id("standing-row").first).to_have_attribute("data-rider", winner)
    expect(page.locator('[data-testid="classification"][data-list="table"]')).to_be_visible()
    plot = page.get_by_test_id("plot")
    expect(plot).to_have_attribute("data-games", "4")
    expect(plot.locator("polyline.series")).to_have_count(3)
    expect(page.get_by_test_id("game-row")).to_have_count(4)
    page.screenshot(path=artifact("competition-omnium-1280.png"), full_page=True)
    loaded = cy.load_competition(server.get(f"/api/competitions/{comp_id}/file"))
    assert loaded.is_over and loaded.winner == winner
    assert page.errors == []  # type: ignore[attr-defined]
