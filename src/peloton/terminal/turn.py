"""A human's move in any game: the legal moves numbered, a number or the notation
typed, and every refusal explained before the same prompt comes back.

A game may number only some of its legal moves (Cyclo numbers a ride's full
distance, not every target it may hold back to) and say how to type the others
(:meth:`TerminalGame.hint`): any legal move typed in notation is taken."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.text import Text

from ..core.errors import IllegalMoveError, NotationError, PelotonError
from .games import TerminalGame
from .prompt import Ask, ask_move
from .rules import help_with_terms


def numbered(moves: Sequence[Any], labels: Sequence[str | Text] | None = None) -> Columns:
    """The moves numbered from 1, packed into columns; each reads as its label (its
    notation by default)."""
    shown = [str(m) for m in moves] if labels is None else labels
    items = [
        Text.assemble((f"{i:>2}", "bold"), " ", label) for i, label in enumerate(shown, start=1)
    ]
    return Columns(items, padding=(0, 3))


def interpret(view: Any, text: str, moves: Sequence[Any], game: TerminalGame) -> Any:
    """The legal move meant by ``text`` (a number in the list, or any legal move's
    notation, numbered or not); :class:`NotationError` or :class:`IllegalMoveError`
    saying why not otherwise."""
    text = text.strip()
    if text.isdigit():
        n = int(text)
        if not 1 <= n <= len(moves):
            raise NotationError(f"there is no move number {n}; choose 1 to {len(moves)}")
        return moves[n - 1]
    move = view.parse_move(game.expand(view, text))
    by_text = {str(m): m for m in view.legal_moves()}
    if str(move) in by_text:
        return by_text[str(move)]
    # The rules say why: play it on a copy of what this player sees (never the full
    # state, so that the reason cannot give a hidden value away).
    try:
        view.copy().play(move)
    except PelotonError as exc:
        raise IllegalMoveError(str(exc)) from None
    raise IllegalMoveError(f"{move} is not legal now")


def human_move(
    view: Any,
    game: TerminalGame,
    players: Mapping[str, str],
    console: Console,
    ask: Ask,
    redraw: Callable[[], None],
) -> Any:
    """Ask the human at the terminal for a legal move of ``view`` (what its seat
    sees). ``ask`` reads the line (unseen for a secret move). Raises :class:`QuitGame`
    on ``q``; lets EOFError and KeyboardInterrupt through."""
    moves = game.order(view, list(view.legal_moves()))
    labels = [game.label(view, m) for m in moves]
    hint: RenderableType | None = game.hint(view)
    note = game.order_note(view) if len(moves) > 1 else None

    def listing() -> None:
        console.print(game.describe(view, players))
        console.print(numbered(moves, labels))
        if note is not None:
            console.print(note, style="grey62")
        if hint is not None:
            console.print(hint)

    listing()
    player = view.current_player or "?"
    unseen = ", typed unseen" if game.secret(view) else ""
    prompt = f"{player} (1-{len(moves)} or move{unseen}, ? help, q quit) > "
    return ask_move(
        console,
        ask,
        prompt,
        help_with_terms(game.help, view.game),
        listing,
        redraw,
        lambda line: interpret(view, line, moves, game),
    )
