"""Every rule id shown to users leads to its rule: the ids in the web front end's
sources, in the ``peloton`` help texts and in the games' error messages and option
helps are each anchored on their game's rules page (a game whose page is not in the
package yet, Cyclo's until it is merged, is checked as soon as its page arrives)."""

from __future__ import annotations

import pytest

from peloton import rulebook

from .sources import error_messages, help_texts, web_sources

PREFIXES = {rulebook.prefix_of(game): game for game in rulebook.games()}


def unanchored(found: dict[str, set[str]]) -> list[tuple[str, str]]:
    missing = []
    for where, ids in found.items():
        for rid in sorted(ids):
            game = PREFIXES.get(rid.split("-")[0])
            if game is not None and rid not in rulebook.load(game).rule_ids:
                missing.append((where, rid))
    return missing


@pytest.mark.parametrize(
    "source", [web_sources, help_texts, error_messages], ids=lambda f: f.__name__
)
def test_rule_ids_shown_to_users_are_anchored(source) -> None:  # type: ignore[no-untyped-def]
    found = source()
    assert any(found.values()), "the scan finds rule ids (it would pass vacuously otherwise)"
    assert unanchored(found) == []


def test_every_prefix_found_belongs_to_a_game() -> None:
    seen = set()
    for source in (web_sources, help_texts, error_messages):
        for ids in source().values():
            seen |= {rid.split("-")[0] for rid in ids}
    assert seen <= set(PREFIXES) | {"CY"}  # CY: Cyclo's page, written alongside
    assert {"MC", "MT", "PI"} <= set(PREFIXES)


def test_the_scan_catches_an_unanchored_id() -> None:
    assert unanchored({"example.js": {"MC-5.4", "MC-42.1"}}) == [("example.js", "MC-42.1")]
