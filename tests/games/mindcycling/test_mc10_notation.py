"""MC-10: move notation, MCN, records and the Python API."""

from __future__ import annotations

import json

import pytest

import peloton
from peloton.core import load_record
from peloton.games import mindcycling as mc

from .helpers import FLAT, MIXED, place_all, play

EXAMPLES = [
    ("AD1@c3", "@", "AD1", "c3", None),
    ("AD1-c9", "-", "AD1", "c9", None),
    ("AS1-c20!", "!", "AS1", "c20", None),
    ("AC1-c8w", "w", "AC1", "c8", None),
    ("AD2-c11r", "r", "AD2", "c11", None),
    ("AD1-#", "-", "AD1", "#", None),
    ("AS1-#!", "!", "AS1", "#", None),
    ("AD2-#r", "r", "AD2", "#", None),
    ("AD1>AS1", ">", "AD1", None, "AS1"),
    ("BC1=", "=", "BC1", None, None),
    ("GC2-z99", "-", "GC2", "z99", None),
]


@pytest.mark.parametrize(("text", "kind", "rider", "square", "target"), EXAMPLES)
def test_mc_10_1_move_notation(
    text: str, kind: str, rider: str, square: str | None, target: str | None
) -> None:
    """MC-10.1: every kind of move parses, and str() gives back exactly the text."""
    m = mc.parse_move(text)
    assert str(m) == text
    assert (m.kind, m.rider, m.square, m.target) == (kind, rider, square, target)
    assert m == mc.parse_move(text) and hash(m) == hash(mc.parse_move(text))
    assert m.crosses is (square == "#")


def test_mc_10_1_legal_moves_print_as_notation() -> None:
    """MC-10.1: legal moves are Move values; play() accepts a Move or its text."""
    s = mc.from_mcn(FLAT, "1 AC1:b1,AD1:c11+,AS1:c10,BC1:a1,BD1:d1+,BS1:e1 / - / -")
    moves = s.legal_moves()
    assert all(isinstance(m, mc.Move) for m in moves)
    assert {str(m) for m in moves} >= {"AD1>AS1", "AD1-c12", "AD1-c12!"}
    assert all(mc.parse_move(str(m)) == m for m in moves)
    t = s.copy()
    s.play(moves[0])
    t.play(str(moves[0]))
    assert s == t


def test_mc_10_1_every_kind_in_play() -> None:
    """MC-10.1: placements, moves, attacks, wheels, relays, gives, crossings, stays all
    come out of legal_moves() in that notation."""
    kinds: set[str] = set()
    s = mc.new_game(FLAT, teams={"A": "DSC", "B": "DSC"})
    kinds |= {m.kind for m in s.legal_moves()}
    s = mc.from_mcn(FLAT, "1 AC1:b1,AD1:c11+,AS1:c10,BC1:a1,BD1:d1+,BS1:e1 / - / -")
    kinds |= {m.kind for m in s.legal_moves()}
    play(s, "AD1>AS1", "AD1-c16")
    kinds |= {m.kind for m in s.legal_moves()}
    s = mc.from_mcn(
        mc.Course.from_dict({"finish": 40, "sections": [[3, "plain"]], "rocks": ["a11"]}),
        "1 AC1:b10,AD1:b11+,AS1:a10,BC1:c1,BD1:a1+,BS1:b1 / - / -",
    )
    play(s, "AD1-b12", "AC1-b11w")
    kinds |= {m.kind for m in s.legal_moves()}
    assert kinds == {"@", "-", "!", "w", "r", ">", "="}


SPEC_MCN = [
    "3 AC1:b9,AD1:c12+,AS1:c11,BC1:e8,BD1:d13+,BS1:d12 / - / -",
    "9 AC1:b40,AD1:c44,BC1:e38,BD1:d45+ / AS1,BS1 / sprint=AS1",
]


@pytest.mark.parametrize("text", SPEC_MCN)
def test_mc_10_2_spec_examples_round_trip(text: str) -> None:
    """MC-10.2: the spec's examples load on the standard course and round-trip."""
    s = mc.from_mcn("standard", text)
    assert s.to_mcn() == text
    assert s.round == int(text.split()[0])


