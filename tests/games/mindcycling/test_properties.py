"""Hypothesis properties: random valid courses, random setups, random games.

Every random game terminates; no two riders ever share a square; riders never move
backwards; the engine agrees move after move with an independent reference model of
the rules (tests/games/mindcycling/model.py); notation and MCN round-trip.

The contract every game keeps (records replay, MC-10.3; copies are independent,
MC-10.4; errors leave the state unchanged) is checked in tests/games/contract.py.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import peloton
from peloton.games import mindcycling as mc

from .model import LETTERS, Model, parse

KINDS = ("plain", "sprint", "mountain")
COMPOSITIONS = {3: ["DSC"], 4: ["DDSC", "DSSC", "DSCC"], 5: ["DDSSC", "DDSCC", "DSSCC"]}


def choose(rng: random.Random, moves: list[Any]) -> Any:
    """A random move, first choosing uniformly among the kinds on offer, so that
    wheels, relays, gives and attacks are played often."""
    kinds = sorted({m.kind for m in moves})
    kind = rng.choice(kinds)
    return rng.choice([m for m in moves if m.kind == kind])


MAX_MOVES = 5_000


# ---------------------------------------------------------------- courses


def road_ok(lanes: int, finish: int, rocks: Iterable[tuple[int, int]]) -> bool:
    """MC-1.3 reference: every row keeps a free square, every free square can step to a
    free square of the next row."""
    rocks = set(rocks)
    for r in range(1, finish):
        free = [lane for lane in range(lanes) if (r, lane) not in rocks]
        if not free:
            return False
        if r + 1 < finish:
            for lane in free:
                if all((r + 1, m) in rocks for m in (lane - 1, lane, lane + 1) if 0 <= m < lanes):
                    return False
    return True


@st.composite
def course_data(
    draw: Any, lanes: int | None = None, start_rows: int | None = None, max_gap: int = 6
) -> dict[str, Any]:
    """MC-1.5 keys of a valid course: 3-7 lanes, 1-4 tabs (sprint and mountain at most
    once each), up to 2 feed squares and up to 6 rocks that keep the road connected."""
    lanes = lanes if lanes is not None else draw(st.integers(3, 7))
    start_rows = start_rows if start_rows is not None else draw(st.integers(1, 3))
    kinds = draw(
        st.lists(st.sampled_from(KINDS), min_size=1, max_size=4).filter(
            lambda ks: ks.count("sprint") <= 1 and ks.count("mountain") <= 1
        )
    )
    rows = [start_rows + 1]
    for _ in kinds[1:]:
        rows.append(rows[-1] + draw(st.integers(1, max_gap)))
    finish = rows[-1] + draw(st.integers(1, max_gap))
    first = rows[0]
    road = st.tuples(st.integers(first, finish - 1), st.integers(0, lanes - 1))
    feed = draw(st.lists(road, max_size=2, unique=True))
    rocks: list[tuple[int, int]] = []
    for sq in draw(st.lists(road, max_size=8, unique=True)):
        if len(rocks) < 6 and sq not in feed and road_ok(lanes, finish, [*rocks, sq]):
            rocks.append(sq)
    return {
        "name": "random",
        "lanes": lanes,
        "finish": finish,
        "sections": [[r, k] for r, k in zip(rows, kinds, strict=True)],
        "feed": [f"{LETTERS[lane]}{r}" for r, lane in feed],
        "rocks": [f"{LETTERS[lane]}{r}" for r, lane in rocks],
    }


@settings(max_examples=150, deadline=None)
@given(course_data())
def test_generated_courses_are_valid(data: dict[str, Any]) -> None:
    """MC-1.3: every course the strategy builds is accepted, with the sections of MC-1.2."""
    c = mc.Course.from_dict(data)
    assert c.to_dict() == data
    tabs = data["sections"]
    for r in range(1, data["finish"]):
        expected = "start"
        for row, kind in tabs:
            if r >= row:
                expected = kind
        assert c.section_of(r) == expected


@settings(max_examples=150, deadline=None)
@given(
    st.integers(3, 6),
    st.lists(st.tuples(st.integers(3, 12), st.integers(0, 5)), max_size=6, unique=True),
)
def test_course_validation_matches_reference(lanes: int, rocks: list[tuple[int, int]]) -> None:
    """MC-1.3: a rock layout is rejected exactly when some row is closed or some free
    square is walled in."""
    rocks = [(r, lane) for r, lane in rocks if lane < lanes]
    data = {"lanes": lanes, "finish": 13, "sections": [[3, "plain"]],
            "rocks": [f"{LETTERS[lane]}{r}" for r, lane in rocks]}  # fmt: skip
    if road_ok(lanes, 13, rocks):
        assert mc.Course.from_dict(data).rocks == tuple(data["rocks"])
    else:
        with pytest.raises(peloton.CourseError) as info:
            mc.Course.from_dict(data)
        assert re.search(r"walled|all rocks", str(info.value))


# ---------------------------------------------------------------- games


@st.composite
def setups(draw: Any) -> dict[str, Any]:
    """A random game: course, teams, wind, relay limit and a seed for the choices."""
    if draw(st.integers(0, 4)) == 0:  # solo, MC-9
        lanes = draw(st.integers(5, 7))
        teams = {"A": draw(st.sampled_from(COMPOSITIONS[5]))}
        start_rows = draw(st.integers(1, 2))
    else:
        count = draw(st.integers(2, 4))
        size = draw(st.integers(3, 5))
        teams = {"ABCD"[i]: draw(st.sampled_from(COMPOSITIONS[size])) for i in range(count)}
        lanes = draw(st.integers(3, 7))
        start_rows = -(-count * size // lanes) + draw(st.integers(0, 1))
    data = draw(course_data(lanes=lanes, start_rows=start_rows, max_gap=5))
    return {
        "course": mc.Course.from_dict(data),
        "teams": teams,
        "wind": draw(st.sampled_from(["front", "left", "right"])),
        "relay_limit": draw(st.integers(0, 4)),
        "seed": draw(st.integers(0, 2**32 - 1)),
    }


def new_state(setup: dict[str, Any]) -> mc.State:
    kw = {"wind": setup["wind"], "relay_limit": setup["relay_limit"]}
    if len(setup["teams"]) == 1:
        return mc.new_solo(setup["course"], team=setup["teams"]["A"], **kw)
    return mc.new_game(setup["course"], teams=setup["teams"], **kw)


def fingerprint(s: mc.State) -> tuple[Any, ...]:
    """What the public API shows of a state."""
    return (
        tuple(s.riders()),
        s.current_rider,
        s.current_player,
        s.round,
        s.is_over,
        tuple(str(m) for m in s.legal_moves()),
        s.result,
    )


def squares(s: mc.State) -> dict[str, str]:
    return {r.id: r.square for r in s.riders() if r.square is not None}


def check_static(s: mc.State, course: mc.Course) -> None:
    """Invariants of any position."""
    on_road = squares(s)
    assert len(set(on_road.values())) == len(on_road), f"two riders share a square: {on_road}"
    rocks = set(course.rocks)
    for rid, sq in on_road.items():
        assert course.parse_square(sq) is not None, (rid, sq)
        assert sq not in rocks, (rid, sq)
    finished = s.result.places
    assert len(set(finished)) == len(finished)
    assert not set(finished) & set(on_road)
    assert all(not s.rider(r).has_bottle for r in finished)


def play_random_game(setup: dict[str, Any], *, model_check: bool = True) -> mc.State:
    """Play a whole random game, checking every invariant after every move."""
    rng = random.Random(setup["seed"])
    course = setup["course"]
    s = new_state(setup)
    model = Model(course, s.teams, setup["wind"], setup["relay_limit"])
    last_round = -1
    turns_this_round: list[str] = []
    start_ids: list[str] = []
    for _ in range(MAX_MOVES):
        check_static(s, course)
        moves = s.legal_moves()
        texts = [str(m) for m in moves]
        if model_check:
            assert s.is_over == model.over
            assert set(texts) == model.legal(), (s.round, s.current_rider, s.history[-6:])
            assert s.current_rider == model.current
            assert squares(s) == {r: f"{LETTERS[sq[1]]}{sq[0]}" for r, sq in model.pos.items()}
            assert {r.id for r in s.riders() if r.has_bottle} == model.bottles
            assert s.result.places == tuple(model.finished)
            assert {k: v for k, v in s.result.medals.items() if k != "team"} == model.medals
        if s.is_over:
            assert moves == []
            break
        assert moves, "no legal move in a game that is not over"
        assert len(set(texts)) == len(texts)
        for m, t in zip(moves, texts, strict=True):  # MC-10.1 round trip
            assert str(mc.parse_move(t)) == t and mc.parse_move(t) == m
        if s.round != last_round and s.round >= 1:  # the start of a round
            if last_round >= 1:
                assert sorted(turns_this_round) == sorted(start_ids), "MC-4.1: one turn each"
            start_ids = list(squares(s))
            turns_this_round = []
            last_round = s.round
            text = s.to_mcn()
            again = mc.from_mcn(course, text, wind=setup["wind"], relay_limit=setup["relay_limit"])
            assert again.to_mcn() == text  # MC-10.2 canonical round trip
            assert fingerprint(again) == fingerprint(s)
            assert again == s  # a snapshot equals the state it was taken from
            riders = re.findall(r"([A-G][DSC][1-9]):", text.split(" / ")[0])
            assert riders == sorted(riders)
        move = choose(rng, moves)
        before = squares(s)
        mover = s.current_rider
        s.play(move)
        if model_check:
            model.play(str(move))
        after = squares(s)
        for rid, sq in after.items():  # riders never move backwards
            if rid in before:
                assert int(sq[1:]) >= int(before[rid][1:]), (rid, before[rid], sq)
        if s.round >= 1 and before and move.kind not in (">", "@"):
            turns_this_round.append(mover)  # type: ignore[arg-type]
            if move.kind != "=":
                assert mover not in after or int(after[mover][1:]) > int(before[mover][1:])
    else:  # pragma: no cover - a failure
        pytest.fail("the game did not end")
    assert s.is_over and s.current_rider is None
    places = s.result.places
    if len(s.teams) == 1:  # MC-9.3
        assert len(places) >= 4 and s.result.solo_score is not None
        assert s.result.solo_score[0] == s.round
    else:  # MC-8.5
        assert len(places) == len(s.ids) or len(places) >= 12
        assert s.result.trophy in s.teams
        assert s.result.medals["team"] in s.teams
        assert s.result.medals["cyclist"] == places[0]
    return s


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_random_games_follow_the_rules(setup: dict[str, Any]) -> None:
    """Random games end; no shared squares; no backward moves; one turn per rider per
    round (MC-4.1); the engine's legal moves, turns, bottles, places and medals equal
    the reference model's after every move; notation and MCN round-trip."""
    play_random_game(setup)


