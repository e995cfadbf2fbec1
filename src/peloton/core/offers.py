"""What a game may offer beyond its tables: a tutorial, a course editor, competitions.

A game names each offer in its :class:`~peloton.core.registry.GameInfo` as
``"module:attribute"`` (imported only when the server first needs it), the attribute
being one of the records below. The server's generic modules (the tutorial, the
editor's check, the competitions) call nothing else of the game, so a new game gains
each page by declaring it (docs/games.md, "What a game offers").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .errors import IllegalMoveError


class OffLessonError(IllegalMoveError):
    """A legal move that is not the one the lesson asks for (the lesson would lose its
    thread): refused, with the move it asks for."""


class LessonStep(Protocol):
    """One step of a lesson, as the server shows it."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def after(self) -> str: ...
    @property
    def moves(self) -> Sequence[str]: ...


class LessonTurn(Protocol):
    """A move played in a step: its text, whose it was (``"you"`` or an opponent's
    seat) and what it did, in words."""

    @property
    def move(self) -> str: ...
    @property
    def by(self) -> str: ...
    @property
    def describe(self) -> str: ...


class Lesson(Protocol):
    """A scripted lesson played through the real engine, step by step: the learner's
    moves are checked (:class:`OffLessonError` for a legal move that is not the
    lesson's), every other seat's moves are played for it."""

    @property
    def title(self) -> str: ...
    @property
    def learner(self) -> str: ...
    @property
    def steps(self) -> Sequence[LessonStep]: ...

    def expected(self, index: int, done: int) -> str | None:
        """The learner's move step ``index`` asks for next (``None``: it is done)."""

    def state_at(self, index: int, done: int) -> Any:
        """The position of step ``index`` once its first ``done`` moves are played."""

    def opening(self, index: int) -> tuple[Any, int, list[Any]]:
        """Step ``index`` as the learner finds it: ``(state, done, turns)``."""

    def play(self, index: int, done: int, text: str) -> tuple[Any, int, list[Any]]:
        """The learner plays ``text`` after ``done`` moves: ``(state, done, turns)``."""

    def snapshot(self, state: Any) -> dict[str, Any]:
        """A position as the learner sees it (the page draws it as a table's)."""

    def ask(self, state: Any, text: str) -> str:
        """The move ``text`` the step asks for, in words."""


@dataclass(frozen=True)
class Tutorial:
    """A game's tutorial (``GameInfo.tutorial``): its lessons, served by
    ``/tutorial?game=...[&lesson=...]`` and ``/api/tutorial[/steps/{n}]``."""

    #: The first lesson, loaded once (the game may cache it).
    lesson: Callable[[], Lesson]
    #: ``overview(lesson) -> JSON``: what ``GET /api/tutorial`` shows besides the title,
    #: learner and steps (Mind Cycling: the lesson's course).
    overview: Callable[[Any], dict[str, Any]] = lambda lesson: {}
    #: The first lesson's id (``?lesson=``).
    first: str = "first"
    #: The game's further lessons, ``{id: loader}`` (Cyclo's Pro lesson after its
    #: Starter one), in the order they are offered.
    more: Mapping[str, Callable[[], Lesson]] = field(default_factory=dict)

    @property
    def lessons(self) -> dict[str, Callable[[], Lesson]]:
        """Every lesson's loader by id, the first lesson first."""
        return {self.first: self.lesson, **self.more}


@dataclass(frozen=True)
class Editor:
    """A game's course (or layout) editor (``GameInfo.editor``): the check behind
    ``POST /api/editor/check``, run in a worker process. A *draft* is what the editor
    holds: the keys of a course file, which need not make a valid course yet."""

    #: ``draft(data) -> (draft | None, notes)``: what an editor opens of a file's data
    #: (``None`` when it cannot be drawn) and what was left out, or why.
    draft: Callable[[Any], tuple[dict[str, Any] | None, list[str]]]
    #: ``problems(data) -> [message]``: everything the game's loader refuses (empty:
    #: a valid course), in the words of ``peloton course check``.
    problems: Callable[[Any], list[str]]
    #: ``place(message) -> {"row", "square", "key"}``: where a problem lies.
    place: Callable[[str], dict[str, Any]]
    #: ``text(draft) -> str``: the draft written as its course file (TOML).
    text: Callable[[Mapping[str, Any]], str]
    #: The editor's page among the web pages (``/editor?game=`` serves it): each game
    #: draws its own kind of course, the check, the share link and the table are shared.
    page: str = "editor.html"
    #: ``summary(data) -> [line]``: a valid course's facts in a few lines (``peloton
    #: course show``), empty when the editor has none to add.
    summary: Callable[[Any], list[str]] = lambda data: []
    #: ``advice(data) -> [message]``: the game's design rules a course breaks although
    #: it is playable (Pistard: a row without all four colours), shown beside the
    #: problems and placed the same way; empty when the game has none.
    advice: Callable[[Any], list[str]] = lambda data: []


@dataclass(frozen=True)
class Competitions:
    """A game's competitions (``GameInfo.competitions``): series of its games with the
    same seats and standings, served by ``/api/competitions``.

    Each kind is a class with ``kind`` and ``title``, a constructor whose arguments
    (all but ``players``) are its settings, ``from_settings(settings)`` and, on an
    instance: ``settings``, ``next_options()`` (the next game's JSON options, ``None``
    once over; a ``teams`` list names the seats that play it), ``add(state,
    players)``, ``standings``, ``is_over``, ``winner`` and ``to_dict()`` (its file)."""

    #: ``{kind: class}``.
    kinds: Mapping[str, Any]
    #: ``game_word(kind) -> str``: what the kind's games are called ("leg", "heat").
    game_word: Callable[[str], str] = lambda kind: "game"
    #: ``game_name(options) -> str``: one of its games in a few words ("itt on prologue").
    game_name: Callable[[Mapping[str, Any]], str] = lambda options: "game"
    #: ``leader(standings) -> seat | None``: who leads the standings.
    leader: Callable[[Mapping[str, Any]], Any] = lambda standings: standings.get("leader")
    #: ``games(standings) -> int | None``: how many games the competition has, when
    #: its kind knows in advance.
    games: Callable[[Mapping[str, Any]], Any] = lambda standings: None
