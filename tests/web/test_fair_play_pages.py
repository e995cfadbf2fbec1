"""Issue 32 in the browser, the defects a newcomer meets on the table and tutorial
pages:

- point 10: the tutorial lights only what the learner can click now, and a click on
  what it lights is never refused (step 7 lit b24 before "Attack!" was pressed, and a
  click there was refused: "AS1-b24 is illegal");
- point 11: the hint line never keeps the words of a control that is gone (a ride's
  words stayed through the choice after it; step 6's relay through step 12);
- point 12: both players of a Mind Twist table read how a guess came out (the guesser
  read "Blue guesses 1" where the dialler read "... right, Red stays on 0"), while a
  dial stays hidden until the rules reveal it (MT-4.1);
- point 15: the leave dialog of the last person at a table says that the table ends
  as abandoned (the server's rule), and a competition's says its stand-ins play on.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import Server, open_page
from .helpers import join, root
from .test_games import twist_for_two
from .test_tutorial import lesson

# ---------------------------------------------------------------- the tutorial


def no_refusal(page: Page) -> None:
    expect(page.get_by_test_id("feedback")).to_be_hidden()


def click_lit(page: Page) -> None:
    """One move of the step by clicking what it lights, a square of the board before
    a button (a click on a lit square must be played, never refused)."""
    main = lesson(page)
    done = main.get_attribute("data-done") or ""
    square = page.locator("[data-testid=board] .sq.lesson-target")
    if square.count():
        square.click()  # the move itself: wait for its answer, never click twice
    else:
        # A button: the move itself, or the toggle it needs first (then its square).
        page.locator("#controls button.lesson-target, #ask button.lesson-target").first.click()
        if (
            main.get_attribute("data-done") == done
            and main.get_attribute("data-finished") == "false"
        ):
            no_refusal(page)
            if page.locator("[data-testid=board] .sq.lesson-target").count():
                page.locator("[data-testid=board] .sq.lesson-target").click()
    expect(main).not_to_have_attribute("data-done", done)
    no_refusal(page)


def test_the_tutorial_lights_only_what_can_be_clicked_and_keeps_no_stale_hint(
    server: Server, new_context
) -> None:
    """Issue 32, points 10 and 11 (MC-7.2 the attack, MC-6 the relay): from step 6 to
    the end, clicking whatever is lit is always played."""
    page = open_page(new_context(1280, 800), f"{server.url}/tutorial#6")
    main, hint = lesson(page), page.get_by_test_id("hint")
    expect(main).to_have_attribute("data-step", "6")
    # Step 6 by its relay button: the pointer rests on it, and its words show...
    relay = page.locator('#controls button.lesson-target[data-move="AS1-b15r"]')
    relay.hover()
    expect(hint).to_contain_text("AS1")
    relay.click()
    expect(main).to_have_attribute("data-finished", "true")
    # ... until the button is gone: then its words go too.
    expect(hint).to_have_text("")
    page.get_by_test_id("next").click()

    # Step 7, the attack: the square lights only once the attack is armed.
    expect(main).to_have_attribute("data-step", "7")
    expect(page.get_by_test_id("ask-attack")).to_have_class(re.compile(r"\blesson-target\b"))
    expect(page.locator("[data-testid=attack-toggle].lesson-target")).to_be_visible()
    expect(page.locator("[data-testid=board] .sq.lesson-target")).to_have_count(0)
    expect(page.get_by_test_id("ask-then")).to_contain_text("first")
    expect(hint).to_have_text("")
    page.get_by_test_id("ask-attack").click()
    target = page.locator("[data-testid=board] .sq.legal.attack.lesson-target")
    expect(target).to_have_attribute("data-square", "b24")
    expect(page.locator("[data-testid=attack-toggle].lesson-target")).to_have_count(0)
    # Cancelled, the square goes dark again and the toggle is lit.
    page.get_by_test_id("ask-attack").click()
    expect(page.locator("[data-testid=board] .sq.lesson-target")).to_have_count(0)

    # The rest of the lesson by clicking what is lit, a square first: never refused.
    for number in range(7, 12):
        expect(main).to_have_attribute("data-step", str(number))
        while main.get_attribute("data-finished") == "false":
            click_lit(page)
        expect(main).to_have_attribute("data-finished", "true")
        page.get_by_test_id("next").click()
    expect(main).to_have_attribute("data-step", "12")
    expect(hint).to_have_text("")
    assert page.errors == []  # type: ignore[attr-defined]


# ---------------------------------------------------------------- the table's hint line


def behind_a_rider(page: Page):  # type: ignore[no-untyped-def]
    """A lit square right behind a rider (so that the next round links them, MC-6:
    the wheel and relay buttons come), else the furthest lit square."""
    ats = page.locator("[data-testid=board] [data-rider]").evaluate_all(
        "gs => gs.map(g => g.dataset.at).filter(Boolean)"
    )
    for at in ats:
        if len(at) > 1 and at[1:].isdigit():
            square = page.locator(f'[data-square="{at[0]}{int(at[1:]) - 1}"].legal.move')
            if square.count():
                return square
    return page.locator("[data-square].legal.move").last


def test_the_hint_line_goes_with_the_control_that_gave_it(server: Server, new_context) -> None:
    """Issue 32, point 11: a solo Mind Cycling race, where every turn is the player's.
    A control that says what it does (hovered, or reached with the keyboard) and is
    then played is gone from the next rider's controls, and so are its words."""
    table_id = server.create(game="mind-cycling", solo=True, course="short", seats=["human"])
    ctx = new_context()
    # The solo panel's solver is not this test's: answered at once, it draws the page
    # once instead of at every poll of a solve (which would redraw the controls, and
    # empty the hint line with them, at moments of its own).
    ctx.route(
        "**/solver", lambda route: route.fulfill(json={"status": "failed", "message": "not here"})
    )
    page = open_page(ctx, f"{server.url}/table/{table_id}")
    join(page, "A", "Solo")
    r, hint = root(page), page.get_by_test_id("hint")
    said = 0
    for _ in range(60):
        expect(r).to_have_attribute("data-my-turn", "true")
        moves = r.get_attribute("data-moves") or ""
        if r.get_attribute("data-phase") == "setup":
            page.get_by_test_id("place-rider").first.click()
            page.locator("[data-square].legal.place").last.click()
        else:
            button = page.locator("#controls button.move-btn[title]")
            if not button.count():
                behind_a_rider(page).click()
            else:
                words = button.first.get_attribute("title") or ""
                if said % 2:
                    page.mouse.move(0, 0)  # the pointer off the controls (no mouseleave later)
                    button.first.focus()  # the keyboard's way
                    expect(hint).to_have_text(words)
                    page.keyboard.press("Enter")
                else:
                    button.first.hover()  # the pointer's way
                    expect(hint).to_have_text(words)
                    button.first.click()
                expect(r).not_to_have_attribute("data-moves", moves)
                expect(r).to_have_attribute("data-my-turn", "true")
                expect(hint).not_to_have_text(words)
                said += 1
                if said == 4:
                    break
                continue
        expect(r).not_to_have_attribute("data-moves", moves)
    assert said == 4
    assert page.errors == []  # type: ignore[attr-defined]


