"""A game's tutorial over HTTP: the ``/tutorial`` page and its API.

A game offers a tutorial by declaring it (``GameInfo.tutorial``, a
:class:`~peloton.core.offers.Tutorial`: one lesson or more); every route takes
``?game=`` (default: the first game that offers one) and ``?lesson=`` (default: the
game's first lesson). The tutorial keeps no table and no state on the
server: every answer is rebuilt from the game's lesson and the client's place in it,
a step number (1-based) and ``done``, how many of the step's scripted moves are played.
Every move is checked by the real engine here, never by the client.

- ``GET /api/tutorial``: the lesson's game, id, title, step titles, the game's
  lessons, the real table it ends at and what the game adds (Mind Cycling: its course).
- ``GET /api/tutorial/steps/{n}``: step ``n`` as the learner finds it (see
  :func:`step_view`).
- ``POST /api/tutorial/steps/{n}`` with ``{"move": "AD1-b9", "done": 0}``: play the
  learner's move; the answer is the step view after it and the opponent's replies.
  A move the engine refuses is ``400 notation`` or ``400 illegal_move`` with the
  engine's reason; a legal move that is not the lesson's is ``400 off_lesson``, whose
  message names the move asked for. Nothing is played then.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...core.errors import ConfigError, PelotonError
from ...core.offers import Lesson, LessonTurn, OffLessonError, Tutorial
from .. import games
from ..errors import BAD_REQUEST, NOT_FOUND, ApiError, engine_code
from . import api

#: A legal move that is not the one the step asks for.
OFF_LESSON = "off_lesson"
#: The longest move text read (the longest move of the games today has 8 characters).
MAX_MOVE = 40


def tutorial_of(request: Request) -> tuple[str, Tutorial, str]:
    """The game the request's tutorial is of (``?game=``, else the first game with a
    tutorial), its tutorial and the lesson's id (``?lesson=``, else the first);
    ``404 not_found`` for a game without one or a lesson it does not have."""
    try:
        spec, tutorial = games.offered("tutorial", request.query_params.get("game"))
    except ConfigError as exc:
        raise ApiError(404, NOT_FOUND, str(exc)) from None
    lesson = request.query_params.get("lesson") or tutorial.first
    if lesson not in tutorial.lessons:
        known = ", ".join(tutorial.lessons)
        raise ApiError(
            404, NOT_FOUND, f"{spec.title} has no lesson {lesson[:40]!r} (its lessons: {known})"
        )
    return spec.name, tutorial, lesson


async def tutorial_page(request: Request) -> Response:
    """``GET /tutorial[?game=]``; the 404 page for a game without a tutorial."""
    try:
        tutorial_of(request)
    except ApiError as exc:
        return api.not_found_page(f"There is no tutorial here: {exc.message}.")
    return api.page("tutorial.html")


async def lesson_overview(request: Request) -> Response:
    """``GET /api/tutorial``: the lesson's game, title and steps, and what its game
    adds (:attr:`~peloton.core.offers.Tutorial.overview`)."""
    game, tutorial, name = tutorial_of(request)

    def build() -> dict[str, Any]:
        lesson = tutorial.lessons[name]()
        return {
            "game": game,
            "lesson": name,
            "title": lesson.title,
            "learner": lesson.learner,
            "lessons": [{"id": k, "title": load().title} for k, load in tutorial.lessons.items()],
            **tutorial.overview(lesson),
            "steps": [
                {"number": i + 1, "id": s.id, "title": s.title} for i, s in enumerate(lesson.steps)
            ],
        }

    return JSONResponse(await run_in_threadpool(build))


def step_index(lesson: Lesson, request: Request) -> int:
    """The 0-based index of the request's step; ``404 not_found`` for no such step."""
    raw = request.path_params["number"]
    count = len(lesson.steps)
    if not raw.isdigit() or not 1 <= int(raw) <= count:
        raise ApiError(404, NOT_FOUND, f"no tutorial step {raw!r}: the steps are 1 to {count}")
    return int(raw) - 1


