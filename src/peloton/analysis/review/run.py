"""An analysis of a whole record: every position replayed through the rules and
assessed by the game's analyst, over processes, with a summary per seat.

Each position gets its own random stream (the seed and the position's index), so the
same seed gives the same analysis whatever ``jobs`` (with an iteration budget; a CPU
time budget depends on the machine)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from importlib import import_module
from typing import Any

from ...core import registry
from ...core.errors import ConfigError, RecordError
from ...core.protocol import GameState
from ...core.rng import Rng
from ..pool import ordered_map
from .assessment import Analyst, Budget, classify
from .search import SearchAnalyst

#: The format written by :func:`to_json`.
ANALYSIS_FORMAT = "peloton-analysis/1"
#: The classes a summary counts (:func:`.assessment.classify`).
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Position:
    """The analysis of the position before record move ``index``. A chance step
    (``chance``) has chances only; every other field is ``None`` there."""

    index: int
    mover: str
    chance: bool
    chances: dict[str, float]
    played: str
    best: str | None = None
    played_value: float | None = None
    best_value: float | None = None
    cost: float | None = None
    kind: str | None = None


@dataclass(frozen=True)
class Analysis:
    """A record's analysis: its game, seats, engine, budget and positions."""

    game: str
    players: tuple[str, ...]
    engine: str
    budget: Budget
    positions: tuple[Position, ...]

    def summary(self) -> dict[str, dict[str, Any]]:
        """Per seat: its decisions, mean cost, moves per class and accuracy (the share
        of its moves within :data:`.assessment.ACCURATE` of the best)."""
        out: dict[str, dict[str, Any]] = {}
        for seat in self.players:
            mine = [p for p in self.positions if not p.chance and p.mover == seat]
            costs = [p.cost or 0.0 for p in mine]
            counts = {k: sum(1 for p in mine if p.kind == k) for k in CLASSES}
            out[seat] = {
                "moves": len(mine),
                "mean_cost": round(sum(costs) / len(mine), 4) if mine else 0.0,
                "accuracy": round(counts["best"] / len(mine), 4) if mine else 1.0,
                **counts,
            }
        return out


def analyst_of(game: str) -> Analyst:
    """The analyst ``game`` declares (``GameInfo.analyst``), else the generic one."""
    info = registry.get(game)
    if info.analyst is None:
        return SearchAnalyst()
    module, _, attribute = info.analyst.partition(":")
    try:
        factory = getattr(import_module(module), attribute)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(
            f"{info.title}'s analyst {info.analyst!r} cannot be loaded ({exc})"
        ) from None
    made: Analyst = factory()
    return made


def analyse(
    record: dict[str, Any],
    budget: Budget,
    jobs: int = 1,
    seed: int = 0,
    progress: Callable[[Position], None] | None = None,
) -> Analysis:
    """Analyse every position of ``record`` (a decoded record of any game):
    :class:`RecordError` for a record that does not load or replay (naming the
    index of a move the rules refuse), :class:`ConfigError` for a bad ``jobs``."""
    if jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, not {jobs}")
    text = json.dumps(record)
    states = _states(text)
    moves = len(states) - 1
    worker = partial(_assess, text, budget, seed)
    positions = []
    for position in ordered_map(worker, range(moves), moves, jobs):
        positions.append(position)
        if progress is not None:
            progress(position)
    game = str(record["game"])
    return Analysis(
        game, tuple(states[0].players), analyst_of(game).engine, budget, tuple(positions)
    )


@lru_cache(maxsize=2)
def _states(text: str) -> list[GameState]:
    """The states of a record (its JSON text), before each move and after the last;
    cached so that a worker process replays a record once."""
    data = json.loads(text)
    try:
        info = registry.get(data["game"])
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    states: list[GameState] = info.load_record(data).states()
    return states


def _assess(text: str, budget: Budget, seed: int, index: int) -> Position:
    """Position ``index`` of the record ``text`` (in a worker process)."""
    states = _states(text)
    state = states[index]
    record_move = json.loads(text)["moves"][index]
    analyst = analyst_of(state.game)
    rng = Rng(seed).spawn(index)
    if state.is_chance:
        chances = analyst.chances(state.copy(), budget, rng)
        return Position(index, "chance", True, chances, str(record_move))
    mover = state.current_player
    assert mover is not None
    hidden = registry.get(state.game).hidden_information
    seen = state.view(mover) if hidden else state.copy()
    played = state.parse_move(record_move)
    found = analyst.assess(seen, played, budget, rng)
    cost = max(0.0, found.cost)
    return Position(
        index,
        mover,
        False,
        dict(found.chances),
        str(played),
        found.best,
        found.played_value,
        found.best_value,
        cost,
        classify(cost),
    )


def to_json(analysis: Analysis) -> dict[str, Any]:
    """The analysis as a ``peloton-analysis/1`` object (docs/formats.md)."""
    return {
        "format": ANALYSIS_FORMAT,
        "game": analysis.game,
        "players": list(analysis.players),
        "budget": {"seconds": analysis.budget.seconds, "iterations": analysis.budget.iterations},
        "engine": analysis.engine,
        "positions": [
            {
                "index": p.index,
                "mover": p.mover,
                "chance": p.chance,
                "chances": {seat: round(v, 4) for seat, v in p.chances.items()},
                "played": p.played,
                "best": p.best,
                "played_value": _rounded(p.played_value),
                "best_value": _rounded(p.best_value),
                "cost": _rounded(p.cost),
                "class": p.kind,
            }
            for p in analysis.positions
        ],
        "summary": analysis.summary(),
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
