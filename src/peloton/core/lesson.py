"""Scripted lessons, for any game: a short game played through the real engine, one
idea a step, the learner's moves checked and every other move played for it.

A lesson is data a game ships (``lesson.toml`` in its ``tutorial`` package; the format
is below and in docs/games.md, "A game's lesson"). Nothing here knows a game: what a
lesson needs of its game is a :class:`LessonRules` (a fresh game from options, a
position from text where the game has a notation for one, a move in words, the moves
as the learner may see them, the game's own claims). The server's tutorial pages
(``/tutorial?game=``), ``peloton learn GAME`` and each lesson's test drive it the same
way.

The format::

    title = "..."                  # the lesson's title
    learner = "A"                  # the learner's seat; every other seat is scripted
    [options]                      # the game's options (``from_options``) of every step
    [table]                        # the real table the lesson ends at: its options and
    options = { ... }              #   the bots in the other seats
    bot = "easy"
    [[steps]]
    id = "..."; title = "..."; text = "..."; after = "..."
    start = "..."                  # a position in the game's notation, or
    setup = ["...", ...]           # moves from a fresh game; without either, the step
                                   # starts where the one before it ended
    moves = ["...", ...]           # the step's moves in play order: the learner's,
                                   # the other seats' and the chance outcomes (dice,
                                   # cards) alike
    [[steps.before]] / [[steps.after_claims]]   # facts the texts state (below)

A *claim* is a fact a step's text states, checked by the lesson's test through the
engine, before the step's first move of the learner (``before``) or once the step is
played (``after_claims``): ``snapshot = "spaces.R"`` with ``is = 12`` (a value of the
learner's snapshot, by dotted path; numbers index lists), ``legal = "MOVE"`` (a move
the learner may play now), ``illegal = "MOVE"`` with ``reason = "..."`` (a move the
engine refuses now, its reason containing that text), or the game's own keys
(:attr:`LessonRules.claim`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import ConfigError, PelotonError
from .offers import OffLessonError, Tutorial

__all__ = [
    "CHANCE",
    "YOU",
    "Lesson",
    "LessonRules",
    "OffLessonError",
    "Step",
    "Turn",
    "claim_problems",
    "load_lesson",
    "tutorial",
]

#: Who played a turn: the learner ...
YOU = "you"
#: ... or chance (the dice, a card): any other turn names the seat that played it.
CHANCE = "chance"
#: The keys of a claim this module checks (every other claim goes to the game's).
GENERIC_CLAIMS = frozenset({"snapshot", "is", "legal", "illegal", "reason"})


@dataclass(frozen=True)
class LessonRules:
    """What a lesson needs of its game."""

    #: ``new_game(options) -> state``: a fresh game (the package's ``from_options``).
    new_game: Callable[[Mapping[str, Any]], Any]
    #: ``describe(state, move) -> str``: a move in words, ``state`` the one before it.
    describe: Callable[[Any, Any], str]
    #: ``snapshot(state, viewer) -> JSON``: the position as ``viewer`` sees it.
    snapshot: Callable[[Any, str | None], dict[str, Any]]
    #: ``position(text, options) -> state``: a step's ``start`` in the game's notation
    #: (``None``: the game's steps start from ``setup`` moves).
    position: Callable[[str, Mapping[str, Any]], Any] | None = None
    #: ``public_moves(state, viewer) -> [text]``: the moves as ``viewer`` may see them
    #: (a game with secrets: the other seat's dial is ``dial:?``); ``None``: as played.
    public_moves: Callable[[Any, str | None], Sequence[str]] | None = None
    #: ``claim(state, claim) -> [problem]``: the game's own claims (Mind Cycling's
    #: riders and medals); ``None``: only the generic ones.
    claim: Callable[[Any, Mapping[str, Any]], list[str]] | None = None


@dataclass(frozen=True)
class Step:
    """One step of a lesson (see the module's docstring for each field)."""

    id: str
    title: str
    text: str
    after: str
    moves: tuple[str, ...]
    start: str | None = None
    setup: tuple[str, ...] | None = None
    before: tuple[Mapping[str, Any], ...] = ()
    after_claims: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Turn:
    """A move played in a step: its text as the learner may see it, who played it
    (:data:`YOU`, :data:`CHANCE` or a seat) and what it did, in words."""

    move: str
    by: str
    describe: str


@dataclass(frozen=True)
class Lesson:
    """A lesson's steps on its game, and the positions they lead to."""

    title: str
    #: The learner's seat; every other seat's moves are scripted.
    learner: str
    steps: tuple[Step, ...]
    rules: LessonRules = field(repr=False)
    #: The game's options of every step.
    options: Mapping[str, Any] = field(default_factory=dict)
    #: The real table the lesson ends at: ``{"options": {...}, "bot": "easy"}``.
    table: Mapping[str, Any] = field(default_factory=dict)
    _starts: list[Any] = field(default_factory=list, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.steps:
            raise ConfigError("a lesson needs at least one step")
        for index, step in enumerate(self.steps):
            self._starts.append(self._begin(index, step))

    def _begin(self, index: int, step: Step) -> Any:
        where = f"step {index + 1} ({step.id})"
        if step.start is not None:
            if self.rules.position is None:
                raise ConfigError(f"{where}: this game's steps start from setup moves, not start")
            return self.rules.position(step.start, self.options)
        if step.setup is not None:
            state = self.rules.new_game(self.options)
            for k, move in enumerate(step.setup):
                _play(state, move, f"{where}, setup move {k + 1}")
            return state
        if index == 0:
            raise ConfigError(f"the first step ({step.id}) needs a start position or setup moves")
        state = self._starts[-1].copy()
        for k, move in enumerate(self.steps[index - 1].moves):
            _play(state, move, f"step {index} ({self.steps[index - 1].id}), move {k + 1}")
        return state

    # ------------------------------------------------------------ positions

    def start_of(self, index: int) -> Any:
        """A fresh copy of the position step ``index`` (0-based) starts from."""
        return self._starts[index].copy()

    def state_at(self, index: int, done: int) -> Any:
        """The position of step ``index`` once its first ``done`` moves are played."""
        state = self.start_of(index)
        for move in self.steps[index].moves[:done]:
            state.play(state.check(move))
        return state

    def end_of(self, index: int) -> Any:
        """The position once every move of step ``index`` is played."""
        return self.state_at(index, len(self.steps[index].moves))

    def snapshot(self, state: Any) -> dict[str, Any]:
        """``state`` as the learner sees it."""
        return self.rules.snapshot(state, self.learner)

    def learners_turn(self, state: Any) -> bool:
        """Whether the learner is to play in ``state`` (not chance, not another seat)."""
        return not state.is_over and not state.is_chance and state.current_player == self.learner

    # ------------------------------------------------------------ playing

    def expected(self, index: int, done: int) -> str | None:
        """The learner's move the step asks for next (``None``: the step is done)."""
        k = self.next_learner_move(index, done)
        return None if k is None else self.steps[index].moves[k]

    def next_learner_move(self, index: int, done: int) -> int | None:
        """The index (in the step's moves) of the learner's next move from ``done`` on,
        ``None`` when the step holds no more."""
        state = self.state_at(index, done)
        moves = self.steps[index].moves
        for k in range(done, len(moves)):
            if self.learners_turn(state):
                return k
            state.play(state.check(moves[k]))
        return None

    def opening(self, index: int) -> tuple[Any, int, list[Turn]]:
        """Step ``index`` as the learner finds it: the moves before the learner's first
        one are played. Returns the state, how many of the step's moves are played, and
        those moves."""
        return self._run_others(index, self.start_of(index), 0)

    def play(self, index: int, done: int, text: str) -> tuple[Any, int, list[Turn]]:
        """The learner plays ``text`` in step ``index`` after its first ``done`` moves.

        The engine checks the move first: :class:`~peloton.NotationError` for text that
        does not parse, :class:`~peloton.IllegalMoveError` (with the engine's reason)
        for a move not legal now, :class:`OffLessonError` for a legal move that is not
        the lesson's. Then the move is played, and every other move up to the
        learner's next one. Returns the state, the new ``done`` and the moves played.
        ``done`` must be where the step waits for the learner (``ValueError``).
        """
        moves = self.steps[index].moves
        state = self.state_at(index, done) if 0 <= done < len(moves) else None
        if state is None or not self.learners_turn(state):
            raise ValueError(
                f"step {index + 1} has no move of yours at position {done} "
                f"(it waits for one at {self.next_learner_move(index, 0)})"
            )
        move = state.check(text)
        expected = state.check(moves[done])
        if move != expected:
            wanted = self.rules.describe(state, expected)
            raise OffLessonError(
                f"{move} is a legal move, but this step is about another one: "
                f"{wanted} ({moves[done]})"
            )
        turns = [self._turn(state, move, YOU)]
        state, done, more = self._run_others(index, state, done + 1)
        return state, done, turns + more

    def ask(self, state: Any, text: str) -> str:
        """The move ``text`` in words, as the step asks the learner for it."""
        return self.rules.describe(state, state.check(text))

    def _run_others(self, index: int, state: Any, done: int) -> tuple[Any, int, list[Turn]]:
        moves = self.steps[index].moves
        turns = []
        while done < len(moves) and not self.learners_turn(state):
            move = state.check(moves[done])
            turns.append(self._turn(state, move, CHANCE if state.is_chance else None))
            done += 1
        return state, done, turns

    def _turn(self, state: Any, move: Any, by: str | None) -> Turn:
        """Play ``move`` in ``state`` and say it as the learner sees it."""
        seat = by or str(state.current_player)
        if self.rules.public_moves is None:
            words = self.rules.describe(state, move)
            state.play(move)
            return Turn(str(move), seat, words)
        # A game with secrets: the learner sees the move as the public record gives
        # it, and its words are those of that move (a dial turned "in secret").
        before = state.copy()
        state.play(move)
        seen = self.rules.public_moves(state, self.learner)[-1]
        return Turn(seen, seat, self.rules.describe(before, seen))


def _play(state: Any, move: str, where: str) -> None:
    try:
        state.play(state.check(move))
    except PelotonError as exc:
        raise ConfigError(f"{where}: {move!r}: {exc}") from None


# ---------------------------------------------------------------- loading


def _texts(raw: Any, where: str) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(m, str) for m in raw):
        raise ConfigError(f"{where} must be a list of move texts")
    return tuple(raw)


def _claims(raw: Any, where: str) -> tuple[Mapping[str, Any], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(c, dict) for c in raw):
        raise ConfigError(f"{where} must be a list of tables")
    return tuple(raw)


def _step(raw: Any, where: str) -> Step:
    if not isinstance(raw, dict):
        raise ConfigError(f"{where} must be a table")
    try:
        return Step(
            id=str(raw["id"]),
            title=str(raw["title"]),
            text=str(raw["text"]).strip(),
            after=str(raw.get("after", "")).strip(),
            moves=_texts(raw.get("moves", []), f"{where}: moves"),
            start=None if raw.get("start") is None else str(raw["start"]),
            setup=None if raw.get("setup") is None else _texts(raw["setup"], f"{where}: setup"),
            before=_claims(raw.get("before"), f"{where}: before"),
            after_claims=_claims(raw.get("after_claims"), f"{where}: after_claims"),
        )
    except KeyError as exc:
        raise ConfigError(f"{where} has no {exc.args[0]!r}") from None


def load_lesson(text: str, rules: LessonRules, **options: Any) -> Lesson:
    """A lesson from its TOML text (the format of this module's docstring); the game's
    ``options`` given here go over the lesson's. Raises :class:`~peloton.ConfigError`
    for a malformed lesson or a scripted move the engine refuses (naming the step)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"the lesson is not valid TOML: {exc}") from None
    raw_steps = data.get("steps", [])
    if not isinstance(raw_steps, list):
        raise ConfigError("the lesson's steps must be a list of tables")
    steps = tuple(_step(raw, f"step {i + 1}") for i, raw in enumerate(raw_steps))
    given = data.get("options", {})
    table = data.get("table", {})
    if not isinstance(given, dict) or not isinstance(table, dict):
        raise ConfigError("the lesson's options and table must be tables")
    return Lesson(
        title=str(data.get("title", "")),
        learner=str(data.get("learner", "A")),
        steps=steps,
        rules=rules,
        options={**given, **options},
        table=table,
    )


# ---------------------------------------------------------------- claims


def claim_problems(lesson: Lesson, state: Any, claim: Mapping[str, Any]) -> list[str]:
    """What is untrue in ``claim`` about ``state`` (an empty list: all of it holds):
    the generic claims here, every other key by the game's :attr:`LessonRules.claim`."""
    own = set(claim) - GENERIC_CLAIMS
    if own:
        if lesson.rules.claim is None:
            return [f"unknown claim key(s) {sorted(own)}"]
        return lesson.rules.claim(state, claim)
    problems = []
    if "snapshot" in claim:
        found = _at(lesson.snapshot(state), str(claim["snapshot"]))
        if "is" not in claim:
            problems.append(f"claim on {claim['snapshot']!r} says nothing checkable (no 'is')")
        elif found != claim["is"]:
            problems.append(f"{claim['snapshot']} is {found!r}, not {claim['is']!r}")
    if "legal" in claim:
        if not lesson.learners_turn(state):
            problems.append(f"{claim['legal']} needs the learner's turn")
        else:
            try:
                state.check(claim["legal"])
            except PelotonError as exc:
                problems.append(f"{claim['legal']} is not legal: {exc}")
    if "illegal" in claim:
        try:
            state.check(claim["illegal"])
            problems.append(f"{claim['illegal']} is legal")
        except PelotonError as exc:
            if str(claim.get("reason", "")) not in str(exc):
                problems.append(
                    f"{claim['illegal']} is refused for another reason: {exc} "
                    f"(not {claim.get('reason')!r})"
                )
    if not {"snapshot", "legal", "illegal"} & set(claim):
        problems.append(f"claim {dict(claim)} says nothing checkable")
    return problems


_MISSING = object()


def _at(data: Any, path: str) -> Any:
    """The value at a dotted ``path`` of JSON ``data`` (a number indexes a list);
    the text ``<missing>`` where nothing is."""
    for part in path.split("."):
        if isinstance(data, Mapping):
            data = data.get(part, _MISSING)
        elif (
            isinstance(data, list)
            and part.lstrip("-").isdigit()
            and -len(data) <= int(part) < len(data)
        ):
            data = data[int(part)]
        else:
            data = _MISSING
        if data is _MISSING:
            return "<missing>"
    return data


def tutorial(
    load: Callable[[], Lesson],
    overview: Callable[[Lesson], dict[str, Any]] | None = None,
    *,
    first: str = "first",
    more: Mapping[str, Callable[[], Lesson]] | None = None,
) -> Tutorial:
    """The :class:`~peloton.core.offers.Tutorial` a game offers for the lesson ``load``
    gives (loaded once by the game) and its ``more`` lessons: ``GET /api/tutorial``
    shows, besides ``overview``'s keys, the real ``table`` each lesson ends at."""

    def described(lesson: Any) -> dict[str, Any]:
        return {"table": dict(lesson.table), **(overview(lesson) if overview else {})}

    return Tutorial(lesson=load, overview=described, first=first, more=dict(more or {}))
