"""MC-2: teams, riders, allowances, ids and bottles."""

from __future__ import annotations

import pytest

import peloton
from peloton.games import mindcycling as mc

from .helpers import course, max_row, play

#: Start zone rows 1-3, plain 4-9, sprint 10-19, mountain 20-39.
TABLE_COURSE = course([[4, "plain"], [10, "sprint"], [20, "mountain"]], 40, name="table")
SUBJECT_ROW = {"start": 2, "plain": 5, "sprint": 12, "mountain": 22}
TABLE = {
    "D": {"start": 7, "plain": 7, "sprint": 5, "mountain": 5},
    "S": {"start": 5, "plain": 5, "sprint": 7, "mountain": 3},
    "C": {"start": 5, "plain": 5, "sprint": 3, "mountain": 7},
}


def table_position(kind: str, section: str, sheltered: bool) -> mc.State:
    """Subject A<kind>1 alone at c<row> (sheltered by BD1 directly ahead if asked);
    every other rider on row 1."""
    r = SUBJECT_ROW[section]
    subject = f"A{kind}1"
    spots = iter(["a1", "b1", "c1", "d1", "e1"])
    entries = []
    for rid in ("AD1", "AS1", "AC1", "BD1", "BS1", "BC1"):
        if rid == subject:
            sq = f"c{r}"
        elif rid == "BD1" and sheltered:
            sq = f"c{r + 1}"
        else:
            sq = next(spots)
        entries.append(f"{rid}:{sq}{'+' if rid[1] == 'D' else ''}")
    return mc.from_mcn(TABLE_COURSE, "1 " + ",".join(entries) + " / - / -")


@pytest.mark.parametrize("sheltered", [False, True], ids=["against-wind", "sheltered"])
@pytest.mark.parametrize("section", ["start", "plain", "sprint", "mountain"])
@pytest.mark.parametrize("kind", ["D", "S", "C"])
def test_mc_2_1_allowance_by_type_and_section(kind: str, section: str, sheltered: bool) -> None:
    """MC-2.1 (and MC-5.2): the furthest square a rider reaches is its type's value for
    its section, minus 1 against the wind; the start zone counts as plain."""
    s = table_position(kind, section, sheltered)
    subject = f"A{kind}1"
    expected = TABLE[kind][section] - (0 if sheltered else 1)
    r = SUBJECT_ROW[section]
    if sheltered:
        assert s.current_rider == "BD1"
        play(s, f"BD1-a{r + 3}")
    assert s.current_rider == subject
    assert s.assessment(subject).allowance == expected  # type: ignore[union-attr]
    assert max_row(s) == r + expected


def test_mc_2_2_default_compositions() -> None:
    """MC-2.2: default compositions 3 = DSC, 4 = DDSC, 5 = DDSSC, 6 = DDSSCC."""
    assert mc.DEFAULT_COMPOSITIONS == {3: "DSC", 4: "DDSC", 5: "DDSSC", 6: "DDSSCC"}
    assert mc.default_teams(3, 4) == {"A": "DDSC", "B": "DDSC", "C": "DDSC"}
    assert mc.default_teams(2) == {"A": "DDSSCC", "B": "DDSSCC"}


@pytest.mark.parametrize(
    "teams",
    [
        {"A": "DSC"},  # one team is the solo version, not new_game
        {"A": "DSC", "C": "DSC"},  # letters must run A, B, ...
        {"B": "DSC", "A": "DSC"},  # in seat order
        {"A": "DS", "B": "DS"},  # fewer than 3 riders
        {"A": "DDSSCCD", "B": "DDSSCCD"},  # more than 6
        {"A": "DDDSC", "B": "DDDSC"},  # a type three times
        {"A": "DDSS", "B": "DDSS"},  # a type missing
        {"A": "DSC", "B": "DDSC"},  # unequal sizes
        {"A": "DSX", "B": "DSC"},  # unknown type
        {t: "DSC" for t in "ABCDEFGH"},  # 8 teams
    ],
)
def test_mc_2_2_bad_teams_rejected(teams: dict[str, str]) -> None:
    """MC-2.2: 2 to 7 teams lettered A.. in seat order, equal sizes 3-6, each type 1-2."""
    big = course([[5, "plain"]], 30, lanes=7)
    with pytest.raises(peloton.ConfigError):
        mc.new_game(big, teams=teams)


def test_mc_2_2_seven_teams_and_any_order_composition() -> None:
    """MC-2.2: up to 7 teams; a composition may be written in any order."""
    big = course([[5, "plain"]], 30, lanes=7)
    s = mc.new_game(big, teams={t: "CSD" for t in "ABCDEFG"})
    assert s.players == tuple("ABCDEFG")
    assert s.current_player == "A"  # A plays first
    assert len(s.riders()) == 21


def test_mc_2_3_rider_ids() -> None:
    """MC-2.3: id = team letter + type letter + ordinal counted per team and type."""
    s = mc.new_game(TABLE_COURSE, teams={"A": "SCDCD", "B": "DDSSC"})
    assert [r.id for r in s.riders()] == [
        "AC1", "AC2", "AD1", "AD2", "AS1",
        "BC1", "BD1", "BD2", "BS1", "BS2",
    ]  # fmt: skip
    r = s.rider("BS2")
    assert (r.team, r.type, r.square) == ("B", "S", None)
    with pytest.raises(KeyError):
        s.rider("AS2")


def test_mc_2_4_bottles_at_start() -> None:
    """MC-2.4: domestiques start with a bottle, sprinters and climbers without."""
    s = mc.new_game(TABLE_COURSE, teams={"A": "DDSC", "B": "DDSC"})
    assert {r.id: r.has_bottle for r in s.riders()} == {
        "AD1": True, "AD2": True, "AS1": False, "AC1": False,
        "BD1": True, "BD2": True, "BS1": False, "BC1": False,
    }  # fmt: skip
    squares = {"AD1": "a1", "AD2": "b1", "AS1": "c1", "AC1": "d1",
               "BD1": "a3", "BD2": "b3", "BS1": "c3", "BC1": "d3"}  # fmt: skip
    while s.round == 0:
        team = s.current_player
        rid = next(r for r in squares if r[0] == team and r in s.unplaced(team))  # type: ignore[operator]
        s.play(f"{rid}@{squares[rid]}")
    assert s.to_mcn() == ("1 AC1:d1,AD1:a1+,AD2:b1+,AS1:c1,BC1:d3,BD1:a3+,BD2:b3+,BS1:c3 / - / -")


def test_mc_2_4_at_most_one_bottle() -> None:
    """MC-2.4: a rider holds at most one bottle: no give to a teammate who holds one."""
    s = mc.from_mcn(TABLE_COURSE, "1 AC1:a1,AD1:c8+,AS1:c7+,BC1:c1,BD1:d1+,BS1:e1 / - / -")
    assert s.current_rider == "AD1"
    assert not any(">" in str(m) for m in s.legal_moves())
