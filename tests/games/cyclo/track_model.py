"""An independent reference model of Cyclo's track events (CY-1.6, CY-2, CY-11, CY-19),
written from the rules, not from the engine: the road model (``model.py``) with the
velodrome's geometry, dice, tokens, pacer, lines, points, eliminations and team times.

Like the road model it is plain and slow: which lanes are free on a loop space is
recomputed from the list of riders each time. ``test_track_model.py`` plays random
track events on the engine and on this model side by side.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .model import KINDS, LANES, Model, MRider, Spot

#: CY-2.1: teams (low, high) and riders a team (None: the option ``entries``).
SEATS = {
    "sprint": (2, 2, 1),
    "team-sprint": (1, 2, 3),
    "pursuit": (1, 2, 1),
    "team-pursuit": (1, 2, 4),
    "keirin": (2, 6, None),
    "scratch": (2, 6, None),
    "elimination": (2, 6, None),
    "tempo": (2, 6, None),
    "points": (2, 6, None),
}
TRACK_TIMED = {"pursuit", "team-pursuit", "team-sprint"}
TEAM_TIMED = {"team-pursuit", "team-sprint"}


class TrackCourse:
    """The velodrome for one event: D, its lines and the loop (CY-1.6, CY-11.2)."""

    def __init__(self, lap: int, width: int, mode: str, riders: int) -> None:
        half = lap // 2
        self.lap, self.width, self.boards = lap, width, 0
        # (distance D, 3 dice from, line every k spaces, line points, finish points)
        table: dict[str, tuple[int, int | None, int | None, tuple[int, ...], tuple[int, ...]]]
        table = {
            "sprint": (2 * lap, lap, None, (), ()),
            "keirin": (2 * lap, lap, None, (), ()),
            "scratch": (3 * lap, 2 * lap, None, (), ()),
            "elimination": ((riders - 1) * half, None, half, (), ()),
            "tempo": (5 * lap, None, half, (2, 1), (2, 1)),
            "points": (6 * lap, None, lap, (5, 3, 2, 1), (15, 9, 6, 3)),
            "pursuit": (2 * lap, None, None, (), ()),
            "team-pursuit": (2 * lap, None, None, (), ()),
            "team-sprint": (3 * lap, None, None, (), ()),
        }
        self.n, self.three, every, pays, self.finish_pays = table[mode]
        kind = "elimination" if mode == "elimination" else "sprint"
        self.lines: list[tuple[int, str, str | None]] = (
            [(k, kind, None) for k in range(every, self.n, every)] if every else []
        )
        self.pays = []
        for i in range(len(self.lines)):
            factor = 2 if mode == "points" and i == 2 else 1  # the 3rd sprint pays double
            self.pays.append(tuple(factor * p for p in pays))

    def spot(self, position: int) -> Spot:
        return Spot("track", self.width, False, False, "")

    def loop(self, distance: int) -> int:
        return (distance - 1) % self.lap + 1


class TrackModel(Model):
    """A track event, played by move texts."""

    def __init__(self, velodrome: Mapping[str, Any], mode: str, level: str, riders: int) -> None:
        super().__init__({"boards": []}, "track", level, False)
        self.mode = mode
        self.course = TrackCourse(int(velodrome["lap"]), int(velodrome["width"]), mode, riders)
        self.scoring = list(self.course.lines)
        self.lists = [[] for _ in self.scoring]
        self.crossed = [set() for _ in self.scoring]
        self.out: list[str] = []
        self.pacer: int | None = None

    @classmethod
    def new_event(
        cls,
        mode: str,
        teams: Iterable[str],
        level: str = "pro",
        entries: int = 1,
        velodrome: Mapping[str, Any] | None = None,
    ) -> TrackModel:
        """A new track event, everyone on the start line (CY-2.4, CY-2.5, CY-11.4)."""
        teams = list(teams)
        per_team = SEATS[mode][2] or entries
        velodrome = velodrome or {"lap": 20, "width": 4}
        m = cls(velodrome, mode, level, per_team * len(teams))
        m.teams = teams
        for kind in KINDS[:per_team]:
            for team in teams:
                m.riders.append(MRider(team + kind))
        for r in m.riders:
            before = [o for o in m.riders[: m.riders.index(r)] if m.world(o) == m.world(r)]
            r.lane = len(before)
            r.tokens = 3 if m.pro else 0  # CY-2.4: min(5, 3 + saved), none saved here
        m.riders.sort(key=lambda r: r.id)
        m.team_tokens = {t: 0 for t in teams}
        if mode == "keirin":
            m.pacer = 7 if m.course.lap > 7 else None
        m._begin_round()
        return m

    # ----------------------------------------------------------------- geometry

    def world(self, r: MRider) -> str:
        """CY-2.6."""
        if self.mode == "pursuit":
            return r.id
        if self.mode in TEAM_TIMED:
            return r.team
        return "all"

    def kind_at(self, position: int) -> str:
        return "track"

    def cap(self) -> int:
        """CY-4.4, CY-11.4: D+9, or one short of the pacer while it rides."""
        return self.course.n + 9 if self.pacer is None else self.pacer - 1

    def others_at(self, r: MRider, position: int) -> list[MRider]:
        """Riders of r's world on the same square: on the loop, on the same loop space
        at any distance (CY-19.1)."""
        course: TrackCourse = self.course

        def same(a: int, b: int) -> bool:
            on_loop = 1 <= a <= course.n and 1 <= b <= course.n
            return course.loop(a) == course.loop(b) if on_loop else a == b

        return [
            o
            for o in self.riders
            if o is not r
            and o.pos is not None
            and same(o.pos, position)
            and self.world(o) == self.world(r)
        ]

    # ----------------------------------------------------------------- dice, tokens

    def dice_count(self, x: MRider) -> int:
        """CY-11.1, CY-11.2: 2 dice, 3 from the event's distance."""
        assert x.pos is not None
        three = self.course.three
        return 3 if three is not None and x.pos >= three else 2

    def token_choices(self, x: MRider) -> list[str]:
        """CY-4.3, CY-11.1, CY-11.4: a panel of 2 for everyone, own tokens only, none
        while the pacer rides."""
        if not self.pro or self.pacer is not None:
            return [""]
        return [""] + [c for c in ("r", "rr") if len(c) <= x.tokens]

    # ----------------------------------------------------------------- rounds

    def _round_order(self) -> list[str]:
        racing = [r for r in self.racing() if not r.finished]
        seat = {t: i for i, t in enumerate(self.teams)}
        timed = self.round == 1 or self.mode in TRACK_TIMED

        def key(r: MRider) -> tuple[int, ...]:
            assert r.pos is not None
            if timed:
                return (seat[r.team], -r.pos, r.lane, KINDS.index(r.kind))
            return (-r.pos, r.lane, KINDS.index(r.kind), seat[r.team])

        return [r.id for r in sorted(racing, key=key)]

    def _end_round(self) -> None:
        """CY-3.5 on the track."""
        course: TrackCourse = self.course
        n = course.n
        first_passed = []
        for i, (_, kind, _) in enumerate(self.scoring):
            if self.crossed[i] and not self.lists[i]:
                first_passed.append(kind)
            for rid in self._rank(r for r in self.crossed[i] if r not in self.lists[i]):
                place = len(self.lists[i])
                self.lists[i].append(rid)
                if place < len(course.pays[i]):
                    self.rider(rid).points += course.pays[i][place]
        for rid in self._rank(r for r in self.crossed_finish if r not in self.finish_list):
            r = self.rider(rid)
            assert r.pos is not None
            place = len(self.finish_list)
            self.finish_list.append(rid)
            r.fin_round, r.past = self.round, r.pos - n
            if self.mode in TRACK_TIMED:
                r.own_time = 10 * self.round - r.past
            if place < len(course.finish_pays):
                r.points += course.finish_pays[place]
        for r in self.riders:
            if r.pos is not None and r.pos > n:
                r.pos = None
        for kind in first_passed:  # CY-11.5: the rearmost racing rider, one a line
            left = [r for r in self.riders if r.pos is not None and r.id not in self.out]
            if kind == "elimination" and left:
                worst = min(left, key=lambda r: (r.pos or 0, -r.lane))
                worst.pos = None
                self.out.append(worst.id)
        racing = [r for r in self.riders if r.pos is not None]
        ends_early = self.mode in ("sprint", "elimination") and self.finish_list
        if not racing or ends_early or self.round >= 300:
            self.over, self.phase, self.due = True, "over", None
            return
        self.round += 1
        if self.pacer is not None:  # CY-11.4
            self.pacer = self.pacer + 7 if self.pacer + 7 < course.lap else None
        self._begin_round()

    # ----------------------------------------------------------------- times, result

    def team_times(self) -> dict[str, int]:
        """CY-11.3: the third-best own time (a team sprint's last rider)."""
        if self.mode not in TEAM_TIMED:
            return {}
        own = self.own_times()
        out = {}
        for team in self.teams:
            mine = sorted(t for rid, t in own.items() if rid[0] == team)
            if len(mine) >= 3:
                out[team] = mine[2]
        return out

    def times(self) -> dict[str, int]:
        if self.mode == "pursuit":
            return self.own_times()
        if self.mode in TEAM_TIMED:
            team = self.team_times()
            return {rid: team.get(rid[0], t) for rid, t in self.own_times().items()}
        return {}

    def result(self) -> dict[str, Any]:
        """CY-8.6 on the track."""
        seat = {t: i for i, t in enumerate(self.teams)}
        times = self.times()
        if self.mode in TRACK_TIMED:
            finished = sorted(
                self.finish_list, key=lambda rid: (times[rid], seat[rid[0]], KINDS.index(rid[1:]))
            )
        else:
            finished = list(self.finish_list)
        onrun = self._rank(r.id for r in self.racing() if r.finished)
        racing = self._rank(r.id for r in self.racing() if not r.finished)
        ranked = finished + onrun + racing
        scored = self.mode in ("tempo", "points")
        if scored:
            before = list(ranked)
            ranked.sort(key=lambda rid: (-self.rider(rid).points, before.index(rid)))
        places = ranked + self.out[::-1]
        team_times = self.team_times()
        if self.mode in TEAM_TIMED:
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
        return {
            "places": places,
            "winner": places[0] if self.over and self.mode not in TEAM_TIMED else None,
            "winner_team": teams[0] if self.over else None,
            "teams": teams,
            "times": times,
            "team_times": team_times,
            "points": {r.id: r.points for r in self.riders} if scored else {},
            "mountain": {},
            "eliminated": list(self.out),
            "tokens_left": {r.id: r.tokens for r in self.riders},
            "over": self.over,
        }

    def to_cyn(self) -> str:
        """CY-14.2 on the track: the pacer after the riders, the eliminated after the
        finishers, own times in the timed events."""
        riders = []
        for r in sorted(self.riders, key=lambda r: r.id):
            if r.pos is None:
                continue
            text = f"{r.id}:{LANES[r.lane]}{r.pos}"
            text += f"*{r.tokens}" if r.tokens else ""
            text += f"+{r.points}" if r.points else ""
            riders.append(text)
        if getattr(self, "pacer", None) is not None:
            riders.append(f"P:{self.pacer}")
        done = []
        for rid in self.finish_list:
            r = self.rider(rid)
            text = f"{rid}:{r.fin_round}.{r.past}"
            text += f"={r.own_time}" if self.mode in TRACK_TIMED else ""
            text += f"*{r.tokens}" if r.tokens else ""
            text += f"+{r.points}" if r.points else ""
            done.append(text)
        for rid in getattr(self, "out", []):
            r = self.rider(rid)
            done.append(f"{rid}:out" + (f"*{r.tokens}" if r.tokens else ""))
        lines = [f"{i + 1}={'+'.join(ids)}" for i, ids in enumerate(self.lists) if ids]
        parts = [",".join(p) or "-" for p in (riders, [], done, lines, [])]
        return f"{self.round} " + " / ".join(parts)
