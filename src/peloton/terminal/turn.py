"""A human's move in any game: the legal moves numbered, a number or the notation
typed, and every refusal explained before the same prompt comes back."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from ..core.errors import IllegalMoveError, NotationError, PelotonError
from .games import TerminalGame
from .prompt import Ask, ask_move


def numbered(moves: Sequence[Any]) -> Columns:
    """The moves numbered from 1, packed into columns."""
    items = [Text.assemble((f"{i:>2}", "bold"), f" {m}") for i, m in enumerate(moves, start=1)]
    return Columns(items, padding=(0, 3))


def interpret(view: Any, text: str, moves: Sequence[Any], game: TerminalGame) -> Any:
    """The legal move meant by ``text`` (a number in the list or a move's notation);
    :class:`NotationError` or :class:`IllegalMoveError` saying why not otherwise."""
    text = text.strip()
    if text.isdigit():
        n = int(text)
        if not 1 <= n <= len(moves):
            raise NotationError(f"there is no move number {n}; choose 1 to {len(moves)}")
        return moves[n - 1]
    move = view.parse_move(game.expand(view, text))
    by_text = {str(m): m for m in moves}
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

    def listing() -> None:
        console.print(game.describe(view, players))
        console.print(numbered(moves))

    listing()
    player = view.current_player or "?"
    unseen = ", typed unseen" if game.secret(view) else ""
    prompt = f"{player} (1-{len(moves)} or move{unseen}, ? help, q quit) > "
    return ask_move(console, ask, prompt, game.help, listing, redraw, lambda line: interpret(view, line, moves, game))
