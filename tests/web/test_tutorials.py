"""Every lesson of every game in a real browser, at desktop and phone size (issue 34,
point 6): a learner who presses only what the page lights plays each lesson to its
end, and its last step opens the real table the lesson names with the learner in the
first seat. What only one game's lesson shows is in its own test (test_tutorial.py,
test_tutorial_pistard.py, test_tutorial_cyclo.py)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from .conftest import Server, artifact, open_page
from .lessons import lesson, play_lesson

SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


def every_lesson(server: Server) -> list[tuple[str, str, str]]:
    """(game, lesson, title) of every lesson the server offers."""
    found = []
    for game in httpx.get(f"{server.url}/api/games").json()["games"]:
        if game["tutorial"]:
            overview = httpx.get(f"{server.url}/api/tutorial", params={"game": game["name"]})
            found += [(game["name"], x["id"], game["title"]) for x in overview.json()["lessons"]]
    return found


@pytest.mark.parametrize("size", SIZES)
def test_every_lesson_is_played_to_its_real_table(
    server: Server, new_context: Any, size: str
) -> None:
    lessons = every_lesson(server)
    assert {game for game, _, _ in lessons} == {"cyclo", "mind-cycling", "mind-twist", "pistard"}
    width, height = SIZES[size]
    for game, name, title in lessons:
        page = open_page(
            new_context(width, height), f"{server.url}/tutorial?game={game}&lesson={name}"
        )
        expect(page.get_by_test_id("game-title")).to_have_text(f"Learn {title}")
        steps, presses, moves = play_lesson(page)
        assert presses >= moves >= steps - 1, (game, name)  # a closing step may ask none
        expect(lesson(page)).to_have_attribute("data-finished", "true")
        if size == "phone":
            # Nothing wider than the phone: the board scrolls inside its own box.
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (game, name)
        page.screenshot(path=artifact(f"tutorial-{game}-{name}-end-{width}.png"))
        page.get_by_test_id("play-real").click()
        expect(page).to_have_url(re.compile(r"/table/[^/#]+$"))
        table = server.table(page.url.rsplit("/", 1)[1])
        seats = table["seats"]
        assert seats[0]["kind"] == "human" and all(s["kind"] != "human" for s in seats[1:])
        assert table["game"] == game
        assert page.errors == []  # type: ignore[attr-defined]
        page.close()
