"""Game-agnostic core: state protocol, errors, registry, records, seeded randomness."""

from .errors import (
    ConfigError,
    CourseError,
    IllegalMoveError,
    NotationError,
    PelotonError,
    RecordError,
    StateError,
)
from .protocol import CHANCE, GameState, Move
from .record import RECORD_FORMAT, load_record
from .rng import Rng

__all__ = [
    "CHANCE",
    "RECORD_FORMAT",
    "ConfigError",
    "CourseError",
    "GameState",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "PelotonError",
    "RecordError",
    "Rng",
    "StateError",
    "load_record",
]
