"""The Cyclo course builder in a real browser (/editor?game=cyclo): boards picked by
clicking and by dragging, the facts following (tokens CY-2.4, length CY-1.4), a
problem with its rule id when A1 is not first (CY-1.7), a bundled classic opened
(CY-1.5), a share link read off the page and opened elsewhere, a table created on the
course and played there; and a course built at phone size."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from peloton.games.cyclo import Course

from .conftest import Server, open_page
from .helpers import root


def placed(page: Page) -> list[str]:
    return [b.get_attribute("data-board") or "" for b in page.get_by_test_id("placed-board").all()]


def expect_placed(page: Page, boards: list[str]) -> None:
    expect(page.get_by_test_id("placed-board")).to_have_count(len(boards))
    for i, name in enumerate(boards):
        expect(page.get_by_test_id("placed-board").nth(i)).to_have_attribute("data-board", name)


def tray(page: Page, name: str):  # type: ignore[no-untyped-def]
    return page.locator(f'[data-testid=tray-board][data-board="{name}"]')


def expect_valid(page: Page) -> None:
    expect(page.get_by_test_id("check-state")).to_have_attribute("data-state", "valid")
    expect(page.get_by_test_id("problem")).to_have_count(0)


def test_build_a_course_click_and_drag_share_it_and_race_on_it_cy_1_4(
    server: Server, new_context
) -> None:
    ctx = new_context(1280, 900)
    page = open_page(ctx, f"{server.url}/editor?game=cyclo")
    expect(page.get_by_test_id("tray-board")).to_have_count(12)
    expect_placed(page, ["A1"])  # a new course starts from the start board
    expect(page.get_by_test_id("problem")).to_contain_text(["no finish line (CY-1.7; position 1)"])

    # Clicking appends; the course, its facts and its check follow.
    page.get_by_test_id("name").fill("my-classic")
    tray(page, "C2").click()
    tray(page, "E1").click()
    expect_placed(page, ["A1", "C2", "E1"])
    expect_valid(page)
    expect(page.get_by_test_id("fact-tokens")).to_contain_text("3 own a rider, 3 a team")
    expect(page.get_by_test_id("fact-length")).to_contain_text("90 spaces")
    expect(page.locator("[data-testid=course-strip] .cy-space")).to_have_count(90 + 9)

    # Dragging a tray board onto E1 puts it before E1.
    tray(page, "B1").drag_to(page.get_by_test_id("placed-board").nth(2))
    expect_placed(page, ["A1", "C2", "B1", "E1"])
    expect(page.get_by_test_id("fact-tokens")).to_contain_text("4 own a rider, 4 a team")
    expect(page.get_by_test_id("fact-lines")).to_contain_text(
        "mountain cat. 2 after 46, mountain cat. 1 after 80, finish after 120"
    )
    expect(page.locator('[data-testid=course-strip] [data-line="mountain-80"]')).to_have_count(1)
    expect(page.get_by_test_id("fact-modes")).to_contain_text("classic")

    # A1 dragged after C2: a problem citing its rule, on the board it is about.
    page.get_by_test_id("placed-board").nth(0).drag_to(page.get_by_test_id("placed-board").nth(2))
    expect_placed(page, ["C2", "A1", "B1", "E1"])
    problem = page.get_by_test_id("problem-text")
    expect(problem).to_have_text(
        ["course 'my-classic': board 'A1' has start spaces but is not first (CY-1.7; position 2)"]
    )
    expect(page.get_by_test_id("placed-board").nth(1)).to_have_class(re.compile("cb-bad"))
    page.get_by_test_id("show-board").click()  # the problem's board, brought into view
    expect(page.get_by_test_id("placed-board").nth(1).get_by_test_id("move-left")).to_be_focused()
    expect(page.get_by_test_id("play")).to_be_disabled()
    page.get_by_test_id("placed-board").nth(1).get_by_test_id("move-left").click()
    expect_placed(page, ["A1", "C2", "B1", "E1"])
    expect_valid(page)

    # The share link opens the same course in another page.
    link = page.get_by_test_id("share-link")
    expect(link).to_have_value(re.compile(r"/editor\?game=cyclo&course="))
    other = open_page(new_context(1280, 900), link.input_value())
    expect_placed(other, ["A1", "C2", "B1", "E1"])
    expect(other.get_by_test_id("name")).to_have_value("my-classic")
    # A link cut short opens nothing and says why.
    cut = open_page(new_context(1280, 900), link.input_value()[:-6])
    expect(cut.get_by_test_id("error")).to_contain_text("share link")

    # A table on this course: team A is ours, a bot rides B; the game runs on it.
    page.get_by_test_id("play-mode").select_option("classic")
    page.get_by_test_id("play-teams").select_option("2")
    page.get_by_test_id("play-name").fill("Builder")
    page.get_by_test_id("play").click()
    expect(page).to_have_url(re.compile(r"/table/"))
    expect(page.get_by_test_id("table-subtitle")).to_contain_text("course my-classic")
    expect(page.locator("[data-testid=board] .cy-space")).to_have_count(120 + 9)
    expect(page.locator('[data-testid=board] [data-line="mountain-80"]')).to_have_count(1)
    expect(root(page)).to_have_attribute("data-seat", "A")
    table_id = page.url.rstrip("/").split("/")[-1]
    detail = server.table(table_id)
    assert detail["status"] == "running"
    assert [s["kind"] for s in detail["seats"]] == ["human", "greedy"]
    assert not page.errors  # type: ignore[attr-defined]


def test_a_bundled_classic_opens_in_the_builder_cy_1_5(server: Server, new_context) -> None:
    page = open_page(new_context(1280, 900), f"{server.url}/editor?game=cyclo")
    expect(page.get_by_test_id("tray-board")).to_have_count(12)
    page.get_by_test_id("start-course").select_option("italian-5")
    page.get_by_test_id("start").click()
    expect_placed(page, ["A1", "D2", "C2", "B2", "E1"])
    expect(page.get_by_test_id("name")).to_have_value("italian-5")
    expect_valid(page)
    expect(page.get_by_test_id("fact-tokens")).to_contain_text("5 own a rider, 5 a team")
    expect(page.get_by_test_id("fact-length")).to_contain_text("150 spaces")
    expect(page.get_by_test_id("toml")).to_have_text(
        'name = "italian-5"\nboards = ["A1", "D2", "C2", "B2", "E1"]\n'
    )
    # A time trial's start: the time trials only.
    page.get_by_test_id("start-course").select_option("prologue")
    page.get_by_test_id("start").click()
    expect_placed(page, ["E1"])
    expect(page.get_by_test_id("start-space")).to_have_value("11")
    expect(page.get_by_test_id("fact-modes")).to_contain_text("individual time trial")
    expect(page.get_by_test_id("play-mode").locator("option")).to_have_count(2)
    assert not page.errors  # type: ignore[attr-defined]


def test_build_a_course_at_phone_size(server: Server, new_context) -> None:
    page = open_page(new_context(375, 740), f"{server.url}/editor?game=cyclo")
    expect(page.get_by_test_id("tray-board")).to_have_count(12)
    for name in ("C1", "F2", "E1"):
        tray(page, name).click()
    expect_placed(page, ["A1", "C1", "F2", "E1"])
    expect_valid(page)
    expect(page.get_by_test_id("fact-tokens")).to_contain_text("4 own a rider, 4 a team")
    page.get_by_test_id("placed-board").nth(1).get_by_test_id("remove").click()
    expect_placed(page, ["A1", "F2", "E1"])
    # Nothing sticks out of the phone's width.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, width
    assert not page.errors  # type: ignore[attr-defined]


def test_download_and_upload_and_bad_files_cy_1_4(
    server: Server, new_context, tmp_path: Path
) -> None:
    page = open_page(new_context(1280, 900), f"{server.url}/editor?game=cyclo")
    expect(page.get_by_test_id("tray-board")).to_have_count(12)
    page.get_by_test_id("name").fill("down-and-up")
    for name in ("A2", "E2"):
        tray(page, name).click()
    expect_valid(page)
    with page.expect_download() as toml_download:
        page.get_by_test_id("download-toml").click()
    saved = tmp_path / "course.toml"
    toml_download.value.save_as(saved)
    assert toml_download.value.suggested_filename == "down-and-up.toml"
    assert [b.name for b in Course.from_file(saved).boards] == ["A1", "A2", "E2"]
    with page.expect_download() as json_download:
        page.get_by_test_id("download-json").click()
    as_json = tmp_path / "course.json"
    json_download.value.save_as(as_json)
    assert json.loads(as_json.read_text()) == {"name": "down-and-up", "boards": ["A1", "A2", "E2"]}

    # A JSON file opens; a file that is not TOML opens nothing and says why.
    other = tmp_path / "tt.json"
    other.write_text(json.dumps({"name": "tt", "boards": ["E1"], "start": 11}))
    page.get_by_test_id("upload").set_input_files(str(other))
    expect_placed(page, ["E1"])
    expect(page.get_by_test_id("start-space")).to_have_value("11")
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\nboards = ["A1", ')
    page.get_by_test_id("upload").set_input_files(str(broken))
    expect(page.get_by_test_id("error")).to_contain_text("broken.toml could not be opened")
    expect_placed(page, ["E1"])  # nothing else opened
    huge = tmp_path / "huge.toml"
    huge.write_text("# " + "x" * 70_000)
    page.get_by_test_id("upload").set_input_files(str(huge))
    expect(page.get_by_test_id("error")).to_contain_text("over the 65536 a course file may have")
    expect_placed(page, ["E1"])
    assert not page.errors  # type: ignore[attr-defined]
