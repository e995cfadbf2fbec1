"""``peloton play``, ``replay``, ``options`` and ``moves``: the games at the terminal,
any registered game (Mind Cycling with its own flags, the others with ``--option``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..core import registry
from ..core.errors import ConfigError
from ..games import mindcycling as mc
from ..terminal.board import render_board
from ..terminal.courses import load_course
from ..terminal.inputs import terminal_ask
from ..terminal.play import GameSession
from ..terminal.replay import ReplaySession
from ..terminal.review import ReviewSession
from ..terminal.seats import HUMAN, make_seats, parse_seats
from .base import (
    EXIT_USAGE,
    GAME_HELP,
    MIND_CYCLING_GAME,
    OPTION_HELP,
    RelayLimitOption,
    WindOption,
    errors,
    examples,
    fail,
    game_name,
    reject_game_options,
    reject_mind_cycling_flags,
)
from .base import console as new_console
from .help import Command


def register(app: typer.Typer) -> None:
    """Add ``play``, ``replay``, ``options`` and ``moves`` to ``app``, in that order."""
    app.command(cls=Command, epilog=examples(PLAY_EXAMPLES))(play)
    app.command(cls=Command)(replay)
    app.command(cls=Command)(options)
    app.command(cls=Command, epilog=examples(MOVES_EXAMPLES))(moves)


# ---------------------------------------------------------------- play


#: The game whose terminal table has its own flags and board (--course, --riders, --wind,
#: --relay-limit, --solo) and is played when no game is named; the other games are set up
#: from the options they declare (--option NAME=VALUE).
PLAY_EXAMPLES = (
    "peloton play --seats human,greedy,random --course standard --riders 6",
    "peloton play pistard --seats human,greedy -o target=8 --seed 4",
    "peloton play cyclo --seats human,greedy -o mode=leg -o level=starter -o course=italian-4 --seed 3 "
    "--record c.json",
    'peloton play --game cyclo --seats human,human --start "9 AS1:a30*4,BH1:a29*4 / A*4,B*4"',
)


def play(
    game: Annotated[
        str | None, typer.Argument(help=f"The game: {GAME_HELP}", show_default=False)
    ] = None,
    game_flag: Annotated[
        str | None,
        typer.Option("--game", help="The game, as the GAME argument names it.", show_default=False),
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(help="One controller per seat, first seat first: human or a bot name."),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP, metavar="NAME=VALUE")
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(
            help="A game's mode, as --option mode=MODE (Cyclo: classic, leg, itt, ttt or a "
            "track event: sprint, keirin, scratch, elimination, tempo, points, pursuit...).",
            show_default=False,
        ),
    ] = None,
    course: Annotated[
        str | None,
        typer.Option(
            help="A bundled course name or a .toml/.json file (default standard; solo with --solo)."
        ),
    ] = None,
    riders: Annotated[
        int | None, typer.Option(help="Riders per team, 3 to 6 (default 6; solo 5).")
    ] = None,
    wind: WindOption = None,
    relay_limit: RelayLimitOption = None,
    solo: Annotated[
        bool, typer.Option("--solo", help="The solo challenge (MC-9): one seat.")
    ] = False,
    seed: Annotated[
        int | None, typer.Option(help="Seed for the bots and the dice (reproducible games).")
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="Save the game record to this file on exit.")
    ] = None,
    full_board: Annotated[bool, typer.Option("--full-board", help="Draw the whole road.")] = False,
    start: Annotated[
        str | None,
        typer.Option(
            help="Start from this position in the game's notation (Cyclo: a CYN; not Mind Cycling)."
        ),
    ] = None,
) -> None:
    """Play a game at the terminal, humans and bots: Mind Cycling, Mind Twist, Pistard or Cyclo The Game."""
    console = new_console()
    if record is not None and not record.resolve().parent.is_dir():
        raise fail(f"cannot save the record to {str(record)!r}: no such directory")
    name = game_name(_one_game(game, game_flag))
    if name != MIND_CYCLING_GAME:
        flags = {"--course": course, "--riders": riders, "--wind": wind, "--relay-limit": relay_limit,
                 "--solo": solo or None, "--full-board": full_board or None}  # fmt: skip
        reject_mind_cycling_flags(name, flags)
        from ..terminal.launch import table_for

        if mode is not None:
            option = mode_option(name, mode, option)

        with errors():
            table_session = table_for(name, seats, option, seed, record, console, start=start)
        raise typer.Exit(table_session.run())
    if start is not None:
        raise fail(
            "--start: Mind Cycling begins with its setup at the terminal (peloton solve and "
            "peloton moves take positions)",
            EXIT_USAGE,
        )
    if mode is not None:
        mode_option(name, mode, option)
    reject_game_options(option)
    with errors():
        names = parse_seats(seats or (HUMAN if solo else f"{HUMAN},greedy"), solo=solo)
        # MC-9.1 recommends the solo course for the solo challenge.
        chosen = course or ("solo" if solo else "standard")
        state = _new_state(
            load_course(chosen),
            len(names),
            riders,
            wind or "front",
            3 if relay_limit is None else relay_limit,
            solo,
        )
        table = make_seats(names, seed, game=MIND_CYCLING_GAME)
    session = GameSession(
        state, table, console, terminal_ask(console), record_path=record, full_board=full_board
    )
    code = session.run()
    raise typer.Exit(code)


def mode_option(game: str, mode: str, options: list[str] | None) -> list[str]:
    """``--mode M`` as the option ``mode=M`` of a game that has modes; a game without
    one, or a second mode in ``--option``, is a one-line usage error."""
    if "mode" not in registry.get(game).options:
        raise fail(f"--mode: {game} has no modes (see 'peloton options {game}')", EXIT_USAGE)
    given = [o for o in options or [] if o.split("=", 1)[0].strip() == "mode"]
    if given:
        raise fail(f"--mode {mode} and --option {given[0]}: give the mode once", EXIT_USAGE)
    return [*(options or []), f"mode={mode}"]


def _one_game(argument: str | None, flag: str | None) -> str | None:
    """The game named by the GAME argument or ``--game`` (both may be given if they agree)."""
    if argument is not None and flag is not None and argument != flag:
        raise fail(f"two games named: {argument!r} and --game {flag!r}", EXIT_USAGE)
    return argument if argument is not None else flag


def _new_state(
    course: mc.Course, teams: int, riders: int | None, wind: str, relay_limit: int, solo: bool
) -> mc.State:
    if solo:
        if riders not in (None, len(mc.SOLO_COMPOSITION)):
            raise ConfigError(f"the solo team has {len(mc.SOLO_COMPOSITION)} riders, not {riders}")
        return mc.new_solo(course, wind=wind, relay_limit=relay_limit)
    compositions = mc.default_teams(teams, 6 if riders is None else riders)
    return mc.new_game(course, compositions, wind=wind, relay_limit=relay_limit)


# ---------------------------------------------------------------- replay


def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    to_end: Annotated[
        bool, typer.Option("--to-end", help="Print the final position and result.")
    ] = False,
) -> None:
    """Step through a game record move by move (any game: the record says which)."""
    from ..core.record import load_record

    console = new_console()
    with errors():
        loaded = load_record(file)
        states = loaded.states()
    if isinstance(loaded, mc.Record):
        session: ReplaySession | ReviewSession = ReplaySession(
            loaded, states, console, terminal_ask(console)
        )
    else:
        from ..terminal.games import terminal_game

        moves = [str(m) for m in loaded.to_dict()["moves"]]
        game = terminal_game(loaded.to_dict()["game"])
        session = ReviewSession(loaded, states, moves, game, console, terminal_ask(console))
    if to_end:
        session.show_end()
        raise typer.Exit(0)
    raise typer.Exit(session.run())


def options(
    game: Annotated[
        str | None, typer.Argument(help=f"The game: {GAME_HELP}", show_default=False)
    ] = None,
) -> None:
    """List a game's options (NAME=VALUE for --option), with their defaults and choices."""
    from ..terminal.setup import options_help

    name = game_name(game)
    with errors():
        text = options_help(name)
    console = new_console()
    if name == MIND_CYCLING_GAME:
        console.print(
            "Mind Cycling options (as the web table and from_options take them; at the terminal they are "
            "--seats, --course, --riders, --wind, --relay-limit and --solo):",
            markup=False,
            soft_wrap=True,
        )
    else:
        console.print(f"{registry.get(name).title} options (--option NAME=VALUE):", markup=False)
    console.print(text, markup=False, soft_wrap=True)


