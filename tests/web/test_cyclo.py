"""Cyclo The Game in real browsers: two humans race a Pro classic to the end by
clicking (a swap proposed, accepted and declined, a wheel taken, a hold back, event
cards), watched by a spectator, then replayed and downloaded; a table created from
the lobby with its options.

The dice and cards come from each table's secret seed, so the test cannot know them:
it plays by reading what each step offers and clicking what the scenario needs as soon
as it is offered. A short course of two boards on flat road, with event spaces, keeps
the riders bunched, so that wheels and swap windows come often; a race that ends
before offering everything is followed by another table, up to four (in 1000
simulated races of this policy on this course, 992 offered everything in one race).
No test-only seed is needed, and the server's seeds stay secret."""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import Server, artifact, open_page
from .helpers import join, replay_snapshots, root

#: A Pro classic on two boards of our own: 40 spaces of flat road and a last km, with
#: event spaces, a sprint line and the finish.
COURSE = {
    "name": "two-boards",
    "boards": [
        {"name": "T1", "runs": [["start", 4, 4], ["flat", 16, 3]], "events": [7, 10, 13, 16, 19]},
        {"name": "T2", "runs": [["flat", 8, 3], ["lastkm", 12, 3]], "events": [4, 8], "lines": [[6, "sprint"]], "finish": True},
    ],
}  # fmt: skip
#: What the scenario must have met, over its tables.
NEEDS = ("proposed", "accepted", "declined", "wheel", "hold", "token", "card", "watched")


def snapshot(server: Server, table_id: str) -> dict[str, Any]:
    return server.table(table_id)["snapshot"]


def settle(server: Server, table_id: str) -> dict[str, Any]:
    """The snapshot once a player is to act or the race is over (the server rolls the
    dice and draws the cards itself; polling, not a timing assertion)."""
    for _ in range(5000):
        snap = snapshot(server, table_id)
        if snap["is_over"] or not snap["is_chance"]:
            return snap
        time.sleep(0.02)
    raise AssertionError(f"table {table_id} is stuck on a chance step")


def rider(snap: dict[str, Any], rid: str) -> dict[str, Any]:
    return next(r for r in snap["riders"] if r["id"] == rid)


def board_riders(page: Page, where: str = "") -> dict[str, str]:
    return page.locator(f"{where} [data-testid=board] [data-rider]").evaluate_all(
        "gs => Object.fromEntries(gs.map(g => [g.dataset.rider, g.dataset.at]))"
    )


def on_course(snap: dict[str, Any]) -> dict[str, str]:
    return {r["id"]: r["square"] for r in snap["riders"] if r["square"]}


def play_step(
    pages: dict[str, Page], watcher: Page, snap: dict[str, Any], seen: Counter[str]
) -> None:
    """Play the step ``snap`` waits for on its player's page by clicking, choosing what
    the scenario still needs whenever it is offered."""
    team, phase, due = snap["current_player"], snap["phase"], snap["due"]
    page = pages[team]
    other = pages["B" if team == "A" else "A"]
    n = snap["moves_played"]
    expect(root(page)).to_have_attribute("data-moves", str(n))
    expect(root(page)).to_have_attribute("data-my-turn", "true")
    expect(root(page)).to_have_attribute("data-phase", phase)
    if phase == "swap":
        rivals = page.locator(f'[data-testid="swap-button"]:not([data-partner^="{team}"])')
        if rivals.count() and seen["proposed"] < 2:
            rivals.first.click()
            seen["proposed"] += 1
        else:
            page.get_by_test_id("ride-on-button").click()
    elif phase == "answer":
        # The answering player gets the prompt; the others only a note.
        prompt = page.get_by_test_id("swap-prompt")
        expect(prompt).to_be_visible()
        expect(prompt).to_contain_text(f"{snap['proposer']} (team {snap['proposer'][0]}")
        expect(prompt).to_contain_text(f"proposes to swap places with your {due}")
        for elsewhere in (other, watcher):
            expect(root(elsewhere)).to_have_attribute("data-phase", "answer")
            expect(elsewhere.get_by_test_id("swap-prompt")).to_have_count(0)
            expect(elsewhere.get_by_test_id("swap-note")).to_contain_text(
                f"{snap['proposer']} has proposed a swap to {due}"
            )
        accept = seen["accepted"] == 0
        if not seen["proposed-shot"]:
            page.screenshot(
                path=artifact(f"cyclo-swap-prompt-{'390' if team == 'B' else '1280'}.png"),
                full_page=True,
            )
            seen["proposed-shot"] += 1
        page.get_by_test_id("accept-swap" if accept else "decline-swap").click()
        seen["accepted" if accept else "declined"] += 1
    elif phase == "ride":
        board = page.get_by_test_id("board")
        expect(page.get_by_test_id("board-dice")).to_have_attribute(
            "data-dice", ",".join(map(str, snap["dice"]))
        )
        if team == "B" and not seen["ride-shot"]:
            page.screenshot(path=artifact("cyclo-ride-390.png"), full_page=True)
            seen["ride-shot"] += 1
        tokens = page.locator('[data-testid="token-button"][data-token="t"]:not([disabled])')
        if not seen["token"] and tokens.count():
            reach = tokens.get_attribute("data-reach")
            tokens.click()
            expect(board.locator(".legal.full")).to_have_attribute("data-square", str(reach))
            board.locator(".legal.full").click()
            seen["token"] += 1
        elif not seen["hold"] and board.locator(".legal.hold").count():
            full = int(board.locator(".legal.full").get_attribute("data-square") or 0)
            space = board.locator(".legal.hold").last
            assert int(space.get_attribute("data-square") or 0) < full  # nearer than the full roll
            space.click()
            seen["hold"] += 1
        else:
            board.locator(".legal.full").click()
    elif phase == "wheel":
        page.get_by_test_id("wheel-follow").click()
        seen["wheel"] += 1
    elif phase == "fall":
        picks = page.get_by_test_id("fall-pick")
        if picks.count():
            picks.first.click()
            expect(picks.first).to_have_attribute("aria-pressed", "true")
        page.get_by_test_id("fall-confirm").click()
        seen["fall"] += 1
    else:
        raise AssertionError(f"unexpected phase {phase!r}")
    expect(root(page)).not_to_have_attribute("data-moves", str(n))


