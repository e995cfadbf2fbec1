"""Move notation (PI-5.2) and position notation (PI-5.1).

A :class:`Move` is a tiny immutable tuple whose ``str()`` is exactly the PI-5.2 text;
:func:`parse_move` is its inverse:

* ``roll:3,5,5,6``: a chance step, the dice of one player's roll, ascending;
* ``A3=5``: in the first move (PI-2.2), give a 5 to rider A3;
* ``A3=5:c22``: use a 5, end on c22; ``A3=5:c22+c23``: then bonus squares
  (PI-3.4/3.5); ``A3=5:-``: use a 5 and stay (no free square ahead).

A position (:class:`Position`) is the start of a later round written as text::

    ROUND RIDERS / POINTS / LAPS / LAST
    5 A1:2.c17,A2:1.a5,A3:out,A4:start,B1:2.b12,... / A=3,B=2 / 2=2 / A,B

``RIDERS`` gives every rider as ``ID:LAP.SQUARE`` (PI-5.1), ``ID:start`` (still
behind the start line) or ``ID:out`` (eliminated, PI-4.1); ``POINTS`` each player's
points; ``LAPS`` how many riders already crossed the line into lap ``k`` (up to 3,
PI-4.2); ``LAST`` the players who have scored, the one whose rider scored last
first (PI-4.3 ties). ``-`` stands for an empty part; the last three parts may be
left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.errors import NotationError
from .riders import RIDER_RE, TEAM_LETTERS

ROLL, ASSIGN, RIDE = "roll", "assign", "ride"
#: Bonus squares a move may add: one shelter square and two colour squares (PI-3.5).
MAX_BONUS = 3
MAX_DICE = 4


class Move(tuple[str, str, int, tuple[str, ...], tuple[int, ...]]):
    """A Pistard move: ``kind`` (``roll``, ``assign``, ``ride``), ``rider``, die
    ``value``, ``path`` (end square then bonus squares; empty: the rider stays) and
    ``dice`` (a roll). Compares, hashes and prints like its notation."""

    __slots__ = ()

    #: The game this move belongs to (the core ``Move`` protocol).
    game = "pistard"

    def __new__(
        cls,
        kind: str,
        rider: str = "",
        value: int = 0,
        path: tuple[str, ...] = (),
        dice: tuple[int, ...] = (),
    ) -> Move:
        return tuple.__new__(cls, (kind, rider, value, path, dice))

    @classmethod
    def roll(cls, dice: tuple[int, ...]) -> Move:
        """The chance move of a roll (dice sorted ascending)."""
        return cls(ROLL, dice=tuple(sorted(dice)))

    @classmethod
    def assign(cls, rider: str, value: int) -> Move:
        """A first-move assignment (PI-2.2)."""
        return cls(ASSIGN, rider, value)

    @classmethod
    def ride(cls, rider: str, value: int, path: tuple[str, ...] = ()) -> Move:
        """A later-turn move (PI-3.2): die ``value``, end square and bonus squares."""
        return cls(RIDE, rider, value, path)

    @property
    def kind(self) -> str:
        """``roll``, ``assign`` or ``ride``."""
        return self[0]

    @property
    def rider(self) -> str:
        """The rider that moves (empty for a roll)."""
        return self[1]

    @property
    def value(self) -> int:
        """The die value used (0 for a roll)."""
        return self[2]

    @property
    def path(self) -> tuple[str, ...]:
        """End square then bonus squares; empty when the rider cannot move."""
        return self[3]

    @property
    def dice(self) -> tuple[int, ...]:
        """A roll's dice, ascending."""
        return self[4]

    @property
    def end(self) -> str | None:
        """The square the rider finally stops on, ``None`` if it stays."""
        return self[3][-1] if self[3] else None

    @property
    def bonus(self) -> tuple[str, ...]:
        """The bonus squares (after the end of the die's path)."""
        return self[3][1:]

    def __str__(self) -> str:
        kind, rider, value, path, dice = self
        if kind == ROLL:
            return "roll:" + ",".join(map(str, dice))
        if kind == ASSIGN:
            return f"{rider}={value}"
        return f"{rider}={value}:{'+'.join(path) or '-'}"

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


_SQ = r"[a-d][1-9][0-9]*"
_MOVE_RE = re.compile(
    r"roll:(?P<dice>[1-6](?:,[1-6])*)"
    rf"|(?P<rider>{RIDER_RE.pattern})=(?P<value>[1-6])"
    rf"(?::(?P<path>-|{_SQ}(?:\+{_SQ})*))?"
)


