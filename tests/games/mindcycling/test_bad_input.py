"""Bad input: every error is typed, subclasses ValueError, quotes the input, says why,
and leaves the state unchanged (DESIGN: errors; MC-10)."""

from __future__ import annotations

import json

import pytest

import peloton
from peloton.core import load_record
from peloton.games import mindcycling as mc

from .helpers import FLAT, course, play


def quoted(text: str, message: str) -> bool:
    """Whether ``message`` quotes ``text``."""
    return repr(text) in message or f'"{text}"' in message or f"'{text}'" in message


BASE = "1 AC1:c10,AD1:c11+,AS1:c9,BC1:b1,BD1:d1+,BS1:e1 / - / -"

# ---------------------------------------------------------------- move notation

BAD_MOVES = [
    "",
    " ",
    "AD1",
    "AD1-",
    "AD1-c",
    "AD1-9",
    "AD1-c0",
    "AD1-c09",
    "ad1-c9",
    "AD1-C9",
    "Ad1-c9",
    "AD1 -c9",
    "AD1-c9 ",
    " AD1-c9",
    "AD1-c9\n",
    "AD0-c9",
    "AD10-c9",
    "AX1-c9",
    "HD1-c9",
    "A1-c9",
    "AD1-c9x",
    "AD1-c9!!",
    "AD1-c9wr",
    "AD1-c9W",
    "AD1-c9R",
    "AD1-#x",
    "AD1-##",
    "AD1@#",
    "AD1@c3!",
    "AD1@c3w",
    "AD1@",
    "AD1>",
    "AD1>XX1",
    "AD1>as1",
    "AD1>AS1!",
    "AD1==",
    "AD1=c3",
    "AD1_c9",
    "AD1\u2013c9",
    "AD1->AS1",
    "AD1-aa9",
    "-c9",
    "#",
    "=",
    "AD1-c9,AD1-c10",
]


@pytest.mark.parametrize("text", BAD_MOVES)
def test_malformed_move_notation(text: str) -> None:
    """MC-10.1: text that is not exactly a move raises NotationError quoting it."""
    with pytest.raises(peloton.NotationError) as info:
        mc.parse_move(text)
    assert quoted(text, str(info.value)), str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("text", ["AD1-c99x", "AD1", "ad1>as1", "BC1 ="])
def test_malformed_move_leaves_state_unchanged(text: str) -> None:
    """A NotationError from play() leaves the state as it was."""
    s = mc.from_mcn(FLAT, BASE)
    before = s.copy()
    with pytest.raises(peloton.NotationError):
        s.play(text)
    assert s == before
    assert s.legal_moves() == before.legal_moves()


@pytest.mark.parametrize("value", [None, 5, ("-", "AD1", "c12", None), b"AD1-c12"])
def test_move_of_wrong_type(value: object) -> None:
    """play() and parse_move() reject non-moves with a NotationError."""
    s = mc.from_mcn(FLAT, BASE)
    before = s.copy()
    with pytest.raises(peloton.NotationError):
        s.play(value)  # type: ignore[arg-type]
    assert s == before
    if not isinstance(value, tuple):
        with pytest.raises(peloton.NotationError):
            mc.parse_move(value)  # type: ignore[arg-type]


# ---------------------------------------------------------------- illegal moves

