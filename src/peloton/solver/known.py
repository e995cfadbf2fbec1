"""Solo lines shipped with the bundled courses: the best line known, as a first incumbent.

A bundled course may come with a record of its best known solo line for a team
(``courses/<course>-<team>.line.json`` beside the course). The solver replays it
through the rules and starts from it; whether it is optimal is still for the search to
prove (``peloton solve --from-scratch`` ignores it).
"""

from __future__ import annotations

from importlib import resources

from ..games import mindcycling as mc
from ..games.mindcycling.course import bundled_names


def known_line(course: mc.Course, team: str, wind: str, relay_limit: int) -> tuple[str, list[str]] | None:
    """``(file name, moves)`` of the line shipped for this bundled course, team and
    rules (played from the setup), or ``None``."""
    if course.name not in bundled_names() or course.to_dict() != mc.Course.load(course.name).to_dict():
        return None  # not bundled, or a course file that only borrows a bundled name
    name = f"{course.name}-{team}.line.json"
    source = resources.files(mc.__name__).joinpath("courses", name)
    if not source.is_file():
        return None
    record = mc.Record.from_json(source.read_text("utf-8"))
    if record.teams != {"A": team} or record.wind != wind or record.relay_limit != relay_limit:
        return None
    if record.start is not None:
        return None
    return name, record.moves