def parse_move(text: str) -> Move:
    """Parse PI-5.2 move text (exact, case-sensitive); :class:`NotationError` if not."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, not {text!r}")
    m = _MOVE_RE.fullmatch(text)
    if m is None:
        raise NotationError(f"{text!r} is not a Pistard move ({_why_not(text)})")
    if m.group("dice"):
        dice = tuple(int(d) for d in m.group("dice").split(","))
        if len(dice) > MAX_DICE:
            raise NotationError(f"{text!r} rolls {len(dice)} dice; a player has at most {MAX_DICE}")
        if list(dice) != sorted(dice):
            raise NotationError(
                f"{text!r}: a roll lists its dice in ascending order, e.g. roll:2,3,5,6"
            )
        return Move(ROLL, dice=dice)
    rider, value = m.group("rider"), int(m.group("value"))
    path = m.group("path")
    if path is None:
        return Move(ASSIGN, rider, value)
    squares = () if path == "-" else tuple(path.split("+"))
    if len(squares) > 1 + MAX_BONUS:
        raise NotationError(f"{text!r} has {len(squares) - 1} bonus squares; at most {MAX_BONUS}")
    return Move(RIDE, rider, value, squares)


def _why_not(text: str) -> str:
    if text.startswith("roll"):
        return "a roll is 'roll:' and 1 to 4 dice values 1-6, ascending, e.g. roll:3,5,5,6"
    if not RIDER_RE.fullmatch(text[:2]):
        return "it must start with 'roll:' or a rider id: team A-D and number 1-4, e.g. A3"
    if text[2:3] != "=":
        return "after the rider id comes '=' and a die value 1-6, e.g. A3=5"
    return "expected forms: roll:3,5,5,6, A3=5, A3=5:c22, A3=5:c22+c23, A3=5:-"


# ----------------------------------------------------------------- positions

START, OUT = "start", "out"


@dataclass
class Position:
    """A parsed position text: the start of round ``round`` (syntax only; the state
    checks that the position is possible). ``riders`` maps an id to ``(lap, square)``,
    or to ``(0, "start")`` / ``(0, "out")``."""

    round: int
    riders: dict[str, tuple[int, str]] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    laps: dict[int, int] = field(default_factory=dict)
    #: Players who scored, the one whose rider scored last first (PI-4.3 ties).
    last: list[str] = field(default_factory=list)

    def to_text(self) -> str:
        """Canonical position text."""
        riders = ",".join(
            f"{rid}:{sq}" if lap == 0 else f"{rid}:{lap}.{sq}"
            for rid, (lap, sq) in sorted(self.riders.items())
        )
        points = ",".join(f"{t}={p}" for t, p in sorted(self.points.items()))
        laps = ",".join(f"{k}={n}" for k, n in sorted(self.laps.items()) if n)
        return f"{self.round} {riders or '-'} / {points or '-'} / {laps or '-'} / {','.join(self.last) or '-'}"


_ENTRY_RE = re.compile(rf"({RIDER_RE.pattern}):(?:([1-9][0-9]*)\.({_SQ})|(start|out))")
_NUMBER = re.compile(r"0|[1-9][0-9]*")


def parse_position(text: str) -> Position:
    """Parse position text into a :class:`Position`; :class:`NotationError` quoting it."""
    if not isinstance(text, str):
        raise NotationError(f"a position must be text, not {text!r}")
    parts = [p.strip() for p in text.split("/")]
    if len(parts) > 4:
        raise NotationError(f"position {text!r} has {len(parts)} '/'-separated parts; at most 4")
    head = parts[0].split()
    if len(head) != 2:
        raise NotationError(
            f"position {text!r} must start with 'ROUND RIDERS', e.g. '2 A1:1.a5,A2:1.b4,...'"
        )
    if not re.fullmatch(r"[1-9][0-9]*", head[0]) or int(head[0]) < 2:
        raise NotationError(
            f"position round {head[0]!r} must be a whole number from 2 (round 1 is the first move)"
        )
    pos = Position(int(head[0]))
    if head[1] != "-":
        for entry in head[1].split(","):
            m = _ENTRY_RE.fullmatch(entry)
            if m is None:
                raise NotationError(
                    f"position rider {entry!r} must look like 'A3:2.c17', 'A3:start' or 'A3:out'"
                )
            rid = m.group(1)
            if rid in pos.riders:
                raise NotationError(f"position lists rider {rid} twice")
            pos.riders[rid] = (int(m.group(2)), m.group(3)) if m.group(2) else (0, m.group(4))
    if len(parts) > 1 and parts[1] not in ("-", ""):
        for item in parts[1].split(","):
            team, _, number = item.strip().partition("=")
            if team not in TEAM_LETTERS or len(team) != 1 or not _NUMBER.fullmatch(number):
                raise NotationError(f"position points {item!r} must be 'TEAM=POINTS', e.g. 'A=3'")
            if team in pos.points:
                raise NotationError(f"position gives team {team} points twice")
            pos.points[team] = int(number)
    if len(parts) > 2 and parts[2] not in ("-", ""):
        for item in parts[2].split(","):
            lap, _, count = item.strip().partition("=")
            if (
                not re.fullmatch(r"[1-9][0-9]*", lap)
                or int(lap) < 2
                or count not in ("0", "1", "2", "3")
            ):
                raise NotationError(
                    f"position lap count {item!r} must be 'LAP=N' with lap 2 or more and N 0-3, e.g. '2=3'"
                )
            if int(lap) in pos.laps:
                raise NotationError(f"position counts lap {lap} twice")
            pos.laps[int(lap)] = int(count)
    if len(parts) > 3 and parts[3] not in ("-", ""):
        for team in (s.strip() for s in parts[3].split(",")):
            if len(team) != 1 or team not in TEAM_LETTERS:
                raise NotationError(
                    f"position scorer {team!r} must be a team letter A-D ({parts[3]!r})"
                )
            if team in pos.last:
                raise NotationError(f"position lists scorer {team} twice")
            pos.last.append(team)
    return pos
