"""``peloton play cyclo``: whole games typed at the prompt, hot seat and against a bot,
swaps answered by the other human, wheels, cards and falls, and bad input refused with
the same prompt back (Typer's CliRunner, and the in-process table where the dice must
fall a given way)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from peloton.cli import app
from peloton.games import cyclo as cy
from peloton.terminal.games import terminal_game
from peloton.terminal.seats import make_seats
from peloton.terminal.table import TableSession

from .helpers import Recorder, Script

runner = CliRunner()

#: CY-18.4: AS1 (a30) may propose a swap to BH1, one space behind.
SWAP_CYN = "9 AS1:a30*4,BH1:a29*4 / A*4,B*4"
SWAP_PROMPT = "Team B, AS1 proposes to swap with BH1 — accept? (yes/no)"
#: A one-board classic (the last km of E1 and its flat), quick to play to the end.
SHORT = '{"name": "short", "boards": ["E1"]}'


def peloton(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """Run ``peloton ARGS`` in process with ``stdin``: (exit code, stdout, stderr)."""
    result = runner.invoke(app, list(args), input=stdin, env={"COLUMNS": "100"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


class Chance:
    """A chance stream whose outcomes are given in advance, in order: dice for each
    roll (as many as the rules roll), a card id for each draw."""

    def __init__(self, *outcomes: object) -> None:
        self.outcomes = list(outcomes)

    def roll(self, k: int) -> list[int]:
        dice = self.outcomes.pop(0)
        assert isinstance(dice, tuple) and len(dice) == k, (dice, k)
        return list(dice)

    def choice(self, left: list[str]) -> str:
        card = self.outcomes.pop(0)
        assert card in left, (card, left)
        return str(card)


def table(
    state: cy.State, seats: list[str], lines: list[str], chance: Chance
) -> tuple[TableSession, Recorder]:
    """A terminal table for ``state`` fed ``lines``, its rolls and cards from ``chance``
    (a wide console: no line of the log is wrapped)."""
    out = Recorder(width=160)
    session = TableSession(
        state,
        make_seats(seats, 1, state.players, "cyclo"),
        terminal_game("cyclo"),
        out.console,
        Script(lines),
        chance=chance,
    )  # type: ignore[arg-type]  # a stand-in Rng
    return session, out


def prompts(out: str, team: str) -> list[str]:
    """What was typed at ``team``'s move prompts, in order."""
    return re.findall(rf"^{team} \(1-\d+ or move, \? help, q quit\) > (.*)$", out, flags=re.M)


# ---------------------------------------------------------------- whole games


def test_human_against_greedy_plays_a_pro_classic_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    code, out, err = peloton("play", "cyclo", "--seats", "human,greedy", "--seed", "1", "--record", str(path),
                             stdin="1\n" * 400)  # fmt: skip
    assert (code, err) == (0, "")
    record = cy.Record.load(path)
    final = record.replay()
    assert final.is_over
    assert record.players["A"]["kind"] == "human" and record.players["B"]["controller"] == "greedy"
    # Every move the human typed is the first listed one (the full ride without
    # tokens, riding on from a swap window, taking a wheel, nobody brought down).
    typed = prompts(out, "A")
    assert typed and set(typed) == {"1"}
    assert len(typed) == sum(
        1 for m, who in zip(record.moves, _actors(record), strict=True) if who == "A"
    )
    # Rolls and cards are shown as they fall, from the seed.
    assert re.search(r"^  AS1 rolls [⚀-⚅] [⚀-⚅]  \d \d \(start line\)", out, flags=re.M)
    drawn = [m for m in record.moves if m.startswith("draw:")]
    assert drawn and len(re.findall(r"^  [A-B][SCH][12] draws a card: ", out, flags=re.M)) == len(
        drawn
    )
    assert "last card: " in out
    # The result printed is the record's.
    places = re.findall(r"^ +\d+\. +([AB][SCH][12]) ", out, flags=re.M)
    assert places == list(final.result.places)
    assert f"Winner: {final.result.winner} (team {final.result.winner[0]}" in out
    assert f"Record saved to {path}" in out


def test_the_same_seed_plays_the_same_game(tmp_path: Path) -> None:
    moves = []
    for name in ("a.json", "b.json"):
        path = tmp_path / name
        assert peloton("play", "cyclo", "--seats", "greedy,random", "--seed", "6", "-o", f"course={SHORT}",
                       "--record", str(path))[0] == 0  # fmt: skip
        moves.append(cy.Record.load(path).moves)
    assert moves[0] == moves[1]


