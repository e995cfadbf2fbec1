"""Cyclo's two lessons in a real browser (/tutorial?game=cyclo, &lesson=pro): a learner
plays every step from the table's own controls (the ride button, a lit space to hold
back, CY-4.4; a token button first for a ride spending tokens, CY-4.3; the swap and
wheel buttons, CY-6.2, CY-5.2), a legal move that is not the lesson's is refused and
not played, and the last step opens the real table the lesson names."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import Server, artifact, open_page


def play_asked_move(page: Page) -> None:
    """The step's move as a learner makes it, by what the page lights: the token
    button a ride spending tokens needs first (CY-4.3), then the lit ride button or
    space."""
    main = page.get_by_test_id("tutorial")
    done = main.get_attribute("data-done")
    lit = page.locator("#controls button.lesson-target, #board-host [data-square].lesson-target")
    expect(lit.first).to_be_visible()
    token = page.locator("#controls [data-testid=token-button].lesson-target")
    if token.count():
        choice = token.get_attribute("data-token")
        token.click()
        chosen = page.locator(f"#controls [data-testid=token-button][data-token='{choice}']")
        expect(chosen).to_have_attribute("aria-pressed", "true")
    button = page.locator("#controls button.lesson-target:not([data-testid=token-button])")
    if button.count():
        button.first.click()
    else:
        page.locator("#board-host [data-square].lesson-target").first.click()
    expect(main).not_to_have_attribute("data-done", done or "")


def play_lesson(page: Page, count: int, shots: dict[int, str]) -> None:
    main = page.get_by_test_id("tutorial")
    for number in range(1, count + 1):
        expect(main).to_have_attribute("data-step", str(number))
        while main.get_attribute("data-finished") == "false":
            play_asked_move(page)
        if number in shots:
            page.screenshot(path=artifact(shots[number]))
        if number < count:
            page.get_by_test_id("next").click()


def open_real_table(page: Page, server: Server) -> None:
    page.get_by_test_id("play-real").click()
    expect(page).to_have_url(re.compile(r"/table/[^/#]+$"))
    table = server.table(page.url.rsplit("/", 1)[1])
    assert {s["seat"]: s["kind"] for s in table["seats"]} == {"A": "human", "B": "easy"}


@pytest.mark.parametrize(("lesson", "count"), [("starter", 8), ("pro", 8)])
def test_the_whole_cyclo_lesson_from_the_table_controls(
    server: Server, new_context, lesson: str, count: int
) -> None:
    query = "game=cyclo" + ("" if lesson == "starter" else f"&lesson={lesson}")
    assert len(server.get(f"/api/tutorial?{query}")["steps"]) == count
    page = open_page(new_context(1280, 900), f"{server.url}/tutorial?{query}")
    play_lesson(page, count, {2: f"tutorial-cyclo-{lesson}-2-1280.png"})
    # CY-8.3, CY-10.2: the race is over; AS1 won the classic, or the time trial.
    expect(page.get_by_test_id("result")).to_be_visible()
    page.screenshot(path=artifact(f"tutorial-cyclo-{lesson}-end-1280.png"))
    open_real_table(page, server)
    assert page.errors == []  # type: ignore[attr-defined]


def test_an_off_lesson_ride_is_refused_and_not_played(server: Server, new_context) -> None:
    """CY-4.4: the hold-back step asks for AH1 on 49; the full ride to 50 is legal but
    not the lesson's, so it is refused, naming the move asked for, and AH1 stays."""
    page = open_page(new_context(1280, 900), f"{server.url}/tutorial?game=cyclo&lesson=pro#2")
    main = page.get_by_test_id("tutorial")
    expect(main).to_have_attribute("data-step", "2")
    expect(page.locator("#board-host [data-square='49'].lesson-target")).to_have_count(1)
    page.get_by_test_id("ride-full").click()
    feedback = page.get_by_test_id("feedback")
    expect(feedback).to_contain_text("this step is about another one")
    expect(feedback).to_contain_text("(AH1-49)")
    expect(page.locator("[data-rider=AH1]")).to_have_attribute("data-at", "a38")
    play_asked_move(page)
    expect(page.locator("[data-rider=AH1]")).to_have_attribute("data-at", "a49")
