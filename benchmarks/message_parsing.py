"""How many client messages per second the server parses (``server/live/messages.py``).

Every WebSocket frame a client sends goes through :func:`parse_message` (size limit,
JSON, then the declared model of its type) before the table sees it, on the event
loop that serves every table; this times that parse alone for the two messages sent
most, a ``move`` and a ``chat``, and a refused one (a ``move`` whose ``index`` is
text, which builds the error answer's text too).

    python benchmarks/message_parsing.py [--seconds 2]

Prints messages per second and microseconds per message for each (best of five
rounds). A move costs the engine and the broadcast far more than its parse; the parse
should stay in the tens of thousands per second or more. Nothing here is asserted by
tests.
"""

from __future__ import annotations

import argparse
import contextlib
import time

from peloton.server.errors import ProtocolError
from peloton.server.live.messages import parse_message

MESSAGES = {
    "move": '{"type": "move", "move": "AD1-b9 BD2-c8", "index": 14}',
    "chat": '{"type": "chat", "text": "well ridden, see you on the next climb", "name": null}',
    "refused move": '{"type": "move", "move": "AD1-b9", "index": "14"}',
}


def rate(raw: str, seconds: float) -> float:
    """Messages parsed per second: the best of five rounds of ``seconds / 5``."""
    best = 0.0
    for _ in range(5):
        count, start = 0, time.perf_counter()
        deadline = start + seconds / 5
        while True:
            for _ in range(1000):
                with contextlib.suppress(ProtocolError):
                    parse_message(raw)
            count += 1000
            now = time.perf_counter()
            if now >= deadline:
                break
        best = max(best, count / (now - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per message")
    args = parser.parse_args()
    for name, raw in MESSAGES.items():
        per_second = rate(raw, args.seconds)
        print(f"{name:>13}: {per_second:>10,.0f} messages/s  {1e6 / per_second:6.2f} µs each")


if __name__ == "__main__":
    main()
