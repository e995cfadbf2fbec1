"""What the snapshot tells a client so that it keeps no list of mode names and reads no
move notation: the mode's facts (CY-2.1, CY-11.2), the legal rides parsed, the last
ride (docs/protocol.md, Cyclo's snapshot)."""

from __future__ import annotations

import json

import pytest

from peloton.games import cyclo as cy
from peloton.games.cyclo.modes import AVAILABLE, CHOICE_FACTS, MODES, mode_facts

from .helpers import at, play

#: Enough teams for each mode (an elimination race needs three riders).
PLAYERS = {"sprint": 2, "elimination": 3}


def fresh(mode: str) -> cy.State:
    low, _ = MODES[mode].teams
    return cy.from_options({"mode": mode, "players": PLAYERS.get(mode, max(low, 2))})


@pytest.mark.parametrize("name", AVAILABLE)
def test_the_snapshot_carries_its_modes_facts_from_the_modes_table(name: str) -> None:
    """CY-2.1: the facts are the table's; ``mode`` stays the name for older clients."""
    mode = MODES[name]
    snap = cy.snapshot(fresh(name))
    facts = snap["mode_facts"]
    assert snap["mode"] == name == facts["name"]
    assert facts == mode_facts(mode) == CHOICE_FACTS["mode"][name]
    assert json.loads(json.dumps(facts)) == facts
    assert facts["road"] is mode.road and (snap["track"] is None) is mode.road
    assert facts["timed"] is mode.timed and facts["team_time"] is mode.team_time
    assert facts["pacer"] is mode.pacer and facts["eliminations"] is mode.eliminations
    assert facts["entries"] is (mode.riders is None) and facts["cards"] is mode.cards
    assert facts["title"] == mode.title and facts["word"] == mode.word
    assert facts["teams"] == list(mode.teams) and facts["course"] == mode.course
    paying = [line for line in (snap["track"] or {}).get("lines", []) if line["pays"]]
    assert facts["points"] is (mode.course_lines or bool(paying))


def test_the_facts_tell_the_modes_apart() -> None:
    """CY-11.2, CY-11.4, CY-11.5: each fact is true of the modes the rules give it."""
    facts = CHOICE_FACTS["mode"]

    def having(fact: str) -> set[str]:
        return {name for name, f in facts.items() if f[fact]}

    assert having("pacer") == {"keirin"} and having("eliminations") == {"elimination"}
    assert having("points") == {"leg", "tempo", "points"} and having("cards") == {"classic", "leg"}
    assert having("entries") == {"keirin", "scratch", "elimination", "tempo", "points"}
    assert having("timed") == {"itt", "ttt", "pursuit", "team-pursuit", "team-sprint"}
    assert having("road") == {"classic", "leg", "itt", "ttt"}


def test_the_legal_rides_come_parsed() -> None:
    """CY-4.2: every legal ride with its rider, target as written, tokens and distance."""
    state = play(at("8 AH1:a54*4,BC1:a55*4 / A*4,B*4"), "BC1~-", "roll:4,5")
    snap = cy.snapshot(state)
    rides = snap["rides"]
    assert [r["text"] for r in rides] == [t for t in snap["legal"] if "-" in t and "~" not in t]
    assert rides and all(r["rider"] == "BC1" for r in rides)
    first = rides[0]
    assert first["text"] == f"{first['rider']}-{first['target']}" + (
        f"/{first['tokens']}" if first["tokens"] else ""
    )
    assert {r["tokens"] for r in rides} >= {"", "r", "t"}
    assert all(r["at"] == int(r["target"]) for r in rides)


def test_a_ride_onto_the_run_out_keeps_its_hash() -> None:
    """CY-1.4: a target past the line is written ``#k`` and lies at N + k."""
    state = play(at("8 AS1:a115*4,BS1:a50*4 / A*4,B*4"), "roll:6,6,6")
    rides = cy.snapshot(state)["rides"]
    past = [r for r in rides if r["target"].startswith("#")]
    assert past and all(r["at"] == 120 + int(r["target"][1:]) for r in past)


def test_the_last_ride_is_the_last_move_when_it_rode() -> None:
    state = play(at("8 AH1:a54*4,BC1:a55*4 / A*4,B*4"), "BC1~-", "roll:4,5")
    assert cy.snapshot(state)["last_ride"] is None  # the last move is a roll
    play(state, "BC1-64")
    assert cy.snapshot(state)["last_ride"] == {
        "text": "BC1-64",
        "rider": "BC1",
        "target": "64",
        "tokens": "",
        "at": 64,
    }


def test_the_track_plans_lines_are_the_tracks_kinds() -> None:
    """CY-11.2: the modes table writes its lines' kinds as the velodrome names them."""
    from peloton.games.cyclo.track import ELIMINATION, SPRINT

    assert all((mode.track is None) is mode.road for mode in MODES.values())
    kinds = {mode.track.line_kind for mode in MODES.values() if mode.track is not None}
    assert kinds == {"", SPRINT, ELIMINATION}
