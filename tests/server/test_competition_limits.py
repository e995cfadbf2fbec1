"""A client may create :attr:`~peloton.server.limits.Limits.competitions_per_minute`
competitions a minute on a server with the default limits; one more is ``429`` and
creates nothing. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from peloton.server.limits import Limits

from .hostile_support import ArgServer


@pytest.fixture(scope="module")
def limited(db_url: str) -> Iterator[ArgServer]:
    srv = ArgServer(db_url).start()  # the default limits
    yield srv
    srv.stop()


def test_too_many_competitions_a_minute_are_refused(limited: ArgServer) -> None:
    allowed = Limits().competitions_per_minute
    assert allowed is not None
    # Human seats nobody took: the tables wait, so the limit alone is tested.
    request = {"kind": "stage", "settings": {"legs": [{"mode": "itt"}]}, "seats": ["human"] * 2}
    with limited.http() as http:
        for _ in range(allowed):
            assert http.post("/api/competitions", json=request).status_code == 201
        refused = http.post("/api/competitions", json=request)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate_limited"
        assert "you created many competitions this minute" in refused.json()["error"]["message"]
        assert int(refused.headers["retry-after"]) >= 1
        assert len(http.get("/api/competitions").json()["competitions"]) == allowed
        assert len(http.get("/api/tables").json()["tables"]) == allowed
        # Another client is not held back by this one.
        with limited.from_address("127.0.0.2") as other:
            assert other.post("/api/competitions", json=request).status_code == 201