ILLEGAL = [
    # (position, moves played first, illegal move, words of the reason)
    (BASE, [], "AS1-c10", ["turn"]),
    (BASE, [], "BD1-d2", ["turn"]),
    (BASE, [], "AD1-c19", ["reach", "allowance 6"]),
    (BASE, [], "AD1-c10", ["reach"]),
    (BASE, [], "AD1-c11", ["reach"]),
    (BASE, [], "AD1-f12", ["reach"]),
    (BASE, [], "AD1-c12w", ["not linked"]),
    (BASE, [], "AD1-c12r", ["not linked"]),
    (BASE, [], "AD1-c21!", ["reach", "+ 3"]),
    (BASE, [], "AD1=", ["only when"]),
    (BASE, [], "AD1>AD1", ["directly behind"]),
    (BASE, [], "AD1-#", ["reach"]),
    (BASE, ["AD1-c17"], "AC1-#w", ["not the one given"]),
    (BASE, ["AD1-c17"], "AC1-#r", ["not the one given"]),
    (BASE, [], "AD1@c5", ["setup is over"]),
    (BASE, [], "AD2-c12", ["no rider AD2"]),
    (BASE, [], "CD1-c12", ["no rider CD1"]),
    (BASE, [], "AD1>BS1", ["opponent"]),
    (BASE, [], "AD1>AS1", ["directly behind"]),
    ("1 AC1:c10+,AD1:c11+,AS1:c9,BC1:b1,BD1:d1+,BS1:e1", [], "AD1>AC1", ["already holds"]),
    (BASE, ["AD1-c17"], "AC1-c17w", ["not the one given"]),
    (BASE, ["AD1-c17"], "AC1-c20r", ["not the one given"]),
    (BASE, ["AD1-c17"], "AC1-c12!", ["own section"]),
    (BASE, ["AD1-c17!"], "AC1-c16w", ["closed"]),
    (BASE, ["AD1-c12"], "AD1-c13", ["turn"]),
    (BASE, ["AD1>AC1"], "AD1>AC1", ["already given"]),
    ("1 AC1:c10,AD1:c11,AS1:c9,BC1:b1,BD1:d1+,BS1:e1", [], "AD1-c12!", ["no bottle"]),
    ("1 AC1:c10,AD1:c11,AS1:c9,BC1:b1,BD1:d1+,BS1:c12", ["BS1-c13"], "AD1-c12w", ["exhausted"]),
    (
        "1 AC1:a1,AD1:c11+,AS1:c10,BC1:b1,BD1:d1+,BS1:e1",
        ["AD1>AS1"],
        "AD1-c12!",
        ["given its bottle"],
    ),
    ("1 AC1:a1,AD1:c11+,AS1:c10,BC1:b1,BD1:d1+,BS1:e1", ["AD1>AS1"], "AD1>AS1", ["already given"]),
    ("7 AD1:c39+,BD1:d39+ / AS1,BS1,AC1,BC1 / -", ["AD1-#"], "AD1-c5", ["already crossed"]),
    ("7 AD1:c39+ / AS1,BS1,AC1,BC1,BD1 / -", ["AD1-#"], "AD1-#", ["over"]),
]


@pytest.mark.parametrize(("mcn", "first", "move", "words"), ILLEGAL)
def test_illegal_move(mcn: str, first: list[str], move: str, words: list[str]) -> None:
    """A well-formed move that is not legal now raises IllegalMoveError saying why, and
    the state is unchanged afterwards."""
    s = mc.from_mcn(FLAT, mcn)
    play(s, *first)
    before = s.copy()
    legal_before = [str(m) for m in s.legal_moves()]
    with pytest.raises(peloton.IllegalMoveError) as info:
        s.play(move)
    message = str(info.value)
    assert move in message
    for w in words:
        assert w in message, (w, message)
    assert s == before
    assert [str(m) for m in s.legal_moves()] == legal_before
    assert isinstance(info.value, ValueError)


def test_relay_beyond_limit_is_illegal() -> None:
    """MC-6.5: the reason names the rider's train place and the relay limit."""
    s = mc.from_mcn(
        FLAT, "1 AC1:c11,AD1:c15+,AS1:c13,BC1:a1,BD1:c14+,BS1:c12 / - / -", relay_limit=1
    )
    play(s, "AD1-c21", "BD1-c20w")
    before = s.copy()
    with pytest.raises(
        peloton.IllegalMoveError, match=r"AS1 is rider 3 of its train.*relay limit 1"
    ):
        s.play("AS1-c22r")
    assert s == before


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("AD1-c5", ["places a rider"]),
        ("BD1@a1", ["turn"]),
        ("AD1@c3", ["start zone"]),
        ("AD1@f1", ["start zone"]),
        ("AD9@a1", ["no rider"]),
    ],
)
def test_illegal_setup_moves(move: str, words: list[str]) -> None:
    """MC-3: bad placements are IllegalMoveErrors that say why."""
    s = mc.new_game(FLAT, teams={"A": "DSC", "B": "DSC"})
    before = s.copy()
    with pytest.raises(peloton.IllegalMoveError) as info:
        s.play(move)
    for w in words:
        assert w in str(info.value), str(info.value)
    assert s == before


