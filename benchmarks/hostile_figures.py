"""The figures of issue 11 (hardening the table server), measured on a real
``peloton serve`` over its sockets:

- **replay bytes per move**: a Mind Twist game of right guesses (the issue's endless
  game, played by one client seated twice) and a Mind Cycling game of four greedy
  bots, replayed by ``GET /api/tables/{id}/replay`` and ``POST /api/replay``;
- **the course check's cost**: ``POST /api/courses/check`` of the issue's 109-byte
  course of a million rows (its answer time, and the slowest lobby request meanwhile);
- **a control table's bot moves per second under solver load**: four bots on the
  standard course, alone, then while ``--attackers`` tables ask for Mind Twist's
  ``optimal`` bot on the longest board the server accepts (the issue: 40 tables of
  length 300).

Starts the server with ``python -m peloton serve`` (so that ``PYTHONPATH=...`` runs an
older tree for a "before" figure) on SQLite in a temporary directory, with
``--limits relaxed`` when the server knows that option (one client makes every
request here).

    python benchmarks/hostile_figures.py [--attackers 40] [--twist-moves 160]

Prints figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

COURSE_BOMB = {
    "name": "x",
    "lanes": 5,
    "finish": 1000000,
    "sections": [[9, "plain"]],
    "feed": [],
    "rocks": [],
}


def start(db: str, bot_delay: float) -> tuple[subprocess.Popen[str], str]:
    """``peloton serve --port 0``; the process and its address."""
    helped = subprocess.run(
        [sys.executable, "-m", "peloton", "serve", "--help"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    extra = ["--limits", "relaxed"] if "--limits" in helped else []
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "peloton",
            "serve",
            "--port",
            "0",
            "--db",
            db,
            "--bot-delay",
            str(bot_delay),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if "serving on " in line:
            url = line.split("serving on ", 1)[1].strip()
            threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
            return proc, url
    raise SystemExit("the server did not start")


def tree_rss_mb(pid: int) -> float:
    """Resident memory (MB) of process ``pid`` and its children (its worker processes),
    from ``/proc`` (Linux)."""
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        total += (
            next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
            / 1024
        )
        pending.extend(int(child) for child in children)
    return total


def course_memory(url: str, pid: int) -> dict[str, float]:
    """What the million-row course's check and table creation add to the server's
    memory (its workers included), and their answers' status codes."""
    with httpx.Client(base_url=url, timeout=300) as http:
        before = tree_rss_mb(pid)
        checked = http.post("/api/courses/check", json={"course": COURSE_BOMB})
        created = http.post(
            "/api/tables", json={"course": COURSE_BOMB, "seats": ["human", "human"]}
        )
        time.sleep(1.0)
        after = tree_rss_mb(pid)
    return {
        "check": checked.status_code,
        "create": created.status_code,
        "before": before,
        "after": after,
    }


def stop(proc: subprocess.Popen[str]) -> None:
    proc.kill()
    proc.wait()


# ---------------------------------------------------------------- replays


def twist_replay(url: str, moves: int) -> dict[str, float]:
    """Bytes per move of a Mind Twist game of right guesses, replayed both ways."""
    ws_url = url.replace("http://", "ws://")
    with httpx.Client(base_url=url, timeout=120) as http:
        table = http.post(
            "/api/tables", json={"game": "mind-twist", "seats": ["human", "human"]}
        ).json()["id"]
        tokens = {
            s: http.post(f"/api/tables/{table}/join", json={"seat": s, "name": s}).json()["token"]
            for s in "RB"
        }
        socks = {s: connect(f"{ws_url}/ws/tables/{table}", max_size=None) for s in "RB"}
        snap: dict[str, Any] = {}
        for seat, ws in socks.items():
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            while (m := json.loads(ws.recv()))["type"] != "welcome":
                pass
            snap = m["snapshot"]
        played = 0
        while played < moves and not snap["is_over"]:
            seat = snap["current_player"]
            move = "dial:1" if snap["phase"] == "dial" else "guess:1"
            socks[seat].send(json.dumps({"type": "move", "move": move, "index": played}))
            for ws in socks.values():
                while (m := json.loads(ws.recv()))["type"] != "update":
                    if m["type"] == "error":
                        raise SystemExit(f"move refused: {m}")
            snap = m["snapshot"]
            played += 1
        for ws in socks.values():
            ws.close()
        replay = http.get(f"/api/tables/{table}/replay").content
        record = http.get(f"/api/tables/{table}/record").content
        uploaded = http.post("/api/replay", content=record).content
    return {"moves": played, "replay": len(replay) / played, "upload": len(uploaded) / played}


