"""Issue 32, point 14: ``make run`` installs what running needs, ``make test`` the rest.

A newcomer's ``make run`` installed the dev extra too (test tools, linters, plotting,
RL and Ray: the venv was 860 MB, the first page came after minutes). The Makefile
is read by ``make -n`` (what it would run); and a real ``peloton serve`` whose
process cannot import any package of the dev extra serves the lobby and plays an
all-bot table of every game to its first moves, so the runtime dependencies alone
are enough. ``benchmarks/first_page.py`` times a fresh clone's ``make run``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 15.0  # seconds a request or the server's stop may take


def planned(target: str, venv: Path) -> list[str]:
    """The pip installs ``make -n TARGET`` would run for a venv not made yet."""
    out = subprocess.run(
        ["make", "-n", target, f"VENV={venv}"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line for line in out.splitlines() if "pip install" in line and " -e " in line]


def test_make_run_installs_the_package_without_the_dev_extra(tmp_path: Path) -> None:
    assert planned("run", tmp_path / "venv") == [
        f"{tmp_path}/venv/bin/python -m pip install --quiet -e ."
    ]


def test_make_test_installs_the_dev_extra(tmp_path: Path) -> None:
    assert planned("test", tmp_path / "venv") == [
        f"{tmp_path}/venv/bin/python -m pip install --quiet -e '.[dev]'"
    ]


def dev_only_modules() -> set[str]:
    """The import names of the packages only the dev extra brings (its own list and
    the extras it includes), less those the runtime dependencies bring as well."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    names: set[str] = set()
    todo = list(extras["dev"])
    while todo:
        requirement = todo.pop()
        name = re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower()
        if name == "peloton":
            for extra in requirement[requirement.index("[") + 1 : requirement.index("]")].split(
                ","
            ):
                todo.extend(extras[extra])
        else:
            names.add(name)
    runtime = {re.split(r"[\[<>=!~ ;]", r, maxsplit=1)[0].lower() for r in project["dependencies"]}
    # uvicorn[standard] brings websockets; the test tools' names as Python imports them.
    aliases = {"pytest-xdist": "xdist"}
    return {aliases.get(n, n) for n in names - runtime - {"websockets"}}


BLOCKED_SERVE = """
import importlib.abc, sys
BLOCKED = set(sys.argv.pop(1).split(","))
class DevOnly(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{name} comes with the dev extra, which make run does not install")
sys.meta_path.insert(0, DevOnly())
from peloton.cli import main
sys.argv[0] = "peloton"
main()
"""


def test_the_server_runs_without_any_package_of_the_dev_extra(tmp_path: Path) -> None:
    blocked = dev_only_modules()
    assert {"pytest", "hypothesis", "matplotlib", "numpy", "ray", "playwright"} <= blocked
    args = [sys.executable, "-c", BLOCKED_SERVE, ",".join(sorted(blocked))]
    args += ["serve", "--port", "0", "--db", f"sqlite:///{tmp_path}/games.db"]
    args += ["--bot-delay", "0", "--limits", "relaxed"]
    env = {k: v for k, v in os.environ.items() if k != "PELOTON_DB_URL"}
    proc = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**env, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None
        url = ""
        for line in proc.stdout:
            if "serving on " in line:
                url = line.split("serving on ", 1)[1].strip()
                break
        assert url, "the server exited before serving"
        with httpx.Client(base_url=url, timeout=TIMEOUT) as http:
            assert http.get("/").status_code == 200
            games = http.get("/api/games").json()["games"]
            assert len(games) >= 4
            tables = {}
            for game in games:
                assert game["seats"]["min"] <= 2 <= game["seats"]["max"]
                seats = ["random", "random"]
                answer = http.post("/api/tables", json={"game": game["name"], "seats": seats})
                assert answer.status_code == 201, answer.text
                tables[game["name"]] = answer.json()["id"]
            deadline = time.monotonic() + 120
            waiting = set(tables)
            while waiting and time.monotonic() < deadline:
                for name in list(waiting):
                    if http.get(f"/api/tables/{tables[name]}").json()["moves"] > 0:
                        waiting.discard(name)
                time.sleep(0.2)
            assert not waiting, f"no bot moved at the tables of {sorted(waiting)}"
    finally:
        proc.terminate()
        proc.wait(timeout=TIMEOUT)
