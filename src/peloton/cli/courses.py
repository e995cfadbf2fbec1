"""``peloton courses`` and ``peloton course check|show|new``: a game's bundled courses
and course files. Mind Cycling's are drawn by the terminal's board; any other game with
a course editor (``GameInfo.editor``, a :class:`~peloton.core.offers.Editor`) is checked,
summed up and written through that editor, so the commands need nothing else of it."""

from __future__ import annotations

import json
import sys
import tomllib
from importlib import import_module
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from ..core import registry
from ..core.errors import CourseError
from ..core.offers import Editor
from ..games import mindcycling as mc
from ..terminal.board import render_board
from ..terminal.courses import course_facts, course_lines, load_course
from .base import EXIT_ERROR, EXIT_USAGE, GAME_HELP, errors, fail, game_name
from .base import console as new_console
from .help import Command, Group

#: The largest course file read (bytes): a course file is a few hundred bytes; a larger
#: one is refused before it is parsed.
MAX_COURSE_FILE = 64 * 1024

GameOption = Annotated[str | None, typer.Option("--game", help=GAME_HELP)]


def register(app: typer.Typer) -> None:
    """Add ``courses`` (the bundled courses) and the group ``course`` (``check``,
    ``show`` and ``new``) to ``app``."""
    app.command(cls=Command)(courses)
    course_app = typer.Typer(cls=Group, help="Check, draw or make a course.", no_args_is_help=True)
    course_app.command("check", cls=Command)(course_check)
    course_app.command("show", cls=Command)(course_show)
    course_app.command("new", cls=Command)(course_new)
    app.add_typer(course_app, name="course")


# ---------------------------------------------------------------- a game's editor


def _editor(game: str) -> Editor:
    """The course editor ``game`` declares (usage error if it has none)."""
    editor: Editor | None = registry.offer(game, "editor")
    if editor is None:
        raise fail(f"{game} has no course editor, so no course files to check", EXIT_USAGE)
    return editor


def _game_module(game: str) -> Any:
    """The package of ``game`` (its ``Course`` and ``bundled_courses``)."""
    return import_module(registry.package(game))