def test_a_pro_hot_seat_game_from_a_position_is_typed_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "hot.json"
    # Two humans at one keyboard; "1" at every prompt (ride on, full ride, accept, take
    # the wheel, nobody falls) and at every hand-over.
    code, out, _ = peloton("play", "cyclo", "--seats", "human,human", "--start", SWAP_CYN, "--seed", "2",
                           "--record", str(path), stdin="1\n" * 300)  # fmt: skip
    assert code == 0, out[-2000:]
    record = cy.Record.load(path)
    final = record.replay()
    assert final.is_over and record.start == SWAP_CYN + " / - / - / -"
    assert set(final.result.places) == {"AS1", "BH1"}
    assert "Team A, AS1 on a30 (flat) may propose a swap before rolling, or ride on" in out
    assert "Result" in out and "Winner: " in out


# ---------------------------------------------------------------- swaps


def test_a_swap_accepted_by_the_other_human(tmp_path: Path) -> None:
    path = tmp_path / "yes.json"
    code, out, _ = peloton("play", "cyclo", "--seats", "human,human", "--start", SWAP_CYN, "--seed", "3",
                           "--record", str(path), stdin="2\n\nyes\nq\n")  # fmt: skip
    assert code == 0
    assert " 2 AS1 proposes a swap to BH1 on a29  AS1~BH1" in out
    # The keyboard goes to team B, who is asked; team B rides at once.
    handed = out.index("Pass the keyboard to team B (human).")
    asked = out.index(SWAP_PROMPT)
    assert handed < asked
    assert "BH1 accepts AS1's swap (rides now from a30)  BH1~yes" in out
    assert prompts(out, "A") == ["2"] and prompts(out, "B") == ["yes", "q"]
    moves = cy.Record.load(path).moves
    assert moves[:2] == ["AS1~BH1", "BH1~yes"] and moves[2].startswith("roll:")
    assert "Team B, BH1 on a30 (flat) rolled " in out[asked:]
    assert "Pass the keyboard to team A" not in out  # B rides on: the keyboard stays


def test_a_swap_declined_by_the_other_human_hands_the_keyboard_back(tmp_path: Path) -> None:
    path = tmp_path / "no.json"
    code, out, _ = peloton("play", "cyclo", "--seats", "human,human", "--start", SWAP_CYN, "--seed", "3",
                           "--record", str(path), stdin="AS1~BH1\n\nno\n\nq\n")  # fmt: skip
    assert code == 0
    assert out.index("Pass the keyboard to team B (human).") < out.index(SWAP_PROMPT)
    after = out[out.index(SWAP_PROMPT) :]
    assert "  B human    BH1~no  declined" in after
    # AS1 keeps its square and rides on: team A takes the keyboard back.
    assert after.index("Pass the keyboard to team A (human).") < after.index(
        "Team A, AS1 on a30 (flat) rolled "
    )
    moves = cy.Record.load(path).moves
    assert moves[:2] == ["AS1~BH1", "BH1~no"] and moves[2].startswith("roll:")


def test_a_bot_answers_a_swap_by_itself(tmp_path: Path) -> None:
    path = tmp_path / "bot.json"
    code, out, _ = peloton("play", "cyclo", "--seats", "human,greedy", "--start", SWAP_CYN, "--seed", "3",
                           "--record", str(path), stdin="BH1\nq\n")  # fmt: skip
    assert code == 0
    assert "Pass the keyboard" not in out and SWAP_PROMPT not in out
    answer = cy.Record.load(path).moves[1]
    assert answer in ("BH1~yes", "BH1~no")
    assert re.search(rf"^  B greedy +{re.escape(answer)}  (accepted|declined)$", out, flags=re.M)


# ---------------------------------------------------------------- wheels, cards, falls


def test_a_wheel_is_offered_to_the_other_human() -> None:
    # CY-5.1: AS1 rides on from a30 and BH1, one space behind where it started, may
    # take its wheel; team B is called to the keyboard for it.
    state = cy.from_cyn(SWAP_CYN, course="flemish-4")
    session, out = table(state, ["human", "human"], ["1", "1", "", "yes", "q"], Chance((3, 4)))
    assert session.run() == 0
    text = out.text
    assert " 1 AS1 rides to 37 (lands a37)  AS1-37" in text
    offer = text.index("Team B, BH1 on a29 (flat): take AS1's wheel? AS1 rode to a37 (yes/no)")
    assert text.index("Pass the keyboard to team B") < offer
    assert " 1 BH1 takes AS1's wheel (lands a36)  BH1>AS1" in text
    assert [str(m) for m in state.history] == ["AS1~-", "roll:3,4", "AS1-37", "BH1>AS1"]
    assert state.rider("BH1").square == "a36"


