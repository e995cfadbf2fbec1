"""The tutorial page in a real browser: a newcomer goes from the lobby through every
step of the first race by clicking the highlighted moves (checked by the engine on
the server), a wrong move is refused with the engine's reason and not played, and the
last step starts a real race against a bot. At 1280x800 and on a phone."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import Server, artifact, open_page


def lesson(page: Page):  # type: ignore[no-untyped-def]
    return page.get_by_test_id("tutorial")


REFUSED = "Failed to load resource: the server responded with a status of 400 (Bad Request)"


def console_errors(page: Page) -> list[str]:
    """The page's console errors as they come. A refused move is a 400 answer, which
    the browser logs as a failed resource: the tests count those, one per refusal."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def play_highlighted(page: Page) -> None:
    """Make the move the step highlights: its square (after the attack toggle for an
    attack), or its button (a bottle given)."""
    main = lesson(page)
    done = main.get_attribute("data-done")
    toggle = page.locator("[data-testid=attack-toggle].lesson-target")
    if toggle.count():
        toggle.click()
    square = page.locator("[data-testid=board] .sq.lesson-target")
    if square.count():
        square.click()
    else:
        page.locator("#controls button.lesson-target").click()
    expect(main).not_to_have_attribute("data-done", done or "")


def finish_step(page: Page) -> None:
    main = lesson(page)
    while main.get_attribute("data-finished") == "false":
        expect(page.get_by_test_id("ask")).to_be_visible()
        play_highlighted(page)
    # Done: Next is open (or, at the end, the button to a real race shows).
    expect(page.locator("#next:enabled:not([hidden]), #play-real:not([hidden])")).to_be_visible()


def test_the_whole_tutorial_from_the_lobby_to_a_real_race(server: Server, new_context) -> None:
    page = open_page(new_context(1280, 800), server.url)
    console = console_errors(page)
    page.get_by_test_id("tutorial-link").click()
    expect(page).to_have_url(re.compile(r"/tutorial\?game=mind-cycling(#1)?$"))
    main = lesson(page)
    expect(main).to_have_attribute("data-step", "1")
    expect(page.get_by_test_id("progress-label")).to_have_text("Step 1 of 12")
    expect(page.get_by_test_id("step-title")).to_have_text("Into the wind")
    # The move asked for is lit: AD1 to b9; Next waits for it.
    target = page.locator("[data-testid=board] .sq.lesson-target")
    expect(target).to_have_attribute("data-square", "b9")
    expect(page.get_by_test_id("next")).to_be_disabled()
    expect(page.get_by_test_id("back")).to_be_disabled()
    page.screenshot(path=artifact("tutorial-1-wind-1280.png"))

    # A square out of reach (MC-5.4: 6 rows in the wind, not 7): refused, explained.
    page.locator("[data-testid=board] [data-square=b10]").click()
    feedback = page.get_by_test_id("feedback")
    expect(feedback).to_contain_text("Not quite: AD1-b10 is illegal: AD1 cannot reach b10 from b3")
    expect(page.locator("[data-rider=AD1]")).to_have_attribute("data-at", "b3")
    expect(main).to_have_attribute("data-done", "0")
    page.screenshot(path=artifact("tutorial-refused-1280.png"))
    # A legal square that is not the lesson's: refused too, naming the move asked for.
    page.locator("[data-testid=board] [data-square=b5]").click()
    expect(feedback).to_contain_text("AD1-b5 is a legal move, but this step is about another one")
    expect(feedback).to_contain_text("(AD1-b9)")
    expect(page.locator("[data-rider=AD1]")).to_have_attribute("data-at", "b3")

    shots = {3: "3-relay", 5: "5-bottle", 7: "7-attack", 9: "9-tired", 11: "11-finish"}
    for number in range(1, 13):
        expect(main).to_have_attribute("data-step", str(number))
        expect(page.get_by_test_id("progress-label")).to_have_text(f"Step {number} of 12")
        finish_step(page)
        assert page.evaluate("() => location.hash") == f"#{number}"
        if number in shots:
            page.screenshot(path=artifact(f"tutorial-{shots[number]}-1280.png"))
        if number < 12:
            expect(feedback).to_be_hidden()
            page.get_by_test_id("next").click()

    # The last step: the race is over, all four medals and the trophy to team A.
    expect(page.get_by_test_id("step-title")).to_have_text("Medals and the trophy")
    expect(page.get_by_test_id("trophy")).to_have_attribute("data-team", "A")
    expect(page.locator("[data-testid=medals] .medal.won")).to_have_count(4)
    expect(page.get_by_test_id("next")).to_be_hidden()
    page.screenshot(path=artifact("tutorial-12-medals-1280.png"), full_page=True)

    # A step reached opens again from its dot.
    page.locator("[data-testid=lesson] .dot[data-step='4'] button").click()
    expect(main).to_have_attribute("data-step", "4")
    expect(page.get_by_test_id("step-title")).to_have_text("A new round")
    page.locator("[data-testid=lesson] .dot[data-step='12'] button").click()
    expect(main).to_have_attribute("data-step", "12")
    # Back goes to the step before, fresh; the address follows.
    page.get_by_test_id("back").click()
    expect(main).to_have_attribute("data-step", "11")
    expect(main).to_have_attribute("data-finished", "false")
    expect(page).to_have_url(re.compile(r"/tutorial\?game=mind-cycling#11$"))
    finish_step(page)
    page.get_by_test_id("next").click()

    page.get_by_test_id("play-real").click()
    expect(page).to_have_url(re.compile(r"/table/[^/#]+$"))
    table_id = page.url.rsplit("/", 1)[1]
    table = server.table(table_id)
    seats = {s["seat"]: s for s in table["seats"]}
    assert seats["A"]["kind"] == "human" and seats["A"]["taken"]
    assert seats["B"]["kind"] != "human" and seats["C"]["kind"] != "human"
    expect(page.get_by_test_id("table-title")).to_be_visible()
    assert page.errors == []  # type: ignore[attr-defined]
    assert console == [REFUSED, REFUSED]  # the two refused moves, nothing else


