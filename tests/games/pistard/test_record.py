"""Records: the layout embedded, players, seed and moves; replay, resume, files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from peloton.bots import make_bot, play_out
from peloton.core import RECORD_FORMAT, RecordError
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
        part.play(
            part.chance_move(rng) if part.is_chance else bots[part.current_player].choose(part)
        )  # type: ignore[index]
    record = pi.Record.from_state(part)
    resumed = record.replay()
    play_out(resumed, bots, chance=record.chance_rng())
    assert resumed.history == whole.history


# ---------------------------------------------------------------- which rules

OLD_RECORD = Path(__file__).parent / "records" / "rules1-three-players.json"


def test_old_records_replay_as_they_were_played() -> None:
    """A record written before PI-3.6 and PI-4.3 were corrected (by the engine at
    commit 5cec0e6: no ``rules`` key, the colour bonus, the target checked at the end
    of the round) replays as it was played: B reached 13 first, C reached 13 later in
    the same round and won as the last scorer."""
    data = json.loads(OLD_RECORD.read_text())
    assert "rules" not in data and data["options"]["bonus"] == "colour"
    record = pi.load_record(data)
    assert record.rules == 1
    state = record.replay()
    assert state.result.to_dict() == data["result"] and state.result.winner == "C"
    assert state.bonus == "colour" and state.target_at_round_end
    again = pi.Record.from_state(state).to_dict()
    assert again["rules"] == 1 and pi.load_record(again).replay() == state


def test_old_records_without_the_bonus_option_mean_colour() -> None:
    """Before the correction a missing ``bonus`` meant the default of the time,
    ``colour``; in a record of the current rules it means ``both``."""
    data = json.loads(OLD_RECORD.read_text())
    del data["options"]["bonus"]
    state = pi.load_record(data).replay()
    assert state.bonus == "colour" and state.result.to_dict() == data["result"]
    fresh = pi.Record.from_state(bot_game(8, target=3)).to_dict()
    del fresh["options"]["bonus"]
    assert fresh["rules"] == 2 and pi.load_record(fresh).replay().bonus == "both"


def test_old_moves_under_the_current_rules_are_refused() -> None:
    """The marker matters: the same moves read as a record of the current rules stop
    where B reached the target (the game is over there)."""
    data = json.loads(OLD_RECORD.read_text())
    with pytest.raises(RecordError, match="the game is over") as info:
        pi.load_record({**data, "rules": 2})
    assert info.value.index == 403


@pytest.mark.parametrize("rules", [0, 3, "2", True, None])
def test_bad_rules_edition(rules: object) -> None:
    data = pi.Record.from_state(bot_game(8, target=3)).to_dict()
    with pytest.raises(RecordError, match="'rules' must be 1 or 2"):
        pi.load_record({**data, "rules": rules})


def test_new_records_say_their_rules() -> None:
    data = pi.Record.from_state(bot_game(9, target=3)).to_dict()
    assert data["rules"] == 2 and data["start"] is None and data["options"]["bonus"] == "both"


# ---------------------------------------------------------------- from a position

START = "3 A1:1.b10,A2:1.a5,A3:start,A4:out,B1:1.c12,B2:1.d3,B3:out,B4:out / A=0,B=0"


def test_records_of_games_from_a_position_hold_their_start() -> None:
    """A game begun with ``from_position`` records its start and replays from it
    (it once replayed from a fresh game: "move 0 ('roll:2') rejected")."""
    state = pi.from_position(START, length=30, bonus="shelter", target=4)
    assert state.start == pi.to_position(state)
    state.seed = 17
    play_out(state, make_bot("greedy", 2), chance=Rng(17))
    record = pi.Record.from_state(state)
    assert record.start == state.start
    loaded = pi.Record.from_json(record.to_json())
    assert loaded.start == state.start and loaded.replay() == state
    assert loaded.states()[0] == pi.from_position(START, length=30, bonus="shelter", target=4)


def test_record_start_must_agree_with_the_options() -> None:
    state = pi.from_position(START)
    data = pi.Record.from_state(state).to_dict()
    with pytest.raises(RecordError, match="2 teams but its options say 3 players"):
        pi.load_record({**data, "options": {**data["options"], "players": 3}})
    with pytest.raises(RecordError, match="must be a position text"):
        pi.load_record({**data, "start": 5})
    with pytest.raises(RecordError, match="record start is invalid: position"):
        pi.load_record({**data, "start": "2 A1:1.a1"})


def test_record_layout_never_names_a_file(tmp_path: Path) -> None:
    """A record's layout is inline keys or a bundled name: a path is refused without
    being read, whether the file exists or not (issue 11: a file-read oracle)."""
    layout = tmp_path / "track.toml"
    layout.write_text('name = "t"\nrows = [' + ", ".join(['"ygbr"'] * 40) + "]\n")
    data = pi.Record.from_state(pi.new_game(2)).to_dict()
    for name in (str(layout), str(tmp_path / "missing.toml"), "/etc/passwd"):
        with pytest.raises(RecordError, match="inline keys or a bundled name") as info:
            pi.load_record({**data, "options": {**data["options"], "layout": name}})
        assert "ygbr" not in str(info.value)
    assert pi.load_record(
        {**data, "options": {**data["options"], "layout": "default"}}
    ).replay() == pi.new_game(2)
