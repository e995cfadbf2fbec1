"""``peloton courses`` and ``peloton course check|show``: Mind Cycling's bundled courses
and course files."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..core.errors import CourseError
from ..games import mindcycling as mc
from ..terminal.board import render_board
from ..terminal.courses import course_facts, course_lines, load_course
from .base import EXIT_ERROR, errors, fail
from .base import console as new_console
from .help import Command, Group


def register(app: typer.Typer) -> None:
    """Add ``courses`` (the bundled courses) and the group ``course`` (``check`` and
    ``show`` a course) to ``app``."""
    app.command(cls=Command)(courses)
    course_app = typer.Typer(cls=Group, help="Check or draw a course.", no_args_is_help=True)
    course_app.command("check", cls=Command)(course_check)
    course_app.command("show", cls=Command)(course_show)
    app.add_typer(course_app, name="course")


# ---------------------------------------------------------------- courses


def courses() -> None:
    """List the bundled courses."""
    console = new_console()
    with errors():
        for name in mc.bundled_names():
            for line in course_lines(mc.Course.load(name)):
                console.print(line, markup=False, soft_wrap=True)


def course_check(
    file: Annotated[Path, typer.Argument(help="A course file (TOML or JSON).")],
) -> None:
    """Validate a course file, printing every problem (exit 1 if invalid)."""
    console = new_console()
    if not file.is_file():
        raise fail(f"no such course file {str(file)!r}")
    try:
        checked = mc.Course.from_file(file)
    except CourseError as exc:
        print(f"{file}: invalid course ({len(exc.problems)} problem(s)):", file=sys.stderr)
        for problem in exc.problems:
            print(f"  - {problem}", file=sys.stderr)
        raise typer.Exit(EXIT_ERROR) from None
    console.print(f"{file}: valid course {checked.name!r}", markup=False, soft_wrap=True)
    _print_facts(console, checked)


def course_show(
    name: Annotated[str, typer.Argument(help="A bundled course name or a course file.")],
) -> None:
    """Draw a course, empty, from start to finish."""
    console = new_console()
    with errors():
        shown = load_course(name)
    console.print(f"course {shown.name!r}", markup=False, soft_wrap=True)
    _print_facts(console, shown)
    console.print(render_board(shown, full=True))


def _print_facts(console: Console, course: mc.Course) -> None:
    for label, value in course_facts(course):
        console.print(f"  {label + ':':<12}{value}", markup=False, soft_wrap=True)
