"""Rider types, team compositions and rider ids (MC-2)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ...core.errors import ConfigError

DOMESTIQUE, SPRINTER, CLIMBER = "D", "S", "C"
TYPES = (DOMESTIQUE, SPRINTER, CLIMBER)
TYPE_NAMES = {DOMESTIQUE: "domestique", SPRINTER: "sprinter", CLIMBER: "climber"}
TEAM_LETTERS = "ABCDEFG"
MIN_RIDERS, MAX_RIDERS = 3, 6

#: MC-2.1: a type's maximum steps by section; the start zone counts as plain.
STEPS: dict[str, dict[str, int]] = {
    DOMESTIQUE: {"start": 7, "plain": 7, "sprint": 5, "mountain": 5},
    SPRINTER: {"start": 5, "plain": 5, "sprint": 7, "mountain": 3},
    CLIMBER: {"start": 5, "plain": 5, "sprint": 3, "mountain": 7},
}

#: MC-7.2: the section in which each type may attack (the start zone is plain).
OWN_SECTIONS: dict[str, frozenset[str]] = {
    DOMESTIQUE: frozenset({"start", "plain"}),
    SPRINTER: frozenset({"sprint"}),
    CLIMBER: frozenset({"mountain"}),
}

#: MC-2.2 default compositions by team size.
DEFAULT_COMPOSITIONS = {3: "DSC", 4: "DDSC", 5: "DDSSC", 6: "DDSSCC"}
SOLO_COMPOSITION = "DDSSC"

RIDER_ID_RE = re.compile(r"[A-G][DSC][1-9]")


def canonical_composition(text: str, *, riders: int | None = None) -> str:
    """Validate a composition such as ``"DSCD"`` (MC-2.2) and return it sorted ``D…S…C…``.

    Each type must appear at least once and at most twice, for 3 to 6 riders (exactly
    ``riders`` when given). Raises :class:`ConfigError` naming the problem.
    """
    if not isinstance(text, str) or not text:
        raise ConfigError(f"a team composition must be a string of D, S and C, not {text!r}")
    bad = sorted(set(text) - set(TYPES))
    if bad:
        raise ConfigError(
            f"composition {text!r} has unknown rider type(s) {''.join(bad)!r}; "
            "use D (domestique), S (sprinter), C (climber)"
        )
    if riders is not None and len(text) != riders:
        raise ConfigError(f"composition {text!r} has {len(text)} riders; this game needs {riders}")
    if not MIN_RIDERS <= len(text) <= MAX_RIDERS:
        raise ConfigError(f"composition {text!r} has {len(text)} riders; a team has 3 to 6")
    for t in TYPES:
        n = text.count(t)
        if not 1 <= n <= 2:
            raise ConfigError(
                f"composition {text!r} has {n} {TYPE_NAMES[t]}(s); each type appears once or twice"
            )
    return "".join(t * text.count(t) for t in TYPES)


def team_rider_ids(team: str, composition: str) -> list[str]:
    """The rider ids of a team (MC-2.3), e.g. ``AD1, AD2, AS1, AC1``."""
    ids: list[str] = []
    for t in TYPES:
        ids.extend(f"{team}{t}{n}" for n in range(1, composition.count(t) + 1))
    return ids


def check_teams(teams: Mapping[str, str], *, solo: bool = False) -> dict[str, str]:
    """Validate a team letter → composition mapping (MC-2.2, MC-9.1); canonical copy."""
    if not isinstance(teams, Mapping) or not teams:
        raise ConfigError(f"teams must map team letters to compositions, not {teams!r}")
    letters = "".join(teams)
    count = len(teams)
    if solo and count != 1:
        raise ConfigError(f"the solo version has exactly one team, not {count}")
    if not solo and not 2 <= count <= len(TEAM_LETTERS):
        raise ConfigError(f"a game has 2 to 7 teams, not {count} (one team plays new_solo)")
    if letters != TEAM_LETTERS[:count]:
        raise ConfigError(
            f"teams must be lettered {', '.join(TEAM_LETTERS[:count])} in seat order, not {', '.join(teams)}"
        )
    out = {t: canonical_composition(c) for t, c in teams.items()}
    sizes = {len(c) for c in out.values()}
    if len(sizes) > 1:
        raise ConfigError(
            f"all teams must have the same number of riders, not {', '.join(map(str, sorted(sizes)))}"
        )
    if solo and sizes != {5}:
        raise ConfigError(f"the solo team has 5 riders, not {sizes.pop()}")
    return out


def default_teams(count: int, riders: int = 6) -> dict[str, str]:
    """``count`` teams of ``riders`` riders with the MC-2.2 default composition."""
    if riders not in DEFAULT_COMPOSITIONS:
        raise ConfigError(f"a team has 3 to 6 riders, not {riders}")
    if not 1 <= count <= len(TEAM_LETTERS):
        raise ConfigError(f"a game has 1 to 7 teams, not {count}")
    return {TEAM_LETTERS[i]: DEFAULT_COMPOSITIONS[riders] for i in range(count)}


@dataclass(frozen=True)
class Rider:
    """A rider as the public API shows it (MC-10.4): a snapshot, not a live object."""

    id: str
    team: str
    type: str
    square: str | None
    has_bottle: bool

    @property
    def finished(self) -> bool:
        """Whether the rider has crossed the finish line."""
        return self.square is None

    @property
    def type_name(self) -> str:
        """``domestique``, ``sprinter`` or ``climber``."""
        return TYPE_NAMES[self.type]
