"""``peloton learn GAME``: a game's lesson at the terminal (:mod:`peloton.terminal.learn`),
the same lesson as the web tutorial's, ending with the offer of a real game against
bots."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..core import registry
from ..core.errors import ConfigError
from .base import EXIT_USAGE, errors, examples, fail
from .base import console as new_console
from .help import Command

LEARN_EXAMPLES = (
    "peloton learn mind-cycling",
    "peloton learn cyclo --lesson pro",
    "peloton learn pistard --step 3",
)


def register(app: typer.Typer) -> None:
    """Add ``learn`` to ``app``."""
    app.command(cls=Command, epilog=examples(LEARN_EXAMPLES))(learn)


def tutorial_of(game: str) -> Any:
    """The tutorial ``game`` offers (``GameInfo.tutorial``); :class:`ConfigError` naming
    the games that offer one when it offers none."""
    found = registry.offer(game, "tutorial") if game in registry.names() else None
    if found is None:
        with_tutorial = [n for n in registry.names() if registry.get(n).tutorial]
        raise ConfigError(
            f"no lesson for {game!r}: the games with one are {', '.join(with_tutorial)}"
        )
    return found


def learn(
    game: Annotated[str, typer.Argument(help="The game to learn.", show_default=False)],
    lesson: Annotated[
        str | None,
        typer.Option(
            help="The lesson, for a game with several (Cyclo: starter, pro).",
            show_default="the game's first",
        ),
    ] = None,
    step: Annotated[int, typer.Option(help="Start at this step.", min=1)] = 1,
    play: Annotated[
        bool | None,
        typer.Option(
            help="At the end, play the real game against bots without asking.", show_default="ask"
        ),
    ] = None,
) -> None:
    """Learn a game step by step: a short scripted game, one idea a step, your moves
    checked by the engine (a refused move is explained), the other seats' replies and
    the dice played for them; then a real game against bots."""
    from ..terminal.inputs import terminal_ask
    from ..terminal.launch import table_for
    from ..terminal.learn import LessonSession, table_plan

    with errors():
        tutorial = tutorial_of(game)
    lessons = tutorial.lessons
    name = lesson or tutorial.first
    if name not in lessons:
        raise fail(
            f"{game} has no lesson {name!r}: its lessons are {', '.join(lessons)}", EXIT_USAGE
        )
    console = new_console()
    ask = terminal_ask(console)
    with errors():
        chosen = lessons[name]()
        if step > len(chosen.steps):
            raise fail(f"the lesson has {len(chosen.steps)} steps, not {step}", EXIT_USAGE)
        console.print(f"[bold]{chosen.title}[/bold] ({len(chosen.steps)} steps; type ? for help)")
        finished = LessonSession(game, chosen, console, ask, first=step).run()
    if not finished:
        raise typer.Exit(0)
    plan = table_plan(chosen)
    command = " ".join(["peloton play", game, "--seats", plan["seats"]] +
                       [f"--option {o}" for o in plan["options"]])  # fmt: skip
    console.print(f"A real game against bots: {command}", markup=False, soft_wrap=True)
    if play is None:
        try:
            play = ask("Play it now? [y/N] ").strip().lower() in {"y", "yes"}
        except EOFError:
            play = False
    if play:
        with errors():
            session = table_for(game, plan["seats"], plan["options"], None, None, console)
        raise typer.Exit(session.run())
