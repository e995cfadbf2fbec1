"""Replay: stepping a table's game move by move and round by round, downloading its
record, and replaying an uploaded record from the lobby."""

from __future__ import annotations

import json
import time

from playwright.sync_api import Page, expect

from .conftest import Server, artifact, open_page
from .helpers import replay_snapshots, root


def finished_bot_table(server: Server) -> str:
    table_id = server.create(course="short", riders=3, seats=["greedy", "random"])
    for _ in range(3000):  # polling for the bots to finish; not a timing assertion
        if server.table(table_id)["status"] == "finished":
            return table_id
        time.sleep(0.02)
    raise AssertionError(f"bot table {table_id} did not finish")


def board_riders(page: Page, where: str = "") -> dict[str, str]:
    return page.locator(f"{where} [data-testid=board] [data-rider]").evaluate_all(
        "gs => Object.fromEntries(gs.map(g => [g.dataset.rider, g.dataset.at]))"
    )


def on_road(snapshot: dict) -> dict[str, str]:
    return {r["id"]: r["square"] for r in snapshot["riders"] if r["square"] and not r["finished"]}


def test_replay_steps_moves_and_rounds(server: Server, new_context) -> None:
    table_id = finished_bot_table(server)
    replay = server.get(f"/api/tables/{table_id}/replay")
    moves, snaps = replay["moves"], replay_snapshots(replay)
    assert len(snaps) == len(moves) + 1
    page = open_page(new_context(), f"{server.url}/table/{table_id}")
    expect(root(page)).to_have_attribute("data-phase", "over")

    page.get_by_test_id("replay-toggle").click()
    r = root(page)
    expect(r).to_have_attribute("data-mode", "replay")
    # The replay opens where the log stands: after the last move.
    expect(r).to_have_attribute("data-replay-index", str(len(moves)))
    page.get_by_test_id("replay-first").click()
    expect(r).to_have_attribute("data-replay-index", "0")
    expect(page.get_by_test_id("replay-position")).to_contain_text(f"move 0 / {len(moves)}")
    expect(page.locator("[data-testid=board] [data-rider]")).to_have_count(0)

    page.get_by_test_id("replay-next").click()
    expect(r).to_have_attribute("data-replay-index", "1")
    rider, square = moves[0].split("@")
    expect(page.locator(f'[data-testid=board] [data-rider="{rider}"]')).to_have_attribute(
        "data-at", square
    )

    # Round by round: to the start of round 1, then of round 2, and back.
    start = {snap["round"]: i for i, snap in reversed(list(enumerate(snaps)))}
    page.get_by_test_id("replay-next-round").click()
    expect(r).to_have_attribute("data-replay-index", str(start[1]))
    assert board_riders(page) == on_road(snaps[start[1]])
    page.get_by_test_id("replay-next-round").click()
    expect(r).to_have_attribute("data-replay-index", str(start[2]))
    page.get_by_test_id("replay-next").click()
    page.get_by_test_id("replay-next").click()
    expect(r).to_have_attribute("data-replay-index", str(start[2] + 2))
    assert board_riders(page) == on_road(snaps[start[2] + 2])
    page.get_by_test_id("replay-prev").click()
    expect(r).to_have_attribute("data-replay-index", str(start[2] + 1))
    page.get_by_test_id("replay-prev-round").click()
    expect(r).to_have_attribute("data-replay-index", str(start[2]))
    page.get_by_test_id("replay-prev-round").click()
    expect(r).to_have_attribute("data-replay-index", str(start[1]))
    expect(page.locator('[data-testid="log-move"].current')).to_have_attribute(
        "data-move", moves[start[1] - 1]
    )

    # A click on a move of the log shows the position after it.
    page.locator('[data-testid="log-move"][data-index="4"]').click()
    expect(r).to_have_attribute("data-replay-index", "5")
    assert board_riders(page) == on_road(snaps[5])

    page.get_by_test_id("replay-last").click()
    expect(r).to_have_attribute("data-replay-index", str(len(moves)))
    expect(page.get_by_test_id("final")).to_be_visible()
    page.screenshot(path=artifact("replay-1280.png"), full_page=True)

    page.get_by_test_id("replay-toggle").click()
    expect(r).to_have_attribute("data-mode", "live")
    expect(page.get_by_test_id("replay-controls")).to_be_hidden()
    assert page.errors == []  # type: ignore[attr-defined]


def test_download_a_record_and_replay_it_from_the_lobby(
    server: Server, new_context, tmp_path
) -> None:
    table_id = finished_bot_table(server)
    page = open_page(new_context(), f"{server.url}/table/{table_id}")
    expect(root(page)).to_have_attribute("data-phase", "over")
    with page.expect_download() as info:
        page.get_by_test_id("download-record").click()
    path = tmp_path / "record.json"
    info.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["format"] == "peloton-record/1"
    expected = server.get(f"/api/tables/{table_id}/replay")
    assert record["moves"] == expected["moves"]
    expected["snapshots"] = replay_snapshots(expected)

    page.goto(server.url + "/")
    page.get_by_test_id("record-file").set_input_files(str(path))
    viewer = page.get_by_test_id("record-viewer")
    expect(viewer).to_be_visible()
    expect(viewer).to_have_attribute("data-replay-index", "0")
    expect(viewer.get_by_test_id("replay-position")).to_contain_text(f"/ {len(record['moves'])}")
    viewer.get_by_test_id("replay-next-round").click()
    first_race = next(i for i, s in enumerate(expected["snapshots"]) if s["round"] == 1)
    expect(viewer).to_have_attribute("data-replay-index", str(first_race))
    assert board_riders(page, "[data-testid=record-viewer]") == on_road(
        expected["snapshots"][first_race]
    )
    viewer.get_by_test_id("replay-last").click()
    expect(viewer.get_by_test_id("final")).to_be_visible()
    expect(viewer.get_by_test_id("trophy")).to_have_attribute(
        "data-team", expected["snapshots"][-1]["result"]["trophy"]
    )

    # A record with an illegal move: the server's message (with the move's index) is shown.
    bad = dict(record, moves=[*record["moves"][:3], "AD1-a40"])
    bad_path = tmp_path / "bad-record.json"
    bad_path.write_text(json.dumps(bad))
    page.get_by_test_id("record-file").set_input_files(str(bad_path))
    expect(page.get_by_test_id("error-message")).to_contain_text("3")
    expect(viewer).to_be_hidden()
    assert page.errors == []  # type: ignore[attr-defined]
