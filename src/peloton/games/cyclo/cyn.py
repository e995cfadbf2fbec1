"""Position notation, CYN (CY-14.2): a position at the start of a round as text.

``ROUND RIDERS / TEAMS / DONE / LINES / DECK``; ``-`` writes an empty part and trailing
parts may be left out::

    9 AH1:a69*4+3,BC1:a70*4+5 / A*4,B*3 / - / 1=BC1+AH1 / moto,puncture

* RIDERS, in id order: ``ID:SQUARE`` then ``*n`` own tokens, ``s`` skip, ``x``
  technical, ``h1``/``h2`` hunger rides left, ``+n`` points, ``^n`` red points; then
  the keirin pacer ``P:n`` while it rides;
* TEAMS: team tokens, ``A*4,B*3``;
* DONE: finished riders ``ID:r.p`` (round r, p past the line) in finishing order,
  then eliminated ones ``ID:out``, each followed by ``=t`` (its own time, in the timed
  modes), ``*n``, ``+n``, ``^n``;
* LINES: ``k=ID+ID…``, the list of the k-th scoring line;
* DECK: the cards drawn since the last reshuffle, in table order.

This module is syntax only (:func:`parse_cyn`, :meth:`Cyn.to_text`); whether a
position is possible is checked by ``from_cyn`` against the game's course and mode.

>>> cyn = parse_cyn("9 AH1:a69*4+3,BC1:a70*4+5 / A*4,B*3 / - / 1=BC1+AH1 / moto,puncture")
>>> cyn.riders["AH1"].position, cyn.team_tokens, cyn.lines, cyn.deck
(69, {'A': 4, 'B': 3}, {1: ['BC1', 'AH1']}, ['moto', 'puncture'])
>>> cyn.to_text()
'9 AH1:a69*4+3,BC1:a70*4+5 / A*4,B*3 / - / 1=BC1+AH1 / moto,puncture'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.errors import NotationError
from .cards import CARD_IDS
from .riders import LANE_LETTERS, RIDER_RE

_ID = RIDER_RE.pattern
_N = r"[1-9][0-9]*"
_RIDER = re.compile(
    rf"(?P<id>{_ID}):(?P<lane>[a-z])(?P<pos>0|{_N})(?:\*(?P<tok>{_N}))?(?P<s>s)?(?P<x>x)?"
    rf"(?:h(?P<h>[12]))?(?:\+(?P<pts>{_N}))?(?:\^(?P<red>{_N}))?"
)
_PACER = re.compile(r"P:(0|[1-9][0-9]*)")
_TEAM = re.compile(rf"(?P<team>[A-F])\*(?P<tok>{_N})")
_DONE = re.compile(
    rf"(?P<id>{_ID}):(?:(?P<round>{_N})\.(?P<past>{_N})|(?P<out>out))(?:=(?P<time>0|{_N}))?"
    rf"(?:\*(?P<tok>{_N}))?(?:\+(?P<pts>{_N}))?(?:\^(?P<red>{_N}))?"
)
_LINE = re.compile(rf"(?P<k>{_N})=(?P<ids>{_ID}(?:\+{_ID})*)")


@dataclass
class RiderEntry:
    """A racing rider of a CYN: square (lane index, position), tokens and flags."""

    lane: int
    position: int
    tokens: int = 0
    skip: bool = False
    technical: bool = False
    hunger: int = 0
    points: int = 0
    red: int = 0

    def to_text(self, rider: str) -> str:
        out = f"{rider}:{LANE_LETTERS[self.lane]}{self.position}"
        if self.tokens:
            out += f"*{self.tokens}"
        out += "s" * self.skip + "x" * self.technical
        if self.hunger:
            out += f"h{self.hunger}"
        return out + _scores(self.points, self.red)


@dataclass
class DoneEntry:
    """A finished (``round``, ``past``) or eliminated (both None) rider of a CYN."""

    rider: str
    round: int | None
    past: int | None
    time: int | None = None
    tokens: int = 0
    points: int = 0
    red: int = 0

    @property
    def finished(self) -> bool:
        return self.round is not None

    def to_text(self) -> str:
        out = f"{self.rider}:{self.round}.{self.past}" if self.finished else f"{self.rider}:out"
        if self.time is not None:
            out += f"={self.time}"
        if self.tokens:
            out += f"*{self.tokens}"
        return out + _scores(self.points, self.red)


def _scores(points: int, red: int) -> str:
    return (f"+{points}" if points else "") + (f"^{red}" if red else "")


@dataclass
class Cyn:
    """A parsed CYN (syntax checked; possibility is ``from_cyn``'s business)."""

    round: int
    riders: dict[str, RiderEntry] = field(default_factory=dict)
    pacer: int | None = None
    team_tokens: dict[str, int] = field(default_factory=dict)
    done: list[DoneEntry] = field(default_factory=list)
    #: Scoring line number (1-based, course order) -> its list.
    lines: dict[int, list[str]] = field(default_factory=dict)
    deck: list[str] = field(default_factory=list)

    def holdings(self) -> list[tuple[str, int, int, int]]:
        """Every rider named, racing or done, with its own tokens, points and red points."""
        out = [(rider, e.tokens, e.points, e.red) for rider, e in self.riders.items()]
        return out + [(e.rider, e.tokens, e.points, e.red) for e in self.done]

    def to_text(self) -> str:
        """The canonical text, all five parts written."""
        riders = [entry.to_text(rid) for rid, entry in sorted(self.riders.items())]
        if self.pacer is not None:
            riders.append(f"P:{self.pacer}")
        teams = ",".join(f"{t}*{n}" for t, n in sorted(self.team_tokens.items()) if n)
        done = ",".join(entry.to_text() for entry in self.done)
        lines = ",".join(f"{k}={'+'.join(ids)}" for k, ids in sorted(self.lines.items()) if ids)
        deck = ",".join(self.deck)
        return f"{self.round} {','.join(riders) or '-'} / {teams or '-'} / {done or '-'} / {lines or '-'} / {deck or '-'}"


def parse_cyn(text: str) -> Cyn:
    """Parse CYN text; :class:`NotationError` quoting it and saying what is wrong."""
    if not isinstance(text, str):
        raise NotationError(f"a CYN position must be text, not {text!r}")

    def bad(why: str) -> NotationError:
        return NotationError(f"CYN {text!r}: {why}")

    parts = [p.strip() for p in text.split("/")]
    if len(parts) > 5:
        raise bad(
            f"it has {len(parts)} '/'-separated parts; at most 5 (ROUND RIDERS / TEAMS / DONE / LINES / DECK)"
        )
    parts += ["-"] * (5 - len(parts))
    head = parts[0].split()
    if len(head) != 2:
        raise bad("it must start with 'ROUND RIDERS', e.g. '9 AS1:a30*4,BH1:a29*4'")
    if not re.fullmatch(_N, head[0]):
        raise bad(f"the round {head[0]!r} must be a whole number from 1 without leading zeros")
    cyn = Cyn(int(head[0]))
    if head[1] != "-":
        entries = head[1].split(",")
        for i, item in enumerate(entries):
            pacer = _PACER.fullmatch(item)
            if pacer is not None and i == len(entries) - 1:
                cyn.pacer = int(pacer.group(1))
                continue
            m = _RIDER.fullmatch(item)
            if m is None:
                raise bad(
                    f"rider {item!r} must look like 'AS1:a30', then *n tokens, s, x, h1/h2, +n, ^n "
                    "in that order (the keirin pacer 'P:n' comes last)"
                )
            rid = m.group("id")
            if rid in cyn.riders:
                raise bad(f"rider {rid} is listed twice")
            if cyn.riders and rid < max(cyn.riders):
                raise bad(f"riders are listed in id order: {rid} comes before {max(cyn.riders)}")
            cyn.riders[rid] = RiderEntry(
                LANE_LETTERS.index(m.group("lane")),
                int(m.group("pos")),
                _int(m.group("tok")),
                bool(m.group("s")),
                bool(m.group("x")),
                _int(m.group("h")),
                _int(m.group("pts")),
                _int(m.group("red")),
            )
    if parts[1] != "-":
        for item in parts[1].split(","):
            m = _TEAM.fullmatch(item)
            if m is None:
                raise bad(
                    f"team tokens {item!r} must look like 'A*4' (teams with none are left out)"
                )
            team = m.group("team")
            if cyn.team_tokens and team <= max(cyn.team_tokens):
                raise bad(f"team tokens are listed once each, in team order ({parts[1]!r})")
            cyn.team_tokens[team] = int(m.group("tok"))
    if parts[2] != "-":
        seen: set[str] = set()
        for item in parts[2].split(","):
            m = _DONE.fullmatch(item)
            if m is None:
                raise bad(
                    f"done rider {item!r} must look like 'AS1:14.5' (round.past) or 'AS1:out', "
                    "then =t, *n, +n, ^n in that order"
                )
            rid = m.group("id")
            if rid in seen:
                raise bad(f"done rider {rid} is listed twice")
            seen.add(rid)
            out = m.group("out") is not None
            if not out and cyn.done and not cyn.done[-1].finished:
                raise bad(f"finished riders come before eliminated ones ({item!r})")
            cyn.done.append(
                DoneEntry(
                    rid,
                    None if out else int(m.group("round")),
                    None if out else int(m.group("past")),
                    None if m.group("time") is None else int(m.group("time")),
                    _int(m.group("tok")),
                    _int(m.group("pts")),
                    _int(m.group("red")),
                )
            )
    if parts[3] != "-":
        for item in parts[3].split(","):
            m = _LINE.fullmatch(item)
            if m is None:
                raise bad(f"line list {item!r} must look like '1=BC1+AH1'")
            k = int(m.group("k"))
            if k in cyn.lines:
                raise bad(f"line {k} is written twice")
            if cyn.lines and k < max(cyn.lines):
                raise bad(
                    f"LINES lists the scoring lines in line order: line {k} comes before line {max(cyn.lines)}"
                )
            cyn.lines[k] = m.group("ids").split("+")
    if parts[4] != "-":
        deck = parts[4].split(",")
        for card in deck:
            if card not in CARD_IDS:
                raise bad(f"unknown card {card!r} in DECK (cards: {', '.join(CARD_IDS)})")
        if deck != sorted(deck, key=CARD_IDS.index):
            raise bad(f"DECK lists the cards drawn in table order ({', '.join(CARD_IDS)})")
        cyn.deck = deck
    return cyn


def _int(text: str | None) -> int:
    return 0 if text is None else int(text)
