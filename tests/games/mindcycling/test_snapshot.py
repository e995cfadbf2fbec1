"""The JSON snapshot clients draw from (docs/protocol.md) and move descriptions."""

from __future__ import annotations

import json

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.snapshot import describe_move, snapshot

FLAT = mc.Course.from_dict({"name": "flat", "lanes": 5, "finish": 40, "sections": [[3, "plain"]]})


def test_setup_snapshot_lists_placement_riders_and_squares() -> None:
    """MC-3: in setup the snapshot gives the placing team's riders and squares."""
    s = mc.new_game("short", mc.default_teams(2, 3))
    data = snapshot(s)
    assert data["phase"] == "setup" and data["legal"] == []
    placement = data["placement"]
    assert placement["team"] == "A" and placement["riders"] == ["AD1", "AS1", "AC1"]
    combined = {f"{r}@{sq}" for r in placement["riders"] for sq in placement["squares"]}
    assert combined == {str(m) for m in s.legal_moves()}
    json.dumps(data)  # plain JSON data


def test_race_snapshot_shows_wind_links_and_legal_moves() -> None:
    """MC-4.2/MC-5.4/MC-6.1: the snapshot carries the round's assessment."""
    s = mc.from_mcn(FLAT, "3 AC1:a5,AD1:c12+,AS1:c11,BC1:e8,BD1:d13+,BS1:b5 / - / -")
    data = snapshot(s)
    riders = {r["id"]: r for r in data["riders"]}
    assert riders["AS1"]["leader"] == "AD1" and not riders["AS1"]["wind"]
    assert riders["AD1"]["wind"] and riders["AD1"]["bottle"]
    assert data["current_rider"] == "BD1"
    assert [m["text"] for m in data["legal"]] == [str(m) for m in s.legal_moves()]
    assert data["result"]["over"] is False


def test_describe_move_says_what_each_kind_does() -> None:
    """MC-6.4/6.5/7.2: wheel, relay and attack read as such."""
    s = mc.from_mcn(FLAT, "3 AC1:a5,AD1:c12+,AS1:c11,BC1:e8,BD1:e5+,BS1:b4 / - / -")
    s.play("AD1-c18")
    texts = {str(m): describe_move(s, m) for m in s.legal_moves()}
    assert texts["AS1-c17w"] == "AS1 (sprinter) takes the wheel of AD1 to c17 (6 rows)"
    assert texts["AS1-c19r"].startswith("AS1 (sprinter) takes a relay in front of AD1's group")
    s2 = mc.from_mcn(FLAT, "3 AC1:a5,AD1:c12+,AS1:b4,BC1:e8,BD1:e5+,BS1:d4 / - / -")
    assert describe_move(s2, mc.parse_move("AD1-c13!")).startswith(
        "AD1 (domestique) attacks to c13 (1 row)"
    )
