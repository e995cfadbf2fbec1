"""The rules pages for players: one Markdown page per game, its diagrams and its terms.

A game's rules live beside this module as ``<game>.md`` (``<game>`` being the
registry name, ``mind-cycling.md``) and its terms as ``<game>.terms.toml``. The
format (docs/games.md, "Rules pages"):

* a heading may end with the rule ids it explains, in braces:
  ``## Wind and shelter {MC-5.4 MC-5.5}``; each id becomes an anchor of that
  heading, so ``/rules/mind-cycling#MC-5.5`` and ``peloton rules mind-cycling
  MC-5.5`` lead to it;
* a fenced block whose info string is ``diagram`` holds a JSON object:
  ``{"options": {...}, "position": "...", "caption": "...", "highlight": [...]}``,
  a position in the game's own notation, drawn by the game's board renderer;
* ``[term]`` tables of the terms file give each term's ``name``, ``says`` (one or two
  plain sentences) and ``rule`` (the id of the rule that explains it).

>>> from peloton import rulebook
>>> book = rulebook.load("mind-twist")
>>> book.section_of("MT-3.1").title
'Sideswiping'
>>> book.terms["sideswiped"].rule
'MT-3.1'
>>> rulebook.validate(book)
[]
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ..core import registry
from ..core.errors import ConfigError, PelotonError

#: A rule id as the games cite them: ``MC-5.5``, ``PI-4.1``, ``MT-5``, ``CY-14.2``.
RULE_ID = re.compile(r"\b([A-Z]{2})-(\d+(?:\.\d+)*)\b")
#: A heading line's trailing braces holding rule ids.
_BRACES = re.compile(r"\s*\{((?:[A-Z]{2}-\d+(?:\.\d+)*\s*)+)\}\s*$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_FENCE = re.compile(r"^(```+|~~~+)\s*(\S*)")
_DIAGRAM_KEYS = frozenset({"options", "position", "caption", "highlight"})


class RulebookError(ConfigError):
    """A rules page or terms file that breaks the format; ``problems`` lists each."""

    def __init__(self, game: str, problems: list[str]) -> None:
        self.game = game
        self.problems = problems
        super().__init__(f"rules of {game}: " + "; ".join(problems))


@dataclass(frozen=True)
class Section:
    """One heading of a page and the text under it, up to the next heading."""

    level: int
    title: str
    #: The rule ids this heading explains (its braces), in the order written.
    rule_ids: tuple[str, ...]
    #: The heading's anchor: its first rule id, else a slug of its title.
    anchor: str
    #: The Markdown under the heading (its diagrams included), up to the next heading.
    body: str
    #: The 1-based line of the heading in the page.
    line: int


@dataclass(frozen=True)
class Diagram:
    """A position drawn on the page: ``position`` in the game's notation, on a game
    made from ``options``."""

    index: int
    position: str
    caption: str
    options: dict[str, Any]
    highlight: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Term:
    """A word of the game explained in a sentence or two, with the rule behind it."""

    key: str
    name: str
    says: str
    rule: str


@dataclass(frozen=True)
class Rulebook:
    """A game's rules page, parsed: its sections, diagrams and terms."""

    game: str
    title: str
    text: str
    sections: tuple[Section, ...]
    diagrams: tuple[Diagram, ...]
    terms: dict[str, Term] = field(default_factory=dict)
    #: Problems found while parsing (kept for :func:`validate`, which reports them).
    problems: tuple[str, ...] = ()

    @property
    def rule_ids(self) -> list[str]:
        """Every rule id anchored on the page, in page order."""
        return [rid for s in self.sections for rid in s.rule_ids]

    def section_of(self, rule_id: str) -> Section:
        """The section whose heading anchors ``rule_id`` (a sub-rule such as ``MC-6.3``
        written ``MC-6.3(e)`` or a parent ``MC-6`` finds its nearest anchored id);
        :class:`ConfigError` naming the game's ids if none does."""
        wanted = rule_id.strip().upper()
        for candidate in _lookups(wanted):
            for section in self.sections:
                if candidate in section.rule_ids:
                    return section
        raise ConfigError(
            f"{self.title} has no rule {rule_id!r} (its rules: {_id_span(self.rule_ids)})"
        )

    def anchor_of(self, rule_id: str) -> str:
        """The anchor of the heading that explains ``rule_id`` (see :meth:`section_of`):
        the rule id itself when it is anchored."""
        wanted = rule_id.strip().upper()
        section = self.section_of(wanted)
        return wanted if wanted in section.rule_ids else section.rule_ids[0]

    def section_text(self, rule_id: str) -> str:
        """The Markdown of the section explaining ``rule_id`` with its sub-sections."""
        section = self.section_of(rule_id)
        start = self.sections.index(section)
        parts = [_heading_line(section), section.body]
        for later in self.sections[start + 1 :]:
            if later.level <= section.level:
                break
            parts += [_heading_line(later), later.body]
        return "\n".join(parts).strip() + "\n"


