"""Monte Carlo tree search over the core state protocol, for any number of players.

The search knows no game. It drives states through the core protocol
(``legal_moves``, ``play``, ``copy``, ``current_player``, ``is_over``, ``players`` and
chance steps) and asks the game, through its registry entry
(``GameInfo.heuristics``), for whatever makes it play well:

* ``rollout_move(state, rng) -> move``: the playout policy (default: uniformly random);
* ``evaluate(state) -> {player: reward}``: each player's expected reward in [0, 1] from
  any position, used where a playout is cut off (and at the end of the game);
* ``outcome(state) -> {player: reward}``: the reward of a finished game (default:
  ``evaluate``; without either, 1 to the player named by ``state.result``, 0 to the
  others, an equal share when the result names nobody);
* ``horizon(state) -> int | None``: how many moves a playout from ``state`` should run
  before ``evaluate`` scores it (``None``: to the end), where the bot is not told
  (default: :data:`DEFAULT_HORIZON`). A game whose evaluation is better than a cheap
  playout (Cyclo) asks for short ones;
* ``score_moves(state, moves) -> scores``: a move ordering; the tree then tries moves
  best first and widens progressively (only about ``sqrt(visits)`` children per node);
* ``progressive_bias(state) -> float``: how much the ordering's rank of a move adds to
  its UCB1 value, fading as ``1 / (visits + 1)`` (default 0): where the evaluation
  cannot tell moves apart (Cyclo's tokens spent now or later) the search then leans
  to the ordering's choice rather than to chance;
* ``anchor(state) -> float``: the margin by which the search's choice must beat the
  ordering's best move, in the chooser's mean reward, to be played instead of it
  (default 0: the most visited move is played). Where the evaluation is known to be
  biased in a way more search exploits (Cyclo's team modes), the search then only
  overrules the greedy bot's line when it finds a clearly better move;
* ``determinize(view, rng) -> state``: for games with hidden information (Mind Twist's
  dial), a full state consistent with what the bot sees, hidden values drawn at
  random. Each playout starts from a fresh determinization of the view the bot was
  given, so the search never uses what its seat cannot see;
* ``observe(state, player) -> key``: with hidden information, what ``player`` has
  seen so far (Mind Twist: the moves with unrevealed dials as ``dial:?``). A player's
  choices in the tree are then scored per *information set*: the statistics of its
  moves are shared by every node it cannot tell apart (a guesser does not know which
  dial it faces), so it cannot learn to answer a dial it never saw.

**Several players.** Every node keeps the *vector* of rewards summed over the
playouts through it, one component per player (max^n UCT): the player to move at a
node picks the child that is best for *itself*, by UCB1 on its own component. So each
team maximises its own outcome, whether there are two teams or six.

**Chance.** At a chance step the search draws the outcome with
``state.chance_move(rng)`` and follows (or adds) the child for that outcome.

**Budget and reproducibility.** ``iterations`` (playouts per move) or ``seconds`` per
move. Every random decision draws from the bot's seeded :class:`Rng`, so with an
iteration budget the same seed and position give the same move; a time budget depends
on the machine's speed. A time budget is wall-clock time unless the bot is given
``clock="cpu"``: then it is the process's CPU time (:func:`time.process_time`), so a
busy machine slows the game down but does not weaken the bot (benchmarks use it).

The named levels built on this search (``hard``, ``expert``, ``mcts:N``) are in
:mod:`peloton.bots.levels`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import ConfigError
from ..core.protocol import GameState
from ..core.rng import Rng
from .base import SeededBot, heuristics_of

#: Default exploration constant of UCB1 (rewards lie in [0, 1]).
DEFAULT_EXPLORATION = 0.7
#: Default number of moves a playout runs before the position is evaluated: ``None``,
#: to the end of the game. Measured on Mind Cycling ``standard`` 2×6 against the greedy
#: bot, whole greedy playouts won 18 of 20 trophies with 30 playouts a move, where
#: 12-move playouts scored by the projected finish won 9 of 20 with 100: a greedy
#: playout to the end is an exact model of a greedy opponent, and a projection misjudges
#: Best Team, which decides a 2–2 medal tie.
DEFAULT_HORIZON: int | None = None
#: The ``horizon`` that means "what the game's ``horizon`` hook asks for" (else
#: :data:`DEFAULT_HORIZON`): the named levels use it.
GAME_HORIZON = "game"
#: What a time budget counts: wall-clock time or the process's CPU time.
_CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


class Node:
    """One position of the search tree (reached by ``move`` from its parent)."""

    __slots__ = ("children", "chooser", "move", "prior", "totals", "untried", "visits")

    def __init__(self, move: Any, chooser: int) -> None:
        self.move = move
        #: Index (in ``players``) of who acts at this node; -1 at chance or game over.
        self.chooser = chooser
        self.children: list[Node] = []
        #: Moves not yet expanded, best first (popped from the end); None until known.
        self.untried: list[Any] | None = None
        self.visits = 0
        self.totals: list[float] = []
        #: The move's rank in its parent's ordering, 1 for the best, 0 for the worst.
        self.prior = 0.0


class MCTSBot(SeededBot):
    """Max^n UCT with game-supplied playout policy, evaluation and move ordering.

    ``iterations``: playouts per move (default 200 when no budget is given);
    ``seconds``: a time budget per move instead (or as well: whichever ends first).
    ``clock``: what ``seconds`` counts, ``"wall"`` (the default, what a player waits)
    or ``"cpu"`` (the process's CPU time, the same budget on a busy machine).
    ``horizon``: moves a playout runs before the game's ``evaluate`` scores it
    (``None``: to the end of the game; :data:`GAME_HORIZON`, the default: as the
    game's ``horizon`` hook says; games without ``evaluate`` always play to the end). ``rollout``: the name of the game's playout policy among its heuristics
    (``rollout_move``: for Mind Cycling the greedy policy; ``fast_rollout_move`` is
    about five times cheaper and weaker).
    ``settle``: stop early once no other move can overtake the most visited one in the
    budget left (with an iteration budget the move is then exactly the one the whole
    budget would pick). ``bias``: the progressive bias's weight (``None``: the game's
    ``progressive_bias`` hook, else 0). ``anchor``: the margin by which the most
    visited move's mean reward must beat the ordering's best move's to be played
    (``None``: the game's ``anchor`` hook, else 0). ``exploration``: the UCB1 constant. ``widen``: with a move ordering, a node
    with ``n`` visits has at most ``widen + sqrt(n)`` children.
    """

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        horizon: int | str | None = GAME_HORIZON,
        exploration: float = DEFAULT_EXPLORATION,
        widen: int = 3,
        use_ordering: bool = True,
        rollout: str = "rollout_move",
        settle: bool = True,
        clock: str = "wall",
        bias: float | None = None,
        anchor: float | None = None,
    ) -> None:
        super().__init__(seed)
        if iterations is None and seconds is None:
            iterations = 200
        if iterations is not None and (isinstance(iterations, bool) or iterations < 1):
            raise ConfigError(f"MCTS iterations must be at least 1, not {iterations!r}")
        if seconds is not None and not seconds > 0:
            raise ConfigError(f"MCTS seconds per move must be more than 0, not {seconds!r}")
        if bias is not None and not bias >= 0:
            raise ConfigError(f"MCTS progressive bias must be 0 or more, not {bias!r}")
        if anchor is not None and not anchor >= 0:
            raise ConfigError(f"MCTS anchor margin must be 0 or more, not {anchor!r}")
        if clock not in _CLOCKS:
            raise ConfigError(f"MCTS clock must be 'wall' or 'cpu', not {clock!r}")
        if (
            horizon != GAME_HORIZON
            and horizon is not None
            and (not isinstance(horizon, int) or horizon < 0)
        ):
            raise ConfigError(f"MCTS horizon must be 0 or more moves, not {horizon!r}")
        self.iterations = iterations
        self.seconds = seconds
        self.horizon = horizon
        self.exploration = exploration
        self.widen = widen
        self.use_ordering = use_ordering
        self.rollout = rollout
        self.settle = settle
        self.clock = clock
        self.bias = bias
        self.anchor = anchor
        self._now = _CLOCKS[clock]
        #: Playouts run by the last :meth:`choose` (for benchmarks and reports).
        self.last_iterations = 0

    def __repr__(self) -> str:
        budget = (
            f"iterations={self.iterations}" if self.seconds is None else f"seconds={self.seconds}"
        )
        if self.clock != "wall":
            budget += f", clock={self.clock!r}"
        return f"MCTSBot(seed={self.seed}, {budget})"

    # ------------------------------------------------------------ public

    def choose(self, state: GameState) -> Any:
        """The most visited move at the root after the budget is spent."""
        moves = self.legal_moves(state)
        if len(moves) == 1:
            self.last_iterations = 0
            return moves[0]
        search = _Search(self, state)
        root = search.root
        start = self._now()
        deadline = None if self.seconds is None else start + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0:
                now = self._now()
                if now >= deadline:
                    break
            if self.settle and done >= 8 and _settled(root, self._left(done, start, deadline)):
                break
            search.iterate()
            done += 1
        self.last_iterations = done
        me = root.chooser
        best = max(
            root.children,
            key=lambda c: (c.visits, c.totals[me] / c.visits if c.visits else 0.0),
        )
        return _anchored(root, best, me, search.anchor).move

    def statistics(self, state: GameState) -> RootStatistics:
        """Search ``state`` for the whole budget (never settling early, even with one
        legal move) and report what the root learnt, for analysis rather than play:
        the mean reward vector of the position and of each move tried. How the bot
        chooses its moves is unchanged."""
        search = _Search(self, state)
        root = search.root
        start = self._now()
        deadline = None if self.seconds is None else start + self.seconds
        done = 0
        while (self.iterations is None or done < self.iterations) and (
            deadline is None or done == 0 or self._now() < deadline
        ):
            search.iterate()
            done += 1
        self.last_iterations = done
        return RootStatistics(
            players=search.players,
            visits=root.visits,
            means=_means(root),
            moves={str(c.move): (c.visits, _means(c)) for c in root.children if c.visits},
        )

    def _left(self, done: int, start: float, deadline: float | None) -> float:
        """How many more playouts the budget allows (estimated from the pace so far for
        a time budget)."""
        left = math.inf if self.iterations is None else float(self.iterations - done)
        if deadline is not None:
            now = self._now()
            left = min(left, (deadline - now) * done / max(now - start, 1e-9))
        return left


@dataclass(frozen=True)
class RootStatistics:
    """What one :meth:`MCTSBot.statistics` search learnt at its root: each player's
    mean reward there (``means``, in the order of ``players``), and for each move
    tried (by notation) its visits and mean reward vector."""

    players: tuple[str, ...]
    visits: int
    means: tuple[float, ...]
    moves: dict[str, tuple[int, tuple[float, ...]]]


def _means(node: Node) -> tuple[float, ...]:
    """``node``'s mean reward vector (empty before its first visit)."""
    return tuple(t / node.visits for t in node.totals) if node.visits else ()


def _settled(root: Node, left: float) -> bool:
    """Whether the most visited child of ``root`` stays the most visited whatever the
    next ``left`` playouts do (a child not yet expanded would start from 0 visits)."""
    first = second = 0
    for child in root.children:
        v = child.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > left


def _anchored(root: Node, best: Node, me: int, margin: float) -> Node:
    """``best``, unless it beats the ordering's best move (the root's first child, the
    first one expanded) by less than ``margin`` in player ``me``'s mean reward: then
    that move."""
    if margin <= 0 or not root.children:
        return best
    first = root.children[0]
    if best is first or first.visits == 0:
        return best
    gain = best.totals[me] / best.visits - first.totals[me] / first.visits
    return best if gain >= margin else first


class _Search:
    """The tree and the game hooks of one :meth:`MCTSBot.choose` call."""

    def __init__(self, bot: MCTSBot, state: GameState) -> None:
        self.bot = bot
        self.rng: Rng = bot.rng
        self.state = state
        self.players: tuple[str, ...] = tuple(state.players)
        self.index = {p: i for i, p in enumerate(self.players)}
        hooks = heuristics_of(state.game)
        # ``rollout`` names one of the game's policies; the hooks are a TypedDict.
        policies: Mapping[str, Any] = hooks
        self.rollout_move: Callable[..., Any] | None = policies.get(bot.rollout)
        #: A whole playout in one call (Mind Cycling's native engine), when offered.
        self.whole_playout: Callable[..., Mapping[str, float] | None] | None = hooks.get("playout")
        self.evaluate: Callable[..., Mapping[str, float]] | None = hooks.get("evaluate")
        self.outcome: Callable[..., Mapping[str, float]] | None = (
            hooks.get("outcome") or self.evaluate
        )
        self.order: Callable[..., Sequence[float]] | None = (
            hooks.get("score_moves") if bot.use_ordering else None
        )
        self.determinize: Callable[..., GameState] | None = hooks.get("determinize")
        self.observe: Callable[..., Any] | None = hooks.get("observe")
        #: Per information set (player, observation): each move's [visits, reward].
        self.info: dict[Any, dict[Any, list[float]]] = {}
        horizon = bot.horizon
        if horizon == GAME_HORIZON:
            advice = hooks.get("horizon")
            horizon = advice(state) if advice is not None else DEFAULT_HORIZON
        self.horizon: int | None = (
            horizon if self.evaluate is not None and isinstance(horizon, int) else None
        )
        weigh = hooks.get("progressive_bias")
        self.bias: float = (
            bot.bias
            if bot.bias is not None
            else float(weigh(state))
            if weigh is not None and self.order is not None
            else 0.0
        )
        anchor = hooks.get("anchor")
        #: The margin of :func:`_anchored` (only with an ordering: its best move is the
        #: root's first child).
        self.anchor: float = (
            0.0
            if self.order is None
            else bot.anchor
            if bot.anchor is not None
            else float(anchor(state))
            if anchor is not None
            else 0.0
        )
        self.root = self.node(None, state)

    # ------------------------------------------------------------ tree

    def node(self, move: Any, state: GameState) -> Node:
        if state.is_over or state.is_chance:
            return Node(move, -1)
        player = state.current_player
        return Node(move, self.index[player] if player is not None else -1)

    def candidates(self, state: GameState) -> list[Any]:
        """The moves of ``state``, to be popped best first (so stored worst first)."""
        moves = list(state.legal_moves())
        if self.order is not None and len(moves) > 1:
            scores = self.order(state, moves)
            ranked = sorted(
                zip(scores, range(len(moves)), strict=True), key=lambda p: (p[0], -p[1])
            )
            return [moves[i] for _, i in ranked]
        self.rng.shuffle(moves)
        return moves

    def iterate(self) -> None:
        """One playout: select, expand, roll out, back up."""
        state = self.determinize(self.state, self.rng) if self.determinize else self.state.copy()
        node = self.root
        path = [node]
        seen: list[tuple[dict[Any, list[float]], Any, int]] = []  # info-set choices made
        c = self.bot.exploration
        while not state.is_over:
            if state.is_chance:
                outcome = state.chance_move(self.rng)
                state.play(outcome)
                child = next((ch for ch in node.children if ch.move == outcome), None)
                if child is None:
                    child = self.node(outcome, state)
                    node.children.append(child)
                    path.append(child)
                    break
                node = child
                path.append(node)
                continue
            if node.untried is None:
                node.untried = self.candidates(state)
            limit = len(node.children) + len(node.untried)
            if self.order is not None:
                limit = min(limit, self.bot.widen + int(math.sqrt(node.visits)))
            player = state.current_player
            me = self.index[player] if player is not None else node.chooser
            stats = (
                self.info.setdefault((me, self.observe(state, player)), {})
                if self.observe
                else None
            )
            if node.untried and len(node.children) < limit:
                move = node.untried.pop()
                if stats is not None:
                    seen.append((stats, move, me))
                rank = len(node.untried)  # moves left are worse: 0 for the worst
                state.play(move)
                child = self.node(move, state)
                if self.order is not None:
                    child.prior = rank / max(1, rank + len(node.children))
                node.children.append(child)
                path.append(child)
                break
            # Who acts is read from the state, not the node: with determinized hidden
            # information the same move can hand the turn to different players (Mind
            # Twist: a guess is right in one determinization, wrong in another). The
            # legal move *sets* of such games depend only on what is public.
            if stats is None:
                node = self.select(node, me, c, self.bias)
            else:
                node = self.select_shared(node, stats, me, c)
                seen.append((stats, node.move, me))
            state.play(node.move)
            path.append(node)
        rewards = self.playout(state)
        for stats, move, me in seen:
            entry = stats.setdefault(move, [0.0, 0.0])
            entry[0] += 1
            entry[1] += rewards[me]
        for n in path:
            n.visits += 1
            if not n.totals:
                n.totals = list(rewards)
            else:
                totals = n.totals
                for i, r in enumerate(rewards):
                    totals[i] += r

    @staticmethod
    def select(node: Node, me: int, c: float, bias: float = 0.0) -> Node:
        """UCB1 on the component of player ``me``, who acts at ``node``, plus the
        progressive bias ``bias`` times the move's rank in the ordering."""
        log_n = math.log(node.visits + 1)
        best, best_value = node.children[0], -math.inf
        for child in node.children:
            if child.visits == 0:
                return child
            value = child.totals[me] / child.visits + c * math.sqrt(log_n / child.visits)
            if bias:
                value += bias * child.prior / (child.visits + 1)
            if value > best_value:
                best, best_value = child, value
        return best

    @staticmethod
    def select_shared(node: Node, stats: dict[Any, list[float]], me: int, c: float) -> Node:
        """UCB1 among ``node``'s children on the statistics of ``me``'s information set."""
        log_n = math.log(sum(stats[ch.move][0] for ch in node.children if ch.move in stats) + 1)
        best, best_value = node.children[0], -math.inf
        for child in node.children:
            entry = stats.get(child.move)
            if entry is None or entry[0] == 0:
                return child
            value = entry[1] / entry[0] + c * math.sqrt(log_n / entry[0])
            if value > best_value:
                best, best_value = child, value
        return best

    # ------------------------------------------------------------ playouts

    def playout(self, state: GameState) -> list[float]:
        """Play ``state`` on (in place) by the rollout policy; each player's reward."""
        rng = self.rng
        horizon = self.horizon
        if horizon is None and self.whole_playout is not None:
            got = self.whole_playout(state, rng, self.bot.rollout)
            if got is not None:
                return [float(got.get(p, 0.0)) for p in self.players]
        policy = self.rollout_move
        steps = 0
        while not state.is_over and (horizon is None or steps < horizon):
            if state.is_chance:
                move = state.chance_move(rng)
            elif policy is not None:
                move = policy(state, rng)
            else:
                move = rng.choice(list(state.legal_moves()))
            state.play(move)
            steps += 1
        return self.rewards(state)

    def rewards(self, state: GameState) -> list[float]:
        if state.is_over:
            if self.outcome is not None:
                got = self.outcome(state)
                return [float(got.get(p, 0.0)) for p in self.players]
            return _winner_rewards(state, self.players)
        assert self.evaluate is not None  # no horizon without an evaluation
        got = self.evaluate(state)
        return [float(got.get(p, 0.0)) for p in self.players]


def _winner_rewards(state: GameState, players: Sequence[str]) -> list[float]:
    """1 to the player ``state.result`` names (or whose ``.trophy`` it is), else a share."""
    result = state.result
    winner = getattr(result, "trophy", result)
    if isinstance(winner, str) and winner in players:
        return [1.0 if p == winner else 0.0 for p in players]
    return [1.0 / len(players)] * len(players)
