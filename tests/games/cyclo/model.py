"""An independent reference model of Cyclo's road race, written from the specification
(CY-0 … CY-10, CY-13, CY-14, CY-19), not from the engine.

It is deliberately plain and slow: the riders are a list of small records with a
position and a lane index, and everything (room, order, partners, followers, fall
picks) is recomputed from that list each time it is needed. A move is text; the model
lists the legal texts of the moment and plays one. ``tests/games/cyclo/test_model.py``
plays random games on the engine and on this model side by side and compares them after
every move.

Modes ``classic``, ``leg``, ``itt``, ``ttt``; levels ``pro`` and ``starter``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import combinations, combinations_with_replacement
from typing import Any

# CY-1.1: dice, token panels (sprinter, climber, helper), what the ground allows.
DICE = {
    "start": 2,
    "flat": 2,
    "climb": 1,
    "top": 3,
    "cobbles": 2,
    "slope": 1,
    "end": 2,
    "lastkm": 2,
}
PANEL = {
    "start": (2, 2, 2),
    "flat": (2, 2, 2),
    "climb": (0, 2, 1),
    "top": (1, 1, 1),
    "cobbles": (1, 1, 2),
    "slope": (1, 1, 1),
    "end": (2, 2, 2),
    "lastkm": (2, 1, 1),
}
ROUGH = {"climb", "cobbles", "slope"}  # no wheel, no swap (CY-1.1, CY-5.1, CY-6.1)
NO_HOLD = {"cobbles", "slope"}  # no holding back (CY-1.1)
BACK = {"cobbles": 3, "slope": 1}  # dark-square penalty (CY-1.1, CY-4.6)

# CY-7.1, in table order.
CARDS = (
    ("recovery", 3),
    ("bidon", 4),
    ("cars", 3),
    ("moto", 2),
    ("hunger", 3),
    ("puncture", 4),
    ("technical", 3),
    ("fall", 2),
)
CARD_IDS = tuple(c for c, _ in CARDS)
LIMIT_TYPES = {
    "bidon": {"cobbles", "slope"},
    "cars": {"climb", "cobbles", "slope"},
    "moto": {"climb", "cobbles", "slope"},
    "technical": {"lastkm"},
}

# CY-9.3.
SPRINT_POINTS = (5, 3, 2, 1)
FINISH_POINTS = (15, 10, 5, 3, 2, 1)
MOUNTAIN_POINTS = {
    "3": (3, 2, 1),
    "2": (5, 3, 2, 1),
    "1": (7, 5, 3, 2, 1),
    "HC": (10, 7, 5, 3, 2, 1),
}

KINDS = ("S1", "C1", "H1", "H2")  # CY-2.2, also the tie order of CY-19.3
TYPE_NAME = {"S": "sprinter", "C": "climber", "H": "helper"}
TIMED = {"itt", "ttt"}
LANES = "abcdefghijklmnopqrstuvwxyz"


class ModelError(Exception):
    """The model was asked to play a move it does not list as legal."""


class Spot:
    """One course position 1 … N: its type, width, darkness, event mark and board."""

    def __init__(self, kind: str, width: int, dark: bool, event: bool, board: str) -> None:
        self.kind = kind
        self.width = width
        self.dark = dark
        self.event = event
        self.board = board


class ModelCourse:
    """A course flattened into a plain list of spots, from its full dict (CY-1.4)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.spots: list[Spot] = []
        self.lines: list[tuple[int, str, str | None]] = []  # (after, kind, category)
        start = int(data.get("start", 1))
        for index, board in enumerate(data["boards"]):
            kinds: list[tuple[str, int]] = []
            for kind, count, width in board["runs"]:
                kinds += [(kind, width)] * count
            dark = set(board.get("dark", []))
            events = set(board.get("events", []))
            first = start if index == 0 else 1
            offset = len(self.spots) - (first - 1)  # board space k is course position k + offset
            for k in range(first, len(kinds) + 1):
                kind, width = kinds[k - 1]
                self.spots.append(Spot(kind, width, k in dark, k in events, board["name"]))
            for line in board.get("lines", []):
                after = line[0] + offset
                if after >= 1:
                    self.lines.append((after, line[1], line[2] if len(line) > 2 else None))
        self.n = len(self.spots)
        self.boards = len(data["boards"])
        self.lines.sort()

    def spot(self, position: int) -> Spot:
        return self.spots[position - 1]


