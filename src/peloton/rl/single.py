"""A Gymnasium single-agent environment over one seat of any Peloton game
(:class:`SeatEnv`): the agent plays ``seat``, Peloton's bots play every other seat, and
the environment rolls the dice.

Observations, actions and rewards are the game's :class:`~.encoding.Encoding`'s, as in
the PettingZoo environment; ``step`` returns the reward of the finished game (0 until
then). The Mind Cycling solo challenge has one seat and no bot.

An action the mask forbids does not raise here (Gymnasium's tools step with sampled
actions): it ends the episode at once with the worst reward, -1, and
``info["illegal_action"]`` set, the game left as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import bot_view, make_bot
from ..core import registry
from ..core.errors import ConfigError, IllegalMoveError
from ..core.rng import Rng
from .aec import MAX_MOVES, rendered
from .encoding import Encoding

#: The reward of an episode ended by an illegal action.
ILLEGAL_REWARD = -1.0


class SeatEnv(gym.Env):
    """One seat of a game against bots (see the module docstring).

    Args:
        encoding: the game and its options.
        seat: the agent's seat (the first seat by default).
        bots: the bot of every other seat, one name for all or ``{seat: name}`` (any
            name :func:`peloton.bots.make_bot` knows: ``random``, ``greedy``, ``easy`` ..
            ``expert``, ``mcts:N``); each is seeded from the episode's seed.
        render_mode: ``"ansi"``, ``"human"`` or ``None``.
        max_moves: truncate an episode after this many moves.

    After :meth:`reset`, ``game_state`` is the Peloton state being played (read only).
    """

    # PettingZoo and Gymnasium read it on the class, as a plain dict.
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(
        self,
        encoding: Encoding,
        *,
        seat: str | None = None,
        bots: str | Mapping[str, str] = "random",
        render_mode: str | None = None,
        max_moves: int = MAX_MOVES,
    ) -> None:
        players = encoding.players
        self.seat = players[0] if seat is None else seat
        if self.seat not in players:
            raise ConfigError(
                f"seat {seat!r} is not a seat of this game (seats: {', '.join(players)})"
            )
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ConfigError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}"
            )
        others = [p for p in players if p != self.seat]
        names = dict.fromkeys(others, bots) if isinstance(bots, str) else dict(bots)
        if set(names) != set(others):
            raise ConfigError(f"bots must name a bot for each other seat: {', '.join(others)}")
        for name in names.values():
            make_bot(name, 0, game=encoding.game)  # an unknown bot fails now, not mid-episode
        self.bot_names = names
        self.encoding = encoding
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.hidden = registry.get(encoding.game).hidden_information
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (encoding.layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (encoding.size,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(encoding.size)
        self.game_state: Any = None
        self._legal: dict[int, Any] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game; ``seed`` fixes the dice and the bots' choices."""
        super().reset(seed=seed)
        episode_seed = int(self.np_random.integers(2**62))
        self._rng = Rng(episode_seed)
        self.bots = {
            p: make_bot(name, episode_seed + i + 1, game=self.encoding.game)
            for i, (p, name) in enumerate(sorted(self.bot_names.items()))
        }
        self.game_state = self.encoding.new_state()
        self.moves = 0
        self._advance()
        return self._observation(), {}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then the bots until the agent is to act again
        or the game ends."""
        try:
            move = self.encoding.move_of(self.game_state, action, self._legal)
        except IllegalMoveError as error:
            self._legal = {}
            return self._observation(), ILLEGAL_REWARD, True, False, {"illegal_action": str(error)}
        self.game_state.play(move)
        self.moves += 1
        self._advance()
        state = self.game_state
        reward, info = 0.0, {}
        if state.is_over:
            reward = self.encoding.rewards(state)[self.seat]
            result = state.result
            info = {"result": result.to_dict() if hasattr(result, "to_dict") else result}
        truncated = not state.is_over and self.moves >= self.max_moves
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, state.is_over, truncated, info

    def _advance(self) -> None:
        """Chance steps and the bots' turns, until the agent acts or the game ends."""
        state = self.game_state
        while not state.is_over and self.moves < self.max_moves:
            if state.is_chance:
                state.play(state.chance_move(self._rng))
            elif state.current_player == self.seat:
                break
            else:
                bot = self.bots[state.current_player]
                state.play(bot.choose(bot_view(state, self.hidden)))
            self.moves += 1
        self._legal = self.encoding.legal_actions(state) if not state.is_over else {}
        if state.is_over or state.current_player != self.seat:
            self._legal = {}

    def _observation(self) -> dict[str, np.ndarray]:
        return {
            "observation": self.encoding.observe(self.game_state, self.seat),
            "action_mask": self.encoding.mask(self._legal),
        }

    def action_masks(self) -> np.ndarray:
        """The current action mask (the name MaskablePPO-style trainers look for)."""
        return self.encoding.mask(self._legal)

    def render(self) -> str | None:
        """The position as the terminal draws it (``"ansi"``: returned; ``"human"``:
        printed)."""
        return rendered(self.game_state, self.render_mode)
