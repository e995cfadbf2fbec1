"""``scripts/test-redis.sh``, which ``make test`` runs before the suite: Debian's
``redis-server`` for the cluster tests is found, or installed with apt, or its absence
is explained in one line (the cluster tests then fail saying how to install it)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from docs_examples import ROOT

SCRIPT = ROOT / "scripts" / "test-redis.sh"


def run_script(path: str) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    assert bash is not None
    return subprocess.run(
        [bash, str(SCRIPT)],
        env={"PATH": path, "HOME": os.environ.get("HOME", "/")},
        capture_output=True,
        text=True,
        timeout=60,
    )


def tools_dir(tmp_path: Path, *tools: str) -> Path:
    """A directory of the shell's own tools (and no apt-get), for PATH."""
    directory = tmp_path / "bin"
    directory.mkdir()
    for tool in ("bash", "id", *tools):
        found = shutil.which(tool)
        assert found is not None
        (directory / tool).symlink_to(found)
    return directory


def test_a_redis_server_in_place_is_printed_and_nothing_installed(tmp_path: Path) -> None:
    tools = tools_dir(tmp_path)
    server = tools / "redis-server"
    server.write_text("#!/bin/sh\n")
    server.chmod(0o755)
    done = run_script(str(tools))
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{server}\n", "")


def test_without_redis_or_apt_it_says_why_in_one_line(tmp_path: Path) -> None:
    done = run_script(str(tools_dir(tmp_path)))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(
        "test-redis: redis-server is missing and apt-get is not available"
    )


def test_make_test_makes_redis_ready_before_the_suite() -> None:
    recipe = (ROOT / "Makefile").read_text().split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert recipe.index("scripts/test-redis.sh") < recipe.index("pytest")
