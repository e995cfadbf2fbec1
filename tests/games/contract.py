"""The contract every registered game keeps (docs/games.md, "The conformance suite").

pgx's ``api_test`` is the model: one generic check, run on every game, beside each
game's own rule tests. :func:`check_contract` runs all of it on a game package;
:data:`CHECKS` names its parts, so that ``test_contract.py`` says which part a game
breaks. Nothing here knows a game: a game is its package and its registry entry
(``GameInfo``), and a fourth game is checked as soon as it registers.

Each check plays the same random games, one per seed: the options vary the seat count
over the declared range and, every other seed, the options' declared choices; moves
are drawn uniformly from ``legal_moves()`` with ``random.Random(seed)``, chance steps
from ``chance_move(Rng(seed))``. Some checks run at every step, the heavier ones at a
few cut points of each game (and at its end). Text input is fuzzed with Hypothesis.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.bots import Bot, bot_view, make_bot
from peloton.core import registry
from peloton.core.errors import ConfigError, IllegalMoveError, NotationError, StateError
from peloton.core.protocol import CHANCE, GameState, Move
from peloton.core.record import load_record
from peloton.core.registry import GameInfo, Heuristics
from peloton.core.rng import Rng

#: A random game not over after this many moves fails the contract ("random games end").
MAX_MOVES = 20_000
#: Cut points per game (besides its start and end) where the heavier checks run.
CUTS = 3
#: Moves a copy, a view or the original is played on after a cut (independence).
AHEAD = 12
#: The checks that cost most at a step run at one step in this many.
SPARSE = 4
#: Draws per outcome when the odds of a chance step are measured.
DRAWS_PER_OUTCOME = 200
#: Determinizations of each view tried against the secret (hidden information).
DRAWS = 4
#: Texts that are no move of any game.
MALFORMED = ("", " ", "~~", "\n", "%%%", "move", "\x00")
#: What every snapshot holds (docs/games.md), besides what the game's board needs.
SNAPSHOT_KEYS = frozenset({"game", "players", "current_player", "is_over", "result", "legal"})
#: Values that are not moves (plain values, a tuple), played instead of a move.
NOT_MOVES: tuple[Any, ...] = (5, None, 2.5, ("x",), b"x")
#: What a Python repr leaves in a text (a call, brackets, a constant, a quoted string):
#: none of it may show in a move's sentence.
REPR_TRACES = re.compile(r"\w\(|[\[\]{}<>]|\b(?:None|True|False)\b|'[^' ]*'|\"|\\")


@dataclass(frozen=True)
class ForeignMove:
    """A move of another game, whose text may be a legal move's: never played."""

    text: str
    game = "contract-foreign"

    def __str__(self) -> str:
        return self.text


# ---------------------------------------------------------------- games and walks


def info_of(package: ModuleType) -> GameInfo:
    """The registry entry of the game ``package`` implements."""
    return registry.get(package.from_options({}).game)


@cache
def seat_counts(package: ModuleType) -> tuple[int, ...]:
    """The seat counts the walks use: every declared one that the default options
    accept (``check_facts`` says which declared ones need other options)."""
    info = info_of(package)
    if "players" not in info.options:
        return (len(package.from_options({}).players),)
    counts = []
    for n in range(info.min_players, info.max_players + 1):
        try:
            package.from_options({"players": n})
        except ConfigError:
            continue
        counts.append(n)
    return tuple(counts)


def random_options(package: ModuleType, seed: int) -> dict[str, Any]:
    """The options of the walk of ``seed``: a seat count, and every other seed a
    random declared choice for each option that has choices. When the game refuses
    that combination (a solo course for six teams, a road course for a track event),
    one choice is left to its default, the last declared first, and when that is not
    enough none is taken."""
    info = info_of(package)
    counts = seat_counts(package)
    options: dict[str, Any] = {}
    if "players" in info.options:
        options["players"] = counts[seed % len(counts)]
    if seed % 2:
        rnd = random.Random(seed)
        chosen = {
            name: rnd.choice(option.choices)
            for name, option in info.options.items()
            if option.choices
        }
        names = list(chosen)
        for left in [None, *reversed(names)]:
            tried = {name: value for name, value in chosen.items() if name != left}
            try:
                package.from_options({**options, **tried})
            except ConfigError:
                continue
            return options | tried
    return options


