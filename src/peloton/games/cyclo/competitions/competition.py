"""What every Cyclo competition shares (CY-12.1, CY-12.6): it describes each game it
wants, takes it back finished, keeps the records and derives its standings from them.

A competition never reaches into a game: it builds the next one from JSON options
(:func:`from_options`, the same options a record keeps) and reads a finished game's
:class:`Result`. The games know nothing of competitions. A kind of competition (the
stage race today; the omnium, sprint tournament and pursuit series once the track
events are played) says three things: its ``settings`` (its constructor's
arguments), the options of its next game (``next_options``, ``None`` when it is
over) and what a finished game's result does to its standings (``_take``; a kind
that needs more of the game than its result, the omnium's finishing order of the
points race, reads it in ``_take_game``).

The file of a competition (``to_dict``) is its settings and the records of its games;
:func:`peloton.games.cyclo.competitions.kinds.load_competition` rebuilds it by replaying
every game through the rules and handing it back to a new competition.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from ....core.errors import ConfigError, StateError
from ..modes import LEVELS
from ..record import Record
from ..scoring import Result
from ..start import from_options
from ..state import State

#: The ``format`` of a competition file.
COMPETITION_FORMAT = "peloton-cyclo-competition/1"


class Competition(ABC):
    """A series of Cyclo games with standings (CY-12.6)."""

    #: The ``kind`` of its file: ``stage``, ``omnium``, ``sprint-tournament``,
    #: ``pursuit-series``.
    kind: ClassVar[str]
    #: What it is called, for players ("stage race").
    title: ClassVar[str]
    #: How many teams (seats) take part, A first.
    players: int

    def __init__(self) -> None:
        #: The records of the games taken back, in order (CY-15).
        self.records: list[Record] = []

    # ------------------------------------------------------------ what a kind says

    @property
    @abstractmethod
    def settings(self) -> dict[str, Any]:
        """The constructor's arguments, JSON-ready: ``type(self)(**settings)`` is a new
        competition like this one was."""

    @abstractmethod
    def next_options(self) -> dict[str, Any] | None:
        """The JSON options (:func:`from_options`) of the next game; ``None`` once the
        competition is over."""

    @abstractmethod
    def _take(self, result: Result) -> None:
        """Add a finished game's result to the standings."""

    @property
    @abstractmethod
    def standings(self) -> dict[str, Any]:
        """The standings so far, JSON-ready."""

    @property
    @abstractmethod
    def winner(self) -> str | None:
        """Who won, once it is over (``None`` before)."""

    @classmethod
    @abstractmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> Competition:
        """A new competition from a file's ``settings``; :class:`ConfigError` for an
        unknown, missing or bad argument."""

    def _take_game(self, state: State) -> None:
        """Add a finished game to the standings: its result, unless a kind needs more."""
        self._take(state.result)

    def next_title(self) -> str:
        """What the next game is, for players (``Event 2 of 4: elimination race``);
        ``""`` once over. Kinds say more than this default."""
        return "" if self.is_over else f"Game {len(self.records) + 1}"

    # ------------------------------------------------------------ the protocol

    @property
    def is_over(self) -> bool:
        """Whether every game has been played."""
        return self.next_options() is None

    def next_game(self, seed: int | None = None) -> State | None:
        """The next game on its start line (``seed`` kept for its record, the seed of
        the chance stream the caller draws from); ``None`` once over."""
        options = self.next_options()
        if options is None:
            return None
        state = from_options(options)
        state.seed = seed
        return state

    def add(self, state: State, players: Mapping[str, Mapping[str, str]] | None = None) -> None:
        """Take back a finished game: the one :meth:`next_game` describes, its seed
        aside. ``players`` (team → ``{"name", "kind"}``) goes into its record.
        :class:`StateError` says why a game is refused; nothing changes then."""
        if not isinstance(state, State):
            raise StateError(f"a {self.title} takes Cyclo games, not {type(state).__name__}")
        expected = self.next_options()
        if expected is None:
            raise StateError(
                f"the {self.title} is over after {len(self.records)} games: it takes no more"
            )
        if not state.is_over:
            raise StateError(
                f"the game is not finished (round {state.round}, {state.phase} step): a "
                f"{self.title} takes back finished games only"
            )
        if state.start is not None:
            raise StateError(
                f"the game starts from the position {state.start!r}; the {self.title}'s games "
                "start on the start line"
            )
        wanted = from_options(expected).options()
        given = state.options()
        if given != wanted:
            differ = ", ".join(
                f"{key} {_brief(given.get(key))} (expected {_brief(wanted.get(key))})"
                for key in sorted(set(given) | set(wanted))
                if given.get(key) != wanted.get(key)
            )
            raise StateError(
                f"game {len(self.records) + 1} is not the one the {self.title} asked for: {differ}"
            )
        record = Record.from_state(state, {t: dict(p) for t, p in (players or {}).items()})
        self._take_game(state)
        self.records.append(record)

    def to_dict(self) -> dict[str, Any]:
        """The competition file: its format, kind, settings and the records of its
        games (``standings`` is informational, recomputed on loading)."""
        return {
            "format": COMPETITION_FORMAT,
            "kind": self.kind,
            "settings": self.settings,
            "games": [record.to_dict() for record in self.records],
            "standings": self.standings,
        }


