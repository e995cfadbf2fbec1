"""The engine against the independent reference model (``model.py``), move by move.

Random games (modes classic, leg, itt, ttt; both levels; 1–6 teams; events on and off;
bundled and random valid courses; the start line or a random CYN position) are played on
both at once. Before every move the legal moves must be the same texts; after every move
the phase, the rider due, the player to act, the round, every rider's square, tokens and
flags, the team tokens and the cards left must agree; at every round start the CYN; at
the end the result. A chance step is taken half the time through ``chance_move`` with a
fresh ``Rng``, which must pick what the model picks (CY-13.2).

``benchmarks/cyclo_model_check.py`` runs many more games through :func:`check_game`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.core.rng import Rng
from peloton.games import cyclo as cy

from .model import CARDS, KINDS, LANES, TIMED, Model, MRider

ROAD = ["flat", "climb", "top", "cobbles", "slope", "end", "lastkm"]
BUNDLED = [
    "italian-4",
    "italian-5",
    "flemish-4",
    "flemish-5",
    "french-4",
    "french-5",
    "flat-stage",
    "mountain-stage",
    "cobble-stage",
    "prologue",
    "ttt",
]


class Discrepancy(AssertionError):
    """The engine and the model disagree."""


# --------------------------------------------------------------------- random games


def random_board(rnd: random.Random, name: str, first: bool, last: bool) -> dict[str, Any]:
    """A random valid board (CY-1.7)."""
    runs: list[list[Any]] = []
    if first and rnd.random() < 0.4:
        runs.append(["start", rnd.randint(1, 6), rnd.randint(1, 4)])
    for _ in range(rnd.randint(1, 5)):
        runs.append([rnd.choice(ROAD), rnd.randint(1, 9), rnd.choice([1, 2, 2, 3, 3, 4])])
    kinds = [kind for kind, count, _ in runs for _ in range(count)]
    size = len(kinds)
    dark = sorted(
        {
            k
            for k in range(1, size + 1)
            if kinds[k - 1] in ("cobbles", "slope") and rnd.random() < 0.35
        }
    )
    events = sorted(
        {k for k in range(1, size + 1) if kinds[k - 1] != "start" and rnd.random() < 0.15}
    )
    lines: list[list[Any]] = []
    for k in range(1, size):
        if rnd.random() < 0.12:
            if kinds[k - 1] in ("climb", "slope") and rnd.random() < 0.7:
                lines.append([k, "mountain", rnd.choice(["3", "2", "1", "HC"])])
            else:
                lines.append([k, "sprint"])
    return {
        "name": name,
        "runs": runs,
        "dark": dark,
        "events": events,
        "lines": lines,
        "finish": last,
    }


def random_course(rnd: random.Random, timed: bool) -> dict[str, Any]:
    n = rnd.randint(1, 3)
    course: dict[str, Any] = {
        "name": "random",
        "boards": [random_board(rnd, f"R{i}", i == 0, i == n - 1) for i in range(n)],
    }
    if timed and rnd.random() < 0.3:
        first = course["boards"][0]
        size = sum(count for _, count, _ in first["runs"])
        if not any(kind == "start" for kind, _, _ in first["runs"][1:]):
            course["start"] = rnd.randint(1, size)
    return course


@dataclass
class Game:
    """One game to check: the options and, maybe, a CYN to start from."""

    mode: str
    teams: list[str]
    course: dict[str, Any]
    level: str
    events: bool
    tokens: dict[str, int] = field(default_factory=dict)
    cyn: str | None = None

    def engine(self) -> cy.State:
        if self.cyn is not None:
            return cy.from_cyn(
                self.cyn, self.mode, course=self.course, level=self.level, events=self.events
            )
        return cy.new_game(
            self.mode,
            teams=self.teams,
            course=self.course,
            level=self.level,
            events=self.events,
            tokens=self.tokens or None,
        )

    def model(self, course: dict[str, Any]) -> Model:
        if self.cyn is not None:
            return Model.from_cyn(self.cyn, course, self.mode, self.level, self.events)
        return Model.new(course, self.mode, self.teams, self.level, self.events, self.tokens)


def random_cyn(rnd: random.Random, model: Model) -> str:
    """A random possible position of the riders of ``model`` at the start of a round:
    riders on the course (no two of one world on a square) or already finished, tokens,
    flags, points, line lists, cards drawn."""
    n = model.course.n
    model.round = rnd.choice([rnd.randint(2, 40), rnd.randint(2, 40), rnd.randint(298, 300)])
    taken: set[tuple[str, int, int]] = set()
    near = rnd.random() < 0.5  # bunched, to meet wheels, swaps, full spaces and falls
    centre = rnd.randint(1, n)
    skips = rnd.choice([0.0, 0.1, 0.1, 0.5])
    racing = list(model.riders)
    done: list[MRider] = []
    if rnd.random() < 0.3:  # some riders have finished already
        rnd.shuffle(racing)
        cut = rnd.randint(0, len(racing) - 1)
        done, racing = racing[:cut], racing[cut:]
    for r in sorted(racing, key=lambda r: r.id):
        for _ in range(100):
            pos = min(n, max(1, centre + rnd.randint(-4, 3))) if near else rnd.randint(0, n)
            width = model.course.spot(pos).width if pos else 8
            lane = rnd.randrange(width) if pos else rnd.randrange(8)
            if (model.world(r), pos, lane) not in taken:
                break
        else:
            pos = 0
            lane = min(k for k in range(30) if (model.world(r), 0, k) not in taken)
        taken.add((model.world(r), pos, lane))
        r.pos, r.lane = pos, lane
        r.skip = rnd.random() < skips
        r.tech = rnd.random() < 0.1
        r.hunger = 0 if model.pro or rnd.random() < 0.8 else rnd.choice([1, 2])
    for r in done:
        r.pos = None
        r.finished = True
        r.fin_round = rnd.randint(1, model.round - 1)
        r.past = rnd.randint(1, 9)
        r.own_time = 10 * r.fin_round - r.past if model.mode in TIMED else None
    done.sort(key=lambda r: (r.fin_round, -r.past))
    model.finish_list = [r.id for r in done]
    for r in model.riders:
        r.tokens = rnd.choice([0, 0, 1, 2, 4, 5]) if model.pro else 0
        if model.mode == "leg":
            r.points = rnd.choice([0, 0, 3, 10])
            r.red = rnd.choice([0, 0, 2])
    for team in model.team_tokens:
        model.team_tokens[team] = rnd.choice([0, 1, 2, 5]) if model.pro else 0
    for i, (after, _, _) in enumerate(model.scoring):
        beyond = [r.id for r in model.riders if r.pos is None or r.pos > after]
        rnd.shuffle(beyond)
        model.lists[i] = beyond
    if model.events:
        everything = rnd.random() < 0.2
        model.drawn = [
            c for c, count in CARDS for _ in range(count if everything else rnd.randint(0, count))
        ]
    return model.to_cyn()


def random_game(rnd: random.Random) -> Game:
    mode = rnd.choice(["classic", "classic", "leg", "leg", "itt", "ttt"])
    timed = mode in ("itt", "ttt")
    players = rnd.randint(1 if timed else 2, 6 if rnd.random() < 0.2 else 4)
    teams = (
        sorted(rnd.sample("ABCDEF", players)) if rnd.random() < 0.3 else list("ABCDEF"[:players])
    )
    if rnd.random() < 0.5:
        name = rnd.choice(BUNDLED if timed else [c for c in BUNDLED if c not in ("prologue",)])
        course = cy.Course.load(name).to_dict()
    else:
        course = random_course(rnd, timed)
    level = rnd.choice(["pro", "pro", "starter"])
    events = mode in ("classic", "leg") and rnd.random() < (0.8 if mode == "classic" else 0.5)
    tokens = {}
    if level == "pro" and rnd.random() < 0.3:
        tokens = {t + k: rnd.randint(0, 5) for t in teams for k in KINDS if rnd.random() < 0.5}
    game = Game(mode, teams, course, level, events, tokens)
    if rnd.random() < 0.45:
        base = Model.new(course, mode, teams, level, events, tokens)
        if rnd.random() < 0.4:  # some riders only (tests may use partial teams)
            keep = rnd.sample(base.riders, rnd.randint(1, len(base.riders)))
            if mode in ("classic", "leg") and len({r.team for r in keep}) < 2:
                keep = base.riders
            base.riders = sorted(keep, key=lambda r: r.id)
            base.teams = sorted({r.team for r in keep})
            base.team_tokens = {t: base.team_tokens[t] for t in base.teams}
        game.cyn = random_cyn(rnd, base)
        game.teams = base.teams
    return game


# --------------------------------------------------------------------- comparing


def _fail(what: str, engine: Any, model: Any, history: list[str], game: Game) -> None:
    tail = " ".join(history[-12:])
    raise Discrepancy(
        f"{what}: engine {engine!r} != model {model!r}\n  after {len(history)} moves, last: {tail}\n"
        f"  game: mode={game.mode} level={game.level} events={game.events} teams={game.teams} "
        f"cyn={game.cyn!r} tokens={game.tokens}\n  course={game.course}"
    )


def compare(state: cy.State, model: Model, history: list[str], game: Game) -> None:
    """Everything public after a move."""

    def same(what: str, engine: Any, mine: Any) -> None:
        if engine != mine:
            _fail(what, engine, mine, history, game)

    same("over", state.is_over, model.over)
    same("phase", state.phase, model.phase)
    same("due", state.due, model.due)
    same("current_player", state.current_player, model.current_player)
    same("round", state.round, model.round)
    for r in model.riders:
        info = state.rider(r.id)
        square = model.square(r)
        same(f"{r.id} square", info.square, square)
        same(f"{r.id} position", info.position, r.pos)
        same(f"{r.id} tokens", info.tokens, r.tokens)
        same(f"{r.id} skip", info.skip, r.skip)
        same(f"{r.id} technical", info.technical, r.tech)
        same(f"{r.id} hunger", info.hunger, r.hunger)
        same(f"{r.id} finished", info.finished, r.finished)
        same(f"{r.id} type", info.type, r.type_name)
    same("team_tokens", dict(state.team_tokens), {t: n for t, n in model.team_tokens.items()})
    if game.events:
        same("cards_left", dict(state.cards_left), model.left())
    if not model.over:
        same("at_round_start", state.at_round_start, not model.turn_started)
        if state.at_round_start:
            same("to_cyn", state.to_cyn(), model.round_cyn)
    compare_result(state, model, history, game)


def compare_result(state: cy.State, model: Model, history: list[str], game: Game) -> None:
    engine = state.result.to_dict()
    mine = model.result()
    for key, value in mine.items():
        if engine[key] != value:
            _fail(f"result[{key!r}]", engine[key], value, history, game)


def check_game(game: Game, seed: int, max_moves: int = 100_000) -> int:
    """Play one game on engine and model; raise :class:`Discrepancy` at the first
    difference. The number of moves checked."""
    rnd = random.Random(seed)
    bias = rnd.choice([0.0, 0.5, 0.7, 0.9])  # how often a ride goes (nearly) furthest
    state = game.engine()
    model = game.model(game.course)
    history: list[str] = []
    compare(state, model, history, game)
    try:
        return _check_game(state, model, game, rnd, history, max_moves, bias)
    except Discrepancy:
        raise
    except Exception as error:  # the engine failed where the model played on
        _fail(
            f"engine raised {type(error).__name__}: {error}", "an exception", "none", history, game
        )
        raise  # pragma: no cover - _fail raises


def _check_game(
    state: cy.State,
    model: Model,
    game: Game,
    rnd: random.Random,
    history: list[str],
    max_moves: int,
    bias: float,
) -> int:
    while not model.over and len(history) < max_moves:
        engine_legal = sorted(str(m) for m in state.legal_moves())
        model_legal = sorted(model.legal())
        if engine_legal != model_legal:
            _fail(
                f"legal moves in phase {model.phase} (due {model.due})",
                sorted(set(engine_legal) - set(model_legal)),
                sorted(set(model_legal) - set(engine_legal)),
                history,
                game,
            )
        if model.current_player == "chance" and rnd.random() < 0.5:
            chance_seed = rnd.randrange(2**32)
            text = str(state.chance_move(Rng(chance_seed)))
            mine = model.chance_text(Rng(chance_seed))
            if text != mine:
                _fail("chance_move", text, mine, history, game)
        else:
            text = choose(rnd, model, model_legal, bias)
        state.play(text)
        model.play(text)
        history.append(text)
        compare(state, model, history, game)
        if state.at_round_start or state.is_over:  # what the table sends must build too
            shown = cy.snapshot(state, None)
            if shown["result"] != state.result.to_dict() or shown["phase"] != model.phase:
                _fail("snapshot", shown["phase"], model.phase, history, game)
    return len(history)


def choose(rnd: random.Random, model: Model, legal: list[str], bias: float) -> str:
    """A move, biased so that games move on: rides to the furthest target (or one
    short of it) with probability ``bias``, else any legal move."""
    if model.phase == "ride" and rnd.random() < bias:

        def reach(text: str) -> int:
            target = text.split("-", 1)[1].split("/")[0]
            return model.course.n + int(target[1:]) if target.startswith("#") else int(target)

        best = max(reach(t) for t in legal)
        legal = [t for t in legal if reach(t) >= best - 1]
    return rnd.choice(legal)


# --------------------------------------------------------------------- the test


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_engine_agrees_with_the_model(seed: int) -> None:
    """Random games, move by move: legal moves, positions, CYN and result agree."""
    rnd = random.Random(seed)
    game = random_game(rnd)
    check_game(game, rnd.randrange(2**32), max_moves=600)


def test_square_letters() -> None:
    """The model's lane letters are the engine's (a sanity check of the comparison)."""
    assert LANES[:4] == "abcd"


# --------------------------------------------------------------------- CY-18 on both


def lockstep(game: Game, moves: list[str]) -> tuple[cy.State, Model]:
    """Play ``moves`` on engine and model, comparing before and after each."""
    state, model = game.engine(), game.model(game.course)
    history: list[str] = []
    compare(state, model, history, game)
    for text in moves:
        assert sorted(str(m) for m in state.legal_moves()) == sorted(model.legal()), (history, text)
        state.play(text)
        model.play(text)
        history.append(text)
        compare(state, model, history, game)
    assert sorted(str(m) for m in state.legal_moves()) == sorted(model.legal())
    return state, model


def flemish(cyn: str, level: str = "pro", mode: str = "classic", events: bool = True) -> Game:
    return Game(mode, [], cy.Course.load("flemish-4").to_dict(), level, events, cyn=cyn)


def test_cy_18_scenarios_agree_with_the_model() -> None:
    """The road scenarios of CY-18, re-derived on the model, move by move."""
    # 18.1 room
    _, m = lockstep(
        flemish("2 AH1:a40,AS1:a44,BS1:b44,CS1:c44", "starter"),
        ["roll:3,4", "AS1-51", "roll:3,4", "BS1-51", "roll:3,4", "CS1-51", "roll:5,6"],
    )
    assert m.legal() == ["AH1-51"]
    m.play("AH1-51")
    assert m.square(m.rider("AH1")) == "a50"
    # 18.2 dark squares and panels
    _, m = lockstep(flemish("3 AH1:a75*4 / A*4"), ["roll:1,1"])
    assert set(m.legal()) == {
        "AH1-77",
        "AH1-83/r",
        "AH1-83/t",
        "AH1-89/rr",
        "AH1-89/rt",
        "AH1-89/tt",
    }
    _, m = lockstep(flemish("3 AH1:a75*4 / A*4"), ["roll:1,1", "AH1-77"])
    assert m.square(m.rider("AH1")) == "a74"
    _, m = lockstep(flemish("3 AH1:a75*4 / A*4"), ["roll:1,1", "AH1-83/r"])
    assert m.square(m.rider("AH1")) == "a80"
    _, m = lockstep(flemish("3 AS1:a63*4 / A*4"), ["roll:2", "AS1-65"])
    assert m.square(m.rider("AS1")) == "a64"
    # 18.3 holding back, wheel, attack
    _, m = lockstep(
        flemish("7 AH1:a43*4,BC1:a50*4 / A*4,B*4"),
        ["roll:2,3", "BC1-55", "roll:6,6", "AH1-54", "BC1~-", "roll:4,5", "BC1-70/t", "AH1>BC1"],
    )
    assert m.round_cyn == "9 AH1:a69*4,BC1:a70*4 / A*4,B*3 / - / - / -"
    _, m = lockstep(
        flemish("7 AH1:a43*4,BC1:a50*4 / A*4,B*4"),
        ["roll:2,3", "BC1-55", "roll:6,6", "AH1-54", "BC1~-", "roll:4,5", "BC1-76/rr"],
    )
    assert (m.phase, m.due) == ("roll", "AH1")
    # 18.4 swap with consent
    _, m = lockstep(
        flemish("9 AS1:a30*4,BH1:a29*4 / A*4,B*4"),
        ["AS1~BH1", "BH1~yes", "roll:3,4", "BH1-43/t", "AS1>BH1"],
    )
    assert m.round_cyn == "10 AS1:a42*4,BH1:a43*4 / A*4,B*3 / - / - / -"
    _, m = lockstep(flemish("9 AS1:a30*4,BH1:a29*4 / A*4,B*4"), ["AS1~BH1", "BH1~no"])
    assert (m.phase, m.due, m.square(m.rider("AS1"))) == ("roll", "AS1", "a30")
    # 18.5 fall
    _, m = lockstep(
        flemish("4 BH1:a52s,BS1:a53,CC1:a40", "starter"),
        ["roll:1,1", "BS1-55", "roll:6,6", "CC1-52", "draw:fall"],
    )
    assert set(m.legal()) == {"fall:-", "fall:BH1"}
    _, m = lockstep(
        flemish("4 BH1:a52s,BS1:a53,CC1:a40", "starter"),
        ["roll:1,1", "BS1-55", "roll:6,6", "CC1-52", "draw:fall", "fall:BH1"],
    )
    assert m.round_cyn == "5 BH1:a52s,BS1:a55,CC1:b52s / - / - / - / fall"
    _, m = lockstep(
        flemish("4 BH1:a51,BS1:a53,CC1:a40", "starter"),
        ["roll:1,1", "BS1-55", "roll:1,1", "BH1-53", "roll:6,6", "CC1-52", "draw:fall"],
    )
    assert m.legal() == ["fall:-"]
    _, m = lockstep(flemish("4 AS1:a100", "starter"), ["roll:4,4", "AS1-108", "draw:technical"])
    assert not m.rider("AS1").tech
    # 18.11 chance sets and climbs
    _, m = lockstep(flemish("4 AS1:a110,BC1:a101", "starter"), [])
    assert len(m.legal()) == 56
    italian = cy.Course.load("italian-4").to_dict()
    _, m = lockstep(Game("classic", [], italian, "pro", False, cyn="4 AC1:a40,BS1:a20"), [])
    assert len(m.legal()) == 6
    _, m = lockstep(Game("classic", [], italian, "pro", False, cyn="4 AC1:a40,BS1:a20"), ["roll:3"])
    assert set(m.legal()) == {"AC1-41", "AC1-42", "AC1-43", "AC1-44"}
    _, m = lockstep(
        Game("classic", [], italian, "pro", False, cyn="4 AS1:a40*3,BS1:a20 / A*2"), ["roll:3"]
    )
    assert set(m.legal()) == {"AS1-41", "AS1-42", "AS1-43"}
    # 18.12 the start
    start = Game("classic", ["A", "B"], cy.Course.load("flemish-4").to_dict(), "starter", False)
    _, m = lockstep(
        start, ["roll:3,4", "AS1-7", "roll:3,4", "AC1-7", "roll:3,4", "AH1-7", "roll:3,4", "AH2-7"]
    )
    squares = [m.square(m.rider(r)) for r in ("AS1", "AC1", "AH1", "AH2")]
    assert squares == ["a7", "b7", "c7", "a6"]
    assert m.round_cyn.startswith("1 AC1:c0,AH1:e0,AH2:g0,AS1:a0,BC1:d0,BH1:f0,BH2:h0,BS1:b0 ")
    pro = Game("classic", ["A", "B"], cy.Course.load("flemish-4").to_dict(), "pro", False)
    _, m = lockstep(pro, ["roll:1,2"])
    assert {t for t in m.legal() if "/" not in t} == {"AS1-1", "AS1-2", "AS1-3"}
    assert "AS1-15/rr" in m.legal() and "AS1-16/rr" not in m.legal()


# --------------------------------------------------------------------- hand checks on both

#: Positions 1 flat, 2-6 cobbles (4 dark: back 3), 7-16 flat, one lane; an event on 2.
NARROW = {
    "name": "narrow",
    "boards": [
        {
            "name": "R0",
            "runs": [["flat", 1, 1], ["cobbles", 5, 1], ["flat", 10, 1]],
            "dark": [4],
            "events": [2],
            "finish": True,
        }
    ],
}


def test_cy_4_6_fall_back_with_no_room_behind_goes_to_the_lowest_free_space_above() -> None:
    """max(1, 4 - 3) = 1 is full and the start line is no fall-back square: the lowest
    position above 1 with room, 2."""
    state, m = lockstep(
        Game("classic", [], NARROW, "starter", False, cyn="2 AS1:a0,BS1:a1s"), ["roll:1,3", "AS1-4"]
    )
    assert state.rider("AS1").square == m.square(m.rider("AS1")) == "a2"


def test_cy_19_5_falling_back_onto_the_square_left_has_not_changed_space() -> None:
    """AS1 leaves a2 for the dark 4 and falls back onto a2 (vacated, so free): no card
    although 2 is an event space, no line."""
    state, _ = lockstep(
        Game("classic", [], NARROW, "starter", True, cyn="2 AS1:a2,BS1:a1s"), ["roll:1,1", "AS1-4"]
    )
    assert state.rider("AS1").square == "a2" and state.phase == "roll" and state.round == 3


def test_cy_5_2_followers_are_asked_in_lane_order() -> None:
    """Three riders behind AS1: asked a, b, c; a decline asks the next, a follow nobody."""
    game = flemish("5 AH1:c49*4,AS1:a50*4,BH1:a49*4,CH1:b49*4 / A*4,B*4,C*4", events=False)
    state, _ = lockstep(game, ["AS1~-", "roll:2,3", "AS1-55"])
    assert state.due == "BH1" and legal_texts(state) == {"BH1>AS1", "BH1>-"}
    state, _ = lockstep(game, ["AS1~-", "roll:2,3", "AS1-55", "BH1>-", "CH1>-", "AH1>AS1"])
    assert state.rider("AH1").square == "a54" and state.due == "BH1" and state.phase == "swap"


def test_cy_6_5_a_swap_over_a_line_crosses_nothing() -> None:
    """flat-stage's sprint after 50: BS1 swapped from 50 to 51 never crosses it; AS1,
    put back on 50, crosses it again by the wheel and takes the 5 points."""
    game = Game(
        "leg",
        [],
        cy.Course.load("flat-stage").to_dict(),
        "pro",
        False,
        cyn="5 AS1:a51*4,BS1:a50*4 / A*4,B*4",
    )
    state, m = lockstep(game, ["AS1~BS1", "BS1~yes", "roll:1,1", "BS1-53", "AS1>BS1"])
    assert state.to_cyn() == m.round_cyn == "6 AS1:a52*4+5,BS1:a53*4 / A*4,B*4 / - / 1=AS1 / -"


def test_cy_7_5_the_fall_picks_nobody_on_the_start_line() -> None:
    """AS1 falls on 2: its teammate AH1 two ahead and the rival BH1 beside it may fall
    with it, its teammate AC1 on the start line may not."""
    course = {
        "name": "wide",
        "boards": [{"name": "R0", "runs": [["flat", 16, 2]], "events": [2], "finish": True}],
    }
    game = Game(
        "classic", [], course, "starter", True, cyn="2 AC1:b0,AH1:a4s,AS1:a0,BH1:a2s,BS1:a9s"
    )
    state, _ = lockstep(game, ["roll:1,1", "AS1-2", "draw:fall"])
    assert legal_texts(state) == {"fall:-", "fall:AH1", "fall:BH1", "fall:AH1,BH1"}


def test_cy_3_6_the_guard_ends_a_race_after_round_300() -> None:
    """A leg still running after round 300 ends: the rider still racing ranks after the
    finisher and gets no finish points."""
    game = Game(
        "leg",
        [],
        cy.Course.load("flat-stage").to_dict(),
        "starter",
        False,
        cyn="300 AS1:a1,BS1:a119",
    )
    state, m = lockstep(game, ["roll:1,1,1", "BS1-#2", "roll:1,1", "AS1-3"])
    result = state.result
    assert result.over and m.over and result.places == ("BS1", "AS1")
    assert result.points == {"AS1": 0, "BS1": 15} and result.times == {"BS1": 0}


def legal_texts(state: cy.State) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def test_cy_18_6_to_18_8_times_and_points_agree_with_the_model() -> None:
    """CY-18.6 (leg times), 18.7 (mountain points), 18.8 (team time trial), rebuilt from
    CYN positions and played on both."""
    flemish_leg = cy.Course.load("flemish-4").to_dict()
    # 18.6: AS1 #5 and BS1 #2 in round 14; CH1 #8, BH1 #7, AH2 #7, CS1 #4 in round 15;
    # AC1 stops on #9 in round 17
    six = Game(
        "leg",
        [],
        flemish_leg,
        "starter",
        False,
        cyn="15 AC1:a100,AH2:b117,BH1:a117,CH1:a118,CS1:a116 / - / AS1:14.5+15,BS1:14.2+10",
    )
    moves = [
        "roll:4,6",
        "CH1-#8",
        "roll:4,6",
        "BH1-#7",
        "roll:4,6",
        "AH2-#7",
        "roll:2,3,3",
        "CS1-#4",
        "roll:5,5",
        "AC1-110",
        "roll:5,5",
        "AC1-120",
        "roll:6,6",
        "AC1-#9",
    ]
    state, m = lockstep(six, moves)
    assert (
        state.result.times
        == m.result()["times"]
        == {"AS1": 0, "BS1": 0, "CH1": 2, "BH1": 2, "AH2": 2, "CS1": 6, "AC1": 21}
    )
    assert (
        state.result.points
        == m.result()["points"]
        == {"AC1": 0, "AH2": 2, "AS1": 15, "BH1": 3, "BS1": 10, "CH1": 5, "CS1": 1}
    )
    # 18.7: AS1 crossed the mountain line after 70 in round 9; round 10 AC1 72, BH1 a71, CS1 b71
    seven = Game(
        "leg",
        [],
        flemish_leg,
        "starter",
        False,
        cyn="10 AC1:a66,AS1:a75^3,BH1:a69,CS1:a68 / - / - / 1=AS1,2=AS1",
    )
    state, m = lockstep(
        seven, ["roll:1,1", "AS1-77", "roll:2", "BH1-71", "roll:3", "CS1-71", "roll:6", "AC1-72"]
    )
    assert (
        state.to_cyn()
        == m.round_cyn
        == ("11 AC1:a72^2,AS1:a74^3,BH1:a71^1,CS1:b71 / - / - / 1=AS1,2=AS1+AC1+BH1+CS1 / -")
    )
    # 18.8: A finishes round 6 #2 (58), round 7 #9 (61) and #7 (63), round 8 #3 (77)
    prologue = cy.Course.load("prologue").to_dict()
    eight = Game("ttt", [], prologue, "starter", False, cyn="6 AC1:a12,AH1:b14,AH2:a5,AS1:a18")
    moves = [
        "roll:1,1,2",
        "AS1-#2",
        "roll:1,2",
        "AH1-17",
        "roll:1,2",
        "AC1-15",
        "roll:6,6",
        "AH2-17",
        "roll:6,6",
        "AH1-#9",
        "roll:1,1",
        "AH2-19",
        "roll:6,6",
        "AC1-#7",
        "roll:2,2",
        "AH2-#3",
    ]
    state, m = lockstep(eight, moves)
    assert state.is_over and m.over
    assert state.result.team_times == m.result()["team_times"] == {"A": 63}
    assert (
        state.result.times == m.result()["times"] == dict.fromkeys(("AS1", "AH1", "AC1", "AH2"), 63)
    )
    assert m.own_times() == {"AS1": 58, "AH1": 61, "AC1": 63, "AH2": 77}
