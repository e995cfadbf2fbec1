"""Updates as deltas in the browser (docs/protocol.md, "Deltas"): the page's
``applyDelta`` (web/js/delta.js) gives what the server's ``diff`` was made from, on
random JSON values and on real games' snapshots; and a page that misses an update
cannot apply the next one, so it connects again and gets the whole state in a
``welcome``."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

from playwright.sync_api import WebSocketRoute, expect

from peloton.core.rng import Rng
from peloton.server.deltas import diff
from peloton.server.games import spec

from .conftest import Server, artifact, open_page
from .helpers import play_over_socket, root


def random_json(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value: scalars, and lists and objects up to four deep."""
    kind = rng.randrange(8 if depth < 4 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.randint(-1000, 1000)
    if kind == 3:
        return rng.choice(["", "a", "b", "dial:?", "AD1-c8", "é"])
    if kind == 4:
        return rng.uniform(-10, 10)
    if kind in (5, 6):
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(5))]
    keys = ["a", "b", "c", "legal", "0", ""]
    return {k: random_json(rng, depth + 1) for k in rng.sample(keys, rng.randrange(5))}


def mutated(rng: random.Random, value: Any) -> Any:
    """``value`` with some of its parts changed, added or removed (as a move does)."""
    if isinstance(value, dict):
        out = {k: mutated(rng, v) if rng.random() < 0.5 else v for k, v in value.items()}
        if out and rng.random() < 0.2:
            del out[rng.choice(list(out))]
        if rng.random() < 0.2:
            out[rng.choice(["x", "y", "a"])] = random_json(rng, 3)
        return out
    if isinstance(value, list):
        out_list = [mutated(rng, v) if rng.random() < 0.3 else v for v in value]
        if rng.random() < 0.3:
            out_list.append(random_json(rng, 3))
        elif out_list and rng.random() < 0.2:
            out_list.pop()
        return out_list
    return random_json(rng, 3) if rng.random() < 0.5 else value


def game_pairs(game: str, seed: int, viewer: str | None) -> list[tuple[Any, Any]]:
    """Each two consecutive snapshots of a random game, as ``viewer`` sees them."""
    game_spec = spec(game)
    state = game_spec.new_state(game_spec.defaults(), seed)
    chance, pick = Rng(seed), random.Random(seed)
    snaps = [game_spec.snapshot(state, viewer)]
    for _ in range(400):
        if state.is_over:
            break
        if state.is_chance:
            state.play(state.chance_move(chance))
        else:
            moves = list(state.legal_moves())
            state.play(moves[pick.randrange(len(moves))])
        snaps.append(game_spec.snapshot(state, viewer))
    return list(pairwise(snaps))


def test_the_pages_apply_delta_gives_what_the_server_diffed(
    server: Server, new_context: Any
) -> None:
    rng = random.Random(19)
    pairs: list[tuple[Any, Any]] = []
    for _ in range(400):
        before = random_json(rng)
        pairs.append((before, mutated(rng, before)))
        pairs.append((random_json(rng), random_json(rng)))
    for game, viewer in [
        ("mind-cycling", None),
        ("mind-twist", "B"),
        ("pistard", "A"),
        ("cyclo", None),
    ]:
        pairs += game_pairs(game, 7, viewer)[:150]
    cases = [[a, diff(a, b), b] for a, b in pairs]
    page = open_page(new_context(), f"{server.url}/")
    wrong = page.evaluate(
        """async (cases) => {
            const { applyDelta } = await import("/static/js/delta.js");
            // Equal as JSON values (an object's keys in any order: a browser puts
            // integer-like keys first).
            const same = (a, b) => {
              if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
              if (Array.isArray(a) !== Array.isArray(b)) return false;
              const ka = Object.keys(a), kb = Object.keys(b);
              return ka.length === kb.length && ka.every((k) => k in b && same(a[k], b[k]));
            };
            const wrong = [];
            cases.forEach(([before, changes, after], i) => {
              const kept = structuredClone(before);
              const got = applyDelta(before, changes);
              if (!same(got, after) || !same(before, kept)) wrong.push(i);
            });
            return wrong;
        }""",
        cases,
    )
    assert wrong == [], [cases[i] for i in wrong[:3]]
    # A delta that does not fit is refused, not misapplied.
    refused = page.evaluate(
        """async () => {
            const { applyDelta, DeltaError } = await import("/static/js/delta.js");
            const tries = [[[["riders", 5, "square"], "a1"]], [[["gone"]]], [[["round", "x"], 1]]];
            return tries.map((changes) => {
              try { applyDelta({ riders: [], round: 2 }, changes); return "applied"; }
              catch (e) { return e instanceof DeltaError ? "refused" : String(e); }
            });
        }"""
    )
    assert refused == ["refused"] * 3
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_page_that_misses_an_update_connects_again_for_the_whole_state(
    server: Server, new_context: Any
) -> None:
    """The first update the page's first connection brings is lost on the way: the
    next one does not follow what the page has, so the page asks again (a new
    connection, whose ``welcome`` is the whole state) and shows both moves."""
    table = server.create(game="mind-twist", seats=["human", "human"])
    tokens = {
        s: server.post(f"/api/tables/{table}/join", {"seat": s, "name": s})["token"] for s in "RB"
    }
    lost: list[str] = []

    def route(ws: WebSocketRoute) -> None:
        first = not hasattr(route, "seen")
        route.seen = True  # type: ignore[attr-defined]
        upstream = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            text = message if isinstance(message, str) else message.decode()
            if first and not lost and text.startswith('{"type":"update"'):
                lost.append(text)  # never reaches the page
                return
            ws.send(message)

        upstream.on_message(down)
        ws.on_message(upstream.send)

    ctx = new_context()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route_web_socket("**/ws/tables/*", route)
    page.goto(f"{server.url}/table/{table}")
    r = root(page)
    expect(r).to_have_attribute("data-welcomes", "1")
    expect(r).to_have_attribute("data-moves", "0")

    play_over_socket(server, table, tokens["R"], "dial:2", 0)
    play_over_socket(server, table, tokens["B"], "guess:1", 1)
    expect(r).to_have_attribute("data-resyncs", "1")
    expect(r).to_have_attribute("data-welcomes", "2")
    expect(r).to_have_attribute("data-moves", "2")
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "live")
    assert len(lost) == 1 and '"index":0' in lost[0]
    # The page shows what the server has: both moves in its log, the dial hidden.
    detail = server.table(table)
    assert detail["moves"] == 2
    page.screenshot(path=artifact("delta-resync.png"))
    assert errors == []