# ---------------------------------------------------------------- moves


#: The examples of ``peloton moves --help`` (tests run every one of them).
MOVES_EXAMPLES = (
    'peloton moves --position "3 AC1:b9,AD1:c12+,AS1:c11,BC1:e8,BD1:d13+,BS1:d12 / - / -"',
    'peloton moves --game cyclo --position "9 AS1:a30*4,BH1:a29*4 / A*4,B*4"',
    'peloton moves --game cyclo --position "3 AH1:a75*4 / A*4" --after roll:1,1 --board',
    'peloton moves --game cyclo -o mode=leg -o level=starter --position "2 AS1:a10,BS1:b10" --after roll:3,4',
)


def moves(
    position: Annotated[
        str,
        typer.Option(
            help='A position: Mind Cycling MCN, e.g. "3 AD1:c12+,BS1:d12 / - / -"; Cyclo CYN, e.g. '
            '"9 AS1:a30*4,BH1:a29*4 / A*4,B*4".'
        ),
    ],
    game: Annotated[str, typer.Option(help=f"The game: {GAME_HELP}")] = MIND_CYCLING_GAME,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP, metavar="NAME=VALUE")
    ] = None,
    course: Annotated[
        str | None,
        typer.Option(
            help="Mind Cycling: a bundled course name or a course file (default standard)."
        ),
    ] = None,
    wind: Annotated[
        str | None, typer.Option(help="Mind Cycling: wind direction, front, left or right.")
    ] = None,
    relay_limit: Annotated[
        int | None, typer.Option(help="Mind Cycling: relay limit (MC-6.5, default 3).")
    ] = None,
    after: Annotated[
        str | None,
        typer.Option(
            help='Moves to play from the position first, space-separated (e.g. "roll:1,1 AH1-77").'
        ),
    ] = None,
    board: Annotated[bool, typer.Option("--board", help="Also draw the position.")] = False,
) -> None:
    """Print the legal moves of a position, one per line (at a chance step, its outcomes)."""
    console = new_console()
    name = game_name(game)
    played = (after or "").split()
    if name != MIND_CYCLING_GAME:
        reject_mind_cycling_flags(
            name, {"--course": course, "--wind": wind, "--relay-limit": relay_limit}
        )
        _other_moves(console, name, position, option, played, board)
        return
    reject_game_options(option)
    with errors():
        state = mc.from_mcn(
            load_course(course or "standard"),
            position,
            wind=wind or "front",
            relay_limit=3 if relay_limit is None else relay_limit,
        )
        for text in played:
            state.play(text)
    if board:
        console.print(render_board(state.course, state))
    legal = state.legal_moves()
    if state.is_over:
        console.print("The race is over: no legal moves.")
        raise typer.Exit(0)
    console.print(f"# round {state.round}, {state.current_rider} to play, {len(legal)} legal moves")
    for move in legal:
        console.print(str(move), markup=False, soft_wrap=True)


def _other_moves(
    console: Console,
    name: str,
    position: str,
    option: list[str] | None,
    played: list[str],
    board: bool,
) -> None:
    """``peloton moves`` for the games other than Mind Cycling (their ``--option``s)."""
    from ..terminal.games import FULL_VIEW, terminal_game
    from ..terminal.setup import game_options, parse_option_args

    shown = terminal_game(name)
    with errors():
        state = shown.from_position(position, game_options(name, parse_option_args(option), None))
        for text in played:
            state.play(text)
    if board:
        console.print(shown.render(state, {}, FULL_VIEW))
    if state.is_over:
        console.print("The race is over: no legal moves.")
        return
    legal = state.legal_moves()
    where = f"round {state.round}, " if hasattr(state, "round") else ""
    plural = "" if len(legal) == 1 else "s"
    console.print(
        f"# {where}{shown.step(state)}, {len(legal)} legal move{plural}",
        markup=False,
        soft_wrap=True,
    )
    for move in legal:
        console.print(str(move), markup=False, soft_wrap=True)
