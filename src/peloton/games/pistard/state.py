"""The Pistard game state: the core protocol over a :class:`~.position.Race`.

:class:`State` adds to the race's data what every game offers (``current_player``,
``legal_moves()``, ``play``, ``copy``, ``view``, the chance step, ``result``); the rules
themselves are the functions of :mod:`.rules`, which this module alone calls.
"""

from __future__ import annotations

from ...core.errors import IllegalMoveError, NotationError, StateError
from ...core.protocol import CHANCE
from ...core.rng import Rng, roll_outcomes
from . import rules
from .notation import Move, parse_move
from .position import Race
from .scoring import Result, standings
from .track import Layout


class State(Race):
    """A Pistard position, played forward in place with :meth:`play`.

    Build one with :func:`peloton.games.pistard.new_game`, ``from_options`` or
    ``from_position``."""

    game = "pistard"

    # The legal moves of the position, computed once. Never handed out nor changed
    # (legal_moves returns a copy), so copies may share it.
    __slots__ = ("_legal",)

    def __init__(
        self,
        teams: tuple[str, ...],
        layout: Layout,
        *,
        bonus: str,
        target: int,
        target_at_round_end: bool = False,
    ) -> None:
        """A new game at the first move; options are validated by ``new_game``."""
        super().__init__(
            teams, layout, bonus=bonus, target=target, target_at_round_end=target_at_round_end
        )
        self._legal: list[Move] | None = None

    def copy(self) -> State:
        """An independent copy (moves and the layout are immutable and shared)."""
        new = super().copy()
        new._legal = self._legal
        return new

    # ------------------------------------------------------------ protocol

    @property
    def roller(self) -> str | None:
        """The player whose dice the pending chance step rolls, if any."""
        return rules.roller(self)

    @property
    def current_player(self) -> str | None:
        """The team to act, :data:`CHANCE` at a roll, ``None`` once over."""
        if self.over:
            return None
        if rules.roller(self) is not None:
            return CHANCE
        return rules.acting_team(self)

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (PI-4.3)."""
        return self.over

    @property
    def is_chance(self) -> bool:
        """Whether a player's roll is due (PI-2.1, PI-3.2)."""
        return not self.over and rules.roller(self) is not None

    def dice_to_roll(self) -> int:
        """How many dice the pending roll throws: 4 in the first move, else one per
        rider the player still has racing (PI-1.2)."""
        team = rules.roller(self)
        if team is None:
            raise StateError("no roll is due now")
        return rules.dice_to_roll(self, team)

    def chance_move(self, rng: Rng) -> Move:
        """The roll drawn from ``rng`` (only at a chance step)."""
        return Move.roll(rng.roll(self.dice_to_roll()))

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """Every roll of the pending chance step with its probability (they sum to 1);
        :class:`StateError` when no roll is due."""
        return [(Move.roll(dice), p) for dice, p in roll_outcomes(self.dice_to_roll())]

    def legal_moves(self) -> list[Move]:
        """The moves of whoever acts now: every possible roll at a chance step. The
        list is the caller's own: changing it changes nothing in the game."""
        legal = self._legal
        if legal is None:
            legal = self._legal = rules.legal_moves(self)
        return legal[:]

    def parse_move(self, text: str) -> Move:
        """Parse PI-5.2 text (syntax only)."""
        return parse_move(text)

    def check(self, move: Move | str) -> Move:
        """``move`` (or its text) if legal now; :class:`IllegalMoveError` saying why not."""
        if isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, Move):
            raise NotationError(f"a move must be text or a Pistard Move, not {move!r}")
        if self.over:
            raise IllegalMoveError(f"{str(move)!r}: the game is over")
        legal = self._legal
        if legal is None:
            legal = self._legal = rules.legal_moves(self)
        if move in legal:
            return move
        raise IllegalMoveError(f"{str(move)!r} is not legal now: {rules.why_illegal(self, move)}")

    def play(self, move: Move | str) -> None:
        """Apply a legal move (or its text) in place; illegal moves raise
        :class:`IllegalMoveError` and leave the state unchanged."""
        move = self.check(move)
        self._legal = None
        rules.EFFECTS[move.kind](self, move)

    def view(self, player: str | None = None) -> State:
        """What ``player`` sees: everything (Pistard hides nothing)."""
        return self.copy()

    # ------------------------------------------------------------ rounds

    def first_move_order(self) -> list[str]:
        """The order the riders enter the track in the first move (PI-2.2)."""
        return rules.first_move_order(self)

    def race_order(self) -> list[str]:
        """PI-3.1: racing riders furthest first; level riders inner lane first."""
        return rules.race_order(self)

    def begin_round(self, number: int) -> None:
        """Make the riders' places the start of later round ``number`` (from 2): its
        race order is fixed from them (PI-3.1). For building a game from a position."""
        if number < 2:
            raise StateError(f"a later round is numbered from 2, not {number}")
        self.round = number - 1
        self._legal = None
        rules.start_round(self)

    @property
    def at_round_start(self) -> bool:
        """Whether no move of the current later round has been played yet."""
        return not self.over and self.round > 1 and self.idx == 0 and not self.rolls

    # ------------------------------------------------------------ reading

    @property
    def result(self) -> Result:
        """The standing (PI-4.3); ``winner`` once the game is over."""
        lead: dict[str, int] = {}
        for r in self.racing:
            lead[r[0]] = max(lead.get(r[0], -1), self.dist[r])
        places = tuple(standings(self.teams, self.points, self.recency, lead))
        return Result(
            points=dict(self.points),
            places=places,
            eliminated=tuple(self.out),
            winner=places[0] if self.over else None,
            over=self.over,
            reason=self.reason,
            recency=tuple(self.recency),
        )

    def __repr__(self) -> str:
        return (
            f"<pistard State round {self.round}, {len(self.history)} moves, points {self.points}>"
        )
