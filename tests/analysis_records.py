"""Short records of every game for the analysis tests, played by the greedy bot
through ``peloton play`` (as a user would make them) and cut to their first moves so
that a search of every position stays fast."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from typer.testing import CliRunner

from peloton.cli import app

#: The ``peloton play`` arguments of each game's record.
PLAY = {
    "mind-twist": ["mind-twist"],
    "mind-cycling": ["mind-cycling", "--course", "short", "--riders", "3"],
    "pistard": ["pistard", "-o", "target=4"],
    "cyclo": ["cyclo"],
}


@cache
def _played(game: str, seed: int, directory: str) -> str:
    path = f"{directory}/{game}-{seed}.json"
    args = ["play", *PLAY[game], "--seats", "greedy,greedy", "--seed", str(seed), "--record", path]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    with open(path, encoding="utf-8") as f:
        return f.read()


def record(game: str, directory: str, seed: int = 1, moves: int | None = None) -> dict[str, Any]:
    """A greedy-vs-greedy record of ``game`` (its first ``moves`` moves, the result
    then dropped), decoded."""
    data: dict[str, Any] = json.loads(_played(game, seed, directory))
    if moves is not None and len(data["moves"]) > moves:
        data["moves"] = data["moves"][:moves]
        data["result"] = None
    return data