@dataclass
class Walk:
    """One random game: its options and every move played, chance rolls included."""

    seed: int
    options: dict[str, Any]
    moves: list[Any] = field(default_factory=list)
    met_chance: bool = False

    def cuts(self) -> list[int]:
        """The move counts at which the heavier checks look: the start, a few random
        points and the end."""
        rnd = random.Random(self.seed + 1)
        inner = sorted(
            rnd.sample(range(1, len(self.moves)), min(CUTS, max(0, len(self.moves) - 1)))
        )
        return [0, *inner, len(self.moves)]


@cache
def walk(package: ModuleType, seed: int) -> Walk:
    """The random game of ``seed`` (played once, then replayed by each check); fails
    if it does not end within :data:`MAX_MOVES` moves."""
    options = random_options(package, seed)
    state = package.from_options(options)
    played = Walk(seed, options)
    rnd, dice = random.Random(seed), Rng(seed)
    while not state.is_over:
        if len(played.moves) >= MAX_MOVES:
            pytest.fail(
                f"{state.game} (options {options}, seed {seed}): not over after {MAX_MOVES} random moves"
            )
        if state.is_chance:
            played.met_chance = True
            move = state.chance_move(dice)
        else:
            legal = state.legal_moves()
            move = legal[rnd.randrange(len(legal))]
        state.play(move)
        played.moves.append(move)
    return played


def steps(package: ModuleType, played: Walk) -> Iterator[tuple[int, Any]]:
    """Replay ``played``: ``(moves played, state)`` before each move and at the end.
    The state is live: a check may look and may try what must leave it unchanged."""
    state = package.from_options(played.options)
    for i, move in enumerate(played.moves):
        yield i, state
        state.play(move)
    yield len(played.moves), state


def at_cuts(package: ModuleType, played: Walk) -> Iterator[tuple[int, Any]]:
    """:func:`steps`, only at the walk's cut points."""
    cuts = set(played.cuts())
    return ((i, state) for i, state in steps(package, played) if i in cuts)


def viewers(state: Any) -> list[str | None]:
    """Everyone who may look at a game: each player and a spectator (``None``)."""
    return [*state.players, None]


def texts(moves: Iterable[Any]) -> list[str]:
    return [str(m) for m in moves]


def fingerprint(state: Any) -> tuple[Any, ...]:
    """What the protocol shows of a state, to say it did not change (with ``==``
    against a copy taken before, which compares everything the game holds)."""
    return (state.current_player, state.is_over, state.is_chance, texts(state.legal_moves()))


def unchanged(state: Any, before: Any, shown: tuple[Any, ...]) -> bool:
    """Whether ``state`` is still what ``before`` (its copy) and ``shown`` (its
    :func:`fingerprint`) say it was."""
    return state == before and fingerprint(state) == shown


def random_move(state: Any, rnd: random.Random, dice: Rng) -> Any:
    if state.is_chance:
        return state.chance_move(dice)
    legal = state.legal_moves()
    return legal[rnd.randrange(len(legal))]


def play_ahead(state: Any, moves: int, seed: int) -> None:
    """Play up to ``moves`` random moves on ``state`` (fewer if the game ends)."""
    rnd, dice = random.Random(seed), Rng(seed)
    for _ in range(moves):
        if state.is_over:
            return
        state.play(random_move(state, rnd, dice))


def snapshot_of(package: ModuleType) -> Callable[..., dict[str, Any]]:
    """The package's ``snapshot(state, viewer)`` (docs/games.md)."""
    snapshot: Callable[..., dict[str, Any]] | None = getattr(package, "snapshot", None)
    assert callable(snapshot), (
        f"{package.__name__} exports no snapshot(state, viewer) function (docs/games.md)"
    )
    return snapshot


