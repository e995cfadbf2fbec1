"""``peloton info``: the version and the active engine, and one clear line when the
native engine is required but missing."""

from __future__ import annotations

import sys

import pytest

import peloton
from peloton import native
from peloton.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 1), out, err


@pytest.fixture
def choice(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    native._load.cache_clear()
    native._checked.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    native._load.cache_clear()
    native._checked.cache_clear()


def test_info_names_version_and_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "info")
    assert code == 0
    assert f"peloton {peloton.__version__}" in out
    assert f"engine  {native.engine()} ({native.reason()})" in out


def test_info_with_python_forced(
    capsys: pytest.CaptureFixture[str], choice: pytest.MonkeyPatch
) -> None:
    choice.setenv("PELOTON_ENGINE", "python")
    code, out, _ = run(capsys, "info")
    assert code == 0
    assert "engine  python (PELOTON_ENGINE=python)" in out


def test_info_when_native_is_required_but_missing(
    capsys: pytest.CaptureFixture[str], choice: pytest.MonkeyPatch
) -> None:
    choice.setenv("PELOTON_ENGINE", "native")
    choice.setitem(sys.modules, "peloton.native._mc", None)
    code, out, err = run(capsys, "info")
    assert code == 1
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("peloton: error: PELOTON_ENGINE=native: no native engine:")
