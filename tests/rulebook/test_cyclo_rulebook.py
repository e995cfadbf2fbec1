"""The Cyclo rules page (``src/peloton/rulebook/cyclo.md``) against the engine.

The page is for players, but it must not drift from the game Peloton plays: every
rule id of the road race is anchored on exactly one heading, no id is made up, every
diagram is a position the engine loads (through the same door as ``peloton moves``),
and the tables of cards and track types say what the engine does. A small regex
reader of the rulebook format keeps this test independent of the shared loader.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from peloton.core.errors import ConfigError, NotationError
from peloton.games import cyclo as cy
from peloton.games.cyclo.cards import CARDS
from peloton.games.cyclo.cyn import parse_cyn
from peloton.games.cyclo.terrain import TERRAIN
from peloton.terminal.games import terminal_game

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "src" / "peloton" / "rulebook" / "cyclo.md"
DOCS = ROOT / "docs" / "cyclo.md"

#: The rule ids of the Cyclo rules, section by section: how many numbered rules each
#: section has (CY-16 and CY-17, the Python API and the errors, have none; CY-18 holds
#: acceptance scenarios, not rules).
RULES_PER_SECTION = {
    0: 2, 1: 7, 2: 6, 3: 6, 4: 7, 5: 3, 6: 5, 7: 6, 8: 6, 9: 4, 10: 4,
    11: 5, 12: 6, 13: 3, 14: 2, 15: 2, 16: 0, 17: 0, 18: 0, 19: 18,
}  # fmt: skip
#: Every id the rules have: the sections and their numbered rules.
KNOWN_IDS = {f"CY-{s}" for s in RULES_PER_SECTION} | {
    f"CY-{s}.{k}" for s, n in RULES_PER_SECTION.items() for k in range(1, n + 1)
}
#: The sections the page covers: the road race (CY-0 … CY-10), the track events
#: (CY-11), chance (CY-13) and the notation, records, API and errors (CY-14 … CY-17).
#: The clarifications (CY-19) are not anchored here.
COVERED_SECTIONS = (*range(0, 12), 13, 14, 15, 16, 17)
#: The competitions (CY-12): what every competition does and the stage race under
#: one heading, the omnium, sprint tournament and pursuit series under another.
STAGE_RACE_IDS = {"CY-12.1", "CY-12.2", "CY-12.6"}
TRACK_COMPETITION_IDS = {"CY-12.3", "CY-12.4", "CY-12.5"}
COMPETITION_IDS = STAGE_RACE_IDS | TRACK_COMPETITION_IDS
#: Sections without numbered rules are anchored by their own id.
REQUIRED_IDS = {
    f"CY-{s}.{k}" if RULES_PER_SECTION[s] else f"CY-{s}"
    for s in COVERED_SECTIONS
    for k in range(1, max(1, RULES_PER_SECTION[s]) + 1)
} | COMPETITION_IDS

ID = re.compile(r"\bCY-\d+(?:\.\d+)?\b")
FENCE = re.compile(r"^```(?P<info>[\w-]*)\s*$")
HEADING = re.compile(r"^(?P<level>#{1,6}) (?P<title>.*?)(?: \{(?P<ids>[^}]*)\})?\s*$")
SQUARE = re.compile(r"(?P<lane>[a-z])(?P<position>0|[1-9][0-9]*)")
RIDER = re.compile(r"[A-F](?:S1|C1|H1|H2)")
#: What the terminal refuses beside a position (the position names its riders).
POSITION_OWN = {"players", "teams", "tokens"}


@dataclass(frozen=True)
class Heading:
    line: int
    level: int
    title: str
    ids: tuple[str, ...]


@dataclass(frozen=True)
class Diagram:
    line: int
    body: str


def read(text: str) -> tuple[list[Heading], list[Diagram], list[str]]:
    """The headings (with their ids), the diagram blocks and the lines outside code
    blocks of a rules page, by the rulebook format."""
    headings: list[Heading] = []
    diagrams: list[Diagram] = []
    prose: list[str] = []
    fence: tuple[str, int, list[str]] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        opening = FENCE.match(line)
        if fence is not None:
            if opening and not opening["info"]:
                if fence[0] == "diagram":
                    diagrams.append(Diagram(fence[1], "\n".join(fence[2])))
                fence = None
            else:
                fence[2].append(line)
            continue
        if opening:
            fence = (opening["info"], number, [])
            continue
        prose.append(line)
        heading = HEADING.match(line)
        if heading:
            ids = tuple((heading["ids"] or "").split())
            headings.append(Heading(number, len(heading["level"]), heading["title"], ids))
    assert fence is None, f"a code block opened on line {fence[1]} is never closed"
    return headings, diagrams, prose


TEXT = PAGE.read_text(encoding="utf-8")
HEADINGS, DIAGRAMS, PROSE = read(TEXT)


def table_under(anchor: str) -> list[list[str]]:
    """The rows (cells stripped, header and rule left out) of the first table in the
    section of the heading anchoring ``anchor``."""
    heading = next(h for h in HEADINGS if anchor in h.ids)
    lines = TEXT.splitlines()[heading.line :]
    rows: list[list[str]] = []
    for line in lines:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows or line.startswith("#"):
            break
    assert len(rows) > 2, f"no table under the heading of {anchor}"
    return rows[2:]


# --- rule ids ---------------------------------------------------------------------


def test_every_covered_rule_is_anchored_on_exactly_one_heading() -> None:
    anchored = [rule for h in HEADINGS for rule in h.ids]
    twice = sorted({rule for rule in anchored if anchored.count(rule) > 1})
    assert not twice, f"anchored on more than one heading: {twice}"
    missing = sorted(REQUIRED_IDS - set(anchored), key=_order)
    assert not missing, f"rules with no heading: {missing}"
    extra = sorted(set(anchored) - REQUIRED_IDS, key=_order)
    assert not extra, f"headings anchor rules the page does not cover: {extra}"


def test_no_rule_id_is_made_up() -> None:
    unknown = sorted({rule for rule in ID.findall(TEXT) if rule not in KNOWN_IDS})
    assert not unknown, f"ids the Cyclo rules do not have: {unknown}"
    for heading in HEADINGS:
        for rule in heading.ids:
            assert ID.fullmatch(rule), f"line {heading.line}: {rule!r} is not a rule id"


def test_the_id_lists_are_what_the_rules_have() -> None:
    """The tables above, checked against a few known facts so that a slip in them
    cannot make both tests pass: CY-4.7 exists, CY-4.8 does not."""
    assert {"CY-4.7", "CY-9.4", "CY-19.18"} <= KNOWN_IDS
    assert not {"CY-4.8", "CY-9.5", "CY-16.1", "CY-18.1"} & KNOWN_IDS
    assert len(REQUIRED_IDS) == 2 + 7 + 6 + 6 + 7 + 3 + 5 + 6 + 6 + 4 + 4 + 5 + 3 + 2 + 2 + 2 + 6


def test_the_competitions_are_anchored_under_their_two_headings() -> None:
    assert "Coming later" not in [h.title for h in HEADINGS]  # every mode is played
    for section in (12, 19):
        named = {r for r in ID.findall(TEXT) if r.startswith(f"CY-{section}")}
        assert named <= COMPETITION_IDS, named
    stage = next(h for h in HEADINGS if h.title == "Stage races")
    assert set(stage.ids) == STAGE_RACE_IDS
    track = next(h for h in HEADINGS if h.title == "Track competitions")
    assert set(track.ids) == TRACK_COMPETITION_IDS


def test_links_inside_the_page_lead_to_an_anchor() -> None:
    anchors = {rule for h in HEADINGS for rule in h.ids}
    targets = re.findall(r"\]\(#([^)]+)\)", "\n".join(PROSE))
    assert targets, "the page links its mechanics to one another"
    assert not [t for t in targets if t not in anchors]


def test_the_page_stands_alone() -> None:
    for path in (PAGE, DOCS):
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text, path
        assert not re.search(r"\bspec(ification)?\b|spec/", text, re.IGNORECASE), path


def test_the_page_has_the_sections_a_player_needs() -> None:
    titles = [h.title for h in HEADINGS]
    assert titles[0] == "Cyclo The Game" and HEADINGS[0].level == 1
    for title in ("The box", "Set-up and the start", "Starter and Pro", "Glossary"):
        assert title in titles
    assert titles.index("Glossary") == len(titles) - 1


# --- diagrams ---------------------------------------------------------------------


def _load(diagram: Diagram) -> tuple[dict[str, Any], cy.State]:
    data = json.loads(diagram.body)
    assert isinstance(data, dict)
    assert set(data) <= {"options", "position", "caption", "highlight"}, set(data)
    assert isinstance(data["position"], str) and data["caption"].strip()
    options = data.get("options", {})
    # The options stand on their own (the lobby's form) …
    cy.from_options(options)
    # … and beside a position, which names its own riders, teams and tokens.
    assert not POSITION_OWN & set(options), "a position names its own riders and tokens"
    state = terminal_game("cyclo").from_position(data["position"], options)
    return data, state


@pytest.mark.parametrize("diagram", DIAGRAMS, ids=[f"line{d.line}" for d in DIAGRAMS])
def test_each_diagram_is_a_position_the_engine_loads(diagram: Diagram) -> None:
    data, state = _load(diagram)
    # Written as the engine writes it, so it reads the same everywhere it is shown.
    assert state.to_cyn() == data["position"]
    named = parse_cyn(data["position"])
    riders = {*named.riders, *(entry.rider for entry in named.done)}
    for name in data.get("highlight", []):
        if RIDER.fullmatch(name):
            assert name in riders, f"{name} is not in the position"
            continue
        square = SQUARE.fullmatch(name)
        assert square, f"{name!r} is neither a rider nor a square"
        position, lane = int(square["position"]), ord(square["lane"]) - ord("a")
        assert position <= state.setup.cap, f"{name} is past the run-out"
        assert lane < state.setup.widths[position], f"{name}: space {position} is narrower"


def test_the_diagrams_show_every_mechanic() -> None:
    """At least the start line, terrain and dice, holding back, room and lanes, a
    wheel, a swap and a fall, each under the heading of its rule."""
    assert len(DIAGRAMS) >= 6
    under = {}
    for diagram in DIAGRAMS:
        heading = [h for h in HEADINGS if h.line < diagram.line][-1]
        under.update(dict.fromkeys(heading.ids, diagram))
    for rule in ("CY-2.5", "CY-4.2", "CY-4.4", "CY-4.5", "CY-4.6", "CY-5.3", "CY-6.4", "CY-7.5"):
        assert rule in under, f"no diagram under the heading of {rule}"


def test_the_start_diagram_is_the_engines_start() -> None:
    data, _ = _load(DIAGRAMS[0])
    assert data["position"] == cy.new_game(players=2, **data["options"]).to_cyn()


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"position": "9 AS1:a30*4,BH1:a30*4 / A*4,B*4"}, NotationError),  # one square
        ({"position": "9 AS1:d30 / A*4"}, NotationError),  # space 30 has 3 lanes
        ({"options": {"mode": "elimination"}, "position": "1 AS1:a0"}, ConfigError),
        ({"options": {"course": "nowhere"}, "position": "1 AS1:a0"}, ConfigError),
        ({"options": {"players": 3}, "position": "1 AS1:a0"}, AssertionError),
        ({"position": "1 AS1:a0", "caption": "a", "colour": "red"}, AssertionError),
    ],
)
def test_a_broken_diagram_is_refused(data: dict[str, Any], error: type[Exception]) -> None:
    """The checks above can fail: a bad position or option is refused, saying why."""
    with pytest.raises(error):
        _load(Diagram(0, json.dumps({"caption": "a diagram", **data})))


# --- tables against the engine ----------------------------------------------------


def test_the_card_table_names_all_24_cards_as_the_engine_does() -> None:
    rows = table_under("CY-7.1")
    assert [row[0] for row in rows] == [card.name for card in CARDS]
    assert [int(row[1]) for row in rows] == [card.count for card in CARDS]
    assert sum(int(row[1]) for row in rows) == 24
    for row, card in zip(rows, CARDS, strict=True):
        pro, starter, limit = row[2:5]
        assert pro and starter, card.id
        written = "" if limit == "—" else limit.replace("last km", "lastkm")
        assert written == card.limit.removeprefix("on "), (card.id, limit, card.limit)
    # The notation lists the card ids a draw is written with.
    draw = next(line for line in TEXT.splitlines() if "`draw:moto`" in line)
    assert re.findall(r"`(\w+)`", draw) == [card.id for card in CARDS]


def test_the_track_type_table_gives_the_engines_dice_and_panels() -> None:
    rows = table_under("CY-1.1")
    road = [name for name in TERRAIN if name != "track"]
    assert [row[0].replace("last km", "lastkm") for row in rows] == road
    for row, name in zip(rows, road, strict=True):
        terrain = TERRAIN[name]
        dice = str(terrain.dice)
        if terrain.sprinter_dice != terrain.dice:
            dice += f" (sprinter {terrain.sprinter_dice})"
        assert row[2] == dice, name
        assert row[3] == " / ".join(map(str, terrain.panels)), name
        assert row[4] == ("yes" if terrain.wheel and terrain.swap else "no"), name
        assert row[5] == ("yes" if terrain.hold_back else "no"), name


def test_the_board_table_gives_the_engines_events_and_lines() -> None:
    rows = table_under("CY-1.2")
    assert [row[0] for row in rows] == cy.bundled_boards()
    for row in rows:
        board = cy.Board.load(row[0])
        assert row[3] == ", ".join(map(str, board.events)), board.name
        lines = [
            f"{line.kind} {line.category} after {line.after}"
            if line.category
            else f"{line.kind} after {line.after}"
            for line in board.lines
        ]
        if board.finish:
            lines.append("finish")
        assert row[2] == (", ".join(lines) or "—"), board.name


def test_the_course_table_gives_the_engines_boards() -> None:
    heading = next(h for h in HEADINGS if "CY-1.2" in h.ids)
    lines = TEXT.splitlines()[heading.line :]
    start = next(i for i, line in enumerate(lines) if line.startswith("| course |"))
    courses = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in itertools.takewhile(lambda line: line.startswith("|"), lines[start + 2 :])
    ]
    names = [name for row in courses for name in re.findall(r"`([\w-]+)`", row[0])]
    assert sorted(names) == cy.bundled_courses()
    for row in courses:
        for name, listed in zip(
            re.findall(r"`([\w-]+)`", row[0]), row[1].split(" · "), strict=True
        ):
            course = cy.Course.load(name)
            if course.is_track:
                assert "track" in listed
            elif course.start == 1:
                assert listed == " ".join(b.name for b in course.boards), name


def _order(rule: str) -> tuple[int, ...]:
    return tuple(int(part) for part in rule[3:].split("."))


def _diagram_under(rule: str) -> Diagram:
    """The first diagram in the section of the heading anchoring ``rule``."""
    return next(d for d in DIAGRAMS if rule in [h for h in HEADINGS if h.line < d.line][-1].ids)


#: What each diagram's caption says happens next, as moves from its position and the
#: squares (or flags) that follow: a caption that stops telling the truth fails here.
#: Keyed by the rule whose heading the diagram sits under.
CAPTIONS: dict[str, tuple[str, dict[str, str]]] = {
    # CY-2.5, CY-3.1: AS1 rides first, from the line, on 2 dice.
    "CY-2.5": ("roll:3,4 AS1-7", {"AS1": "a7"}),
    # CY-4.4: BC1 to 55, then AH1 holds back from 55 to 54.
    "CY-4.4": ("roll:2,3 BC1-55 roll:6,6 AH1-54", {"BC1": "a55", "AH1": "a54"}),
    # CY-4.5: three riders fill 51; AH1 aims at 51 and lands on a50.
    "CY-4.5": (
        "roll:3,4 AS1-51 roll:3,4 BS1-51 roll:3,4 CS1-51 roll:5,6 AH1-51",
        {"AS1": "a51", "BS1": "b51", "CS1": "c51", "AH1": "a50"},
    ),
    # CY-4.6: 77 is dark: back 3 to a74.
    "CY-4.6": ("roll:1,1 AH1-77", {"AH1": "a74"}),
    # CY-5.3: the wheel diagram before the follow (the first of the two under CY-5.3).
    "CY-5.3": ("BC1~- roll:4,5 BC1-70/t AH1>BC1", {"BC1": "a70", "AH1": "a69"}),
    # CY-6.4: the swap, BH1's ride, AS1 on BH1's wheel.
    "CY-6.4": ("AS1~BH1 BH1~yes roll:3,4 BH1-43/t AS1>BH1", {"BH1": "a43", "AS1": "a42"}),
}


#: Diagrams followed by the round their caption's moves lead to.
FOLLOWED = ("CY-5.3", "CY-6.4")


@pytest.mark.parametrize("rule", CAPTIONS)
def test_the_captions_tell_what_the_engine_does(rule: str) -> None:
    moves, squares = CAPTIONS[rule]
    before = _diagram_under(rule)
    _, state = _load(before)
    for move in moves.split():
        state.play(move)
    assert {r: state.rider(r).square for r in squares} == squares
    if rule in FOLLOWED:
        after = DIAGRAMS[DIAGRAMS.index(before) + 1]
        assert state.to_cyn() == json.loads(after.body)["position"]


def test_the_fall_diagram_is_where_its_caption_says_it_comes_from() -> None:
    """The fall diagram shows the round after CC1's fall: rebuilt from round 4 (BH1,
    BS1 and CH1 losing their turn there), the picks the caption names are exactly the
    legal ones, and picking BH1 and CH1 gives the diagram's position."""
    (fall,) = [d for d in DIAGRAMS if "fall" in json.loads(d.body)["position"].split("/")[-1]]
    data, _ = _load(fall)
    state = terminal_game("cyclo").from_position(
        "4 BH1:a52s,BS1:a53s,CC1:a40,CH1:a54s", data["options"]
    )
    for move in ("roll:6,6", "CC1-52", "draw:fall"):
        state.play(move)
    assert sorted(map(str, state.legal_moves())) == [
        "fall:-",
        "fall:BH1",
        "fall:BH1,CH1",
        "fall:CH1",
    ]
    state.play("fall:BH1,CH1")
    assert state.to_cyn() == data["position"]


