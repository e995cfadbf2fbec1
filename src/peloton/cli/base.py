"""What every ``peloton`` command shares: the Typer app, exit codes, one-line errors and
the console. The commands live beside this module, each adding its own to the app with
its ``register`` (:mod:`peloton.cli` calls them in order)."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console

from ..core import registry
from ..core.errors import ConfigError, PelotonError
from ..games import mindcycling as mc
from .help import Group


def _print_version(asked: bool) -> None:
    if asked:
        from .. import __version__

        print(f"peloton {__version__}")
        raise typer.Exit(0)


def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print the version and exit.", callback=_print_version, is_eager=True
        ),
    ] = False,
) -> None:
    """The options taken before any command."""


def new_app() -> typer.Typer:
    """The ``peloton`` app, without its commands: its help, ``--version``, and Typer's
    own exception pages off (:func:`peloton.cli.main` reports errors in one line)."""
    return typer.Typer(
        name="peloton",
        help="Peloton: play Mind Cycling, Mind Twist, Pistard or Cyclo The Game in the terminal, "
        "replay records, simulate bot games, check courses, serve the web table.",
        cls=Group,
        callback=_options,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )


def examples(lines: tuple[str, ...]) -> str:
    """A command's epilog: its examples, one a paragraph (tests run every one)."""
    return "Examples:\n\n" + "\n\n".join(lines)


EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def fail(message: str, code: int = EXIT_ERROR) -> typer.Exit:
    """Print a one-line error on stderr; the caller raises the returned Exit."""
    print(f"peloton: error: {' '.join(message.split())}", file=sys.stderr)
    return typer.Exit(code)


@contextmanager
def errors() -> Iterator[None]:
    """Turn the engine's typed errors and file errors into one-line messages."""
    try:
        yield
    except PelotonError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc)) from None


def console() -> Console:
    # Built per command, not at import, so that it writes to the sys.stdout of the
    # moment (tests capture it).
    return Console(highlight=False)


# ---------------------------------------------------------------- choosing a game

MIND_CYCLING_GAME = mc.State.game
GAME_HELP = f"one of {', '.join(registry.names())} (default {MIND_CYCLING_GAME})."
OPTION_HELP = (
    "A game option NAME=VALUE, repeatable (not Mind Cycling's): see 'peloton options GAME'."
)
# Mind Cycling's rule flags, the same in play and simulate.
WindOption = Annotated[
    str | None,
    typer.Option(help="Wind direction: front, left or right (MC-5.5; default front)."),
]
RelayLimitOption = Annotated[
    int | None, typer.Option(help="Largest group a rider may relay (MC-6.5; default 3).")
]


def game_name(game: str | None) -> str:
    """The registered name of the game asked for (default Mind Cycling)."""
    if game is None:
        return MIND_CYCLING_GAME
    try:
        registry.get(game)
    except ConfigError as exc:
        raise fail(str(exc), EXIT_USAGE) from None
    return game


def reject_mind_cycling_flags(game: str, flags: Mapping[str, object]) -> None:
    """The other games take ``--option NAME=VALUE``, not Mind Cycling's flags."""
    given = [flag for flag, value in flags.items() if value is not None]
    if given:
        raise fail(
            f"{', '.join(given)}: Mind Cycling option(s), not {game}'s; "
            f"give {game} options as --option NAME=VALUE (see 'peloton options {game}')",
            EXIT_USAGE,
        )


def reject_game_options(option: list[str] | None) -> None:
    """Mind Cycling takes its own flags, not ``--option``."""
    if option:
        others = ", ".join(name for name in registry.names() if name != MIND_CYCLING_GAME)
        raise fail(
            f"--option is for the other games ({others}); Mind Cycling takes --course, --riders, --wind, "
            "--relay-limit",
            EXIT_USAGE,
        )
