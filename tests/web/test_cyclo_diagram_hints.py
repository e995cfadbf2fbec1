"""The Cyclo board draws a rules diagram's highlight: every square (``b44``) and rider
(``AS1``) a diagram of the Cyclo rules page names is marked on the strip, drawn by the
board module the table uses (``cyclo_board.js``), in a real browser."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from peloton.games import cyclo as cy
from peloton.terminal.games import terminal_game

from .conftest import Server, artifact, open_page

PAGE = Path(__file__).resolve().parents[2] / "src" / "peloton" / "rulebook" / "cyclo.md"

#: Draw ``snap`` with ``hints`` into a new strip; answer the hints marked.
DRAW = """async ({ snap, hints, testid }) => {
    const { CycloBoard } = await import("/static/js/cyclo_board.js");
    const host = document.createElement("div");
    host.className = "board-scroll";
    host.dataset.testid = testid;
    document.body.append(host);
    const board = new CycloBoard(host, {});
    board.render(snap, { hints });
    board.focus(snap, hints);
    return [...host.querySelectorAll("[data-hint]")].map((node) => node.dataset.hint);
}"""


def diagrams() -> list[dict[str, Any]]:
    text = PAGE.read_text(encoding="utf-8")
    return [json.loads(body) for body in re.findall(r"^```diagram\n(.*?)^```$", text, re.S | re.M)]


def test_every_highlight_of_the_rules_page_is_marked(server: Server, new_context) -> None:
    page = open_page(new_context(), server.url + "/")
    drawn = diagrams()
    assert len(drawn) >= 6
    for n, data in enumerate(drawn):
        state = terminal_game("cyclo").from_position(data["position"], data.get("options", {}))
        snap = cy.snapshot(state) | {"legal": []}
        hints = data.get("highlight", [])
        marked = page.evaluate(DRAW, {"snap": snap, "hints": hints, "testid": f"diagram-{n}"})
        assert sorted(marked) == sorted(hints), data["caption"]
    wheel = next(n for n, d in enumerate(drawn) if d["position"].startswith("8 AH1:a54"))
    page.get_by_test_id(f"diagram-{wheel}").screenshot(path=artifact("cyclo-rules-wheel.png"))
    assert page.errors == []  # type: ignore[attr-defined]


def test_space_keys_squares_and_riders_are_marked_each_their_way(
    server: Server, new_context
) -> None:
    """A space key outlines the whole space (the table's last target); a square only
    its lane; a rider its piece; a finished rider or a square off the strip nothing."""
    page = open_page(new_context(), server.url + "/")
    state = cy.from_cyn("8 AH1:a54*4,BC1:a55*4 / A*4,B*4", course="flemish-4")
    snap = cy.snapshot(state) | {"legal": []}
    hints = ["57", "#3", "b54", "BC1", "z200"]
    marked = page.evaluate(DRAW, {"snap": snap, "hints": hints, "testid": "hints"})
    assert sorted(marked) == ["BC1", "b54"]
    host = page.get_by_test_id("hints")
    assert host.locator(".cy-space.hint").evaluate_all(
        "nodes => nodes.map((n) => n.dataset.square)"
    ) == ["57", "#3"]
    assert host.locator(".cy-hint-ring").count() == 1
    assert page.errors == []  # type: ignore[attr-defined]