# ---------------------------------------------------------------- Mind Twist's log


def last_said(page: Page):  # type: ignore[no-untyped-def]
    return page.locator('[data-testid="log-move"]').last


def test_both_players_read_how_a_guess_came_out(server: Server, new_context) -> None:
    """Issue 32, point 12 (MT-2.2, MT-4.1): a right guess and a wrong one, each read
    with its outcome by the guesser, the dialler and a spectator; the dial guessed
    right stays ``dial:?`` to all but its dialler."""
    table_id = twist_for_two(server)
    url = f"{server.url}/table/{table_id}"
    pages = {"R": open_page(new_context(), url), "B": open_page(new_context(), url)}
    join(pages["R"], "R", "Rosa")
    join(pages["B"], "B", "Bo")
    watcher = open_page(new_context(), url)
    everyone = [pages["R"], pages["B"], watcher]

    def play(seat: str, move: str, moves: int) -> None:
        page = pages[seat]
        expect(root(page)).to_have_attribute("data-my-turn", "true")
        page.locator(f'#controls button[data-move="{move}"]').click()
        for p in everyone:
            expect(root(p)).to_have_attribute("data-moves", str(moves))

    play("R", "dial:1", 1)
    for p in (pages["B"], watcher):
        expect(last_said(p)).to_have_attribute("data-move", "dial:?")
        expect(last_said(p)).to_have_text("Red turns the dial in secret")
    play("B", "guess:1", 2)
    for p in everyone:
        expect(last_said(p)).to_have_text("Blue guesses 1: right, Red stays on 0")
    play("B", "dial:2", 3)
    play("R", "guess:3", 4)
    wrong = "Red guesses 3: wrong, the dial was 2; Blue rides to 2 and dials again"
    for p in everyone:
        expect(last_said(p)).to_have_text(wrong)
        expect(p.locator('[data-testid="log-move"]').nth(2)).to_have_attribute(
            "data-move", "dial:2"
        )
    # Read again from the server (a reload): the same words, the first dial still hidden.
    for p in everyone:
        p.reload()
        expect(p.locator(".log-move.said")).to_have_count(4)
        expect(p.locator('[data-testid="log-move"]').nth(1)).to_have_text(
            "Blue guesses 1: right, Red stays on 0"
        )
        expect(last_said(p)).to_have_text(wrong)
    for p in (pages["B"], watcher):
        expect(p.locator('[data-testid="log-move"]').first).to_have_attribute("data-move", "dial:?")
    for p in everyone:
        assert p.errors == []  # type: ignore[attr-defined]


