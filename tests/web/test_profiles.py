"""Profiles in the browser (issue 18, item 4): a player makes a profile (the browser
makes and keeps the key), creates a rated Mind Twist table against a bot from the
lobby and plays it to the end; their page then shows the finished game and the new
rating, and the leaderboard lists them. The key, exported as a link, signs a second
browser in as the same player, who takes a seat under that profile."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import Server, artifact, open_page
from .helpers import root
from .test_games import moves_of, wait_for_turn


def make_profile(page: Page, name: str) -> None:
    page.get_by_test_id("profile-name").fill(name)
    page.get_by_test_id("create-profile").click()
    expect(page.get_by_test_id("signed-in-as")).to_have_text(name)


def test_a_profile_plays_a_rated_game_and_moves_to_another_browser(
    server: Server, new_context
) -> None:
    page = open_page(new_context(), server.url + "/profile")
    make_profile(page, "Ocana")
    stored = page.evaluate("JSON.parse(localStorage.getItem('peloton.profile'))")
    assert stored["name"] == "Ocana" and stored["jwk"]["d"] and stored["session"]
    assert server.get("/api/players/Ocana")["ratings"] == []

    # A rated table against a bot, created from the lobby: the creator's seat is signed in.
    page.goto(server.url + "/")
    page.get_by_test_id("game-select").select_option("mind-twist")
    page.get_by_test_id("option-length").fill("10")
    page.get_by_test_id("option-milestones").fill("3, 6")
    page.locator('[data-testid="seat-kind"][data-seat="B"]').select_option("random")
    expect(page.get_by_test_id("creator-name")).to_have_value("Ocana")
    expect(page.get_by_test_id("rated")).to_be_checked()
    page.get_by_test_id("create-table").click()
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    seat = server.table(table_id)["seats"][0]
    assert (seat["profile"], seat["name"]) == ("Ocana", "Ocana")
    for _ in range(200):
        snap = wait_for_turn(server, table_id, {"R"})
        if snap["is_over"]:
            break
        expect(root(page)).to_have_attribute("data-moves", str(moves_of(snap)))
        button = "dial-button" if snap["phase"] == "dial" else "guess-button"
        page.get_by_test_id(button).first.click()
        expect(root(page)).not_to_have_attribute("data-moves", str(moves_of(snap)))
    expect(root(page)).to_have_attribute("data-phase", "over")

    # The profile page: the finished game, linked, with the new rating.
    [rating] = server.get("/api/players/Ocana")["ratings"]
    assert rating["game"] == "mind-twist" and rating["games"] == 1
    page.goto(server.url + "/players/Ocana")
    expect(page.get_by_test_id("profile-title")).to_have_text("Ocana")
    row = page.get_by_test_id("rating-mind-twist")
    expect(row.get_by_test_id("rating-value")).to_have_text(f"{rating['rating']:.2f}")
    game = page.locator('[data-testid="player-table"][data-status="finished"]')
    expect(game).to_have_count(1)
    expect(game.locator("a")).to_have_attribute("href", f"/table/{table_id}")
    expect(game).to_contain_text(f"{rating['rating']:.2f}")
    page.screenshot(path=artifact("profile-1280.png"), full_page=True)
    page.goto(server.url + "/leaderboard/mind-twist")
    expect(page.get_by_test_id("leader").filter(has_text="Ocana")).to_have_count(1)
    page.screenshot(path=artifact("leaderboard-1280.png"), full_page=True)

    # The key moves to a phone by its link: the phone signs in as Ocana.
    page.goto(server.url + "/profile")
    page.get_by_test_id("show-export").click()
    link = page.get_by_test_id("export-link").input_value()
    code = page.get_by_test_id("export-code").input_value()
    assert link.endswith("#key=" + code)
    phone = open_page(new_context(390, 844), link)
    expect(phone.get_by_test_id("signed-in-as")).to_have_text("Ocana")
    assert "#key=" not in phone.url  # the code leaves the address bar
    expect(phone.get_by_test_id("rating-mind-twist")).to_be_visible()
    phone.screenshot(path=artifact("profile-390.png"), full_page=True)
    phone.goto(server.url + "/leaderboard/mind-twist")
    expect(phone.get_by_test_id("leader").filter(has_text="Ocana")).to_have_class("me")
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone.screenshot(path=artifact("leaderboard-390.png"), full_page=True)
    # ... and a seat taken there is Ocana's.
    other = server.create(game="mind-twist", seats=["human", "random"])
    phone.goto(f"{server.url}/table/{other}")
    phone.locator('[data-testid="join-seat"][data-seat="R"]').click()
    expect(root(phone)).to_have_attribute("data-seat", "R")
    assert server.table(other)["seats"][0]["profile"] == "Ocana"
    link = phone.locator('[data-testid="seats"] [data-seat="R"] [data-testid="seat-profile"]')
    expect(link).to_have_attribute("href", "/players/Ocana")

    # A third browser pastes the code instead.
    desk = open_page(new_context(), server.url + "/profile")
    desk.get_by_test_id("import-code").fill(code)
    desk.get_by_test_id("import-profile").click()
    expect(desk.get_by_test_id("signed-in-as")).to_have_text("Ocana")
    for shown in (page, phone, desk):
        assert shown.errors == []  # type: ignore[attr-defined]


def test_a_taken_name_and_a_damaged_code_are_said_in_the_page(server: Server, new_context) -> None:
    first = open_page(new_context(), server.url + "/profile")
    make_profile(first, "Bahamontes")
    second = open_page(new_context(), server.url + "/profile")
    second.get_by_test_id("profile-name").fill("bahamontes")
    second.get_by_test_id("create-profile").click()
    expect(second.get_by_test_id("error")).to_contain_text("is taken")
    second.get_by_test_id("profile-name").fill("<b>x</b>")
    second.get_by_test_id("create-profile").click()
    expect(second.get_by_test_id("error")).to_contain_text("letters, digits")
    second.get_by_test_id("import-code").fill("not-a-code")
    second.get_by_test_id("import-profile").click()
    expect(second.get_by_test_id("error")).to_contain_text("not a profile code")
    assert second.evaluate("localStorage.getItem('peloton.profile')") is None
    for shown in (first, second):
        assert shown.errors == []  # type: ignore[attr-defined]
