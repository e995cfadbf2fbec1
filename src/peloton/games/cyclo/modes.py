"""Modes (CY-2.1, CY-2.6, CY-3.1, CY-7.1, CY-8.1, CY-11.2): who takes part, who meets
whom, in which order riders go, and what a mode scores, as one table of facts.

Every mode of the rules is listed so that the time trials, the track events and the
competitions are additions to this table, not rewrites; :data:`AVAILABLE` names the
modes this engine plays today.

>>> MODES["classic"].teams, MODES["classic"].riders, MODES["classic"].worlds
((2, 6), 4, 'one')
>>> MODES["ttt"].worlds, MODES["ttt"].timed, MODES["pursuit"].worlds
('team', True, 'rider')
>>> MODES["keirin"].pacer, MODES["points"].track.line_every
(True, 2)

The rest of the engine, the bots and the web page read these facts, never a mode's
name (``tests/games/cyclo/test_layers.py`` checks it): a mode's name is for people
and for files.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Worlds (CY-2.6): riders meet (room, lanes, wheel, swap) only within their world.
ONE_WORLD, WORLD_PER_RIDER, WORLD_PER_TEAM = "one", "rider", "team"
#: CY-11.2: the tempo race pays 2, 1 every half lap, its finish too (CY-19.11).
TEMPO_POINTS = (2, 1)
#: CY-11.2: the points race pays 5, 3, 2, 1 every lap, some lines a multiple of it.
POINTS_RACE_POINTS = (5, 3, 2, 1)


@dataclass(frozen=True, slots=True)
class TrackPlan:
    """CY-11.2: where a track event finishes and where its lines lie, counted in half
    laps of the velodrome (its lap is even, CY-1.6)."""

    #: The distance D; ``None``: one half lap for each rider but one (the elimination
    #: race: lines 1 … n−2 put a rider out, line n−1 is the finish).
    half_laps: int | None
    #: A ride starting at this distance or beyond rolls 3 dice (``None``: never).
    three_dice_from: int | None = None
    #: The kind of its scoring lines (``sprint`` or ``elimination``, the kinds of
    #: :mod:`.track`), ``""``: none.
    line_kind: str = ""
    #: Half laps from one line to the next (the first lies as far from the start).
    line_every: int = 0
    #: Points of each sprint line's first riders.
    pays: tuple[int, ...] = ()
    #: Whether some lines pay a multiple of ``pays`` (``track.POINTS_RACE_FACTORS``).
    multiplied: bool = False
    #: Whether the finish pays like a line (CY-19.11).
    finish_pays: bool = False


@dataclass(frozen=True, slots=True)
class Mode:
    """One mode of CY-2.1."""

    name: str
    #: What it is, in words.
    title: str
    #: Its name in a table's summary (the lobby, the page's header).
    word: str
    #: Fewest and most teams (players).
    teams: tuple[int, int]
    #: Riders a team, ``None`` where the option ``entries`` (1 or 2) decides.
    riders: int | None
    #: CY-2.6: ``one`` world, a world per ``rider`` or per ``team``.
    worlds: str
    #: CY-3.1: the timed modes keep "team by team, position order" every round.
    timed: bool
    #: Road (boards) or the velodrome (CY-1.6).
    road: bool
    #: Whether a course may set ``start`` (time trials only, CY-1.4).
    course_start: bool
    #: CY-7.1: whether event cards may be used, and their default.
    cards: bool
    cards_default: bool
    #: CY-8.1: whether the course's sprint and mountain lines score (green, red).
    course_lines: bool
    #: Leg times (CY-9) are kept.
    leg_times: bool
    #: A team's time is its third rider's, and every finished rider's (CY-10.3, CY-11.3).
    team_time: bool
    #: The default course (CY-1.5).
    course: str
    #: CY-11.4: a pacer leads the first lap (the keirin).
    pacer: bool
    #: CY-11.5: the rearmost rider is out at each line (the elimination race).
    eliminations: bool
    #: CY-8.5, CY-11.5: the race ends in the round its first rider finishes.
    ends_at_first_finish: bool
    #: The track event's distance and lines (CY-11.2); ``None`` on the road.
    track: TrackPlan | None


def _mode(
    name: str,
    title: str,
    word: str,
    teams: tuple[int, int],
    riders: int | None,
    worlds: str,
    *,
    timed: bool = False,
    road: bool = True,
    start: bool = False,
    cards: bool = False,
    cards_default: bool = False,
    lines: bool = False,
    leg_times: bool = False,
    team_time: bool = False,
    course: str = "velodrome",
    pacer: bool = False,
    eliminations: bool = False,
    ends_at_first_finish: bool = False,
    track: TrackPlan | None = None,
) -> Mode:
    return Mode(
        name,
        title,
        word,
        teams,
        riders,
        worlds,
        timed,
        road,
        start,
        cards,
        cards_default,
        lines,
        leg_times,
        team_time,
        course,
        pacer,
        eliminations,
        ends_at_first_finish,
        track,
    )


MODES: dict[str, Mode] = {
    m.name: m
    for m in (
        _mode(
            "classic",
            "one-day classic",
            "classic",
            (2, 6),
            4,
            ONE_WORLD,
            cards=True,
            cards_default=True,
            course="flemish-4",
        ),
        _mode(
            "leg",
            "stage of a stage race",
            "leg",
            (2, 6),
            4,
            ONE_WORLD,
            cards=True,
            lines=True,
            leg_times=True,
            course="flat-stage",
        ),
        _mode(
            "itt",
            "individual time trial",
            "individual time trial",
            (1, 6),
            4,
            WORLD_PER_RIDER,
            timed=True,
            start=True,
            course="prologue",
        ),
        _mode(
            "ttt",
            "team time trial",
            "team time trial",
            (1, 6),
            4,
            WORLD_PER_TEAM,
            timed=True,
            start=True,
            team_time=True,
            course="ttt",
        ),
        _mode(
            "sprint",
            "track sprint heat",
            "track sprint",
            (2, 2),
            1,
            ONE_WORLD,
            road=False,
            ends_at_first_finish=True,
            track=TrackPlan(4, three_dice_from=2),
        ),
        _mode(
            "team-sprint",
            "team sprint heat",
            "team sprint",
            (1, 2),
            3,
            WORLD_PER_TEAM,
            timed=True,
            road=False,
            team_time=True,
            track=TrackPlan(6),
        ),
        _mode(
            "pursuit",
            "individual pursuit heat",
            "individual pursuit",
            (1, 2),
            1,
            WORLD_PER_RIDER,
            timed=True,
            road=False,
            track=TrackPlan(4),
        ),
        _mode(
            "team-pursuit",
            "team pursuit heat",
            "team pursuit",
            (1, 2),
            4,
            WORLD_PER_TEAM,
            timed=True,
            road=False,
            team_time=True,
            track=TrackPlan(4),
        ),
        _mode(
            "keirin",
            "keirin",
            "keirin",
            (2, 6),
            None,
            ONE_WORLD,
            road=False,
            pacer=True,
            track=TrackPlan(4, three_dice_from=2),
        ),
        _mode(
            "scratch",
            "scratch race",
            "scratch race",
            (2, 6),
            None,
            ONE_WORLD,
            road=False,
            track=TrackPlan(6, three_dice_from=4),
        ),
        _mode(
            "elimination",
            "elimination race",
            "elimination race",
            (2, 6),
            None,
            ONE_WORLD,
            road=False,
            eliminations=True,
            ends_at_first_finish=True,
            track=TrackPlan(None, line_kind="elimination", line_every=1),
        ),
        _mode(
            "tempo",
            "tempo race",
            "tempo race",
            (2, 6),
            None,
            ONE_WORLD,
            road=False,
            track=TrackPlan(
                10, line_kind="sprint", line_every=1, pays=TEMPO_POINTS, finish_pays=True
            ),
        ),
        _mode(
            "points",
            "points race",
            "points race",
            (2, 6),
            None,
            ONE_WORLD,
            road=False,
            track=TrackPlan(
                12,
                line_kind="sprint",
                line_every=2,
                pays=POINTS_RACE_POINTS,
                multiplied=True,
                finish_pays=True,
            ),
        ),
    )
}

#: The modes this engine plays: every mode of the rules, road and track.
AVAILABLE = tuple(MODES)

#: The teams each mode seats (CY-2.1), for a form where the mode is chosen before the
#: seats (the web table's lobby reads it through ``GET /api/games``).
SEATS_BY_OPTION: dict[str, dict[str, tuple[int, int]]] = {
    "mode": {name: MODES[name].teams for name in AVAILABLE}
}


def mode_facts(mode: Mode) -> dict[str, Any]:
    """What a client shows of ``mode``, as JSON: its words, and the facts that choose
    the board, the panels and the create form's fields (docs/protocol.md), so that a
    client keeps no list of mode names.

    >>> facts = mode_facts(MODES["tempo"])
    >>> facts["word"], facts["road"], facts["points"], facts["entries"], facts["timed"]
    ('tempo race', False, True, True, False)
    """
    return {
        "name": mode.name,
        "title": mode.title,
        "word": mode.word,
        "road": mode.road,
        "teams": list(mode.teams),
        "riders": mode.riders,
        # the option 'entries' (1 or 2) sets the riders of a team
        "entries": mode.riders is None,
        "timed": mode.timed,
        "team_time": mode.team_time,
        "cards": mode.cards,
        "course_lines": mode.course_lines,
        # its lines pay points: a leg's sprints and mountains, a tempo or points race's
        "points": mode.course_lines or bool(mode.track and mode.track.pays),
        "eliminations": mode.eliminations,
        "pacer": mode.pacer,
        "course": mode.course,
    }


#: Each choice of an option with what a client needs to know of it, for a form where the
#: mode is chosen before any table exists (``{option: {choice: facts}}``, the facts of
#: :func:`mode_facts`; ``GET /api/games`` can serve it as it serves ``SEATS_BY_OPTION``).
CHOICE_FACTS: dict[str, dict[str, dict[str, Any]]] = {
    "mode": {name: mode_facts(MODES[name]) for name in AVAILABLE}
}

#: Levels (CY-2.3): Pro (tokens, wheel, holding back, swap) and Starter.
PRO, STARTER = "pro", "starter"
LEVELS = (PRO, STARTER)