def test_mc_10_2_mcn_fields() -> None:
    """MC-10.2: riders with '+' for a bottle, finished in order, medals."""
    s = mc.from_mcn("standard", SPEC_MCN[1])
    assert s.rider("BD1").has_bottle and not s.rider("AD1").has_bottle
    assert s.rider("AC1").square == "b40"
    assert s.result.places == ("AS1", "BS1")
    assert s.result.medals["sprinter"] == "AS1"
    assert s.current_rider == "BD1"


def test_mc_10_2_canonical_order_and_omitted_parts() -> None:
    """MC-10.2: to_mcn writes riders in id order; the parser accepts the last parts
    left out and any rider order."""
    scrambled = "3 BS1:d12,AD1:c12+,BD1:d13+,AC1:b9,BC1:e8,AS1:c11"
    assert mc.from_mcn("standard", scrambled).to_mcn() == SPEC_MCN[0]
    assert mc.from_mcn("standard", scrambled + " / -").to_mcn() == SPEC_MCN[0]
    assert mc.parse_mcn(SPEC_MCN[0]).to_text() == SPEC_MCN[0]


def test_mc_10_2_medals_written_sprint_then_mountain() -> None:
    """MC-10.2: medals are written `sprint=ID`, `mountain=ID` in that order."""
    s = mc.from_mcn(MIXED, "9 AC1:c35,BC1:d35,BD1:e31 / AS1,BS1,AD1 / mountain=AD1,sprint=BS1")
    assert s.to_mcn() == "9 AC1:c35,BC1:d35,BD1:e31 / AS1,BS1,AD1 / sprint=BS1,mountain=AD1"


def test_mc_10_2_to_mcn_only_at_round_start() -> None:
    """MC-10.2: MCN is a snapshot at the start of a round: not in setup, mid-round or
    after the end."""
    s = mc.new_game(FLAT, teams={"A": "DSC", "B": "DSC"})
    with pytest.raises(peloton.StateError):
        s.to_mcn()
    s = mc.from_mcn(FLAT, "1 AC1:b1,AD1:c11+,AS1:c10,BC1:a1,BD1:d1+,BS1:e1 / - / -")
    play(s, "AD1>AS1")
    with pytest.raises(peloton.StateError):
        s.to_mcn()
    s = mc.from_mcn(FLAT, "7 AD1:c39+ / AS1,BS1,AC1,BC1,BD1 / -")
    play(s, "AD1-#")
    with pytest.raises(peloton.StateError):
        s.to_mcn()
    assert isinstance(peloton.StateError("x"), ValueError)


@pytest.mark.parametrize(
    "start",
    [
        "3 AC1:c20,AD1:c21+,AS1:c9,BC1:b6,BD1:d7+,BS1:e8 / - / -",
        "3 AC1:c40,AD1:c41+,AS1:c9,BC1:b6,BD1:d7+,BS1:e8 / - / sprint=AC1",
    ],
)
def test_mc_10_2_mcn_snapshot_equals_played_state(start: str) -> None:
    """MC-10.2: MCN is a full snapshot of a round's start: the state it loads equals
    (==) the state played to that position, riders across the line included."""
    s = mc.from_mcn("short", start)
    while s.round == 3:
        s.play(s.legal_moves()[-1])
    text = s.to_mcn()
    again = mc.from_mcn("short", text)
    assert again.to_mcn() == text
    assert again.result == s.result
    assert again == s


