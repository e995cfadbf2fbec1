"""Mind Twist and Pistard in real browsers: created from the lobby, played to the end by
clicking, watched, replayed; at 1280 px and 390 px."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import Server, artifact, open_page
from .helpers import HeldAnswers, join, replay_snapshots, root


def moves_of(snap: dict[str, Any]) -> int:
    return len(snap["moves"]) if "moves" in snap else int(snap["moves_played"])


def wait_for_turn(server: Server, table_id: str, seats: set[str]) -> dict[str, Any]:
    """The spectator's snapshot once the game is over or one of ``seats`` is to act
    (polling the server while bots and dice move; not a timing assertion)."""
    for _ in range(5000):
        snap = server.table(table_id)["snapshot"]
        if snap["is_over"] or snap["current_player"] in seats:
            return snap
        time.sleep(0.02)
    raise AssertionError(f"table {table_id} is stuck")


# ---------------------------------------------------------------- Mind Twist


def twist_for_two(server: Server) -> str:
    """A Mind Twist table of 12 squares for two people."""
    return server.create(
        game="mind-twist", options={"length": 12, "milestones": [4, 8]}, seats=["human", "human"]
    )


def test_two_players_finish_a_mind_twist_game_by_clicking(server: Server, new_context) -> None:
    table_id = twist_for_two(server)
    url = f"{server.url}/table/{table_id}"
    red = open_page(new_context(), url)
    blue = open_page(new_context(390, 844), url)  # one player on a phone
    join(red, "R", "Rosa")
    join(blue, "B", "Bo")
    watcher = open_page(new_context(), url)
    expect(root(watcher)).to_have_attribute("data-status", "running")
    pages = {"R": red, "B": blue}
    rng = random.Random(7)
    shots = 0
    seen_hidden = False
    for _ in range(400):
        snap = server.table(table_id)["snapshot"]
        if snap["is_over"]:
            break
        n = moves_of(snap)
        player = snap["current_player"]
        page = pages[player]
        expect(root(page)).to_have_attribute("data-moves", str(n))
        expect(root(page)).to_have_attribute("data-my-turn", "true")
        if snap["phase"] == "dial":
            page.locator('[data-testid="dial-button"]').nth(rng.randrange(3)).click()
            # The dialer sees its dial; the guesser and the watcher see dial:? only.
            other = pages["B" if player == "R" else "R"]
            expect(root(other)).to_have_attribute("data-moves", str(n + 1))
            dial = page.get_by_test_id("my-dial")
            expect(dial).to_be_visible()
            expect(other.locator('[data-testid="log-move"]').last).to_have_attribute(
                "data-move", "dial:?"
            )
            expect(root(watcher)).to_have_attribute("data-moves", str(n + 1))
            expect(watcher.locator('[data-testid="log-move"]').last).to_have_attribute(
                "data-move", "dial:?"
            )
            assert (
                f"dial:{dial.get_attribute('data-dial')}"
                not in other.get_by_test_id("log").inner_text().split()[-1:]
            )
            if shots < 2:
                other.screenshot(
                    path=artifact(f"mindtwist-guess-{'390' if other is blue else '1280'}.png"),
                    full_page=True,
                )
                shots += 1
            seen_hidden = True
        else:
            choice = rng.random()
            if choice < 0.3:
                page.get_by_test_id("pass-button").click()
            else:
                page.locator('[data-testid="guess-button"]').nth(rng.randrange(3)).click()
            expect(page.get_by_test_id("last-turn")).to_be_visible()
        expect(root(page)).not_to_have_attribute("data-moves", str(n))
    else:
        raise AssertionError("the Mind Twist game did not end")
    assert seen_hidden
    detail = server.table(table_id)
    assert detail["status"] == "finished"
    winner = detail["snapshot"]["result"]
    total = moves_of(detail["snapshot"])
    for page, seat in ((red, "R"), (blue, "B"), (watcher, None)):
        expect(root(page)).to_have_attribute("data-phase", "over")
        expect(page.get_by_test_id("winner")).to_have_attribute("data-team", winner)
        expect(page.get_by_test_id("log-move")).to_have_count(total)
        # Each log is its viewer's public move list: revealed dials shown, the others dial:?.
        token = page.evaluate("id => localStorage.getItem(`peloton.token.${id}`)", table_id)
        assert (token is None) == (seat is None)
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        expected = server.request_json("GET", f"/api/tables/{table_id}/replay", headers)["moves"]
        shown = page.get_by_test_id("log-move").evaluate_all("ms => ms.map(m => m.dataset.move)")
        assert shown == expected
        assert page.errors == []  # type: ignore[attr-defined]
    assert blue.evaluate("document.documentElement.scrollWidth") <= 390
    red.screenshot(path=artifact("mindtwist-final-1280.png"), full_page=True)
    blue.screenshot(path=artifact("mindtwist-final-390.png"), full_page=True)

    # Replay on the table page: the watcher steps through the public moves.
    watcher.get_by_test_id("replay-toggle").click()
    expect(root(watcher)).to_have_attribute("data-mode", "replay")
    watcher.get_by_test_id("replay-first").click()
    expect(root(watcher)).to_have_attribute("data-replay-index", "0")
    watcher.get_by_test_id("replay-next").click()
    expect(root(watcher)).to_have_attribute("data-replay-index", "1")
    expect(watcher.locator('[data-testid="log-move"].current')).to_have_attribute(
        "data-move", server.get(f"/api/tables/{table_id}/replay")["moves"][0]
    )
    watcher.get_by_test_id("replay-last").click()
    expect(watcher.get_by_test_id("winner")).to_have_attribute("data-team", winner)


def test_a_log_read_while_the_next_move_arrives_keeps_that_move(
    server: Server, new_context
) -> None:
    """A pass reveals the dial before it (MT-4.1), so the watcher reads its log again;
    when the next dial arrives before that answer, the answer is older than the log
    and must not take the new move out of it (it did: a CI failure, the watcher's
    last move stayed the pass while its board showed the dial)."""
    table_id = twist_for_two(server)
    url = f"{server.url}/table/{table_id}"
    pages = {"R": open_page(new_context(), url), "B": open_page(new_context(), url)}
    join(pages["R"], "R", "Rosa")
    join(pages["B"], "B", "Bo")
    ctx = new_context()
    with ctx.expect_event("requestfinished", lambda request: request.url.endswith("/replay")):
        watcher = open_page(ctx, url)  # its first log is read
    expect(root(watcher)).to_have_attribute("data-status", "running")
    held = HeldAnswers(ctx, "**/replay")

    def play(test_id: str) -> None:
        snap = server.table(table_id)["snapshot"]
        page = pages[snap["current_player"]]
        expect(root(page)).to_have_attribute("data-my-turn", "true")
        page.get_by_test_id(test_id).first.click()
        expect(root(watcher)).to_have_attribute("data-moves", str(moves_of(snap) + 1))

    play("dial-button")
    with ctx.expect_event("request", lambda request: request.url.endswith("/replay")):
        play("pass-button")  # the dial is revealed: the watcher asks for its log
    play("dial-button")  # ... and this dial arrives before the answer
    held.release(watcher)
    logged = watcher.get_by_test_id("log-move")
    expect(logged).to_have_count(3)
    expect(logged.last).to_have_attribute("data-move", "dial:?")
    expected = server.get(f"/api/tables/{table_id}/replay")["moves"]
    assert logged.evaluate_all("ms => ms.map(m => m.dataset.move)") == expected
    expect(watcher.locator('[data-testid="log-move"].said')).to_have_count(3)
    assert watcher.errors == []  # type: ignore[attr-defined]


def test_the_log_read_again_leaves_the_buttons_under_the_finger(
    server: Server, new_context
) -> None:
    """The log's answer draws the log again, not the controls: a button a player is
    about to tap is still the same element after it."""
    table_id = twist_for_two(server)
    ctx = new_context()
    held = HeldAnswers(ctx, "**/replay")
    with ctx.expect_event("request", lambda request: request.url.endswith("/replay")):
        page = open_page(ctx, f"{server.url}/table/{table_id}")
    join(page, "R", "Rosa")
    join(open_page(new_context(), f"{server.url}/table/{table_id}"), "B", "Bo")
    expect(root(page)).to_have_attribute("data-my-turn", "true")
    page.get_by_test_id("dial-button").first.evaluate("b => { b.dataset.tag = 'mine'; }")
    held.release(page)
    expect(page.locator('[data-testid="dial-button"][data-tag="mine"]')).to_have_count(1)
    assert page.errors == []  # type: ignore[attr-defined]


def test_create_a_mind_twist_table_from_the_lobby_and_replay_its_record(
    server: Server, new_context, tmp_path
) -> None:
    page = open_page(new_context(), server.url + "/")
    page.get_by_test_id("game-select").select_option("mind-twist")
    expect(page.get_by_test_id("course-select")).to_be_hidden()
    expect(page.get_by_test_id("seat-kind")).to_have_count(2)
    page.get_by_test_id("option-length").fill("10")
    page.get_by_test_id("option-milestones").fill("3, 6")
    page.locator('[data-testid="seat-kind"][data-seat="B"]').select_option("random")
    page.get_by_test_id("creator-name").fill("Rae")  # the creator sits at seat R
    page.screenshot(path=artifact("lobby-mindtwist-1280.png"), full_page=True)
    page.get_by_test_id("create-table").click()
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    detail = server.table(table_id)
    assert detail["game"] == "mind-twist"
    assert detail["options"] == {"players": 2, "length": 10, "milestones": [3, 6], "first": "R"}
    assert [s["kind"] for s in detail["seats"]] == ["human", "random"]
    expect(root(page)).to_have_attribute("data-seat", "R")
    for _ in range(200):
        snap = wait_for_turn(server, table_id, {"R"})
        if snap["is_over"]:
            break
        expect(root(page)).to_have_attribute("data-my-turn", "true")
        expect(root(page)).to_have_attribute("data-moves", str(moves_of(snap)))
        button = "dial-button" if snap["phase"] == "dial" else "guess-button"
        page.get_by_test_id(button).first.click()
        expect(root(page)).not_to_have_attribute("data-moves", str(moves_of(snap)))
    expect(root(page)).to_have_attribute("data-phase", "over")
    # R's own record: R's dials are all in it, the bot's unrevealed ones are dial:?.
    with page.expect_download() as info:
        page.get_by_test_id("download-record").click()
    path = tmp_path / "twist.json"
    info.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["game"] == "mind-twist" and record["players"]["R"]["name"] == "Rae"
    # The lobby replays it with the Mind Twist view.
    page.goto(server.url + "/")
    page.get_by_test_id("record-file").set_input_files(str(path))
    viewer = page.get_by_test_id("record-viewer")
    expect(viewer).to_be_visible()
    expect(viewer.locator("[data-token]")).to_have_count(2)
    viewer.get_by_test_id("replay-last").click()
    expect(viewer.get_by_test_id("winner")).to_have_attribute("data-team", record["result"])
    listed = page.locator(f'[data-testid="table-card"][data-table-id="{table_id}"]')
    expect(listed).to_have_attribute("data-game", "mind-twist")
    expect(listed).to_contain_text("Mind Twist")
    assert page.errors == []  # type: ignore[attr-defined]


# ---------------------------------------------------------------- Pistard


def play_pistard_turn(page: Page, rng: random.Random) -> str:
    """One move of the player to act, by clicking: a die for a rider in the first move;
    later a die, then a lit square (and a variant when asked). What was clicked."""
    assign = page.get_by_test_id("assign-button")
    if assign.count():
        assign.nth(rng.randrange(assign.count())).click()
        return "assign"
    stuck = page.get_by_test_id("stuck-button")
    dice = page.get_by_test_id("die-button")
    if not dice.count() and stuck.count():
        stuck.first.click()
        return "stuck"
    if dice.count() > 1:
        dice.nth(rng.randrange(dice.count())).click()
    squares = page.locator("[data-testid=board] [data-square].legal")
    expect(squares.first).to_be_visible()
    squares.nth(rng.randrange(squares.count())).click()
    variants = page.get_by_test_id("variant-button")
    if variants.count():
        variants.nth(rng.randrange(variants.count())).click()
        return "variant"
    return "square"


def test_a_human_plays_pistard_against_bots_to_the_end_by_clicking(
    server: Server, new_context
) -> None:
    table_id = server.create(
        game="pistard", options={"length": 20, "target": 4}, seats=["human", "greedy", "random"]
    )
    url = f"{server.url}/table/{table_id}"
    page = open_page(new_context(), url)
    join(page, "A", "Ada")
    phone = open_page(new_context(390, 844), url)  # a spectator on a phone
    rng = random.Random(5)
    used: dict[str, int] = {}
    shot = False
    for _ in range(3000):
        snap = wait_for_turn(server, table_id, {"A"})
        if snap["is_over"]:
            break
        n = moves_of(snap)
        expect(root(page)).to_have_attribute("data-moves", str(n))
        expect(root(page)).to_have_attribute("data-my-turn", "true")
        if snap["phase"] == "race" and not shot:
            expect(page.get_by_test_id("dice")).to_be_visible()
            page.screenshot(path=artifact("pistard-race-1280.png"), full_page=True)
            phone.screenshot(path=artifact("pistard-race-390.png"), full_page=True)
            shot = True
        kind = play_pistard_turn(page, rng)
        used[kind] = used.get(kind, 0) + 1
        expect(root(page)).not_to_have_attribute("data-moves", str(n))
    else:
        raise AssertionError("the Pistard game did not end")
    assert used["assign"] == 4 and used.get("square", 0) + used.get("variant", 0) > 3
    detail = server.table(table_id)
    assert detail["status"] == "finished"
    result = detail["snapshot"]["result"]
    for p in (page, phone):
        expect(root(p)).to_have_attribute("data-phase", "over")
        expect(p.get_by_test_id("winner")).to_have_attribute("data-team", result["winner"])
        for team, points in detail["snapshot"]["points"].items():
            expect(p.locator(f'[data-testid="points"] tr[data-team="{team}"]')).to_contain_text(
                str(points)
            )
        expect(p.get_by_test_id("log-move")).to_have_count(detail["snapshot"]["moves_played"])
        assert p.errors == []  # type: ignore[attr-defined]
    # The riders on the board are where the server says.
    on_track = {
        r["id"]: r["square"]
        for r in detail["snapshot"]["riders"]
        if r["square"] and not r["eliminated"]
    }
    drawn = page.locator("[data-testid=board] [data-rider]").evaluate_all(
        "gs => Object.fromEntries(gs.filter(g => g.dataset.at).map(g => [g.dataset.rider, g.dataset.at]))"
    )
    assert drawn == on_track
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=artifact("pistard-final-1280.png"), full_page=True)
    phone.screenshot(path=artifact("pistard-final-390.png"), full_page=True)

    # The replay steps through the rolls and the rides.
    page.get_by_test_id("replay-toggle").click()
    page.get_by_test_id("replay-first").click()
    expect(root(page)).to_have_attribute("data-replay-index", "0")
    expect(page.locator("[data-testid=board] [data-rider][data-at='']")).to_have_count(12)
    page.get_by_test_id("replay-next-round").click()
    expect(root(page)).to_have_attribute(
        "data-replay-index",
        str(
            next(
                i
                for i, s in enumerate(
                    replay_snapshots(server.get(f"/api/tables/{table_id}/replay"))
                )
                if s["round"] == 2
            )
        ),
    )
    assert page.errors == []  # type: ignore[attr-defined]
