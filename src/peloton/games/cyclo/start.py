"""Starting a game: the typed constructor :func:`new_game` (CY-16), the JSON options
(:data:`OPTIONS`, :func:`from_options`) and a game from a position (:func:`from_cyn`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import ConfigError, NotationError
from ...core.registry import Option
from .cards import CARD, CARDS
from .course import Course, bundled_courses
from .cyn import Cyn, parse_cyn
from .modes import AVAILABLE, LEVELS, MODES, PRO
from .position import Position
from .riders import LANE_LETTERS, SLOTS
from .rules import pacer_after
from .scoring import own_time
from .setup import MAX_TOKENS, Setup, make_setup
from .state import State

#: ``from_options``'s options (the names of :func:`new_game` but ``seed``); ``None``
#: takes the mode's default.
OPTIONS: dict[str, Option] = {
    "mode": Option(
        "classic",
        "classic (one-day race), leg (a stage with green and red points), itt or ttt "
        "(individual or team time trial); on the velodrome: sprint, team-sprint, pursuit, "
        "team-pursuit, keirin, scratch, elimination, tempo, points",
        AVAILABLE,
    ),
    "players": Option(
        2,
        "teams: 2 to 6 of 4 riders (time trials: 1 to 6); on the track a sprint 2 of 1, a "
        "team sprint 1-2 of 3, a pursuit 1-2 of 1, a team pursuit 1-2 of 4, the bunch "
        "races 2 to 6 of 'entries'",
    ),
    "teams": Option(
        None,
        'the team letters taking part, ascending, e.g. ["C", "E"] (default: the first \'players\')',
    ),
    "course": Option(
        None,
        "a bundled course or a course object (default: flemish-4 in a classic, flat-stage in a "
        "leg, prologue in an itt, ttt in a ttt, velodrome on the track)",
        tuple(bundled_courses()),
    ),
    "level": Option(PRO, "pro (tokens, wheel, holding back, swap) or starter", LEVELS),
    "events": Option(
        None, "event cards on the event spaces (default: on in a classic, off in a leg)"
    ),
    "entries": Option(
        1, "riders a team in keirin, scratch, elimination, tempo and points races (1 or 2)"
    ),
    "tokens": Option(
        None, 'saved tokens carried from an earlier leg, by rider id, e.g. {"AS1": 2}'
    ),
}


def new_game(
    mode: str = "classic",
    *,
    players: int | None = None,
    teams: list[str] | tuple[str, ...] | None = None,
    course: Course | str | Mapping[str, Any] | None = None,
    level: str = PRO,
    events: bool | None = None,
    entries: int = 1,
    tokens: Mapping[str, int] | None = None,
    seed: int | None = None,
) -> State:
    """A new game on the start line (CY-2.5).

    ``players`` (default 2) or ``teams`` (letters, ascending) say who takes part;
    ``course`` is a :class:`Course`, a bundled name or file, or inline keys (default:
    the mode's, CY-1.5); ``events`` defaults to on in a classic only; ``tokens`` maps
    rider ids to saved tokens; ``seed`` is kept for the record (the seed of the one
    chance stream the caller draws from, CY-13.2). :class:`ConfigError` (or
    :class:`CourseError`) names a bad option.

    >>> state = new_game("classic", players=2, level="starter", events=False)
    >>> state.rider("AH2").square, state.current_player, state.phase
    ('g0', 'chance', 'roll')
    """
    setup = make_setup(
        mode,
        players=players,
        teams=teams,
        course=course,
        level=level,
        events=events,
        entries=entries,
        tokens=tokens,
    )
    return State(setup, start_position(setup), seed=seed)


def start_position(setup: Setup) -> Position:
    """Every rider on the start line in CY-2.5 order, lanes a, b, … within its world,
    with its own tokens and its team's (CY-2.4)."""
    position = Position(setup)
    lanes = [0] * setup.worlds
    for rider in setup.riders:
        world = setup.world[rider]
        position.put(rider, world, 0, lanes[world])
        lanes[world] += 1
        if setup.pro:
            position.own[rider] = setup.own_tokens(rider)
    for team in setup.teams:
        if setup.team_tokens():
            position.team[team] = setup.team_tokens()
    if setup.mode.pacer:  # CY-11.4: round 1 begins with the pacer's first move
        position.pacer = pacer_after(setup, 0)
    return position


def from_options(options: Mapping[str, Any] | None = None) -> State:
    """A new game from JSON options (:data:`OPTIONS`); missing ones take their
    defaults; unknown or bad ones raise :class:`ConfigError` naming the option. A text
    ``course`` must be a bundled name (never a file path)."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ConfigError(
            f"unknown Cyclo option(s) {', '.join(map(repr, unknown))} (known: {', '.join(OPTIONS)})"
        )
    value = {name: options.get(name, option.default) for name, option in OPTIONS.items()}
    players = options.get("players")
    if players is None and options.get("teams") is None:
        players = OPTIONS["players"].default
    course = value["course"]
    if course is not None and not isinstance(course, str | Mapping):
        raise ConfigError(
            f"option 'course' must be a course name or a course object, not {course!r}"
        )
    setup = make_setup(
        value["mode"],
        players=players,
        teams=value["teams"],
        course=course,
        level=value["level"],
        events=value["events"],
        entries=value["entries"],
        tokens=value["tokens"],
        files=False,
    )
    return State(setup, start_position(setup))


def from_cyn(
    text: str,
    mode: str = "classic",
    *,
    course: Course | str | Mapping[str, Any] | None = None,
    level: str = PRO,
    events: bool | None = None,
    entries: int | None = None,
    seed: int | None = None,
) -> State:
    """The game at the start of the round a CYN describes (CY-14.2). The teams and
    riders are those it names; so are a track race's ``entries`` when not given (2
    when it names a team's second rider, ``C1``). :class:`NotationError` for text that
    does not parse or an impossible position, saying why; :class:`ConfigError` for bad
    options.

    >>> state = from_cyn("9 AS1:a30*4,BH1:a29*4 / A*4,B*4", course="flemish-4")
    >>> state.phase, state.due, [str(m) for m in state.legal_moves()]
    ('swap', 'AS1', ['AS1~-', 'AS1~BH1'])
    """
    cyn = parse_cyn(text)
    named = [*cyn.riders, *(entry.rider for entry in cyn.done)]
    if not named:
        raise NotationError(f"CYN {text!r} names no rider")
    if entries is None:
        entries = _entries_named(mode, named)
    teams = sorted({r[0] for r in named})
    setup = make_setup(
        mode,
        teams=teams,
        course=course,
        level=level,
        events=events,
        entries=entries,
        roster=tuple(named),
    )
    problems = cyn_problems(setup, cyn)
    if problems:
        raise NotationError(f"CYN {text!r} is not a possible position: " + "; ".join(problems))
    return State(setup, cyn_position(setup, cyn), seed=seed, start=cyn.to_text())


def _entries_named(mode: str, named: list[str]) -> int:
    """The ``entries`` a CYN's riders show: 2 in a mode whose teams field one or two
    riders when one of them is a team's second (``C1``), else 1."""
    the_mode = MODES.get(mode)
    if the_mode is None or the_mode.riders is not None:
        return 1  # a mode of its own team size (or none: make_setup says so)
    return 2 if any(rider[1:] == SLOTS[1] for rider in named) else 1


def from_position(text: str, options: Mapping[str, Any] | None = None) -> State:
    """The game at CYN ``text`` under game ``options`` as :func:`from_options` takes
    them, the defaults filling the rest; ``players``, ``teams`` and ``tokens`` are
    refused (:class:`ConfigError`): a CYN names its own riders and tokens."""
    options = dict(options or {})
    named = sorted(set(options) & {"players", "teams", "tokens"})
    if named:
        raise ConfigError(
            f"option(s) {', '.join(named)}: a position (CYN) names its own riders and tokens"
        )
    value = {name: option.default for name, option in OPTIONS.items()} | options
    return from_cyn(
        text,
        value["mode"],
        course=value["course"],
        level=value["level"],
        events=value["events"],
        entries=options.get("entries"),  # else read from the riders the CYN names
    )


def cyn_problems(setup: Setup, cyn: Cyn) -> list[str]:
    """Why a parsed CYN cannot be a position of this game (empty when it can)."""
    problems = []
    mode, course = setup.mode, setup.course
    per_team = mode.riders or setup.entries
    named = sorted({*cyn.riders, *(entry.rider for entry in cyn.done)})
    for rider in named:
        if SLOTS.index(rider[1:]) >= per_team:
            more = " (option 'entries': 2 fields S1 and C1)" if mode.riders is None else ""
            problems.append(
                f"{rider} is not a rider of a {mode.name} team ({per_team} a team){more}"
            )
    if problems:  # the checks below look riders up in the game's roster
        return problems
    done = {entry.rider for entry in cyn.done}
    for rider in sorted(done & set(cyn.riders)):
        problems.append(f"{rider} is both racing and done")
    if not cyn.riders:
        problems.append("no rider is racing")
    squares: dict[tuple[int, int, int], str] = {}
    for rider, entry in cyn.riders.items():
        where = f"{LANE_LETTERS[entry.lane]}{entry.position}"
        if entry.position > setup.finish:
            problems.append(
                f"{rider} on {where} is off the course (1-{setup.finish}; racing riders are never "
                "past the finish line at the start of a round)"
            )
        elif entry.lane >= setup.widths[entry.position]:
            problems.append(
                f"{rider} on {where}: position {entry.position} is {setup.widths[entry.position]} "
                "lanes wide"
            )
        if entry.position > setup.finish:
            continue
        # on the velodrome distances a lap apart share a loop space's lanes (CY-19.1)
        key = (setup.world[rider], setup.slots[entry.position], entry.lane)
        if key in squares:
            problems.append(f"{squares[key]} and {rider} are both on {where}")
        squares[key] = rider
        if entry.hunger and setup.pro:
            problems.append(
                f"{rider} has a hunger flag, which only Starter's hunger knock sets (CY-7.4)"
            )
    for rider, tokens, points, red in cyn.holdings():
        if tokens and not setup.pro:
            problems.append(f"{rider} holds tokens in Starter (CY-2.3)")
        if tokens > MAX_TOKENS:
            problems.append(f"{rider} holds {tokens} own tokens, more than {MAX_TOKENS} (CY-2.4)")
        if (red and not mode.course_lines) or (
            points and not mode.course_lines and not setup.finish_pays
        ):
            problems.append(
                f"{rider} has points, which a {mode.name} does not give (CY-8.1, CY-11.2)"
            )
    for team, n in cyn.team_tokens.items():
        if team not in setup.teams:
            problems.append(f"team {team} has tokens but no rider")
        elif not setup.pro or not mode.road:
            problems.append(f"team {team} has team tokens, which only Pro road races have (CY-2.4)")
        elif n > MAX_TOKENS:
            problems.append(f"team {team} holds {n} tokens, more than {MAX_TOKENS} (CY-2.4)")
    problems += _done_problems(setup, cyn)
    for k, listed in cyn.lines.items():
        if not 1 <= k <= len(setup.scoring):
            scored = f"lines 1-{len(setup.scoring)}" if setup.scoring else "no line but the finish"
            problems.append(
                f"LINES names line {k}; a {mode.name} on {course.name} scores {scored} (CY-8.1)"
            )
        for rider in sorted(set(listed)):
            if rider not in setup.world:
                problems.append(f"line {k} lists {rider}, who is not in the position")
            elif listed.count(rider) > 1:
                problems.append(f"line {k} lists {rider} twice")
    if cyn.deck and not setup.events:
        problems.append("DECK lists cards drawn, but this game has no event cards (CY-7.1)")
    for card in sorted(set(cyn.deck)):
        if cyn.deck.count(card) > CARD[card].count:
            problems.append(
                f"DECK lists {cyn.deck.count(card)} '{card}' cards; the deck has {CARD[card].count}"
            )
    problems += _pacer_problems(setup, cyn)
    return problems


def _pacer_problems(setup: Setup, cyn: Cyn) -> list[str]:
    """CY-11.4: the keirin pacer rides at 7 a round while within the first lap (``P:n``
    is the pacer after its move for the round, CY-19.17), and every racing rider is
    behind it."""
    if not setup.mode.pacer:
        return [] if cyn.pacer is None else ["only a keirin has a pacer (P:n)"]
    pacer: int | None = 0
    for _ in range(cyn.round):
        pacer = None if pacer is None else pacer_after(setup, pacer)
    if cyn.pacer != pacer:
        if pacer is None:
            return [f"the pacer has left the track before round {cyn.round} (CY-11.4): no P:n"]
        return [f"in round {cyn.round} the pacer rides at P:{pacer}, not {cyn.pacer} (CY-11.4)"]
    ahead = sorted(r for r, entry in cyn.riders.items() if pacer and entry.position >= pacer)
    return [f"{r} is at or past the pacer on {pacer} (CY-11.4)" for r in ahead]


def _done_problems(setup: Setup, cyn: Cyn) -> list[str]:
    problems = []
    mode = setup.mode
    if mode.ends_at_first_finish and any(entry.finished for entry in cyn.done):
        problems.append(
            f"a {mode.name} ends in the round its first rider finishes (CY-8.5, CY-11.5)"
        )
    if mode.eliminations:
        out = sum(not entry.finished for entry in cyn.done)
        passed = sum(1 for k in cyn.lines if 1 <= k <= len(setup.scoring))
        if out != passed:
            problems.append(
                f"DONE has {out} rider(s) out, but {passed} elimination line(s) have been "
                "passed: each puts one rider out (CY-11.5)"
            )
    before: tuple[int, int] | None = None
    for entry in cyn.done:
        rider = entry.rider
        if not entry.finished:
            if not mode.eliminations:
                problems.append(f"{rider} is out, but a {setup.mode.name} eliminates nobody")
            continue
        assert entry.round is not None and entry.past is not None
        if not 1 <= entry.past <= 9:
            problems.append(
                f"{rider} finished {entry.past} squares past the line; the run-out has 9 (CY-1.4)"
            )
        if entry.round >= cyn.round:
            problems.append(
                f"{rider} finished in round {entry.round}, not before round {cyn.round}"
            )
        if entry.time is not None and not setup.mode.timed:
            problems.append(
                f"{rider} has a time (={entry.time}), written only in the timed modes (CY-19.15)"
            )
        if setup.mode.timed and entry.time is None:
            problems.append(f"{rider} has no time (=t), required in the timed modes (CY-19.15)")
        elif setup.mode.timed and entry.time != own_time(entry.round, entry.past):
            problems.append(
                f"{rider} finished in round {entry.round}, {entry.past} past the line: its time is "
                f"{own_time(entry.round, entry.past)}, not {entry.time} (CY-10.2)"
            )
        if before is not None and (
            entry.round < before[0] or (entry.round == before[0] and entry.past > before[1])
        ):
            problems.append(
                f"DONE is not in finishing order at {rider} (rounds ascending, then the furthest "
                "past the line first, CY-8.3)"
            )
        before = (entry.round, entry.past)
    return problems


def cyn_position(setup: Setup, cyn: Cyn) -> Position:
    """The :class:`Position` a checked CYN describes."""
    position = Position(setup)
    position.round = cyn.round
    for rider, entry in cyn.riders.items():
        position.put(rider, setup.world[rider], entry.position, entry.lane)
        for flag, on in ((position.skip, entry.skip), (position.technical, entry.technical)):
            if on:
                flag.add(rider)
        if entry.hunger:
            position.hunger[rider] = entry.hunger
    for rider, tokens, points, red in cyn.holdings():
        if setup.pro:
            position.own[rider] = tokens
        if points:
            position.points[rider] = points
        if red:
            position.red[rider] = red
    for done in cyn.done:
        if done.round is not None and done.past is not None:
            position.finishers.append((done.rider, done.round, done.past))
            position.finished.add(done.rider)
        else:
            position.out.append(done.rider)
    if setup.pro and setup.mode.road:
        position.team = {team: cyn.team_tokens.get(team, 0) for team in setup.teams}
    for k, listed in cyn.lines.items():
        position.lists[k - 1] = list(listed)
    position.pacer = cyn.pacer
    for card in cyn.deck:
        position.drawn[[c.id for c in CARDS].index(card)] += 1
    return position
