"""Game records: JSON holding everything needed to replay a Pistard game exactly.

The record embeds the layout (so it replays anywhere), the options, the players, the
seed of the chance stream and every move, rolls included (``roll:3,5,5,6``), so a
record replays without the seed; the seed lets a game resume with the same future
rolls (:meth:`Record.chance_rng`). A game begun from a position text keeps it in
``start``.

**Which rules a record was played under.** ``rules`` is :data:`RULES` (2) in every
record written now. A record without it was written before PI-3.6 and PI-4.3 were
corrected (rules 1): then a missing ``bonus`` option meant ``colour`` (the default of
the time), and the target was checked at the end of the round. Such a record replays
as it was played, and writing it again keeps ``"rules": 1``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import PelotonError, RecordError
from ...core.record import (
    FULL,
    RECORD_FORMAT,
    ChanceRecordEnvelope,
    RecordFile,
    Viewer,
    read_envelope,
    require,
)
from ...core.rng import Rng
from .notation import ROLL
from .paths import BOTH, COLOUR
from .start import from_position, game_arguments, new_game
from .state import State
from .track import Layout, bundled_names

GAME = "pistard"
#: The rules every game is played under now (see the module docstring).
RULES = 2
#: The rules of records written before ``rules`` existed.
FIRST_RULES = 1
#: The ``bonus`` a record of each edition means when its options leave it out.
DEFAULT_BONUS = {FIRST_RULES: COLOUR, RULES: BOTH}


@dataclass
class Record(RecordFile[State]):
    """A Pistard game record. ``options`` holds ``players``, ``layout`` (inline keys),
    ``bonus`` and ``target``; ``players`` maps a team letter to ``{"name": ...,
    "kind": ...}``; ``start`` is the position text the game began from (``None``: the
    first move); ``rules`` the edition of the rules it was played under."""

    options: dict[str, Any]
    players: dict[str, dict[str, str]] = field(default_factory=dict)
    seed: int | None = None
    moves: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    start: str | None = None
    rules: int = RULES

    @classmethod
    def from_state(
        cls,
        state: State,
        players: dict[str, dict[str, str]] | None = None,
        *,
        seed: int | None = None,
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
            start=state.start,
            rules=FIRST_RULES if state.target_at_round_end else RULES,
        )

    def initial_state(self) -> State:
        """The state before the first recorded move: the first move, or the position
        the game began from, under the rules the record was played under."""
        legacy = self.rules == FIRST_RULES
        try:
            arguments = game_arguments({"bonus": DEFAULT_BONUS[self.rules], **self.options})
            if self.start is None:
                state = new_game(**arguments, target_at_round_end=legacy)
        except PelotonError as exc:
            raise RecordError(f"record options are invalid: {exc}") from None
        if self.start is not None:
            players = arguments.pop("players")
            try:
                state = from_position(self.start, **arguments, target_at_round_end=legacy)
            except PelotonError as exc:
                raise RecordError(f"record start is invalid: {exc}") from None
            if len(state.teams) != players:
                raise RecordError(
                    f"record start {self.start!r} has {len(state.teams)} teams but its options say {players} players"
                )
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
            "rules": self.rules,
            "options": json.loads(json.dumps(self.options)),
            "start": self.start,
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
        rules = data.get("rules", FIRST_RULES)
        if rules not in DEFAULT_BONUS or isinstance(rules, bool):
            raise RecordError(f"record 'rules' must be {FIRST_RULES} or {RULES}, not {rules!r}")
        options = require(data, "options", dict)
        layout = options.get("layout", "default")
        if isinstance(layout, dict):
            try:
                Layout.from_dict(layout)
            except PelotonError as exc:
                raise RecordError(f"record layout is invalid: {exc}") from None
        elif not isinstance(layout, str) or layout not in bundled_names():
            # A record is written with its layout inline; a name that is no bundled
            # layout is refused without looking for a file of that name.
            raise RecordError(
                f"record layout must be inline keys or a bundled name ({', '.join(bundled_names())}), not {layout!r}"
            )
        envelope = read_envelope(data, ChanceRecordEnvelope)
        result = envelope.result
        record = cls(
            options=dict(options),
            players={t: {k: str(v) for k, v in p.items()} for t, p in envelope.players.items()},
            seed=envelope.seed,
            moves=envelope.moves,
            result=result if isinstance(result, dict) else None,
            start=envelope.start,
            rules=rules,
        )
        record.replay()  # a corrupt record is rejected now, naming its first bad move
        return record


def load_record(data: dict[str, Any]) -> Record:
    """Registry hook: a decoded record object of this game."""
    return Record.from_dict(data)