def played_game() -> mc.State:
    """A short game from a normal setup, played some way by 'first legal move'."""
    s = mc.new_game("short", teams={"A": "DSC", "B": "DSC"}, wind="left", relay_limit=2)
    place_all(s, {"AD1": "a5", "AS1": "c5", "AC1": "e4", "BD1": "b5", "BS1": "d5", "BC1": "a4"})
    for _ in range(40):
        s.play(s.legal_moves()[len(s.legal_moves()) // 2])
    return s


def test_mc_10_3_record_fields_and_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """MC-10.3: a record holds format, game, rules, course, teams, players, start, moves
    and result; loading replays the moves to an equal state."""
    s = played_game()
    rec = mc.Record.from_state(s, players={"A": {"name": "Ann", "controller": "human"}})
    data = json.loads(rec.to_json())
    assert data["format"] == "peloton-record/1"
    assert data["game"] == "mind-cycling"
    assert data["rules"] == {"wind": "left", "relay_limit": 2}
    assert data["course"] == mc.Course.load("short").to_dict()
    assert data["teams"] == {"A": "DSC", "B": "DSC"}
    assert data["players"]["A"] == {"name": "Ann", "controller": "human"}
    assert data["start"] is None
    assert data["moves"] == [str(m) for m in s.history]
    assert data["moves"][:2] == ["AD1@a5", "BD1@b5"]
    assert set(data) >= {"result"}
    again = mc.Record.from_json(rec.to_json())
    assert again.replay() == s
    path = tmp_path / "game.json"
    rec.save(path)
    assert mc.Record.load(path).replay() == s
    assert load_record(path).replay() == s


def test_mc_10_3_record_from_mcn_start() -> None:
    """MC-10.3: `start` holds the MCN a game began from."""
    s = mc.from_mcn(FLAT, "4 AC1:b1,AD1:c11+,AS1:c10,BC1:a1,BD1:d1+,BS1:e1 / - / -")
    play(s, "AD1>AS1", "AD1-c15", "AS1-c14w")
    assert s.rider("AS1").square == "c14"
    rec = mc.Record.from_state(s)
    assert (
        json.loads(rec.to_json())["start"]
        == "4 AC1:b1,AD1:c11+,AS1:c10,BC1:a1,BD1:d1+,BS1:e1 / - / -"
    )
    assert mc.Record.from_json(rec.to_json()).replay() == s


def test_mc_10_3_result_recomputed() -> None:
    """MC-10.3: the stored result is informational; replay recomputes it."""
    s = mc.from_mcn(FLAT, "7 AD1:c39+ / AS1,BS1,AC1,BC1,BD1 / -")
    play(s, "AD1-#")
    data = json.loads(mc.Record.from_state(s).to_json())
    data["result"] = {"places": ["BD1"], "trophy": "B"}
    replayed = mc.Record.from_json(json.dumps(data)).replay()
    assert replayed.result.places == ("AS1", "BS1", "AC1", "BC1", "BD1", "AD1")
    assert replayed.result == s.result


def test_mc_10_3_replay_rejects_first_illegal_move() -> None:
    """MC-10.3: replaying a record rejects the first illegal move with its index and
    says which move and why."""
    s = played_game()
    data = json.loads(mc.Record.from_state(s).to_json())
    data["moves"][20] = "AD1-a99"
    data["moves"][25] = "junk"
    with pytest.raises(peloton.RecordError) as info:
        mc.Record.from_json(json.dumps(data)).replay()
    assert info.value.index == 20
    assert "AD1-a99" in str(info.value) and "20" in str(info.value)


def test_mc_10_3_loading_rejects_first_illegal_move() -> None:
    """MC-10.3: loading a record replays every move and rejects the first illegal one
    with its index."""
    s = played_game()
    data = json.loads(mc.Record.from_state(s).to_json())
    data["moves"][20] = "AD1-a99"
    with pytest.raises(peloton.RecordError) as info:
        mc.Record.from_json(json.dumps(data))
    assert info.value.index == 20


def test_mc_10_4_api_names() -> None:
    """MC-10.4: the stable Python API, name for name."""
    course = mc.Course.load("standard")
    assert mc.Course.from_dict(course.to_dict()) == course
    state = mc.new_game(course, teams={"A": "DDSSCC", "B": "DDSSCC"}, wind="front", relay_limit=3)
    assert state.round == 0 and state.current_rider is None and not state.is_over
    solo = mc.new_solo(course, team="DDSSC")
    assert solo.players == ("A",)
    state = mc.from_mcn(course, SPEC_MCN[0], wind="front")
    assert isinstance(state.legal_moves(), list)
    state.legal_moves().clear()  # a fresh list each time: the state is not touched
    assert state.legal_moves()
    assert all(isinstance(str(m), str) for m in state.legal_moves())
    copy = state.copy()
    state.play("BD1-d14")
    assert copy.current_rider == "BD1" and state.current_rider != "BD1"
    assert state.round == 3
    assert copy.to_mcn() == SPEC_MCN[0]
    r = state.rider("AD1")
    assert (r.team, r.type, r.square, r.has_bottle) == ("A", "D", "c12", True)
    res = state.result
    assert res.places == () and res.points == {"A": 0, "B": 0}
    assert res.medals == {} and res.trophy is None and res.solo_score is None
    rec = mc.Record.from_json(mc.Record.from_state(state).to_json())
    assert rec.replay() == state
    for err in (peloton.NotationError, peloton.IllegalMoveError, peloton.CourseError):
        assert issubclass(err, ValueError)
