"""Every documented example runs: each ``peloton …`` line in the code blocks of README.md
and docs/*.md, each ``Examples:`` line of ``peloton <command> --help`` and each Python
block of those pages, run for real in a fresh directory, as a reader would.

Interactive ``play`` lines get their keyboard fed: a human seat takes the first listed
move each time, so the game is played to its end (a Mind Cycling human places its
riders, then leaves: see ``keyboard``). ``serve`` lines start a real server process
(on a free port instead of the documented one) and stop it once ``GET /api/games``
answers 200. What a line says it writes (``--record``, ``--out``, ``--plot``, ``--records``, a database)
must exist and load. What cannot run as written is listed below, with why:
PLACEHOLDER_DB and EXCERPTS.
"""

from __future__ import annotations

import csv
import json
import os
import queue
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from docs_examples import (
    ROOT,
    Command,
    code_blocks,
    commands,
    documents,
    help_examples,
    name,
)
from peloton.cli import app
from peloton.cli.learn import tutorial_of
from peloton.core.record import load_record

from .test_learn import typed

PELOTON = str(Path(sys.executable).parent / "peloton")

DOCUMENTED = [command for path in documents() for command in commands(path)]
HELP = help_examples()

#: The README's PostgreSQL line names a placeholder server (``user:pass@host``): it runs
#: for real against the suite's PostgreSQL when PELOTON_TEST_PG_URL gives one (as
#: ``make test`` does); without one it must fail, naming the host it cannot reach.
PLACEHOLDER_DB = "postgresql://user:pass@host/peloton"
#: The cluster lines (docs/deployment.md) name Redis on its usual port: they run for real
#: against a private ``redis-server`` of the test (a ``--broker`` needs the placeholder
#: PostgreSQL line's database too).
PLACEHOLDER_BROKER = "redis://127.0.0.1:6379/0"

#: Python blocks that are excerpts, not programs, and how each one is checked instead.
EXCERPTS = {
    "registry.register(": "docs/games.md quotes how a game registers itself (pistard's "
    "__init__): test_the_registration_excerpt_is_pistards runs it in pistard's namespace",
}

#: Mind Cycling's start squares, tried in turn by a human placing a rider.
START_SQUARES = [f"{col}{row}" for row in range(8, 0, -1) for col in "abcde"]


def game_of(command: Command) -> str:
    argv = command.argv
    if command.command == "tour":  # a Cyclo competition
        return "cyclo"
    if len(argv) > 1 and not argv[1].startswith("-"):
        return argv[1]
    return command.option("--game") or "mind-cycling"


def keyboard(command: Command) -> str:
    """What a human seat types: the first listed move each time, to the end of the
    game. A Mind Cycling human places its riders by start squares (a taken one is
    refused and the next one tried), then leaves (``q``, which still saves a
    ``--record``): a whole Mind Cycling game typed into the board takes 20 to 40 s
    here, and test_subprocess plays whole ones. A lesson (``peloton learn``) gets the
    moves it asks for, from its ``--step`` on, then declines the real game."""
    if command.command == "learn":
        tutorial = tutorial_of(game_of(command))
        lesson = tutorial.lessons[command.option("--lesson") or tutorial.first]()
        return typed(lesson, int(command.option("--step") or 1) - 1) + "n\n"
    if game_of(command) != "mind-cycling":
        return "1\n" * 3000
    return "".join(f"{square}\n" for square in START_SQUARES * 12) + "q\n"


def run_in_process(command: Command, stdin: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        app, list(command.argv), input=stdin, env={"COLUMNS": "100", **command.env}
    )
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def check_outputs(command: Command, cwd: Path) -> None:
    """What the line says it writes exists and loads."""
    if (record := command.option("--record")) is not None:
        assert len(load_record(cwd / record).states()) > 1, record  # moves were played
    if (out := command.option("--out")) is not None:
        text = (cwd / out).read_text()
        if out.endswith(".csv"):
            assert list(csv.DictReader(text.splitlines())), out
        else:
            assert json.loads(text), out
    if (plot := command.option("--plot")) is not None:
        assert (cwd / plot).read_bytes().startswith(b"\x89PNG"), plot
    if (records := command.option("--records")) is not None:
        saved = sorted((cwd / records).glob("*.json"))
        assert len(saved) == int(command.option("--games") or 100), records
        for path in saved:
            assert load_record(path).replay().is_over, path


