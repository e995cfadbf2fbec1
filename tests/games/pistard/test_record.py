"""Records: the layout embedded, players, seed and moves; replay, resume, files."""

from __future__ import annotations

import json
from pathlib import Path

from peloton.bots import make_bot, play_out
from peloton.core import RECORD_FORMAT
from peloton.core.rng import Rng
from peloton.games import pistard as pi


def bot_game(seed: int, **options: object) -> pi.State:
    state = pi.from_options({"players": 3, **options})
    state.seed = seed
    bots = {t: make_bot("greedy", seed + i) for i, t in enumerate(state.players)}
    return play_out(state, bots, chance=Rng(seed))


def test_record_fields_and_file_round_trip(tmp_path: Path) -> None:
    state = bot_game(3, bonus="shelter", target=6)
    players = {t: {"name": f"bot {t}", "kind": "greedy"} for t in state.players}
    record = pi.Record.from_state(state, players)
    data = json.loads(record.to_json())
    assert data["format"] == RECORD_FORMAT and data["game"] == "pistard"
    assert data["options"]["layout"]["rows"] == list(state.layout.rows)  # embedded
    assert data["options"]["bonus"] == "shelter" and data["options"]["target"] == 6
    assert data["seed"] == 3 and data["players"] == players
    assert data["moves"][0].startswith("roll:") and data["result"]["winner"] == state.result.winner
    path = tmp_path / "game.json"
    record.save(path)
    loaded = pi.Record.load(path)
    assert loaded.replay() == state and loaded.players == players
    assert record.to_dict("A") == record.to_dict()  # nothing hidden


def test_record_states_step_through() -> None:
    state = bot_game(4, target=3)
    record = pi.Record.from_state(state)
    states = record.states()
    assert len(states) == len(record.moves) + 1
    assert states[0] == pi.from_options(record.options) and states[-1] == state


def test_record_replays_with_another_layout() -> None:
    rows = ["bryg"] * 30
    state = bot_game(6, layout={"name": "mine", "rows": rows}, target=4)
    record = pi.Record.from_json(pi.Record.from_state(state).to_json())
    assert record.replay().layout.rows == tuple(rows)


def test_resume_with_the_same_future_rolls() -> None:
    """The seed lets a stopped game go on with the rolls it would have had."""
    whole = bot_game(11, target=5)
    part = pi.from_options({"players": 3, "target": 5})
    part.seed = 11
    rng = Rng(11)
    bots = {t: make_bot("greedy", 11 + i) for i, t in enumerate(part.players)}
    for _ in range(150):
        part.play(part.chance_move(rng) if part.is_chance else bots[part.current_player].choose(part))  # type: ignore[index]
    record = pi.Record.from_state(part)
    resumed = record.replay()
    play_out(resumed, bots, chance=record.chance_rng())
    assert resumed.history == whole.history
