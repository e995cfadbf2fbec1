"""The course editor in a real browser: a course drawn on a blank road by clicking and
with the keyboard, checked live (problems appear and go), downloaded and read by the
engine, uploaded back, and raced on at a normal and a solo table (MC-1)."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from peloton.games.mindcycling import Course

from .conftest import Server, artifact, open_page


def problems(page: Page):  # type: ignore[no-untyped-def]
    return page.get_by_test_id("problem")


def use(page: Page, tool: str, *squares: str) -> None:
    page.get_by_test_id(f"tool-{tool}").click()
    for square in squares:
        page.locator(f'[data-testid=editor-board] [data-square="{square}"]').click()


def expect_valid(page: Page) -> None:
    expect(page.get_by_test_id("check-state")).to_have_attribute("data-state", "valid")
    expect(problems(page)).to_have_count(0)


def test_design_a_course_download_it_and_race_on_it_mc_1(
    server: Server, new_context, tmp_path: Path
) -> None:
    page = open_page(new_context(1280, 800), f"{server.url}/")
    page.get_by_test_id("editor-link").click()
    expect(page).to_have_url(f"{server.url}/editor?game=mind-cycling")

    # A blank road of 30 rows and 5 lanes: no tab yet, which the check says (MC-1.3).
    page.get_by_test_id("start-course").select_option("")
    page.get_by_test_id("start-rows").fill("30")
    page.get_by_test_id("start-lanes").fill("5")
    page.get_by_test_id("start").click()
    expect(page.locator("[data-testid=editor-board] [data-square]")).to_have_count(30 * 5 + 1)
    expect(page.get_by_test_id("problem-text")).to_have_text(
        ["there must be at least one section tab"]
    )
    expect(page.get_by_test_id("play")).to_be_disabled()

    # Sections by clicking: the problem goes as soon as the first tab is down.
    use(page, "plain", "a6")
    expect_valid(page)
    use(page, "sprint", "b12")
    use(page, "plain", "c17")
    use(page, "mountain", "d21")
    use(page, "feed", "c18")
    use(page, "rocks", "b23", "d25")
    use(page, "finish", "a28")  # the finish line just after row 28
    page.get_by_test_id("name").fill("Col de Test")
    expect(page.get_by_test_id("rows")).to_have_value("28")
    expect_valid(page)

    # A second sprint: its problem appears, points at nothing on the road, and goes
    # with an undo; redo brings it back, the eraser takes it away again.
    use(page, "sprint", "a19")
    expect(page.get_by_test_id("problem-text")).to_have_text(
        ["there are 2 sprint sections; at most one is allowed (one medal each)"]
    )
    expect(page.get_by_test_id("check-state")).to_have_text("1 problem(s)")
    page.get_by_test_id("undo").click()
    expect_valid(page)
    page.get_by_test_id("redo").click()
    expect(problems(page)).to_have_count(1)
    use(page, "erase", "e19")
    expect_valid(page)

    # The line under the road says what a click would do, and then what the keys would.
    page.get_by_test_id("tool-sprint").click()
    page.locator('[data-testid=editor-board] [data-square="c12"]').hover()
    expect(page.get_by_test_id("cursor")).to_contain_text(
        "c12 (row 12, lane c) · sprint section · sprint tab — click: take away the sprint tab"
    )

    # A walled-in square, drawn with the keyboard: the problem is marked on the board.
    board = page.get_by_test_id("editor-board")
    board.focus()
    page.keyboard.press("Home")
    for _ in range(4):
        page.keyboard.press("ArrowUp")  # lane a
    for _ in range(23):
        page.keyboard.press("ArrowRight")  # row 24
    expect(page.get_by_test_id("cursor")).to_contain_text("a24 (row 24, lane a)")
    page.keyboard.press("5")  # the rock tool
    page.keyboard.press("Enter")  # a24
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # b24: a23 is walled in (b23 is a rock too)
    expect(page.get_by_test_id("problem-text")).to_have_text(
        ["square a23 is walled in: no free square on row 24 one step ahead of it"]
    )
    problem = problems(page).first
    expect(problem).to_have_attribute("data-square", "a23")
    expect(page.get_by_test_id("problem-mark")).to_have_count(1)
    page.screenshot(path=artifact("editor-problem-1280.png"), full_page=True)
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+z")
    expect_valid(page)
    expect(page.get_by_test_id("problem-mark")).to_have_count(0)
    page.screenshot(path=artifact("editor-1280.png"), full_page=True)

    # The course file: what `peloton course check` reads, the course as drawn.
    with page.expect_download() as download:
        page.get_by_test_id("download").click()
    assert download.value.suggested_filename == "col-de-test.toml"
    path = tmp_path / "col-de-test.toml"
    download.value.save_as(path)
    drawn = Course(
        "Col de Test",
        5,
        29,
        ((6, "plain"), (12, "sprint"), (17, "plain"), (21, "mountain")),
        ("c18",),
        ("b23", "d25"),
    )
    assert Course.from_file(path) == drawn
    page.get_by_text("The course file (TOML)").click()
    expect(page.get_by_test_id("toml")).to_be_visible()
    assert page.get_by_test_id("toml").text_content() == path.read_text()

    # Back in the editor from another start, the file opens as it was downloaded.
    page.get_by_test_id("start-course").select_option("short")
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("name")).to_have_value("my short")
    page.get_by_test_id("upload").set_input_files(str(path))
    expect(page.get_by_test_id("notice")).to_have_text("Opened col-de-test.toml.")
    expect(page.get_by_test_id("name")).to_have_value("Col de Test")
    expect_valid(page)
    expect(page.get_by_test_id("rocks-list").locator("li")).to_have_count(2)

    # One click opens a table on it, with the lobby's defaults (one human, greedy bots).
    page.get_by_test_id("play-riders").select_option("3")
    page.get_by_test_id("play").click()
    expect(page).to_have_url(re.compile(r"/table/"))
    table = server.table(page.url.rsplit("/", 1)[1])
    assert table["course"] == "Col de Test"
    assert Course.from_dict(table["course_data"]) == drawn
    assert [s["kind"] for s in table["seats"]] == ["human", "greedy"]
    assert page.errors == []  # type: ignore[attr-defined]

    # The draft was kept: back to the editor, and a solo table on it (MC-9).
    page.goto(f"{server.url}/editor")
    expect(page.get_by_test_id("name")).to_have_value("Col de Test")
    expect_valid(page)
    page.get_by_test_id("play-solo").click()
    expect(page).to_have_url(re.compile(r"/table/"))
    solo = server.table(page.url.rsplit("/", 1)[1])
    assert solo["solo"] is True and solo["course"] == "Col de Test"
    # The solo table looks for its solver line on this course, as on any other.
    expect(page.get_by_test_id("solver")).to_have_attribute(
        "data-status", re.compile("running|done")
    )
    assert page.errors == []  # type: ignore[attr-defined]


def test_an_upload_that_is_not_a_course_is_refused_and_loses_nothing(
    server: Server, new_context, tmp_path: Path
) -> None:
    page = open_page(new_context(1280, 800), f"{server.url}/editor")
    page.get_by_test_id("start-course").select_option("standard")
    page.get_by_test_id("start").click()
    expect_valid(page)
    with page.expect_download() as download:
        page.keyboard.press("Control+s")
    assert download.value.suggested_filename == "my-standard.toml"
    download.value.save_as(tmp_path / "mine.toml")
    standard = Course.load("standard").to_dict()
    assert Course.from_file(tmp_path / "mine.toml").to_dict() == {**standard, "name": "my standard"}
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\nfinish = \n')
    page.get_by_test_id("upload").set_input_files(str(broken))
    expect(page.get_by_test_id("error")).to_contain_text("broken.toml cannot be opened")
    expect(page.get_by_test_id("error")).to_contain_text("not valid TOML")
    huge = tmp_path / "huge.toml"
    huge.write_text('finish = 100000\nsections = [[5, "plain"]]\n')
    page.get_by_test_id("upload").set_input_files(str(huge))
    expect(page.get_by_test_id("error")).to_contain_text(
        "'finish' is not a whole number from 2 to 200"
    )
    expect(page.get_by_test_id("name")).to_have_value("my standard")
    expect_valid(page)
    # A file with problems the editor can draw opens, its problems listed and placed.
    walls = tmp_path / "walls.toml"
    walls.write_text(
        'name = "walls"\nfinish = 20\nsections = [[4, "plain"]]\nrocks = ["a9", "b9", "c9", "d9", "e9"]\nrock = 1\n'
    )
    page.get_by_test_id("upload").set_input_files(str(walls))
    expect(page.get_by_test_id("notice")).to_contain_text("unknown key 'rock' left out")
    expect(problems(page).filter(has_text="row 9 is all rocks")).to_have_count(1)
    expect(page.get_by_test_id("play")).to_be_disabled()
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("name")).to_have_value("my standard")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_editor_on_a_phone(server: Server, new_context) -> None:
    page = open_page(new_context(390, 844), f"{server.url}/editor")
    page.get_by_test_id("start-course").select_option("short")
    page.get_by_test_id("start").click()
    expect_valid(page)
    use(page, "rocks", "c8")
    expect(page.get_by_test_id("rocks-list").locator("li")).to_have_count(1)
    # The page does not scroll sideways; the road scrolls in its frame.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    board = page.get_by_test_id("editor-board")
    assert board.evaluate("b => b.scrollWidth > b.clientWidth")
    for testid in ("tool-plain", "tool-erase", "download", "play", "play-solo"):
        box = page.get_by_test_id(testid).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, testid
    page.screenshot(path=artifact("editor-390.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_check_the_server_refuses_is_shown_and_tried_again(server: Server, new_context) -> None:
    """A client's checks are limited (docs/protocol.md, "Limits"): a check refused as
    busy says so, and is made again without another change."""
    page = open_page(new_context(1280, 800), f"{server.url}/editor")
    busy = {"error": {"code": "rate_limited", "message": "you have other checks in progress"}}
    page.route(
        "**/api/editor/check",
        lambda route: route.fulfill(status=429, json=busy),
    )
    page.get_by_test_id("start-course").select_option("standard")
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("check-state")).to_have_attribute("data-state", "failed")
    expect(page.get_by_test_id("problems")).to_contain_text("you have other checks in progress")
    page.unroute("**/api/editor/check")
    expect_valid(page)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_share_link_opens_the_course_elsewhere_and_a_changed_one_opens_nothing(
    server: Server, new_context
) -> None:
    """The course editor's share link (like Cyclo's and Pistard's builders') carries
    the course whole: another browser opens it as it was drawn; a link cut or changed
    by hand is named as such and the other browser's own draft stays."""
    page = open_page(new_context(1280, 800), f"{server.url}/editor")
    page.get_by_test_id("start-course").select_option("short")
    page.get_by_test_id("start").click()
    page.get_by_test_id("name").fill("Shared Col")
    expect_valid(page)
    page.get_by_test_id("share").click()
    link = page.get_by_test_id("share-link")
    expect(link).to_have_value(re.compile(r"/editor\?game=mind-cycling&course=[\w.%-]+$"))
    url = link.input_value()

    other = open_page(new_context(1280, 800), url)
    expect(other.get_by_test_id("name")).to_have_value("Shared Col")
    expect(other.get_by_test_id("notice")).to_contain_text("Opened the shared course")
    expect_valid(other)

    cut = open_page(new_context(1280, 800), url[:-3])
    expect(cut.get_by_test_id("error")).to_contain_text(
        "the shared course cannot be opened: the share link was changed or cut"
    )
    expect(cut.get_by_test_id("name")).not_to_have_value("Shared Col")
    for p in (page, other, cut):
        assert p.errors == []  # type: ignore[attr-defined]
