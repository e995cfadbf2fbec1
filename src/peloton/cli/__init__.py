"""The ``peloton`` command: play Mind Cycling, Mind Twist, Pistard or Cyclo The Game in
the terminal, learn them step by step, replay records, list legal moves, list and check courses, simulate many
bot games of any game, serve the web table.

Every error is one line on stderr and a non-zero exit code: engine errors (bad
options, courses, positions, records) exit 1, command-line usage errors exit 2, an
interrupted game exits 130. Set ``PELOTON_DEBUG=1`` to see tracebacks of unexpected
errors.

A package: :mod:`.base` holds what the commands share, each other module a few commands
and a ``register(app)`` that adds them; the app below is built by calling those in the
order ``peloton --help`` lists the commands.
"""

from __future__ import annotations

import os
import sys

import typer

from ..core.errors import PelotonError
from . import analyse, clock, courses, db, info, learn, play, rules, serve, simulate, solve, tour
from .base import EXIT_ERROR, EXIT_INTERRUPTED, new_app

__all__ = ["app", "main"]

#: The ``peloton`` app: the game commands first, then the tools, then the groups.
app = new_app()
play.register(app)  # play, replay, options, moves
courses.register(app)  # courses, and the group course (check, show)
info.register(app)
rules.register(app)
learn.register(app)
serve.register(app)
simulate.register(app)
analyse.register(app)
solve.register(app)
tour.register(app)
db.register(app)  # the group db (upgrade, current)

# ---------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> None:
    """Run the ``peloton`` command (``argv`` defaults to ``sys.argv[1:]``)."""
    # A time limit counts from the process's start when run as the command (clock).
    clock.start(whole_process=argv is None)
    command = typer.main.get_command(app)
    try:
        code = command.main(args=argv, prog_name="peloton", standalone_mode=False)
    except KeyboardInterrupt:
        print("peloton: interrupted", file=sys.stderr)
        raise SystemExit(EXIT_INTERRUPTED) from None
    except Exception as exc:
        if os.environ.get("PELOTON_DEBUG"):
            raise
        raise SystemExit(_report(exc)) from None
    raise SystemExit(code if isinstance(code, int) else 0)


def _report(exc: Exception) -> int:
    """Print an exception escaping the commands as one line; its exit code."""
    # Typer's usage errors (click's ClickException family) carry their own message and
    # exit code; they are recognised by shape because Typer may vendor click.
    fmt = getattr(exc, "format_message", None)
    code = getattr(exc, "exit_code", None)
    if callable(fmt) and isinstance(code, int):
        message = " ".join(str(fmt()).split())
        if not message:  # `peloton` alone: the help has been printed, nothing went wrong
            return 0
        print(f"peloton: error: {message} (see 'peloton --help')", file=sys.stderr)
        return code
    if isinstance(exc, PelotonError):
        print(f"peloton: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    print(
        f"peloton: internal error: {type(exc).__name__}: {exc} (PELOTON_DEBUG=1 shows more)",
        file=sys.stderr,
    )
    return EXIT_ERROR
