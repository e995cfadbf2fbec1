"""Cyclo's track events in a real browser: the velodrome drawn as a loop (CY-1.6) from
each table's snapshot, raced by clicking against bots. A points race created from the
lobby is raced to the end (its sprints paying every lap, CY-11.2); a keirin shows its
pacer and the rides it caps (CY-11.4, CY-18.9); a team pursuit shows its riders' and
teams' times (CY-10.2, CY-11.3). The loop and the ride's controls share a 1280×800
screen and fit a 390×844 phone.

The dice come from each table's secret seed, so the tests read what each step offers
and click it, as a player would."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Locator, Page, expect

from .conftest import Server, artifact, open_page
from .helpers import box_in_view, join, replay_snapshots, root


def my_turn(server: Server, table: str, page: Page) -> dict[str, Any]:
    """The snapshot once seat A is to act or the race is over (polling while the bots
    and dice move; not a timing assertion), with the page showing it."""
    for _ in range(5000):
        snap = server.table(table)["snapshot"]
        if snap["is_over"] or (snap["current_player"] == "A" and not snap["is_chance"]):
            expect(root(page)).to_have_attribute("data-moves", str(snap["moves_played"]))
            if not snap["is_over"]:
                expect(root(page)).to_have_attribute("data-my-turn", "true")
            return dict(snap)
        time.sleep(0.02)
    raise AssertionError(f"table {table} is stuck")


def lit(page: Page) -> Locator:
    return page.locator("[data-testid=board] [data-square].legal")


def play_step(page: Page, snap: dict[str, Any], turn: int, *, wheel: bool = True) -> None:
    """Play seat A's step by clicking: ride on from a swap window, decline a swap,
    take a wheel (or decline it), and ride to a lit space of the loop (the full ride,
    or holding back to the nearest every third turn)."""
    phase = snap["phase"]
    if phase == "swap":
        page.get_by_test_id("ride-on-button").click()
    elif phase == "answer":
        page.get_by_test_id("decline-swap").click()
    elif phase == "wheel":
        page.get_by_test_id("wheel-follow" if wheel else "wheel-decline").click()
    elif phase == "ride":
        expect(page.get_by_test_id("board-dice")).to_have_attribute(
            "data-dice", ",".join(map(str, snap["dice"]))
        )
        spaces = page.locator("[data-testid=board] .vd-space.legal")
        target = spaces.first if turn % 3 == 2 else page.locator("[data-testid=board] .legal.full")
        target.click()
    else:
        raise AssertionError(f"unexpected phase {phase}")
    expect(root(page)).not_to_have_attribute("data-moves", str(snap["moves_played"]))


def race_to_the_end(server: Server, table: str, page: Page, check=None) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """Click seat A's steps until the race is over; ``check(snap)`` at each of them."""
    for turn in range(400):
        snap = my_turn(server, table, page)
        if snap["is_over"]:
            return snap
        if check is not None:
            check(snap)
        play_step(page, snap, turn)
    raise AssertionError("the race did not end")


def riders_on_loop(page: Page) -> dict[str, list[str]]:
    """Rider -> (loop space, laps ridden) as drawn."""
    return page.locator("[data-testid=board] .vd-rider").evaluate_all(
        "gs => Object.fromEntries(gs.map(g => [g.dataset.rider, [g.dataset.space, g.dataset.laps]]))"
    )


def inside(locator: Locator, width: int, height: int) -> None:
    """Every element of ``locator`` lies wholly in the ``width``×``height`` viewport."""
    assert locator.count() > 0
    for i in range(locator.count()):
        box = locator.nth(i).bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["y"] >= 0, box
        assert box["x"] + box["width"] <= width + 0.5, box
        assert box["y"] + box["height"] <= height + 0.5, box