def _read(file: Path) -> Any:
    """A course file's data: TOML for ``.toml``, JSON otherwise; a one-line error for a
    missing, oversized or malformed file."""
    if not file.is_file():
        raise fail(f"no such course file {str(file)!r}")
    size = file.stat().st_size
    if size > MAX_COURSE_FILE:
        raise fail(f"{file}: {size} bytes, over the {MAX_COURSE_FILE} a course file may have")
    try:
        text = file.read_text(encoding="utf-8")
        if file.suffix.lower() == ".toml":
            return tomllib.loads(text)
        return json.loads(text)
    except UnicodeDecodeError:
        raise fail(f"{file}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise fail(f"{file}: not TOML ({exc})") from None
    except json.JSONDecodeError as exc:
        raise fail(f"{file}: not JSON ({exc})") from None


def _bundled(game: str, name: str) -> Any:
    """The data of a bundled course of ``game`` (a one-line error naming the others)."""
    module = _game_module(game)
    names = list(module.bundled_courses()) if hasattr(module, "bundled_courses") else []
    if name not in names:
        raise fail(f"no bundled course called {name!r} (bundled: {', '.join(names)})")
    return module.Course.load(name).to_dict()


def _print_lines(console: Console, lines: list[str], prefix: str = "  ") -> None:
    for line in lines:
        console.print(f"{prefix}{line}", markup=False, soft_wrap=True)


def _check_data(console: Console, editor: Editor, label: str, data: Any) -> None:
    """Print a course's problems (on stderr, exit 1) or its facts and advice."""
    problems = editor.problems(data)
    if problems:
        print(f"{label}: invalid course ({len(problems)} problem(s)):", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        raise typer.Exit(EXIT_ERROR)
    name = data.get("name") if isinstance(data, dict) else None
    console.print(f"{label}: valid course {name!r}", markup=False, soft_wrap=True)
    _print_lines(console, editor.summary(data))
    _print_lines(console, [f"advice: {a}" for a in editor.advice(data)])


# ---------------------------------------------------------------- commands


def courses(game: GameOption = None) -> None:
    """List the bundled courses."""
    console = new_console()
    chosen = game_name(game)
    with errors():
        if chosen == mc.State.game:
            for name in mc.bundled_names():
                for line in course_lines(mc.Course.load(name)):
                    console.print(line, markup=False, soft_wrap=True)
            return
        module = _game_module(chosen)
        for name in module.bundled_courses():
            console.print(
                f"{name}: {_describe(module.Course.load(name))}", markup=False, soft_wrap=True
            )


def _describe(course: Any) -> str:
    """One line on a course of another game: its boards, or its lap (a velodrome)."""
    boards = getattr(course, "boards", ())
    if boards:
        start = getattr(course, "start", 1)
        where = f" from space {start}" if start != 1 else ""
        return f"{' '.join(b.name for b in boards)}{where}, {course.length} spaces"
    return f"a velodrome of {getattr(course, 'lap', '?')} spaces a lap"


def course_check(
    file: Annotated[Path, typer.Argument(help="A course file (TOML or JSON).")],
    game: GameOption = None,
) -> None:
    """Validate a course file, printing every problem (exit 1 if invalid)."""
    console = new_console()
    chosen = game_name(game)
    if chosen != mc.State.game:
        _check_data(console, _editor(chosen), str(file), _read(file))
        return
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
    game: GameOption = None,
) -> None:
    """Draw a course, empty, from start to finish (another game: its facts)."""
    console = new_console()
    chosen = game_name(game)
    if chosen != mc.State.game:
        path = Path(name)
        data = _read(path) if path.suffix or path.is_file() else _bundled(chosen, name)
        _check_data(console, _editor(chosen), name, data)
        return
    with errors():
        shown = load_course(name)
    console.print(f"course {shown.name!r}", markup=False, soft_wrap=True)
    _print_facts(console, shown)
    console.print(render_board(shown, full=True))


def course_new(
    boards: Annotated[
        str, typer.Option(help="The boards in course order, comma-separated: A1,C2,B2,E1.")
    ],
    name: Annotated[str, typer.Option(help="The course's name.")],
    game: GameOption = None,
    start: Annotated[
        int | None, typer.Option(help="Time trials: the first board's space it starts on.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Write the course file here (default: print it).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Write JSON, not TOML.")] = False,
) -> None:
    """Make a course from boards (a game with a course builder, e.g. --game cyclo),
    checked as ``course check`` checks it; nothing is written when it is invalid."""
    console = new_console()
    chosen = game_name(game)
    if chosen == mc.State.game:
        raise fail(
            "Mind Cycling's courses are drawn, not laid from boards: "
            "use the web course editor (/editor)",
            EXIT_USAGE,
        )
    editor = _editor(chosen)
    data: dict[str, Any] = {"name": name, "boards": [b.strip() for b in boards.split(",")]}
    if start is not None:
        data["start"] = start
    problems = editor.problems(data)
    if problems:
        print(f"course {name!r}: invalid course ({len(problems)} problem(s)):", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        raise typer.Exit(EXIT_ERROR)
    draft, _ = editor.draft(data)
    assert draft is not None  # a valid course always opens
    text = json.dumps(draft, indent=2) + "\n" if as_json else editor.text(draft)
    if out is None:
        console.print(text, markup=False, soft_wrap=True, end="")
        return
    with errors():
        out.write_text(text, encoding="utf-8")
    console.print(f"{out}: valid course {name!r}", markup=False, soft_wrap=True)
    _print_lines(console, editor.summary(data))
    _print_lines(console, [f"advice: {a}" for a in editor.advice(data)])


def _print_facts(console: Console, course: mc.Course) -> None:
    for label, value in course_facts(course):
        console.print(f"  {label + ':':<12}{value}", markup=False, soft_wrap=True)
