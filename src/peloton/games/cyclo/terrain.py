"""Track types (CY-1.1): the terrain of a space fixes the dice of a ride that starts
there, the token panel, and whether a rider may take a wheel, swap or hold back; the
terrain a rider lands on fixes the dark-square penalty.

>>> TERRAIN["climb"].dice_for("climber"), TERRAIN["climb"].climber_bonus
(1, 1)
>>> TERRAIN["lastkm"].dice_for("sprinter"), TERRAIN["lastkm"].dice_for("helper")
(3, 2)
>>> TERRAIN["cobbles"].panel("helper"), TERRAIN["cobbles"].dark_back
(2, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

#: The rider types (CY-2.2), in the order of the token panels ``S/C/H``.
SPRINTER, CLIMBER, HELPER = "sprinter", "climber", "helper"
RIDER_TYPES = (SPRINTER, CLIMBER, HELPER)


@dataclass(frozen=True, slots=True)
class Terrain:
    """One track type of CY-1.1."""

    name: str
    #: What the space is, in words (the board legend).
    meaning: str
    #: Dice of a ride starting here.
    dice: int
    #: The sprinter's dice here when they differ (``lastkm``: 3), else ``dice``.
    sprinter_dice: int
    #: Spaces a climber adds to its roll here (``climb``: +1).
    climber_bonus: int
    #: How far a move ending on a dark square of this type sends the rider back.
    dark_back: int
    #: The most tokens a sprinter, climber, helper may spend in one ride from here.
    panels: tuple[int, int, int]
    #: Whether a rider here may take a wheel, swap, hold back.
    wheel: bool
    swap: bool
    hold_back: bool

    def dice_for(self, rider_type: str) -> int:
        """The dice a rider of ``rider_type`` rolls from this terrain (CY-4.2, before
        the technical and hunger flags)."""
        return self.sprinter_dice if rider_type == SPRINTER else self.dice

    def panel(self, rider_type: str) -> int:
        """The token panel of ``rider_type`` here (CY-4.3)."""
        return self.panels[RIDER_TYPES.index(rider_type)]


def _t(
    name: str,
    meaning: str,
    dice: int,
    panels: tuple[int, int, int],
    *,
    sprinter: int = 0,
    climber: int = 0,
    dark: int = 0,
    wheel: bool = True,
    swap: bool = True,
    hold: bool = True,
) -> Terrain:
    return Terrain(name, meaning, dice, sprinter or dice, climber, dark, panels, wheel, swap, hold)


#: CY-1.1, in its table order. ``start`` rides like flat road (CY-2.5).
TERRAIN: dict[str, Terrain] = {
    t.name: t
    for t in (
        _t("start", "start area (rides like flat road)", 2, (2, 2, 2)),
        _t("flat", "flat road", 2, (2, 2, 2)),
        _t("climb", "climb", 1, (0, 2, 1), climber=1, wheel=False, swap=False),
        _t("top", "mountain top, start of the descent", 3, (1, 1, 1)),
        _t("cobbles", "cobbled road", 2, (1, 1, 2), dark=3, wheel=False, swap=False, hold=False),
        _t("slope", "cobbled slope", 1, (1, 1, 1), dark=1, wheel=False, swap=False, hold=False),
        _t("end", "end of the cobbles, flat road", 2, (2, 2, 2)),
        _t("lastkm", "last kilometre", 2, (2, 1, 1), sprinter=3),
        _t("track", "velodrome", 2, (2, 2, 2)),
    )
}

#: The types a board's runs may use: every type but the velodrome's (CY-19.2).
ROAD_TYPES = tuple(name for name in TERRAIN if name != "track")
#: The types whose squares may be dark (CY-1.7).
DARK_TYPES = tuple(name for name, t in TERRAIN.items() if t.dark_back)
