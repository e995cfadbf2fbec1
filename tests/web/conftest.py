"""Real-browser tests of the web table: a real ``peloton serve`` subprocess and
Debian's Chromium driven by Python Playwright (never a downloaded browser)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

# Auto-waiting expectations get room for a loaded 2-core machine; they return as soon
# as the page is right, so this never slows a passing test down.
expect.set_options(timeout=20_000)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A ``peloton serve`` subprocess on a free port with its own SQLite file."""

    def __init__(self, db_path: Path, log_path: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db_path = db_path
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "peloton",
                "serve",
                "--port",
                str(self.port),
                "--db",
                f"sqlite:///{self.db_path}",
                "--bot-delay",
                "0",
                # Every page and request comes from 127.0.0.1: no per-client limits.
                "--limits",
                "relaxed",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        # A readiness poll, not a timing assertion: generous, because on a loaded 2-core
        # machine the server's start (its worker processes import the games) can take
        # over a minute.
        for _ in range(3600):
            if self.proc.poll() is not None:
                raise RuntimeError(f"peloton serve exited: {self.log_path.read_text()}")
            try:
                self.get("/api/courses")
                return self
            except (OSError, urllib.error.URLError):
                time.sleep(0.05)
        raise RuntimeError(f"peloton serve did not answer: {self.log_path.read_text()}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=30) as answer:
            return json.loads(answer.read())

    def get(self, path: str) -> Any:
        return self.request("GET", path)

    def request_json(self, method: str, path: str, headers: dict[str, str]) -> Any:
        """A JSON answer with extra headers (a seat token: the answer is that seat's)."""
        req = urllib.request.Request(self.url + path, method=method, headers=headers)
        with urllib.request.urlopen(req, timeout=30) as answer:
            return json.loads(answer.read())

    def post(self, path: str, body: Any) -> Any:
        return self.request("POST", path, body)

    def create(self, **options: Any) -> str:
        """Create a table; its id."""
        return str(self.post("/api/tables", options)["id"])

    def table(self, table_id: str) -> dict[str, Any]:
        return dict(self.get(f"/api/tables/{table_id}"))


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("web-server")
    srv = Server(tmp / "peloton.db", tmp / "server.log").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not os.access(CHROMIUM, os.X_OK):
        # make test runs scripts/test-chromium.sh first, which installs it where it can.
        pytest.fail(
            f"Debian's Chromium is not at {CHROMIUM}: the browser tests drive it. Run "
            "scripts/test-chromium.sh (it installs the chromium package with apt, or says why not)",
            pytrace=False,
        )
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture()
def new_context(browser: Browser) -> Iterator[Any]:
    """A factory of fresh browser contexts (separate localStorage: separate players)."""
    contexts: list[BrowserContext] = []

    def make(width: int = 1280, height: int = 900) -> BrowserContext:
        # Reduced motion: the board scrolls to the action at once instead of smoothly,
        # so clicks never wait for a scrolling square to come to rest.
        ctx = browser.new_context(
            viewport={"width": width, "height": height}, reduced_motion="reduce"
        )
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()


def open_page(ctx: BrowserContext, url: str) -> Page:
    """A page of ``ctx`` at ``url`` that fails the test on any uncaught script error."""
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    return page


def artifact(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name