def test_a_wheel_let_go_and_words_for_tokens() -> None:
    state = cy.from_cyn(SWAP_CYN, course="flemish-4")
    session, out = table(
        state, ["human", "human"], ["-", "r", "", "no", "q"], Chance((1, 2), (2, 2))
    )
    assert session.run() == 0
    text = out.text
    assert " 2 AS1 accelerates (r) to 39 (lands a39)  AS1-39/r" in text
    assert " 4 AS1 attacks (rr) to 45 (lands a45)  AS1-45/rr" in text
    assert "Or hold back: type a nearer target, e.g. 32 or 38/r: 31-33 with no token" in text
    assert " 2 BH1 lets AS1 go  BH1>-" in text
    assert [str(m) for m in state.history] == ["AS1~-", "roll:1,2", "AS1-39/r", "BH1>-", "roll:2,2"]


def test_a_card_drawn_is_shown_with_its_effect() -> None:
    # Starter, CY-18.5: BS1 rides 53 → 55; CC1 rides 40 → 52 (lands b52), an event
    # space of C1: a card is drawn, and it is a fall: team C picks who falls with it.
    state = cy.from_cyn("4 BH1:a52s,BS1:a53,CC1:a40", course="flemish-4", level="starter")
    chance = Chance((1, 1), (6, 6), "fall", (2, 2))
    session, out = table(state, ["human", "human"], ["1", "1", "BH1", "q"], chance)
    assert session.run() == 0
    text = out.text
    assert " 1 CC1 rides to 52 (lands b52, event card)  CC1-52" in text
    assert (
        "  CC1 draws a card: fall — the drawer and up to 2 riders beside it or of its team lose their next "
        "turn   (draw:fall)" in text
    )
    # The fall is picked by CC1's team, C, which rode: no hand-over.
    assert "Team C, CC1 on b52 (flat) fell and loses its next turn" in text
    assert " BH1 falls too  fall:BH1" in text
    assert (
        "last card: fall (fall): the drawer and up to 2 riders" in text and "drawn by CC1" in text
    )
    assert "  C human    fall:BH1  BH1 down too" in text
    assert [str(m) for m in state.history][-3:] == ["draw:fall", "fall:BH1", "roll:2,2"]
    assert state.rider("BH1").skip and state.rider("CC1").skip


def test_a_fall_picked_by_a_follower_calls_its_team_to_the_keyboard() -> None:
    # AS1 rides 31 → 39; BH1 takes its wheel onto 38, C1's event space, and draws a
    # fall: team B picks, though the turn was A's.
    state = cy.from_cyn("9 AS1:a31*4,BH1:a30*4 / A*4,B*4", course="flemish-4")
    lines = ["1", "1", "", "yes", "1", "", "q"]
    session, out = table(state, ["human", "human"], lines, Chance((4, 4), "fall", (2, 3)))
    assert session.run() == 0
    text = out.text
    assert [str(m) for m in state.history][:5] == [
        "AS1~-",
        "roll:4,4",
        "AS1-39",
        "BH1>AS1",
        "draw:fall",
    ]
    # B, at the keyboard for the wheel, keeps it for the fall, then hands it back.
    assert text.count("Pass the keyboard to team B") == 1
    fell = text.index("Team B, BH1 on a38 (flat) fell and loses its next turn")
    assert " 1 nobody else falls  fall:-" in text
    assert text.index("Pass the keyboard to team A") > fell
    assert state.rider("BH1").skip


# ---------------------------------------------------------------- bad input


