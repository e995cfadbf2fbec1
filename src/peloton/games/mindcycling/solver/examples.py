"""Small solo courses and positions the solver proves in seconds.

They serve the benchmark (figures that finish) and the tests (cross-checks against an
exhaustive search), and show a user what a quickly solvable problem looks like.
"""

from __future__ import annotations

from ..course import Course

#: An 8-row course whose whole setup can be searched.
C8 = Course.from_dict(
    {
        "name": "c8",
        "lanes": 5,
        "finish": 8,
        "sections": [[2, "plain"], [5, "sprint"]],
        "feed": ["c3"],
    }
)
#: A 14-row course with a sprint and a mountain, a feed square and two rocks.
C14 = Course.from_dict(
    {
        "name": "t14",
        "lanes": 5,
        "finish": 14,
        "sections": [[2, "plain"], [7, "sprint"], [11, "mountain"]],
        "feed": ["c9"],
        "rocks": ["b12", "d13"],
    }
)
#: A 12-row course with two feed squares and three rocks.
C12 = Course.from_dict(
    {
        "name": "t12",
        "lanes": 5,
        "finish": 12,
        "sections": [[2, "plain"], [6, "mountain"], [9, "plain"]],
        "feed": ["a7", "d10"],
        "rocks": ["c8", "b10", "e11"],
    }
)

#: (course, start MCN or None for the setup) pairs, each proven in well under a minute.
SMALL_PROBLEMS: list[tuple[Course, str | None]] = [
    (C8, None),
    (C14, "5 AD1:a10,AD2:b11+,AS1:c10,AS2:d11,AC1:e10"),
    (C12, "3 AD1:a8,AD2:b9+,AS1:c9,AS2:d9,AC1:e9"),
]
