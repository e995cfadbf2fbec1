"""Playing a lesson in the browser by what the tutorial page lights, as a newcomer
would: the asked move's button, or the die, token or attack toggle it needs first and
then its square. Shared by the tutorial tests and benchmarks/tutorial_length.py."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

#: Where the page lights what to press, in the order a learner presses them: a button
#: beside "Your move" (Mind Cycling's attack toggle or bottle), a choice in the controls
#: (a die, a token), a move button, a square of the board.
LIT = (
    "#ask-action .lesson-target",
    "#controls button.lesson-target:not([data-move])",
    "#controls button.lesson-target[data-move]",
    "#board-host .lesson-target",
)


def lesson(page: Page) -> Locator:
    return page.get_by_test_id("tutorial")


def lit(page: Page) -> Locator:
    """Whatever the page lights now."""
    return page.locator(", ".join(LIT))


def play_lit_move(page: Page) -> int:
    """Press what is lit until the step's move is played (the page's ``data-done``
    moves on, its replies all shown); the number of presses."""
    main = lesson(page)
    done = main.get_attribute("data-done")
    for presses in range(1, 5):
        expect(lit(page).first).to_be_attached()
        for selector in LIT:
            target = page.locator(selector)
            if target.count():
                target.first.click()
                break
        # Either the move was sent (the page is busy until every reply is shown) or a
        # choice was made (a die, a token, the attack) and the next thing is lit.
        page.wait_for_function(
            """([done, lit]) => {
                const main = document.querySelector("[data-testid=tutorial]");
                if (main.dataset.busy !== "false") return false;
                return main.dataset.done !== done || document.querySelector(lit) !== null;
            }""",
            arg=[done, ", ".join(LIT)],
        )
        if main.get_attribute("data-done") != done:
            return presses
    raise AssertionError(f"step {main.get_attribute('data-step')}: 4 presses played nothing")


def play_lesson(page: Page) -> tuple[int, int, int]:
    """Play every step from the first to the last by what is lit, stopping on the
    last step once it is done; (steps, presses, the learner's moves)."""
    main = lesson(page)
    expect(main).to_have_attribute("data-step", "1")
    count = int((page.get_by_test_id("progress-label").text_content() or "").split()[-1])
    presses = moves = 0
    for number in range(1, count + 1):
        expect(main).to_have_attribute("data-step", str(number))
        while main.get_attribute("data-finished") == "false":
            presses += play_lit_move(page)
            moves += 1
        if number < count:
            page.get_by_test_id("next").click()
    return count, presses, moves
