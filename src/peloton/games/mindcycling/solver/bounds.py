"""Admissible bounds on a solo line (MC-9.4): the rounds still needed and the rows each
rider can reach, for the search (:mod:`.search`) and the row game (:mod:`.rows`).

Every bound here is a relaxation that only ever overestimates progress, so a line
that the bounds say needs more than ``R`` rounds cannot be played in ``R``:

* the current round is bounded from its own assessment (:func:`round_reach`: the
  allowances, links, train places and groups actually in play);
* every later round by :meth:`Bounds.step`, on the geometry of a column (see
  :class:`Bounds`); ``tests/games/mindcycling/solver/test_bounds.py`` checks both
  against real play (Hypothesis over courses, winds, relay limits and bot lines).
"""

from __future__ import annotations

from ..course import Course
from ..position import CLOSED, HEAD
from ..riders import OWN_SECTIONS, STEPS
from ..rules import SOLO_TARGET, can_follow
from ..state import State
from .team import rider_train_reach, train_front

#: A round count no line reaches: the bound when the game can never end.
NEVER = 10**6

#: A rider in the bounds: (type, the row it stands on now, an upper bound on its row).
Bounded = tuple[str, int, int]


class Bounds:
    """Admissible bounds on the rounds and the remaining distance.

    A rider is bounded as ``(type, low, high)``: it stands now at row ``low`` or
    beyond (riders never go back) and at most at row ``high``. One more round takes a
    rider starting anywhere in ``[low, high]`` at most to the best of two reaches from
    that row (:meth:`step`):

    * **own legs**: its type's allowance in that row's section, never against the wind
      and never tired, +3 for an attack in its own section (MC-5.2, MC-7.2);
    * **a train** (MC-6): a relay lands one row ahead of its group's head, and the
      group's head is a rider ``k`` rows ahead in the same column (the chain of links
      in front) plus one row per relay, ``k``, while ``k <= relay_limit`` (the
      rider's train place is at least ``k + 1``, MC-6.5; further back only a wheel,
      behind its leader, MC-6.4); that rider rides at most the best allowance of
      any type in its own row's section, one row less as the train's front rider
      (MC-5.4), one relay fewer when sheltered (its place is 2 at least). No train
      passes the train's front (:func:`.team.train_front`): the furthest normal move
      plus one row per relay of the chain that may stand behind its rider. A
      sprinter standing in the mountain rides no train (MC-6.3 b).
    * **the top row**: a rider on the furthest row has nobody ahead, so it rides
      against the wind and on no train (MC-5.4).

    The maximum is taken over the whole interval ``[low, high]``, because the reach is
    not monotone in the row: a sprinter just before the mountain can still jump in on
    a train, one row further it crawls.
    """

    def __init__(self, course: Course, relay_limit: int, types: str = "DSC") -> None:
        self.finish = course.finish
        self.relay_limit = relay_limit
        self.feed_rows = sorted({course.codes[name] >> 5 for name in course.feed})
        #: The tables of a team with bottles (False) and of a dry team (True, see
        #: :meth:`advance`), looked up as ``self.own[dry][type][row]`` and so on.
        self.own: dict[bool, dict[str, list[int]]] = {}
        self.lead: dict[bool, dict[str, list[int]]] = {}
        self._own_max: dict[bool, dict[str, list[list[int]]]] = {}
        self._lead_max: dict[bool, dict[str, list[list[int]]]] = {}
        self._train_max: dict[bool, dict[str, list[list[list[int]]]]] = {}
        #: ``self.trainable[dry][type][row]``: whether such a rider may ride a train
        #: from that row (MC-6.3 b, c), for the train's front (:func:`.team.train_front`).
        self.trainable: dict[bool, dict[str, list[bool]]] = {}
        self.top_allowance = max(max(steps.values()) for steps in STEPS.values())
        for dry in (False, True):
            self._tabulate(course, types, dry)
        self._memo: dict[tuple[tuple[Bounded, ...], int, bool, int | None, bool], int] = {}

    def _tabulate(self, course: Course, types: str, dry: bool) -> None:
        """Each type's reach from each row: on its own legs, as the mover of a train, on
        a train. A dry team holds no bottle: its domestiques are tired (one row less,
        no train, MC-7.4) and nobody attacks (MC-7.2)."""
        finish, relay_limit = self.finish, self.relay_limit
        sect = course.section_by_row
        top = finish + 24  # rows beyond the line only ever compare as "crossed"

        def section(r: int) -> str:
            return sect[r] if r < len(sect) else "plain"

        def allowance(t: str, r: int) -> int:
            return STEPS[t][section(r)] - (1 if dry and t == "D" else 0)

        #: The best allowance of any type of the team in each row's section.
        best = [max(allowance(t, r) for t in set(types)) for r in range(top + 8)]
        owns: dict[str, list[int]] = {}
        leads: dict[str, list[int]] = {}
        #: trains[t][n][r]: the furthest a rider of type t at row r may ride on a train
        #: with n other riders on the road (-1: never: a sprinter in the mountain, a
        #: tired domestique).
        trains: dict[str, list[list[int]]] = {}
        for t in "DSC":
            own, lead = [], []
            train: list[list[int]] = [[-1] * top for _ in range(7)]
            for r in range(top):
                s = section(r)
                a = allowance(t, r)
                lead.append(min(r + a, top - 1))
                attack = 3 if s in OWN_SECTIONS[t] and not dry else 0
                own.append(min(r + a + attack, top - 1))
                if (t == "S" and s == "mountain") or (t == "D" and dry):
                    continue
                for n in range(1, 7):
                    train[n][r] = min(
                        top - 1,
                        max(
                            r + k + best[r + k] + _train_gain(k, relay_limit)
                            for k in range(1, n + 1)
                        ),
                    )
            owns[t], leads[t], trains[t] = own, lead, train
        self.own[dry], self.lead[dry] = owns, leads
        # Range maxima, looked up rather than computed: table[low][high - low].
        self._own_max[dry] = {t: _range_table(v) for t, v in owns.items()}
        self._lead_max[dry] = {t: _range_table(v) for t, v in leads.items()}
        self._train_max[dry] = {t: [_range_table(v) for v in tv] for t, tv in trains.items()}
        self.trainable[dry] = {t: [r >= 0 for r in tv[1]] for t, tv in trains.items()}

    def step(self, riders: list[Bounded], dry: bool = False) -> list[Bounded]:
        """Upper bounds on the riders' rows after one more round (``dry``: the team
        holds no bottle at its start)."""
        finish = self.finish
        road = [(t, low, min(high, finish - 1)) for t, low, high in riders if low < finish]
        if not any(high < finish for _, _, high in riders):
            return riders
        others = min(6, len(road) - 1)
        # The top row: a rider standing there has nobody one row ahead, so it rides
        # against the wind (one row less) and on no train. Rows below it are bounded
        # as if sheltered.
        top = max(high for _, _, high in road)
        lead_max, own_max, train_max = self._lead_max[dry], self._own_max[dry], self._train_max[dry]
        lead_row, own_row = self.lead[dry], self.own[dry]
        lead = 0
        for t, low, high in road:
            if high == top:
                lead = max(lead, lead_row[t][top] - 1)
                if low < top:
                    lead = max(lead, lead_max[t][low][top - 1 - low])
            else:
                lead = max(lead, lead_max[t][low][high - low])
        # No train passes its founder's normal move plus one row per relay, and the
        # relayers are the chain right behind the founder (:func:`.team.train_front`).
        front = min(
            lead + min(self.relay_limit, others),
            train_front(
                road,
                self.lead[dry],
                self.trainable[dry],
                self.relay_limit,
                self.top_allowance,
            ),
        )
        out = []
        masks: dict[int, tuple[int, int]] = {}  # rows' riders, for rider_train_reach
        g = -1  # the rider's index in ``road``
        for t, low, high in riders:
            if low < finish:
                g += 1
            if high >= finish:
                out.append((t, low, high))
                continue
            if high == top:
                reach = own_row[t][top] - 1
                below = top - 1 - low  # the part of the interval under the top row
            else:
                reach = 0
                below = high - low
            if below >= 0:
                reach = max(reach, own_max[t][low][below])
                if others:
                    train = train_max[t][others][low][below]
                    if train > front:
                        train = front
                    if train > reach:
                        # The founder is another rider, of its own type: worth the
                        # exact look only when the train beats the rider's own legs.
                        train = min(
                            train,
                            rider_train_reach(
                                road,
                                g,
                                low + below,
                                self.lead[dry],
                                self.trainable[dry],
                                self.relay_limit,
                                masks,
                                train,
                            ),
                        )
                        if train > reach:
                            reach = train
            out.append((t, low, reach if reach > high else high))
        return out

    def advance(self, riders: list[Bounded], dry: bool) -> tuple[list[Bounded], bool]:
        """One more round: :meth:`step`, and whether the team is still dry after it.

        A dry team holds no bottle, so no gift either: it only gets one when a
        domestique's move passes a feed zone's row (MC-7.5), and it stays dry while no
        domestique may have done so."""
        after = self.step(riders, dry)
        return after, dry and not self.may_refill(after)

    def may_refill(self, riders: list[Bounded]) -> bool:
        """Whether a domestique may pass a feed zone's row (and take a bottle, MC-7.5)
        on its way from ``low`` to ``high``."""
        feeds = self.feed_rows
        return any(t == "D" and any(low < f <= high for f in feeds) for t, low, high in riders)

    def own_reach(self, riders: list[Bounded], dry: bool = False) -> list[int]:
        """The furthest row each rider may end on in one more round on its own legs
        only (a normal move or an attack, no train): as in :meth:`step`, its type's
        allowance anywhere in its interval (MC-5.2), +3 for an attack in its own section
        (MC-7.2), one row less on the top row (against the wind, MC-5.4). A rider that
        may have crossed already counts as across."""
        finish = self.finish
        own_max, own_row = self._own_max[dry], self.own[dry]
        road = [min(high, finish - 1) for _, low, high in riders if low < finish]
        top = max(road, default=0)
        out = []
        for t, low, high in riders:
            if high >= finish:
                out.append(high)
                continue
            reach = own_row[t][top] - 1 if high == top else 0
            below = (top - 1 if high == top else high) - low
            if below >= 0:
                reach = max(reach, own_max[t][low][below])
            out.append(reach)
        return out

    def may_end(
        self,
        riders: list[Bounded],
        crossed: int,
        dry: bool = False,
        last_row: int | None = None,
        after: list[Bounded] | None = None,
    ) -> bool:
        """Whether the game may end in the coming round by the **last-round rule**.

        The game ends in the round the fourth rider crosses (MC-9.3), so at most one
        rider on the road does not cross in it. A rider crosses on its own legs or by a
        relay (MC-6.6); a wheel never crosses (it stops behind a rider on the road,
        MC-6.4). A relay follows a group that is open, so its founder, who rode a
        normal move, is still on the road (a rider that crosses closes its group,
        MC-6.2), and so is every rider that relayed before in that group. Each rider
        crossing by relay this round therefore needs its own rider that does not
        cross: at most one does. So three riders at least (those across before
        included) must cross on their own legs: :meth:`own_reach` must take them
        across.

        **The rider left on the road** (``last_row``: the game must end with every
        rider on the road on that row or beyond, a ``remaining`` of at most ``finish -
        last_row``). That rider neither relays nor wheels in the last round: the
        founder of the group it would join has ridden and is still on the road (a rider
        that crosses closes its group, MC-6.2), and only one rider is. So it ends on
        its own legs, and every rider whose own reach falls short of ``last_row`` must
        cross by relay: one at most, and only if its whole reach (``after``, the
        riders after the round by :meth:`step`) takes it across."""
        finish = self.finish
        reach = self.own_reach(riders, dry)
        own = sum(1 for r in reach if r >= finish)
        if crossed + own < SOLO_TARGET - 1:
            return False
        if not self.relays_across(riders, reach, dry):
            return False
        if last_row is not None:
            short = [i for i, r in enumerate(reach) if r < last_row]
            if len(short) > 1:
                return False
            if short and after is not None and after[short[0]][2] < finish:
                return False
        return True

    def relays_across(self, riders: list[Bounded], reach: list[int], dry: bool = False) -> bool:
        """Whether the riders whose own legs (``reach``, :meth:`own_reach`) fall short of
        the line may end the game this round: one of them stays on the road, and the
        other, if any, crosses by relay **behind the rider left on the road**.

        In the last round one rider at most stays on the road (MC-9.3). A relay crosses
        only in an open group (MC-6.5), and the first rider of a group to cross closes
        it (MC-6.2), so every rider of that group that moved before it is still on the
        road when the round ends: its founder ``L`` (who rode a normal move) and nobody
        else. The relay is the first move behind ``L``, by the rider linked to it (one
        row behind, MC-6.1), able to ride a train from its row (MC-6.3 b, c), and lands
        one row ahead of ``L``'s end (MC-6.5): ``L`` ends on the last row before the
        line, so its allowance (MC-2.1, MC-5.2; one row less unless a rider stands on
        its shelter square, MC-5.4) takes it at least that far. Its train place is
        ``L``'s plus one, at most ``relay_limit + 1``: 2 against the wind, 3 at least
        when ``L`` is sheltered. So a sprinter in the mountain cannot be carried across
        by its fellow sprinter, nor by anyone but a rider that stays just short of the
        line right in front of it."""
        finish = self.finish
        short = [i for i, r in enumerate(reach) if r < finish]
        if len(short) <= 1:
            return True  # that one stays on the road
        if len(short) > 2:
            return False
        lead, able, limit = self.lead[dry], self.trainable[dry], self.relay_limit
        if limit < 1:
            return False  # no relays (MC-6.5)
        for f, c in (short, short[::-1]):
            tf, lowf, highf = riders[f]
            tc, lowc, highc = riders[c]
            for x in range(max(lowf, lowc + 1), min(highf, highc + 1, finish - 2) + 1):
                if not able[tc][x - 1]:
                    continue
                if lead[tf][x] - 1 >= finish - 1:
                    return True
                if (
                    limit >= 2
                    and lead[tf][x] >= finish - 1
                    and any(
                        g not in (f, c) and lo <= x + 1 <= hi
                        for g, (_, lo, hi) in enumerate(riders)
                    )
                ):
                    return True
        return False

    def rounds_needed(
        self,
        riders: list[Bounded],
        crossed: int,
        dry: bool = False,
        last_row: int | None = None,
        ends_now: bool = True,
    ) -> int:
        """A lower bound on the rounds (this one included) until the fourth rider crosses
        (``dry``: see :meth:`advance`); with ``last_row``, until then and every rider
        still on the road stands on ``last_row`` or beyond (``remaining`` at most
        ``finish - last_row``). ``ends_now``: whether the game may be over already
        with the riders as given (the caller knows the round they come from; False
        when the last-round rule rules it out, see :meth:`may_end`). Every later round
        the game could end in must pass :meth:`may_end`."""
        key = (tuple(sorted(riders)), crossed, dry, last_row, ends_now)
        found = self._memo.get(key)
        if found is None:
            found = self.count_rounds(list(key[0]), crossed, dry, last_row, ends_now)
            if len(self._memo) > 2_000_000:  # bounded memory on very long searches
                self._memo.clear()
            self._memo[key] = found
        return found

    def count_rounds(
        self,
        riders: list[Bounded],
        crossed: int,
        dry: bool,
        last_row: int | None,
        ends_now: bool,
    ) -> int:
        """:meth:`rounds_needed` without its memo: :meth:`advance` round after round
        until the game may end (:meth:`may_end`) with the riders where it needs them."""
        finish = self.finish
        need = SOLO_TARGET - crossed
        if len(riders) < need:
            return NEVER  # too few riders left on the road to ever end the game
        n = 0
        may_end = ends_now
        while (
            not may_end
            or sum(1 for _, _, r in riders if r >= finish) < need
            or (last_row is not None and any(r < last_row for _, _, r in riders))
        ):
            after, dry_after = self.advance(riders, dry)
            may_end = self.may_end(riders, crossed, dry, last_row, after)
            riders, dry = after, dry_after
            n += 1
        return n


