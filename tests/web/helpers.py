"""Playing a table in the browser by clicking, as a person would."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from playwright.sync_api import BrowserContext, FloatRect, Locator, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError
from websockets.sync.client import connect

from .conftest import Server


def root(page: Page) -> Locator:
    return page.get_by_test_id("table-root")


def box_in_view(locator: Locator) -> FloatRect:
    """``locator``'s box once scrolled into view. The table page draws its board and
    controls again with table messages: an element replaced while it was scrolled to
    is found again (a readiness poll, not a timing test)."""
    for _ in range(20):
        try:
            locator.scroll_into_view_if_needed()
            box = locator.bounding_box()
        except PlaywrightError as error:
            if "not attached" not in error.message:
                raise
            continue
        if box is not None:
            return box
    raise AssertionError(f"{locator} was replaced 20 times while scrolled into view")


class HeldAnswers:
    """The server's answers to the requests of ``ctx`` that match ``pattern``, held
    back: each is what the server answered when the page asked, and the page gets it
    only at :meth:`release` (a late answer, on purpose)."""

    def __init__(self, ctx: BrowserContext, pattern: str) -> None:
        self.ctx = ctx
        self.pattern = pattern
        self.held: list[tuple[Route, Any]] = []
        ctx.route(pattern, self._hold)

    def _hold(self, route: Route) -> None:
        self.held.append((route, route.fetch()))

    def release(self, page: Page) -> None:
        """Hand ``page`` every held answer, wait until its handlers have run, and let
        later requests through."""
        with page.expect_response(self.pattern) as answer:
            while self.held:
                route, response = self.held.pop()
                route.fulfill(response=response)
        answer.value.finished()
        page.wait_for_timeout(300)  # the late answer's handler has run by now
        self.ctx.unroute(self.pattern)


def join(page: Page, seat: str, name: str) -> None:
    """Take ``seat`` under ``name`` from the table page's join panel."""
    page.get_by_test_id("join-name").fill(name)
    page.locator(f'[data-testid="join-seat"][data-seat="{seat}"]').click()
    expect(root(page)).to_have_attribute("data-seat", seat)


def play_turn(page: Page, moves: int, used: Counter[str]) -> None:
    """Play one move on ``page`` (whose turn it is, ``moves`` moves into the game) by
    clicking: a rider and a lit square in setup; in the race the stay, give, relay,
    wheel or attack controls when one is chosen, else the furthest lit square."""
    r = root(page)
    expect(r).to_have_attribute("data-moves", str(moves))
    expect(r).to_have_attribute("data-my-turn", "true")
    turn = used.total()
    if r.get_attribute("data-phase") == "setup":
        riders = page.get_by_test_id("place-rider")
        riders.nth(turn % riders.count()).click()
        squares = page.locator("[data-square].legal.place")
        squares.nth((turn * 7) % squares.count()).click()
        used["place"] += 1
        return
    buttons = {
        kind: page.get_by_test_id(f"{kind}-button") for kind in ("stay", "give", "relay", "wheel")
    }
    if buttons["stay"].count():
        buttons["stay"].first.click()
        used["stay"] += 1
        return
    if buttons["give"].count() and turn % 3 == 0:
        buttons["give"].first.click()
        used["give"] += 1
        return
    if buttons["relay"].count() and turn % 2 == 0:
        buttons["relay"].first.click()
        used["relay"] += 1
        return
    if buttons["wheel"].count() and turn % 3 != 1:
        buttons["wheel"].first.click()
        used["wheel"] += 1
        return
    toggle = page.get_by_test_id("attack-toggle")
    if toggle.count() and turn % 2 == 1:
        toggle.click()
        squares = page.locator("[data-square].legal.attack")
        squares.last.click()
        used["attack"] += 1
        return
    squares = page.locator("[data-square].legal.move")
    if squares.count():
        squares.last.click()  # squares are drawn row by row: the last one is furthest
        used["square"] += 1
        return
    # Only controls remain (e.g. an attack, or a wheel we skipped): take the first.
    for kind in ("wheel", "relay", "give"):
        if buttons[kind].count():
            buttons[kind].first.click()
            used[kind] += 1
            return
    toggle.click()
    page.locator("[data-square].legal.attack").last.click()
    used["attack"] += 1


def play_to_the_end(
    server: Server,
    table_id: str,
    pages: dict[str, Page],
    until: Callable[[dict[str, Any]], bool] | None = None,
) -> Counter[str]:
    """Play every human seat's moves by clicking its page until the game is over (or
    ``until(snapshot)`` holds at a human's turn); the bots move by themselves on the
    server. Returns how often each control was used."""
    used: Counter[str] = Counter()
    for _ in range(20_000):
        snap = server.table(table_id)["snapshot"]
        if snap["phase"] == "over":
            return used
        if until is not None and snap["current_player"] in pages and until(snap):
            return used
        page = pages.get(snap["current_player"])
        if page is None:  # a bot is about to move: poll the server again
            time.sleep(0.02)
            continue
        n = snap["moves_played"]
        play_turn(page, n, used)
        expect(root(page)).not_to_have_attribute("data-moves", str(n))
    raise AssertionError(f"table {table_id} did not finish")


def replay_snapshots(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """Every snapshot of a replay answer (docs/protocol.md, "Replays"): each move's
    changes applied, in order, to a copy of the snapshot before it."""
    import copy

    snaps = [answer["snapshot"]]
    for changes in answer["changes"]:
        snap: Any = copy.deepcopy(snaps[-1])
        for change in changes:
            *parents, last = change[0] or [None]
            node = snap
            for key in parents:
                node = node[key]
            if last is None:
                snap = change[1]
            elif len(change) == 1:
                del node[last]
            elif isinstance(node, list) and last == len(node):
                node.append(change[1])
            else:
                node[last] = change[1]
        snaps.append(snap)
    return snaps


def play_over_socket(server: Server, table: str, token: str, move: str, index: int) -> None:
    """Play ``move`` over a WebSocket of its own, as that seat's player would."""
    url = server.url.replace("http://", "ws://") + f"/ws/tables/{table}"
    with connect(url, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while json.loads(ws.recv(timeout=30))["type"] != "welcome":
            pass
        ws.send(json.dumps({"type": "move", "move": move, "index": index}))
        while (answer := json.loads(ws.recv(timeout=30)))["type"] != "update":
            assert answer["type"] != "error", answer
