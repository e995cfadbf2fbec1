"""The snapshot's `follow` flag and where the board ends a train link (docs/protocol.md,
"snapshot"): a follower may wheel or relay behind its leader only once the leader has
moved in an open group (MC-6.3), and the wheel square is directly behind the leader's
new square (MC-6.4), which is where the web board draws the link to."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.snapshot import snapshot

#: BD1 right behind AD1 (MC-3), so linked to it in round 1 (MC-6.1).
SETUP = ["AD1@a5", "BD1@a4", "AS1@c5", "BS1@e5", "AC1@e3", "BC1@c1"]
LANES = "abcdefg"
SHELTER = {"front": 0, "left": -1, "right": 1}


def _game() -> mc.State:
    s = mc.from_options({"course": "short", "riders": 3})
    for move in SETUP:
        s.play(move)
    return s


def _riders(s: mc.State) -> dict[str, dict]:
    return {r["id"]: r for r in snapshot(s)["riders"]}


def test_no_follow_before_the_leader_moves() -> None:
    """MC-6.3 (d): X must have moved this round."""
    riders = _riders(_game())
    assert riders["BD1"]["leader"] == "AD1"
    assert riders["BD1"]["follow"] is False
    assert all(r["follow"] is False for r in riders.values())


def test_follow_once_the_leader_rode() -> None:
    """MC-6.3, MC-6.4: AD1 rode to b10; BD1 may take the wheel on b9, right behind it."""
    s = _game()
    s.play("AD1-b10")
    data = snapshot(s)
    riders = {r["id"]: r for r in data["riders"]}
    assert riders["BD1"]["follow"] is True
    wheels = [m["square"] for m in data["legal"] if m["kind"] == "wheel"]
    assert wheels == ["b9"]


def test_no_follow_behind_an_attack() -> None:
    """MC-7.3: nobody may wheel or relay behind an attacker (its group is closed)."""
    s = _game()
    s.play("AD1-b10!")
    riders = _riders(s)
    assert riders["BD1"]["leader"] == "AD1" and riders["BD1"]["follow"] is False


def _behind(square: str, wind: str) -> str | None:
    """The square directly behind ``square`` along the shelter direction (MC-6.4)."""
    lane = LANES.index(square[0]) - SHELTER[wind]
    return f"{LANES[lane]}{int(square[1:]) - 1}" if 0 <= lane < len(LANES) else None


@settings(max_examples=25, deadline=None)
@given(
    wind=st.sampled_from(["front", "left", "right"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
)
def test_follow_agrees_with_the_train_moves(wind: str, players: int, seed: int) -> None:
    """In every position of a random race: a rider offered a wheel or a relay has
    `follow`; `follow` means its leader has moved; and the wheel square offered is the
    square directly behind the leader where it stands now (MC-6.3, MC-6.4)."""
    rng = random.Random(seed)
    s = mc.from_options({"course": "short", "riders": 3, "players": players, "wind": wind})
    for _ in range(400):
        if s.is_over:
            break
        data = snapshot(s)
        riders = {r["id"]: r for r in data["riders"]}
        for r in riders.values():
            if r["follow"]:
                assert r["leader"] and riders[r["leader"]]["moved"], r
        train = [m for m in data["legal"] if m["kind"] in ("wheel", "relay")]
        if train:
            me = riders[data["current_rider"]]
            assert me["follow"] is True
            lead = riders[me["leader"]]
            for m in train:
                if m["kind"] == "wheel":
                    assert m["square"] == _behind(lead["square"], wind)
        s.play(rng.choice(s.legal_moves()))