# ---------------------------------------------------------------- leaving


def open_leave_dialog(page: Page):  # type: ignore[no-untyped-def]
    page.get_by_test_id("table-menu-button").click()
    page.get_by_test_id("leave-table").click()
    dialog = page.get_by_test_id("leave-dialog")
    expect(dialog).to_be_visible()
    return dialog


def test_the_last_person_to_leave_is_told_the_table_ends_abandoned(
    server: Server, new_context
) -> None:
    """Issue 32, point 15 (presence.leave): with someone else still seated a stand-in
    plays the seat; the last person's leaving ends the table as abandoned, and the
    dialog says so before it happens."""
    table_id = server.create(
        game="mind-cycling", course="short", riders=3, seats=["human", "human"], standin="easy"
    )
    url = f"{server.url}/table/{table_id}"
    ada = open_page(new_context(), url)
    join(ada, "A", "Ada")
    bob_token = server.post(f"/api/tables/{table_id}/join", {"seat": "B", "name": "Bob"})["token"]
    expect(root(ada)).to_have_attribute("data-status", "running")
    dialog = open_leave_dialog(ada)
    expect(dialog).to_contain_text("A bot (easy) plays your seat")
    expect(dialog).not_to_contain_text("abandoned")
    ada.get_by_test_id("leave-cancel").click()
    # Bob leaves: Ada is the last person at the table.
    server.request_json(
        "POST", f"/api/tables/{table_id}/leave", {"Authorization": f"Bearer {bob_token}"}
    )
    expect(ada.locator('[data-testid="seats"] [data-seat="B"]')).to_contain_text("played by a bot")
    dialog = open_leave_dialog(ada)
    expect(dialog).to_contain_text("ends here as abandoned")
    expect(dialog).not_to_contain_text("plays your seat")
    ada.get_by_test_id("leave-confirm").click()
    expect(root(ada)).to_have_attribute("data-status", "abandoned")
    assert server.table(table_id)["status"] == "abandoned"  # the dialog told the truth

    # Alone with a bot from the start: the same.
    table_id = server.create(game="mind-cycling", course="short", riders=3, seats=["human", "easy"])
    solo = open_page(new_context(390, 844), f"{server.url}/table/{table_id}")
    join(solo, "A", "Cy")
    expect(root(solo)).to_have_attribute("data-status", "running")
    dialog = open_leave_dialog(solo)
    expect(dialog).to_contain_text("ends here as abandoned")
    solo.get_by_test_id("leave-confirm").click()
    expect(root(solo)).to_have_attribute("data-status", "abandoned")
    for page in (ada, solo):
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_last_person_to_leave_a_competition_table_is_told_the_bots_play_on(
    server: Server, new_context
) -> None:
    """Issue 32, point 15: a competition's table is never abandoned (its stand-ins play
    it out, presence.leave), and its leave dialog says so."""
    made = server.post(
        "/api/competitions",
        {
            "kind": "stage",
            "settings": {"legs": [{"mode": "itt", "course": "prologue"}], "level": "starter"},
            "seats": ["human", "greedy"],
            "creator": {"seat": "A", "name": "Ada"},
        },
    )
    table_id = made["table"]
    ctx = new_context()
    ctx.add_init_script(f"localStorage.setItem('peloton.token.{table_id}', '{made['token']}')")
    page = open_page(ctx, f"{server.url}/table/{table_id}")
    expect(root(page)).to_have_attribute("data-seat", "A")
    expect(root(page)).to_have_attribute("data-status", "running")
    dialog = open_leave_dialog(page)
    expect(dialog).to_contain_text("plays your seat")
    expect(dialog).to_contain_text("competition")
    expect(dialog).not_to_contain_text("ends here as abandoned")
    page.get_by_test_id("leave-confirm").click()
    # The stand-in plays the seat (and may finish the short leg at once): not abandoned.
    expect(page.locator('[data-testid="seats"] [data-seat="A"]')).to_contain_text("played by a bot")
    assert server.table(table_id)["status"] in ("running", "finished")
    assert page.errors == []  # type: ignore[attr-defined]