class MRider:
    """One rider: where it is and what it carries."""

    def __init__(self, rid: str) -> None:
        self.id = rid
        self.team = rid[0]
        self.kind = rid[1:]
        self.pos: int | None = 0  # None once it has left the run-out
        self.lane = 0
        self.tokens = 0
        self.skip = False
        self.tech = False
        self.hunger = 0
        self.points = 0
        self.red = 0
        self.finished = False
        self.fin_round = 0
        self.past = 0
        self.own_time: int | None = None

    @property
    def type_name(self) -> str:
        return TYPE_NAME[self.kind[0]]

    @property
    def racing(self) -> bool:
        return self.pos is not None


class Model:
    """A Cyclo road game, played by move texts."""

    def __init__(self, course: Mapping[str, Any], mode: str, level: str, events: bool) -> None:
        self.course = ModelCourse(course)
        self.mode = mode
        self.level = level
        self.events = events
        self.pro = level == "pro"
        self.riders: list[MRider] = []
        self.teams: list[str] = []
        self.team_tokens: dict[str, int] = {}
        self.drawn: list[str] = []  # since the last reshuffle (CY-7.6)
        self.round = 1
        # the lines that keep a list: the scoring lines (leg only, CY-8.1), then the finish
        self.scoring = [ln for ln in self.course.lines if mode == "leg"]
        self.lists: list[list[str]] = [[] for _ in self.scoring]
        self.finish_list: list[str] = []
        self.crossed: list[set[str]] = [set() for _ in self.scoring]
        self.crossed_finish: set[str] = set()
        self.order: list[str] = []
        self.over_turns: set[str] = set()
        self.swapped: set[str] = set()
        self.phase = "roll"
        self.due: str | None = None
        self.over = False
        self.dice_k = 0
        self.dice: tuple[int, ...] = ()
        self.proposer = ""
        self.leader = ""
        self.lead_from = 0
        self.lead_to = 0
        self.asked: list[str] = []
        self.draws: list[str] = []
        self.round_cyn = ""
        self.turn_started = False  # has any rider begun a turn (past a skip) this round

    # ----------------------------------------------------------------- setting up

    @classmethod
    def new(
        cls,
        course: Mapping[str, Any],
        mode: str,
        teams: Iterable[str],
        level: str = "pro",
        events: bool = False,
        saved: Mapping[str, int] | None = None,
    ) -> Model:
        """A new game, everyone on the start line (CY-2.4, CY-2.5)."""
        m = cls(course, mode, level, events)
        m.teams = list(teams)
        saved = dict(saved or {})
        b = m.course.boards
        for kind in KINDS:
            for team in m.teams:
                m.riders.append(MRider(team + kind))
        # lanes on the line: S1 of every team in seat order, then C1, … within a world
        for r in m.riders:
            before = [o for o in m.riders[: m.riders.index(r)] if m.world(o) == m.world(r)]
            r.lane = len(before)
            r.tokens = min(5, b + saved.get(r.id, 0)) if m.pro else 0
        m.riders.sort(key=lambda r: r.id)
        m.team_tokens = {t: (min(5, b) if m.pro else 0) for t in m.teams}
        m._begin_round()
        return m

    @classmethod
    def from_cyn(
        cls, text: str, course: Mapping[str, Any], mode: str, level: str, events: bool
    ) -> Model:
        """A game from a CYN position (CY-14.2), assumed valid."""
        m = cls(course, mode, level, events)
        head, _, rest = text.partition(" ")
        m.round = int(head)
        parts = [p.strip() for p in rest.split("/")]
        parts += ["-"] * (5 - len(parts))
        riders, teams, done, lines, deck = parts
        pat = re.compile(
            r"^([A-F][SCH][12]):([a-z])(#?)(\d+)(?:\*(\d+))?(s?)(x?)(?:h(\d))?(?:\+(\d+))?(?:\^(\d+))?$"
        )
        for item in _items(riders):
            g = pat.match(item)
            assert g, item
            r = MRider(g[1])
            r.lane = LANES.index(g[2])
            r.pos = int(g[4]) + (m.course.n if g[3] else 0)
            r.tokens = int(g[5] or 0)
            r.skip, r.tech = bool(g[6]), bool(g[7])
            r.hunger = int(g[8] or 0)
            r.points, r.red = int(g[9] or 0), int(g[10] or 0)
            m.riders.append(r)
        done_pat = re.compile(
            r"^([A-F][SCH][12]):(\d+)\.(\d+)(?:=(\d+))?(?:\*(\d+))?(?:\+(\d+))?(?:\^(\d+))?$"
        )
        for item in _items(done):
            g = done_pat.match(item)
            assert g, item
            r = MRider(g[1])
            r.pos = None
            r.finished = True
            r.fin_round, r.past = int(g[2]), int(g[3])
            r.own_time = int(g[4]) if g[4] else None
            r.tokens = int(g[5] or 0)
            r.points, r.red = int(g[6] or 0), int(g[7] or 0)
            m.riders.append(r)
            m.finish_list.append(r.id)
        m.riders.sort(key=lambda r: r.id)
        m.teams = sorted({r.team for r in m.riders})
        m.team_tokens = {t: 0 for t in m.teams}
        for item in _items(teams):
            m.team_tokens[item[0]] = int(item[2:])
        for item in _items(lines):
            k, _, ids = item.partition("=")
            m.lists[int(k) - 1] = ids.split("+")
        m.drawn = _items(deck)
        m._begin_round()
        return m

    # ----------------------------------------------------------------- looking up

    def rider(self, rid: str) -> MRider:
        for r in self.riders:
            if r.id == rid:
                return r
        raise KeyError(rid)

    def world(self, r: MRider) -> str:
        """CY-2.6: one world on the road, a rider in itt, a team in ttt."""
        if self.mode == "itt":
            return r.id
        if self.mode == "ttt":
            return r.team
        return "all"

    def kind_at(self, position: int) -> str:
        """The track type deciding dice, panel and holding back (CY-19.4: the start line
        reads position 1)."""
        return self.course.spot(max(position, 1)).kind

    def cap(self) -> int:
        return self.course.n + 9

    def others_at(self, r: MRider, position: int) -> list[MRider]:
        """Racing riders of r's world on a position, r itself left out (CY-19.5)."""
        return [
            o
            for o in self.riders
            if o is not r and o.pos == position and self.world(o) == self.world(r)
        ]

    def free_lane(self, r: MRider, position: int) -> int | None:
        """The lowest free lane for r on a position (CY-4.5); the start line and the
        run-out take the next lane letter."""
        taken = {o.lane for o in self.others_at(r, position)}
        if position == 0 or position > self.course.n:
            return max(taken) + 1 if taken else 0
        for lane in range(self.course.spot(position).width):
            if lane not in taken:
                return lane
        return None

    def square(self, r: MRider) -> str | None:
        if r.pos is None:
            return None
        if r.pos > self.course.n:
            return f"{LANES[r.lane]}#{r.pos - self.course.n}"
        return f"{LANES[r.lane]}{r.pos}"

    def text_pos(self, position: int) -> str:
        n = self.course.n
        return f"#{position - n}" if position > n else str(position)

    def racing(self) -> list[MRider]:
        return [r for r in self.riders if r.racing]

    # ----------------------------------------------------------------- order

    def _round_order(self) -> list[str]:
        racing = [r for r in self.racing() if not r.finished]
        seat = {t: i for i, t in enumerate(self.teams)}

        def place(r: MRider) -> tuple[int, int]:
            assert r.pos is not None
            return (-r.pos, r.lane)

        if self.round == 1 or self.mode in TIMED:  # CY-3.1, CY-19.3
            key = [(seat[r.team], *place(r), KINDS.index(r.kind)) for r in racing]
        else:  # CY-3.2
            key = [(*place(r), 0, 0) for r in racing]
        return [r.id for _, r in sorted(zip(key, racing, strict=True), key=lambda kr: kr[0])]

    # ----------------------------------------------------------------- legal moves

    def legal(self) -> list[str]:
        if self.over:
            return []
        x = self.rider(self.due) if self.due else None
        if self.phase == "swap":
            assert x is not None
            return [f"{x.id}~-"] + [f"{x.id}~{y.id}" for y in self.partners(x)]
        if self.phase == "answer":
            return [f"{self.due}~yes", f"{self.due}~no"]
        if self.phase == "roll":
            return [
                "roll:" + ",".join(map(str, c))
                for c in combinations_with_replacement(range(1, 7), self.dice_k)
            ]
        if self.phase == "ride":
            assert x is not None
            return self.rides(x)
        if self.phase == "wheel":
            return [f"{self.due}>{self.leader}", f"{self.due}>-"]
        if self.phase == "draw":
            return [f"draw:{c}" for c, n in self.left().items() if n] or [
                f"draw:{c}" for c in CARD_IDS
            ]
        if self.phase == "fall":
            assert x is not None
            return self.fall_picks(x)
        raise AssertionError(self.phase)

    def partners(self, x: MRider) -> list[MRider]:
        """CY-6.1: who X may propose a swap to."""
        if not self.pro or x.id in self.swapped or x.pos is None or x.pos < 1:
            return []
        if self.kind_at(x.pos) in ROUGH:
            return []
        out = []
        for y in self.riders:
            if y is x or y.pos is None or self.world(y) != self.world(x):
                continue
            if y.pos not in (x.pos, x.pos - 1) or y.pos < 1 or y.pos > self.course.n:
                continue
            if y.id in self.over_turns or y.skip or y.id in self.swapped:
                continue
            if self.kind_at(y.pos) in ROUGH:
                continue
            out.append(y)
        return out

    def dice_count(self, x: MRider) -> int:
        """CY-4.2."""
        assert x.pos is not None
        if x.hunger:
            return 1
        kind = self.kind_at(x.pos)
        k = 3 if kind == "lastkm" and x.kind == "S1" else DICE[kind]
        if x.tech:
            k -= 1
        return max(1, k)

    def token_choices(self, x: MRider) -> list[str]:
        """CY-4.3."""
        out = [""]
        if not self.pro or x.tech:
            return out
        assert x.pos is not None
        panel = PANEL[self.kind_at(x.pos)]["SCH".index(x.kind[0])]
        own, team = x.tokens, self.team_tokens.get(x.team, 0)
        for choice in ("r", "t", "rr", "rt", "tt"):
            if len(choice) > panel:
                continue
            if choice.count("r") <= own and choice.count("t") <= team:
                out.append(choice)
        return out

    def rides(self, x: MRider) -> list[str]:
        """CY-4.4: every (target, tokens) pair."""
        assert x.pos is not None
        s = x.pos
        kind = self.kind_at(s)
        bonus = 1 if x.kind == "C1" and kind == "climb" else 0
        hold = self.pro and kind not in NO_HOLD
        out = []
        for choice in self.token_choices(x):
            total = sum(self.dice) + bonus + 6 * len(choice)
            targets = range(s + 1, s + total + 1) if hold else [s + total]
            seen = set()
            for t in targets:
                t = min(t, self.cap())
                if t <= s:
                    t = s
                if t in seen:
                    continue
                seen.add(t)
                out.append(f"{x.id}-{self.text_pos(t)}" + (f"/{choice}" if choice else ""))
        return out

    def followers(self) -> list[MRider]:
        """CY-5.1, asked in lane order (CY-5.2)."""
        x = self.rider(self.leader)
        s, e = self.lead_from, self.lead_to
        if not self.pro or e <= s or s - 1 < 1:
            return []
        out = []
        for y in self.riders:
            if y is x or y.pos != s - 1 or self.world(y) != self.world(x):
                continue
            if y.id in self.over_turns or y.skip:
                continue
            if self.kind_at(y.pos) in ROUGH:
                continue
            out.append(y)
        return sorted(out, key=lambda y: y.lane)

    def fall_picks(self, d: MRider) -> list[str]:
        """CY-7.5."""
        assert d.pos is not None
        n = self.course.n
        pool = [
            o
            for o in self.riders
            if o is not d
            and o.pos is not None
            and 1 <= o.pos <= n
            and self.world(o) == self.world(d)
            and (o.team == d.team or o.pos == d.pos)
        ]
        out = ["fall:-"]
        for size in (1, 2):
            for pick in combinations(sorted(pool, key=lambda o: o.id), size):
                spots = [d.pos] + [o.pos for o in pick if o.pos is not None]
                if max(spots) - min(spots) <= 2:
                    out.append("fall:" + ",".join(o.id for o in pick))
        return out

    def left(self) -> dict[str, int]:
        return {c: n - self.drawn.count(c) for c, n in CARDS}

    # ----------------------------------------------------------------- status

    @property
    def current_player(self) -> str | None:
        if self.over:
            return None
        if self.phase in ("roll", "draw"):
            return "chance"
        assert self.due is not None
        return self.due[0]

    def chance_text(self, rng: Any) -> str:
        """CY-13.2: what ``chance_move(rng)`` draws."""
        if self.phase == "roll":
            return "roll:" + ",".join(map(str, sorted(rng.roll(self.dice_k))))
        left = self.left()
        if not any(left.values()):
            left = dict(CARDS)
        pool = [c for c, n in left.items() for _ in range(n)]
        return f"draw:{rng.choice(pool)}"

    # ----------------------------------------------------------------- playing

    def play(self, text: str) -> None:
        if text not in self.legal():
            raise ModelError(f"{text!r} not legal in the model (phase {self.phase})")
        self.turn_started = True
        if self.phase == "swap":
            self._swap(text)
        elif self.phase == "answer":
            self._answer(text.endswith("~yes"))
        elif self.phase == "roll":
            self.dice = tuple(int(v) for v in text[5:].split(","))
            self.phase = "ride"
        elif self.phase == "ride":
            self._ride(text)
        elif self.phase == "wheel":
            self._wheel(not text.endswith(">-"))
        elif self.phase == "draw":
            self._draw(text[5:])
        elif self.phase == "fall":
            self._fall(text[5:])

    def _start_roll(self, x: MRider) -> None:
        self.due = x.id
        self.phase = "roll"
        self.dice_k = self.dice_count(x)

    def _swap(self, text: str) -> None:
        x = self.rider(self.due or "")
        other = text.split("~")[1]
        if other == "-":
            self._start_roll(x)
            return
        y = self.rider(other)
        self.proposer = x.id
        if y.team == x.team:  # CY-6.3: a teammate swaps at once
            self._exchange(x, y)
        else:
            self.due = y.id
            self.phase = "answer"

    def _answer(self, yes: bool) -> None:
        x = self.rider(self.proposer)
        y = self.rider(self.due or "")
        if yes:
            self._exchange(x, y)
        else:
            self._start_roll(x)

    def _exchange(self, x: MRider, y: MRider) -> None:
        """CY-6.4: squares and slots; Y rides now, without a window."""
        x.pos, y.pos = y.pos, x.pos
        x.lane, y.lane = y.lane, x.lane
        i, j = self.order.index(x.id), self.order.index(y.id)
        self.order[i], self.order[j] = self.order[j], self.order[i]
        self.swapped |= {x.id, y.id}
        self._start_roll(y)

    def _ride(self, text: str) -> None:
        x = self.rider(self.due or "")
        body, _, choice = text.partition("/")
        target = body[len(x.id) + 1 :]
        t = self.course.n + int(target[1:]) if target.startswith("#") else int(target)
        x.tokens -= choice.count("r")
        self.team_tokens[x.team] -= choice.count("t")
        x.tech = False
        if x.hunger:
            x.hunger -= 1
        self.over_turns.add(x.id)
        assert x.pos is not None
        s = x.pos
        self.move(x, t)
        assert x.pos is not None
        self.leader, self.lead_from, self.lead_to = x.id, s, x.pos
        self.draws = [x.id] if self._draws_card(x, s) else []
        self.asked = [] if len(choice) == 2 else [y.id for y in self.followers()]
        self._ask_or_draw()

    def _draws_card(self, r: MRider, start: int) -> bool:
        """CY-7.2: an event space reached, having changed space."""
        return (
            self.events
            and r.pos is not None
            and r.pos != start
            and 1 <= r.pos <= self.course.n
            and self.course.spot(r.pos).event
        )

    def _ask_or_draw(self) -> None:
        if self.asked:
            self.due = self.asked[0]
            self.phase = "wheel"
            return
        self._next_draw()

    def _wheel(self, follow: bool) -> None:
        y = self.rider(self.asked.pop(0))
        if follow:
            self.asked = []
            self.over_turns.add(y.id)
            assert y.pos is not None
            start = y.pos
            self.move(y, min(self.lead_to - 1, self.cap()))
            if self._draws_card(y, start):
                self.draws.append(y.id)
        self._ask_or_draw()

    def _next_draw(self) -> None:
        if self.draws:
            self.due = self.draws[0]
            self.phase = "draw"
            return
        self._next_turn()

    def _draw(self, card: str) -> None:
        if not any(self.left().values()):  # CY-7.6, lazily (CY-19.9)
            self.drawn = []
        self.drawn.append(card)
        d = self.rider(self.draws.pop(0))
        assert d.pos is not None
        spot = self.course.spot(d.pos) if 1 <= d.pos <= self.course.n else None
        limited = spot is not None and (
            (card == "recovery" and spot.board == "A1") or spot.kind in LIMIT_TYPES.get(card, set())
        )
        if not limited:
            if card == "recovery":
                if self.pro:
                    d.tokens = min(5, d.tokens + 1)
                else:
                    self.move(d, min(d.pos + 6, self.cap()))
            elif card == "bidon":
                self.move(d, min(d.pos + 2, self.cap()))
            elif card == "moto":
                self.move(d, min(d.pos + 4, self.cap()))
            elif card == "cars":
                p = d.pos
                ahead = [
                    o.pos
                    for o in self.riders
                    if o.pos is not None
                    and p < o.pos <= self.course.n
                    and self.world(o) == self.world(d)
                ]
                if ahead:
                    self.move(d, min(min(ahead), p + 8))
            elif card == "hunger":
                if self.pro:
                    if d.tokens:
                        d.tokens -= 1
                    elif self.team_tokens.get(d.team, 0):
                        self.team_tokens[d.team] -= 1
                elif not d.hunger:
                    d.hunger = 2
            elif card == "puncture":
                d.skip = True
            elif card == "technical":
                d.tech = True
            elif card == "fall":
                self.due = d.id
                self.phase = "fall"
                return
        self._next_draw()

    def _fall(self, picks: str) -> None:
        d = self.rider(self.due or "")
        d.skip = True
        if picks != "-":
            for rid in picks.split(","):
                self.rider(rid).skip = True
        self._next_draw()

    def move(self, r: MRider, target: int) -> None:
        """Room (CY-4.5), dark squares (CY-4.6), crossings (CY-4.7)."""
        assert r.pos is not None
        s = r.pos
        for q in range(target, s, -1):
            lane = self.free_lane(r, q)
            if lane is not None:
                r.pos, r.lane = q, lane
                break
        else:
            return  # no room: it stays on its square
        q = r.pos
        if q != s and q <= self.course.n and self.course.spot(q).dark:
            bound = max(1, q - BACK[self.course.spot(q).kind])
            below = list(range(bound, 0, -1)) + list(range(bound + 1, q + 1))
            for p in below:
                lane = self.free_lane(r, p)
                if lane is not None:
                    r.pos, r.lane = p, lane
                    break
        end = r.pos
        for i, (after, _, _) in enumerate(self.scoring):
            if s <= after < end:
                self.crossed[i].add(r.id)
        if s <= self.course.n < end:
            self.crossed_finish.add(r.id)
            r.finished = True

    def _next_turn(self) -> None:
        while True:
            nxt = next((rid for rid in self.order if rid not in self.over_turns), None)
            if nxt is None:
                self._end_round()
                if self.over:
                    return
                continue
            x = self.rider(nxt)
            if x.skip:  # CY-3.4
                x.skip = False
                self.over_turns.add(x.id)
                continue
            self.due = x.id
            if self.partners(x):
                self.phase = "swap"
            else:
                self._start_roll(x)
            return

    # ----------------------------------------------------------------- rounds

    def _begin_round(self) -> None:
        self.order = self._round_order()
        self.over_turns = set()
        self.swapped = set()
        self.crossed = [set() for _ in self.scoring]
        self.crossed_finish = set()
        self.round_cyn = self.to_cyn()
        self.turn_started = False
        self._next_turn()

    def _rank(self, ids: Iterable[str]) -> list[str]:
        """CY-8.2: higher position first, then lower lane (then seat, then S1 C1 H1 H2)."""
        seat = {t: i for i, t in enumerate(self.teams)}

        def key(rid: str) -> tuple[int, int, int, int]:
            r = self.rider(rid)
            assert r.pos is not None
            return (-r.pos, r.lane, seat[r.team], KINDS.index(r.kind))

        return sorted(ids, key=key)

    def _end_round(self) -> None:
        """CY-3.5."""
        n = self.course.n
        for i, (_, kind, cat) in enumerate(self.scoring):
            new = self._rank(rid for rid in self.crossed[i] if rid not in self.lists[i])
            table = SPRINT_POINTS if kind == "sprint" else MOUNTAIN_POINTS[cat or "3"]
            for rid in new:
                place = len(self.lists[i])
                self.lists[i].append(rid)
                if place < len(table):
                    if kind == "sprint":
                        self.rider(rid).points += table[place]
                    else:
                        self.rider(rid).red += table[place]
        new = self._rank(rid for rid in self.crossed_finish if rid not in self.finish_list)
        for rid in new:
            r = self.rider(rid)
            assert r.pos is not None
            place = len(self.finish_list)
            self.finish_list.append(rid)
            r.fin_round, r.past = self.round, r.pos - n
            if self.mode in TIMED:
                r.own_time = 10 * self.round - r.past
            if self.mode == "leg" and place < len(FINISH_POINTS):
                r.points += FINISH_POINTS[place]
        for r in self.riders:
            if r.pos is not None and r.pos > n:
                r.pos = None
        if not any(r.racing for r in self.riders) or self.round >= 300:
            self.over = True
            self.phase = "over"
            self.due = None
            return
        self.round += 1
        self._begin_round()

    # ----------------------------------------------------------------- times and result

    def leg_times(self) -> dict[str, int]:
        """CY-9.1, CY-9.2 (CY-19.10)."""
        done = [self.rider(rid) for rid in self.finish_list]
        if not done:
            return {}
        r0 = min(r.fin_round for r in done)
        times: dict[str, int] = {}
        previous: MRider | None = None
        for r in done:
            if r.fin_round == r0:
                times[r.id] = 0
            elif (
                previous is not None
                and previous.fin_round == r.fin_round
                and r.past in (previous.past, previous.past - 1)
            ):
                times[r.id] = times[previous.id]
            else:
                times[r.id] = 10 * (r.fin_round - r0) - r.past
            previous = r
        return times

    def own_times(self) -> dict[str, int]:
        """CY-10.2 (kept in CYN, CY-19.15)."""
        return {rid: self.rider(rid).own_time or 0 for rid in self.finish_list}

    def team_times(self) -> dict[str, int]:
        """CY-10.3: the third-best own time of a team with three riders in."""
        if self.mode != "ttt":
            return {}
        own = self.own_times()
        out = {}
        for team in self.teams:
            mine = sorted(t for rid, t in own.items() if rid[0] == team)
            if len(mine) >= 3:
                out[team] = mine[2]
        return out

    def times(self) -> dict[str, int]:
        if self.mode == "leg":
            return self.leg_times()
        if self.mode == "itt":
            return self.own_times()
        if self.mode == "ttt":
            team = self.team_times()
            return {rid: team.get(rid[0], t) for rid, t in self.own_times().items()}
        return {}

    def result(self) -> dict[str, Any]:
        """CY-8.6 for the road: places, winner, teams, times, points, tokens."""
        seat = {t: i for i, t in enumerate(self.teams)}
        racing = [r.id for r in self.racing() if not r.finished]
        racing = self._rank(racing)
        if self.mode in TIMED:
            times = self.times()
            finished = sorted(
                self.finish_list, key=lambda rid: (times[rid], seat[rid[0]], KINDS.index(rid[1:]))
            )
        else:
            finished = list(self.finish_list)
        onrun = self._rank(r.id for r in self.racing() if r.finished)
        places = finished + onrun + racing
        team_times = self.team_times()
        if self.mode == "ttt":
            timed = sorted(
                (t for t in self.teams if t in team_times), key=lambda t: (team_times[t], seat[t])
            )
            rest = [t for t in self.teams if t not in team_times]
            rest.sort(key=lambda t: next(i for i, rid in enumerate(places) if rid[0] == t))
            teams = timed + rest
        else:
            teams = sorted(
                self.teams, key=lambda t: next(i for i, rid in enumerate(places) if rid[0] == t)
            )
        winner = places[0] if self.over and self.mode != "ttt" else None
        return {
            "places": places,
            "winner": winner,
            "winner_team": teams[0] if self.over else None,
            "teams": teams,
            "times": self.times(),
            "team_times": team_times,
            "points": {r.id: r.points for r in self.riders} if self.mode == "leg" else {},
            "mountain": {r.id: r.red for r in self.riders} if self.mode == "leg" else {},
            "tokens_left": {r.id: r.tokens for r in self.riders},
            "over": self.over,
        }

    # ----------------------------------------------------------------- notation

    def to_cyn(self) -> str:
        """CY-14.2, as the round begins."""
        riders = []
        for r in sorted(self.riders, key=lambda r: r.id):
            if r.pos is None:
                continue
            text = f"{r.id}:{self.square(r)}"
            text += f"*{r.tokens}" if r.tokens else ""
            text += "s" if r.skip else ""
            text += "x" if r.tech else ""
            text += f"h{r.hunger}" if r.hunger else ""
            text += f"+{r.points}" if r.points else ""
            text += f"^{r.red}" if r.red else ""
            riders.append(text)
        teams = [f"{t}*{n}" for t, n in sorted(self.team_tokens.items()) if n]
        done = []
        for rid in self.finish_list:
            r = self.rider(rid)
            text = f"{rid}:{r.fin_round}.{r.past}"
            text += f"={r.own_time}" if self.mode in TIMED else ""
            text += f"*{r.tokens}" if r.tokens else ""
            text += f"+{r.points}" if r.points else ""
            text += f"^{r.red}" if r.red else ""
            done.append(text)
        lines = [f"{i + 1}={'+'.join(ids)}" for i, ids in enumerate(self.lists) if ids]
        deck = [c for c in CARD_IDS for _ in range(self.drawn.count(c))]
        parts = [",".join(p) or "-" for p in (riders, teams, done, lines, deck)]
        return f"{self.round} " + " / ".join(parts)


def _items(part: str) -> list[str]:
    part = part.strip()
    return [] if part in ("", "-") else part.split(",")
