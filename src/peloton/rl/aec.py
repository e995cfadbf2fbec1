"""The PettingZoo AEC environment of any Peloton game (:class:`PelotonEnv`).

One class serves every game: an :class:`~.encoding.Encoding` says how the game's moves
are numbered, what a seat observes and what a result is worth. The environment drives
the game's state through the core protocol:

* **agents** are the game's seats (``"A"``, ``"B"`` ... or Mind Twist's ``"R"``,
  ``"B"``); ``agent_selection`` is ``state.current_player``, so a game whose turn order
  is not round the table (Mind Cycling's trains, Cyclo's wheels and answers) is played
  in its own order;
* **chance** steps (Pistard's and Cyclo's dice, Cyclo's cards) are no agent's: the
  environment resolves each with ``chance_move`` from its own seeded
  :class:`~peloton.core.rng.Rng` as soon as one is due, so a seed fixes the whole
  episode;
* **observations** are ``{"observation": float32 vector, "action_mask": int8 vector}``,
  the vector built from ``state.view(agent)`` only (hidden information stays hidden);
  the mask is all zeros for an agent not to act;
* **rewards** come once, when the game ends (:meth:`Encoding.rewards`, in ``[-1, 1]``);
* an action the mask forbids raises :class:`~peloton.IllegalMoveError` saying which
  actions are legal (the state is unchanged).
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.errors import ConfigError
from ..core.rng import Rng
from .encoding import Encoding

#: The most moves an episode may last before it is truncated (no Peloton game comes
#: near it: the longest random games measured run a few thousand moves).
MAX_MOVES = 20_000


class PelotonEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment over one Peloton game (see the module docstring).

    Args:
        encoding: the game and its options, seen as an environment.
        render_mode: ``"ansi"`` (``render()`` returns the terminal's drawing as text),
            ``"human"`` (prints it) or ``None``.
        max_moves: truncate an episode after this many moves (chance steps included).

    After :meth:`reset`, ``game_state`` is the Peloton state being played (read it,
    never play on it) and ``episode_seed`` the seed of the episode's chance steps.
    """

    # PettingZoo and Gymnasium read it on the class, as a plain dict.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self, encoding: Encoding, *, render_mode: str | None = None, max_moves: int = MAX_MOVES
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ConfigError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}"
            )
        self.encoding = encoding
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.metadata = {**self.metadata, "name": f"peloton_{encoding.game.replace('-', '_')}_v0"}
        self.possible_agents = list(encoding.players)
        size = encoding.layout.size
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (encoding.size,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(encoding.size) for agent in self.possible_agents
        }
        self.game_state: Any = None
        self.episode_seed: int | None = None
        self._legal: dict[int, Any] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` space for every seat."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(encoding.size)``: every move the options allow, numbered."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------ the episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` fixes every chance step of the episode (a fresh seed is
        drawn when it is ``None``; ``self.episode_seed`` tells it afterwards)."""
        self._rng = Rng(seed)
        self.episode_seed = self._rng.seed
        self.game_state = self.encoding.new_state()
        self.moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._advance(self.agents[0])

    def step(self, action: Any) -> None:
        """Play ``action`` for ``agent_selection`` (``None`` for an agent whose episode
        has ended, as PettingZoo requires)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.encoding.move_of(self.game_state, action, self._legal)
        self.game_state.play(move)
        self.moves += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._advance(agent)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _advance(self, last: str) -> None:
        """Resolve chance steps, then hand the turn to the seat to act, or end the game."""
        state = self.game_state
        while state.is_chance and not state.is_over:
            state.play(state.chance_move(self._rng))
            self.moves += 1
        if state.is_over:
            self.rewards = self.encoding.rewards(state)
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {agent: {"result": _result(state)} for agent in self.agents}
            self._legal = {}
            self.agent_selection = last
            return
        if self.moves >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
            self._legal = {}
            self.agent_selection = last
            return
        self._legal = self.encoding.legal_actions(state)
        self.agent_selection = state.current_player

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` sees now, and its action mask (zeros unless it is to act)."""
        mine = (
            self._legal
            if self.agent_selection == agent
            and not (self.terminations.get(agent) or self.truncations.get(agent))
            else {}
        )
        return {
            "observation": self.encoding.observe(self.game_state, agent),
            "action_mask": self.encoding.mask(mine),
        }

    def render(self) -> str | None:
        """The position as the terminal draws it, as text (``"ansi"``) or printed
        (``"human"``). A game with hidden information is drawn as a spectator sees it."""
        return rendered(self.game_state, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def _result(state: Any) -> Any:
    """The game's result as JSON-like data for ``infos``."""
    result = state.result
    return result.to_dict() if hasattr(result, "to_dict") else result


def rendered(state: Any, mode: str | None) -> str | None:
    """``render()`` of both environments: ``state`` as text (``"ansi"``), printed
    (``"human"``: nothing returned), or nothing without a render mode."""
    if mode is None:
        return None
    text = render_text(state)
    if mode == "human":
        print(text)
        return None
    return text


def render_text(state: Any, width: int = 100) -> str:
    """``state`` drawn by the game's terminal renderer, as plain text."""
    from rich.console import Console

    from ..core import registry
    from ..terminal.games import FULL_VIEW, terminal_game

    hidden = registry.get(state.game).hidden_information
    shown = state.view(None) if hidden else state
    players = {p: p for p in state.players}
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False)
    if state.game == "mind-cycling":
        # Mind Cycling's road has its own drawer; the generic adapter prints JSON.
        from ..terminal.board import render_board

        console.print(render_board(state.course, state))
        console.print(f"round {state.round} · {state.current_player or 'over'} to play")
    else:
        console.print(
            terminal_game(state.game).render(shown, players, None if hidden else FULL_VIEW)
        )
    return buffer.getvalue()
