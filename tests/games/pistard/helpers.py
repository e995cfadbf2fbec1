"""Shared helpers for the Pistard scenario tests.

Positions are written in the position text of :mod:`peloton.games.pistard.notation`;
riders a scenario does not name are ``out`` (eliminated), so that only the riders
that matter take part. Move sets are compared as sets of PI-5.2 texts.
"""

from __future__ import annotations

from collections.abc import Iterable

from peloton.games import pistard as pi

#: Lane a yellow, b green, c blue, d red on every row: rider n's colour is lane n.
STRIPES = pi.Layout.from_dict({"name": "stripes", "rows": ["ygbr"] * 40})
#: Every square red (rider 4's colour).
RED = pi.Layout.from_dict({"name": "red", "rows": ["rrrr"] * 40})


def position(riders: str, *, players: int = 2, rest: str = "") -> str:
    """A position text at round 2: ``riders`` (``"A1:1.c10,B1:1.a2"``), every other
    rider of ``players`` teams out, then ``rest`` (``" / A=3,B=0 / 2=1 / A"``)."""
    named = dict(entry.split(":", 1) for entry in riders.split(",")) if riders else {}
    entries = []
    for team in "ABCD"[:players]:
        for n in range(1, 5):
            rid = f"{team}{n}"
            entries.append(f"{rid}:{named.pop(rid, 'out')}")
    assert not named, f"unknown riders {named}"
    return f"2 {','.join(entries)}{rest}"


def at(
    riders: str, *, players: int = 2, rest: str = "", layout: object = STRIPES, **options: object
) -> pi.State:
    """The state of :func:`position` on ``layout`` (default: stripes)."""
    return pi.from_position(position(riders, players=players, rest=rest), layout=layout, **options)  # type: ignore[arg-type]


def texts(moves: Iterable[object]) -> set[str]:
    """The PI-5.2 texts of some moves."""
    return {str(m) for m in moves}


def legal(state: pi.State) -> set[str]:
    """The current legal moves as texts."""
    return texts(state.legal_moves())


def with_value(state: pi.State, value: int) -> set[str]:
    """The path parts (after ':') of the legal moves using a die ``value``."""
    return {str(m).split(":", 1)[1] for m in state.legal_moves() if m.value == value}


def play(state: pi.State, *moves: str) -> pi.State:
    """Play moves in order (each must be legal) and return the state."""
    for m in moves:
        state.play(m)
    return state
