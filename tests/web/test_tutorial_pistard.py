"""Pistard's lesson in a real browser (/tutorial?game=pistard): a learner plays every
step from the table's own controls (a first move's die buttons, PI-2.2; a die, then
the lit square, PI-3.2), a legal move that is not the lesson's is refused and not
played, and the last step opens the real table the lesson names."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import Server, artifact, open_page


def play_asked_move(page: Page) -> None:
    """The step's move as a learner makes it, by what the page lights: the move's
    button, or the die the ride needs (PI-3.2) and then the lit square (the die is
    chosen already where only one is left)."""
    main = page.get_by_test_id("tutorial")
    done = main.get_attribute("data-done")
    button = page.locator("#controls button.lesson-target")
    expect(button.or_(page.locator("[data-testid=board] .lesson-target")).first).to_be_visible()
    if button.count():
        is_die = button.first.get_attribute("data-testid") == "die-button"
        button.first.click()
        if is_die:
            page.locator("[data-testid=board] .lesson-target").first.click()
    else:
        page.locator("[data-testid=board] .lesson-target").first.click()
    expect(main).not_to_have_attribute("data-done", done or "")


def test_the_whole_pistard_lesson_from_the_table_controls(server: Server, new_context) -> None:
    page = open_page(new_context(1280, 900), f"{server.url}/tutorial?game=pistard")
    main = page.get_by_test_id("tutorial")
    count = len(server.get("/api/tutorial?game=pistard")["steps"])
    assert count == 10
    for number in range(1, count + 1):
        expect(main).to_have_attribute("data-step", str(number))
        if number == 3:
            # PI-3.3: a legal ride that is not the lesson's is refused, and A1 stays.
            page.locator("[data-testid=die-button][data-die='5']").click()
            page.locator("[data-testid=board] [data-square=a11].legal").click()
            feedback = page.get_by_test_id("feedback")
            expect(feedback).to_contain_text("this step is about another one")
            expect(feedback).to_contain_text("(A1=6:c12)")
            expect(page.locator("[data-rider=A1]")).to_have_attribute("data-at", "a6")
        while main.get_attribute("data-finished") == "false":
            play_asked_move(page)
        if number in (4, 8, 9):
            page.screenshot(path=artifact(f"tutorial-pistard-{number}-1280.png"))
        if number < count:
            page.get_by_test_id("next").click()
    # PI-4.3: the lesson ends with team A the winner, B4 among the eliminated.
    expect(page.get_by_test_id("winner")).to_have_attribute("data-team", "A")
    expect(page.locator("[data-testid=eliminated] [data-rider=B4]")).to_be_visible()
    page.get_by_test_id("play-real").click()
    expect(page).to_have_url(re.compile(r"/table/[^/#]+$"))
    table = server.table(page.url.rsplit("/", 1)[1])
    seats = {s["seat"]: s["kind"] for s in table["seats"]}
    assert seats == {"A": "human", "B": "easy"}
    assert page.errors == []  # type: ignore[attr-defined]
