"""A diagram's position built through the game's own API.

A diagram names a position in its game's notation (Mind Cycling's MCN, Mind Twist's
``R12 B9 B``, Pistard's position text, Cyclo's CYN) and the options of the game it is
played in. Each game reads its notation with its own constructor; this module only
hands the options over, so a diagram the game would refuse is refused here too, with
the game's own error.

>>> state = diagram_state("mind-twist", {}, "R12 B9 B")
>>> state.position
'R12 B9 B'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

from ..core import registry
from ..core.errors import ConfigError


def _mind_cycling(options: Mapping[str, Any], position: str) -> Any:
    from ..games import mindcycling as mc

    unknown = sorted(set(options) - {"course", "wind", "relay_limit"})
    if unknown:
        # players and riders follow from the rider ids of the MCN (MC-10.2)
        raise ConfigError(f"Mind Cycling diagram option(s) {', '.join(unknown)}: not used")
    course = options.get("course", "standard")
    if isinstance(course, Mapping):
        course = mc.Course.from_dict(course)
    elif not isinstance(course, str):
        raise ConfigError(f"option 'course' must be a course name or object, not {course!r}")
    return mc.from_mcn(
        course,
        position,
        wind=options.get("wind", "front"),
        relay_limit=options.get("relay_limit", mc.OPTIONS["relay_limit"].default),
    )


def _mind_twist(options: Mapping[str, Any], position: str) -> Any:
    from ..games import mindtwist as mt

    return mt.from_position(position, **options)


def _pistard(options: Mapping[str, Any], position: str) -> Any:
    from ..games import pistard as pi

    unknown = sorted(set(options) - {"layout", "length", "bonus", "target"})
    if unknown:
        raise ConfigError(f"Pistard diagram option(s) {', '.join(unknown)}: not used")
    return pi.from_position(position, **options)


def _cyclo(options: Mapping[str, Any], position: str) -> Any:
    return import_module(registry.package("cyclo")).from_position(position, options)


#: How each game reads a position; a game not listed is read by its package's
#: ``from_position(text, **options)``.
READERS: dict[str, Callable[[Mapping[str, Any], str], Any]] = {
    "mind-cycling": _mind_cycling,
    "mind-twist": _mind_twist,
    "pistard": _pistard,
    "cyclo": _cyclo,
}


def diagram_state(game: str, options: Mapping[str, Any], position: str) -> Any:
    """The state a diagram of ``game`` shows: ``position`` (the game's notation) in a
    game made from ``options``. Raises the game's own error (a
    :class:`~peloton.core.errors.NotationError` or :class:`ConfigError`, both
    ``ValueError``) for a position or options it refuses."""
    reader = READERS.get(game)
    if reader is not None:
        return reader(options, position)
    package = import_module(registry.package(game))
    from_position = getattr(package, "from_position", None)
    if from_position is None:
        raise ConfigError(f"{game} has no position notation for diagrams")
    return from_position(position, **options)
