"""``peloton analyse``: each position of a record assessed by an engine (each seat's
chance to win, the best move, what the played move cost), a summary per seat, the
``peloton-analysis/1`` JSON and a plot. See docs/analysis.md."""

from .assessment import ACCURATE, THRESHOLDS, Analyst, Assessment, Budget, classify
from .run import ANALYSIS_FORMAT, Analysis, Position, analyse, analyst_of, to_json

__all__ = [
    "ACCURATE",
    "ANALYSIS_FORMAT",
    "THRESHOLDS",
    "Analysis",
    "Analyst",
    "Assessment",
    "Budget",
    "Position",
    "analyse",
    "analyst_of",
    "classify",
    "to_json",
]
