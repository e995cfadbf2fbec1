"""Issue 33, point 7: the browser code is checked by TypeScript, run by ``make test``.

docs/ci.md documents ``make jscheck`` and the command it runs, ``npx tsc --noEmit -p .``:
``make -n`` shows that ``make test`` runs the first and the first the second; the
check is run for real on the tree (it must be clean), and once on a file with a type
error, which must fail it, so that a clean run means something. Every module of
``src/peloton/web/js`` takes part.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
JS = REPO / "src" / "peloton" / "web" / "js"
CHECK = "npx tsc --noEmit -p ."
DOCUMENTED = ("make jscheck", CHECK)


def planned(target: str) -> list[str]:
    """The commands ``make -n TARGET`` prints (a sub-make's included)."""
    out = subprocess.run(
        ["make", "-n", "--no-print-directory", target],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line.strip() for line in out.splitlines()]


def npm_ready() -> None:
    """Fail, saying what to install, where npm is missing."""
    if shutil.which("npm") is None or shutil.which("npx") is None:
        pytest.fail(
            "npm is not installed, so the browser code cannot be checked: install Node.js "
            "and npm (Debian: apt-get install nodejs npm; docs/ci.md)"
        )


def test_the_documented_commands_are_what_make_test_runs() -> None:
    ci = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    assert all(command in ci for command in DOCUMENTED)
    steps = planned("test")
    mypy, jscheck = steps.index(".venv/bin/mypy"), steps.index("make --no-print-directory jscheck")
    assert mypy < jscheck, "the browser code is checked after the Python code"
    assert CHECK in steps[jscheck:]
    assert planned("jscheck")[-1] == CHECK


def test_the_check_installs_the_pinned_typescript() -> None:
    """``package.json`` pins an exact version (no range), the lock file holds it."""
    wanted = json.loads((REPO / "package.json").read_text())["devDependencies"]["typescript"]
    assert wanted[0].isdigit() and wanted.count(".") == 2, wanted
    lock = json.loads((REPO / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/typescript"]["version"] == wanted
    assert "node_modules/" in (REPO / ".gitignore").read_text().splitlines()


def test_every_module_is_checked() -> None:
    modules = sorted(JS.glob("*.js"))
    assert len(modules) > 40
    unchecked = [p.name for p in modules if not p.read_text().startswith("// @ts-check\n")]
    assert unchecked == [], f"not checked: {unchecked}"


def test_the_browser_code_checks_clean() -> None:
    npm_ready()
    run = subprocess.run(
        ["make", "--no-print-directory", "jscheck"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, f"make jscheck failed:\n{run.stdout}{run.stderr}"


def test_a_type_error_fails_the_check_and_an_unmarked_file_is_not_checked(
    tmp_path: Path,
) -> None:
    npm_ready()
    tsc = REPO / "node_modules" / ".bin" / "tsc"
    if not tsc.exists():
        subprocess.run(["make", "--no-print-directory", "jscheck"], cwd=REPO, check=True)
    wrong = "const box = document.getElementById('x');\nbox.value = 'y';\n"
    (tmp_path / "checked.js").write_text("// @ts-check\n" + wrong)
    (tmp_path / "unmarked.js").write_text(wrong)
    config = {"extends": str(REPO / "tsconfig.json"), "include": ["*.js"]}
    (tmp_path / "tsconfig.json").write_text(json.dumps(config))
    run = subprocess.run(
        [str(tsc), "--noEmit", "-p", "."], cwd=tmp_path, capture_output=True, text=True
    )
    assert run.returncode != 0
    errors = [line for line in run.stdout.splitlines() if "error TS" in line]
    assert errors and all(line.startswith("checked.js(3,") for line in errors), run.stdout
    assert "Property 'value' does not exist on type 'HTMLElement'" in run.stdout
