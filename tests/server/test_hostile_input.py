"""Hostile clients, issue 11 items 7 and 9: an uploaded record must not make the
server read its files (nor tell which exist), and bad input gets a 4xx with a clear
message, never a 500 (after which the connection was reset and the client's next
request on it failed too).

Every request here goes over one raw keep-alive connection, followed by another
request on the same connection, as a browser would send them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from peloton.games.mindcycling import course as mc_course

from .helpers import Server, create
from .hostile_support import RawHTTP, error_of, new_lines, tracebacks

#: The longest course name (the game's cap, below the 200 characters PostgreSQL's
#: column holds); a longer one is a 400.
MAX_COURSE_NAME = mc_course.MAX_NAME
#: Marks written into files the server must never show.
MARK = "zebra-7f3a-secret"

NESTED = 100_000  # brackets deep: far past any recursion limit, 200 KB of JSON
BIG = "9" * 5000  # digits: over Python's 4,300-digit limit of int("...")


def send(
    server: Server, method: str, path: str, body: str | bytes | None
) -> tuple[int, dict[str, Any]]:
    """Send a request on a fresh keep-alive connection, then ``GET /api/games`` on the
    same one: the first answer's status and JSON error (its whole body as ``"body"``
    when it is not an error), and the second must be a 200."""
    raw = RawHTTP(server)
    try:
        status, _, data = raw.request(method, path, body)
        assert status < 500, f"{method} {path}: {status} {data[:200]!r}"
        error = (
            error_of(status, data) if status >= 400 else {"body": data.decode("utf-8", "replace")}
        )
        try:
            after, _, _ = raw.request("GET", "/api/games")
        except OSError as exc:
            pytest.fail(f"the connection failed after {method} {path} answered {status}: {exc}")
        assert after == 200, f"the next request on the connection got {after}"
        return status, error
    finally:
        raw.close()


# ---------------------------------------------------------------- item 7: file-read oracle


@pytest.fixture()
def pistard_record(http: httpx.Client) -> dict[str, Any]:
    """A Pistard record (of a new table: no moves), as a client downloads it."""
    table = create(http, game="pistard", seats=["human", "human"])
    record: dict[str, Any] = http.get(f"/api/tables/{table}/record").json()
    assert "layout" in record["options"]  # the layout inline, as the record keeps it
    return record


def test_an_uploaded_record_never_names_a_server_file(
    server: Server, pistard_record: dict[str, Any], tmp_path: Path
) -> None:
    """The issue: ``options.layout`` as a path made the server read that file; errors
    echoed its keys and values, and "missing" differed from "invalid". Every path must
    get the same answer, whether the file exists, is a valid layout, or is missing."""
    default = Path(__file__).resolve().parents[2] / "src/peloton/games/pistard/layouts/default.toml"
    valid = tmp_path / "valid.toml"
    valid.write_text(default.read_text().replace('name = "default"', f'name = "{MARK}"'))
    invalid = tmp_path / "invalid.toml"
    invalid.write_text(f'password = "{MARK}"\nrows = ["{MARK}"]\n')
    paths = {
        "a valid layout file": str(valid),
        "a TOML file": str(invalid),
        "/etc/passwd": "/etc/passwd",
        "a missing .toml file": str(tmp_path / "missing.toml"),
        "a missing file": "/nonexistent/passwd",
    }
    answers = {}
    problems = []
    for what, path in paths.items():
        record = {**pistard_record, "options": {**pistard_record["options"], "layout": path}}
        status, error = send(server, "POST", "/api/replay", json.dumps(record))
        text = json.dumps(error)
        if MARK in text or "root:" in text:
            problems.append(f"{what}: the answer shows the file's contents: {text}")
        answers[what] = (
            status,
            error.get("code"),
            error.get("message", "...").replace(path, "<path>"),
        )
    if answers["a valid layout file"][0] != 400:
        problems.append(
            f"a valid layout file was read and replayed: {answers['a valid layout file'][0]}"
        )
    if len(set(answers.values())) != 1:
        problems.append(
            "the answers tell which files exist:\n"
            + "\n".join(f"    {what}: {answer}" for what, answer in answers.items())
        )
    assert not problems, "\n".join(problems)


def test_an_uploaded_record_may_name_a_bundled_layout(
    server: Server, pistard_record: dict[str, Any]
) -> None:
    """The rule of table creation (this holds now): an inline layout or a bundled
    name replays."""
    status, _ = send(server, "POST", "/api/replay", json.dumps(pistard_record))
    assert status == 200
    named = {**pistard_record, "options": {**pistard_record["options"], "layout": "default"}}
    status, _ = send(server, "POST", "/api/replay", json.dumps(named))
    assert status == 200


# ---------------------------------------------------------------- item 9: 500s


def _course(**changes: Any) -> dict[str, Any]:
    return {
        "name": "c",
        "lanes": 5,
        "finish": 67,
        "sections": [[9, "plain"]],
        "feed": [],
        "rocks": [],
        **changes,
    }


def _mc_record(http: httpx.Client, **changes: Any) -> str:
    table = create(http, course="short", riders=3, seats=["human", "human"])
    record = http.get(f"/api/tables/{table}/record").json()
    return json.dumps({**record, **changes})


BODIES: dict[str, tuple[str, Any]] = {
    # Deeply nested JSON or TOML (RecursionError).
    "check-json-text-nested": (
        "/api/courses/check",
        {"text": "[" * NESTED + "]" * NESTED, "format": "json"},
    ),
    "check-toml-text-nested-arrays": (
        "/api/courses/check",
        {"text": "x = " + "[" * NESTED + "]" * NESTED},
    ),
    "check-toml-text-nested-tables": (
        "/api/courses/check",
        {"text": "x = " + "{a=" * 5000 + "1" + "}" * 5000},
    ),
    "check-body-nested": ("/api/courses/check", "[" * NESTED + "]" * NESTED),  # a 400 now
    "replay-nested-objects": ("/api/replay", '{"a":' * 50000 + "1" + "}" * 50000),
    "replay-nested-arrays": ("/api/replay", "[" * NESTED + "]" * NESTED),
    # An integer of over 4,300 digits (ValueError).
    "create-big-int": ("/api/tables", '{"riders": ' + BIG + ', "seats": ["human", "human"]}'),
    "check-big-int": ("/api/courses/check", '{"course": {"finish": ' + BIG + "}}"),
    "replay-big-int": ("/api/replay", '{"game": "pistard", "seed": ' + BIG + "}"),
    # Unhashable values (TypeError).
    "create-wind-list": ("/api/tables", {"wind": [], "seats": ["human", "human"]}),
    "create-options-wind-list": (
        "/api/tables",
        {"options": {"wind": ["x"]}, "seats": ["human", "human"]},
    ),
    # Names the database cannot store (PostgreSQL: a NUL, more than 200 characters).
    "create-course-name-nul": (
        "/api/tables",
        {"course": _course(name="a\u0000b"), "seats": ["human", "human"]},
    ),
    "create-course-name-long": (
        "/api/tables",
        {"course": _course(name="n" * (MAX_COURSE_NAME + 1)), "seats": ["human", "human"]},
    ),
}


@pytest.mark.parametrize("case", list(BODIES))
def test_bad_input_is_a_4xx_with_a_message(server: Server, http: httpx.Client, case: str) -> None:
    path, body = BODIES[case]
    text = body if isinstance(body, str) else json.dumps(body)
    before = len(http.get("/api/tables").json()["tables"])
    since = len(server.output)
    status, error = send(server, "POST", path, text)
    assert 400 <= status < 500, f"{case}: {status} (expected a 4xx)"
    assert error["message"] != "Internal Server Error"
    assert len(http.get("/api/tables").json()["tables"]) == before
    assert not tracebacks(new_lines(server, since)), "".join(new_lines(server, since))[-2000:]


def test_a_record_with_a_list_for_wind_is_a_400(server: Server, http: httpx.Client) -> None:
    since = len(server.output)
    status, error = send(server, "POST", "/api/replay", _mc_record(http, rules={"wind": ["x"]}))
    assert status == 400 and error["code"] == "bad_record", (status, error)
    assert not tracebacks(new_lines(server, since))


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ('"\\ud800"', "a lone surrogate"),
        ('"Ada\\ud800"', "a lone surrogate"),
        ('"a\\u0000b"', "a NUL"),
        ("9" + "9" * 4999, "a 5,000-digit integer"),
    ],
)
def test_a_join_name_the_database_cannot_store_is_a_400(
    server: Server, http: httpx.Client, name: str, why: str
) -> None:
    """PostgreSQL refuses a NUL, and no database stores a lone surrogate as UTF-8; the
    server must say so (a 400 on either database), and the seat stays free."""
    table = create(http, course="short", riders=3, seats=["human", "human"])
    since = len(server.output)
    status, error = send(
        server, "POST", f"/api/tables/{table}/join", '{"seat": "A", "name": ' + name + "}"
    )
    assert status == 400, f"a join name with {why}: {status} {error}"
    assert error["code"] == "bad_request"
    seats = http.get(f"/api/tables/{table}").json()["seats"]
    assert seats[0]["taken"] is False
    assert not tracebacks(new_lines(server, since))


def test_a_seat_given_as_a_huge_integer_is_a_400(server: Server, http: httpx.Client) -> None:
    table = create(http, course="short", riders=3, seats=["human", "human"])
    status, error = send(
        server, "POST", f"/api/tables/{table}/join", '{"seat": ' + BIG + ', "name": "Ada"}'
    )
    assert status == 400, (status, error)
