"""Game records (MC-10.3): JSON holding everything needed to replay a game exactly."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.errors import ConfigError, RecordError
from ...core.record import (
    FULL,
    RECORD_FORMAT,
    RecordEnvelope,
    RecordFile,
    Viewer,
    read_envelope,
    require,
)
from .course import Course
from .riders import check_teams
from .start import from_mcn
from .state import DEFAULT_RELAY_LIMIT, State

GAME = "mind-cycling"
#: The key of a seat's kind in a record's ``players`` (the first records called it so).
RECORD_KIND_KEY = "controller"


@dataclass
class Record(RecordFile[State]):
    """A Mind Cycling game record. ``players`` maps a team letter to
    ``{"name": ..., "controller": ...}`` (``human``, ``random``, ``greedy`` ...)."""

    course: Course
    teams: dict[str, str]
    wind: str = "front"
    relay_limit: int = DEFAULT_RELAY_LIMIT
    players: dict[str, dict[str, str]] = field(default_factory=dict)
    start: str | None = None
    moves: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None

    # ------------------------------------------------------------ from a game

    @classmethod
    def from_state(cls, state: State, players: dict[str, dict[str, str]] | None = None) -> Record:
        """The record of a game played so far (its start and every move)."""
        return cls(
            course=state.course,
            teams=dict(state.teams),
            wind=state.wind,
            relay_limit=state.relay_limit,
            players=dict(players or {}),
            start=state.start_mcn,
            moves=[str(m) for m in state.history],
            result=state.result.to_dict(),
        )

    def initial_state(self) -> State:
        """The state before the first recorded move."""
        if self.start is not None:
            state = from_mcn(self.course, self.start, wind=self.wind, relay_limit=self.relay_limit)
            try:
                teams = check_teams(self.teams, solo=len(self.teams) == 1)
            except ConfigError as exc:
                raise RecordError(f"record teams {self.teams} are invalid: {exc}") from None
            if state.teams != teams:
                raise RecordError(
                    f"record teams {self.teams} contradict its start position, whose teams are {state.teams}"
                )
            return state
        return State(
            self.course,
            self.teams,
            wind=self.wind,
            relay_limit=self.relay_limit,
            solo=len(self.teams) == 1,
        )

    # ------------------------------------------------------------ JSON

    def to_dict(self, viewer: Viewer = FULL) -> dict[str, Any]:
        """The MC-10.3 object."""
        return {
            "format": RECORD_FORMAT,
            "game": GAME,
            "rules": {"wind": self.wind, "relay_limit": self.relay_limit},
            "course": self.course.to_dict(),
            "teams": dict(self.teams),
            "players": {t: dict(p) for t, p in self.players.items()},
            "start": self.start,
            "moves": list(self.moves),
            "result": self.result,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """A record from its decoded JSON object (format header already checked),
        validated by replaying it (:class:`RecordError` names the first illegal move)."""
        if data.get("game") != GAME:
            raise RecordError(f"this is a record of {data.get('game')!r}, not of {GAME!r}")
        rules = require(data, "rules", dict)
        wind = rules.get("wind", "front")
        relay_limit = rules.get("relay_limit", DEFAULT_RELAY_LIMIT)
        try:
            course = Course.from_dict(require(data, "course", dict))
        except ConfigError as exc:
            raise RecordError(f"record course is invalid: {exc}") from None
        teams = require(data, "teams", dict)
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in teams.items()):
            raise RecordError(f"record 'teams' must map team letters to compositions: {teams!r}")
        envelope = read_envelope(data, RecordEnvelope, start="an MCN text")
        result = envelope.result
        record = cls(
            course=course,
            teams=dict(teams),
            wind=wind,
            relay_limit=relay_limit,
            players={t: {k: str(v) for k, v in p.items()} for t, p in envelope.players.items()},
            start=envelope.start,
            moves=envelope.moves,
            result=result if isinstance(result, dict) else None,
        )
        # MC-10.3: loading replays every move, so a corrupt record is rejected here,
        # naming its first illegal move, rather than when someone steps into it.
        record.replay()
        return record


def load_record(data: dict[str, Any]) -> Record:
    """Registry hook: a decoded record object of this game."""
    return Record.from_dict(data)
