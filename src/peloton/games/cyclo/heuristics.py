"""Bot hooks (placeholder until the real heuristics)."""

from __future__ import annotations

from ...core.registry import Heuristics

HEURISTICS: Heuristics = {}
