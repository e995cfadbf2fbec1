"""``peloton info``: the version and the rules engine this installation plays with
(native or pure Python, and why)."""

from __future__ import annotations

import platform

import typer

from .. import __version__, native
from .base import fail
from .help import Command


def register(app: typer.Typer) -> None:
    """Add ``info`` to ``app``."""
    app.command(cls=Command)(info)


def info() -> None:
    """Show Peloton's version and the engine it plays Mind Cycling with.

    The engine is the native (C) core when it is built, else pure Python; set
    PELOTON_ENGINE=python to force Python, or PELOTON_ENGINE=native to require the
    native core (this command then fails, saying why, if it is missing).
    """
    try:
        engine, why = native.engine(), native.reason()
    except native.NativeEngineError as exc:
        raise fail(str(exc)) from None
    print(f"peloton {__version__}")
    print(f"python  {platform.python_version()} ({platform.python_implementation()})")
    print(f"engine  {engine} ({why})")