def _range_table(values: list[int]) -> list[list[int]]:
    """``table[low][k]``: the maximum of ``values[low : low + k + 1]``."""
    table = []
    for low in range(len(values)):
        row, best = [], values[low]
        for v in values[low:]:
            best = max(best, v)
            row.append(best)
        table.append(row)
    return table


def round_reach(state: State, relay_limit: int) -> list[Bounded]:
    """``(type, row now, furthest row at the end of this round)`` for every rider on the
    road of a race position (at a round's start or mid-round).

    A rider that has moved keeps its row. One still to move ends at most at its own
    allowance as assessed (+3 if it may attack), or by a train (MC-6): one row ahead of
    the head of its leader's group per relay if its train place allows it to relay
    (MC-6.5), and never beyond that head by a wheel (MC-6.4: behind its leader). Behind
    a leader still to ride, the group is founded by the normal move of some rider up
    its chain of links (a chain stops at a rider that may not follow, who must ride on
    its own legs, and at a rider that has ridden)."""
    race = state.race
    tables = race.tables
    done = race.done
    pos = race.square_of
    allow = tables.allowance
    leader = tables.leader
    place = tables.train_place
    groups = race.groups
    group_of = race.group_of
    out: list[Bounded] = []
    for rid, sq in pos.items():
        t, row = rid[1], sq >> 5
        if rid in done:
            out.append((t, row, row))
            continue
        reach = row + allow[rid]
        if (
            rid in tables.held_bottle
            and rid in race.bottles
            and tables.section[rid] in OWN_SECTIONS[t]
        ):
            reach += 3
        x = leader.get(rid)
        if x is not None and can_follow(tables, rid):
            # MC-6.5: the place fixed at the assessment decides, whatever the group.
            relays = place[rid] <= relay_limit + 1
            k = 0
            while x is not None:
                k += 1
                if x in done:
                    gi = group_of.get(x)
                    if gi is not None and not groups[gi][CLOSED]:
                        # The k - 1 riders between join that group first, one row each.
                        reach = max(reach, (groups[gi][HEAD] >> 5) + (k if relays else 0))
                    break
                if x not in pos:
                    break
                reach = max(reach, (pos[x] >> 5) + allow[x] + (k if relays else -1))
                if not can_follow(tables, x):
                    break
                x = leader.get(x)
        out.append((t, row, max(row, reach)))
    return out


