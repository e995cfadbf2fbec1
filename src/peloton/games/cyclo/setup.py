"""The facts of one game (CY-2): mode, course, level, teams, riders and their worlds,
events, saved tokens, and the tables the rules read, validated once.

:func:`make_setup` checks the options of CY-2 and CY-17 (``ConfigError`` naming the
option) and the course against the mode (``CourseError``, CY-1.7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import ConfigError, CourseError
from .course import RUN_OUT, UNLIMITED, Course, CourseLine, bundled_courses
from .modes import LEVELS, MODES, PRO, WORLD_PER_RIDER, WORLD_PER_TEAM, Mode
from .riders import TEAM_LETTERS, start_order, team_riders
from .terrain import TERRAIN, Terrain
from .track import ELIMINATION_RIDERS, TrackFacts, loop_space, track_facts

#: A rider never holds more than 5 own tokens, a team never more than 5 (CY-2.4).
MAX_TOKENS = 5
ENTRIES = (1, 2)


@dataclass(frozen=True)
class Setup:
    """Everything fixed for one game. Build it with :func:`make_setup`."""

    mode: Mode
    course: Course
    level: str
    events: bool
    entries: int
    teams: tuple[str, ...]
    #: Saved tokens carried from an earlier leg (option ``tokens``), by rider id.
    saved: tuple[tuple[str, int], ...] = ()
    #: The riders taking part when not whole teams (a CYN naming some riders only).
    roster: tuple[str, ...] | None = None
    #: The riders in start-line order (CY-2.5).
    riders: tuple[str, ...] = field(init=False, compare=False)
    #: Each rider's world (CY-2.6) as a small integer.
    world: dict[str, int] = field(init=False, repr=False, compare=False)
    worlds: int = field(init=False, repr=False, compare=False)
    #: N: the finish line lies after this position; the cap of every move is N+9.
    finish: int = field(init=False, compare=False)
    cap: int = field(init=False, compare=False)
    #: The lines this mode scores, course order (CY-8.1); LINES numbers them from 1.
    scoring: tuple[CourseLine, ...] = field(init=False, repr=False, compare=False)
    #: The track type of every position 0 … N+9 (the start line: position 1's).
    terrain: tuple[Terrain, ...] = field(init=False, repr=False, compare=False)
    #: Per position 0 … N+9: lanes, and how far a move ending there sends a rider back.
    widths: tuple[int, ...] = field(init=False, repr=False, compare=False)
    darks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: Per position 0 … N+9: the square set it occupies in ``Position.occupied``: the
    #: position itself on the road, its loop space on the velodrome (CY-1.6, CY-19.1).
    slots: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: The track event's facts (CY-11.2); ``None`` on the road.
    track: TrackFacts | None = field(init=False, repr=False, compare=False)
    #: Points each scoring line pays its first riders, and the finish line (CY-11.2);
    #: the road's green and red points are paid by their own tables (CY-9.3).
    pays: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    finish_pays: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        per_team = self.mode.riders or self.entries
        riders = start_order(self.teams, per_team)
        if self.roster is not None:
            riders = tuple(r for r in riders if r in self.roster)
        if self.mode.worlds == WORLD_PER_RIDER:
            world = {r: i for i, r in enumerate(sorted(riders))}
        elif self.mode.worlds == WORLD_PER_TEAM:
            world = {r: self.teams.index(r[0]) for r in riders}
        else:
            world = dict.fromkeys(riders, 0)
        course = self.course
        values: dict[str, Any]
        if course.lap is None:
            finish = course.length
            values = {
                "finish": finish,
                "scoring": course.lines if self.mode.course_lines else (),
                "terrain": tuple(TERRAIN[kind] for kind in course.kinds),
                "widths": course.widths,
                "darks": course.darks,
                "slots": tuple(range(finish + RUN_OUT + 1)),
                "track": None,
                "pays": (),
                "finish_pays": (),
            }
        else:
            assert course.width is not None and self.mode.track is not None
            facts = track_facts(self.mode.track, lap=course.lap, riders=len(riders))
            finish = facts.distance
            size = finish + RUN_OUT + 1
            values = {
                "finish": finish,
                "scoring": facts.lines,
                "terrain": (TERRAIN["track"],) * size,
                "widths": (UNLIMITED,) + (course.width,) * finish + (UNLIMITED,) * RUN_OUT,
                "darks": (0,) * size,
                # the run-out keeps its own squares: D + 1 > lap, past every loop space
                "slots": (
                    0,
                    *(loop_space(d, course.lap) for d in range(1, finish + 1)),
                    *range(finish + 1, size),
                ),
                "track": facts,
                "pays": facts.pays,
                "finish_pays": facts.finish_pays,
            }
        values |= {
            "riders": riders,
            "world": world,
            "worlds": len(set(world.values())),
            "cap": finish + RUN_OUT,
        }
        for key, value in values.items():
            object.__setattr__(self, key, value)

    @property
    def is_track(self) -> bool:
        """Whether this is a track event on the velodrome (CY-11)."""
        return self.track is not None

    @property
    def pro(self) -> bool:
        """Pro level: tokens, wheel, holding back and swap (CY-2.3)."""
        return self.level == PRO

    @property
    def boards(self) -> int:
        """B, the boards of the course (CY-1.4)."""
        return len(self.course.boards)

    def team_riders(self, team: str) -> tuple[str, ...]:
        """A team's riders in this game, S1 first."""
        return tuple(
            r for r in team_riders(team, self.mode.riders or self.entries) if r in self.world
        )

    def own_tokens(self, rider: str) -> int:
        """A rider's own tokens at the start (CY-2.4): min(5, B + saved) on the road,
        min(5, 3 + saved) on the track; none in Starter."""
        if not self.pro:
            return 0
        base = self.boards if self.mode.road else 3
        return min(MAX_TOKENS, base + dict(self.saved).get(rider, 0))

    def team_tokens(self) -> int:
        """A team's tokens at the start: min(5, B) on the road, none on the track."""
        return min(MAX_TOKENS, self.boards) if self.pro and self.mode.road else 0

    def options(self) -> dict[str, Any]:
        """The JSON options that rebuild this setup (CY-15.1: the course inline)."""
        return {
            "mode": self.mode.name,
            "teams": list(self.teams),
            "course": self.course.to_dict(),
            "level": self.level,
            "events": self.events,
            "entries": self.entries,
            "tokens": dict(self.saved) or None,
        }


