"""The web table: ``peloton serve``'s ASGI app (lobby, tables, live play, storage).

See docs/protocol.md for the HTTP API and the WebSocket messages.

``create_app`` is imported on first use: the server's worker processes import this
package too (:mod:`.work.jobs`), and need neither the web framework nor the database.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