# ---------------------------------------------------------------- the checks


def check_facts(package: ModuleType, seeds: Iterable[int]) -> None:
    """The registry entry agrees with the package and the game: name, package, options
    (each documented, defaults JSON and accepted, unknown ones refused), seat range,
    heuristics (known hooks; ``determinize`` and ``observe`` with hidden information)
    and the game's own bots."""
    state = package.from_options({})
    assert isinstance(state, GameState)
    info = registry.get(state.game)
    assert info.name == state.game and registry.package(info.name) == package.__name__
    assert info.name in registry.names()
    assert dict(info.options) == dict(package.OPTIONS)
    assert info.load_record is package.load_record
    assert dict(info.heuristics) == dict(package.HEURISTICS)
    unknown = set(info.heuristics) - set(Heuristics.__annotations__)
    assert not unknown, (
        f"unknown heuristics {sorted(unknown)} (known: {sorted(Heuristics.__annotations__)})"
    )
    assert all(callable(hook) for hook in info.heuristics.values())
    if info.hidden_information:
        assert {"determinize", "observe"} <= set(info.heuristics), (
            "hidden information needs determinize and observe"
        )
    defaults = {name: option.default for name, option in info.options.items()}
    assert json.loads(json.dumps(defaults)) == defaults, "option defaults must be JSON values"
    assert package.from_options(defaults) == state
    with pytest.raises(ConfigError, match="no_such_option"):
        package.from_options({"no_such_option": 1})
    check_seats(package, info)
    for name in info.bots:
        bot = make_bot(name, 1, game=info.name)
        assert isinstance(bot, Bot)
        start = package.from_options({})
        while start.is_chance:
            start.play(start.chance_move(Rng(1)))
        assert bot.choose(bot_view(start)) in start.legal_moves()


def check_seats(package: ModuleType, info: GameInfo) -> None:
    """``from_options({"players": n})`` is accepted exactly for the declared seat range
    (a count the defaults cannot seat, 7 teams of 6 riders, may be seated with other
    declared choices); a game without a ``players`` option has one fixed count."""
    if "players" not in info.options:
        players = package.from_options({}).players
        assert info.min_players == info.max_players == len(players)
        return
    refused = [0, info.min_players - 1, info.max_players + 1, info.max_players + 2, "2", True]
    for n in refused:
        if type(n) is int and info.min_players <= n <= info.max_players:
            continue  # min_players - 1 when it is 0
        with pytest.raises(ConfigError, match="players"):
            package.from_options({"players": n})
    chosen = {
        name: option.choices
        for name, option in info.options.items()
        if option.choices and name != "players"
    }
    combos = [
        dict(zip(chosen, values, strict=True)) for values in itertools.product(*chosen.values())
    ]
    for n in range(info.min_players, info.max_players + 1):
        for extra in [{}, *combos]:
            try:
                state = package.from_options({**extra, "players": n})
            except ConfigError:
                continue
            assert len(state.players) == n
            break
        else:
            pytest.fail(
                f"{info.name} declares {info.min_players}..{info.max_players} seats but no declared options "
                f"seat {n}: from_options({{'players': {n}}}) is refused with the defaults and with every "
                f"combination of declared choices ({', '.join(chosen) or 'none'})"
            )


def check_random_games(package: ModuleType, seeds: Iterable[int]) -> None:
    """Random games end; whoever acts is a player, :data:`CHANCE` at a chance step and
    nobody once over, when there is no legal move; ``has_chance`` is true exactly when
    random games meet chance steps."""
    info = info_of(package)
    met = False
    for seed in seeds:
        played = walk(package, seed)
        met |= played.met_chance
        for _, state in steps(package, played):
            assert isinstance(state, GameState)
            over = state.is_over
            assert (state.legal_moves() == []) == over
            if over:
                assert state.current_player is None and not state.is_chance
            elif state.is_chance:
                assert state.current_player == CHANCE
            else:
                assert state.current_player in state.players
    assert met == info.has_chance, (
        f"{info.name}: has_chance is {info.has_chance} but random games met chance: {met}"
    )


