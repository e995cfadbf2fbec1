"""The web table: ``peloton serve``'s ASGI app (lobby, tables, live play, storage).

See docs/protocol.md for the HTTP API and the WebSocket messages.
"""

from .app import create_app

__all__ = ["create_app"]