@pytest.mark.parametrize(
    ("start", "dice", "climber"),
    [
        ("12 ", {"BH1": 3, "AC1": 1, "AH1": 1, "AS1": 2}, {"AC1": 1, "AH1": 0}),
        ("15 ", {"BS1": 3, "BC1": 2}, {"BC1": 0}),
    ],
)
def test_the_terrain_diagrams_roll_the_dice_their_captions_say(
    start: str, dice: dict[str, int], climber: dict[str, int]
) -> None:
    """CY-4.2, CY-4.4: a round of each terrain diagram, counting each rider's roll
    outcomes (6 for one die, 21 for two, 56 for three) and, after a roll of 1s, how
    far it reaches (the climber's +1 on a climb)."""
    (diagram,) = [
        d
        for d in DIAGRAMS
        if json.loads(d.body)["position"].startswith(start) and "italian" in d.body
    ]
    _, state = _load(diagram)
    outcomes = {6: 1, 21: 2, 56: 3}
    rolled: dict[str, int] = {}
    reach: dict[str, int] = {}
    round_ = state.round
    while state.round == round_:
        due = str(state.due)
        if state.phase == "roll":
            rolled[due] = outcomes[len(state.legal_moves())]
            state.play("roll:" + ",".join("1" * rolled[due]))
            continue
        if state.phase == "ride":
            rides = [m for m in map(str, state.legal_moves()) if "/" not in m]
            reach[due] = max(int(m.split("-")[1]) for m in rides) - state.rider(due).position
            state.play(f"{due}-{state.rider(due).position + reach[due]}")
            continue
        state.play({"swap": f"{due}~-", "wheel": f"{due}>-"}[state.phase])
    assert rolled == dice
    assert {r: reach[r] - dice[r] for r in climber} == climber


def test_the_leg_diagram_has_the_times_and_points_its_caption_says() -> None:
    """CY-9.1, CY-9.2, CY-9.3: round 9's two finishers at 0, a group arrival at 28."""
    _, state = _load(_diagram_under("CY-9.1"))
    result = state.result
    assert result.times == {"BS1": 0, "AS1": 0, "BH2": 28, "AH1": 28, "BH1": 32}
    assert (result.points["BS1"], result.points["AS1"]) == (21, 20)
    assert result.places[0] == "BS1"


def test_the_team_time_trial_diagram_goes_team_by_team() -> None:
    """CY-10, CY-2.6, CY-3.1: riders of two teams share squares; the round goes team
    by team, each team's riders furthest first."""
    _, state = _load(_diagram_under("CY-10.1"))
    assert cy.snapshot(state)["order"] == ["AS1", "AC1", "AH2", "AH1", "BS1", "BH1", "BC1", "BH2"]
    assert state.rider("AC1").square == state.rider("BH1").square == "a43"
