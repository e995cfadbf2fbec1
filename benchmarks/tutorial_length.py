"""How long each game's lesson is, measured by playing it: a real ``peloton serve``
(SQLite in a temporary directory), Debian's Chromium driven by Playwright, and each
lesson of each game played from its first step to its last by pressing only what the
tutorial page lights (tests/web/lessons.py), with the page's own pace (the replies and
the dice shown one by one), as a newcomer sees it.

    .venv/bin/python benchmarks/tutorial_length.py [--game pistard]

Prints per lesson: its steps, the learner's moves, the presses they took (a die or a
token chosen first is a press), the words of its texts, the time the page took to play
it (the server's checks and the replies' pace, no reading), and an estimate of a
newcomer's time: that play time, plus reading every text at 200 words a minute, plus
5 s to find each press.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import httpx

from _browser import served_browser

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.web.lessons import play_lesson

READING_WPM = 200
SECONDS_A_PRESS = 5


def lessons(url: str, only: str | None) -> list[tuple[str, str, int]]:
    """(game, lesson, words of its texts) of every lesson the server offers."""
    found = []
    for game in httpx.get(f"{url}/api/games").json()["games"]:
        if not game["tutorial"] or (only and game["name"] != only):
            continue
        params = {"game": game["name"]}
        for entry in httpx.get(f"{url}/api/tutorial", params=params).json()["lessons"]:
            params["lesson"] = entry["id"]
            count = len(httpx.get(f"{url}/api/tutorial", params=params).json()["steps"])
            words = 0
            for n in range(1, count + 1):
                step = httpx.get(f"{url}/api/tutorial/steps/{n}", params=params).json()
                words += len(f"{step['text']} {step['after']}".split())
            found.append((game["name"], entry["id"], words))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", help="only this game's lessons")
    args = parser.parse_args()
    rows = []
    with served_browser() as (url, browser):
        for game, name, words in lessons(url, args.game):
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            page.goto(f"{url}/tutorial?game={game}&lesson={name}")
            began = time.perf_counter()
            steps, presses, moves = play_lesson(page)
            played = time.perf_counter() - began
            page.context.close()
            estimate = played + 60 * words / READING_WPM + SECONDS_A_PRESS * presses
            rows.append((f"{game} / {name}", steps, moves, presses, words, played, estimate))
    print(f"{'lesson':<24} steps moves presses words  played  newcomer (estimate)")
    for label, steps, moves, presses, words, played, estimate in rows:
        print(
            f"{label:<24} {steps:5} {moves:5} {presses:7} {words:5} {played:6.1f} s"
            f"  {estimate / 60:4.1f} min"
        )


if __name__ == "__main__":
    main()