def run(command: Command, cwd: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a non-server line in ``cwd``; its output."""
    monkeypatch.chdir(cwd)
    for directory in command.dirs:
        (cwd / directory).mkdir(parents=True, exist_ok=True)
    code, out, err = run_in_process(command, keyboard(command))
    if command.command == "simulate":
        err = err.strip()  # what is left of its progress bar (on stderr) is a newline
    assert (code, err) == (0, ""), (str(command), out[-1500:], err)
    if command.command == "learn":
        assert "You have finished the lesson." in out, out[-1500:]
    check_outputs(command, cwd)
    return out


# ---------------------------------------------------------------- serve


def serving(command: Command, cwd: Path) -> tuple[subprocess.Popen[str], queue.Queue[str | None]]:
    """Start a ``serve`` line as a process in ``cwd``, on any free port (``--port 0``),
    its data directory inside ``cwd``."""
    argv = list(command.argv)
    if "--port" in argv:
        argv[argv.index("--port") + 1] = "0"
    else:
        argv += ["--port", "0"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_DATA_HOME": str(cwd / "data"), **command.env}
    if "PELOTON_DB_URL" not in command.env:
        env.pop("PELOTON_DB_URL", None)
    proc = subprocess.Popen(
        [PELOTON, *argv],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return proc, lines


def serve_and_ask(command: Command, cwd: Path) -> str:
    """Serve until ``GET /api/games`` answers 200, then stop; the server's output."""
    proc, lines = serving(command, cwd)
    output: list[str] = []
    try:
        deadline = time.monotonic() + 180  # start-up on a loaded machine
        while True:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, f"{command}: the server exited:\n{''.join(output)}"
            output.append(line)
            if "serving on " in line:
                url = line.split("serving on ", 1)[1].strip().replace("0.0.0.0", "127.0.0.1")
                break
        with urllib.request.urlopen(f"{url}/api/games", timeout=30) as answer:
            assert answer.status == 200
            json.loads(answer.read())
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return "".join(output)


def serve_the_placeholder_database(command: Command, cwd: Path, broker: str | None) -> None:
    """The README's ``--db postgresql://user:pass@host/peloton``: served for real on a
    fresh database of the suite's PostgreSQL when PELOTON_TEST_PG_URL names one (and
    ``--broker`` on ``broker``, a real Redis); else the placeholder host cannot be
    reached, and the server says so and exits."""
    admin = os.environ.get("PELOTON_TEST_PG_URL")
    if admin:
        from server.helpers import drop_pg_database, pg_database

        url, database = pg_database(admin)
        real = {PLACEHOLDER_DB: url, PLACEHOLDER_BROKER: broker}
        try:
            argv = tuple(real.get(word) or word for word in command.argv)
            serve_and_ask(Command(command.where, command.line, argv), cwd)
        finally:
            drop_pg_database(admin, database)
        return
    proc, lines = serving(command, cwd)
    try:
        assert proc.wait(timeout=60) != 0
    finally:
        proc.kill()
    output = "".join(iter(lines.get, None))
    assert "failed to resolve host 'host'" in output and "serving on" not in output, output
    assert "Traceback" not in output, "a bad --db is one line, not a traceback"
    assert proc.returncode == 1


def test_the_pages_and_help_have_examples() -> None:
    by_page = {name(path): commands(path) for path in documents()}
    # The README is a front page; the examples live on the site's pages, one per topic.
    assert len(by_page["README.md"]) >= 2 and len(by_page["docs/cyclo.md"]) >= 4
    assert len(by_page["docs/playing.md"]) >= 10 and len(by_page["docs/designers.md"]) >= 5
    assert len(by_page["docs/server.md"]) >= 4 and len(DOCUMENTED) >= 50
    assert {c.command for c in DOCUMENTED} >= {"play", "serve", "simulate", "moves"}
    assert {c.where for c in HELP} >= {
        "peloton play --help",
        "peloton moves --help",
        "peloton rules --help",
    }


@pytest.mark.parametrize("command", DOCUMENTED, ids=str)
def test_every_documented_command_runs(
    command: Command,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    if command.command != "serve":
        run(command, tmp_path, monkeypatch)
        return
    database = command.option("--db")
    broker = command.option("--broker")
    if broker is not None:
        assert (broker, database) == (PLACEHOLDER_BROKER, PLACEHOLDER_DB), command
        broker = request.getfixturevalue("redis_url")
    if database == PLACEHOLDER_DB:
        serve_the_placeholder_database(command, tmp_path, broker)
        return
    output = serve_and_ask(command, tmp_path)
    if database is None and "PELOTON_DB_URL" not in command.env:
        # "SQLite in your data directory"
        assert (
            "Peloton database: sqlite:///" in output
            and (tmp_path / "data" / "peloton" / "peloton.db").exists()
        )
    for key, value in command.env.items():
        if key == "PELOTON_DB_URL" and value.startswith("sqlite:///"):
            assert (tmp_path / value.removeprefix("sqlite:///")).exists()


# ---------------------------------------------------------------- --help


@pytest.mark.parametrize("command", HELP, ids=str)
def test_every_help_example_runs(
    command: Command, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = CliRunner().invoke(app, command.where.split()[1:], env={"COLUMNS": "100"})
    code, out = result.exit_code, result.stdout
    assert code == 0 and " ".join(command.line.split()) in " ".join(out.split())
    run(command, tmp_path, monkeypatch)


# ---------------------------------------------------------------- Python blocks


PYTHON = [
    pytest.param(block.text, id=f"{name(block.path)}:{block.line}")
    for path in documents()
    for block in code_blocks(path)
    if block.lang == "python" and not any(excerpt in block.text for excerpt in EXCERPTS)
]


@pytest.mark.parametrize("block", PYTHON)
def test_every_python_block_runs(
    block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(ROOT))  # the docs' `from tests.games.contract import …`
    exec(compile(block, "example", "exec"), {"__name__": "__example__"})


def test_the_registration_excerpt_is_pistards() -> None:
    """docs/games.md's ``registry.register(...)`` is pistard's own registration."""
    import types

    from peloton.core import registry
    from peloton.games import pistard

    (block,) = [
        b.text
        for b in code_blocks(ROOT / "docs" / "games.md")
        if b.lang == "python" and "registry.register(" in b.text
    ]
    registered: list[registry.GameInfo] = []
    stub = types.SimpleNamespace(GameInfo=registry.GameInfo, register=registered.append)
    exec(compile(block, "docs/games.md", "exec"), {**vars(pistard), "registry": stub})
    assert registered == [registry.get("pistard")]


def test_every_python_block_is_run_or_listed() -> None:
    blocks = [b for path in documents() for b in code_blocks(path) if b.lang == "python"]
    assert len(blocks) == len(PYTHON) + len(EXCERPTS)


# ---------------------------------------------------------------- course files


TOML = [
    pytest.param(block.text, id=f"{name(block.path)}:{block.line}")
    for path in documents()
    for block in code_blocks(path)
    if block.lang == "toml"
]


@pytest.mark.parametrize("block", TOML)
def test_every_course_file_shown_is_valid(block: str, tmp_path: Path) -> None:
    """The README's course file passes ``peloton course check my.toml``."""
    (tmp_path / "my.toml").write_text(block)
    code, out, err = run_in_process(
        Command("", "", ("course", "check", str(tmp_path / "my.toml"))), ""
    )
    assert (code, err) == (0, "") and "valid course" in out, out
