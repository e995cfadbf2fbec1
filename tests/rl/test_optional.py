"""The environments are an optional extra: ``import peloton`` never loads them, and
``peloton.rl`` without them says how to install them."""

from __future__ import annotations

import subprocess
import sys


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)


def test_importing_peloton_and_its_games_loads_no_rl_library() -> None:
    done = _run(
        "import sys, peloton, peloton.bots\n"
        "from peloton.games import mindcycling, mindtwist, pistard, cyclo\n"
        "print(sorted(m for m in ('pettingzoo', 'gymnasium') if m in sys.modules))"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_peloton_rl_without_pettingzoo_says_how_to_install_it() -> None:
    done = _run("import sys\nsys.modules['pettingzoo'] = None\nimport peloton.rl")
    assert done.returncode != 0
    assert "pip install 'peloton[rl]'" in done.stderr
    assert "pettingzoo is missing" in done.stderr