# ---------------------------------------------------------------- random positions


@st.composite
def positions(draw: Any) -> dict[str, Any]:
    """A random legal MCN position (not necessarily reachable by play): riders on random
    free road squares with random bottles, some riders already across, medals for
    riders past a section."""
    setup = draw(setups())
    course: mc.Course = setup["course"]
    ids = sorted(r.id for r in new_state(setup).riders())
    d = course.to_dict()
    rocks = set(d["rocks"])
    road = [f"{LETTERS[lane]}{r}" for r in range(1, d["finish"]) for lane in range(d["lanes"])]
    road = [sq for sq in road if sq not in rocks]
    crossed = draw(st.integers(0, min(len(ids) - 1, 14)))
    order = draw(st.permutations(ids))
    finished, riding = list(order[:crossed]), sorted(order[crossed:])
    spots = draw(
        st.lists(st.sampled_from(road), min_size=len(riding), max_size=len(riding), unique=True)
    )
    riders = {rid: (sq, draw(st.booleans())) for rid, sq in zip(riding, spots, strict=True)}
    medals = {}
    for key in ("sprint", "mountain"):
        last = course.last_row_of(key)
        if last is None or not draw(st.booleans()):
            continue
        past = [r for r in finished] + [r for r, (sq, _) in riders.items() if int(sq[1:]) > last]
        if past:
            medals[key] = draw(st.sampled_from(past))
    # Canonical MCN written by hand (MC-10.2): ids in string order, '+' for a bottle.
    road_part = ",".join(f"{rid}:{sq}{'+' if b else ''}" for rid, (sq, b) in sorted(riders.items()))
    medal_part = ",".join(f"{k}={medals[k]}" for k in ("sprint", "mountain") if k in medals)
    text = f"{draw(st.integers(1, 30))} {road_part or '-'} / {','.join(finished) or '-'} / {medal_part or '-'}"
    return {**setup, "mcn": text}


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_random_positions_follow_the_rules(setup: dict[str, Any]) -> None:
    """From any legal MCN position (dense packs, bottles anywhere, riders across), the
    engine and the reference model agree move after move until the end; MCN is
    canonical."""
    course = setup["course"]
    s = mc.from_mcn(course, setup["mcn"], wind=setup["wind"], relay_limit=setup["relay_limit"])
    pos = mc.parse_mcn(setup["mcn"])
    model = Model(course, s.teams, setup["wind"], setup["relay_limit"])
    model.start_position(pos.riders, pos.finished, pos.medals, pos.round)
    if not s.is_over:
        assert s.to_mcn() == setup["mcn"]
    rng = random.Random(setup["seed"])
    for _ in range(MAX_MOVES):
        check_static(s, course)
        assert s.is_over == model.over
        assert {str(m) for m in s.legal_moves()} == model.legal(), (
            setup["mcn"],
            [str(m) for m in s.history],
        )
        assert s.current_rider == model.current
        assert {r.id for r in s.riders() if r.has_bottle} == model.bottles
        assert s.result.places == tuple(model.finished)
        assert {k: v for k, v in s.result.medals.items() if k != "team"} == model.medals
        if s.is_over:
            break
        move = choose(rng, s.legal_moves())
        s.play(move)
        model.play(str(move))
    assert s.is_over


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.data())
def test_illegal_moves_rejected_and_harmless(setup: dict[str, Any], data: Any) -> None:
    """Any well-formed move that is not in legal_moves() raises IllegalMoveError quoting
    it, and leaves the state exactly as it was; legal ones are accepted."""
    rng = random.Random(setup["seed"])
    s = new_state(setup)
    ids = [r.id for r in s.riders()]
    d = setup["course"].to_dict()
    text_of = st.one_of(
        st.builds(lambda r, q: f"{r}@{q}", st.sampled_from(ids), SQUARE),
        st.builds(
            lambda r, q, k: f"{r}-{q}{k}",
            st.sampled_from(ids),
            st.one_of(
                st.just("#"),
                st.builds(
                    lambda lane, row: f"{LETTERS[lane]}{row}",
                    st.integers(0, d["lanes"]),
                    st.integers(1, d["finish"]),
                ),
            ),
            st.sampled_from(["", "!", "w", "r"]),
        ),
        st.builds(lambda r, t: f"{r}>{t}", st.sampled_from(ids), st.sampled_from(ids)),
        st.builds(lambda r: f"{r}=", st.sampled_from(ids)),
    )
    for _ in range(data.draw(st.integers(0, 120))):
        if s.is_over:
            break
        s.play(choose(rng, s.legal_moves()))
    legal = {str(m) for m in s.legal_moves()}
    before, shown = s.copy(), fingerprint(s)
    for text in data.draw(st.lists(text_of, min_size=1, max_size=25)):
        if text in legal:
            continue
        with pytest.raises(peloton.IllegalMoveError) as info:
            s.play(text)
        assert text in str(info.value)
        assert s == before and fingerprint(s) == shown
    if legal:
        s.play(sorted(legal)[0])
        assert len(s.history) == len(before.history) + 1