# ---------------------------------------------------------------- courses


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"finish": 20}, ["sections"]),
        ({"sections": [[3, "plain"]]}, ["finish"]),
        ({"finish": "20", "sections": [[3, "plain"]]}, ["finish", "'20'"]),
        ({"finish": 20, "sections": [[3, "plain"]], "lanes": "5"}, ["lanes"]),
        ({"finish": 20, "sections": [[3, "plain"]], "lanes": True}, ["lanes"]),
        ({"finish": 20, "sections": [[3, "plain"]], "lanes": 0}, ["lanes"]),
        ({"finish": 20, "sections": "plain"}, ["sections"]),
        ({"finish": 20, "sections": [[3]]}, ["[3]"]),
        ({"finish": 20, "sections": [["3", "plain"]]}, ["'3'"]),
        ({"finish": 20, "sections": [[3, "plain"]], "feed": "c5"}, ["feed"]),
        ({"finish": 20, "sections": [[3, "plain"]], "rocks": [5]}, ["rocks"]),
        ({"finish": 20, "sections": [[3, "plain"]], "hills": 3}, ["hills"]),
        ({"finish": 20, "sections": [[3, "plain"]], "name": ""}, ["name"]),
    ],
)
def test_invalid_course_data(data: dict[str, object], words: list[str]) -> None:
    """MC-1.3, MC-1.5: malformed course data raises CourseError naming the problem."""
    with pytest.raises(peloton.CourseError) as info:
        mc.Course.from_dict(data)
    for w in words:
        assert w in str(info.value), str(info.value)
    assert info.value.problems


def test_invalid_course_sources(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """MC-1.5: unreadable or unparsable course files, unknown names."""
    with pytest.raises(peloton.CourseError, match="table of keys"):
        mc.Course.from_dict(["finish", 20])  # type: ignore[arg-type]
    bad = tmp_path / "bad.toml"
    bad.write_text("finish = = 3", encoding="utf-8")
    with pytest.raises(peloton.CourseError, match="TOML"):
        mc.Course.from_file(bad)
    bad = tmp_path / "bad.json"
    bad.write_text("{finish: 3", encoding="utf-8")
    with pytest.raises(peloton.CourseError, match="JSON"):
        mc.Course.from_file(bad)
    with pytest.raises(peloton.CourseError, match=r"missing\.toml"):
        mc.Course.from_file(tmp_path / "missing.toml")
    with pytest.raises(peloton.CourseError, match="'nowhere'"):
        mc.Course.load("nowhere")


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"wind": "north"}, ["north"]),
        ({"relay_limit": -1}, ["relay_limit"]),
        ({"relay_limit": "3"}, ["relay_limit"]),
        ({"relay_limit": True}, ["relay_limit"]),
    ],
)
def test_invalid_game_options(kwargs: dict[str, object], words: list[str]) -> None:
    """MC-5.5, MC-6.5: bad wind or relay limit raise ConfigError naming them."""
    with pytest.raises(peloton.ConfigError) as info:
        mc.new_game(FLAT, teams={"A": "DSC", "B": "DSC"}, **kwargs)  # type: ignore[arg-type]
    for w in words:
        assert w in str(info.value)
    with pytest.raises(peloton.PelotonError) as info2:
        mc.from_mcn(FLAT, BASE, **kwargs)  # type: ignore[arg-type]
    for w in words:
        assert w in str(info2.value)


