"""Game records: JSON holding everything needed to replay a Pistard game exactly.

The record embeds the layout (so it replays anywhere), the options, the players, the
seed of the chance stream and every move, rolls included (``roll:3,5,5,6``), so a
record replays without the seed; the seed lets a game resume with the same future
rolls (:meth:`Record.chance_rng`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import PelotonError, RecordError
from ...core.record import FULL, RECORD_FORMAT, RecordFile, Viewer, require
from ...core.rng import Rng
from .notation import ROLL
from .start import from_options
from .state import State
from .track import Layout

GAME = "pistard"


@dataclass
class Record(RecordFile[State]):
    """A Pistard game record. ``options`` holds ``players``, ``layout`` (inline keys),
    ``bonus`` and ``target``; ``players`` maps a team letter to ``{"name": ...,
    "kind": ...}``."""

    options: dict[str, Any]
    players: dict[str, dict[str, str]] = field(default_factory=dict)
    seed: int | None = None
    moves: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @classmethod
    def from_state(
        cls, state: State, players: dict[str, dict[str, str]] | None = None, *, seed: int | None = None
    ) -> Record:
        """The record of a game played so far (``seed`` defaults to ``state.seed``)."""
        return cls(
            options={
                "players": len(state.teams),
                "length": state.length,
                "layout": state.layout.to_dict(),
                "bonus": state.bonus,
                "target": state.target,
            },
            players={t: dict(p) for t, p in (players or {}).items()},
            seed=state.seed if seed is None else seed,
            moves=[str(m) for m in state.history],
            result=state.result.to_dict(),
        )

    def initial_state(self) -> State:
        """The state before the first recorded move."""
        try:
            state = from_options(self.options)
        except PelotonError as exc:
            raise RecordError(f"record options are invalid: {exc}") from None
        state.seed = self.seed
        return state

    def chance_rng(self) -> Rng:
        """The chance stream positioned after the recorded rolls (``Rng(seed)`` with one
        draw per recorded die), to resume the game with the same future rolls; the
        rolls must have come from ``state.chance_move`` on that stream alone."""
        if self.seed is None:
            raise RecordError("record has no seed to resume its chance stream from")
        rng = Rng(self.seed)
        for text in self.moves:
            if text.startswith(ROLL + ":"):
                rng.roll(text.count(",") + 1)
        return rng

    # ------------------------------------------------------------ JSON

    def to_dict(self, viewer: Viewer = FULL) -> dict[str, Any]:
        """The record object (Pistard hides nothing: every viewer sees it all)."""
        return {
            "format": RECORD_FORMAT,
            "game": GAME,
            "options": json.loads(json.dumps(self.options)),
            "players": {t: dict(p) for t, p in self.players.items()},
            "seed": self.seed,
            "moves": list(self.moves),
            "result": self.result,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """A record from its decoded JSON object, validated by replaying it."""
        if not isinstance(data, dict):
            raise RecordError(f"a record must be a JSON object, not {type(data).__name__}")
        if data.get("game") != GAME:
            raise RecordError(f"this is a record of {data.get('game')!r}, not of {GAME!r}")
        options = require(data, "options", dict)
        layout = options.get("layout", "default")
        if isinstance(layout, dict):
            try:
                Layout.from_dict(layout)
            except PelotonError as exc:
                raise RecordError(f"record layout is invalid: {exc}") from None
        elif not isinstance(layout, str):
            raise RecordError(f"record layout must be inline keys or a name, not {layout!r}")
        players = data.get("players")
        players = {} if players is None else players
        if not isinstance(players, dict) or not all(isinstance(p, dict) for p in players.values()):
            raise RecordError(f"record 'players' must map team letters to objects: {players!r}")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RecordError(f"record 'seed' must be an integer or null, not {seed!r}")
        moves = require(data, "moves", list)
        for i, m in enumerate(moves):
            if not isinstance(m, str):
                raise RecordError(f"record move {i} is not text: {m!r}", index=i)
        result = data.get("result")
        record = cls(
            options=dict(options),
            players={str(t): {str(k): str(v) for k, v in p.items()} for t, p in players.items()},
            seed=seed,
            moves=list(moves),
            result=result if isinstance(result, dict) else None,
        )
        record.replay()  # a corrupt record is rejected now, naming its first bad move
        return record


def load_record(data: dict[str, Any]) -> Record:
    """Registry hook: a decoded record object of this game."""
    return Record.from_dict(data)
