"""MT-4: hidden dials, views, notation, public records and position text."""

from __future__ import annotations

import json

import pytest

import peloton
from peloton.core import Rng, registry
from peloton.games import mindtwist as mt

from .helpers import at, legal, play

# R dials 3, B guesses right; B dials 2 (revealed by the pass); R dials 1 (revealed by
# the wrong guess) and 2 (guessed right); B dials 3, which R must answer.
GAME = ["dial:3", "guess:3", "dial:2", "pass", "dial:1", "guess:2", "dial:2", "guess:2", "dial:3"]


def game() -> mt.State:
    return play(mt.new_game(), *GAME)


# ---------------------------------------------------------------- MT-4.1


def test_mt_4_1_the_guesser_does_not_see_the_dial() -> None:
    """MT-4.1: the dial is private to the active player until revealed; the view of
    the guesser (and of a spectator) holds no dial, the dialer's view does."""
    s = play(mt.new_game(), "dial:2")
    assert s.view("R").dial == 2
    for viewer in ("B", None):
        view = s.view(viewer)
        assert view.dial is None and view.dial_hidden
        assert view.history == [mt.parse_move("dial:?")]
        assert "2" not in repr(view.history)


def test_mt_4_1_views_of_different_dials_are_equal() -> None:
    """MT-4.1: nothing in the guesser's view depends on the hidden dial."""
    views = [play(mt.new_game(), f"dial:{n}").view("B") for n in (1, 2, 3)]
    assert views[0] == views[1] == views[2]
    snaps = [json.dumps(mt.snapshot(play(mt.new_game(), f"dial:{n}"), "B")) for n in (1, 2, 3)]
    assert snaps[0] == snaps[1] == snaps[2]


def test_mt_4_1_guesser_view_is_playable_until_the_dial_matters() -> None:
    """MT-4.1 / docs/games.md: legal moves work on the view; a guess or pass, whose
    effect depends on the hidden dial, raises StateError and changes nothing."""
    view = play(mt.new_game(), "dial:3").view("B")
    assert legal(view) == ["guess:1", "guess:2", "guess:3", "pass"]
    before = view.copy()
    for move in ("guess:3", "pass"):
        with pytest.raises(peloton.StateError, match="hidden dial"):
            view.play(move)
    assert view == before
    with pytest.raises(peloton.IllegalMoveError):
        view.play("dial:1")


def test_mt_4_1_correct_guess_never_revealed() -> None:
    """MT-4.1: a correctly guessed dial stays unseen by the opponent and spectators;
    the dialer still sees its own."""
    s = game()
    assert mt.public_moves(s, "R") == [*GAME[:8], "dial:?"]
    assert mt.public_moves(s, "B") == ["dial:?", *GAME[1:6], "dial:?", "guess:2", "dial:3"]
    assert mt.public_moves(s, None) == ["dial:?", *GAME[1:6], "dial:?", "guess:2", "dial:?"]
    assert mt.public_moves(s) == mt.public_moves(s, None)
    assert s.view("B").history == [mt.parse_move(m) for m in mt.public_moves(s, "B")]


def test_mt_4_1_snapshot_shows_only_what_the_viewer_sees() -> None:
    """MT-4.1: the client snapshot is built from the view."""
    s = game()
    blue, red, spectator = mt.snapshot(s, "B"), mt.snapshot(s, "R"), mt.snapshot(s)
    assert blue["dial"] == 3 and red["dial"] is None and spectator["dial"] is None
    assert red["legal"] == ["guess:1", "guess:2", "guess:3", "pass"]
    assert blue["legal"] == [] and spectator["legal"] == []
    assert red["phase"] == "guess" and red["active"] == "B" and red["current_player"] == "R"
    assert red["spaces"] == {"R": 1, "B": 2}
    assert red["milestones"] == [8, 16, 24] and red["length"] == 30
    assert red["last_turn"] == {
        "dialer": "R",
        "dial": 2,
        "response": "guess:2",
        "outcome": "correct",
    }
    assert blue["last_turn"] == {
        "dialer": "R",
        "dial": None,
        "response": "guess:2",
        "outcome": "correct",
    }
    assert red["moves"] == mt.public_moves(s, "R")
    json.dumps(spectator)  # JSON-ready
    s.play("guess:1")  # wrong: revealed to all
    assert mt.snapshot(s)["last_turn"] == {
        "dialer": "B",
        "dial": 3,
        "response": "guess:1",
        "outcome": "wrong",
    }


def test_mt_4_1_determinize_draws_the_hidden_dial() -> None:
    """MCTS hook: a full state consistent with a view, the hidden dial drawn from 1-3."""
    view = game().view("R")
    seen = set()
    rng = Rng(5)
    for _ in range(60):
        full = mt.determinize(view, rng)
        assert not full.dial_hidden and full.dial in (1, 2, 3)
        assert full.position == view.position
        assert not any(m.is_hidden for m in full.history)
        assert mt.public_moves(full, "R") == mt.public_moves(view, "R")
        seen.add(full.dial)
        full.play("pass")  # a full state plays on
    assert seen == {1, 2, 3}
    assert view.dial_hidden  # untouched


def test_mt_4_1_registered_with_hidden_information() -> None:
    info = registry.get("mind-twist")
    assert info.hidden_information and info.title == "Mind Twist"
    assert {"score_moves", "determinize", "evaluate", "outcome", "rollout_move"} <= set(
        info.heuristics
    )