class HeatSeries(Competition):
    """A track competition of heats in one mode, two teams at a time (or one alone),
    teams A first: the sprint tournament (CY-12.4) and the pursuit series (CY-12.5).
    Its settings are the number of teams, the mode and the level; its ``table`` takes
    each heat's result and gives the standings and the teams of the next heat."""

    #: The modes its heats may be ridden in.
    modes: ClassVar[tuple[str, ...]]
    #: Its table: ``next_teams()``, ``add_heat(result)``, ``standings()``.
    table: Any

    def __init__(self, players: int, mode: str, level: str) -> None:
        super().__init__()
        self.players = check_teams(players, self.title, 2)
        self.mode = check_choice("mode", mode, self.modes, self.title)
        self.level = check_choice("level", level, LEVELS, self.title)

    @property
    def settings(self) -> dict[str, Any]:
        """The constructor's arguments."""
        return {"players": self.players, "mode": self.mode, "level": self.level}

    def next_options(self) -> dict[str, Any] | None:
        """The next heat: its mode, its teams (in seat order) and the level."""
        teams = self.table.next_teams()
        if teams is None:
            return None
        return {"mode": self.mode, "teams": list(teams), "level": self.level}

    def _take(self, result: Result) -> None:
        self.table.add_heat(result)

    @property
    def standings(self) -> dict[str, Any]:
        """The table's standings."""
        return self.table.standings()  # type: ignore[no-any-return]

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> Self:
        """A new competition of this kind from a file's ``settings``."""
        return cls(**settings_of(settings, ("players", "mode", "level"), cls.title))


def _brief(value: Any) -> str:
    """An option's value in an error message (a course by its name)."""
    if isinstance(value, Mapping) and "name" in value:
        return repr(value["name"])
    return repr(value)


def check_teams(players: object, title: str, fewest: int, most: int = 6) -> int:
    """A competition's ``players``: a number of teams from ``fewest`` to ``most``
    (:class:`ConfigError` otherwise)."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise ConfigError(f"a {title}'s 'players' must be a number of teams, not {players!r}")
    if not fewest <= players <= most:
        raise ConfigError(f"a {title} takes {fewest} to {most} teams, not {players}")
    return players


def check_choice(name: str, value: object, choices: Sequence[str], title: str) -> str:
    """A competition's text setting (``level``, ``mode``) that must be one of ``choices``."""
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"a {title}'s {name!r} is one of {', '.join(choices)}, not {value!r}")
    return value


def settings_of(settings: Mapping[str, Any], known: Sequence[str], title: str) -> dict[str, Any]:
    """A file's ``settings`` as constructor arguments: :class:`ConfigError` for an
    unknown one or a missing ``players``."""
    unknown = sorted(set(settings) - set(known))
    if unknown:
        raise ConfigError(f"unknown {title} setting(s) {', '.join(map(repr, unknown))}")
    if "players" not in settings:
        raise ConfigError(f"a {title}'s settings must say how many 'players'")
    return {k: settings[k] for k in known if k in settings}