# ---------------------------------------------------------------- notation

RIDER = st.from_regex(r"[A-G][DSC][1-9]", fullmatch=True)
SQUARE = st.from_regex(r"[a-z][1-9][0-9]{0,2}", fullmatch=True)
MOVE_TEXT = st.one_of(
    st.builds(lambda r, q: f"{r}@{q}", RIDER, SQUARE),
    st.builds(
        lambda r, q, k: f"{r}-{q}{k}",
        RIDER,
        st.one_of(SQUARE, st.just("#")),
        st.sampled_from(["", "!", "w", "r"]),
    ),
    st.builds(lambda r, t: f"{r}>{t}", RIDER, RIDER),
    st.builds(lambda r: f"{r}=", RIDER),
)


@settings(max_examples=300, deadline=None)
@given(MOVE_TEXT)
def test_move_notation_round_trip(text: str) -> None:
    """MC-10.1: str(parse_move(s)) == s for every well-formed move text."""
    assert str(mc.parse_move(text)) == text


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        MOVE_TEXT.map(lambda t: t[:-1]),
        st.text(alphabet="ACDSa-g19#@>=!wr- ", max_size=9),
        st.text(max_size=6),
    )
)
def test_parser_accepts_exactly_canonical_text(text: str) -> None:
    """MC-10.1: the parser accepts exactly the canonical text: whatever parses prints
    back unchanged; anything else is a NotationError quoting the input."""
    try:
        move = mc.parse_move(text)
    except peloton.NotationError as exc:
        assert repr(text) in str(exc)
    else:
        assert str(move) == text


@settings(max_examples=100, deadline=None)
@given(setups())
def test_mcn_of_setup_positions_round_trip(setup: dict[str, Any]) -> None:
    """MC-10.2: after a random setup, to_mcn() parses back to the same position."""
    rng = random.Random(setup["seed"])
    s = new_state(setup)
    while s.round == 0:
        s.play(rng.choice(s.legal_moves()))
    text = s.to_mcn()
    again = mc.from_mcn(setup["course"], text, wind=setup["wind"], relay_limit=setup["relay_limit"])
    assert again.to_mcn() == text
    assert fingerprint(again) == fingerprint(s)
    assert again == s
    assert parse(text.split()[1].split(",")[0].split(":")[1].rstrip("+"))[0] >= 1
