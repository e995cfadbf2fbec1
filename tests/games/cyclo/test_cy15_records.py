"""CY-15: records — fields, replay without the seed, resuming with it, corrupt files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from peloton.bots import make_bot, play_out
from peloton.core import RECORD_FORMAT, RecordError
from peloton.core import load_record as load_any
from peloton.core.rng import Rng
from peloton.games import cyclo as cy

from .helpers import at


def bot_game(seed: int, moves: int | None = None, **options: Any) -> cy.State:
    """A greedy game (to its end, or ``moves`` moves) with chance from ``Rng(seed)``."""
    state = cy.from_options({"players": 3, **options})
    state.seed = seed
    rng = Rng(seed)
    bots = {t: make_bot("greedy", seed + i) for i, t in enumerate(state.players)}
    if moves is None:
        return play_out(state, bots, chance=rng)
    for _ in range(moves):
        state.play(
            state.chance_move(rng) if state.is_chance else bots[state.current_player].choose(state)
        )
    return state


def test_cy_15_1_record_fields(tmp_path: Path) -> None:
    """CY-15.1: one JSON object: format, game, options (the course a full object with
    inline boards), start, players, seed, every move (chance moves too), result."""
    state = bot_game(3, mode="leg", events=True, tokens={"AS1": 1})
    players = {t: {"name": f"bot {t}", "kind": "greedy"} for t in state.players}
    record = cy.Record.from_state(state, players)
    data = json.loads(record.to_json())
    assert list(data) == [
        "format",
        "game",
        "options",
        "start",
        "players",
        "seed",
        "moves",
        "result",
    ]
    assert data["format"] == RECORD_FORMAT and data["game"] == "cyclo" and data["start"] is None
    assert data["options"] == {
        "mode": "leg",
        "teams": ["A", "B", "C"],
        "course": cy.Course.load("flat-stage").to_dict(),
        "level": "pro",
        "events": True,
        "entries": 1,
        "tokens": {"AS1": 1},
    }
    assert data["options"]["course"]["boards"][0]["runs"][0] == ["start", 6, 4]  # boards inline
    assert (
        data["seed"] == 3
        and data["players"] == players
        and data["result"] == state.result.to_dict()
    )
    assert any(m.startswith("roll:") for m in data["moves"])
    path = tmp_path / "leg.json"
    record.save(path)
    assert cy.Record.load(path).replay() == state and load_any(path).replay() == state
    assert record.to_dict("A") == record.to_dict() == record.to_dict(None)


def test_cy_15_2_replay_without_the_seed() -> None:
    """CY-15.2: loading rebuilds the start and replays every move without the seed;
    the stored result is only informational: it is recomputed."""
    state = bot_game(8)
    data = json.loads(cy.Record.from_state(state).to_json())
    data["seed"] = None
    data["result"] = {"forged": True}
    record = cy.Record.from_dict(data)
    assert record.replay() == state and record.result == state.result.to_dict()  # result recomputed
    states = record.states()
    assert (
        len(states) == len(record.moves) + 1
        and states[-1] == state
        and states[0] == cy.from_options({"players": 3})
    )


def test_cy_15_2_records_from_a_position() -> None:
    """CY-15.2: a record that starts from a CYN rebuilds that start, then replays."""
    state = at("9 AS1:a30*4,BH1:a29*4 / A*4,B*4")
    for move in ("AS1~BH1", "BH1~yes", "roll:3,4", "BH1-43/t", "AS1>BH1"):
        state.play(move)
    record = cy.Record.from_json(cy.Record.from_state(state).to_json())
    assert record.start == "9 AS1:a30*4,BH1:a29*4 / A*4,B*4 / - / - / -"
    assert record.replay() == state and record.replay().to_cyn() == state.to_cyn()


def middle(state: cy.State, rng: Rng, moves: int = 100_000) -> cy.State:
    """Play with chance from ``rng`` and, for the players, the middle legal move (a
    policy with no randomness of its own)."""
    for _ in range(moves):
        if state.is_over:
            break
        legal = state.legal_moves()
        state.play(state.chance_move(rng) if state.is_chance else legal[len(legal) // 2])
    return state


def test_cy_15_resume_with_the_same_future() -> None:
    """CY-13.3: ``chance_rng`` repeats one roll or choice a recorded chance move, so
    a stopped game goes on with the rolls and cards it would have had."""
    whole = middle(cy.from_options({"players": 3}), Rng(11))
    part = middle(cy.from_options({"players": 3}), Rng(11), moves=300)
    part.seed = 11
    record = cy.Record.from_json(cy.Record.from_state(part).to_json())
    resumed = middle(record.replay(), record.chance_rng())
    assert [str(m) for m in resumed.history] == [str(m) for m in whole.history]
    assert any(str(m).startswith("draw:") for m in whole.history[300:])
    with pytest.raises(RecordError, match="no seed"):
        cy.Record.from_state(at("9 AS1:a30")).chance_rng()


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: d.update(game="pistard"), "not of 'cyclo'"),
        (lambda d: d.pop("moves"), "no 'moves'"),
        (lambda d: d.update(moves="roll:1,1"), "wrong type"),
        (lambda d: d["moves"].append(3), "not text"),
        (lambda d: d.update(seed="7"), "seed"),
        (lambda d: d.update(players=["A"]), "players"),
        (lambda d: d.update(start=5), "start"),
        (lambda d: d["options"].update(mode="keirin"), "options are invalid"),
        (
            lambda d: d["options"].update(course={"name": "x", "boards": ["A1"]}),
            "options are invalid",
        ),
        (lambda d: d["options"].update(colour="red"), "unknown Cyclo option"),
        (lambda d: d.update(start="9 AS1:a300"), "cannot start|invalid"),
    ],
)
def test_corrupt_records(change: Any, why: str) -> None:
    data = json.loads(cy.Record.from_state(bot_game(2, moves=20)).to_json())
    change(data)
    with pytest.raises(RecordError, match=why):
        cy.Record.from_dict(data)


def test_a_refused_move_names_its_index() -> None:
    """CY-15.2: the first refused move is a ``RecordError`` with its ``index``."""
    data = json.loads(cy.Record.from_state(bot_game(2, moves=20)).to_json())
    data["moves"][5] = "roll:1,1,1,1"
    with pytest.raises(RecordError) as info:
        cy.Record.from_dict(data)
    assert info.value.index == 5 and "'roll:1,1,1,1'" in str(info.value)
    data["moves"][5] = "bogus"
    with pytest.raises(RecordError) as info:
        cy.Record.from_dict(data)
    assert info.value.index == 5
    with pytest.raises(RecordError, match="JSON"):
        cy.Record.from_json("{oops")
    with pytest.raises(RecordError, match="format"):
        cy.Record.from_json(json.dumps({"game": "cyclo"}))
