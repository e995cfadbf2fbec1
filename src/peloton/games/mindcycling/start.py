"""How a Mind Cycling game starts: a new game, a solo game, or an MCN position."""

from __future__ import annotations

from collections.abc import Mapping

from ...core.errors import ConfigError, NotationError
from .course import Course, row_of
from .notation import parse_mcn
from .riders import SOLO_COMPOSITION, TEAM_LETTERS, team_rider_ids
from .state import DEFAULT_RELAY_LIMIT, State, check_rules


def _course(course: Course | str) -> Course:
    return Course.load(course) if isinstance(course, str) else course


def new_game(
    course: Course | str,
    teams: Mapping[str, str],
    *,
    wind: str = "front",
    relay_limit: int = DEFAULT_RELAY_LIMIT,
) -> State:
    """A new game of 2 to 7 teams, starting with setup (MC-3)."""
    return State(_course(course), teams, wind=wind, relay_limit=relay_limit)


def new_solo(
    course: Course | str,
    team: str = SOLO_COMPOSITION,
    *,
    wind: str = "front",
    relay_limit: int = DEFAULT_RELAY_LIMIT,
) -> State:
    """A new solo game (MC-9): one team of five, placed on the start zone's last row."""
    return State(_course(course), {"A": team}, wind=wind, relay_limit=relay_limit, solo=True)


def from_mcn(
    course: Course | str,
    text: str,
    *,
    wind: str = "front",
    relay_limit: int = DEFAULT_RELAY_LIMIT,
) -> State:
    """The state at the start of the round an MCN text describes (MC-10.2).

    Teams and compositions follow from the rider ids; one team means the solo version.
    Raises :class:`peloton.NotationError` for text that is malformed or describes an
    impossible position, saying what is wrong.
    """
    course = _course(course)
    check_rules(wind, relay_limit)  # bad options are a ConfigError, not a notation one
    pos = parse_mcn(text)
    every = [*pos.riders, *pos.finished]
    if not every:
        raise NotationError(f"MCN {text!r} names no rider")
    letters = sorted({rid[0] for rid in every})
    if "".join(letters) != TEAM_LETTERS[: len(letters)]:
        raise NotationError(f"MCN {text!r}: teams must be lettered from A without gaps, not {letters}")
    comps: dict[str, str] = {}
    for t in letters:
        ids = sorted(rid for rid in every if rid[0] == t)
        comp = "".join(rid[1] for rid in ids)
        # Ordinals must run 1, 2 per type (MC-2.3) for the ids to make a team.
        expected = team_rider_ids(t, "".join(sorted(comp, key="DSC".index)))
        if sorted(expected) != ids:
            raise NotationError(f"MCN {text!r}: team {t}'s rider ids {ids} are not numbered 1, 2 per type")
        comps[t] = comp
    try:
        state = State(course, comps, wind=wind, relay_limit=relay_limit, solo=len(comps) == 1)
    except ConfigError as exc:
        raise NotationError(f"MCN {text!r}: {exc}") from None
    for rid, (name, bottle) in pos.riders.items():
        sq = course.parse_square(name)
        if sq is None:
            raise NotationError(f"MCN {text!r}: {rid}'s square {name} is not on the road")
        if course.is_rock(sq):
            raise NotationError(f"MCN {text!r}: {rid} stands on the rock at {name}")
        if sq in state.at:
            raise NotationError(f"MCN {text!r}: {rid} and {state.at[sq]} share square {name}")
        state._put(rid, sq)
        if not bottle:
            state.bottles.discard(rid)
        else:
            state.bottles.add(rid)
    for rid in pos.finished:
        state.bottles.discard(rid)
    state.finished = list(pos.finished)
    if state.finished:  # MC-8.3: the first across holds Best Cyclist
        state.medals["cyclist"] = state.finished[0]
    for key, medal in (("sprint", "sprinter"), ("mountain", "climber")):
        holder = pos.medals.get(key)
        if holder is None:
            continue
        last = course.last_row_of(key)
        if last is None:
            raise NotationError(f"MCN {text!r}: course {course.name!r} has no {key} section")
        if holder not in state.ids:
            raise NotationError(f"MCN {text!r}: the {key} medal holder {holder} is not in the game")
        if holder in state.pos and row_of(state.pos[holder]) <= last:
            raise NotationError(f"MCN {text!r}: {holder} holds the {key} medal but has not passed row {last}")
        state.medals[medal] = holder
    state._unplaced = {t: [] for t in state.teams}
    state.round = pos.round
    state._assess()
    state.start_mcn = state.to_mcn()
    if state.solo and state._solo_done():
        # Four riders across at the start of round n: the game ended with round n - 1.
        state.round = max(1, state.round - 1)
        state._finish_game()
    elif state._solo_done() or (not state.solo and state._race_decided()):
        state._finish_game()
    return state
