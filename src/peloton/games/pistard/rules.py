"""The rules of Pistard as functions of a :class:`~.position.Race`: who acts, the legal
moves, what a move does, and why a move is refused.

A *round* is the first move (round 1, PI-2) or one pass of every racing rider in race
order (rounds 2 on, PI-3). Inside a round:

* round 1: every player rolls 4 dice (chance steps, seat order), then every player in
  seat order assigns its dice rider by rider (``A3=5``); after the last assignment the
  riders enter the track, highest values first (PI-2.2);
* later rounds: the race order is fixed at the start of the round (PI-3.1); when a
  player's first rider is due, its roll is a chance step (PI-3.2), then each of its
  riders in turn plays ``A3=5:c22`` (PI-3.3 to 3.6, see :mod:`.paths`). Eliminations
  (PI-4.1) and lap points (PI-4.2) follow every move, and the move that brings a
  player to the target ends the game at once, mid-round (PI-4.3). Games replayed from
  records written before that correction check the target at the end of the round
  (``Race.target_at_round_end``).

:data:`EFFECTS` trust their move: :class:`~.state.State` checks legality first.
Nothing here imports the state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations_with_replacement

from .notation import ASSIGN, RIDE, ROLL, Move
from .paths import first_move_square, ride_moves
from .position import Race
from .riders import RIDERS_PER_TEAM, base_colour, team_riders
from .scoring import lap_points
from .track import LANES

#: Every roll of 1 to 4 dice, written ascending (one text per outcome).
ROLLS: dict[int, tuple[Move, ...]] = {
    n: tuple(Move.roll(d) for d in combinations_with_replacement(range(1, 7), n))
    for n in range(1, RIDERS_PER_TEAM + 1)
}

# ---------------------------------------------------------------- who acts


def roller(race: Race) -> str | None:
    """The player whose dice the pending chance step rolls, if any (PI-2.1, PI-3.2)."""
    if race.over:
        return None
    if race.round == 1:
        return next((t for t in race.teams if t not in race.first_rolls), None)
    team = race.order[race.idx][0]
    return None if team in race.rolls else team


def acting_team(race: Race) -> str:
    """The team to play a move now (not at a roll, not once over): in the first move
    the first team in seat order with a rider still without a die."""
    if race.round == 1:
        return next(t for t in race.teams if any(r not in race.assigned for r in team_riders(t)))
    return race.order[race.idx][0]


def dice_to_roll(race: Race, team: str) -> int:
    """How many dice ``team``'s roll throws: 4 in the first move, else one per rider it
    still has racing (PI-1.2)."""
    if race.round == 1:
        return RIDERS_PER_TEAM
    return sum(1 for r in team_riders(team) if r not in race.out)


# ---------------------------------------------------------------- legal moves


def legal_moves(race: Race) -> list[Move]:
    """The moves of whoever acts now: every possible roll at a chance step, a new list
    on every call."""
    if race.over:
        return []
    if race.round == 1:
        team = roller(race)
        if team is not None:
            return list(ROLLS[RIDERS_PER_TEAM])
        team = acting_team(race)
        values = sorted(set(race.unassigned_dice(team)))
        return [
            Move.assign(r, v) for r in team_riders(team) if r not in race.assigned for v in values
        ]
    rider = race.order[race.idx]
    team = rider[0]
    if team not in race.rolls:  # the team's first rider of the round is due: it rolls
        return list(ROLLS[dice_to_roll(race, team)])
    return ride_moves(
        rider,
        race.dice[team],
        layout=race.layout,
        occupied=race.occupied,
        distance=race.dist[rider],
        lane=race.lane[rider],
        colour=base_colour(rider),
        bonus=race.bonus,
    )


def why_illegal(race: Race, move: Move) -> str:
    """Why ``move`` (well-formed, not legal now) cannot be played, in the game's words."""
    team = roller(race)
    if team is not None:
        if move.kind != ROLL:
            return f"player {team} must roll first"
        return f"player {team} rolls {dice_to_roll(race, team)} dice, not {len(move.dice)}"
    team = acting_team(race)
    if move.kind == ROLL:
        return f"no roll is due; {team} is to play"
    if move.rider[0] != team:
        return f"it is player {team}'s turn"
    if race.round == 1:
        if move.kind != ASSIGN:
            return "in the first move each rider is given a die, e.g. A3=5 (PI-2.2)"
        if move.rider in race.assigned:
            return f"{move.rider} already has a die"
        return f"player {team} has no unassigned {move.value} (dice left: {_dice(race.unassigned_dice(team))})"
    if move.kind == ASSIGN:
        return "after the first move a rider's move names its end square, e.g. A3=5:c22"
    rider = race.order[race.idx]
    if move.rider != rider:
        return f"{rider} is due to move (race order, PI-3.1)"
    if move.value not in race.dice[team]:
        return f"player {team} has no unused {move.value} (dice left: {_dice(race.dice[team])})"
    ends = sorted({str(m).split(":")[1] for m in legal_moves(race) if m.value == move.value})
    return f"with a {move.value}, {rider} may go to: {', '.join(ends)}"


