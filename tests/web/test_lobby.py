"""The lobby: the create form (bundled or uploaded course, seats, options, solo) and
the list of tables."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import Server, artifact, open_page
from .helpers import root

BAD_COURSE = """\
name = "broken"
lanes = 5
finish = 10
sections = [[12, "plain"], [3, "sprint"]]
feed = ["z99"]
"""

GOOD_COURSE = """\
name = "hillside"
lanes = 5
finish = 31
sections = [[5, "plain"], [12, "sprint"], [19, "mountain"]]
feed = ["c16"]
rocks = ["b24", "d27"]
"""


def upload(page, testid: str, name: str, text: str) -> None:
    page.get_by_test_id(testid).set_input_files(
        {"name": name, "mimeType": "text/plain", "buffer": text.encode()}
    )


def test_create_a_table_with_an_uploaded_course(server: Server, new_context) -> None:
    page = open_page(new_context(), server.url + "/")
    select = page.get_by_test_id("course-select")
    expect(select.locator("option")).to_have_count(len(server.get("/api/courses")["courses"]))
    expect(select).to_have_value("standard")

    # A broken course file: the server's problems are listed in the page.
    upload(page, "course-file", "broken.toml", BAD_COURSE)
    problems = server.post("/api/courses/check", {"text": BAD_COURSE, "format": "toml"})
    assert problems["ok"] is False
    shown = page.locator('[data-testid="course-problems"] li')
    expect(shown).to_have_count(len(problems["problems"]))
    for i, problem in enumerate(problems["problems"]):
        expect(shown.nth(i)).to_have_text(problem)
    expect(select).to_have_value("standard")  # the broken course is not offered

    # A good one is checked, offered and selected.
    upload(page, "course-file", "hillside.toml", GOOD_COURSE)
    expect(page.get_by_test_id("course-ok")).to_contain_text("hillside")
    expect(select).to_have_value("__uploaded__")
    page.screenshot(path=artifact("lobby-1280.png"), full_page=True)

    page.get_by_test_id("option-riders").select_option("3")
    page.get_by_test_id("option-wind").select_option("left")
    page.get_by_test_id("option-relay_limit").fill("2")
    page.get_by_test_id("team-count").select_option("2")
    expect(page.get_by_test_id("seat-kind")).to_have_count(2)
    page.locator('[data-testid="seat-kind"][data-seat="B"]').select_option("random")
    page.get_by_test_id("creator-seat").select_option("")  # the creator only watches
    page.get_by_test_id("create-table").click()

    page.wait_for_url("**/table/*")
    expect(root(page)).to_have_attribute("data-status", "open")
    table_id = page.url.rsplit("/", 1)[1]
    detail = server.table(table_id)
    assert detail["course_data"]["name"] == "hillside"
    assert detail["course_data"]["rocks"] == ["b24", "d27"]
    assert detail["wind"] == "left"
    assert detail["riders"] == 3
    assert detail["snapshot"]["relay_limit"] == 2
    assert [s["kind"] for s in detail["seats"]] == ["human", "random"]
    # The uploaded course is drawn: its rocks and its finish.
    expect(page.locator('[data-rock="b24"]')).to_have_count(1)
    expect(page.locator('[data-square="e30"]')).to_have_count(1)
    expect(page.locator('[data-square="a31"]')).to_have_count(0)
    expect(page.get_by_test_id("join-seat")).to_have_count(1)

    # Back in the lobby the new table is listed as open.
    page.goto(server.url + "/")
    card = page.locator(f'[data-testid="tables-open"] [data-table-id="{table_id}"]')
    expect(card).to_contain_text("Join")
    card.get_by_test_id("table-link").click()
    page.wait_for_url(f"**/table/{table_id}")
    assert page.errors == []  # type: ignore[attr-defined]


def test_create_problems_and_solo_challenge(server: Server, new_context) -> None:
    page = open_page(new_context(), server.url + "/")
    expect(page.get_by_test_id("course-select")).to_have_value("standard")
    # Seven teams of six do not fit the standard start zone: the server says so.
    page.get_by_test_id("team-count").select_option("7")
    page.get_by_test_id("creator-name").fill("Ada")
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("error")).to_be_visible()
    expect(page.get_by_test_id("error-message")).not_to_be_empty()
    assert "/table/" not in page.url

    # The solo challenge: one seat, the solo course; a greedy bot rides it to the end.
    page.get_by_test_id("solo").check()
    expect(page.get_by_test_id("course-select")).to_have_value("solo")
    expect(page.get_by_test_id("seat-kind")).to_have_count(1)
    expect(page.get_by_test_id("option-riders")).to_be_hidden()
    page.get_by_test_id("seat-kind").select_option("greedy")
    page.get_by_test_id("create-table").click()
    page.wait_for_url("**/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    expect(root(page)).to_have_attribute("data-phase", "over")
    result = server.table(table_id)["snapshot"]["result"]
    rounds = result["solo_score"][0]
    expect(page.get_by_test_id("solo-score")).to_contain_text(f"{rounds} rounds")
    expect(page.get_by_test_id("table-subtitle")).to_contain_text("solo")
    assert page.errors == []  # type: ignore[attr-defined]
