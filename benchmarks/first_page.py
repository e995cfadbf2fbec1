"""How long a newcomer waits for the first page: a fresh clone of this repository's
``HEAD`` (or ``--ref``), ``make run`` in it, and the seconds until the lobby answers,
with the size of the ``.venv`` it made.

    python benchmarks/first_page.py [--ref HEAD] [--port 8765]

The clone and its venv go to a temporary folder, removed at the end. pip takes the
packages from its cache when an earlier install left them there (this machine's
usual case after the first install: the figure then measures resolving, unpacking
and compiling, not downloading); ``--no-cache`` sets ``PIP_NO_CACHE_DIR`` to download
everything, as on a machine that never installed Peloton. Prints figures only.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def size_mb(path: Path) -> float:
    total = sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())
    return total / 1e6


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="HEAD")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("--timeout", type=float, default=900.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="peloton-fresh-") as tmp:
        clone = Path(tmp) / "peloton"
        subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "-q", args.ref], check=True)
        env = {**os.environ, "PELOTON_DB_URL": f"sqlite:///{tmp}/games.db"}
        if args.no_cache:
            env["PIP_NO_CACHE_DIR"] = "1"
        url = f"http://127.0.0.1:{args.port}/"
        start = time.monotonic()
        run = subprocess.Popen(
            ["make", "run", f"PORT={args.port}"],
            cwd=clone,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            while not answers(url):
                if run.poll() is not None:
                    sys.exit(f"make run ended with {run.returncode} before the first page")
                if time.monotonic() - start > args.timeout:
                    sys.exit(f"no page after {args.timeout:.0f} s")
                time.sleep(0.5)
            waited = time.monotonic() - start
        finally:
            os.killpg(run.pid, signal.SIGTERM)
            run.wait(timeout=30)
        print(
            f"ref {args.ref}: first page after {waited:.0f} s; .venv {size_mb(clone / '.venv'):.0f} MB"
        )


if __name__ == "__main__":
    main()