# ---------------------------------------------------------------- orders


def _dice(values: Iterable[int]) -> str:
    """Dice for a message: ``2, 3, 3, 5`` (``none`` when there are none)."""
    return ", ".join(map(str, sorted(values))) or "none"


def first_move_order(race: Race) -> list[str]:
    """PI-2.2: highest values first; among equal values the player with the higher
    sum (equal sums: seat order), then the order the player assigned its dice in."""
    sums = {t: sum(race.first_rolls[t]) for t in race.teams}
    rank = {t: i for i, t in enumerate(sorted(race.teams, key=lambda t: -sums[t]))}
    seq = {r: i for i, r in enumerate(race.assign_seq)}
    return sorted(race.assigned, key=lambda r: (-race.assigned[r], rank[r[0]], seq[r]))


def race_order(race: Race) -> list[str]:
    """PI-3.1: racing riders furthest first; level riders inner lane first."""
    return sorted(race.racing, key=lambda r: (-race.dist[r], race.lane[r], r))


def start_round(race: Race) -> None:
    """Begin the next round: its race order is fixed now (PI-3.1)."""
    race.round += 1
    race.order = race_order(race)
    race.idx = 0
    race.rolls, race.dice = {}, {}
    race.moved = set()
    race.progressed = False


# ---------------------------------------------------------------- effects


def roll(race: Race, move: Move) -> None:
    """A roll (PI-2.1, PI-3.2): the dice of the player whose roll is due."""
    race.history.append(move)
    dice = move.dice
    team = roller(race)
    assert team is not None
    if race.round == 1:
        race.first_rolls[team] = dice
    else:
        race.rolls[team] = dice
        race.dice[team] = list(dice)


def assign(race: Race, move: Move) -> None:
    """A first-move assignment (PI-2.2); the last one sends the riders onto the track."""
    race.history.append(move)
    rider, value = move.rider, move.value
    race.assigned[rider] = value
    race.assign_seq.append(rider)
    if len(race.assigned) == len(race.dist):
        # PI-2.2: every die is given; the riders enter, highest values first.
        for r in first_move_order(race):
            distance, lane = first_move_square(race.occupied, race.assigned[r])
            if distance:
                race.place(r, distance, lane)
        start_round(race)


def ride(race: Race, move: Move) -> None:
    """A rider's move (PI-3.3 to PI-3.6), then lap points (PI-4.2), eliminations
    (PI-4.1), the target (PI-4.3) and the next rider."""
    race.history.append(move)
    rider, team = move.rider, move.rider[0]
    race.dice[team].remove(move.value)
    race.moved.add(rider)
    before = race.dist[rider]
    if move.path:
        end = race.layout.codes[move.path[-1]]
        ahead = ((end >> 2) - (before - 1)) % race.length
        lead = race.lead
        race.place(rider, before + ahead, end & (LANES - 1))
        race.progressed = True
        scored = _score(race, team, before, before + ahead)
        if race.lead > lead:  # only a new lead laps anyone
            _eliminate(race)
        if scored and race.points[team] >= race.target and not race.target_at_round_end:
            finish(race, "target")  # PI-4.3: the first to reach the target wins at once
            return
    next_rider(race)


def _score(race: Race, team: str, before: int, after: int) -> bool:
    """PI-4.2: crossing the line into lap 2 or later (the start does not score).
    Whether ``team`` scored."""
    length = race.length
    line = -(-before // length) * length  # first line at or after `before`
    if line == 0 or line >= after:
        return False
    lap = line // length + 1
    crossed = race.laps.get(lap, 0)
    if crossed >= 3:
        return False
    race.laps[lap] = crossed + 1
    race.points[team] += lap_points(crossed)
    if team in race.recency:
        race.recency.remove(team)
    race.recency.insert(0, team)
    return True


def _eliminate(race: Race) -> None:
    """PI-4.1: riders a lap or more behind the leader leave the race."""
    reach = race.lead - race.length
    for rider in sorted(race.racing, key=lambda r: (race.dist[r], r)):
        if race.dist[rider] <= reach:
            race.place(rider, race.dist[rider], -1)
            race.out.append(rider)


#: What each kind of move does, for a legal move (legality is the caller's check).
EFFECTS: dict[str, Callable[[Race, Move], None]] = {ROLL: roll, ASSIGN: assign, RIDE: ride}


def next_rider(race: Race) -> None:
    """Hand the move to the next racing rider of the round's order; at the round's
    end, finish the game (the target in a game replayed under the old end rule, or the
    stalled-round guard) or start the next."""
    race.idx += 1
    while race.idx < len(race.order) and race.order[race.idx] in race.out:
        race.idx += 1
    if race.idx < len(race.order):
        return
    if any(p >= race.target for p in race.points.values()):
        finish(race, "target")
    elif not race.progressed:
        finish(race, "stalled")
    else:
        start_round(race)


def finish(race: Race, reason: str) -> None:
    """End the game: ``target`` (PI-4.3) or ``stalled`` (a round where no rider
    advanced, a guard the rules' minimum track length makes unreachable)."""
    race.over = True
    race.reason = reason
    race.idx = 0