def resolve_course(
    course: Course | str | Mapping[str, Any] | None, mode: Mode, *, files: bool = True
) -> Course:
    """The course of a game: a :class:`Course`, a bundled name (or, with ``files``, a
    file path), inline keys, or ``None`` for the mode's default (CY-1.5)."""
    if course is None:
        return Course.load(mode.course)
    if isinstance(course, Course):
        return course
    if isinstance(course, str):
        if not files and course not in bundled_courses():
            raise CourseError(
                f"no bundled course called {course!r} (bundled: {', '.join(bundled_courses())})"
            )
        return Course.load(course)
    if isinstance(course, Mapping):
        return Course.from_dict(course)
    raise ConfigError(f"option 'course' must be a course name or a course object, not {course!r}")


def make_setup(
    mode: object = "classic",
    *,
    players: object = None,
    teams: object = None,
    course: Course | str | Mapping[str, Any] | None = None,
    level: object = PRO,
    events: object = None,
    entries: object = 1,
    tokens: object = None,
    files: bool = True,
    roster: tuple[str, ...] | None = None,
) -> Setup:
    """Validate the options of CY-2 and build the game's :class:`Setup`.

    ``roster`` names the riders of a position that fields some riders only (a CYN,
    CY-14.2): then fewer teams than the mode's least may take part.

    Raises :class:`ConfigError` naming the option, :class:`CourseError` for a course
    that does not suit the mode (CY-1.7)."""
    if not isinstance(mode, str) or mode not in MODES:
        raise ConfigError(f"unknown mode {mode!r} (modes: {', '.join(MODES)})")
    the_mode = MODES[mode]
    if not isinstance(level, str) or level not in LEVELS:
        raise ConfigError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    chosen = _teams(the_mode, players, teams, partial=roster is not None)
    if isinstance(entries, bool) or entries not in ENTRIES:
        raise ConfigError(f"option 'entries' must be 1 or 2, not {entries!r}")
    assert isinstance(entries, int)
    if entries != 1 and the_mode.riders is not None:
        raise ConfigError(
            f"option 'entries' sets the riders a team in keirin, scratch, elimination, tempo and "
            f"points races; a {mode} team has {the_mode.riders} (CY-2.1)"
        )
    if events is None:
        events = the_mode.cards_default
    if not isinstance(events, bool):
        raise ConfigError(f"option 'events' must be true or false, not {events!r}")
    if events and not the_mode.cards:
        raise ConfigError(
            f"mode {mode!r} has no event cards: they are for classic and leg (CY-7.1)"
        )
    count = len(roster) if roster is not None else len(chosen) * (the_mode.riders or entries)
    if the_mode.eliminations and count < ELIMINATION_RIDERS:
        raise ConfigError(
            f"an elimination race needs at least {ELIMINATION_RIDERS} riders, not {count} "
            "(more teams, or 'entries': 2; CY-2.1)"
        )
    the_course = resolve_course(course, the_mode, files=files)
    problems = course_mode_problems(the_course, the_mode)
    if problems:
        raise CourseError(problems, the_course.name)
    saved = _saved(tokens, the_mode, chosen, entries, level)
    return Setup(the_mode, the_course, level, events, entries, chosen, saved, roster)


