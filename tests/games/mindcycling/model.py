"""An independent, deliberately plain reference model of the Mind Cycling rules.

It re-states MC-3 to MC-9 square by square (tuples, sets, dicts; no bitmasks) straight
from the specification, so that the property tests can compare the engine's legal
moves, turn order, bottles, medals and end of game with it move after move. It shares
no code with the engine: only the course's public keys and the move texts.
"""

from __future__ import annotations

from dataclasses import dataclass

from peloton.games import mindcycling as mc

LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: MC-2.1
TABLE = {
    "D": {"plain": 7, "sprint": 5, "mountain": 5},
    "S": {"plain": 5, "sprint": 7, "mountain": 3},
    "C": {"plain": 5, "sprint": 3, "mountain": 7},
}
#: MC-7.2
OWN = {"D": "plain", "S": "sprint", "C": "mountain"}
#: MC-5.5: lane offset of the shelter square.
SHELTER = {"front": 0, "left": -1, "right": 1}

Square = tuple[int, int]  # (row, lane)


def name(sq: Square) -> str:
    return f"{LETTERS[sq[1]]}{sq[0]}"


def parse(text: str) -> Square:
    return (int(text[1:]), LETTERS.index(text[0]))


@dataclass
class Group:
    head: Square | None
    size: int
    closed: bool