def _heading_line(section: Section) -> str:
    ids = f" {{{' '.join(section.rule_ids)}}}" if section.rule_ids else ""
    return f"{'#' * section.level} {section.title}{ids}\n"


def _lookups(rule_id: str) -> list[str]:
    """``MC-6.3(e)`` -> ``MC-6.3``; then the id itself, then its parents (``MC-6``)."""
    match = RULE_ID.match(rule_id)
    if not match:
        return [rule_id]
    prefix, number = match.groups()
    parts = number.split(".")
    return [f"{prefix}-{'.'.join(parts[:n])}" for n in range(len(parts), 0, -1)]


def _id_span(ids: list[str]) -> str:
    return f"{ids[0]} to {ids[-1]}" if ids else "none"


def slug(title: str) -> str:
    """A heading's anchor when it names no rule: ``Bottles and attacks`` ->
    ``bottles-and-attacks``."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"


# ---------------------------------------------------------------- finding the pages


def _files() -> Any:
    return resources.files(__name__)


def games() -> list[str]:
    """The games that have a rules page, in the registry's order."""
    present = {p.name[:-3] for p in _files().iterdir() if p.name.endswith(".md")}
    return [name for name in registry.names() if name in present]


def prefix_of(game: str) -> str | None:
    """The two letters of a game's rule ids (``MC`` for mind-cycling), from its page."""
    ids = load(game).rule_ids
    return ids[0].split("-")[0] if ids else None


def game_of_rule(rule_id: str) -> str | None:
    """The game whose rules page anchors ids with ``rule_id``'s prefix, or ``None``."""
    match = RULE_ID.match(rule_id.strip())
    if not match:
        return None
    for game in games():
        if prefix_of(game) == match.group(1):
            return game
    return None


def load(game: str) -> Rulebook:
    """The rules page of ``game`` (a registry name), parsed; :class:`ConfigError` for a
    game without one. Parse problems are kept for :func:`validate`."""
    return _load(game)


@cache
def _load(game: str) -> Rulebook:
    if game not in games():
        raise ConfigError(
            f"no rules page for {game!r} (rules pages: {', '.join(games()) or 'none'})"
        )
    text = (_files() / f"{game}.md").read_text(encoding="utf-8")
    terms_file = _files() / f"{game}.terms.toml"
    terms_text = terms_file.read_text(encoding="utf-8") if terms_file.is_file() else ""
    return parse(game, text, terms_text)


def parse(game: str, text: str, terms_text: str = "") -> Rulebook:
    """A rules page from its Markdown ``text`` and its terms file's text (no checks
    against the game beyond the format: :func:`validate` does those)."""
    problems: list[str] = []
    sections: list[Section] = []
    diagrams: list[Diagram] = []
    heads: list[tuple[int, str, tuple[str, ...], int]] = []
    bodies: list[list[str]] = [[]]
    fence: str | None = None
    block: list[str] = []
    block_line = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if fence is not None:
            if line.strip().startswith(fence):
                if block_line:
                    diagrams.append(_diagram(len(diagrams), "\n".join(block), block_line, problems))
                fence, block, block_line = None, [], 0
            elif block_line:
                block.append(line)
            bodies[-1].append(line)
            continue
        opened = _FENCE.match(line)
        if opened:
            fence = opened.group(1)
            block_line = number if opened.group(2) == "diagram" else 0
            bodies[-1].append(line)
            continue
        heading = _HEADING.match(line)
        if heading:
            title, ids = heading.group(2), tuple[str, ...]()
            braces = _BRACES.search(title)
            if braces:
                ids = tuple(braces.group(1).split())
                title = title[: braces.start()].rstrip()
            elif "{" in title:
                problems.append(f"line {number}: heading {line!r} has braces that hold no rule ids")
            heads.append((len(heading.group(1)), title, ids, number))
            bodies.append([])
            continue
        bodies[-1].append(line)
    if fence is not None:
        problems.append("a fenced block is never closed")
    if bodies[0] and any(b.strip() for b in bodies[0]) and not heads:
        problems.append("the page has no heading")
    seen: set[str] = set()
    for (level, title, ids, number), body in zip(heads, bodies[1:], strict=True):
        anchor = ids[0] if ids else slug(title)
        base, n = anchor, 2
        while anchor in seen:  # two headings of the same title: keep anchors unique
            anchor, n = f"{base}-{n}", n + 1
        seen.add(anchor)
        sections.append(Section(level, title, ids, anchor, "\n".join(body).strip("\n"), number))
    heading_title = next((s.title for s in sections if s.level == 1), None)
    title = heading_title or (registry.get(game).title if game in registry.names() else game)
    terms = _terms(terms_text, problems)
    return Rulebook(game, title, text, tuple(sections), tuple(diagrams), terms, tuple(problems))


