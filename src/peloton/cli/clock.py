"""When the running ``peloton`` command started, so that a command with a time limit
(``peloton solve --time-limit``) keeps it as a whole: Python's start-up and the imports
before :func:`peloton.cli.main` runs count too.

Run as a command (``main()`` reading ``sys.argv``), the command started with its
process: its age is read from the system (Linux's ``/proc/self/stat``), or else from
when this module was imported, as early as the command's imports allow. Called with
arguments (a test, a program running commands in its own process), the command starts
when ``main`` is called.
"""

from __future__ import annotations

import os
import time

#: The clock a command's time is counted on (a test may replace it).
_now = time.monotonic
#: Imported with the command line's first modules: the fallback start.
_IMPORTED = _now()
_started: float | None = None
#: Whether the command is the whole process (run as ``peloton``, not called by a test).
_whole_process = False


def process_age() -> float | None:
    """Seconds since this process started, or None where the system does not say."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        # Field 22, the start time in clock ticks since boot (fields[0] is field 3).
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - int(fields[19]) / ticks)
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def start(whole_process: bool) -> None:
    """Mark the start of a command: the process's own start when ``whole_process``."""
    global _started, _whole_process
    now = _now()
    _whole_process = whole_process
    if whole_process:
        age = process_age()
        _started = now - age if age is not None else _IMPORTED
    else:
        _started = now


def elapsed() -> float:
    """Seconds since the running command started (since import if none was marked)."""
    return _now() - (_IMPORTED if _started is None else _started)


def whole_process() -> bool:
    """Whether the running command is the whole process (its exit is the process's)."""
    return _whole_process


def cpu() -> float:
    """CPU seconds this process has used so far (its start-up included)."""
    return time.process_time()


def share() -> float:
    """The share of one core this command got so far: its CPU seconds per second of
    wall time since it started (1.0 when nothing can be told yet). On a busy machine
    it is small: a second of the command's own work then takes many seconds."""
    wall = elapsed()
    if wall <= 0.05:
        return 1.0
    return min(1.0, max(0.01, cpu() / wall))