@pytest.mark.parametrize("kwargs", [{"wind": "north"}, {"relay_limit": -1}])
def test_from_mcn_bad_options_are_config_errors(kwargs: dict[str, object]) -> None:
    """DESIGN (errors), MC-10.4: a valid MCN with a bad option is a bad setup
    (ConfigError), not text that does not parse (NotationError)."""
    with pytest.raises(peloton.ConfigError):
        mc.from_mcn(FLAT, BASE, **kwargs)  # type: ignore[arg-type]


def test_game_on_bad_course_argument() -> None:
    """A course that is not a Course (or a known name) is a bad setup."""
    with pytest.raises(peloton.ConfigError):
        mc.new_game(123, teams={"A": "DSC", "B": "DSC"})  # type: ignore[arg-type]
    with pytest.raises(peloton.CourseError, match="'nowhere'"):
        mc.new_game("nowhere", teams={"A": "DSC", "B": "DSC"})
    with pytest.raises(peloton.CourseError, match="'nowhere'"):
        mc.from_mcn("nowhere", BASE)


# ---------------------------------------------------------------- MCN

BAD_MCN_SYNTAX = [
    "",
    "3",
    "0 AD1:c3",
    "-1 AD1:c3",
    "x AD1:c3",
    "03 AD1:c3",
    "3 AD1:c3 extra",
    "3 AD1c3",
    "3 AD1:c3++",
    "3 AD1:C3",
    "3 AD1:c3-",
    "3 ad1:c3",
    "3 AD1:c3,AD1:c4",
    "3 AD1:c3 / AD1",
    "3 AD1:c3 / XX1",
    "3 AD1:c3 / AS1,AS1",
    "3 AD1:c3 / - / hill=AD1",
    "3 AD1:c3 / - / sprint=XX1",
    "3 AD1:c3 / - / sprint=AD1,sprint=AD1",
    "3 AD1:c3 / - / sprint",
    "3 AD1:c3 / - / - / -",
]


@pytest.mark.parametrize("text", BAD_MCN_SYNTAX)
def test_malformed_mcn(text: str) -> None:
    """MC-10.2: MCN that does not parse raises NotationError."""
    with pytest.raises(peloton.NotationError):
        mc.parse_mcn(text)
    with pytest.raises(peloton.NotationError):
        mc.from_mcn(FLAT, text)


ROCKY = course([[3, "plain"], [10, "sprint"]], 40, rocks=["c20"])

BAD_POSITIONS = [
    ("1 AC1:c10,AD1:c10+,AS1:c9,BC1:b1,BD1:d1+,BS1:e1", ["share", "c10"]),
    ("1 AC1:c20,AD1:c11+,AS1:c9,BC1:b1,BD1:d1+,BS1:e1", ["rock", "c20"]),
    ("1 AC1:f10,AD1:c11+,AS1:c9,BC1:b1,BD1:d1+,BS1:e1", ["f10", "road"]),
    ("1 AC1:c40,AD1:c11+,AS1:c9,BC1:b1,BD1:d1+,BS1:e1", ["c40", "road"]),
    ("1 AC1:c10,AD1:c11+,AS1:c9,BC1:b1,BD1:d1+,BS1:e1 / - / sprint=AS1", ["AS1", "sprint"]),
    ("1 AC1:c10,AD1:c11+,AS1:c29,BC1:b1,BD1:d1+,BS1:e1 / - / mountain=AS1", ["mountain"]),
    ("1 AC1:c10,AD1:c11+,AS1:c29,BC1:b1,BD1:d1+,BS1:e1 / - / sprint=CS1", ["CS1"]),
    ("1 AC1:c10,AD2:c11+,AS1:c9,BC1:b1,BD1:d1+,BS1:e1", ["AD2"]),
    ("1 AC1:c10,AD1:c11+,AS3:c9,BC1:b1,BD1:d1+,BS1:e1", ["AS3"]),
    ("1 AC1:c10,AD1:c11+,AS1:c9,CC1:b1,CD1:d1+,CS1:e1", ["A", "C"]),
    ("1 AC1:c10,AD1:c11+,AS1:c9,BC1:b1,BD1:d1+", ["riders"]),
    ("1 AD1:c10,AD2:c11+,AS1:c9,BD1:b1,BD2:d1+,BS1:e1", ["climber"]),
    ("1 - / - / -", ["no rider"]),
    ("1 AC1:c10 / - / -", []),
]


