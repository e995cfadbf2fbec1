"""Teams and riders (CY-2.2): teams are letters ``A`` … ``F`` in seat order; a team of
k riders fields the first k of ``S1`` (sprinter), ``C1`` (climber), ``H1``, ``H2``
(helpers).

>>> team_riders("B", 4)
('BS1', 'BC1', 'BH1', 'BH2')
>>> rider_type("AC1"), start_order(("A", "B"), 2)
('climber', ('AS1', 'BS1', 'AC1', 'BC1'))
"""

from __future__ import annotations

import re

from .terrain import CLIMBER, HELPER, SPRINTER

TEAM_LETTERS = "ABCDEF"
#: A team's riders in the order it fields them.
SLOTS = ("S1", "C1", "H1", "H2")
RIDER_RE = re.compile(r"[A-F](?:S1|C1|H1|H2)")
#: Lane letters: 24 riders at most stand on the start line (6 teams of 4).
LANE_LETTERS = "abcdefghijklmnopqrstuvwxyz"

_TYPES = {"S": SPRINTER, "C": CLIMBER, "H": HELPER}


def team_riders(team: str, count: int) -> tuple[str, ...]:
    """The ids of a team of ``count`` riders."""
    return tuple(team + slot for slot in SLOTS[:count])


def rider_type(rider: str) -> str:
    """``sprinter``, ``climber`` or ``helper``."""
    return _TYPES[rider[1]]


def slot_index(rider: str) -> int:
    """A rider's place in its team's order S1, C1, H1, H2."""
    return SLOTS.index(rider[1:])


def start_order(teams: tuple[str, ...], count: int) -> tuple[str, ...]:
    """CY-2.5: the riders' order on the start line: S1 of every team in seat order,
    then every C1, H1, H2."""
    return tuple(team + slot for slot in SLOTS[:count] for team in teams)
