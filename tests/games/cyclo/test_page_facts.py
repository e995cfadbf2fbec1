"""The web page keeps no list of mode names of its own: a table's page reads its
snapshot's ``mode_facts``; the lobby reads ``CHOICE_FACTS`` as ``GET /api/games``
serves it, and until the server's generic hook serves it, a copy in cyclo.js that
must equal the game's (CY-2.1)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from peloton.games.cyclo import CHOICE_FACTS

WEB = Path(__file__).resolve().parents[3] / "src" / "peloton" / "web" / "js"
CYCLO_JS = [WEB / name for name in ("cyclo.js", "cyclo_panels.js", "cyclo_track_panels.js")]


def fallback_facts() -> dict[str, dict[str, object]]:
    """cyclo.js's ``FALLBACK_FACTS``, read as JSON."""
    text = (WEB / "cyclo.js").read_text(encoding="utf-8")
    found = re.search(r"const FALLBACK_FACTS = (\{.*?\n\});", text, re.S)
    assert found, "cyclo.js has no FALLBACK_FACTS"
    return json.loads(re.sub(r",(\s*[}\]])", r"\1", found.group(1)))


def test_the_pages_copy_of_the_mode_facts_is_the_games() -> None:
    copy = fallback_facts()
    served = CHOICE_FACTS["mode"]
    assert list(copy) == list(served)
    for name, facts in copy.items():
        assert facts == {key: served[name][key] for key in facts}, name
        assert set(facts) == {"word", "road", "entries", "cards"}


def test_the_page_tests_no_mode_by_its_name() -> None:
    """No ``snap.mode === "keirin"``, no list of names: the facts decide."""
    names = "|".join(re.escape(name) for name in CHOICE_FACTS["mode"])
    for path in CYCLO_JS:
        text = path.read_text(encoding="utf-8")
        body = text.split("const FALLBACK_FACTS", 1)[0] + text.split("\n};", 1)[-1]
        assert not re.search(rf"mode\s*[!=]==?\s*\"({names})\"", body), path.name
        assert not re.search(rf"\[\s*\"({names})\"\s*,\s*\"({names})\"", body), path.name
        assert "parseRide" not in text, path.name
