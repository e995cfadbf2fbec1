"""Finding courses by name or file, and describing them in one line."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import CourseError
from ..games.mindcycling import Course, bundled_names
from ..games.mindcycling.riders import MAX_RIDERS


def load_course(name: str) -> Course:
    """A bundled course by name, or a course file (TOML, or JSON for any other suffix)."""
    if name in bundled_names():
        return Course.load(name)
    path = Path(name)
    if path.is_file():
        return Course.from_file(path)
    if path.suffix.lower() in (".toml", ".json") or "/" in name:
        raise CourseError(f"no such course file {name!r}")
    raise CourseError(f"no bundled course called {name!r} (bundled: {', '.join(bundled_names())})")


def section_spans(course: Course) -> list[str]:
    """``plain 9-26``-style spans, from the start zone to the finish."""
    spans = [f"start 1-{course.start_rows}"]
    bounds = [*(row for row, _ in course.sections[1:]), course.finish]
    for (row, kind), end in zip(course.sections, bounds, strict=True):
        spans.append(f"{kind} {row}-{end - 1}")
    return spans


def start_room(course: Course) -> str:
    """How many riders the start zone holds, in teams of six."""
    teams = course.start_capacity // MAX_RIDERS
    return (
        f"{course.start_capacity} riders ({teams} team{'s' if teams != 1 else ''} of {MAX_RIDERS})"
    )


def course_facts(course: Course) -> list[tuple[str, str]]:
    """``(label, value)`` lines describing a course: lanes, finish, sections, tokens."""
    return [
        ("lanes", str(course.lanes)),
        ("finish", f"line after row {course.finish - 1}"),
        ("sections", ", ".join(section_spans(course))),
        ("feed", ", ".join(course.feed) or "none"),
        ("rocks", ", ".join(course.rocks) or "none"),
        ("start zone", start_room(course)),
    ]


def course_lines(course: Course) -> list[str]:
    """Three short lines on a course, for the ``peloton courses`` listing."""
    return [
        f"{course.name}: {course.lanes} lanes, finish line after row {course.finish - 1}, "
        f"start zone {start_room(course)}",
        "  " + " · ".join(section_spans(course)),
        f"  feed {', '.join(course.feed) or 'none'} · rocks {', '.join(course.rocks) or 'none'}",
    ]