@pytest.mark.parametrize(("text", "words"), BAD_POSITIONS)
def test_invalid_mcn_position(text: str, words: list[str]) -> None:
    """MC-10.2: a well-formed MCN describing an impossible position is rejected with a
    NotationError that quotes it and says what is wrong."""
    with pytest.raises(peloton.NotationError) as info:
        mc.from_mcn(ROCKY, text)
    message = str(info.value)
    assert text in message
    for w in words:
        assert w in message, (w, message)


# ---------------------------------------------------------------- records


def good_record() -> dict[str, object]:
    s = mc.new_game(FLAT, teams={"A": "DSC", "B": "DSC"})
    for m in ("AD1@a1", "BD1@b1", "AS1@c1", "BS1@d1", "AC1@e2", "BC1@a2"):
        s.play(m)
    for _ in range(12):
        s.play(s.legal_moves()[0])
    return json.loads(mc.Record.from_state(s).to_json())  # type: ignore[no-any-return]


def test_good_record_loads() -> None:
    """Control: the base record of the corruption tests loads and replays."""
    rec = mc.Record.from_json(json.dumps(good_record()))
    assert rec.replay().round >= 1


def corrupt(**changes: object) -> str:
    data = good_record()
    for key, value in changes.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", ["JSON"]),
        ("", ["JSON"]),
        ("[1, 2]", ["object"]),
        ('"record"', ["object"]),
        (corrupt(format="peloton-record/2"), ["format", "peloton-record/2"]),
        (corrupt(format=KeyError), ["format"]),
        (corrupt(game="mind-twist"), ["mind-twist"]),
        (corrupt(game=KeyError), ["game"]),
        (corrupt(game=7), ["game"]),
        (corrupt(rules=KeyError), ["rules"]),
        (corrupt(rules="front"), ["rules"]),
        (corrupt(rules={"wind": "north", "relay_limit": 3}), ["north"]),
        (corrupt(rules={"wind": "front", "relay_limit": "x"}), ["relay_limit"]),
        (corrupt(course=KeyError), ["course"]),
        (corrupt(course=[1]), ["course"]),
        (corrupt(course={"finish": 5, "sections": [[9, "plain"]]}), ["course", "finish"]),
        (corrupt(teams=KeyError), ["teams"]),
        (corrupt(teams=["DSC", "DSC"]), ["teams"]),
        (corrupt(teams={"A": 3, "B": "DSC"}), ["teams"]),
        (corrupt(teams={"A": "DSC"}), ["team"]),
        (corrupt(teams={"A": "DSCX", "B": "DSCX"}), ["DSCX"]),
        (corrupt(players=["Ann"]), ["players"]),
        (corrupt(start=5), ["start"]),
        (corrupt(start="1 AD1:c3 / - / - / -"), ["MCN"]),
        (corrupt(moves=KeyError), ["moves"]),
        (corrupt(moves="AD1@a1"), ["moves"]),
    ],
)
def test_corrupt_record(text: str, words: list[str]) -> None:
    """MC-10.3: a corrupt record raises RecordError saying what is wrong."""
    with pytest.raises(peloton.RecordError) as info:
        mc.Record.from_json(text).replay()
    for w in words:
        assert w in str(info.value), (w, str(info.value))
    assert isinstance(info.value, ValueError)
    with pytest.raises(peloton.RecordError):
        load_record(text).replay()


