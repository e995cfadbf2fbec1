"""``peloton rules``: a game's rules in the terminal, whole or one rule, diagrams
drawn by the terminal board, paged on a terminal."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from .. import rulebook
from .base import EXIT_USAGE, errors, examples, fail
from .base import console as new_console
from .help import Command

RULES_EXAMPLES = (
    "peloton rules mind-cycling MC-6.5",
    "peloton rules pistard PI-3.4",
    "peloton rules mind-twist --terms",
    "peloton rules mind-twist --no-pager",
)


def register(app: typer.Typer) -> None:
    """Add ``rules`` to ``app``."""
    app.command(cls=Command, epilog=examples(RULES_EXAMPLES))(rules)


def rules(
    game: Annotated[str, typer.Argument(help="The game whose rules to show.", show_default=False)],
    rule_id: Annotated[
        str | None,
        typer.Argument(
            help="Show only this rule (e.g. MC-5.4), as error messages and --help cite them.",
            show_default=False,
        ),
    ] = None,
    terms: Annotated[
        bool, typer.Option("--terms", help="List the game's words, each explained.")
    ] = False,
    pager: Annotated[
        bool,
        typer.Option(help="Page the text on a terminal (never when the output is piped)."),
    ] = True,
) -> None:
    """Show how to play a game: its rules page, with diagrams drawn on the board."""
    if game not in rulebook.games():
        raise fail(
            f"no rules for {game!r}: the games with rules are {', '.join(rulebook.games())}",
            EXIT_USAGE,
        )
    if terms and rule_id:
        raise fail("give a RULE-ID or --terms, not both", EXIT_USAGE)
    from ..terminal.rules import render_rules, render_terms

    with errors():
        shown = render_terms(game) if terms else render_rules(game, rule_id)
        console = new_console()
        if pager and console.is_terminal and sys.stdin.isatty():
            with console.pager(styles=True):
                console.print(shown)
        else:
            console.print(shown)
