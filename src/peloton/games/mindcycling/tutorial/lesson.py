"""The first-race lesson: a scripted race on a tiny course, one mechanic a step.

The lesson is data (``lesson.toml`` beside this module, on ``course.toml``): each
step has a start (a position in MCN, or where the step before ended), texts, and the
step's moves in play order. The learner's team plays its moves (each checked by the
engine: an illegal move is refused with the engine's reason, a legal one that is not
the lesson's is refused too), every other team's move is played for it as soon as it
is its turn. Nothing here knows of the web: the server's tutorial endpoint and the
lesson's test drive it the same way.

Each step also lists *claims*, the facts its texts state ("AD1 rides against the
wind: 6 rows"); :func:`claim_problems` checks one against a state, so a test can
prove every text true through the real engine.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ....core.errors import ConfigError
from ....core.offers import OffLessonError
from ..course import Course
from ..notation import FINISH, Move
from ..snapshot import KIND_NAMES, describe_move
from ..start import from_mcn
from ..state import State

#: Keys a claim about a rider may check (besides ``rider``).
RIDER_KEYS = frozenset(
    {
        "square",
        "bottle",
        "wind",
        "allowance",
        "exhausted",
        "leader",
        "train_place",
        "section",
        "finished",
        "farthest",
        "attack_farthest",
        "can",
        "cannot",
    }
)
MEDALS = ("cyclist", "sprinter", "climber", "team")

__all__ = [
    "Lesson",
    "OffLessonError",
    "Step",
    "Turn",
    "claim_problems",
    "first_race",
    "load_lesson",
]


@dataclass(frozen=True)
class Step:
    """One step of the lesson (see ``lesson.toml`` for the meaning of each field)."""

    id: str
    title: str
    text: str
    after: str
    moves: tuple[str, ...]
    start: str | None = None
    before: tuple[Mapping[str, Any], ...] = ()
    after_claims: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Turn:
    """A move played in a step: its text, whose it was (``"you"`` or the team letter
    of the opponent) and what it did, in words."""

    move: str
    by: str
    describe: str


class Lesson:
    """The lesson's course and steps, and the positions they lead to."""

    def __init__(self, title: str, learner: str, course: Course, steps: Sequence[Step]) -> None:
        self.title = title
        #: The learner's team letter; every other team is the scripted opponent.
        self.learner = learner
        self.course = course
        self.steps = tuple(steps)
        if not self.steps:
            raise ConfigError("a lesson needs at least one step")
        self._starts: list[State] = []
        for index, step in enumerate(self.steps):
            if step.start is not None:
                state = from_mcn(course, step.start)
            elif index == 0:
                raise ConfigError(f"the first step ({step.id}) needs a start position")
            else:
                state = self._starts[-1].copy()
                for move in self.steps[index - 1].moves:
                    state.play(move)
            self._starts.append(state)

    def start_of(self, index: int) -> State:
        """A fresh copy of the position step ``index`` (0-based) starts from."""
        return self._starts[index].copy()

    def state_at(self, index: int, done: int) -> State:
        """The position of step ``index`` once its first ``done`` moves are played."""
        state = self.start_of(index)
        for move in self.steps[index].moves[:done]:
            state.play(move)
        return state

    def is_learners(self, move: str) -> bool:
        """Whether a scripted move is the learner's to play."""
        return move.startswith(self.learner)

    def next_learner_move(self, index: int, done: int) -> int | None:
        """The index (in the step's moves) of the learner's next move from ``done`` on,
        ``None`` when the step holds no more."""
        moves = self.steps[index].moves
        for k in range(done, len(moves)):
            if self.is_learners(moves[k]):
                return k
        return None

    def opening(self, index: int) -> tuple[State, int, list[Turn]]:
        """Step ``index`` as the learner finds it: the opponent's moves before the
        learner's first one are played. Returns the state, how many of the step's moves
        are played, and those moves."""
        return self._run_opponent(index, self.start_of(index), 0)

    def play(self, index: int, done: int, text: str) -> tuple[State, int, list[Turn]]:
        """The learner plays ``text`` in step ``index`` after its first ``done`` moves.

        The engine checks the move first: :class:`~peloton.NotationError` for text that
        does not parse, :class:`~peloton.IllegalMoveError` (with the engine's reason)
        for a move not legal now, :class:`OffLessonError` for a legal move that is not
        the lesson's. Then the move is played, and the opponent's moves up to the
        learner's next one. Returns the state, the new ``done`` and the moves played.
        ``done`` must be the index of a learner's move of the step (``ValueError``).
        """
        moves = self.steps[index].moves
        if not 0 <= done < len(moves) or not self.is_learners(moves[done]):
            raise ValueError(
                f"step {index + 1} has no move of yours at position {done} "
                f"(its moves of yours are at {self._learner_positions(index)})"
            )
        state = self.state_at(index, done)
        move = state.check(text)
        expected = moves[done]
        if str(move) != expected:
            wanted = describe_move(state, state.check(expected))
            raise OffLessonError(
                f"{move} is a legal move, but this step is about another one: {wanted} ({expected})"
            )
        turns = [Turn(expected, "you", describe_move(state, move))]
        state.play(move)
        state, done, more = self._run_opponent(index, state, done + 1)
        return state, done, turns + more

    def expected(self, index: int, done: int) -> str | None:
        """The learner's move the step asks for next (``None``: the step is done)."""
        k = self.next_learner_move(index, done)
        return None if k is None else self.steps[index].moves[k]

    def _learner_positions(self, index: int) -> list[int]:
        return [k for k, m in enumerate(self.steps[index].moves) if self.is_learners(m)]

    def _run_opponent(self, index: int, state: State, done: int) -> tuple[State, int, list[Turn]]:
        moves = self.steps[index].moves
        turns = []
        while done < len(moves) and not self.is_learners(moves[done]):
            move = state.check(moves[done])
            turns.append(Turn(moves[done], moves[done][0], describe_move(state, move)))
            state.play(move)
            done += 1
        return state, done, turns


