"""Shared helpers for the CLI tests: a console that records, scripted input, and the
positions the tests draw and play from."""

from __future__ import annotations

import io
from collections.abc import Iterable

from rich.console import Console


class Script:
    """An ``ask`` function fed from a list of lines; EOFError once they run out.

    ``prompts`` records every prompt asked, so tests can check that the same prompt
    comes back after an error.
    """

    def __init__(self, lines: Iterable[str] = ()) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


class Recorder:
    """A Rich console writing plain text (no colour) into a buffer."""

    def __init__(self, width: int = 100) -> None:
        self.buffer = io.StringIO()
        self.console = Console(file=self.buffer, width=width, color_system=None, highlight=False)

    @property
    def text(self) -> str:
        return self.buffer.getvalue()


#: MC-10.2's first example: BD1 (d13) leads; AD1 and BD1 ride against the wind.
EXAMPLE_MCN = "3 AC1:b9,AD1:c12+,AS1:c11,BC1:e8,BD1:d13+,BS1:d12 / - / -"
