"""Records (CY-15): one JSON object holding everything needed to replay a game.

``options`` has the mode, teams, the course as a full object with its boards inline,
level, events, entries and saved tokens; ``start`` a CYN (or null for the start line);
``players`` maps each team to ``{"name", "kind"}``; ``seed`` the chance stream's seed;
``moves`` every move text, rolls and draws included, so a record replays without the
seed; ``result`` is informational and recomputed on loading. The order of the cards not
yet drawn is never stored (CY-13.3): a draw is a uniform choice among the cards left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.errors import PelotonError, RecordError
from ...core.record import (
    FULL,
    MUST_BE,
    RECORD_FORMAT,
    ChanceRecordEnvelope,
    RecordFile,
    Viewer,
    read_envelope,
    require,
)
from ...core.rng import Rng
from .start import from_cyn, from_options
from .state import State

GAME = "cyclo"


@dataclass(kw_only=True)
class Envelope(ChanceRecordEnvelope):
    """A Cyclo record's common fields; each team's player is text only (CY-15.1)."""

    players: dict[str, dict[str, str]] = field(
        default_factory=dict,
        metadata={MUST_BE: 'an object mapping each team letter to {"name", "kind"}'},
    )


@dataclass
class Record(RecordFile[State]):
    """A Cyclo game record (CY-15.1)."""

    options: dict[str, Any]
    players: dict[str, dict[str, str]] = field(default_factory=dict)
    start: str | None = None
    seed: int | None = None
    moves: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @classmethod
    def from_state(
        cls,
        state: State,
        players: dict[str, dict[str, str]] | None = None,
        *,
        start: str | None = None,
        seed: int | None = None,
    ) -> Record:
        """The record of ``state`` (played from the start line, or from the CYN it was
        built from, ``state.start``); ``seed`` defaults to ``state.seed``."""
        return cls(
            options=state.options(),
            players={t: dict(p) for t, p in (players or {}).items()},
            start=state.start if start is None else start,
            seed=state.seed if seed is None else seed,
            moves=[str(m) for m in state.history],
            result=state.result.to_dict(),
        )

    def initial_state(self) -> State:
        """The state before the first recorded move."""
        options = self.options
        try:
            if self.start is None:
                state = from_options(options)
            else:
                state = from_cyn(
                    self.start,
                    options.get("mode", "classic"),
                    course=options.get("course"),
                    level=options.get("level", "pro"),
                    events=options.get("events"),
                    entries=options.get("entries", 1),
                )
                if options.get("teams") is not None and list(state.players) != list(
                    options["teams"]
                ):
                    raise RecordError(
                        f"record start {self.start!r} has teams {', '.join(state.players)}, "
                        f"its options {options['teams']!r}"
                    )
        except RecordError:
            raise
        except PelotonError as exc:
            raise RecordError(f"record options are invalid: {exc}") from None
        state.seed = self.seed
        return state

    def chance_rng(self) -> Rng:
        """``Rng(seed)`` advanced past every recorded chance move (one ``roll(k)`` or
        ``choice(left)`` each, CY-13.3), to resume the game with the same future rolls
        and cards; :class:`RecordError` without a seed."""
        if self.seed is None:
            raise RecordError("record has no seed to resume its chance stream from")
        rng = Rng(self.seed)
        state = self.start_state()
        for i in range(len(self.moves)):
            if state.is_chance:
                state.chance_move(rng)
            self.play_move(state, i)
        return rng

    def to_dict(self, viewer: Viewer = FULL) -> dict[str, Any]:
        """The record object (Cyclo hides nothing: every viewer sees it all)."""
        return {
            "format": RECORD_FORMAT,
            "game": GAME,
            "options": dict(self.options),
            "start": self.start,
            "players": {t: dict(p) for t, p in self.players.items()},
            "seed": self.seed,
            "moves": list(self.moves),
            "result": self.result,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """A record from its decoded JSON object, validated by replaying it (the first
        refused move is a :class:`RecordError` with its ``index``)."""
        if not isinstance(data, dict):
            raise RecordError(f"a record must be a JSON object, not {type(data).__name__}")
        if data.get("game") != GAME:
            raise RecordError(f"this is a record of {data.get('game')!r}, not of {GAME!r}")
        options = require(data, "options", dict)
        envelope = read_envelope(data, Envelope, start="a CYN")
        record = cls(
            options=dict(options),
            players=envelope.players,
            start=envelope.start,
            seed=envelope.seed,
            moves=envelope.moves,
        )
        record.result = record.replay().result.to_dict()  # recomputed, never trusted
        return record


def load_record(data: dict[str, Any]) -> Record:
    """Registry hook: a decoded record object of this game."""
    return Record.from_dict(data)