def test_the_tutorial_on_a_phone(server: Server, new_context) -> None:
    """390x844: the board scrolls in its frame, the step text follows it, and the attack
    step (MC-7.2) is played by tapping: the attack toggle, then the lit square."""
    page = open_page(new_context(390, 844), f"{server.url}/tutorial#7")
    console = console_errors(page)
    main = lesson(page)
    expect(main).to_have_attribute("data-step", "7")
    expect(page.get_by_test_id("step-title")).to_have_text("Attack!")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    scroller = page.get_by_test_id("board-scroll")
    assert scroller.evaluate("s => s.scrollWidth > s.clientWidth")
    toggle = page.locator("[data-testid=attack-toggle].lesson-target")
    expect(toggle).to_be_visible()
    page.screenshot(path=artifact("tutorial-attack-390.png"), full_page=True)
    # The attack's square lights only once the attack is armed (issue 32, point 10):
    # tapped before, it means a plain ride out of reach, refused with the engine's reason.
    expect(page.locator("[data-testid=board] .sq.lesson-target")).to_have_count(0)
    page.locator("[data-testid=board] [data-square=b24]").click()
    expect(page.get_by_test_id("feedback")).to_contain_text("AS1-b24 is illegal")
    # The attack button beside "Your move" (the move buttons are further down).
    page.get_by_test_id("ask-attack").click()
    expect(page.get_by_test_id("ask-attack")).to_have_attribute("aria-pressed", "true")
    page.locator("[data-testid=board] .sq.legal.attack.lesson-target").click()
    expect(lesson(page)).to_have_attribute("data-finished", "true")
    expect(page.get_by_test_id("after")).to_contain_text("Best Sprinter")
    expect(page.locator("[data-testid=medals] .medal.won[data-medal=sprinter]")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=artifact("tutorial-attack-done-390.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]
    assert console == [REFUSED]


def test_an_unknown_step_in_the_address_opens_the_first(server: Server, new_context) -> None:
    page = open_page(new_context(1280, 800), f"{server.url}/tutorial#40")
    expect(lesson(page)).to_have_attribute("data-step", "1")
    expect(page).to_have_url(re.compile(r"/tutorial#1$"))
    assert page.errors == []  # type: ignore[attr-defined]
