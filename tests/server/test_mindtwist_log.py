"""Issue 32, point 12: a Mind Twist move log says the outcome of every guess and pass
to every viewer once the rules have resolved it (MT-2.2), in the live ``update`` and
in the replay the table page reads its log from, while a dial stays secret until the
rules reveal it (MT-4.1): a dial is said without its amount to whoever has not seen it.

The guesser's log said "Blue guesses 1" where the dialler's said "Blue guesses 1:
right, Red stays on 0": the sentence was built from the guesser's view before the
guess, which has no dial, so it could not say how the guess came out."""

from __future__ import annotations

from typing import Any

import httpx

from .helpers import WS, Server, create, join

#: A table of two people, red dials first.
TWIST = {"game": "mind-twist", "options": {"length": 12, "milestones": [4, 8]}}
RIGHT = "Blue guesses 1: right, Red stays on 0"
WRONG = "Red guesses 3: wrong, the dial was 2; Blue rides to 2 and dials again"
PASSED = "Red does not challenge: the dial was 1; Blue rides to 3"


def bearer(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def play(mover: WS, viewers: dict[str | None, WS], move: str) -> dict[str | None, Any]:
    """``move`` sent by ``mover``; each viewer's update of it."""
    mover.send({"type": "move", "move": move})
    return {seat: ws.expect("update") for seat, ws in viewers.items()}


def test_every_viewer_reads_the_outcome_of_a_guess_and_never_an_unrevealed_dial(
    server: Server, http: httpx.Client
) -> None:
    table_id = create(http, **TWIST, seats=["human", "human"])
    tokens = {"R": join(http, table_id, "R"), "B": join(http, table_id, "B")}
    viewers = {seat: WS(server, table_id) for seat in ("R", "B", None)}
    try:
        for seat, ws in viewers.items():
            ws.hello(tokens[seat] if seat else None)
        red, blue = viewers["R"], viewers["B"]
        # Red dials 1 and Blue guesses it: the dial stays Red's secret (MT-4.1), the
        # outcome is everyone's (Red did not move, Blue dials next).
        said = play(red, viewers, "dial:1")
        assert said["R"]["sentence"] == "Red dials 1 in secret"
        for seat in ("B", None):
            assert (said[seat]["move"], said[seat]["sentence"]) == (
                "dial:?",
                "Red turns the dial in secret",
            )
        said = play(blue, viewers, "guess:1")
        assert {seat: u["sentence"] for seat, u in said.items()} == dict.fromkeys(said, RIGHT)
        # Blue dials 2, Red guesses 3: wrong, the dial is revealed and Blue rides.
        said = play(blue, viewers, "dial:2")
        assert said["R"]["sentence"] == "Blue turns the dial in secret"
        said = play(red, viewers, "guess:3")
        assert {seat: u["sentence"] for seat, u in said.items()} == dict.fromkeys(said, WRONG)
        # Blue dials 1, Red lets it ride: revealed too.
        play(blue, viewers, "dial:1")
        said = play(red, viewers, "pass")
        assert {seat: u["sentence"] for seat, u in said.items()} == dict.fromkeys(said, PASSED)
    finally:
        for ws in viewers.values():
            ws.close()
    # The log read whole (what the table page shows after a reload, or when a revealed
    # dial makes it read the log again) says the same to each viewer.
    for seat in ("R", "B", None):
        replay = http.get(
            f"/api/tables/{table_id}/replay", headers=bearer(tokens.get(seat or ""))
        ).json()
        first = "Red dials 1 in secret" if seat == "R" else "Red turns the dial in secret"
        assert replay["moves"][0] == ("dial:1" if seat == "R" else "dial:?")
        assert replay["sentences"] == [
            first,
            RIGHT,
            "Blue dials 2 in secret",  # revealed by the wrong guess
            WRONG,
            "Blue dials 1 in secret",  # revealed by the pass
            PASSED,
        ], seat
        # The dial guessed right is never shown to anyone but its dialler.
        assert seat == "R" or "dial:1" not in replay["moves"][:2]
