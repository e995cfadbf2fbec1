"""What a human types at the terminal, and how it becomes a legal move.

In a race turn the legal moves are numbered; the player types a number, the move
notation (``AD1-c9``, MC-10.1) or just its destination (``c9``, ``c9!``, ``#``). In
setup there are up to hundreds of placements, so instead of numbering them the prompt
lists the unplaced riders and the allowed squares, and the player types ``AD1@c8``,
``AD1 c8`` or just ``c8`` (placing the first unplaced rider). Anything malformed or
illegal prints the engine's own explanation and asks again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.text import Text

from ..core.errors import IllegalMoveError, NotationError
from ..games.mindcycling import Move, State
from ..games.mindcycling.move_scores import score_moves
from ..games.mindcycling.riders import TYPE_NAMES
from .board import TEAM_STYLES
from .games import ORDER_NOTE
from .rules import help_with_terms

#: Reads one line after showing a prompt; raises EOFError when input has ended.
Ask = Callable[[str], str]
T = TypeVar("T")

QUIT_WORDS = {"q", "quit", "exit"}
HELP_WORDS = {"?", "h", "help"}
BOARD_WORDS = {"b", "board"}
MOVES_WORDS = {"m", "moves"}
# Among moves the greedy bot scores alike, the display groups a rider's options by
# kind: give first (it does not end the turn), then normal moves, attacks, train moves
# and the forced stay.
KIND_ORDER = {">": 0, "-": 1, "!": 2, "w": 3, "r": 4, "=": 5, "@": 6}
_SQUARE_ONLY = re.compile(r"(?:[a-z][1-9][0-9]*|#)[!wr]?")
_PLACE_PAIR = re.compile(r"([A-G][DSC][1-9])\s+([a-z][1-9][0-9]*)")

HELP = """\
How to play a turn
  number       play the move with that number in the list
  AD1-c9       a move in notation: - move, ! attack (AS1-c20!), w wheel,
               r relay, # across the line (AD1-#), AD1>AS1 give the bottle
               to the teammate behind, BC1= stay (only when stuck)
  c9 c9! #     the current rider's move, attack, or finish
  setup        AD1@c8, 'AD1 c8', or just 'c8' for the first unplaced rider
  m, moves     list the legal moves again    b, board  draw the board again
  ?, help      this help                     q, quit   save and leave