# ---------------------------------------------------------------- MT-4.2


@pytest.mark.parametrize(
    "text", ["dial:1", "dial:2", "dial:3", "guess:1", "guess:2", "guess:3", "pass", "dial:?"]
)
def test_mt_4_2_notation_round_trips(text: str) -> None:
    """MT-4.2: every move's str() is its notation; moves are hashable values."""
    move = mt.parse_move(text)
    assert str(move) == text
    assert mt.parse_move(str(move)) == move and hash(move) == hash(mt.parse_move(text))
    with pytest.raises(AttributeError):
        move.kind = "pass"  # type: ignore[misc]


def test_mt_4_2_full_and_public_records() -> None:
    """MT-4.2: a record lists the moves; the public record hides unrevealed dials."""
    s = game()
    record = mt.Record.from_state(s, players={"R": {"name": "Ann", "kind": "human"}})
    full = record.to_dict()
    assert full["format"] == "peloton-record/1" and full["game"] == "mind-twist"
    assert full["options"] == {"length": 30, "milestones": [8, 16, 24], "first": "R"}
    assert full["moves"] == GAME and full["result"] is None and full["start"] is None
    assert full["players"] == {"R": {"name": "Ann", "kind": "human"}}
    assert record.to_dict(None)["moves"] == mt.public_moves(s, None)
    assert record.to_dict("B")["moves"] == mt.public_moves(s, "B")
    assert mt.Record.from_json(record.to_json()).replay() == s


def test_mt_4_2_public_record_replays() -> None:
    """MT-4.2 [decision]: dial:? followed by guess:N replays as dial:N (only a correct
    guess leaves a dial unrevealed); a final dial:? leaves a view with a hidden dial."""
    s = game()
    public = mt.Record.from_json(mt.Record.from_state(s).to_json(None))
    replayed = public.replay()
    assert replayed.position == s.position and replayed.current_player == "R"
    assert replayed.dial_hidden
    assert replayed.history[:8] == s.history[:8]  # the unrevealed dials restored
    assert replayed.view(None) == s.view(None)
    assert mt.public_moves(replayed, None) == mt.public_moves(s, None)
    assert [st.position for st in public.states()] == [
        st.position for st in mt.Record.from_state(s).states()
    ]
    # Finished games replay to the very same state.
    s.play("guess:1")
    while not s.is_over:
        s.play("dial:3")
        s.play("pass")
    public = mt.Record.from_json(mt.Record.from_state(s).to_json("B"))
    assert public.replay() == s and public.result == s.result


def test_mt_4_2_public_record_from_a_view() -> None:
    """A record made from a view holds its dial:? and loads back."""
    view = game().view("B")
    record = mt.Record.from_state(view)
    assert record.moves == mt.public_moves(view, "B")
    again = mt.Record.from_dict(record.to_dict())
    assert again.replay().position == view.position


@pytest.mark.parametrize(
    ("moves", "index", "message"),
    [
        (["dial:?", "pass"], 0, "must be followed by the guess"),
        (["dial:?", "dial:2"], 0, "must be followed by the guess"),
        (["dial:1", "dial:?"], 1, "guess"),
        (["dial:2", "pass", "dial:?", "guess:9"], 2, "must be followed by the guess"),
    ],
)
def test_mt_4_2_bad_hidden_dials_in_records(moves: list[str], index: int, message: str) -> None:
    data = mt.Record().to_dict()
    data["moves"] = moves
    with pytest.raises(peloton.RecordError, match=message) as info:
        mt.Record.from_dict(data)
    assert info.value.index == index


# ---------------------------------------------------------------- MT-4.3


@pytest.mark.parametrize("text", ["R0 B0 R", "R12 B9 B", "R29 B28 R", "R16 B16 B", "R0 B0 B"])
def test_mt_4_3_position_text_round_trips(text: str) -> None:
    """MT-4.3: R<red space> B<blue space> <active>."""
    s = mt.from_position(text)
    assert s.position == text and s.current_player == text[-1]
    assert mt.parse_position(text) == (s.red, s.blue, s.active_player)
    assert mt.format_position(s.red, s.blue, s.active_player) == text


def test_mt_4_3_record_keeps_a_start_position() -> None:
    s = play(at("R12 B9 B", length=20, milestones=[5]), "dial:1", "pass")
    record = mt.Record.from_json(mt.Record.from_state(s).to_json())
    assert record.start == "R12 B9 B" and record.replay() == s
    assert record.initial_state().position == "R12 B9 B"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("R12 B9", "not a Mind Twist position"),
        ("r12 b9 b", "not a Mind Twist position"),
        ("R12 B9 X", "not a Mind Twist position"),
        ("R012 B9 B", "not a Mind Twist position"),
        ("R-1 B9 B", "not a Mind Twist position"),
        (" R12 B9 B", "not a Mind Twist position"),
        ("R30 B9 B", "past the path"),
        ("R12 B12 R", "neither a milestone nor the start"),
    ],
)
def test_mt_4_3_bad_positions(text: str, message: str) -> None:
    with pytest.raises(peloton.NotationError, match=message) as info:
        mt.from_position(text)
    assert repr(text) in str(info.value)
