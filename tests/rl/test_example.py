"""The training example runs end to end for a few steps and reports its win rates."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_training_example_trains_a_little_and_reports_win_rates() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "train_mindtwist.py"),
            *("--iterations", "2", "--population", "4", "--episodes", "4", "--eval", "6"),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"iteration  1: best [+-]\d\.\d\d", out)
    assert re.search(r"iteration  2: ", out)
    rows = re.findall(r"^(untrained|trained) +(\d+\.\d)% +(\d+\.\d)%$", out, re.M)
    assert [r[0] for r in rows] == ["untrained", "trained"]
    assert all(0.0 <= float(rate) <= 100.0 for row in rows for rate in row[1:])
