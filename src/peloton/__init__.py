"""Peloton: an engine and online table for tabletop cycling race games."""

from .core.errors import (
    ConfigError,
    CourseError,
    IllegalMoveError,
    NotationError,
    PelotonError,
    RecordError,
    StateError,
)

__version__ = "0.1.0"

__all__ = [
    "ConfigError",
    "CourseError",
    "IllegalMoveError",
    "NotationError",
    "PelotonError",
    "RecordError",
    "StateError",
    "__version__",
]