def may_end_this_round(state: State, last_row: int | None = None) -> bool:
    """The last-round rule (:meth:`Bounds.may_end`) on the round in play, from its own
    assessment: may the game still end in this round? Only if three riders at least
    are across already or may still cross on their own legs this round: a rider still
    to move with its allowance as assessed (+3 if it may attack, MC-7.2) reaching the
    line. A rider that has ridden and is still on the road did not cross.

    If exactly three may, the fourth crosses by relay (MC-6.6) and the rider left on the
    road founded its group (see :meth:`Bounds.may_end`): the relayer is a rider still to
    move linked to that founder (MC-6.3 a, b, c; MC-6.5: its place allows a relay), and
    the founder, not among the three, either is still to move and its normal move
    (its allowance as assessed, no attack, MC-7.3) reaches the road's last row, or has
    ridden and heads an open group on that row.

    With ``last_row`` (the game must end with every rider left on the road on that row
    or beyond): a rider that has ridden on a row before it is a rider left short, and
    of those still to move at most one may have its own legs fall short of it (it
    must then cross by relay, see :meth:`Bounds.may_end`)."""
    race = state.race
    tables = race.tables
    finish = state.course.finish
    can = len(race.finished)
    short = 0
    mine: list[str] = []  # the riders on the road not crossing on their own legs
    for rid, sq in race.square_of.items():
        if rid in race.done:
            if last_row is not None and sq >> 5 < last_row:
                return False
            mine.append(rid)
            continue
        reach = (sq >> 5) + tables.allowance[rid]
        if (
            rid in tables.held_bottle
            and rid in race.bottles
            and tables.section[rid] in OWN_SECTIONS[rid[1]]
        ):
            reach += 3
        if reach >= finish:
            can += 1
        else:
            mine.append(rid)
        if last_row is not None and reach < last_row:
            short += 1
    if can < SOLO_TARGET - 1 or short > 1:
        return False
    if can >= SOLO_TARGET:
        return True
    # Exactly three: a relay across behind the founder left on the road.
    for y in mine:
        f = tables.leader.get(y)
        if (
            f is None
            or y in race.done
            or f not in mine
            or not can_follow(tables, y)
            or tables.train_place[y] > state.relay_limit + 1
        ):
            continue
        if f in race.done:
            gi = race.group_of.get(f)
            group = None if gi is None else race.groups[gi]
            if group is not None and not group[CLOSED] and group[HEAD] >> 5 >= finish - 1:
                return True
        elif (race.square_of[f] >> 5) + tables.allowance[f] >= finish - 1:
            return True
    return False


def _train_gain(k: int, relay_limit: int) -> int:
    """How far ahead of the allowance of a rider ``k`` links up its chain a rider may
    end on a train, when its train place is unknown (later rounds). A relay lands one
    row ahead of the group's head per relay (MC-6.5), ``k``. If the mover is the
    train's front rider, nobody stands on its shelter square and it rides against the
    wind (MC-5.4: one row less); the rider's place is then ``k + 1``, and it relays only
    while that is at most ``relay_limit + 1``. If the mover is sheltered, its own place
    is 2 at least (MC-6.1) and the rider's ``k + 2``: a relay only while
    ``k < relay_limit``. Otherwise the rider can only wheel, behind its leader (MC-6.4),
    which is at best one row behind the mover."""
    if k < relay_limit:
        return k
    return k - 1 if k == relay_limit else -1