def course_mode_problems(course: Course, mode: Mode) -> list[str]:
    """The CY-1.7 problems of a course in a mode: a start space in a mass-start mode, a
    road course in a track mode or the reverse."""
    label = f"course {course.name!r}"
    problems = []
    if mode.road and course.is_track:
        problems.append(f"{label} is the velodrome; mode {mode.name!r} races on the road")
    if not mode.road and not course.is_track:
        problems.append(f"{label} is a road course; mode {mode.name!r} races on the velodrome")
    if course.start != 1 and not mode.course_start:
        problems.append(
            f"{label} starts at space {course.start} of its first board; only time trials may set "
            f"'start', not mode {mode.name!r}"
        )
    return problems


def _teams(mode: Mode, players: object, teams: object, *, partial: bool = False) -> tuple[str, ...]:
    low, high = mode.teams
    if teams is None:
        count = 2 if players is None else players
        if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
            raise ConfigError(
                f"option 'players' must be {low} to {high} teams in mode {mode.name!r}, not {count!r}"
            )
        return tuple(TEAM_LETTERS[:count])
    if (
        not isinstance(teams, Sequence)
        or isinstance(teams, str)
        or not all(isinstance(t, str) for t in teams)
    ):
        raise ConfigError(
            f'option \'teams\' must list team letters, e.g. ["C", "E"], not {teams!r}'
        )
    chosen = tuple(teams)
    if any(t not in TEAM_LETTERS for t in chosen) or list(chosen) != sorted(set(chosen)):
        raise ConfigError(
            f"option 'teams' must list different letters A-F in ascending order, not {teams!r}"
        )
    if not low <= len(chosen) <= high and not (partial and 1 <= len(chosen) <= high):
        raise ConfigError(
            f"option 'teams' lists {len(chosen)} teams; mode {mode.name!r} takes {low} to {high}"
        )
    if players is not None and players != len(chosen):
        raise ConfigError(f"option 'players' is {players!r} but 'teams' lists {len(chosen)} teams")
    return chosen


def _saved(
    tokens: object, mode: Mode, teams: tuple[str, ...], entries: int, level: str
) -> tuple[tuple[str, int], ...]:
    if tokens is None:
        return ()
    if not isinstance(tokens, Mapping):
        raise ConfigError(
            f"option 'tokens' must map rider ids to saved tokens, e.g. {{\"AS1\": 2}}, not {tokens!r}"
        )
    if not tokens:
        return ()
    if level != PRO:
        raise ConfigError("option 'tokens': Starter has no tokens (CY-2.3)")
    riders = set(start_order(teams, mode.riders or entries))
    for rider, count in tokens.items():
        if rider not in riders:
            raise ConfigError(f"option 'tokens' names {rider!r}, not a rider of this game")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_TOKENS:
            raise ConfigError(
                f"option 'tokens': {rider} may save 0 to {MAX_TOKENS} tokens, not {count!r} (CY-2.4)"
            )
    return tuple(sorted((str(r), int(c)) for r, c in tokens.items()))