@pytest.mark.parametrize("index", [0, 3, 7, 17])
@pytest.mark.parametrize("bad", ["AD1-z99", "junk", 42, None, "BD1@a1"])
def test_record_bad_move_index(index: int, bad: object) -> None:
    """MC-10.3: the first bad move of a record is reported with its 0-based index."""
    data = good_record()
    moves = data["moves"]
    assert isinstance(moves, list) and len(moves) == 18
    moves[index] = bad
    if index < 17:
        moves[index + 1] = "also junk"
    with pytest.raises(peloton.RecordError) as info:
        mc.Record.from_json(json.dumps(data)).replay()
    assert info.value.index == index
    assert str(index) in str(info.value)


@pytest.mark.parametrize(
    "teams",
    [
        {"A": "DDSSCC", "B": "DDSSCC"},
        {"A": "DSC"},
        {"A": "DSC", "B": "DSC", "C": "DSC"},
        {"A": "DSC", "B": "DDSC"},
    ],
)
def test_record_teams_must_match_start(teams: dict[str, str]) -> None:
    """MC-10.3: a record whose `teams` contradict its `start` position is corrupt."""
    s = mc.from_mcn(FLAT, BASE)
    s.play("AD1-c12")
    data = json.loads(mc.Record.from_state(s).to_json())
    assert data["teams"] == {"A": "DSC", "B": "DSC"}
    data["teams"] = teams
    with pytest.raises(peloton.RecordError, match="teams"):
        mc.Record.from_json(json.dumps(data)).replay()


def test_record_unknown_game_via_core() -> None:
    """core.load_record: an unknown game is a RecordError naming it."""
    with pytest.raises(peloton.RecordError, match="'chess'"):
        load_record(corrupt(game="chess"))


def test_record_file_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Missing or undecodable record files raise RecordError."""
    with pytest.raises(peloton.RecordError, match=r"nope\.json"):
        mc.Record.load(tmp_path / "nope.json")
    with pytest.raises(peloton.RecordError):
        load_record(tmp_path / "nope.json")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(peloton.RecordError):
        mc.Record.load(binary)


def test_every_error_is_a_value_error() -> None:
    """DESIGN: every typed error subclasses ValueError."""
    for err in (
        peloton.PelotonError,
        peloton.NotationError,
        peloton.IllegalMoveError,
        peloton.CourseError,
        peloton.ConfigError,
        peloton.RecordError,
        peloton.StateError,
    ):
        assert issubclass(err, ValueError)
    assert issubclass(peloton.CourseError, peloton.ConfigError)


#: A chain of five riders on the c lane: places AD1 1, BD1 2, AS1 3, BS1 4, AC1 5.
CHAIN = "1 AC1:c11,AD1:c15+,AS1:c13,BC1:a1,BD1:c14+,BS1:c12 / - / -"


@pytest.mark.parametrize(
    ("moves", "index", "rule"),
    [
        # The old MC-6.4 put AS1 behind the group's rear, AD1; now c21 behind BD1 is taken.
        (["AD1-c21", "BD1-c22r", "AS1-c20w"], 2, "no wheel right after a relay"),
        # The old MC-6.5 counted BS1's group of one; AC1 is fifth in its train.
        (["AD1-c21", "BD1-c20w", "AS1-c19w", "BS1-b17", "AC1-b18r"], 4, "rider 5 of its train"),
    ],
)
def test_old_records_with_a_misread_train_move_fail_to_load(
    moves: list[str], index: int, rule: str
) -> None:
    """MC-6.4, MC-6.5, MC-10.3: a record played under the misread train rules is
    rejected on load, naming the first move the corrected rules refuse and its index."""
    data = {
        "format": "peloton-record/1",
        "game": "mind-cycling",
        "rules": {"wind": "front", "relay_limit": 3},
        "course": FLAT.to_dict(),
        "teams": {"A": "DSC", "B": "DSC"},
        "players": {},
        "start": CHAIN,
        "moves": moves,
        "result": None,
    }
    with pytest.raises(peloton.RecordError, match=rule) as info:
        mc.Record.from_json(json.dumps(data))
    assert info.value.index == index
    assert f"move {index} ({moves[index]!r})" in str(info.value)
