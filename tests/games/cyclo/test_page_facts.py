"""The web page keeps no list of mode names of its own: a table's page reads its
snapshot's ``mode_facts``; the lobby and a table's header read ``CHOICE_FACTS`` as
``GET /api/games`` serves it (``choice_facts``, CY-2.1)."""

from __future__ import annotations

import re
from pathlib import Path

from peloton.games.cyclo import CHOICE_FACTS

WEB = Path(__file__).resolve().parents[3] / "src" / "peloton" / "web" / "js"
CYCLO_JS = [WEB / name for name in ("cyclo.js", "cyclo_panels.js", "cyclo_track_panels.js")]


def test_the_page_tests_no_mode_by_its_name() -> None:
    """No ``snap.mode === "keirin"``, no list of names: the facts decide."""
    names = "|".join(re.escape(name) for name in CHOICE_FACTS["mode"])
    for path in CYCLO_JS:
        text = path.read_text(encoding="utf-8")
        assert not re.search(rf"mode\s*[!=]==?\s*\"({names})\"", text), path.name
        assert not re.search(rf"\[\s*\"({names})\"\s*,\s*\"({names})\"", text), path.name
        assert not re.search(rf"\"({names})\"\s*:\s*\{{", text), path.name  # no table of modes
        assert "parseRide" not in text, path.name
