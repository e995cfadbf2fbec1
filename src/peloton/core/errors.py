"""Typed errors shared by every game.

All of them subclass :class:`ValueError` so that callers who only care that the
input was bad can catch one thing; messages quote the offending input and say why.
"""

from __future__ import annotations

from collections.abc import Sequence


class PelotonError(ValueError):
    """Base class of every error Peloton raises about bad input."""


class NotationError(PelotonError):
    """Text that does not parse as a move, a position or a record field."""


class IllegalMoveError(PelotonError):
    """A well-formed move that the rules do not allow now."""


class ConfigError(PelotonError):
    """A game set up with impossible options (teams, compositions, wind, ...)."""


class CourseError(ConfigError):
    """An invalid course; ``problems`` lists every problem found, one sentence each."""

    def __init__(self, problems: Sequence[str] | str, name: str | None = None) -> None:
        self.problems: list[str] = [problems] if isinstance(problems, str) else list(problems)
        self.name = name
        where = f"course {name!r}" if name else "course"
        if len(self.problems) == 1:
            text = f"invalid {where}: {self.problems[0]}"
        else:
            text = f"invalid {where}: " + "; ".join(self.problems)
        super().__init__(text)


class RecordError(PelotonError):
    """A game record that cannot be loaded or replayed.

    ``index`` is the 0-based index of the first rejected move when the problem is a
    move, otherwise ``None``.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        super().__init__(message)


class StateError(PelotonError):
    """An operation asked of a state at a moment where it has no meaning."""
