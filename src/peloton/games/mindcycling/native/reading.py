"""Reading a C race back into Python: its player and rider to act, a :class:`Race`,
its key, medals, round tables and result."""

from __future__ import annotations

from typing import Any

from ..position import NO_ROUND, Race, RoundTables
from ..scoring import Result, team_points
from .codes import MEDALS, SECTION_NAME
from .facts import GameFacts

__all__ = ["GameReading"]


class GameReading(GameFacts):
    """What a :class:`~.facts.GameFacts`' C race holds, as the Python engine says it."""

    def current_player(self, r: Any) -> str | None:
        """``State.current_player`` of ``r``: the placing team in setup (MC-3.1)."""
        if r.over:
            return None
        if r.round == 0:
            team: str = self.teams[r.n_on_road % len(self.teams)]
            return team
        rid: str = self.ids[r.current]
        return rid[0]

    def current_rider(self, r: Any) -> str | None:
        """``State.current_rider`` of ``r``."""
        if r.over or r.round == 0:
            return None
        rid: str = self.ids[r.current]
        return rid

    def export(self, r: Any, old: Race) -> Race:
        """A new :class:`Race` holding the position of ``r``, with the facts of ``old``
        (a race of the same game)."""
        ids = self.ids
        n = len(ids)
        race = Race.__new__(Race)
        race.course, race.teams, race.ids = old.course, old.teams, ids
        race.shelter, race.relay_limit, race.solo = old.shelter, old.relay_limit, old.solo
        square_of = race.square_of = {}
        rider_at = race.rider_at = {}
        for i in range(n):
            sq = r.square_of[i]
            if sq >= 0:
                square_of[ids[i]] = sq
                rider_at[sq] = ids[i]
        race.blocked = self.ffi.unpack(r.blocked, self.course.finish + 2)
        bottles, done = r.bottles, r.done
        race.bottles = {ids[i] for i in range(n) if bottles >> i & 1}
        race.finished = [ids[r.finished[i]] for i in range(r.n_finished)]
        race.medals = self.medals(r)
        race.round = int(r.round)
        if r.round == 0:
            race.unplaced = {
                team: [ids[r.team_riders[t][k]] for k in range(r.team_size)
                       if r.unplaced >> r.team_riders[t][k] & 1]
                for t, team in enumerate(self.teams)
            }  # fmt: skip
            race.tables = NO_ROUND
        else:
            race.unplaced = {team: [] for team in self.teams}
            tables = old.tables
            if old.round != r.round or tables is NO_ROUND:
                tables = RoundTables(**self.tables(r))
            race.tables = tables
        race.done = {ids[i] for i in range(n) if done >> i & 1}
        race.gave = bool(r.gave)
        race.groups = [
            [int(r.g_head[g]), int(r.g_size[g]), bool(r.g_closed[g])] for g in range(r.n_groups)
        ]
        race.group_of = {ids[i]: int(r.group_of[i]) for i in range(n) if r.group_of[i] >= 0}
        race.current = None if r.current < 0 else ids[r.current]
        race.next_in_order = int(r.next_in_order)
        race.over = bool(r.over)
        return race

    def key(self, r: Any) -> tuple[Any, ...]:
        """What :meth:`Race.key` gives for the same position."""
        ids = self.ids
        n = len(ids)
        square_of = {ids[i]: r.square_of[i] for i in range(n) if r.square_of[i] >= 0}
        groups = tuple((r.g_head[g], r.g_size[g], bool(r.g_closed[g])) for g in range(r.n_groups))
        unplaced = (
            tuple(
                (team, tuple(ids[r.team_riders[t][k]] for k in range(r.team_size)
                             if r.unplaced >> r.team_riders[t][k] & 1))
                for t, team in enumerate(self.teams)
            )
            if r.round == 0
            else tuple((team, ()) for team in self.teams)
        )  # fmt: skip
        return (
            r.round,
            tuple(sorted(square_of.items())),
            frozenset(ids[i] for i in range(n) if r.bottles >> i & 1),
            tuple(ids[r.finished[i]] for i in range(r.n_finished)),
            tuple(sorted(self.medals(r).items())),
            None if r.current < 0 else ids[r.current],
            bool(r.gave),
            frozenset(ids[i] for i in range(n) if r.done >> i & 1),
            groups,
            tuple(sorted((ids[i], r.group_of[i]) for i in range(n) if r.group_of[i] >= 0)),
            unplaced,
            bool(r.over),
        )

    def medals(self, r: Any) -> dict[str, str]:
        """The medals awarded, in the order they were."""
        out = {}
        for i in range(r.n_medals):
            code = r.medal_order[i]
            holder = r.medal[code]
            out[MEDALS[code]] = self.teams[holder] if code == 3 else self.ids[holder]
        return out

    def tables(self, r: Any) -> dict[str, Any]:
        """The round's tables of ``r`` as :class:`~.position.RoundTables` fields."""
        ids = self.ids
        rng = [i for i in range(len(ids)) if r.assessed >> i & 1]
        return {
            "order": tuple(ids[r.order[i]] for i in range(r.n_order)),
            "section": {ids[i]: SECTION_NAME[r.section[i]] for i in rng},
            "allowance": {ids[i]: r.allowance[i] for i in rng},
            "against_wind": frozenset(ids[i] for i in rng if r.against_wind >> i & 1),
            "exhausted": frozenset(ids[i] for i in rng if r.exhausted >> i & 1),
            "held_bottle": frozenset(ids[i] for i in rng if r.held_bottle >> i & 1),
            "leader": {ids[i]: ids[r.leader[i]] for i in rng if r.leader[i] >= 0},
            "follower": {ids[i]: ids[r.follower[i]] for i in rng if r.follower[i] >= 0},
            "train_place": {ids[i]: r.train_place[i] for i in rng if r.train_place[i]},
        }

    def result(self, r: Any) -> Result:
        """Places, points, medals, trophy and solo score of ``r`` (as ``State.result``)."""
        places = tuple(self.ids[r.finished[i]] for i in range(r.n_finished))
        medals = self.medals(r)
        over = bool(r.over)
        win = None
        if over and not r.solo and places:
            win = self.teams[self.lib.mc_trophy(r)]
        solo_score = None
        if r.solo and over:
            finish = self.course.finish
            remaining = max(
                (
                    finish - (r.square_of[i] >> 5)
                    for i in range(len(self.ids))
                    if r.square_of[i] >= 0
                ),
                default=0,
            )
            solo_score = (r.round, remaining)  # MC-9.4
        return Result(
            places=places,
            points=team_points(places, self.teams),
            medals=medals,
            trophy=win,
            solo_score=solo_score,
            over=over,
        )