class Model:
    """The rules as a slow, obvious state machine fed with move texts."""

    def __init__(
        self, course: mc.Course, teams: dict[str, str], wind: str, relay_limit: int
    ) -> None:
        self.course = course
        d = course.to_dict()
        self.lanes: int = d["lanes"]
        self.finish: int = d["finish"]
        self.tabs: list[tuple[int, str]] = [(r, k) for r, k in d["sections"]]
        self.rocks = {parse(s) for s in d["rocks"]}
        self.feed = {parse(s) for s in d["feed"]}
        self.teams = list(teams)
        self.solo = len(teams) == 1
        self.dl = SHELTER[wind]
        self.relay_limit = relay_limit
        self.ids: list[str] = []
        for t, comp in teams.items():
            for kind in "DSC":
                self.ids += [f"{t}{kind}{n}" for n in range(1, comp.count(kind) + 1)]
        self.unplaced = {t: [r for r in self.ids if r[0] == t] for t in self.teams}
        self.placed = 0
        self.pos: dict[str, Square] = {}
        self.bottles = {r for r in self.ids if r[1] == "D"}  # MC-2.4
        self.finished: list[str] = []
        self.medals: dict[str, str] = {}
        self.round = 0
        self.over = False
        self.current: str | None = None
        # Fixed by the assessment (MC-4.2):
        self.pos0: dict[str, Square] = {}
        self.bottles0: set[str] = set()
        self.leader0: dict[str, str] = {}
        self.follower0: dict[str, str] = {}
        self.train_place0: dict[str, int] = {}
        self.order: list[str] = []
        # Round bookkeeping:
        self.moved: set[str] = set()
        self.groups: list[Group] = []
        self.group_of: dict[str, int] = {}
        self.gave = False

    # ------------------------------------------------------------ course facts

    @property
    def start_rows(self) -> int:
        return self.tabs[0][0] - 1

    def section(self, row: int) -> str:
        """MC-1.2, MC-1.4: the start zone is plain."""
        kind = "plain"
        for r, k in self.tabs:
            if row >= r:
                kind = k
        return kind

    def last_row(self, kind: str) -> int | None:
        for i, (_, k) in enumerate(self.tabs):
            if k == kind:
                return (self.tabs[i + 1][0] if i + 1 < len(self.tabs) else self.finish) - 1
        return None

    def medal_lines(self) -> list[tuple[str, int]]:
        out = []
        for medal, kind in (("sprinter", "sprint"), ("climber", "mountain")):
            last = self.last_row(kind)
            if last is not None:
                out.append((medal, last))
        return out

    def on_road(self, sq: Square) -> bool:
        return 1 <= sq[0] < self.finish and 0 <= sq[1] < self.lanes

    def free(self, sq: Square) -> bool:
        return self.on_road(sq) and sq not in self.rocks and sq not in self.pos.values()

    def who(self, sq: Square) -> str | None:
        for r, s in self.pos.items():
            if s == sq:
                return r
        return None

    # ------------------------------------------------------------ setup (MC-3)

    def placing_team(self) -> str:
        return self.teams[self.placed % len(self.teams)]

    def placement_squares(self, team: str) -> list[Square]:
        rows = [self.start_rows] if self.solo else range(1, self.start_rows + 1)
        free = [
            (r, lane)
            for r in rows
            for lane in range(self.lanes)
            if (r, lane) not in self.pos.values()
        ]
        if self.solo:
            return free

        def ok(sq: Square) -> bool:
            for other in ((sq[0] + 1, sq[1]), (sq[0] - 1, sq[1])):
                rid = self.who(other)
                if rid is not None and rid[0] == team:
                    return False
            return True

        good = [sq for sq in free if ok(sq)]
        return good or free

    # ------------------------------------------------------------ the round

    def start_position(
        self,
        riders: dict[str, tuple[str, bool]],
        finished: list[str],
        medals: dict[str, str],
        round_: int,
    ) -> None:
        """Start from an MCN snapshot."""
        self.unplaced = {t: [] for t in self.teams}
        self.placed = len(self.ids)
        self.pos = {r: parse(sq) for r, (sq, _) in riders.items()}
        self.bottles = {r for r, (_, b) in riders.items() if b}
        self.finished = list(finished)
        self.medals = {("sprinter" if k == "sprint" else "climber"): v for k, v in medals.items()}
        if self.finished:
            self.medals["cyclist"] = self.finished[0]
        self.round = round_
        self.assess()
        if (
            (self.solo and len(self.finished) >= 4)
            or not self.pos
            or (not self.solo and self.decided())
        ):
            self.end()

    def assess(self) -> None:
        self.pos0 = dict(self.pos)
        self.bottles0 = {r for r in self.bottles if r in self.pos}
        self.leader0, self.follower0 = {}, {}
        for rid, (r, lane) in self.pos.items():
            x = self.who((r + 1, lane + self.dl))
            if x is not None:
                self.leader0[rid] = x
                self.follower0[x] = rid
        self.order = sorted(self.pos, key=lambda rid: (-self.pos[rid][0], self.pos[rid][1]))
        # MC-6.1: a rider's place is 1 + the links followed to the train's front rider.
        self.train_place0 = {}
        for rid in self.pos:
            if rid in self.leader0 or rid in self.follower0:
                n, x = 1, rid
                while x in self.leader0:
                    n, x = n + 1, self.leader0[x]
                self.train_place0[rid] = n
        self.moved = set()
        self.groups, self.group_of = [], {}
        self.gave = False
        self.current = self.order[0] if self.order else None

    def windy(self, rid: str) -> bool:
        return rid not in self.leader0

    def exhausted(self, rid: str) -> bool:
        return rid[1] == "D" and rid not in self.bottles0

    def allowance(self, rid: str) -> int:
        base = TABLE[rid[1]][self.section(self.pos0[rid][0])]
        return base - self.windy(rid) - self.exhausted(rid)

    def reach(self, start: Square, steps: int) -> set[str]:
        out: set[str] = set()
        frontier = {start[1]}
        for k in range(1, steps + 1):
            row = start[0] + k
            if row >= self.finish:
                out.add("#")
                break
            frontier = {m for x in frontier for m in (x - 1, x, x + 1) if self.free((row, m))}
            if not frontier:
                break
            out |= {name((row, m)) for m in frontier}
        return out

    def may_follow(self, y: str, x: str) -> bool:
        """MC-6.3 (b)-(d)."""
        if y[1] == "S" and self.section(self.pos0[y][0]) == "mountain":
            return False
        if self.exhausted(y):
            return False
        gi = self.group_of.get(x)
        return gi is not None and not self.groups[gi].closed

    def legal(self) -> set[str]:
        if self.over:
            return set()
        if self.round == 0:
            team = self.placing_team()
            return {
                f"{r}@{name(sq)}"
                for r in self.unplaced[team]
                for sq in self.placement_squares(team)
            }
        rid = self.current
        assert rid is not None
        here = self.pos[rid]
        moves: set[str] = set()
        if not self.gave and rid in self.bottles:
            mate = self.who((here[0] - 1, here[1]))
            if mate is not None and mate[0] == rid[0] and mate not in self.bottles:
                moves.add(f"{rid}>{mate}")
        allow = self.allowance(rid)
        moves |= {f"{rid}-{d}" for d in self.reach(here, allow)}
        own = self.section(self.pos0[rid][0]) == OWN[rid[1]]
        if own and rid in self.bottles0 and rid in self.bottles:
            moves |= {f"{rid}-{d}!" for d in self.reach(here, allow + 3)}
        x = self.leader0.get(rid)
        if x is not None and self.may_follow(rid, x):
            g = self.groups[self.group_of[x]]
            assert g.head is not None
            xr, xl = self.pos[x]  # MC-6.4: behind X where it stands now
            wheel = (xr - 1, xl - self.dl)
            if self.free(wheel):
                moves.add(f"{rid}-{name(wheel)}w")
            if self.train_place0[rid] <= self.relay_limit + 1:  # MC-6.5
                relay = (g.head[0] + 1, g.head[1] + self.dl)
                if 0 <= relay[1] < self.lanes:
                    if relay[0] >= self.finish:
                        moves.add(f"{rid}-#r")
                    elif self.free(relay):
                        moves.add(f"{rid}-{name(relay)}r")
        if not any(">" not in m for m in moves):
            moves.add(f"{rid}=")
        return moves

    # ------------------------------------------------------------ effects

    def play(self, text: str) -> None:
        if self.round == 0:
            rid, sq = text.split("@")
            self.unplaced[rid[0]].remove(rid)
            self.pos[rid] = parse(sq)
            self.placed += 1
            if self.placed == len(self.ids):
                self.round = 1
                self.assess()
            return
        rid = text[:3]
        rest = text[3:]
        if rest[0] == ">":
            self.bottles.discard(rid)
            self.bottles.add(rest[1:])
            self.gave = True
            return
        if rest == "=":
            self.end_turn(rid)
            return
        dest = rest[1:]
        kind = "-"
        if dest[-1] in "!wr":
            kind, dest = dest[-1], dest[:-1]
        crossed = dest == "#"
        old = self.pos[rid]
        new = (self.finish, old[1]) if crossed else parse(dest)
        if kind == "!":
            self.bottles.discard(rid)  # MC-7.2: thrown before riding
        if (
            kind in "-!"
            and not crossed
            and rid[1] == "D"
            and rid not in self.bottles
            and self.fed(old, new)
        ):
            self.bottles.add(rid)  # MC-7.5
        del self.pos[rid]
        for medal, last in self.medal_lines():  # MC-8.3
            if old[0] <= last < new[0] and medal not in self.medals:
                self.medals[medal] = rid
        if crossed:  # MC-8.1
            self.finished.append(rid)
            self.bottles.discard(rid)
            if len(self.finished) == 1:
                self.medals["cyclist"] = rid
        else:
            self.pos[rid] = new
        if kind in "-!":  # MC-6.2
            here = None if crossed else new
            self.groups.append(Group(here, 1, kind == "!" or crossed))
            self.group_of[rid] = len(self.groups) - 1
        else:
            gi = self.group_of[self.leader0[rid]]
            g = self.groups[gi]
            g.size += 1
            if kind == "r":
                g.head = new
                g.closed = g.closed or crossed
            self.group_of[rid] = gi
        self.end_turn(rid)

    def fed(self, old: Square, new: Square) -> bool:
        """MC-7.5: does some path from old to new enter a feed square?"""
        layer = {old[1]: False}
        for row in range(old[0] + 1, new[0] + 1):
            nxt: dict[int, bool] = {}
            for lane, got in layer.items():
                for m in (lane - 1, lane, lane + 1):
                    if self.free((row, m)):
                        nxt[m] = nxt.get(m, False) or got or (row, m) in self.feed
            layer = nxt
        return layer.get(new[1], False)

    def decided(self) -> bool:
        """MC-8.5."""
        if not self.pos:
            return True
        return len(self.finished) >= 12 and all(m in self.medals for m, _ in self.medal_lines())

    def end(self) -> None:
        self.over = True
        self.current = None

    def end_turn(self, rid: str) -> None:
        self.moved.add(rid)
        self.gave = False
        if not self.solo and self.decided():
            self.end()
            return
        y = self.follower0.get(rid)  # MC-4.4
        if y is not None and y not in self.moved and self.may_follow(y, rid):
            self.current = y
            return
        for r in self.order:  # MC-4.5
            if r not in self.moved:
                self.current = r
                return
        if (self.solo and len(self.finished) >= 4) or not self.pos:  # MC-9.3
            self.end()
            return
        self.round += 1
        self.assess()
