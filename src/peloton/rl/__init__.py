"""Peloton's games as reinforcement-learning environments (``pip install 'peloton[rl]'``).

* :func:`env` makes a PettingZoo AEC environment of any game, named as in the registry
  (``"mind-cycling"``, ``"mind-twist"``, ``"pistard"``, ``"cyclo"``), with the game's
  own options;
* :func:`gym_env` makes a Gymnasium single-agent environment: one seat, the other seats
  played by Peloton's bots (none in the Mind Cycling solo challenge).

The layouts of actions and observations, the rewards and the seeding are described in
each game's module here and in ``docs/research.md``.

>>> from peloton import rl
>>> env = rl.env("mind-twist")
>>> env.reset(seed=1)
>>> env.agent_selection, int(env.observe("R")["action_mask"].sum())
('R', 3)
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as missing:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        f"peloton.rl needs numpy, pettingzoo and gymnasium ({missing.name} is missing): "
        "install them with  pip install 'peloton[rl]'"
    ) from missing

from ..core import registry
from ..core.errors import ConfigError
from .aec import MAX_MOVES, PelotonEnv
from .encoding import Encoding, Layout, Segment

#: The encoding of each game: ``module:class`` in this package.
ENCODINGS = {
    "mind-cycling": "mindcycling:MindCyclingEncoding",
    "mind-twist": "mindtwist:MindTwistEncoding",
    "pistard": "pistard:PistardEncoding",
    "cyclo": "cyclo:CycloEncoding",
}


def encoding(game: str, **options: Any) -> Encoding:
    """The :class:`Encoding` of ``game`` made from ``options`` (the game's own
    ``from_options`` names; :class:`ConfigError` for a bad one or an unknown game)."""
    registry.get(game)  # an unknown game: the error lists the known ones
    try:
        path = ENCODINGS[game]
    except KeyError:
        raise ConfigError(f"game {game!r} has no environment yet") from None
    module, _, name = path.partition(":")
    cls = getattr(import_module(f"{__name__}.{module}"), name)
    made: Encoding = cls(options)
    return made


def env(
    game: str, *, render_mode: str | None = None, max_moves: int = MAX_MOVES, **options: Any
) -> PelotonEnv:
    """A PettingZoo AEC environment of ``game`` made from ``options``.

    ``render_mode`` is ``"ansi"``, ``"human"`` or ``None``; ``max_moves`` truncates an
    episode after that many moves; every other keyword is an option of the game
    (``peloton options GAME`` lists them).
    """
    return PelotonEnv(encoding(game, **options), render_mode=render_mode, max_moves=max_moves)


def gym_env(
    game: str,
    *,
    seat: str | None = None,
    bots: str | dict[str, str] = "random",
    render_mode: str | None = None,
    max_moves: int = MAX_MOVES,
    **options: Any,
) -> Any:
    """A Gymnasium environment: ``seat`` (the first seat by default) is the agent, every
    other seat is played by the bot named in ``bots`` (one name for all, or ``{seat:
    name}``; any name :func:`peloton.bots.make_bot` knows). The Mind Cycling solo
    challenge (``players=1``) has no other seat."""
    from .single import SeatEnv

    return SeatEnv(
        encoding(game, **options),
        seat=seat,
        bots=bots,
        render_mode=render_mode,
        max_moves=max_moves,
    )


__all__ = ["ENCODINGS", "Encoding", "Layout", "PelotonEnv", "Segment", "encoding", "env", "gym_env"]
