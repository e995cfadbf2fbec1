"""What the server still knows of Mind Cycling's first shape: the one module of the
server that names a game.

The server began as Mind Cycling's table, before ``docs/games.md`` existed; some of
that history is part of the protocol and the storage, and three pieces of the game
contract are not exported by Mind Cycling's package yet:

* **History, kept for good** (docs/protocol.md): a create request, a stored row or an
  uploaded record without a ``game`` is the first game's (:data:`FIRST_GAME`); the
  first schema kept that game's options in columns of their own, which
  :func:`options_from_first_columns` turns into the one ``options`` column.
* **Contract pieces the package does not export yet** (:data:`PROVIDED`, read through
  :func:`peloton.server.games.contract` only when the package lacks the name):
  ``options_of`` (a state's effective options: the solo game changes the course and
  riders defaults), ``RECORD_KIND_KEY`` (its records call a seat's kind
  ``controller``), and ``solve_solo`` (its solver lives outside the package). Each is
  written against the package's public API, so that it can move into the package as
  it is; then its entry here goes.
"""

from __future__ import annotations

from typing import Any

#: The game of the protocol's first version: requests, rows and records without a game.
FIRST_GAME = "mind-cycling"

_PACKAGE = "peloton.games.mindcycling"


def options_from_first_columns(
    course: dict[str, Any],
    teams: dict[str, str],
    riders: int,
    wind: str,
    relay_limit: int,
    solo: bool,
) -> dict[str, Any]:
    """The ``options`` of a table stored by the first schema, from its own columns."""
    return {
        "players": 1 if solo else len(teams),
        "course": course,
        "riders": riders,
        "wind": wind,
        "relay_limit": relay_limit,
    }


def _options_of(state: Any) -> dict[str, Any]:
    """Every option of a Mind Cycling game as it was made (the course as an object: a
    table replays on the course it was created with, whatever the bundled files become)."""
    return {
        "players": len(state.teams),
        "course": state.course.to_dict(),
        "riders": len(next(iter(state.teams.values()))),
        "wind": state.wind,
        "relay_limit": state.relay_limit,
    }


def _solve_solo(state: Any, seconds: float) -> dict[str, Any]:
    """The solo solver's best line for a solo game's course, team and rules (JSON)."""
    from ..solver import solve

    team = next(iter(state.teams.values()))
    solution = solve(
        state.course, team, wind=state.wind, relay_limit=state.relay_limit, time_limit=seconds
    )
    answer: dict[str, Any] = solution.to_dict()
    return answer


#: ``{package: {contract name: value}}``: what a package does not export yet.
PROVIDED: dict[str, dict[str, Any]] = {
    _PACKAGE: {
        "options_of": _options_of,
        "RECORD_KIND_KEY": "controller",
        "solve_solo": _solve_solo,
    },
}