def _claims(raw: Any, where: str) -> tuple[Mapping[str, Any], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(isinstance(c, dict) for c in raw):
        raise ConfigError(f"{where} must be a list of tables")
    return tuple(raw)


def load_lesson(text: str, course: Course) -> Lesson:
    """A lesson from its TOML text (the format of ``lesson.toml``) on ``course``.
    Raises :class:`~peloton.ConfigError` for a malformed lesson and the engine's
    errors for a scripted move or position the engine refuses."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"the lesson is not valid TOML: {exc}") from None
    steps = []
    for i, raw in enumerate(data.get("steps", [])):
        where = f"step {i + 1}"
        try:
            moves = raw.get("moves", [])
            if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise ConfigError(f"{where}: moves must be a list of move texts")
            steps.append(
                Step(
                    id=str(raw["id"]),
                    title=str(raw["title"]),
                    text=str(raw["text"]).strip(),
                    after=str(raw.get("after", "")).strip(),
                    moves=tuple(moves),
                    start=raw.get("start"),
                    before=_claims(raw.get("before"), f"{where}: before"),
                    after_claims=_claims(raw.get("after_claims"), f"{where}: after_claims"),
                )
            )
        except KeyError as exc:
            raise ConfigError(f"{where} has no {exc.args[0]!r}") from None
    return Lesson(str(data.get("title", "")), str(data.get("learner", "A")), course, steps)


@cache
def first_race() -> Lesson:
    """The lesson of the web tutorial (``lesson.toml`` on ``course.toml``), loaded once."""
    folder = resources.files(__package__)
    course = Course.from_text(
        folder.joinpath("course.toml").read_text("utf-8"), toml=True, source="tutorial"
    )
    return load_lesson(folder.joinpath("lesson.toml").read_text("utf-8"), course)


# ---------------------------------------------------------------- claims


def claim_problems(state: State, claim: Mapping[str, Any]) -> list[str]:
    """What is untrue in ``claim`` about ``state`` (an empty list: all of it holds).

    A claim names a ``rider`` and facts about it (:data:`RIDER_KEYS`), or a ``medal``
    and its ``holder``, or the first ``places``, or the ``trophy``, or whether the race
    is ``over``."""
    if "rider" in claim:
        return _rider_problems(state, claim)
    problems = []
    result = state.result
    if "medal" in claim:
        if claim["medal"] not in MEDALS:
            return [f"no medal {claim['medal']!r} (medals: {', '.join(MEDALS)})"]
        held = result.medals.get(claim["medal"])
        if held != claim.get("holder"):
            problems.append(f"{claim['medal']} medal held by {held}, not {claim.get('holder')}")
    if "places" in claim and list(result.places[: len(claim["places"])]) != claim["places"]:
        problems.append(f"the first across are {list(result.places)}, not {claim['places']}")
    if "trophy" in claim and result.trophy != claim["trophy"]:
        problems.append(f"trophy held by {result.trophy}, not {claim['trophy']}")
    if "over" in claim and state.is_over != claim["over"]:
        problems.append(f"the race is {'' if state.is_over else 'not '}over")
    if not {"medal", "places", "trophy", "over"} & set(claim):
        problems.append(f"claim {dict(claim)} says nothing checkable")
    return problems


def _rider_problems(state: State, claim: Mapping[str, Any]) -> list[str]:
    rid = claim["rider"]
    if rid not in state.ids:
        return [f"no rider {rid}"]
    unknown = set(claim) - RIDER_KEYS - {"rider"}
    if unknown:
        return [f"unknown claim key(s) {sorted(unknown)} about {rid}"]
    rider = state.rider(rid)
    facts: dict[str, Any] = {
        "square": rider.square,
        "bottle": rider.has_bottle,
        "finished": rider.square is None,
    }
    assessment = state.assessment(rid)
    if assessment is not None:
        facts.update(
            wind=assessment.against_wind,
            allowance=assessment.allowance,
            exhausted=assessment.exhausted,
            leader=assessment.leader,
            train_place=assessment.train_place,
            section=assessment.section,
        )
    problems = []
    for key, value in facts.items():
        if key in claim and claim[key] != value:
            problems.append(f"{rid}: {key} is {value!r}, not {claim[key]!r}")
    turn_keys = {"farthest", "attack_farthest", "can", "cannot"} & set(claim)
    if turn_keys and state.current_rider != rid:
        return [
            *problems,
            f"{rid}: {sorted(turn_keys)} need its turn, but {state.current_rider} is to play",
        ]
    legal = state.legal_moves()
    kinds = {KIND_NAMES[m.kind] for m in legal}
    for kind in claim.get("can", ()):
        if kind not in kinds:
            problems.append(f"{rid} cannot {kind} (its kinds of move: {sorted(kinds)})")
    for kind in claim.get("cannot", ()):
        if kind in kinds:
            problems.append(f"{rid} can {kind}")
    for key, kind in (("farthest", "-"), ("attack_farthest", "!")):
        if key in claim:
            reach = _farthest(state, rid, [m for m in legal if m.kind == kind])
            if reach != claim[key]:
                problems.append(f"{rid}: {key} is {reach} rows, not {claim[key]}")
    return problems


def _farthest(state: State, rid: str, moves: list[Move]) -> int:
    """The most rows one of ``moves`` takes ``rid`` forward (the line counts as the
    finish row)."""
    here = state.course.row_lane(state.rider(rid).square or "")[0]
    rows = [
        state.course.finish if m.square == FINISH else state.course.row_lane(m.square or "")[0]
        for m in moves
    ]
    return max(rows, default=here) - here