def test_bad_input_is_refused_with_the_reason_and_the_same_prompt(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    stdin = "AS1~BH1x\nBH1~yes\nBH1-40\n9\nAS1~AH1\nAS1~-\n99\nAS1-99\nBH1-40\nroll:6,6\nq\n"
    code, out, _ = peloton("play", "cyclo", "--seats", "human,human", "--start", SWAP_CYN, "--seed", "3",
                           "--record", str(path), stdin=stdin)  # fmt: skip
    assert code == 0
    assert (
        "✗ 'AS1~BH1x' is not a Cyclo move (a swap is ID~ID or ID~-, an answer ID~yes or ID~no)"
        in out
    )
    assert "✗ 'BH1~yes' is not legal now: no swap was proposed to BH1 (CY-6.3)" in out
    assert "✗ 'BH1-40' is not legal now: no ride is due: AS1's swap window is open" in out
    assert "✗ there is no move number 9; choose 1 to 2" in out
    assert "✗ 'AS1~AH1' is not legal now: there is no rider AH1 in this game" in out
    assert "✗ there is no move number 99; choose 1 to 6" in out
    assert "✗ 'AS1-99' is not legal now: with this roll, without tokens, AS1 may aim at" in out
    assert "✗ 'BH1-40' is not legal now: AS1 is due to ride, not BH1 (CY-3.3)" in out
    assert "✗ 'roll:6,6' is not legal now: no roll is due" in out
    assert prompts(out, "A") == ["AS1~BH1x", "BH1~yes", "BH1-40", "9", "AS1~AH1", "AS1~-", "99", "AS1-99",
                                 "BH1-40", "roll:6,6", "q"]  # fmt: skip
    # Nothing refused was played: the swap window closed, AS1 rolled, and no more.
    moves = cy.Record.load(path).moves
    assert moves[0] == "AS1~-" and len(moves) == 2 and moves[1].startswith("roll:")


def test_shorthands_for_the_rider_due() -> None:
    state = cy.from_cyn(SWAP_CYN, course="flemish-4")
    game = terminal_game("cyclo")
    assert game.expand(state, "-") == "AS1~-" and game.expand(state, "bh1") == "AS1~BH1"
    state.play("AS1~BH1")
    assert game.expand(state, "y") == "BH1~yes" and game.expand(state, "no") == "BH1~no"
    state.play("BH1~yes")
    state.play("roll:3,4")
    assert game.expand(state, "36") == "BH1-36" and game.expand(state, "42/t") == "BH1-42/t"
    assert game.expand(state, "#4") == "BH1-#4" and game.expand(state, "rt") == "BH1-49/rt"
    state.play("BH1-36")
    assert state.phase == "wheel"
    assert game.expand(state, "yes") == "AS1>BH1" and game.expand(state, "n") == "AS1>-"


def test_help_shows_the_legend() -> None:
    code, out, _ = peloton(
        "play", "cyclo", "--seats", "human,greedy", "--seed", "1", stdin="?\nq\n"
    )
    assert code == 0
    assert "How to play a turn of Cyclo The Game" in out
    assert "Board legend" in out
    for ground in (
        "start",
        "flat",
        "climb",
        "top",
        "cobbles",
        "slope",
        "end",
        "last km",
        "run-out",
    ):
        assert re.search(rf"^ {ground} ", out, flags=re.M), ground
    assert " ▪  dark square: a move ending there is sent back" in out and " ?  event space: " in out
    assert "┃ sprint line" in out


def _actors(record: cy.Record) -> list[str | None]:
    """The team that played each move of a record (None for chance)."""
    out: list[str | None] = []
    for state, _ in zip(record.states(), record.moves, strict=False):
        out.append(None if state.is_chance else state.current_player)
    return out


def test_a_ride_says_where_room_and_dark_squares_put_the_rider() -> None:
    game = terminal_game("cyclo")
    # CY-18.1 (Starter): 51 is full, so AH1 aiming at 51 lands on a50.
    state = cy.from_cyn("2 AH1:a40,AS1:a44,BS1:b44,CS1:c44", course="flemish-4", level="starter")
    for move in ("roll:3,4", "AS1-51", "roll:3,4", "BS1-51", "roll:3,4", "CS1-51", "roll:5,6"):
        state.play(move)
    assert [str(game.label(state, m)) for m in game.order(state, state.legal_moves())] == [
        "AH1 rides to 51 (lands a50)  AH1-51"
    ]
    # CY-18.2 (Pro): no holding back on the cobbles; 77 and 83 are dark squares.
    state = cy.from_cyn("3 AH1:a75*4 / A*4", course="flemish-4")
    state.play("roll:1,1")
    labels = [str(game.label(state, m)) for m in game.order(state, state.legal_moves())]
    assert labels[:2] == [
        "AH1 rides to 77 (lands a74, dark square 77)  AH1-77",
        "AH1 accelerates (r) to 83 (lands a80, dark square 83)  AH1-83/r",
    ]
    assert len(labels) == 6 and game.hint(state) is None  # every legal ride is numbered