def check_moves(package: ModuleType, seeds: Iterable[int]) -> None:
    """Every legal move is a core ``Move`` of its game, distinct from the others, and
    its text parses back to it: ``parse_move(str(m)) == m``."""
    for seed in seeds:
        played = walk(package, seed)
        cuts = set(played.cuts())
        # Parsing needs no state (STYLE.md 2): each distinct move is read back once a
        # game, not at every step that offers it again (a roll is on offer at every
        # chance step).
        checked: set[Any] = set()
        for i, state in steps(package, played):
            legal = state.legal_moves()
            assert len(set(legal)) == len(legal), "legal_moves() lists a move twice"
            # A runtime protocol check costs some 30 us: every move at the cuts, the
            # first and last elsewhere.
            for move in legal if i in cuts else legal[:1] + legal[-1:]:
                assert isinstance(move, Move), f"{move!r} is not a core Move"
            for move in legal:
                if move in checked:
                    continue
                checked.add(move)
                assert move.game == state.game
                assert state.parse_move(str(move)) == move, (
                    f"{move!r} does not round-trip through {str(move)!r}"
                )


def check_sentences(package: ModuleType, seeds: Iterable[int]) -> None:
    """``GameInfo.describe(state, move)`` says every legal move of the random games in
    a sentence: non-empty text, without Python reprs, that leaves the state unchanged.
    With hidden information each viewer's view describes the move as that viewer sees
    it (``public_moves``), a secret included (``dial:?``)."""
    info = info_of(package)
    assert info.describe is not None, (
        f"{info.name} declares no describe(state, move) in its GameInfo (docs/games.md)"
    )
    describe = info.describe

    def said(state: Any, move: Any) -> None:
        sentence = describe(state, move)
        assert isinstance(sentence, str) and sentence.strip(), (
            f"{state.game}: describe gave {sentence!r} for {str(move)!r}"
        )
        assert sentence == sentence.strip() and "\n" not in sentence, (
            f"{state.game}: the sentence for {str(move)!r} is not one line: {sentence!r}"
        )
        trace = REPR_TRACES.search(sentence)
        assert trace is None, (
            f"{state.game}: the sentence for {str(move)!r} shows a repr ({trace.group()!r}): {sentence!r}"
        )

    for seed in seeds:
        played = walk(package, seed)
        cuts = set(played.cuts())
        for i, state in steps(package, played):
            if i == len(played.moves):
                break
            before, shown = state.copy(), fingerprint(state)
            for move in state.legal_moves():
                said(state, move)
            said(state, str(played.moves[i]))  # the notation, as a server's log has it
            assert unchanged(state, before, shown), f"describe changed the state at move {i}"
            if info.hidden_information and i in cuts:
                after = state.copy()
                after.play(played.moves[i])
                for viewer in viewers(state):
                    said(state.view(viewer), package.public_moves(after, viewer)[i])


def check_fresh_move_lists(package: ModuleType, seeds: Iterable[int]) -> None:
    """The list ``legal_moves()`` returns is the caller's: emptying it changes neither
    the state nor its copies nor its views."""
    for seed in seeds:
        for i, state in steps(package, walk(package, seed)):
            if i % SPARSE:
                continue
            holders = [state, state.copy(), state.view(state.current_player)]
            lists = [texts(h.legal_moves()) for h in holders]
            for holder in holders:
                holder.legal_moves().clear()
                assert [texts(h.legal_moves()) for h in holders] == lists, (
                    "a legal_moves() list is shared"
                )


