"""Solo lines: the best line known for a bundled course, lines given as move texts, the
greedy bot's lines, and lines replayed round by round through the rules.

A bundled course may come with a record of its best known solo line for a team
(``courses/<course>-<team>.line.json`` beside the course). The solver replays it
through the rules and starts from it; whether it is optimal is still for the search to
prove (``peloton solve --from-scratch`` ignores it).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources

from ....core.errors import ConfigError, IllegalMoveError, NotationError
from ....core.rng import Rng
from ..course import Course, bundled_names
from ..move_scores import best_moves
from ..record import Record
from ..state import State

#: Greedy lines (one per seed) played for the first upper bound: on ``solo`` the
#: greedy bot's score varies with its tie-breaking seed.
GREEDY_LINES = 16


def known_line(
    course: Course, team: str, wind: str, relay_limit: int
) -> tuple[str, list[str]] | None:
    """``(file name, moves)`` of the line shipped for this bundled course, team and
    rules (played from the setup), or ``None``."""
    if course.name not in bundled_names() or course.to_dict() != Course.load(course.name).to_dict():
        return None  # not bundled, or a course file that only borrows a bundled name
    name = f"{course.name}-{team}.line.json"
    source = resources.files("peloton.games.mindcycling").joinpath("courses", name)
    if not source.is_file():
        return None
    record = Record.from_json(source.read_text("utf-8"))
    if record.teams != {"A": team} or record.wind != wind or record.relay_limit != relay_limit:
        return None
    if record.start is not None:
        return None
    return name, record.moves


def greedy_line(root: State, seed: int = 0) -> tuple[State, list[list[str]]]:
    """The line the greedy bot of this seed plays from ``root`` (a top move of the
    game's heuristics, ties broken by its seeded :class:`~peloton.core.rng.Rng`, as
    ``make_bot("greedy", seed)`` does): an upper bound to start from."""
    rng = Rng(seed)

    def choose(state: State) -> str:
        best = best_moves(state)
        return str(best[0] if len(best) == 1 else rng.choice(best))

    return play_rounds(root, choose)


def play_rounds(root: State, choose: Callable[[State], str]) -> tuple[State, list[list[str]]]:
    """Play from ``root`` to the end, moves chosen by ``choose``; the final state and
    the line grouped by round (setup first, if played)."""
    state = root.copy()
    state.history = []
    rounds: list[list[str]] = []
    current = state.round
    moves: list[str] = []
    while not state.is_over:
        move = choose(state)
        state.play(move)
        moves.append(move)
        if state.round != current or state.is_over:
            rounds.append(moves)
            moves = []
            current = state.round
    return state, rounds


def given_line(root: State, moves: list[str]) -> tuple[State, list[list[str]]]:
    """A line given as move texts from ``root`` (a record's), played through the rules
    to its end; :class:`ConfigError` if it breaks off or a move is refused."""
    texts = iter(moves)

    def next_move(state: State) -> str:
        text = next(texts, None)
        if text is None:
            raise ConfigError(
                f"the given line stops after {len(moves)} moves, before the race ends"
            )
        return text

    try:
        final, rounds = play_rounds(root, next_move)
    except (NotationError, IllegalMoveError) as exc:  # the rules refuse one of its moves
        raise ConfigError(
            f"the given line cannot be played from the solver's start: {exc}"
        ) from None
    if next(texts, None) is not None:
        raise ConfigError("the given line goes on after the race has ended")
    return final, rounds


def replay_line(root: State, rounds: list[list[str]]) -> State:
    """Play a line (moves grouped by round) from ``root`` through the engine."""
    state = root.copy()
    for moves in rounds:
        for move in moves:
            state.play(move)
    return state
