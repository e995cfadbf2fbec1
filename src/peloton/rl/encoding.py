"""What an environment needs from a game: a fixed action space, an observation layout
and rewards, for one game made from one set of options (:class:`Encoding`).

An encoding numbers every move the game's notation can write for the given options
(the ``action_space`` of every seat is ``Discrete(size)``), turns a state into a flat
``float32`` vector as one seat sees it (:meth:`Encoding.observe`, always from
``state.view(seat)``, so a secret never reaches it) and scores a finished game
(:meth:`Encoding.rewards`). It knows nothing of PettingZoo or Gymnasium: the
environments in :mod:`.aec` and :mod:`.single` drive the game through it.

An observation is made of named :class:`Segment` blocks laid end to end; ``layout``
lists them, so that a reader (or a network) can cut the vector back into its planes
and features (``docs/research.md`` prints each game's layout).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from math import prod
from typing import Any

import numpy as np

from ..core import registry
from ..core.errors import ConfigError, IllegalMoveError


@dataclass(frozen=True)
class Segment:
    """One block of an observation: ``size`` values (``shape``) from ``offset`` on,
    meaning ``says``."""

    name: str
    shape: tuple[int, ...]
    says: str
    offset: int = 0
    size: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", prod(self.shape))


class Layout:
    """The blocks of an observation in order, and the vector's length."""

    def __init__(self, segments: Sequence[tuple[str, tuple[int, ...], str]]) -> None:
        placed: list[Segment] = []
        offset = 0
        for name, shape, says in segments:
            segment = Segment(name, tuple(shape), says, offset)
            placed.append(segment)
            offset += segment.size
        self.segments = tuple(placed)
        self.size = offset
        self._by_name = {s.name: s for s in placed}
        # Observations are built block by block on every step: the slices once.
        self._slices = {s.name: (slice(s.offset, s.offset + s.size), s.shape) for s in placed}

    def __getitem__(self, name: str) -> Segment:
        return self._by_name[name]

    def zeros(self) -> np.ndarray:
        """An empty observation."""
        return np.zeros(self.size, dtype=np.float32)

    def block(self, vector: np.ndarray, name: str) -> np.ndarray:
        """The block ``name`` of ``vector``, reshaped to its shape (a view: writing to
        it writes the vector)."""
        where, shape = self._slices[name]
        return vector[where].reshape(shape)


class Encoding(ABC):
    """A game made from ``options``, seen as an environment. Subclasses say how moves
    are numbered (:meth:`action_of`), what a seat observes (:meth:`observe`) and what a
    finished game is worth to each seat (:meth:`rewards`)."""

    #: The registry name of the game.
    game: str = ""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = dict(options)
        self.package = import_module(registry.package(self.game))
        self.hidden = registry.get(self.game).hidden_information
        start = self.new_state()  # a bad option fails here, with the game's own error
        self.players: tuple[str, ...] = tuple(start.players)
        self.layout = self.make_layout(start)
        self.size = self.action_count(start)

    def new_state(self) -> Any:
        """A fresh game from the options."""
        return self.package.from_options(self.options)

    # ------------------------------------------------------------ actions

    @abstractmethod
    def action_count(self, start: Any) -> int:
        """How many actions the fixed space has (from the options' starting state)."""

    @abstractmethod
    def action_of(self, state: Any, move: Any) -> int:
        """The number of ``move``, legal in ``state``, in ``range(size)``."""

    def legal_actions(self, state: Any) -> dict[int, Any]:
        """``{action: move}`` for every legal move of ``state`` (none at a chance step
        or once the game is over). Two legal moves never share a number: a clash is a
        bug of the encoding and raises."""
        if state.is_over or state.is_chance:
            return {}
        table: dict[int, Any] = {}
        for move in state.legal_moves():
            action = self.action_of(state, move)
            if action in table:
                raise AssertionError(
                    f"{self.game}: moves {table[action]} and {move} share action {action}"
                )
            table[action] = move
        return table

    def mask(self, legal: Mapping[int, Any]) -> np.ndarray:
        """The ``action_mask`` of a set of legal actions (``int8``, 1 = legal)."""
        mask = np.zeros(self.size, dtype=np.int8)
        if legal:
            mask[np.fromiter(legal, dtype=np.int64, count=len(legal))] = 1
        return mask

    def move_of(self, state: Any, action: Any, legal: Mapping[int, Any] | None = None) -> Any:
        """The legal move numbered ``action`` in ``state`` (``legal``: its
        :meth:`legal_actions`, when already known); :class:`IllegalMoveError` saying why
        when there is none."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalMoveError(f"an action is a whole number, not {action!r}")
        action = int(action)
        if not 0 <= action < self.size:
            raise IllegalMoveError(
                f"action {action} is outside the action space (0 to {self.size - 1})"
            )
        if legal is None:
            legal = self.legal_actions(state)
        try:
            return legal[action]
        except KeyError:
            shown = ", ".join(f"{a} ({m})" for a, m in sorted(legal.items())[:8])
            raise IllegalMoveError(
                f"action {action} is no legal move of {state.current_player} now "
                f"(legal: {shown}{', ...' if len(legal) > 8 else ''})"
            ) from None

    # ------------------------------------------------------------ observations

    @abstractmethod
    def make_layout(self, start: Any) -> Layout:
        """The observation's blocks for games made from the options."""

    def seen(self, state: Any, seat: str) -> Any:
        """What ``seat`` may look at: its view in a game with hidden information, else
        the state itself (a game that hides nothing has views equal to the state, and
        a copy per observation would cost more than the rest of it)."""
        return state.view(seat) if self.hidden else state

    @abstractmethod
    def observe(self, state: Any, seat: str) -> np.ndarray:
        """What ``seat`` sees of ``state``, as a vector of ``layout.size`` values in
        ``[0, 1]``, built from ``state.view(seat)`` only."""

    # ------------------------------------------------------------ rewards

    @abstractmethod
    def rewards(self, state: Any) -> dict[str, float]:
        """Each seat's reward in ``[-1, 1]`` for the finished game ``state``."""


def placing_rewards(order: Sequence[Sequence[str]], players: Sequence[str]) -> dict[str, float]:
    """Rewards from a placing: ``order`` lists the seats by place, tied seats together
    (``[["B"], ["A", "C"]]``). First gets 1, last -1, evenly spaced between; tied seats
    share the mean of their places' rewards. A lone seat gets 1."""
    n = len(players)
    if n == 1:
        return {players[0]: 1.0}
    out: dict[str, float] = {}
    place = 0
    for tied in order:
        values = [1.0 - 2.0 * (place + i) / (n - 1) for i in range(len(tied))]
        for seat in tied:
            out[seat] = sum(values) / len(values)
        place += len(tied)
    missing = set(players) - set(out)
    if missing:
        raise ConfigError(f"the placing {order!r} leaves out {sorted(missing)}")
    return out


def one_hot(vector: np.ndarray, index: int | None) -> None:
    """Set ``vector[index]`` to 1 (nothing for ``None``)."""
    if index is not None:
        vector[index] = 1.0
