"""``peloton play --game cyclo --mode M``: every track event (CY-11) played to the end
at the terminal, by bots and by a human typing, the velodrome drawn as one unrolled
lap from real positions (riders on their loop space with their laps, the lines and
what they pay, the keirin pacer, the run-out and the eliminated), and bad modes and
options refused in one line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from peloton.cli import app
from peloton.core.rng import Rng
from peloton.games import cyclo as cy
from peloton.terminal.cyclo_board import Extras
from peloton.terminal.cyclo_track import Lap, laps_to_go, track_board
from peloton.terminal.games import terminal_game

runner = CliRunner()

#: Every track event with a line-up of bots it seats (elimination: 3 riders at least).
TRACK_SEATS = {
    "sprint": "greedy,random",
    "team-sprint": "greedy,random",
    "pursuit": "random,greedy",
    "team-pursuit": "greedy,random",
    "keirin": "greedy,random,greedy",
    "scratch": "random,greedy",
    "elimination": "greedy,random,random",
    "tempo": "greedy,greedy",
    "points": "random,greedy,greedy",
}


def peloton(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """Run ``peloton ARGS`` in process: (exit code, stdout, stderr)."""
    result = runner.invoke(app, list(args), input=stdin, env={"COLUMNS": "100"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def plain(renderable: object, width: int = 100) -> str:
    console = Console(width=width, color_system=None, highlight=False, record=True)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def test_every_track_mode_is_listed() -> None:
    assert set(TRACK_SEATS) == {m for m in cy.AVAILABLE if not cy.MODES[m].road}


@pytest.mark.parametrize("mode", sorted(TRACK_SEATS))
def test_bots_race_every_track_event_to_the_end(mode: str, tmp_path: Path) -> None:
    path = tmp_path / f"{mode}.json"
    code, out, err = peloton("play", "--game", "cyclo", "--mode", mode, "--seats", TRACK_SEATS[mode],
                             "--seed", "4", "--record", str(path))  # fmt: skip
    assert (code, err) == (0, ""), out[-1500:]
    final = cy.Record.load(path).replay()
    assert final.is_over and final.options()["mode"] == mode
    # The final board is the velodrome's lap (CY-1.6): its head, the 20 loop spaces.
    distance = final.setup.finish
    assert f"· {mode} · Pro · velodrome (20 spaces a lap)" in out
    assert f"finish after {distance} · race over" in out
    assert re.search(r"^ +┃? +1 +2 +3 .* 10 *$", out, flags=re.M)
    assert re.search(r"^ +┃? +11 +12 .* 20 *$", out, flags=re.M)
    # The result printed is the game's.
    places = re.findall(r"^ +\d+\. +([A-F][SCH][12]) ", out, flags=re.M)
    assert places == list(final.result.places)
    if cy.MODES[mode].team_time:
        assert f"Winning team: team {final.result.winner_team}" in out
        assert "team times: " in out  # CY-11.3
    else:
        assert f"Winner: {final.result.winner} (team {final.result.winner[0]}" in out
    if mode == "elimination":  # CY-11.5: every rider but the last two is out
        out_line = re.search(r"^eliminated: (.*)$", out, flags=re.M)
        assert out_line and out_line.group(1).split(", ") == list(final.result.eliminated)
    if mode in ("tempo", "points"):
        assert re.search(r"^points: [A-F]S1 \d+", out, flags=re.M)


def test_a_human_rides_a_keirin_behind_the_pacer_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "keirin.json"
    code, out, err = peloton("play", "cyclo", "--mode", "keirin", "--seats", "human,greedy", "--seed", "2",
                             "--record", str(path), stdin="1\n" * 200)  # fmt: skip
    assert (code, err) == (0, ""), out[-1500:]
    record = cy.Record.load(path)
    assert record.replay().is_over and record.players["A"]["kind"] == "human"
    # CY-11.4: the pacer leads rounds 1 and 2, on 7 then 14, marked under its space.
    assert "keirin pacer at 7: no rider may reach it" in out
    assert "keirin pacer at 14: no rider may reach it" in out
    assert "◆pcr" in out
    assert "2 laps to go · next: finish (lap 2)" in out
    assert "on the start line (0): AS1 BS1" in out


def test_a_human_races_a_points_race_seeing_its_lines_pay(tmp_path: Path) -> None:
    code, out, err = peloton("play", "cyclo", "--mode", "points", "--seats", "human,greedy,random",
                             "--seed", "5", stdin="1\n" * 400)  # fmt: skip
    assert (code, err) == (0, ""), out[-1500:]
    # CY-11.2: a sprint every lap, paying 5, 3, 2, 1; the third pays double.
    assert "6 laps to go · next: sprint 1 (lap 1): pays 5, 3, 2, 1" in out
    assert "sprint 3 (lap 3): pays 10, 6, 4, 2" in out
    assert re.search(r"^sprint 1 \(lap 1\): pays 5, 3, 2, 1 · [A-C]S1", out, flags=re.M)
    assert re.search(r"^ [a-d] .*[A-C]S1¹", out, flags=re.M)  # a rider with one lap ridden


@pytest.mark.parametrize(
    "args",
    [("--mode", "pursuit", "--seats", "human"), ("--mode", "team-pursuit", "--seats", "human,human"),
     ("--mode", "tempo", "--seats", "human,greedy", "-o", "entries=2")],
    ids=["solo-pursuit", "hot-seat-team-pursuit", "tempo-two-entries"],
)  # fmt: skip
def test_humans_type_track_events_to_the_end(args: tuple[str, ...], tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    code, out, err = peloton("play", "cyclo", *args, "--seed", "7", "--record", str(path),
                             stdin="1\n" * 600)  # fmt: skip
    assert (code, err) == (0, ""), out[-1500:]
    record = cy.Record.load(path)
    final = record.replay()
    assert final.is_over and all(
        p["kind"] == "human" for t, p in record.players.items() if t == "A"
    )
    assert re.search(r"^Team A, [A][SCH][12] on a0 \(start line\) rolled", out, flags=re.M)
    assert "Result" in out


def test_bad_modes_and_options_are_one_line_errors() -> None:
    cases = [
        (("--mode", "velodrome"), "unknown mode 'velodrome'"),
        (("--mode", "sprint", "--seats", "greedy,greedy,greedy"), "sprint"),
        (("--mode", "elimination", "--seats", "greedy,greedy"), "at least 3 riders"),
        (("--mode", "scratch", "-o", "entries=3", "--seats", "greedy,greedy"), "entries"),
        (("--mode", "keirin", "-o", "mode=scratch"), "give the mode once"),
        (("--mode", "points", "-o", "course=flemish-4", "--seats", "greedy,greedy"), "road course"),
    ]
    for args, words in cases:
        code, out, err = peloton("play", "--game", "cyclo", *args)
        assert code != 0, args
        assert err.startswith("peloton: error: ") and err.count("\n") == 1, (args, err)
        assert words in err, (args, err)
        assert "Traceback" not in out + err
    code, _, err = peloton("play", "pistard", "--mode", "keirin")
    assert code == 2 and "pistard has no modes" in err


# ---------------------------------------------------------------- the lap from real states


def play_until(state: cy.State, seed: int, done) -> cy.State:  # type: ignore[no-untyped-def]
    """Random legal play (dice from ``seed``) until ``done(state)``."""
    rng = Rng(seed)
    pick = Rng(seed + 1)
    while not done(state) and not state.is_over:
        moves = state.legal_moves()
        state.play(state.chance_move(rng) if state.is_chance else pick.choice(moves))
    return state


def test_riders_stand_on_their_loop_space_with_their_laps() -> None:
    # CY-1.6, CY-19.1: distance d lies on loop space ((d - 1) mod 20) + 1.
    state = cy.from_options({"mode": "scratch", "players": 2})
    state = play_until(
        state, 3, lambda s: any((s.rider(r).position or 0) > 20 for r in s.setup.riders)
    )
    data = cy.snapshot(state)
    text = plain(Lap(data), width=120)
    rows = [line for line in text.splitlines() if re.match(r"^ [a-d] ", line)]
    assert len(rows) == 4  # one row a lane: 120 columns hold the whole lap
    for rider in data["riders"]:
        d = rider["position"]
        if d is None or not 1 <= d <= data["track"]["distance"]:
            continue
        space = (d - 1) % 20 + 1
        row = rows[ord(rider["lane"]) - ord("a")]
        mark = rider["id"] + "⁰¹²³"[d // 20]
        assert row.index(mark) == 3 + (space - 1) * 5 + 1, (rider, row)


def test_the_pacer_and_the_next_line_on_a_keirin_board() -> None:
    # CY-18.9: round 1 puts the pacer on 7.
    state = cy.from_options({"mode": "keirin", "players": 3})
    data = cy.snapshot(state)
    assert data["track"]["pacer"]["distance"] == 7
    text = plain(track_board(data, plain_head(), str, Extras()), width=80)
    lines = text.splitlines()
    pacer = next(line for line in lines if "◆pcr" in line)
    numbers = next(line for line in lines if re.match(r"^ +┃ +1 +2 ", line))
    # Under space 7's cell: a boundary column, then the cell's four (" 7" ends it).
    assert pacer.index("◆") == 3 + (7 - 1) * 5 + 1 == numbers.index("  7 ")
    assert "2 laps to go · next: finish (lap 2)" in text
    assert "on the start line (0): AS1 BS1 CS1" in text


def plain_head():  # type: ignore[no-untyped-def]
    from rich.text import Text

    return Text("head")


def test_an_elimination_board_lists_the_eliminated_first_out_first() -> None:
    # CY-11.5, 4 riders, D = 30: lines after 10 and 20 put a rider out each.
    state = cy.from_options({"mode": "elimination", "players": 4})
    state = play_until(state, 8, lambda s: len(s.result.eliminated) >= 1 and s.phase != "over")
    data = cy.snapshot(state)
    text = plain(track_board(data, plain_head(), str, Extras()), width=100)
    out = list(state.result.eliminated)
    assert out and f"eliminated: {', '.join(out)}" in text
    assert "elimination 1 (after 10): last rider out · " in text
    assert laps_to_go(data) in text


@pytest.mark.parametrize(
    "cyn,last",
    [("2 AS1:a9,BS1:a5,CS1:a4,DS1:a3", "DS1"), ("2 AS1:a9,BS1:a5,CS1:a4,DS1:b4", "DS1"),
     ("2 AS1:a9,BS1:a5,CS1:b4,DS1:a4", "CS1")],
)  # fmt: skip
def test_the_rider_an_elimination_line_would_put_out_is_named(cyn: str, last: str) -> None:
    # CY-11.5: the rearmost rider (of two level, the one in the higher lane) goes out.
    state = cy.from_cyn(cyn, "elimination", level="starter")
    text = plain(track_board(cy.snapshot(state), plain_head(), str, Extras()))
    assert f"last now: {last} (out at the next elimination line if still last)" in text
    assert "next: elimination 1 (after 10): last rider out" in text


def test_terminal_help_explains_the_lap() -> None:
    text = plain(terminal_game("cyclo").help)
    assert "Velodrome (track events)" in text and "AS1² = 2 laps" in text