def race(
    server: Server, table_id: str, pages: dict[str, Page], watcher: Page, seen: Counter[str]
) -> None:
    """Race the table to the end by clicking, checking each swap, wheel and card."""
    card_seen = None
    for step in range(2000):
        snap = settle(server, table_id)
        if snap["is_over"]:
            return
        if step % 12 == 5:
            # The spectator sees the same board as the players and the server.
            for page in (*pages.values(), watcher):
                expect(root(page)).to_have_attribute("data-moves", str(snap["moves_played"]))
                assert board_riders(page) == on_course(snap)
            seen["watched"] += 1
        if snap["card"] and snap["card"] != card_seen:
            # An event card is shown as a card, with its effect, on every screen.
            card = snap["deck"][snap["card"]]
            for page in (*pages.values(), watcher):
                shown = page.get_by_test_id("event-card")
                expect(shown).to_have_attribute("data-card", snap["card"])
                expect(shown).to_contain_text(card["name"])
                expect(shown).to_contain_text(card["effect"])
            seen["card"] += 1
        card_seen = snap["card"]
        before = snap
        play_step(pages, watcher, snap, seen)
        after = snapshot(server, table_id)
        since = after["last_moves"][
            len(after["last_moves"]) - (after["moves_played"] - before["moves_played"]) :
        ]
        move = since[0]
        if before["phase"] == "answer" and move.endswith("~yes"):
            x, y = before["proposer"], before["due"]
            assert (rider(after, y)["square"], rider(after, x)["square"]) == (
                rider(before, x)["square"],
                rider(before, y)["square"],
            )
            assert after["due"] == y  # the partner rides now
        if before["phase"] == "answer" and move.endswith("~no"):
            assert (
                after["due"] == before["proposer"]
                and rider(after, before["proposer"])["square"]
                == rider(before, before["proposer"])["square"]
            )
        if before["phase"] == "wheel":
            assert move == f"{before['due']}>{before['leader']}"
            follower = rider(after, before["due"])
            if follower["finished"]:  # across the line, and off the run-out at the round's end
                assert follower["square"] is None or "#" in follower["square"]
            elif not any(m.startswith("draw:") for m in since):  # a card may move it on
                assert follower["square"] == before["ride"]["landing"][before["ride"]["wheel"]]
    raise AssertionError(f"table {table_id} did not finish")