def test_a_points_race_from_the_lobby_is_raced_with_bots_to_the_end(
    server: Server, new_context: Any
) -> None:
    page = open_page(new_context(1280, 800), server.url + "/")
    page.get_by_test_id("game-select").select_option("cyclo")
    mode = page.get_by_test_id("option-mode")
    count = page.get_by_test_id("team-count")
    # Each mode seats its own number of teams (CY-2.1): a sprint heat two.
    mode.select_option("sprint")
    expect(count.locator("option")).to_have_text(["2"])
    mode.select_option("team-pursuit")
    expect(count.locator("option")).to_have_text(["2"])  # 1 is the solo game
    # A track event races on the velodrome: the road's courses are not offered.
    courses = page.get_by_test_id("course-select")
    expect(courses.locator('option[value="flemish-4"]')).to_be_disabled()  # a team pursuit's
    mode.select_option("classic")
    expect(page.get_by_test_id("option-entries")).to_be_hidden()  # a road team has 4 riders
    expect(page.get_by_test_id("option-events")).to_be_visible()
    courses.select_option("flemish-4")
    mode.select_option("points")
    expect(count.locator("option")).to_have_text(["2", "3", "4", "5", "6"])
    expect(courses).to_have_value("")  # back to the mode's own course
    expect(courses.locator('option[value="flemish-4"]')).to_be_disabled()
    expect(courses.locator('option[value="velodrome"]')).to_be_enabled()
    expect(courses.locator('option[value="velodrome"]')).to_contain_text("20 spaces a lap")
    expect(page.get_by_test_id("option-entries")).to_have_value("1")
    expect(page.get_by_test_id("option-entries")).to_be_visible()  # 1 or 2 riders a team
    expect(page.get_by_test_id("option-events")).to_be_hidden()  # no cards on the track
    count.select_option("3")
    for seat in "BC":
        page.locator(f'[data-testid="seat-kind"][data-seat="{seat}"]').select_option("greedy")
    page.get_by_test_id("creator-name").fill("Ada")
    page.get_by_test_id("create-table").click()
    page.wait_for_url("**/table/*")
    table = page.url.rsplit("/", 1)[1]
    detail = server.table(table)
    assert (detail["options"]["mode"], detail["options"]["players"]) == ("points", 3)
    expect(page.get_by_test_id("table-subtitle")).to_contain_text("points race · Pro")

    # The loop: 20 spaces of 4 lanes, the start/finish line, the first sprint's mark.
    board = page.get_by_test_id("board")
    expect(board).to_have_attribute("data-distance", "120")
    expect(board.locator(".vd-space[data-space]")).to_have_count(20)
    expect(board.locator('.vd-space[data-space="7"] .vd-lane')).to_have_count(4)
    expect(board.locator('[data-line="sprint-20"]')).to_contain_text("sprint 1/5")
    expect(page.get_by_test_id("laps-to-go")).to_have_text("6 laps to go")
    expect(page.get_by_test_id("next-line")).to_have_text("next: sprint 1 (lap 1)")
    expect(page.get_by_test_id("legend")).to_contain_text("sprint line")
    seen: dict[str, int] = {"shot": 0, "lapped": 0, "listed": 0}

    def check(snap: dict[str, Any]) -> None:
        drawn = riders_on_loop(page)
        for r in snap["riders"]:
            d = r["position"]
            if d is not None and 1 <= d <= 120:
                assert drawn[r["id"]] == [str((d - 1) % 20 + 1), str(d // 20)], r
                seen["lapped"] += d >= 20
        points = page.get_by_test_id("track-points")
        for r in snap["riders"]:
            expect(points.locator(f'tr[data-rider="{r["id"]}"] td').last).to_have_text(
                str(r["points"])
            )
        crossed = snap["track"]["lines"][0]["list"]
        if crossed:
            seen["listed"] += 1
            expect(page.locator('[data-line="sprint-20"]').last).to_contain_text(crossed[0])
        if snap["phase"] == "ride" and not seen["shot"]:
            page.screenshot(path=artifact("cyclo-points-race-1280.png"))
            inside(board, 1280, 800)
            inside(lit(page), 1280, 800)
            seen["shot"] += 1

    final = race_to_the_end(server, table, page, check)
    assert seen["shot"] and seen["lapped"] and seen["listed"]
    result = final["result"]
    expect(page.get_by_test_id("laps-to-go")).to_have_text("race over")
    # Everyone has finished: the loop's side lists them by place; the panel ranks by points.
    expect(board.locator("[data-listed=finished]")).to_have_count(3)
    expect(board.locator("[data-listed=finished] .vd-list-text")).to_have_text(
        [f"{i}. {f['rider']}" for i, f in enumerate(final["finish"], start=1)]
    )
    expect(page.get_by_test_id("places").locator("tbody tr")).to_have_count(3)
    assert result["places"][0] == result["winner"]
    page.screenshot(path=artifact("cyclo-points-race-over-1280.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_keirin_shows_its_pacer_until_it_leaves(server: Server, new_context: Any) -> None:
    table = server.create(
        game="cyclo", options={"mode": "keirin", "players": 3}, seats=["human", "greedy", "greedy"]
    )
    page = open_page(new_context(1280, 800), f"{server.url}/table/{table}")
    join(page, "A", "Kei")
    board = page.get_by_test_id("board")
    pacers: list[int] = []
    for turn in range(60):
        snap = my_turn(server, table, page)
        if snap["is_over"] or snap["round"] >= 3:
            break
        pacer = snap["track"]["pacer"]
        assert pacer is not None  # CY-11.4: with a lap of 20 it leads rounds 1 and 2
        expect(board).to_have_attribute("data-pacer", str(pacer["distance"]))
        expect(page.get_by_test_id("pacer")).to_have_attribute("data-space", str(pacer["loop"]))
        if snap["phase"] == "ride":
            # No ride reaches the pacer, and no token is spent while it rides.
            targets = lit(page).evaluate_all("gs => gs.map(g => g.dataset.square)")
            assert targets and all(int(t) < pacer["distance"] for t in targets), targets
            expect(page.locator('[data-testid="token-button"]:not([disabled])')).to_have_count(1)
            if pacer["distance"] not in pacers:
                pacers.append(pacer["distance"])
                page.screenshot(path=artifact(f"cyclo-keirin-pacer-{pacer['distance']}-1280.png"))
        play_step(page, snap, turn, wheel=False)  # AS1 rides every round
    assert pacers == [7, 14]
    snap = my_turn(server, table, page)
    if not snap["is_over"]:
        assert snap["round"] >= 3
    # Gone for good: no pacer drawn, none in the legend's snapshot.
    expect(page.get_by_test_id("pacer")).to_have_count(0)
    expect(board).to_have_attribute("data-pacer", "")
    expect(page.get_by_test_id("legend")).to_contain_text("keirin pacer")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_team_pursuit_shows_its_times(server: Server, new_context: Any) -> None:
    table = server.create(
        game="cyclo", options={"mode": "team-pursuit", "players": 2}, seats=["human", "greedy"]
    )
    page = open_page(new_context(1280, 800), f"{server.url}/table/{table}")
    join(page, "A", "Pia")
    board = page.get_by_test_id("board")
    expect(board.locator(".vd-rider")).to_have_count(8)

    def check(snap: dict[str, Any]) -> None:
        times = page.get_by_test_id("times")
        for f in snap["finish"]:  # CY-10.2: 10 a round, less the spaces past the line
            expect(times.locator(f'tr[data-rider="{f["rider"]}"] td').last).to_have_text(
                f"{10 * f['round'] - f['past']} s"
            )

    final = race_to_the_end(server, table, page, check)
    team_times = final["result"]["team_times"]
    assert set(team_times) == {"A", "B"}
    for team, seconds in team_times.items():  # CY-11.3: the third rider's time
        expect(page.locator(f'[data-testid=team-times] [data-team="{team}"]')).to_contain_text(
            f"{seconds} s"
        )
    expect(board.locator("[data-listed=finished]")).to_have_count(8)
    page.screenshot(path=artifact("cyclo-team-pursuit-times-1280.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]

    # A spectator replays it round by round: the loop follows the server's positions.
    watcher = open_page(new_context(1280, 800), f"{server.url}/table/{table}")
    snaps = replay_snapshots(server.get(f"/api/tables/{table}/replay"))
    watcher.get_by_test_id("replay-toggle").click()
    expect(root(watcher)).to_have_attribute("data-mode", "replay")
    watcher.get_by_test_id("replay-first").click()
    expect(root(watcher)).to_have_attribute("data-replay-index", "0")
    for round_ in (2, 3):
        watcher.get_by_test_id("replay-next-round").click()
        index = next(i for i, s in enumerate(snaps) if s["round"] == round_)
        expect(root(watcher)).to_have_attribute("data-replay-index", str(index))
        drawn = riders_on_loop(watcher)
        for r in snaps[index]["riders"]:
            d = r["position"]
            if d is not None and 1 <= d <= 40:
                assert drawn[r["id"]] == [str((d - 1) % 20 + 1), str(d // 20)], (round_, r)
    assert watcher.errors == []  # type: ignore[attr-defined]


def test_the_loop_fits_a_phone(server: Server, new_context: Any) -> None:
    table = server.create(
        game="cyclo",
        options={"mode": "elimination", "players": 3},
        seats=["human", "greedy", "greedy"],
    )
    page = open_page(new_context(390, 844), f"{server.url}/table/{table}")
    join(page, "A", "Eli")
    snap = my_turn(server, table, page)
    board = page.get_by_test_id("board")
    box = board.bounding_box()
    assert box is not None
    # The upright loop fits the width and the screen's height, all of it in view at once.
    assert 300 < box["width"] <= 390 and box["height"] <= 844 - 60, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    expect(board.locator('[data-line="elimination-10"]')).to_have_count(1)
    # CY-11.5: on the line the rearmost is the one in the highest lane: the first line
    # would put it out; the board rings it and the panel names it.
    last = max(snap["riders"], key=lambda r: r["lane"])["id"]
    expect(page.get_by_test_id("at-risk")).to_have_attribute("data-rider", last)
    expect(board.locator(f'.vd-rider.at-risk[data-rider="{last}"]')).to_have_count(1)
    for _ in range(10):
        if snap["phase"] == "ride":
            break
        play_step(page, snap, 0)
        snap = my_turn(server, table, page)
    assert snap["phase"] == "ride"
    button = page.get_by_test_id("ride-full")
    tap = box_in_view(button)
    assert tap["height"] >= 24 and tap["x"] + tap["width"] <= 390
    page.screenshot(path=artifact("cyclo-elimination-phone-390.png"), full_page=True)
    button.click()
    expect(root(page)).not_to_have_attribute("data-moves", str(snap["moves_played"]))
    assert page.errors == []  # type: ignore[attr-defined]
