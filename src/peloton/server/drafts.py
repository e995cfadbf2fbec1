"""The course editor's check (``POST /api/editor/check``), run in a worker process:
a draft course (or a course file's text) read with the server's limits, validated by
the game's own loader (the problems of ``peloton course check``, word for word),
each problem placed on the road, and the draft written as its course file.

Only Mind Cycling has an editor: its courses are a grid a designer draws on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import CourseError
from ..games.mindcycling.course import Course
from ..games.mindcycling.course_design import course_toml, editable_draft, problem_place
from .inputs import InputError, loads_json, loads_toml

#: The name a course file's text is given in its problems.
SOURCE = "uploaded course"


def check_draft(body: Mapping[str, Any]) -> tuple[str, Any]:
    """``("ok", answer)`` or ``("bad_request", message)`` for a request that is not a
    check at all. ``body`` holds ``course`` (a draft: the keys of a course file) or
    ``text`` and ``format`` (``toml``, the default, or ``json``: an uploaded file).

    The answer: ``ok`` (the draft is a valid course), ``problems`` (each
    ``{"message", "row", "square", "key"}``), ``draft`` (what an editor opens: the
    file's data with its unknown keys left out, or ``null`` when it cannot be drawn),
    ``notes`` (what was left out, or why it cannot be opened) and ``toml`` (the
    draft's course file, ``null`` without a draft).
    """
    if "course" in body:
        data: Any = body["course"]
    else:
        text, fmt = body.get("text"), body.get("format", "toml")
        if not isinstance(text, str):
            return ("bad_request", 'send {"course": {...}} or {"text": "...", "format": "toml"}')
        if fmt not in ("toml", "json"):
            return ("bad_request", f"'format' must be 'toml' or 'json', not {str(fmt)[:40]!r}")
        try:
            data = (
                loads_toml(text, repr(SOURCE)) if fmt == "toml" else loads_json(text, repr(SOURCE))
            )
        except InputError as exc:
            # Not a course file at all: its one problem, nothing to open.
            return ("ok", _answer([str(exc)], None, []))
    draft, notes = editable_draft(data)
    try:
        Course.from_dict(data)
        problems: list[str] = []
    except CourseError as exc:
        problems = list(exc.problems)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        # A value of a type the loader did not expect (as jobs.check_course answers it).
        problems = [f"the course is malformed ({type(exc).__name__}: {str(exc)[:80]})"]
    return ("ok", _answer(problems, draft, notes))


def _answer(problems: list[str], draft: dict[str, Any] | None, notes: list[str]) -> dict[str, Any]:
    return {
        "ok": not problems,
        "problems": [{"message": p, **problem_place(p)} for p in problems],
        "draft": draft,
        "notes": notes,
        "toml": course_toml(draft) if draft is not None else None,
    }