def test_two_players_race_a_pro_classic_by_clicking_watched_replayed_and_downloaded(
    server: Server, new_context, tmp_path
) -> None:
    seen: Counter[str] = Counter()
    for attempt in range(4):
        table_id = server.create(
            game="cyclo",
            options={"mode": "classic", "level": "pro", "course": COURSE},
            seats=["human", "human"],
        )
        url = f"{server.url}/table/{table_id}"
        ann = open_page(new_context(), url)
        bo = open_page(new_context(390, 844), url)  # one player on a phone
        join(ann, "A", "Ann")
        join(bo, "B", "Bo")
        watcher = open_page(new_context(), url)
        expect(root(watcher)).to_have_attribute("data-status", "running")
        pages = {"A": ann, "B": bo}
        if attempt == 0:
            first = settle(server, table_id)
            expect(root(ann)).to_have_attribute("data-phase", first["phase"])
            ann.screenshot(path=artifact("cyclo-start-1280.png"), full_page=True)
            # The strip zooms out to the whole course in its frame, and back.
            scroller, board = ann.get_by_test_id("board-scroll"), ann.get_by_test_id("board")
            ann.get_by_test_id("zoom-fit").click()
            expect(board).not_to_have_attribute("data-zoom", "1.00")
            assert board.evaluate("b => b.getBoundingClientRect().width") <= scroller.evaluate(
                "s => s.clientWidth"
            )
            ann.get_by_test_id("zoom-in").click()
            ann.get_by_test_id("zoom-reset").click()
            expect(board).to_have_attribute("data-zoom", "1.00")
            assert scroller.evaluate("s => s.scrollWidth > s.clientWidth")
        race(server, table_id, pages, watcher, seen)
        if all(seen[need] for need in NEEDS):
            break
        for page in (ann, bo, watcher):
            page.close()
    else:
        raise AssertionError(
            f"four races did not offer everything the scenario needs: {dict(seen)}"
        )

    detail = server.table(table_id)
    assert detail["status"] == "finished"
    final = detail["snapshot"]
    result = final["result"]
    assert result["over"] and len(result["places"]) == 8
    for page in (ann, bo, watcher):
        expect(root(page)).to_have_attribute("data-phase", "over")
        expect(page.get_by_test_id("winner")).to_have_attribute("data-team", result["winner_team"])
        expect(page.get_by_test_id("winner")).to_have_attribute("data-rider", result["winner"])
        expect(page.locator('[data-testid="places"] tr[data-rider]')).to_have_count(8)
        assert (
            page.locator('[data-testid="places"] tr[data-rider]').evaluate_all(
                "rs => rs.map(r => r.dataset.rider)"
            )
            == result["places"]
        )
        expect(page.locator('[data-testid="finish-list"] li')).to_have_count(8)
        expect(page.locator("[data-testid=board] [data-finished]")).to_have_count(8)
        expect(page.get_by_test_id("log-move")).to_have_count(final["moves_played"])
        assert page.errors == []  # type: ignore[attr-defined]
    assert bo.evaluate("document.documentElement.scrollWidth") <= 390
    ann.screenshot(path=artifact("cyclo-final-1280.png"), full_page=True)
    bo.screenshot(path=artifact("cyclo-final-390.png"), full_page=True)

    # Replay on the table page, move by move: the spectator's board follows the server's.
    replay = server.get(f"/api/tables/{table_id}/replay")
    moves, snaps = replay["moves"], replay_snapshots(replay)
    watcher.get_by_test_id("replay-toggle").click()
    expect(root(watcher)).to_have_attribute("data-mode", "replay")
    watcher.get_by_test_id("replay-first").click()
    expect(root(watcher)).to_have_attribute("data-replay-index", "0")
    assert set(board_riders(watcher).values()) == {
        r["square"] for r in snaps[0]["riders"]
    }  # all on the start line
    ride = next(i for i, m in enumerate(moves) if re.fullmatch(r"[AB][SCH]\d-#?\d+(/\w+)?", m))
    for _ in range(ride + 1):
        watcher.get_by_test_id("replay-next").click()
    expect(root(watcher)).to_have_attribute("data-replay-index", str(ride + 1))
    assert board_riders(watcher) == on_course(snaps[ride + 1])
    # The ride's target is marked from the snapshot's parsed last ride (no notation read).
    aimed = snaps[ride + 1]["last_ride"]["target"]
    expect(watcher.locator("[data-testid=board] .cy-space.hint")).to_have_attribute(
        "data-square", aimed
    )
    watcher.get_by_test_id("replay-next-round").click()
    round2 = next(i for i, s in enumerate(snaps) if s["round"] == 2)
    expect(root(watcher)).to_have_attribute("data-replay-index", str(round2))
    assert board_riders(watcher) == on_course(snaps[round2])
    drawn = next(i for i, m in enumerate(moves) if m.startswith("draw:"))
    watcher.locator(f'[data-testid="log-move"][data-index="{drawn}"]').click()
    expect(root(watcher)).to_have_attribute("data-replay-index", str(drawn + 1))
    expect(watcher.get_by_test_id("event-card")).to_have_attribute(
        "data-card", moves[drawn][len("draw:") :]
    )
    watcher.get_by_test_id("replay-last").click()
    expect(watcher.get_by_test_id("winner")).to_have_attribute("data-team", result["winner_team"])
    assert watcher.errors == []  # type: ignore[attr-defined]

    # The record, downloaded by a player, replays in the lobby with the Cyclo view.
    with ann.expect_download() as info:
        ann.get_by_test_id("download-record").click()
    path = tmp_path / "cyclo.json"
    info.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["game"] == "cyclo" and record["moves"] == moves
    assert (
        record["players"]["A"]["name"] == "Ann"
        and record["options"]["course"]["name"] == "two-boards"
    )
    ann.goto(server.url + "/")
    ann.get_by_test_id("record-file").set_input_files(str(path))
    viewer = ann.get_by_test_id("record-viewer")
    expect(viewer).to_be_visible()
    expect(viewer.locator("[data-testid=board] [data-rider]")).to_have_count(8)
    viewer.get_by_test_id("replay-next-round").click()
    expect(viewer).to_have_attribute("data-replay-index", str(round2))
    assert board_riders(ann, "[data-testid=record-viewer]") == on_course(snaps[round2])
    viewer.get_by_test_id("replay-last").click()
    expect(viewer.get_by_test_id("winner")).to_have_attribute("data-team", result["winner_team"])
    listed = ann.locator(f'[data-testid="table-card"][data-table-id="{table_id}"]')
    expect(listed).to_have_attribute("data-game", "cyclo")
    expect(listed).to_contain_text("Cyclo The Game")
    assert ann.errors == []  # type: ignore[attr-defined]


