"""Cyclo competitions (CY-12): the kinds there are (the stage race, the omnium, the
sprint tournament and the pursuit series) and loading a competition file.

>>> from peloton.games import cyclo as cy
>>> race = cy.StageRace(2, legs=[{"mode": "itt", "course": "prologue"}])
>>> again = cy.load_competition(race.to_dict())
>>> again.kind, again.is_over, again.standings["ridden"]
('stage', False, 0)
"""

from __future__ import annotations

import json
from typing import Any

from ...core.errors import PelotonError, RecordError, StateError
from .competition import COMPETITION_FORMAT, Competition
from .omnium import Omnium
from .pursuit_series import PursuitSeries
from .record import Record
from .sprint_tournament import SprintTournament
from .stage_race import StageRace

#: The competitions, by the ``kind`` of their files.
KINDS: dict[str, type[Competition]] = {
    kind.kind: kind for kind in (StageRace, Omnium, SprintTournament, PursuitSeries)
}


def load_competition(data: dict[str, Any] | str) -> Competition:
    """A competition from its file (the decoded object or its JSON text), every game
    replayed through the rules and handed back in order. :class:`RecordError` says
    what is wrong: not a competition file, an unknown kind, bad settings, a game
    whose record does not replay, or a game that is not the one the competition
    expects at that point."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise RecordError(f"a competition file must be JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"a competition file is a JSON object, not {type(data).__name__}")
    if data.get("format") != COMPETITION_FORMAT:
        raise RecordError(
            f"not a Cyclo competition file: format {data.get('format')!r}, expected "
            f"{COMPETITION_FORMAT!r}"
        )
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise RecordError(f"unknown competition kind {kind!r} (known: {', '.join(KINDS)})")
    settings = data.get("settings")
    if not isinstance(settings, dict):
        raise RecordError(f"competition 'settings' must be an object, not {settings!r}")
    try:
        competition = KINDS[kind].from_settings(settings)
    except PelotonError as exc:
        raise RecordError(f"competition settings are invalid: {exc}") from None
    games = data.get("games")
    if not isinstance(games, list):
        raise RecordError(f"competition 'games' must be a list of records, not {games!r}")
    for i, game in enumerate(games, start=1):
        try:
            record = Record.from_dict(game)
        except RecordError as exc:
            raise RecordError(f"game {i} of the competition: {exc}", index=exc.index) from None
        try:
            competition.add(record.replay(), record.players)
        except StateError as exc:
            raise RecordError(f"game {i} of the competition: {exc}") from None
    return competition