Board: ~ rides against the wind this round; an arrow (↑ ↖ ↗) points at the
rider it shelters behind (its train link); + holds a bottle; o marks where
the rider to play may go (! only by attacking); F feed zone; ^^^ rock.
Tabs: P plain, S sprint, M mountain, from that row on."""


class QuitGame(Exception):
    """The human asked to leave the game (``q``)."""


def ordered_moves(state: State) -> list[Move]:
    """The legal moves of ``state`` in display (and numbering) order: the greedy bot's
    score first, highest first (the move a newcomer most likely wants is near the
    top), then by kind (:data:`KIND_ORDER`)."""
    moves = state.legal_moves()
    scores = score_moves(state, moves) if len(moves) > 1 else [0.0] * len(moves)
    ranked = sorted(
        zip(moves, scores, strict=True), key=lambda ms: (-ms[1], KIND_ORDER.get(ms[0].kind, 9))
    )
    return [move for move, _ in ranked]


def destination_marks(state: State) -> dict[str, str]:
    """Glyphs for the squares the player to act may choose (``o``, or ``!`` for a
    square reached only by attacking); during setup, the allowed start squares."""
    marks: dict[str, str] = {}
    for move in state.legal_moves():
        square = move.square
        if square is None or square == "#":
            continue
        if move.kind == "!":
            marks.setdefault(square, "!")
        else:
            marks[square] = "o"
    return marks


def describe_turn(state: State) -> Text:
    """One line on the rider to play: type, section, allowance, wind, bottle (MC-4.2)."""
    rid = state.current_rider
    if rid is None:
        team = state.current_player or "?"
        text = Text("Setup: team ")
        text.append(team, TEAM_STYLES.get(team, "bold"))
        text.append(" places a rider")
        return text
    a = state.assessment(rid)
    text = Text()
    text.append(rid, TEAM_STYLES.get(rid[0], "bold"))
    text.append(f" to play: {TYPE_NAMES[rid[1]]}")
    if a is not None:
        section = "start zone" if a.section == "start" else a.section
        text.append(f" in the {section}, allowance {a.allowance}")
        text.append(", against the wind" if a.against_wind else f", sheltered behind {a.leader}")
        if a.exhausted:
            text.append(", exhausted")
    text.append(", holds a bottle" if state.rider(rid).has_bottle else "")
    if any(m.kind == "!" for m in state.legal_moves()):
        text.append(" and may attack (+3, MC-7.2)")
    return text


def setup_listing(state: State) -> Text:
    """The unplaced riders of the team to place and the squares it may use (MC-3)."""
    team = state.current_player or ""
    unplaced = state.unplaced(team)
    squares = sorted(
        {m.square for m in state.legal_moves() if m.square}, key=_square_key, reverse=True
    )
    text = Text("Unplaced: ")
    text.append(" ".join(unplaced), TEAM_STYLES.get(team, "bold"))
    rows: dict[int, list[str]] = {}
    for sq in squares:
        rows.setdefault(int(sq[1:]), []).append(sq)
    text.append("\nAllowed squares (marked o): ")
    text.append(
        "; ".join(" ".join(sorted(names)) for _, names in sorted(rows.items(), reverse=True))
    )
    if unplaced:
        text.append(
            f"\nType RIDER@SQUARE (e.g. {unplaced[0]}@{squares[0]}) or a square for {unplaced[0]}."
        )
    return text


def _square_key(name: str) -> tuple[int, str]:
    return int(name[1:]), name[0]


def moves_listing(moves: list[Move]) -> Columns:
    """The numbered moves, packed into columns."""
    items = [Text.assemble((f"{i:>2}", "bold"), f" {m}") for i, m in enumerate(moves, start=1)]
    return Columns(items, padding=(0, 3))


def interpret(state: State, text: str, numbered: list[Move]) -> Move:
    """The legal move meant by ``text``; :class:`NotationError` or
    :class:`IllegalMoveError` with a message for the player otherwise."""
    text = text.strip()
    if text.isdigit():
        if state.in_setup:
            raise NotationError(f"{text!r}: in setup, type RIDER@SQUARE (e.g. AD1@c5) or a square")
        n = int(text)
        if not 1 <= n <= len(numbered):
            raise NotationError(f"there is no move number {n}; choose 1 to {len(numbered)}")
        return numbered[n - 1]
    move_text = _expand(state, text)
    return state.check(move_text)


def _expand(state: State, text: str) -> str:
    """Shorthands: ``c9``/``c9!``/``#`` for the rider to play, ``AD1 c8`` in setup."""
    pair = _PLACE_PAIR.fullmatch(text)
    if pair and state.in_setup:
        return f"{pair.group(1)}@{pair.group(2)}"
    if _SQUARE_ONLY.fullmatch(text):
        if state.in_setup:
            team = state.current_player or ""
            unplaced = state.unplaced(team)
            if unplaced and text[-1].isdigit():
                return f"{unplaced[0]}@{text}"
        elif state.current_rider:
            return f"{state.current_rider}-{text}"
    return text


def human_turn(state: State, console: Console, ask: Ask, redraw: Callable[[], None]) -> Move:
    """Ask the human at the terminal for a legal move (see the module docstring).

    Raises :class:`QuitGame` on ``q``; lets EOFError and KeyboardInterrupt through.
    """
    numbered = [] if state.in_setup else ordered_moves(state)

    def listing() -> None:
        console.print(describe_turn(state))
        if state.in_setup:
            console.print(setup_listing(state))
        else:
            console.print(moves_listing(numbered))
            console.print(ORDER_NOTE, style="grey62")

    listing()
    who = state.current_rider or f"team {state.current_player}"
    hint = "RIDER@SQUARE" if state.in_setup else f"1-{len(numbered)} or move"
    prompt = f"{who} ({hint}, ? help, q quit) > "
    return ask_move(
        console,
        ask,
        prompt,
        help_with_terms(HELP, state.game),
        listing,
        redraw,
        lambda line: interpret(state, line, numbered),
    )


def ask_move(
    console: Console,
    ask: Ask,
    prompt: str,
    help_text: RenderableType,
    listing: Callable[[], None],
    redraw: Callable[[], None],
    interpret_line: Callable[[str], T],
) -> T:
    """The prompt of a human's turn in any game: ask until ``interpret_line`` accepts
    a line (a refusal is printed and the prompt comes back), answering ``?``, ``b``
    (``redraw`` then ``listing``) and ``m`` (``listing``) on the way. Raises
    :class:`QuitGame` on ``q``; lets EOFError and KeyboardInterrupt through."""
    while True:
        line = ask(prompt).strip()
        word = line.lower()
        if not line:
            continue
        if word in QUIT_WORDS:
            raise QuitGame
        if word in HELP_WORDS:
            console.print(help_text, markup=False, highlight=False)
            continue
        if word in BOARD_WORDS:
            redraw()
            listing()
            continue
        if word in MOVES_WORDS:
            listing()
            continue
        try:
            return interpret_line(line)
        except (NotationError, IllegalMoveError) as exc:
            console.print(Text(f"✗ {exc}", "bold red"))