def step_view(
    lesson: Lesson, index: int, state: Any, done: int, turns: list[LessonTurn]
) -> dict[str, Any]:
    """What the page shows of step ``index`` once ``done`` of its moves are played:
    its texts, the position (a snapshot, as a table's), the learner's next move
    (``expect``, with ``ask`` saying it in words; ``None`` once the step is done) and
    the moves this answer played (``turns``, each with the position after it)."""
    step = lesson.steps[index]
    expect = lesson.expected(index, done)
    snaps = []
    if turns:
        # Each turn's position, for the page to show the replies one by one, replayed
        # from the step's own moves: a turn shows a secret move as the learner sees
        # it (Mind Twist's "dial:?"), which the engine cannot play.
        first = done - len(turns)
        replay = lesson.state_at(index, first)
        for move in step.moves[first:done]:
            replay.play(move)
            snaps.append(lesson.snapshot(replay))
    return {
        "number": index + 1,
        "count": len(lesson.steps),
        "id": step.id,
        "title": step.title,
        "text": step.text,
        "after": step.after,
        "done": done,
        "finished": expect is None,
        "expect": expect,
        "ask": None if expect is None else lesson.ask(state, expect),
        "turns": [
            {"move": t.move, "by": t.by, "describe": t.describe, "snapshot": snap}
            for t, snap in zip(turns, snaps, strict=True)
        ],
        "snapshot": lesson.snapshot(state),
    }


async def get_step(request: Request) -> Response:
    """``GET /api/tutorial/steps/{n}``: step ``n`` as the learner finds it."""

    _, tutorial, name = tutorial_of(request)

    def build() -> dict[str, Any]:
        lesson = tutorial.lessons[name]()
        index = step_index(lesson, request)
        state, done, turns = lesson.opening(index)
        return step_view(lesson, index, state, done, turns)

    return JSONResponse(await run_in_threadpool(build))


async def play_step(request: Request) -> Response:
    """``POST /api/tutorial/steps/{n}``: the learner's move in step ``n``."""
    _, tutorial, name = tutorial_of(request)
    lesson = await run_in_threadpool(tutorial.lessons[name])
    index = step_index(lesson, request)
    body = await api.read_json(request)
    shape = 'send {"move": "<move text>", "done": <moves of the step already played>}'
    if not isinstance(body, dict) or set(body) - {"move", "done"}:
        raise ApiError(400, BAD_REQUEST, f"{shape}, not {str(body)[:80]}")
    move, done = body.get("move"), body.get("done", 0)
    if not isinstance(move, str) or not move.strip() or len(move) > MAX_MOVE:
        raise ApiError(
            400,
            BAD_REQUEST,
            f"'move' must be a move's text (at most {MAX_MOVE} characters): {shape}",
        )
    if isinstance(done, bool) or not isinstance(done, int):
        raise ApiError(400, BAD_REQUEST, f"'done' must be a whole number: {shape}")

    def play() -> dict[str, Any]:
        try:
            state, now, turns = lesson.play(index, done, move.strip())
        except OffLessonError as exc:
            raise ApiError(
                400, OFF_LESSON, str(exc), expect=lesson.steps[index].moves[done]
            ) from None
        except PelotonError as exc:
            raise ApiError(400, engine_code(exc, BAD_REQUEST), str(exc)) from None
        except ValueError as exc:  # ``done`` is not a learner's move of the step
            raise ApiError(400, BAD_REQUEST, str(exc)) from None
        return step_view(lesson, index, state, now, turns)

    return JSONResponse(await run_in_threadpool(play))


#: The tutorial's routes, for :func:`~..app.create_app`.
ROUTES = [
    Route("/tutorial", tutorial_page),
    Route("/api/tutorial", lesson_overview),
    Route("/api/tutorial/steps/{number}", get_step),
    Route("/api/tutorial/steps/{number}", play_step, methods=["POST"]),
]