def _diagram(index: int, body: str, line: int, problems: list[str]) -> Diagram:
    where = f"diagram {index + 1} (line {line})"
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        problems.append(f"{where} is not JSON: {exc.msg} at line {exc.lineno}")
        return Diagram(index, "", "", {}, (), line)
    if not isinstance(data, dict):
        problems.append(f"{where} must be a JSON object")
        return Diagram(index, "", "", {}, (), line)
    unknown = sorted(set(data) - _DIAGRAM_KEYS)
    if unknown:
        problems.append(f"{where} has unknown key(s) {', '.join(unknown)}")
    position, caption = data.get("position"), data.get("caption", "")
    options, highlight = data.get("options", {}), data.get("highlight", [])
    if not isinstance(position, str) or not position.strip():
        problems.append(f"{where} needs a 'position' text")
        position = ""
    if not isinstance(caption, str) or not caption.strip():
        problems.append(f"{where} needs a 'caption' text")
        caption = ""
    if not isinstance(options, dict):
        problems.append(f"{where}: 'options' must be an object")
        options = {}
    if not isinstance(highlight, list) or not all(isinstance(h, str) for h in highlight):
        problems.append(f"{where}: 'highlight' must be a list of texts")
        highlight = []
    return Diagram(index, position, caption, options, tuple(highlight), line)


def _terms(text: str, problems: list[str]) -> dict[str, Term]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"the terms file is not TOML: {exc}")
        return {}
    terms: dict[str, Term] = {}
    for key, entry in data.items():
        if not isinstance(entry, dict):
            problems.append(f"term {key!r} must be a table")
            continue
        values = {k: entry.get(k) for k in ("name", "says", "rule")}
        bad = [k for k, v in values.items() if not isinstance(v, str) or not v.strip()]
        if bad:
            problems.append(f"term {key!r} needs {', '.join(bad)} (a text each)")
            continue
        extra = sorted(set(entry) - set(values))
        if extra:
            problems.append(f"term {key!r} has unknown key(s) {', '.join(extra)}")
        terms[key] = Term(key, str(values["name"]), str(values["says"]), str(values["rule"]))
    return terms


# ---------------------------------------------------------------- validation


def validate(book: Rulebook) -> list[str]:
    """Every problem of a rules page: the format's (see :func:`parse`), a rule id
    anchored twice or of another game, a term whose rule is not anchored, a diagram
    whose position the game refuses (built through the game's own API, see
    :mod:`.positions`). An empty list means the page is sound."""
    from .positions import diagram_state

    problems = list(book.problems)
    ids = book.rule_ids
    prefixes = {rid.split("-")[0] for rid in ids}
    if len(prefixes) > 1:
        problems.append(f"rule ids of several games: {', '.join(sorted(prefixes))}")
    for rid in sorted({r for r in ids if ids.count(r) > 1}):
        problems.append(f"rule {rid} is anchored {ids.count(rid)} times")
    for term in book.terms.values():
        if term.rule not in ids:
            problems.append(f"term {term.key!r} cites rule {term.rule}, which no heading anchors")
    for diagram in book.diagrams:
        if not diagram.position:
            continue  # already reported
        try:
            diagram_state(book.game, diagram.options, diagram.position)
        except PelotonError as exc:
            problems.append(f"diagram {diagram.index + 1} (line {diagram.line}): {exc}")
    return problems


def check(game: str) -> Rulebook:
    """The rules page of ``game``, validated; :class:`RulebookError` listing every
    problem."""
    book = load(game)
    problems = validate(book)
    if problems:
        raise RulebookError(game, problems)
    return book


__all__ = [
    "RULE_ID",
    "Diagram",
    "Rulebook",
    "RulebookError",
    "Section",
    "Term",
    "check",
    "game_of_rule",
    "games",
    "load",
    "parse",
    "prefix_of",
    "slug",
    "validate",
]
