"""Shared helpers for the analysis tests."""

from __future__ import annotations

import pytest

from peloton.cli import main


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``peloton simulate *argv`` in this process: exit code, stdout, stderr."""
    with pytest.raises(SystemExit) as done:
        main(["simulate", *argv])
    out, err = capsys.readouterr()
    code = done.value.code
    return (code if isinstance(code, int) else 0), out, err
