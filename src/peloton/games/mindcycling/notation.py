"""Move notation (MC-10.1) and position notation, MCN (MC-10.2).

A :class:`Move` is a tiny immutable tuple ``(kind, rider, square, target)``; its
``str()`` is exactly the MC-10.1 text and :func:`parse_move` is its inverse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.errors import NotationError
from .riders import RIDER_ID_RE

PLACE, MOVE, ATTACK, WHEEL, RELAY, GIVE, STAY = "@", "-", "!", "w", "r", ">", "="
FINISH = "#"

_SUFFIX = {MOVE: "", ATTACK: "!", WHEEL: "w", RELAY: "r"}
_KIND_OF_SUFFIX = {"": MOVE, "!": ATTACK, "w": WHEEL, "r": RELAY}


class Move(tuple[str, str, str | None, str | None]):
    """A Mind Cycling move: ``kind`` (one of ``@ - ! w r > =``), ``rider``, ``square``
    (``"c9"``, ``"#"`` for across the finish line, ``None``) and ``target`` (the rider
    receiving a bottle). Compare, hash and print like the notation text."""

    __slots__ = ()

    #: The game this move belongs to (the core ``Move`` protocol).
    game = "mind-cycling"

    def __new__(
        cls, kind: str, rider: str, square: str | None = None, target: str | None = None
    ) -> Move:
        return tuple.__new__(cls, (kind, rider, square, target))

    @property
    def kind(self) -> str:
        """One of ``@`` place, ``-`` move, ``!`` attack, ``w`` wheel, ``r`` relay,
        ``>`` give, ``=`` stay."""
        return self[0]

    @property
    def rider(self) -> str:
        """The id of the rider that moves (or gives)."""
        return self[1]

    @property
    def square(self) -> str | None:
        """The destination square name, ``"#"`` beyond the finish line, else ``None``."""
        return self[2]

    @property
    def target(self) -> str | None:
        """The teammate who receives the bottle in a give move."""
        return self[3]

    @property
    def crosses(self) -> bool:
        """Whether this move takes the rider across the finish line."""
        return self[2] == FINISH

    def __str__(self) -> str:
        kind, rider, sq, target = self
        if kind == PLACE:
            return f"{rider}@{sq}"
        if kind == GIVE:
            return f"{rider}>{target}"
        if kind == STAY:
            return f"{rider}="
        return f"{rider}-{sq}{_SUFFIX[kind]}"

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


_SQ = r"[a-z][1-9][0-9]*"
_MOVE_RE = re.compile(
    rf"(?P<rider>{RIDER_ID_RE.pattern})(?:"
    rf"@(?P<place>{_SQ})"
    rf"|-(?P<dest>{_SQ}|#)(?P<suffix>[!wr]?)"
    rf"|>(?P<target>{RIDER_ID_RE.pattern})"
    rf"|(?P<stay>=))"
)


def parse_move(text: str) -> Move:
    """Parse MC-10.1 move text (exact, case-sensitive); :class:`NotationError` if not."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, not {text!r}")
    m = _MOVE_RE.fullmatch(text)
    if m is None:
        raise NotationError(f"{text!r} is not a Mind Cycling move ({_why_not(text)})")
    rider = m.group("rider")
    if m.group("place"):
        return Move(PLACE, rider, m.group("place"))
    if m.group("dest"):
        return Move(_KIND_OF_SUFFIX[m.group("suffix")], rider, m.group("dest"))
    if m.group("target"):
        return Move(GIVE, rider, None, m.group("target"))
    return Move(STAY, rider)


def _why_not(text: str) -> str:
    head = text[:3]
    if not RIDER_ID_RE.fullmatch(head):
        return "it must start with a rider id: team A-G, type D/S/C, ordinal, e.g. AD1"
    rest = text[3:]
    if not rest:
        return "a rider id alone is not a move"
    if rest[0] not in "@->=":
        return "after the rider id comes @ (place), - (move), > (give) or = (stay)"
    return "expected forms: AD1@c3, AD1-c9, AS1-c20!, AC1-c8w, AD2-c11r, AD1-#, AD1>AS1, BC1="


# ----------------------------------------------------------------------- MCN


@dataclass
class Position:
    """A parsed MCN snapshot (MC-10.2): the start of round ``round``."""

    round: int
    riders: dict[str, tuple[str, bool]] = field(default_factory=dict)  # id -> (square, bottle)
    finished: list[str] = field(default_factory=list)
    medals: dict[str, str] = field(default_factory=dict)  # "sprint"/"mountain" -> id

    def to_text(self) -> str:
        """Canonical MCN text."""
        riders = ",".join(
            f"{rid}:{sq}{'+' if bottle else ''}"
            for rid, (sq, bottle) in sorted(self.riders.items())
        )
        medals = ",".join(
            f"{k}={self.medals[k]}" for k in ("sprint", "mountain") if k in self.medals
        )
        return f"{self.round} {riders or '-'} / {','.join(self.finished) or '-'} / {medals or '-'}"


_RIDER_ENTRY_RE = re.compile(rf"({RIDER_ID_RE.pattern}):({_SQ})(\+?)")


def parse_mcn(text: str) -> Position:
    """Parse MCN text into a :class:`Position` (syntax only; the state checks the rest)."""
    if not isinstance(text, str):
        raise NotationError(f"a position must be text, not {text!r}")
    parts = [p.strip() for p in text.split("/")]
    if len(parts) > 3:
        raise NotationError(f"MCN {text!r} has {len(parts)} '/'-separated parts; at most 3")
    head = parts[0].split()
    if len(head) != 2:
        raise NotationError(
            f"MCN {text!r} must start with 'ROUND RIDERS', e.g. '3 AD1:c12+,BS1:d12 / - / -'"
        )
    round_text, riders_text = head
    if not re.fullmatch(r"[1-9][0-9]*", round_text):
        raise NotationError(f"MCN round {round_text!r} must be a whole number from 1")
    pos = Position(int(round_text))
    if riders_text != "-":
        for entry in riders_text.split(","):
            m = _RIDER_ENTRY_RE.fullmatch(entry.strip())
            if m is None:
                raise NotationError(f"MCN rider {entry!r} must look like 'AD1:c12' or 'AD1:c12+'")
            rid = m.group(1)
            if rid in pos.riders:
                raise NotationError(f"MCN lists rider {rid} twice")
            pos.riders[rid] = (m.group(2), m.group(3) == "+")
    if len(parts) > 1 and parts[1] not in ("-", ""):
        for rid in (s.strip() for s in parts[1].split(",")):
            if not RIDER_ID_RE.fullmatch(rid):
                raise NotationError(f"MCN finished rider {rid!r} is not a rider id")
            if rid in pos.riders or rid in pos.finished:
                raise NotationError(f"MCN lists rider {rid} twice")
            pos.finished.append(rid)
    if len(parts) > 2 and parts[2] not in ("-", ""):
        for item in (s.strip() for s in parts[2].split(",")):
            key, _, rid = item.partition("=")
            if key not in ("sprint", "mountain") or not RIDER_ID_RE.fullmatch(rid):
                raise NotationError(f"MCN medal {item!r} must be 'sprint=ID' or 'mountain=ID'")
            if key in pos.medals:
                raise NotationError(f"MCN awards the {key} medal twice")
            pos.medals[key] = rid
    return pos
