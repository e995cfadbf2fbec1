"""Small solo courses and positions the solver proves in seconds.

They serve the benchmark (figures that finish) and the tests (cross-checks against an
exhaustive search), and show a user what a quickly solvable problem looks like.
"""

from __future__ import annotations

import random

from ....core.errors import CourseError
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

#: Rows (the finish line's) of the random courses of :func:`random_course`.
RANDOM_FINISH = (14, 30)


def random_course(seed: int, finish: tuple[int, int] = RANDOM_FINISH) -> Course:
    """A valid random solo course (MC-1.3), the same for the same seed: a finish row in
    ``finish`` (inclusive), a start zone of one or two rows, two to four sections (at
    most one sprint and one mountain), up to two feed squares and up to four rocks.
    Draws that break a rule of MC-1.3 (a rock wall, say) are drawn again."""
    rng = random.Random(seed)
    while True:
        end = rng.randint(*finish)
        first = rng.randint(2, 3)
        cuts = sorted(rng.sample(range(first + 2, end - 1), rng.randint(1, 3)))
        kinds = ["plain", "sprint", "mountain"]
        types = [rng.choice(kinds)]
        for _ in cuts:
            left = [k for k in kinds if k != types[-1] and (k == "plain" or k not in types)]
            if not left:  # plain after both a sprint and a mountain: nothing new to add
                break
            types.append(rng.choice(left))
        cuts = cuts[: len(types) - 1]
        sections = [[row, kind] for row, kind in zip([first, *cuts], types, strict=True)]
        road = [f"{lane}{row}" for row in range(first, end) for lane in "abcde"]
        picked = rng.sample(road, rng.randint(0, 2) + rng.randint(0, 4))
        n_feed = min(len(picked), rng.randint(0, 2))
        spec = {
            "name": f"random-{seed}",
            "lanes": 5,
            "finish": end,
            "sections": sections,
            "feed": picked[:n_feed],
            "rocks": picked[n_feed:],
        }
        try:
            return Course.from_dict(spec)
        except CourseError:
            continue
