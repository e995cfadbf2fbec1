"""``scripts/test-chromium.sh``, which ``make test`` runs before the suite: Debian's
Chromium for the browser tests is found, or installed with apt, or its absence is
explained in one line (the browser tests then fail with the same reason)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from docs_examples import ROOT

SCRIPT = ROOT / "scripts" / "test-chromium.sh"


def run_script(chromium: Path, path: str) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash")
    assert bash is not None
    return subprocess.run(
        [bash, str(SCRIPT)],
        env={"CHROMIUM": str(chromium), "PATH": path, "HOME": os.environ.get("HOME", "/")},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_chromium_in_place_is_printed_and_nothing_installed(tmp_path: Path) -> None:
    browser = tmp_path / "chromium"
    browser.write_text("#!/bin/sh\n")
    browser.chmod(0o755)
    done = run_script(browser, os.environ["PATH"])
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{browser}\n", "")


def test_without_chromium_or_apt_it_says_why_in_one_line(tmp_path: Path) -> None:
    # A PATH with the shell's own tools but no apt-get.
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("bash", "id"):
        found = shutil.which(tool)
        assert found is not None
        (tools / tool).symlink_to(found)
    missing = tmp_path / "no" / "chromium"
    done = run_script(missing, str(tools))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(
        f"test-chromium: {missing} is missing and apt-get is not available"
    )


def test_make_test_makes_chromium_ready_before_the_suite() -> None:
    recipe = (ROOT / "Makefile").read_text().split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert recipe.index("scripts/test-chromium.sh") < recipe.index("pytest")
