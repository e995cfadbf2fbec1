"""Optional native engines, in C through cffi, behind the same State API.

The pure-Python engine is the reference and the fallback: a native core plays exactly
its rules (``tests/native`` drives both side by side), only faster. Today there is
one, for Mind Cycling (``mc.h`` and its C files here; the bridge from a
:class:`~peloton.games.mindcycling.position.Race` is
:mod:`peloton.games.mindcycling.native`).

Which engine runs is chosen once per process from ``PELOTON_ENGINE``:

* unset (or empty): the native engine when its compiled module imports, else Python;
* ``python``: always the Python engine;
* ``native``: the native engine, or :class:`NativeEngineError` (one line saying why)
  the first time an engine is asked for.

>>> from peloton import native
>>> native.engine() in ("native", "python")
True

This package imports nothing else from Peloton but its errors: it is a floor the
games stand on.
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from typing import Any

from ..core.errors import ConfigError

__all__ = ["ENGINE_VARIABLE", "NativeEngineError", "engine", "lib", "moves_module", "reason"]

#: The environment variable that chooses the engine.
ENGINE_VARIABLE = "PELOTON_ENGINE"
_CHOICES = ("native", "python")


class NativeEngineError(ConfigError):
    """``PELOTON_ENGINE=native`` asked for a native engine that cannot be loaded (or
    the variable holds an unknown value)."""


@cache
def _load() -> tuple[Any, Any, str]:
    """``(ffi, lib, why)``: the compiled module, or ``(None, None, why not)``.
    Cached, as is :func:`_checked`: the choice is made once per process."""
    choice = os.environ.get(ENGINE_VARIABLE, "").strip().lower()
    if choice not in ("", *_CHOICES):
        return None, None, f"{ENGINE_VARIABLE}={choice!r} is not one of {', '.join(_CHOICES)}"
    if choice == "python":
        return None, None, f"{ENGINE_VARIABLE}=python"
    try:
        _mc = importlib.import_module("peloton.native._mc")  # compiled by build.py
    except ImportError as exc:
        return None, None, f"the native module is not built or cannot load ({exc})"
    return _mc.ffi, _mc.lib, f"{ENGINE_VARIABLE}=native" if choice else "compiled module found"


@cache
def _checked() -> tuple[Any, Any, str]:
    ffi, c_lib, why = _load()
    choice = os.environ.get(ENGINE_VARIABLE, "").strip().lower()
    if c_lib is None and (choice == "native" or choice not in ("", *_CHOICES)):
        raise NativeEngineError(f"{ENGINE_VARIABLE}={choice}: no native engine: {why}")
    return ffi, c_lib, why


def engine() -> str:
    """``"native"`` or ``"python"``: the engine this process plays Mind Cycling with.

    Raises :class:`NativeEngineError` when ``PELOTON_ENGINE=native`` and the native
    module is missing, or when the variable holds something else than ``native`` or
    ``python``."""
    return "native" if _checked()[1] is not None else "python"


def reason() -> str:
    """Why :func:`engine` is what it is (for ``peloton info``)."""
    return _checked()[2]


def lib() -> tuple[Any, Any] | None:
    """``(ffi, lib)`` of the compiled module when the native engine is active, else None."""
    ffi, c_lib, _ = _checked()
    return None if c_lib is None else (ffi, c_lib)


@cache
def moves_module() -> Any:
    """The compiled ``_moves`` extension (``moves.c``: the public API's lists of Moves
    built in C) when the native engine is active and it imports, else ``None`` (the
    cffi calls then do its work, only slower)."""
    if lib() is None:
        return None
    try:
        return importlib.import_module("peloton.native._moves")
    except ImportError:
        return None