def test_a_cyclo_table_is_created_from_the_lobby_with_its_options(
    server: Server, new_context
) -> None:
    page = open_page(new_context(), server.url + "/")
    page.get_by_test_id("game-select").select_option("cyclo")
    expect(page.get_by_test_id("create-form")).to_have_attribute("data-game", "cyclo")
    courses = page.get_by_test_id("course-select")
    expect(courses).to_have_value("")  # the mode's own course unless one is chosen
    expect(courses.locator('option[value="flemish-4"]')).to_contain_text("A1 C1 F2 E1 · 120 spaces")
    courses.select_option("italian-4")
    preview = page.get_by_test_id("course-preview")
    expect(preview).to_be_visible()
    expect(preview.locator("text")).to_have_text(["A1", "C2", "B2", "E1"])
    page.get_by_test_id("option-mode").select_option("leg")
    page.get_by_test_id("option-level").select_option("starter")
    page.get_by_test_id("option-events").select_option("true")
    page.get_by_test_id("team-count").select_option("3")
    expect(page.get_by_test_id("seat-kind")).to_have_count(3)
    page.locator('[data-testid="seat-kind"][data-seat="B"]').select_option("greedy")
    page.locator('[data-testid="seat-kind"][data-seat="C"]').select_option("random")
    page.get_by_test_id("creator-name").fill("Ada")  # the creator sits at seat A
    page.screenshot(path=artifact("lobby-cyclo-1280.png"), full_page=True)
    page.get_by_test_id("create-table").click()
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    detail = server.table(table_id)
    assert detail["game"] == "cyclo"
    options = detail["options"]
    assert {k: options[k] for k in ("mode", "level", "course", "events", "players")} == {
        "mode": "leg", "level": "starter", "course": "italian-4", "events": True, "players": 3,
    }  # fmt: skip
    assert [s["kind"] for s in detail["seats"]] == ["human", "greedy", "random"]
    expect(page.get_by_test_id("table-subtitle")).to_contain_text(
        "leg · Starter · course italian-4 · event cards"
    )
    # The board draws the whole course: every space, its lines and the run-out.
    expect(page.locator("[data-testid=board] .cy-space")).to_have_count(120 + 9)
    expect(page.locator('[data-testid=board] [data-line="mountain-46"]')).to_contain_text(
        "mountain 2"
    )
    expect(page.locator("[data-testid=board] [data-rider]")).to_have_count(12)
    expect(page.locator('[data-testid="legend"] [data-legend="climb"]')).to_contain_text(
        "climb (1 die, climber +1)"
    )
    expect(root(page)).to_have_attribute("data-seat", "A")  # seated by the create form
    expect(root(page)).to_have_attribute("data-my-turn", "true")
    expect(page.get_by_test_id("token-selector")).to_have_count(0)  # Starter: no tokens
    expect(page.locator("[data-testid=board] .legal")).to_have_count(1)  # nor holding back
    moves = root(page).get_attribute("data-moves")
    page.locator("[data-testid=board] .legal.full").click()
    expect(root(page)).not_to_have_attribute("data-moves", str(moves))
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_solo_game_is_a_time_trial_whose_riders_share_squares(
    server: Server, new_context
) -> None:
    page = open_page(new_context(390, 844), server.url + "/")
    page.get_by_test_id("game-select").select_option("cyclo")
    expect(page.get_by_test_id("solo")).to_be_visible()
    page.get_by_test_id("solo").check()
    expect(page.get_by_test_id("option-mode")).to_have_value("itt")  # the view's solo game
    expect(page.get_by_test_id("seat-kind")).to_have_count(1)
    page.get_by_test_id("solo").uncheck()
    expect(page.get_by_test_id("option-mode")).to_have_value("classic")
    page.get_by_test_id("solo").check()
    page.get_by_test_id("creator-name").fill("Solo")
    page.get_by_test_id("create-table").click()
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    detail = server.table(table_id)
    assert (detail["options"]["mode"], detail["solo"], len(detail["seats"])) == ("itt", True, 1)
    expect(root(page)).to_have_attribute("data-seat", "A")
    expect(page.get_by_test_id("solver")).to_be_hidden()  # Cyclo has no solo solver
    for _ in range(6):  # each rider rides alone: the four share squares, drawn smaller
        expect(root(page)).to_have_attribute("data-my-turn", "true")
        moves = root(page).get_attribute("data-moves")
        page.locator("[data-testid=board] .legal.full").click()
        expect(root(page)).not_to_have_attribute("data-moves", str(moves))
    snap = settle(server, table_id)
    expect(root(page)).to_have_attribute("data-moves", str(snap["moves_played"]))
    assert board_riders(page) == on_course(snap)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=artifact("cyclo-itt-390.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]


#: A leg of two boards with a sprint and a mountain line of category 3.
LEG = {
    "name": "leg-two",
    "boards": [
        {"name": "L1", "runs": [["start", 4, 4], ["flat", 8, 3], ["climb", 6, 2], ["top", 2, 3]], "lines": [[10, "sprint"], [18, "mountain", "3"]]},
        {"name": "L2", "runs": [["flat", 10, 3], ["lastkm", 10, 3]], "finish": True},
    ],
}  # fmt: skip


def test_a_leg_shows_its_line_lists_points_jerseys_and_times(server: Server, new_context) -> None:
    table_id = server.create(
        game="cyclo", options={"mode": "leg", "course": LEG}, seats=["greedy", "random"]
    )
    for _ in range(3000):  # polling for the bots to finish; not a timing assertion
        if server.table(table_id)["status"] == "finished":
            break
        time.sleep(0.02)
    else:
        raise AssertionError(f"bot table {table_id} did not finish")
    final = snapshot(server, table_id)
    result = final["result"]
    page = open_page(new_context(), f"{server.url}/table/{table_id}")
    expect(root(page)).to_have_attribute("data-phase", "over")
    lists = page.locator("[data-testid=line-lists] [data-line]")
    expect(lists).to_have_count(2)
    for line, listed in zip(lists.all(), final["lines"], strict=True):
        expect(line).to_contain_text(", ".join(listed))
    for rid, green in result["points"].items():
        row = page.locator(f'[data-testid="points"] tr[data-rider="{rid}"]')
        expect(row.locator("td").nth(1)).to_have_text(str(green))
        expect(row.locator("td").nth(2)).to_have_text(str(result["mountain"][rid]))
    top = max(result["points"].values())
    leaders = sorted(r for r, p in result["points"].items() if p == top)
    assert (
        sorted(
            page.locator('[data-testid="points"] tr:has(.cy-jersey.green)').evaluate_all(
                "rs => rs.map(r => r.dataset.rider)"
            )
        )
        == leaders
    )
    for rid, seconds in result["times"].items():
        expect(page.locator(f'[data-testid="places"] tr[data-rider="{rid}"]')).to_contain_text(
            f"{seconds} s"
        )
    expect(page.locator('[data-testid=board] [data-line="mountain-18"]')).to_contain_text(
        "mountain 3"
    )
    page.screenshot(path=artifact("cyclo-leg-1280.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]