def check_chance(package: ModuleType, seeds: Iterable[int]) -> None:
    """At a chance step ``chance_outcomes()`` lists exactly the legal moves, each with
    a probability above 0, summing to 1, and ``chance_move(rng)`` draws one of them
    without playing it, the same one from the same seed, as often as its probability
    says; anywhere else both raise :class:`StateError`."""
    sizes: set[int] = set()  # the odds are measured once for each number of outcomes
    for seed in seeds:
        dice = Rng(seed)
        for i, state in steps(package, walk(package, seed)):
            if not state.is_chance:
                with pytest.raises(StateError):
                    state.chance_outcomes()
                with pytest.raises(StateError):
                    state.chance_move(dice)
                continue
            outcomes = state.chance_outcomes()
            moves = [move for move, _ in outcomes]
            legal = state.legal_moves()
            assert len(moves) == len(legal) and set(moves) == set(legal)
            assert all(p > 0 for _, p in outcomes)
            assert math.isclose(math.fsum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
            if len(outcomes) > 1 and len(outcomes) not in sizes:
                sizes.add(len(outcomes))
                _draws_follow_the_odds(state, outcomes, Rng(seed * 7_919 + i))
            if i % SPARSE == 0:
                before, shown = state.copy(), fingerprint(state)
                assert state.chance_move(dice) in legal
                assert unchanged(state, before, shown)
                twin = state.copy()
                assert state.chance_move(Rng(i)) == twin.chance_move(Rng(i)), (
                    "the same seed draws the same outcome"
                )


def _draws_follow_the_odds(state: Any, outcomes: list[tuple[Any, float]], rng: Rng) -> None:
    """``chance_move`` draws each outcome about as often as ``chance_outcomes`` says:
    every frequency within 5 standard deviations of its probability, over
    :data:`DRAWS_PER_OUTCOME` draws an outcome (seeded, so the same every run)."""
    draws = DRAWS_PER_OUTCOME * len(outcomes)
    counts = Counter(state.chance_move(rng) for _ in range(draws))
    for move, p in outcomes:
        spread = 5 * math.sqrt(p * (1 - p) / draws) + 1 / draws
        assert abs(counts[move] / draws - p) <= spread, (
            f"{move} drawn {counts[move]}/{draws} times, odds {p:.5f}"
        )


def check_copies(package: ModuleType, seeds: Iterable[int]) -> None:
    """``copy()`` is equal and independent both ways: playing on a copy leaves the
    original as it was, and playing the original on (the replay goes on to the next
    cut) leaves the copy as it was."""
    for seed in seeds:
        twins: list[tuple[Any, tuple[Any, ...], str]] = []
        for i, state in at_cuts(package, walk(package, seed)):
            for twin, shown, full in twins:
                assert fingerprint(twin) == shown, "playing the original changed its copy"
                assert package.Record.from_state(twin).to_json() == full
            if state.is_over:
                continue
            twin, ahead = state.copy(), state.copy()
            assert twin == state and twin is not state and isinstance(twin, GameState)
            shown, full = fingerprint(state), package.Record.from_state(state).to_json()
            play_ahead(ahead, AHEAD, seed + i)
            assert ahead != state
            assert fingerprint(state) == shown and state == twin, (
                "playing a copy changed the original"
            )
            assert package.Record.from_state(state).to_json() == full
            twins.append((twin, shown, full))


def check_records(package: ModuleType, seeds: Iterable[int]) -> None:
    """A record (``Record.from_state(...).to_json()``) reads back (``Record.from_json``;
    at the end through the registry's ``load_record``), writes the same JSON, replays
    to an equal state and steps through one state per move (``states()``); a game that
    hides nothing writes one record for every viewer, and a viewer's public record of
    a game with hidden information replays to what that viewer sees. (Reading a
    record replays it: a long game is replayed only at one cut and at its end.)"""
    info = info_of(package)
    for seed in seeds:
        played = walk(package, seed)
        cuts = played.cuts()
        for i, state in at_cuts(package, played):
            text = package.Record.from_state(state).to_json()
            if i == cuts[-1]:
                record = load_record(text)
                assert type(record) is package.Record
                assert record.to_json() == text
                assert record.replay() == state
            elif i == cuts[len(cuts) // 2]:
                record = package.Record.from_json(text)
                assert record.to_json() == text
                states = record.states()
                assert len(states) == i + 1 and states[-1] == state
                assert states[0] == package.from_options(played.options)
            for viewer in viewers(state):
                public = package.Record.from_state(state).to_json(viewer)
                if not info.hidden_information:
                    assert public == text, (
                        "a game that hides nothing writes one record for everyone"
                    )
                else:
                    assert package.Record.from_json(public).replay().view(viewer) == state.view(
                        viewer
                    )


def check_views(package: ModuleType, seeds: Iterable[int]) -> None:
    """``view(player)`` is a state of the same class, independent of the state; the
    player to act sees the same legal moves in it. A game that hides nothing gives
    the whole state. A game with hidden information shows nothing that depends on a
    secret: every full state its ``determinize`` draws for a view gives that same
    view and the same public record (and some draw differs from the real game, so
    the check has met a secret)."""
    info = info_of(package)
    met_secret = False
    for seed in seeds:
        for i, state in at_cuts(package, walk(package, seed)):
            before, shown = state.copy(), fingerprint(state)
            actor = state.current_player
            if actor in state.players:
                assert texts(state.view(actor).legal_moves()) == texts(state.legal_moves())
            for viewer in viewers(state):
                view = state.view(viewer)
                assert type(view) is type(state) and view is not state
                if not info.hidden_information:
                    assert view == state
                if not view.is_over and not view.is_chance:
                    try:
                        view.play(view.legal_moves()[0])
                    except StateError:
                        assert info.hidden_information, (
                            "only a view without a secret it needs may refuse a move"
                        )
                assert unchanged(state, before, shown), "playing on a view changed the state"
            if info.hidden_information:
                met_secret |= _secrets_stay_hidden(package, info, state, seed * 1000 + i)
    if info.hidden_information:
        assert met_secret, "no determinization ever differed from the game: the check met no secret"


def _secrets_stay_hidden(package: ModuleType, info: GameInfo, state: Any, seed: int) -> bool:
    """Each viewer's view, public record and public moves are the same for every full
    state consistent with the view; whether some such state differed from ``state``."""
    determinize = info.heuristics["determinize"]
    full = package.Record.from_state(state).to_json()
    differed = False
    for viewer in viewers(state):
        view = state.view(viewer)
        public = package.Record.from_state(state).to_json(viewer)
        moves = package.public_moves(state, viewer)
        for k in range(DRAWS):
            other = determinize(view, Rng(seed + k))
            assert other.view(viewer) == view, (
                f"{viewer}'s view depends on what {viewer} cannot see"
            )
            assert package.Record.from_state(other).to_json(viewer) == public
            assert package.public_moves(other, viewer) == moves
            differed |= package.Record.from_state(other).to_json() != full
    return differed


def check_public_face(package: ModuleType, seeds: Iterable[int]) -> None:
    """``snapshot(state, viewer)`` is JSON data with the keys every snapshot holds
    (:data:`SNAPSHOT_KEYS`), naming the game, its players and who acts, the same for every
    viewer when ``public_snapshot`` says so, and in a game with hidden information the
    same for every full state consistent with the viewer's view; ``public_moves``
    lists one text per move played, every move's own text in a game that hides
    nothing."""
    info = info_of(package)
    snapshot = snapshot_of(package)
    for seed in seeds:
        played = walk(package, seed)
        for i, state in at_cuts(package, played):
            shots = {viewer: snapshot(state, viewer) for viewer in viewers(state)}
            for shot in shots.values():
                assert json.loads(json.dumps(shot)) == shot
                missing = SNAPSHOT_KEYS - set(shot)
                assert not missing, f"the snapshot lacks {sorted(missing)} (docs/games.md)"
                assert shot["game"] == state.game and list(shot["players"]) == list(state.players)
                assert (
                    shot["is_over"] == state.is_over
                    and shot["current_player"] == state.current_player
                )
            if info.public_snapshot:
                assert all(shot == shots[None] for shot in shots.values()), (
                    "public_snapshot, yet viewers differ"
                )
            for viewer in viewers(state):
                moves = package.public_moves(state, viewer)
                assert len(moves) == i
                if not info.hidden_information:
                    assert moves == texts(played.moves[:i])
                if info.hidden_information:
                    view = state.view(viewer)
                    for k in range(DRAWS):
                        other = info.heuristics["determinize"](view, Rng(seed * 1000 + i + k))
                        assert snapshot(other, viewer) == shots[viewer], (
                            f"{viewer}'s snapshot shows a secret"
                        )


def check_bad_input(package: ModuleType, seeds: Iterable[int]) -> None:
    """Bad input is a typed error and changes nothing: malformed text is a
    :class:`NotationError` (from ``play`` and ``parse_move``), as is a value that is
    no move of this game; a move of another moment (another player's, a roll out of
    turn) and every move once the game is over are :class:`IllegalMoveError`; and any
    text at all either plays a legal move (its exact notation) or is one of the two."""
    positions = []
    for seed in seeds:
        played = walk(package, seed)
        for _, state in at_cuts(package, played):
            before, shown = state.copy(), fingerprint(state)
            full = package.Record.from_state(state).to_json()
            for text in MALFORMED:
                with pytest.raises(NotationError):
                    state.parse_move(text)
                with pytest.raises(NotationError):
                    state.play(text)
            legal = state.legal_moves()
            foreign = [ForeignMove(str(legal[0]))] if legal else [ForeignMove("x")]
            for value in (*NOT_MOVES, *foreign):
                with pytest.raises(NotationError):
                    state.play(value)
            now = set(legal)
            others = [m for m in dict.fromkeys(played.moves) if m not in now][:40]
            assert others or not state.is_over, "no move to try on a finished game"
            for move in others:
                for form in (move, str(move)):
                    with pytest.raises(IllegalMoveError):
                        state.play(form)
            assert unchanged(state, before, shown), "a refused move changed the state"
            assert package.Record.from_state(state).to_json() == full
            positions.append(state.copy())
    _fuzz_text(package, positions)


def _fuzz_text(package: ModuleType, positions: list[Any]) -> None:
    """Hypothesis: arbitrary text, and legal texts with one character changed."""

    @st.composite
    def inputs(draw: Any) -> tuple[Any, str]:
        state = draw(st.sampled_from(positions))
        legal = texts(state.legal_moves())
        if legal and draw(st.booleans()):
            text = draw(st.sampled_from(legal))
            at = draw(st.integers(0, len(text)))
            cut = draw(st.integers(0, 1))
            text = text[:at] + draw(st.text(max_size=1)) + text[at + cut :]
        else:
            text = draw(st.text(max_size=12))
        return state, text

    @settings(
        max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
    )
    @given(inputs())
    def any_text_plays_or_is_refused(given_input: tuple[Any, str]) -> None:
        state, text = given_input
        before = state
        state, shown = state.copy(), fingerprint(state)
        legal = texts(state.legal_moves())
        try:
            state.play(text)
        except (NotationError, IllegalMoveError):
            assert unchanged(state, before, shown)
        else:
            assert text in legal, f"{text!r} played, yet it is no legal move's notation"

    any_text_plays_or_is_refused()


#: The parts of the contract, by name.
CHECKS: Mapping[str, Callable[[ModuleType, Iterable[int]], None]] = {
    "facts": check_facts,
    "random_games": check_random_games,
    "moves": check_moves,
    "sentences": check_sentences,
    "fresh_move_lists": check_fresh_move_lists,
    "chance": check_chance,
    "copies": check_copies,
    "records": check_records,
    "views": check_views,
    "public_face": check_public_face,
    "bad_input": check_bad_input,
}


def check_contract(
    package: ModuleType, seeds: Iterable[int] = range(20), parts: Iterable[str] | None = None
) -> None:
    """Check that the game ``package`` implements keeps the contract, with one random
    game per seed: every part of :data:`CHECKS`, or only the ``parts`` named."""
    seeds = list(seeds)
    for part in CHECKS if parts is None else parts:
        CHECKS[part](package, seeds)
