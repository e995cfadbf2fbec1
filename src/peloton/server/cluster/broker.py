"""The message broker of a cluster, as the rest of the server finds it: the kinds of
broker (:mod:`.broker_base`, :mod:`.redis_broker`), :func:`connect` to the one a URL
names, and the checks of a broker URL.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from .broker_base import (
    Broker,
    BrokerDown,
    BrokerError,
    Callback,
    Handler,
    LocalBroker,
    LocalHub,
    NoListener,
    Server,
)
from .redis_broker import RedisBroker

__all__ = [
    "Broker",
    "BrokerDown",
    "BrokerError",
    "Callback",
    "Handler",
    "LocalBroker",
    "LocalHub",
    "NoListener",
    "RedisBroker",
    "Server",
    "check_url",
    "connect",
    "safe_url",
    "unreachable",
]


def connect(url: str | None, node: str | None = None) -> Broker:
    """The broker at ``url``: ``None`` → a :class:`LocalBroker` (one process);
    ``redis://HOST[:PORT][/DB]`` (or ``rediss://`` for TLS) → a :class:`RedisBroker`.
    Anything else is a :class:`ValueError` saying what to give. Not yet connected:
    call :meth:`Broker.start`."""
    if url is None:
        return LocalBroker(node)
    check_url(url)
    return RedisBroker(url, node)


def check_url(url: str) -> None:
    """Raise :class:`ValueError` with a clear message unless ``url`` is a Redis URL."""
    expected = "give redis://HOST:PORT/DB, for example redis://127.0.0.1:6379/0"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"bad broker URL {url!r} ({exc}): {expected}") from None
    if parts.scheme not in ("redis", "rediss"):
        raise ValueError(f"the broker must be Redis, not {url!r}: {expected}")
    if not parts.hostname:
        raise ValueError(f"the broker URL {url!r} names no host: {expected}")
    db = parts.path.strip("/")
    if db and not db.isdigit():
        raise ValueError(f"the broker URL {url!r} names database {db!r}, not a number: {expected}")
    del port


def safe_url(url: str) -> str:
    """The broker URL with its password hidden, for printing."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def unreachable(url: str) -> str | None:
    """Why the Redis at ``url`` does not answer now (one line), else ``None``: checked
    before serving, so that a bad ``--broker`` is one line, not a traceback."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
    try:
        client.ping()
    except (redis.RedisError, OSError) as exc:
        text = str(exc).strip()
        return text.splitlines()[0] if text else type(exc).__name__
    finally:
        client.close()
    return None
