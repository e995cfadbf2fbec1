"""Pistard's controls come from the snapshot's ``legal_moves`` (issue 33, point 7): the
page offers each legal move by the parts the server gives (rider, die, path, end) and
never parses the notation (PI-5.2) itself.

The view (``/static/js/pistard.js``) is given real snapshots, built by the engine, whose
``legal`` (the notation) is emptied: every button and lit square it offers must then
come from ``legal_moves``. Three positions: the first move (PI-2.2, a die for each
rider), a ride with colour bonus squares (PI-3.4) and a rider with no free square
ahead (PI-3.3).
"""

from __future__ import annotations

from typing import Any

from peloton.games import pistard as pi

from .conftest import Server, open_page

#: Lane a yellow, b green, c blue, d red on every row: rider n's colour is lane n.
STRIPES = pi.Layout.from_dict({"name": "stripes", "rows": ["ygbr"] * 40})

#: Draws the view's controls for `snap`, as the seat to move, and reports what they
#: offer: each button's test id and move, and the squares lit for each die.
OFFERED = """async (snap) => {
    const { PistardView } = await import("/static/js/pistard.js");
    const view = new PistardView(document.createElement("div"));
    const box = document.createElement("div");
    const ctx = { seat: "A", myTurn: true, pending: false, send() {}, table: null, rerender() {}, hint() {} };
    view.controls(box, snap, ctx);
    const buttons = [...box.querySelectorAll("button")].map((b) => [b.dataset.testid, b.dataset.move || null, b.dataset.die || null]);
    const squares = {};
    for (const die of new Set(snap.legal_moves.filter((m) => m.kind === "ride").map((m) => m.die))) {
      view.die = die;
      squares[die] = Object.fromEntries([...view.targets(snap, true)].map(([sq, t]) => [sq, t.moves.map((m) => m.text)]));
    }
    const clicks = Object.fromEntries(Object.keys(squares[2] || {}).map((sq) => {
      view.die = 2;
      view.variants = null;
      return [sq, view.clickSquare(snap, sq)];
    }));
    return { buttons, squares, clicks };
}"""


def race_at(riders: str, *moves: str, bonus: str = "both") -> pi.State:
    """A round-2 position on the stripes (riders not named are out), then ``moves``."""
    named = dict(entry.split(":", 1) for entry in riders.split(","))
    entries = [f"{r}:{named.get(r, 'out')}" for r in (f"{t}{n}" for t in "AB" for n in range(1, 5))]
    state = pi.from_position(
        f"2 {','.join(entries)} / A=0,B=0 / - / -", layout=STRIPES, bonus=bonus
    )
    for move in moves:
        state.play(move)
    return state


def offered(server: Server, new_context: Any, state: pi.State) -> tuple[dict[str, Any], Any]:
    """A's snapshot with its notation emptied, and what the view offers from it."""
    snap = pi.snapshot(state, "A")
    assert snap["legal"] and len(snap["legal_moves"]) == len(snap["legal"])
    snap["legal"] = []
    page = open_page(new_context(), f"{server.url}/")
    return snap, page.evaluate(OFFERED, snap)


def test_the_first_move_offers_a_die_for_each_rider(server: Server, new_context: Any) -> None:
    """PI-2.2: a button for each die a rider may get, carrying that move."""
    state = pi.new_game(2)
    for move in ("roll:1,2,3,4", "roll:3,3,3,3"):
        state.play(move)
    snap, seen = offered(server, new_context, state)
    assigns = [[m["text"], str(m["die"])] for m in snap["legal_moves"] if m["kind"] == "assign"]
    assert len(assigns) == len(snap["legal_moves"]) == 16
    assert sorted([move, die] for testid, move, die in seen["buttons"]) == sorted(assigns)
    assert {testid for testid, _, _ in seen["buttons"]} == {"assign-button"}


def test_a_ride_lights_each_end_square_of_its_die(server: Server, new_context: Any) -> None:
    """PI-3.4: A1 (yellow) ending on yellow a12 may take a13 and a14 as bonus squares:
    each end square lit once, a click on it sends the ride that ends there."""
    snap, seen = offered(server, new_context, race_at("A1:1.b10,B1:1.a2", "roll:2"))
    rides = {m["end"]: m["text"] for m in snap["legal_moves"] if m["kind"] == "ride"}
    assert {"a12", "a13", "a14"} <= rides.keys()
    assert seen["squares"] == {"2": {end: [text] for end, text in rides.items()}}
    assert seen["clicks"] == rides
    assert ["die-button", None, "2"] in seen["buttons"]


def test_a_rider_with_no_free_square_uses_a_die_and_stays(server: Server, new_context: Any) -> None:
    """PI-3.3: squares b11, a11, c11 taken ahead of A1: a button for each die, each
    sending that die's stay."""
    state = race_at("A1:2.b10,A2:2.a3,B1:1.a11,B2:1.b11,B3:1.c11", "roll:2,6", bonus="none")
    snap, seen = offered(server, new_context, state)
    assert [m["kind"] for m in snap["legal_moves"]] == ["stay", "stay"]
    assert seen["buttons"] == [["stuck-button", "A1=2:-", "2"], ["stuck-button", "A1=6:-", "6"]]
    assert seen["squares"] == {}
