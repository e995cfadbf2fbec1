"""The flow of a game at the web table, in a real browser: the creator seated by the
create form, the "your turn" signal in the tab, the move log in words, the end-of-game
dialog and its rematch (the other player invited), the replay's keys and its URL, the
404 page, and a solo table's panel against the solver's line."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from peloton.games.mindcycling.solver.examples import C8

from .conftest import Server, artifact, open_page
from .helpers import root

TURN_TITLE = "● Your turn — Peloton"
#: A Mind Twist race over 4 spaces without milestones: over in a few turns.
SHORT_TWIST = {"length": 4, "milestones": []}


def seated(ctx: BrowserContext, table_id: str, token: str) -> BrowserContext:
    """``ctx`` holding the seat token of ``table_id`` (as the create form keeps it)."""
    ctx.add_init_script(f"localStorage.setItem('peloton.token.{table_id}', '{token}')")
    return ctx


def two_player_twist(server: Server, new_context: Any, **options: Any) -> tuple[str, Page, Page]:
    """A Mind Twist table of two humans, red created by Rosa and blue joined by Bo;
    their pages."""
    made = server.post(
        "/api/tables",
        {
            "game": "mind-twist",
            "options": {**SHORT_TWIST, **options},
            "seats": ["human", "human"],
            "creator": {"seat": "R", "name": "Rosa"},
        },
    )
    blue = server.post(f"/api/tables/{made['id']}/join", {"seat": "B", "name": "Bo"})
    url = f"{server.url}/table/{made['id']}"
    red_page = open_page(seated(new_context(), made["id"], made["token"]), url)
    blue_page = open_page(seated(new_context(390, 844), made["id"], blue["token"]), url)
    expect(root(red_page)).to_have_attribute("data-seat", "R")
    expect(root(blue_page)).to_have_attribute("data-seat", "B")
    return made["id"], red_page, blue_page


def finished_table(server: Server, request: dict[str, Any]) -> str:
    table_id = str(server.post("/api/tables", request)["id"])
    for _ in range(5000):  # polling for the bots to finish; not a timing assertion
        if server.table(table_id)["status"] == "finished":
            return table_id
        time.sleep(0.02)
    raise AssertionError(f"table {table_id} did not finish")


def test_the_creator_lands_on_the_table_already_seated(server: Server, new_context) -> None:
    page = open_page(new_context(), server.url + "/")
    page.get_by_test_id("game-select").select_option("mind-twist")
    page.locator('[data-testid="seat-kind"][data-seat="B"]').select_option("human")
    expect(page.get_by_test_id("creator-seat")).to_have_value("R")  # the first human seat
    page.locator('[data-testid="seat-kind"][data-seat="R"]').select_option("random")
    expect(page.get_by_test_id("creator-seat")).to_have_value("B")  # the one human seat
    page.get_by_test_id("create-table").click()  # no name yet: the form asks for one
    expect(page.get_by_test_id("error-message")).to_contain_text("Enter your name")
    assert "/table/" not in page.url
    page.get_by_test_id("creator-name").fill("Ada")
    page.screenshot(path=artifact("flow-create-seated-1280.png"), full_page=True)
    page.get_by_test_id("create-table").click()
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    expect(root(page)).to_have_attribute("data-seat", "B")
    expect(page.get_by_test_id("join")).to_be_hidden()
    expect(page.locator('[data-testid="seat"][data-seat="B"]')).to_contain_text("Ada")
    detail = server.table(table_id)
    assert [(s["seat"], s["kind"], s["name"]) for s in detail["seats"]] == [
        ("R", "random", "random"),
        ("B", "human", "Ada"),
    ]
    assert detail["status"] == "running"
    # The seat is kept like a joined one: a reload finds it.
    assert page.evaluate(f"localStorage.getItem('peloton.token.{table_id}')")
    page.reload()
    expect(root(page)).to_have_attribute("data-seat", "B")
    assert page.evaluate("localStorage.getItem('peloton.name')") == "Ada"
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_tab_says_your_turn_and_the_log_reads_as_sentences(server: Server, new_context) -> None:
    table_id, red, blue = two_player_twist(server, new_context)
    base = f"Table {table_id} · Peloton"
    # MT-2.1: red dials first. Red's tab says so, blue's does not.
    expect(red).to_have_title(TURN_TITLE)
    expect(blue).to_have_title(base)
    icon = red.locator("link[rel~=icon]")
    expect(icon).to_have_attribute("href", re.compile(r"^data:image/svg\+xml"))
    turn_icon = icon.get_attribute("href")
    # Sound is off by default; switched on, it is remembered.
    toggle = red.get_by_test_id("sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert red.evaluate("localStorage.getItem('peloton.sound')") == "on"
    red.reload()
    expect(red.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")
    expect(red).to_have_title(TURN_TITLE)

    red.get_by_test_id("dial-button").nth(1).click()  # dial:2
    expect(red).to_have_title(base)  # the turn passed: the title comes back
    assert red.locator("link[rel~=icon]").get_attribute("href") != turn_icon
    expect(blue).to_have_title(TURN_TITLE)
    # The log says the move in words; its notation is on hover (title, data-move).
    mine = red.locator('[data-testid="log-move"]').last
    expect(mine).to_have_text("Red dials 2 in secret")
    expect(mine).to_have_attribute("data-move", "dial:2")
    expect(mine).to_have_attribute("title", re.compile(r"^dial:2\b"))
    theirs = blue.locator('[data-testid="log-move"]').last
    expect(theirs).to_have_text("Red turns the dial in secret")  # MT-4.1: no amount
    expect(theirs).to_have_attribute("title", re.compile(r"^dial:\?"))
    theirs.hover()
    blue.screenshot(path=artifact("flow-log-sentence-390.png"), full_page=True)

    blue.get_by_test_id("pass-button").click()  # MT-2.2: red moves 2, blue is active
    # The pass's outcome is public once played: the passer reads it too (issue 32).
    expect(blue.locator('[data-testid="log-move"]').last).to_have_text(
        "Blue does not challenge: the dial was 2; Red rides to 2"
    )
    expect(red.locator('[data-testid="log-move"]')).to_have_count(2)
    # The revealed dial reads anew on blue's page.
    expect(blue.locator('[data-testid="log-move"]').first).to_have_attribute("data-move", "dial:2")
    expect(blue.locator('[data-testid="log-move"]').first).to_have_text("Red dials 2 in secret")
    expect(blue).to_have_title(TURN_TITLE)
    blue.get_by_test_id("dial-button").first.click()
    # Red's turn again: the title changes and, with sound on, a tone marks it.
    expect(red).to_have_title(TURN_TITLE)
    expect(red.locator("html")).to_have_attribute("data-chimes", "1")
    red.screenshot(path=artifact("flow-your-turn-1280.png"), full_page=True)
    assert red.errors == [] and blue.errors == []  # type: ignore[attr-defined]


def play_out(pages: dict[str, Page], server: Server, table_id: str) -> None:
    """Both players click until the game is over: no challenge, blue dials 3 and red 2
    (never onto the other's space: no sideswipe, MT-3.1)."""
    for _ in range(100):
        snap = server.table(table_id)["snapshot"]
        if snap["is_over"]:
            return
        page = pages[snap["current_player"]]
        r = root(page)
        expect(r).to_have_attribute("data-my-turn", "true")
        moves = r.get_attribute("data-moves")
        if snap["phase"] == "dial":
            page.get_by_test_id("dial-button").nth(
                2 if snap["current_player"] == "B" else 1
            ).click()
        else:
            page.get_by_test_id("pass-button").click()
        expect(r).not_to_have_attribute("data-moves", moves or "")
    raise AssertionError("the game did not end")


def test_the_end_dialog_offers_a_rematch_and_invites_the_other_player(
    server: Server, new_context
) -> None:
    table_id, red, blue = two_player_twist(server, new_context, first="B")
    play_out({"R": red, "B": blue}, server, table_id)
    for page in (red, blue):
        dialog = page.get_by_test_id("end-dialog")
        expect(dialog).to_be_visible()
        expect(dialog.locator('[data-part="winner"]')).to_be_visible()  # the game's result
        expect(dialog.get_by_test_id("rematch")).to_have_text("Rematch")
    winner = server.table(table_id)["snapshot"]["result"]
    expect(red.get_by_test_id("end-dialog").locator('[data-part="winner"]')).to_have_attribute(
        "data-team", winner
    )
    expect(red.get_by_test_id("winner")).to_have_count(1)  # the result panel's, once
    red.screenshot(path=artifact("flow-end-dialog-1280.png"), full_page=True)
    blue.screenshot(path=artifact("flow-end-dialog-390.png"), full_page=True)
    assert blue.evaluate("document.documentElement.scrollWidth") <= 390  # fits a phone

    red.get_by_test_id("rematch").click()
    red.wait_for_url(re.compile(r".*/table/(?!" + table_id + r"$)[a-z0-9]+$"))
    rematch = red.url.rsplit("/", 1)[1]
    expect(root(red)).to_have_attribute("data-seat", "R")
    old, new = server.table(table_id), server.table(rematch)
    assert old["rematch"] == rematch
    assert (new["game"], new["options"]) == (old["game"], old["options"])
    assert [(s["seat"], s["kind"], s["name"], s["taken"]) for s in new["seats"]] == [
        ("R", "human", "Rosa", True),
        ("B", "human", None, False),
    ]
    # Blue, still at the old table, is invited: one click seats it in the rematch.
    invite = blue.get_by_test_id("rematch-invite")
    expect(invite).to_be_visible()
    expect(invite).to_have_attribute("data-table", rematch)
    expect(blue.get_by_test_id("rematch")).to_have_text("Join the rematch")
    blue.screenshot(path=artifact("flow-rematch-invite-390.png"), full_page=True)
    invite.get_by_test_id("rematch-join").click()
    blue.wait_for_url(f"**/table/{rematch}")
    expect(root(blue)).to_have_attribute("data-seat", "B")
    expect(root(blue)).to_have_attribute("data-status", "running")
    assert [s["name"] for s in server.table(rematch)["seats"]] == ["Rosa", "Bo"]
    assert red.errors == [] and blue.errors == []  # type: ignore[attr-defined]


def test_the_replay_opens_at_the_log_and_steps_by_keys(server: Server, new_context) -> None:
    table_id = finished_table(
        server, {"game": "mind-twist", "options": {"length": 12}, "seats": ["random", "random"]}
    )
    total = len(server.get(f"/api/tables/{table_id}/replay")["moves"])
    page = open_page(new_context(), f"{server.url}/table/{table_id}")
    r = root(page)
    expect(r).to_have_attribute("data-phase", "over")
    page.get_by_test_id("end-close").click()  # a spectator's dialog closes
    expect(page.get_by_test_id("end-dialog")).to_be_hidden()
    page.get_by_test_id("replay-toggle").click()
    expect(r).to_have_attribute("data-replay-index", str(total))  # where the log stands
    assert page.url.endswith(f"?move={total}")
    page.keyboard.press("ArrowLeft")
    expect(r).to_have_attribute("data-replay-index", str(total - 1))
    expect(page.locator('[data-testid="log-move"].current')).to_have_attribute(
        "data-index", str(total - 2)
    )
    page.keyboard.press("Home")
    expect(r).to_have_attribute("data-replay-index", "0")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(r).to_have_attribute("data-replay-index", "2")
    assert page.url.endswith("?move=2")
    page.keyboard.press("End")
    expect(r).to_have_attribute("data-replay-index", str(total))
    page.keyboard.press("ArrowRight")  # nothing after the end
    expect(r).to_have_attribute("data-replay-index", str(total))
    # Space plays (from the start, at the end) and pauses.
    page.keyboard.press(" ")
    expect(r).to_have_attribute("data-replay-playing", "true")
    expect(r).not_to_have_attribute("data-replay-index", re.compile(r"^(0|" + str(total) + ")$"))
    page.keyboard.press(" ")
    expect(r).to_have_attribute("data-replay-playing", "false")
    paused = r.get_attribute("data-replay-index")
    page.screenshot(path=artifact("flow-replay-keys-1280.png"), full_page=True)
    # A link with the move opens the replay there.
    other = open_page(new_context(390, 844), f"{server.url}/table/{table_id}?move=3")
    expect(root(other)).to_have_attribute("data-mode", "replay")
    expect(root(other)).to_have_attribute("data-replay-index", "3")
    expect(r).to_have_attribute("data-replay-index", paused or "")
    # Back to live play: the keys no longer step, the URL forgets the move.
    page.get_by_test_id("replay-exit").click()
    expect(r).to_have_attribute("data-mode", "live")
    assert "?move" not in page.url
    assert page.errors == [] and other.errors == []  # type: ignore[attr-defined]


def test_unknown_tables_and_pages_have_a_page_with_the_way_back(
    server: Server, new_context
) -> None:
    ctx = new_context(390, 844)
    page = open_page(ctx, f"{server.url}/table/nosuchtab")
    expect(page.get_by_test_id("not-found")).to_be_visible()
    expect(page.get_by_test_id("not-found-message")).to_contain_text("nosuchtab")
    assert (
        page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        != "rgba(0, 0, 0, 0)"
    )
    page.screenshot(path=artifact("flow-404-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_test_id("back-to-lobby").click()
    page.wait_for_url(f"{server.url}/")
    expect(page.get_by_test_id("create-form")).to_be_visible()
    lost = open_page(new_context(), f"{server.url}/some/where")
    expect(lost.get_by_test_id("not-found-message")).to_contain_text("/some/where")
    assert page.errors == [] and lost.errors == []  # type: ignore[attr-defined]


def test_a_solo_table_compares_its_rounds_with_the_solvers_line(
    server: Server, new_context
) -> None:
    table_id = finished_table(server, {"solo": True, "course": C8.to_dict(), "seats": ["greedy"]})
    page = open_page(new_context(), f"{server.url}/table/{table_id}")
    r = root(page)
    expect(r).to_have_attribute("data-phase", "over")
    rounds = server.table(table_id)["snapshot"]["result"]["solo_score"][0]
    result = page.get_by_test_id("result")
    expect(result.get_by_test_id("solo-score")).to_contain_text(f"{rounds} round")
    # The best line shows while the solver still works on its proof: wait for both (the
    # solve shares a loaded machine's cores; a readiness wait, not a timing test).
    expect(result.get_by_test_id("solo-best")).to_contain_text("2 rounds", timeout=90_000)
    expect(result.get_by_test_id("solo-best")).to_contain_text("proven best", timeout=90_000)
    expect(result.get_by_test_id("solo-verdict")).to_be_visible()
    # MC-9: alone, medals, Best Team and points mean nothing; none is shown.
    for absent in ("medals", "points"):
        expect(page.get_by_test_id(absent)).to_have_count(0)
    expect(page.get_by_text("Best Team")).to_have_count(0)
    expect(page.locator('[data-testid="seat"]')).to_contain_text(f"{rounds} rounds")
    expect(page.get_by_test_id("end-dialog").locator('[data-part="solo-compare"]')).to_be_visible()
    page.screenshot(path=artifact("flow-solo-panel-1280.png"), full_page=True)
    # The solver's line, step by step on the board.
    page.get_by_test_id("solver-show-line").click()
    expect(r).to_have_attribute("data-replay-of", "solver-line")
    expect(r).to_have_attribute("data-replay-index", "0")
    expect(page.locator("[data-testid=board] [data-rider]")).to_have_count(0)
    page.keyboard.press("ArrowRight")
    expect(r).to_have_attribute("data-replay-index", "1")
    expect(page.locator("[data-testid=board] [data-rider]")).to_have_count(1)
    page.keyboard.press("End")
    line = page.get_by_test_id("replay-position")
    expect(line).to_contain_text("finished")
    page.screenshot(path=artifact("flow-solver-line-1280.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]
