"""``peloton info``: the version and the rules engine this installation plays with
(native or pure Python, and why). Registered on the app of :mod:`peloton.cli_base`
when :mod:`peloton.cli` imports this module."""

from __future__ import annotations

import platform

from . import __version__, native
from .cli_base import app, fail


@app.command()
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
