"""The course editor's check (``POST /api/editor/check``), run in a worker process:
a draft course (or a course file's text) read with the server's limits, validated by
the game's own loader (the problems of ``peloton course check``, word for word),
each problem placed on the road, and the draft written as its course file.

A game has an editor when it declares one (``GameInfo.editor``, a
:class:`~peloton.core.offers.Editor`); the request's ``game`` names it, else the first
game that offers one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import ConfigError
from ...core.offers import Editor
from .. import games
from ..inputs import InputError, loads_json, loads_toml
from .share_links import opened, seal

#: The name a course file's text is given in its problems.
SOURCE = "uploaded course"


def check_draft(body: Mapping[str, Any]) -> tuple[str, Any]:
    """``("ok", answer)`` or ``("bad_request", message)`` for a request that is not a
    check at all. ``body`` holds ``course`` (a draft: the keys of a course file) or
    ``text`` and ``format`` (``toml``, the default, or ``json``: an uploaded file), or
    ``link`` (a share link's token, :mod:`.share_links`), and optionally ``game``, the
    game whose editor checks it.

    The answer: ``ok`` (the draft is a valid course), ``problems`` (each
    ``{"message", "row", "square", "key"}``), ``draft`` (what an editor opens: the
    file's data with its unknown keys left out, or ``null`` when it cannot be drawn),
    ``notes`` (what was left out, or why it cannot be opened) and ``toml`` (the
    draft's course file, ``null`` without a draft) and ``link`` (the draft's share
    token, ``null`` without a draft) and ``advice`` (the game's design rules a valid
    course breaks, placed like its problems).
    """
    try:
        _, editor = games.offered("editor", body.get("game"))
    except ConfigError as exc:
        return ("bad_request", str(exc))
    if "course" in body:
        data: Any = body["course"]
    elif "link" in body:
        try:
            data = opened(body["link"])
        except InputError as exc:
            # A damaged link: its one problem, nothing to open.
            return ("ok", _answer(editor, [str(exc)], None, []))
    else:
        text, fmt = body.get("text"), body.get("format", "toml")
        if not isinstance(text, str):
            return (
                "bad_request",
                'send {"course": {...}}, {"text": "...", "format": "toml"} or {"link": "..."}',
            )
        if fmt not in ("toml", "json"):
            return ("bad_request", f"'format' must be 'toml' or 'json', not {str(fmt)[:40]!r}")
        try:
            data = (
                loads_toml(text, repr(SOURCE)) if fmt == "toml" else loads_json(text, repr(SOURCE))
            )
        except InputError as exc:
            # Not a course file at all: its one problem, nothing to open.
            return ("ok", _answer(editor, [str(exc)], None, []))
    draft, notes = editor.draft(data)
    problems = editor.problems(data)
    answer = _answer(editor, problems, draft, notes)
    if not problems:
        answer["advice"] = [{"message": a, **editor.place(a)} for a in editor.advice(data)]
    return ("ok", answer)


def _answer(
    editor: Editor, problems: list[str], draft: dict[str, Any] | None, notes: list[str]
) -> dict[str, Any]:
    return {
        "ok": not problems,
        "problems": [{"message": p, **editor.place(p)} for p in problems],
        "draft": draft,
        "notes": notes,
        "toml": editor.text(draft) if draft is not None else None,
        "link": seal(draft) if draft is not None else None,
        "advice": [],
    }
