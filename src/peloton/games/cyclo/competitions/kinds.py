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
from collections.abc import Mapping
from typing import Any

from ....core.errors import PelotonError, RecordError, StateError
from ....core.offers import Competitions
from ..record import Record
from .competition import COMPETITION_FORMAT, Competition
from .omnium import Omnium
from .pursuit_series import PursuitSeries
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


#: What each kind's games are called at the table ("Next leg", "Next event").
GAME_WORDS = {
    "stage": "leg",
    "omnium": "event",
    "sprint-tournament": "heat",
    "pursuit-series": "heat",
}


def game_word(kind: str) -> str:
    """``leg`` for a stage race, ``event`` for an omnium, ``heat`` for the track duels
    and pursuits (``event`` for a kind not named here)."""
    return GAME_WORDS.get(kind, "event")


def game_name(options: Mapping[str, Any]) -> str:
    """``itt on prologue``: a game's mode and course (a heat: the teams it matches)."""
    course = options.get("course")
    if isinstance(course, dict):
        course = course.get("name", "a course")
    teams = options.get("teams")
    if isinstance(teams, list):
        return f"{options.get('mode')}, {' v '.join(map(str, teams))}"
    return f"{options.get('mode')} on {course}" if course else str(options.get("mode"))


def leader(standings: Mapping[str, Any]) -> Any:
    """The yellow jersey of a stage race, else the leader of the standings."""
    jerseys = standings.get("jerseys")
    return jerseys.get("yellow") if isinstance(jerseys, dict) else standings.get("leader")


def games(standings: Mapping[str, Any]) -> Any:
    """How many games a competition has when its kind says so in advance (a stage
    race's legs, an omnium's events; ``None`` for a tournament)."""
    events = standings.get("events")
    return standings.get("legs", len(events) if isinstance(events, list) else None)


#: The competitions the server offers (``GameInfo.competitions``).
COMPETITIONS = Competitions(
    kinds=KINDS, game_word=game_word, game_name=game_name, leader=leader, games=games
)