def cycling_replay(url: str) -> dict[str, float]:
    """Bytes per move of a finished Mind Cycling game of four greedy bots."""
    with httpx.Client(base_url=url, timeout=300) as http:
        body = {"course": "standard", "riders": 6, "seats": ["greedy"] * 4}
        table = http.post("/api/tables", json=body).json()["id"]
        while http.get(f"/api/tables/{table}").json()["status"] != "finished":
            time.sleep(0.5)
        replay = http.get(f"/api/tables/{table}/replay").content
        moves = http.get(f"/api/tables/{table}").json()["moves"]
    return {"moves": moves, "replay": len(replay) / moves}


# ---------------------------------------------------------------- the course check


def course_check(url: str) -> dict[str, float]:
    """Seconds to answer the million-row course's check, and the slowest lobby
    request while it ran (against a quiet lobby request's)."""
    with httpx.Client(base_url=url, timeout=300) as http:
        http.get("/api/tables")
        began = time.monotonic()
        for _ in range(20):
            http.get("/api/tables")
        quiet = (time.monotonic() - began) / 20
        done = threading.Event()
        took: list[float] = []

        def check() -> None:
            with httpx.Client(base_url=url, timeout=300) as other:
                t = time.monotonic()
                other.post("/api/courses/check", json={"course": COURSE_BOMB})
                took.append(time.monotonic() - t)
            done.set()

        threading.Thread(target=check, daemon=True).start()
        time.sleep(0.05)
        slowest = 0.0
        while not done.is_set():
            t = time.monotonic()
            http.get("/api/tables")
            slowest = max(slowest, time.monotonic() - t)
        done.wait()
    return {"check": took[0], "lobby_quiet": quiet, "lobby_slowest": slowest}


# ---------------------------------------------------------------- solver load


def control_rate(url: str, attackers: int, seconds: float) -> dict[str, float]:
    """A control table's bot moves per second, alone and while ``attackers`` tables
    ask for the optimal bot on the longest Mind Twist board the server accepts."""
    ws_url = url.replace("http://", "ws://")
    with httpx.Client(base_url=url, timeout=60) as http:
        body = {
            "course": "standard",
            "riders": 6,
            "seats": ["greedy", "random", "greedy", "random"],
        }
        control = http.post("/api/tables", json=body).json()["id"]
        ws = connect(f"{ws_url}/ws/tables/{control}", max_size=None)
        ws.send(json.dumps({"type": "hello", "token": None}))

        def rate(span: float) -> float:
            end = time.monotonic() + span
            count = 0
            while (left := end - time.monotonic()) > 0:
                try:
                    message = json.loads(ws.recv(timeout=left))
                except TimeoutError:
                    break
                count += message["type"] == "update"
            return count / span

        rate(1.0)
        alone = rate(seconds)
        length = 0
        for length in (300, 60, 30):
            answers = []
            for i in range(attackers):
                options = {"length": length, "milestones": [i % (length - 1) + 1]}
                answer = http.post(
                    "/api/tables",
                    json={"game": "mind-twist", "seats": ["optimal", "random"], "options": options},
                )
                answers.append(answer.status_code)
                if answer.status_code == 400:
                    break
            if 400 not in answers:
                break
        rate(1.0)
        loaded = rate(seconds)
        ws.close()
    return {"alone": alone, "loaded": loaded, "length": length}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--attackers", type=int, default=40, help="tables asking for optimal solves (default 40)"
    )
    parser.add_argument(
        "--twist-moves", type=int, default=160, help="right-guess moves of the Mind Twist game"
    )
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="seconds each bot rate is measured over"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start(f"sqlite:///{tmp}/figures.db", 0.0)
        try:
            twist = twist_replay(url, args.twist_moves)
            print(
                f"Mind Twist, {twist['moves']:.0f} right-guess moves: GET replay {twist['replay']:.0f} bytes a move, "
                f"POST /api/replay {twist['upload']:.0f} bytes a move"
            )
            cycling = cycling_replay(url)
            print(
                f"Mind Cycling, 4 greedy bots, {cycling['moves']:.0f} moves: GET replay {cycling['replay']:.0f} bytes a move"
            )
            memory = course_memory(url, proc.pid)
            print(
                f"a 1,000,000-row course: check answered {memory['check']:.0f}, table creation {memory['create']:.0f}; "
                f"the server and its workers {memory['before']:.0f} MB before, {memory['after']:.0f} MB after"
            )
            check = course_check(url)
            print(
                f"course check of a 1,000,000-row course: answered in {check['check']:.2f} s; the lobby meanwhile "
                f"{check['lobby_slowest'] * 1000:.0f} ms at worst (quiet: {check['lobby_quiet'] * 1000:.0f} ms)"
            )
        finally:
            stop(proc)
        proc, url = start(f"sqlite:///{tmp}/load.db", 0.05)
        try:
            load = control_rate(url, args.attackers, args.seconds)
            print(
                f"control table (4 bots, --bot-delay 0.05): {load['alone']:.1f} moves/s alone, {load['loaded']:.1f} "
                f"moves/s while {args.attackers} tables ask for optimal bots at length {load['length']:.0f}"
            )
        finally:
            stop(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
