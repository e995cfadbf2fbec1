"""The ints the native Mind Cycling core (``peloton/native/mc.h``) and Python share:
move kinds, sections, rider types and medals as codes, and a course's C tables (MC-1).

A move is one int (``kind | rider << 3 | target << 9 | square << 15``, the rider and
the target as indices in the game's sorted ids); a square is ``row << 5 | lane``, or
:data:`FINISH_SQ` across the finish line.
"""

from __future__ import annotations

from typing import Any

from ..course import Course
from ..notation import ATTACK, GIVE, MOVE, PLACE, RELAY, STAY, WHEEL
from ..riders import DOMESTIQUE, SPRINTER

__all__ = [
    "FINISH_SQ",
    "KINDS",
    "KIND_CODE",
    "MEDALS",
    "MEDAL_CODE",
    "SECTION_CODE",
    "SECTION_NAME",
    "TYPE_CODE",
    "bits",
    "fill_course",
    "placement_key",
]

KINDS = (PLACE, MOVE, ATTACK, WHEEL, RELAY, GIVE, STAY)
KIND_CODE = {k: i for i, k in enumerate(KINDS)}
FINISH_SQ = 0x1FFF
SECTION_CODE = {"start": 0, "plain": 1, "sprint": 2, "mountain": 3}
SECTION_NAME = ("start", "plain", "sprint", "mountain")
TYPE_CODE = {DOMESTIQUE: 0, SPRINTER: 1, "C": 2}
MEDALS = ("cyclist", "sprinter", "climber", "team")
MEDAL_CODE = {m: i for i, m in enumerate(MEDALS)}


def bits(indices: Any) -> int:
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def fill_course(ffi: Any, course: Course) -> Any:
    """The ``mc_course`` tables of ``course`` (MC-1)."""
    c = ffi.new("mc_course *")
    c.lanes, c.finish, c.start_rows = course.lanes, course.finish, course.start_rows
    for row, kind in enumerate(course.section_by_row):
        c.section[row] = SECTION_CODE[kind]
    for row, mask in enumerate(course.rock_mask):
        c.rock[row] = mask
    for row, mask in enumerate(course.feed_mask):
        c.feed[row] = mask
    for i, n in enumerate(course.feed_before):
        c.feed_before[i] = n
    c.n_lines = len(course.medal_lines)
    for i, (medal, last) in enumerate(course.medal_lines):
        c.line_medal[i] = MEDAL_CODE[medal]
        c.line_last[i] = last
    sprint, mountain = course.last_row_of("sprint"), course.last_row_of("mountain")
    c.last_sprint = -1 if sprint is None else sprint
    c.last_mountain = -1 if mountain is None else mountain
    c.n_feed_rows = len(course.feed_rows)
    for i, row in enumerate(course.feed_rows):
        c.feed_rows[i] = row
    c.n_feed = len(course.feed)
    for i, name in enumerate(course.feed):
        c.feed_sq[i] = course.codes[name]
    return c


def placement_key(rid: str) -> tuple[int, str]:
    """MC-2.3 order of a team's riders: domestiques, sprinters, climbers (as
    :func:`.riders.team_rider_ids`)."""
    return ("DSC".index(rid[1]), rid)
