"""Messages between the nodes of a cluster (issue 19): publish/subscribe on named
channels, and request/reply on top of them.

Several ``peloton serve`` processes (nodes) share one database and one broker. A node
that does not own a table relays its clients to the owner through the broker; a node
answers requests for the tables it owns. Two brokers do the same job:

* :class:`RedisBroker` (``redis://HOST:PORT/DB``): Redis's publish/subscribe, one
  subscriber connection per process. When Redis goes away the broker calls the
  :meth:`Broker.on_lost` callbacks at once (what is published from now on is lost,
  so relayed clients are closed and connect again), reconnects with backoff,
  subscribes every channel again, then calls the :meth:`Broker.on_reconnect`
  callbacks: what was published meanwhile is lost (Redis keeps no pub/sub messages),
  so the callers check again what they rely on. A Redis that stops answering
  without closing its connections (a stopped process, a cut link) is found by a
  ping every :data:`HEARTBEAT_SECONDS` that must answer within :data:`PING_TIMEOUT`.
* :class:`LocalBroker`: the same behaviour inside one process (every ``LocalBroker``
  of a :class:`LocalHub` hears the others), for a one-process server and for tests.

Messages on one channel reach each subscriber in the order they were published; a
subscriber's handler runs for one message at a time (a slow handler delays only its
own channel). Requests are served concurrently.

A request travels as an envelope: one line of JSON (``{"id", "reply"}``: the request
id and the requester's reply channel), a newline, then the payload's bytes untouched.
The reply is ``{"id", "ok": true}`` and the handler's bytes, or ``{"id", "error"}``
when the handler raised: the requester then gets :class:`BrokerError`.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import orjson

log = logging.getLogger("peloton.server.broker")

Handler = Callable[[bytes], Awaitable[None]]
Server = Callable[[bytes], Awaitable[bytes]]
Callback = Callable[[], Awaitable[None]]

#: The longest a publish may wait for the broker before :class:`BrokerDown`.
PUBLISH_TIMEOUT = 2.0
#: Waits between reconnection attempts: doubled after each failure, up to the cap.
BACKOFF_FIRST = 0.05
BACKOFF_CAP = 2.0
#: The longest :meth:`Broker.subscribe` waits for the broker to confirm.
SUBSCRIBE_TIMEOUT = 5.0
#: How often a Redis broker pings Redis, and how long the answer may take before it
#: counts the broker as lost. A Redis that closed its connections (killed, restarted)
#: is found lost at once by the reader; these bound how long a silent one goes
#: unnoticed: relayed clients were left waiting until Redis came back (issue 32).
HEARTBEAT_SECONDS = 0.25
PING_TIMEOUT = 0.5


class BrokerDown(Exception):
    """The broker cannot be reached now (it may come back: see ``on_reconnect``)."""


class BrokerError(Exception):
    """The node that served a request failed to answer it (its handler raised)."""


class NoListener(TimeoutError):
    """A request went to a channel that no node serves: no reply can ever come. A
    :class:`TimeoutError`, raised at once rather than after the timeout."""


def new_node_id() -> str:
    """A random node id (48 bits, hex): a fresh one for every process."""
    return secrets.token_hex(6)


def reply_channel(node: str) -> str:
    """The channel on which ``node`` receives the replies to its requests."""
    return f"peloton:reply:{node}"


def _envelope(header: dict[str, Any], payload: bytes) -> bytes:
    return orjson.dumps(header) + b"\n" + payload


def _open(data: bytes) -> tuple[dict[str, Any], bytes]:
    head, _, payload = data.partition(b"\n")
    header = orjson.loads(head)
    if not isinstance(header, dict):
        raise ValueError("an envelope's header is not a JSON object")
    return header, payload


@dataclass
class _Subscription:
    """One channel's handler and its queue: a task hands the messages over in order."""

    handler: Handler
    queue: asyncio.Queue[bytes] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None

    def start(self, channel: str) -> None:
        self.task = asyncio.ensure_future(self._deliver(channel))

    async def _deliver(self, channel: str) -> None:
        while True:
            data = await self.queue.get()
            try:
                await self.handler(data)
            except Exception:  # one bad message must not stop the channel
                log.exception("broker: the handler of channel %s failed", channel)

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()


class Broker(abc.ABC):
    """Publish/subscribe and request/reply between the nodes of a cluster."""

    node: str

    def __init__(self, node: str | None = None) -> None:
        self.node = node or new_node_id()
        self._subscriptions: dict[str, _Subscription] = {}
        self._callbacks: list[Callback] = []
        self._pending: dict[str, asyncio.Future[bytes]] = {}
        self._serving: set[asyncio.Task[None]] = set()
        self._started = False
        self._lost_callbacks: list[Callback] = []
        #: Whether the broker was lost and has not come back yet.
        self.down = False

    # ------------------------------------------------------------ what each broker does

    @abc.abstractmethod
    async def _publish(self, channel: str, data: bytes) -> int:
        """Send ``data`` on ``channel``; how many subscribers received it. Raises
        :class:`BrokerDown`."""

    @abc.abstractmethod
    async def _listen(self, channel: str) -> None:
        """Start receiving ``channel``'s messages (into :meth:`_receive`)."""

    @abc.abstractmethod
    async def _unlisten(self, channel: str) -> None:
        """Stop receiving ``channel``'s messages."""

    # ------------------------------------------------------------ the public interface

    async def start(self) -> None:
        """Connect and listen for replies to this node's requests."""
        if self._started:
            return
        self._started = True
        await self.subscribe(reply_channel(self.node), self._on_reply)

    async def close(self) -> None:
        """Stop every subscription and request; the broker cannot be used again."""
        self._started = False
        for task in list(self._serving):
            task.cancel()
        for sub in self._subscriptions.values():
            sub.stop()
        self._subscriptions.clear()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(BrokerDown("the broker was closed"))
        self._pending.clear()

    async def publish(self, channel: str, data: bytes) -> None:
        """Send ``data`` to every subscriber of ``channel`` (none is no error).
        Raises :class:`BrokerDown` when the broker cannot be reached."""
        await self._publish(channel, data)

    async def subscribe(self, channel: str, handler: Handler) -> None:
        """Call ``handler`` with each message published on ``channel`` from now on
        (once this returns, the broker has the subscription). Subscribing a channel
        again replaces its handler."""
        old = self._subscriptions.get(channel)
        if old is not None:
            old.handler = handler
            return
        sub = _Subscription(handler)
        sub.start(channel)
        self._subscriptions[channel] = sub
        await self._listen(channel)

    async def unsubscribe(self, channel: str) -> None:
        """Stop receiving ``channel`` (no error if it was not subscribed)."""
        sub = self._subscriptions.pop(channel, None)
        if sub is not None:
            sub.stop()
            await self._unlisten(channel)

    def on_reconnect(self, callback: Callback) -> None:
        """Call ``callback`` each time the connection to the broker came back after it
        was lost: messages published meanwhile may have been lost."""
        self._callbacks.append(callback)

    def on_lost(self, callback: Callback) -> None:
        """Call ``callback`` as soon as the broker is found lost (once an outage):
        what is published until it comes back is lost."""
        self._lost_callbacks.append(callback)

    async def request(self, channel: str, data: bytes, timeout: float) -> bytes:
        """Send ``data`` to the node serving ``channel`` and return its reply.
        Raises :class:`TimeoutError` when no reply came within ``timeout`` seconds
        (:class:`NoListener` at once when nobody serves the channel),
        :class:`BrokerError` when the serving handler failed, :class:`BrokerDown` when
        the broker cannot be reached."""
        if not self._started:
            await self.start()
        request_id = secrets.token_hex(8)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            header = {"id": request_id, "reply": reply_channel(self.node)}
            heard = await self._publish(channel, _envelope(header, data))
            if heard == 0:
                raise NoListener(f"no node serves {channel!r}")
            async with asyncio.timeout(timeout):
                return await future
        except TimeoutError as exc:
            if isinstance(exc, NoListener):
                raise
            raise TimeoutError(f"no reply on {channel!r} within {timeout:g} s") from None
        finally:
            self._pending.pop(request_id, None)

    async def serve(self, channel: str, handler: Server) -> None:
        """Answer the requests sent to ``channel`` with ``handler`` (each in its own
        task; an exception becomes a :class:`BrokerError` for the requester)."""

        async def receive(data: bytes) -> None:
            try:
                header, payload = _open(data)
                request_id, reply = str(header["id"]), str(header["reply"])
            except (ValueError, KeyError, TypeError):
                log.warning("broker: a request on %s is not an envelope: dropped", channel)
                return
            task = asyncio.ensure_future(self._answer(handler, request_id, reply, payload))
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)

        await self.subscribe(channel, receive)

    # ------------------------------------------------------------ shared machinery

    async def _answer(self, handler: Server, request_id: str, reply: str, payload: bytes) -> None:
        try:
            answer = _envelope({"id": request_id, "ok": True}, await handler(payload))
        except Exception as exc:
            log.exception("broker: a request handler failed")
            message = str(exc) or type(exc).__name__
            answer = _envelope({"id": request_id, "error": message}, b"")
        try:
            await self._publish(reply, answer)
        except BrokerDown:  # the requester times out
            log.warning("broker: a reply was lost: the broker is down")

    async def _on_reply(self, data: bytes) -> None:
        try:
            header, payload = _open(data)
        except ValueError:
            return
        future = self._pending.get(str(header.get("id")))
        if future is None or future.done():
            return  # too late: the requester gave up
        if "error" in header:
            future.set_exception(BrokerError(str(header["error"])))
        else:
            future.set_result(payload)

    def _receive(self, channel: str, data: bytes) -> None:
        """A message arrived on ``channel``: queue it for its handler."""
        sub = self._subscriptions.get(channel)
        if sub is not None:
            sub.queue.put_nowait(data)

    def _lost(self) -> None:
        """The broker is gone: run the :meth:`on_lost` callbacks, once an outage, each
        in a task of its own (a callback may use the broker)."""
        if self.down or not self._started:
            return
        self.down = True
        self._spawn(self._run(self._lost_callbacks, "on_lost"))

    def _back(self) -> None:
        """The broker is back (every channel subscribed again): the
        :meth:`on_reconnect` callbacks, in a task of their own."""
        self.down = False
        self._spawn(self._run(self._callbacks, "on_reconnect"))

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._serving.add(task)
        task.add_done_callback(self._serving.discard)

    @staticmethod
    async def _run(callbacks: list[Callback], what: str) -> None:
        for callback in list(callbacks):
            try:
                await callback()
            except Exception:
                log.exception("broker: an %s callback failed", what)


# ---------------------------------------------------------------- in one process


class LocalHub:
    """The brokers of one process that hear each other (one hub per cluster)."""

    def __init__(self) -> None:
        self.listeners: dict[str, set[LocalBroker]] = {}


#: The hub of :func:`connect`'s local brokers.
DEFAULT_HUB = LocalHub()


class LocalBroker(Broker):
    """A broker inside one process: every ``LocalBroker`` of the same hub hears the
    messages of the others (and its own). It is never down."""

    def __init__(self, node: str | None = None, hub: LocalHub | None = None) -> None:
        super().__init__(node)
        self.hub = hub or DEFAULT_HUB

    async def _publish(self, channel: str, data: bytes) -> int:
        listeners = list(self.hub.listeners.get(channel, ()))
        for broker in listeners:
            broker._receive(channel, data)
        return len(listeners)

    async def _listen(self, channel: str) -> None:
        self.hub.listeners.setdefault(channel, set()).add(self)

    async def _unlisten(self, channel: str) -> None:
        listeners = self.hub.listeners.get(channel)
        if listeners is not None:
            listeners.discard(self)
            if not listeners:
                del self.hub.listeners[channel]

    async def close(self) -> None:
        for channel in list(self._subscriptions):
            await self._unlisten(channel)
        await super().close()


# ---------------------------------------------------------------- through Redis


class RedisBroker(Broker):
    """A broker through Redis's publish/subscribe (``redis.asyncio``): one connection
    for publishing, one for every subscription of the process, read by one task that
    reconnects (with backoff) whenever the connection is lost."""

    def __init__(self, url: str, node: str | None = None) -> None:
        super().__init__(node)
        self.url = url
        self._client: Any = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._up = asyncio.Event()  # the subscriber connection is up
        self._confirmed: dict[str, asyncio.Event] = {}
        self._closing = False
        self._outbox: list[tuple[str, bytes, asyncio.Future[int]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._heart: asyncio.Task[None] | None = None
        #: The reader is connecting again (it says when it is back).
        self._reconnecting = False

    def _new_client(self) -> Any:
        from redis.asyncio import Redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        # No retries inside redis-py: this broker reconnects by itself, so that it
        # knows when it did (and calls the on_reconnect callbacks).
        return Redis.from_url(
            self.url,
            socket_connect_timeout=PUBLISH_TIMEOUT,
            socket_timeout=None,
            retry=Retry(NoBackoff(), 0),
            health_check_interval=5,
        )

    async def start(self) -> None:
        """Connect to Redis (raises :class:`BrokerDown` if it cannot be reached now)."""
        if self._started:
            return
        self._client = self._new_client()
        try:
            await self._connect()
        except BrokerDown:
            await self._client.aclose()
            raise
        self._reader = asyncio.ensure_future(self._read())
        await super().start()
        self._heart = asyncio.ensure_future(self._heartbeat())

    async def close(self) -> None:
        self._closing = True
        if self._flusher is not None:
            # What was published before the close still goes out (replies included).
            await asyncio.wait({self._flusher}, timeout=PUBLISH_TIMEOUT)
            self._flusher.cancel()
        for _, _, future in self._outbox:
            if not future.done():
                future.set_exception(BrokerDown("the broker was closed"))
        self._outbox.clear()
        for task in (self._reader, self._heart):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await super().close()
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        if self._client is not None:
            with contextlib.suppress(Exception):
                await self._client.aclose()

    async def _connect(self) -> None:
        """A new subscriber connection, subscribed to every channel of this broker."""
        from redis.exceptions import RedisError

        pubsub = self._client.pubsub()
        try:
            async with asyncio.timeout(PUBLISH_TIMEOUT):
                await pubsub.connect()
                if self._subscriptions:
                    await pubsub.subscribe(*self._subscriptions)
        except (RedisError, OSError, EOFError, TimeoutError) as exc:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            raise BrokerDown(f"cannot reach the broker at {self.url}: {exc}") from exc
        self._pubsub = pubsub
        self._up.set()

    async def _read(self) -> None:
        """Read the subscriber connection forever; reconnect when it is lost."""
        from redis.exceptions import RedisError

        while not self._closing:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except (RedisError, OSError, EOFError) as exc:
                log.warning("broker: lost the connection to %s (%s)", self.url, exc)
                await self._reconnect()
                continue
            except Exception:  # a deaf broker would be worse: start a new connection
                log.exception("broker: reading from %s failed", self.url)
                await self._reconnect()
                continue
            if message is None:
                continue
            kind = message["type"]
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
            if kind == "message":
                self._receive(channel, message["data"])
            elif kind == "subscribe":
                event = self._confirmed.pop(channel, None)
                if event is not None:
                    event.set()

    async def _heartbeat(self) -> None:
        """Ping Redis every :data:`HEARTBEAT_SECONDS`: a Redis that does not answer in
        time is lost (:meth:`Broker.on_lost`), even if no connection was closed. It is
        back when it answers again and the subscriber connection is up: after a
        reconnection, the reader says so itself once every channel is subscribed.

        Each ping is a blocking call in a thread of its own, timed by its socket: an
        event loop busy for a moment delays the verdict, never makes it "lost"."""
        import redis

        client = redis.Redis.from_url(
            self.url, socket_connect_timeout=PING_TIMEOUT, socket_timeout=PING_TIMEOUT
        )
        pinger = ThreadPoolExecutor(max_workers=1, thread_name_prefix="peloton-broker-ping")
        loop = asyncio.get_running_loop()
        try:
            while not self._closing:
                await asyncio.sleep(HEARTBEAT_SECONDS)
                try:
                    await loop.run_in_executor(pinger, client.ping)
                except Exception as exc:  # refused, reset, timed out: gone for now
                    if not self.down:
                        log.warning("broker: %s does not answer (%s)", self.url, exc)
                    self._lost()
                    continue
                if self.down and self._up.is_set() and not self._reconnecting:
                    log.warning("broker: %s answers again", self.url)
                    self._back()
        finally:
            pinger.shutdown(wait=False, cancel_futures=True)
            with contextlib.suppress(Exception):
                client.close()

    async def _reconnect(self) -> None:
        self._reconnecting = True
        self._lost()
        self._up.clear()
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        wait = BACKOFF_FIRST
        while not self._closing:
            await asyncio.sleep(wait)
            try:
                await self._connect()
            except BrokerDown:
                wait = min(BACKOFF_CAP, wait * 2)
                continue
            log.warning("broker: connected to %s again", self.url)
            # In a task of their own: a callback may use the broker (a request waits
            # for its reply, which this reader must be free to read).
            self._reconnecting = False
            self._back()
            return

    async def _publish(self, channel: str, data: bytes) -> int:
        """Queue the message for the flusher, which sends every message queued in the
        same turn of the event loop in one pipeline (one write, one connection):
        many tables broadcasting at once cost Redis one round trip, and messages
        leave in the order they were published."""
        if self._client is None:
            raise BrokerDown("the broker is not started")
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._outbox.append((channel, data, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.ensure_future(self._flush())
        return await future

    async def _flush(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                heard = await self._send(batch)
            except BrokerDown as exc:
                for _, _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            for (_, _, future), count in zip(batch, heard, strict=True):
                if not future.done():
                    future.set_result(int(count))

    async def _send(self, batch: list[tuple[str, bytes, asyncio.Future[int]]]) -> list[int]:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import RedisError

        # Twice at most: after Redis restarted, the first try may find a pooled
        # connection that Redis closed (and drops it); the second opens a fresh one.
        for attempt in (1, 2):
            try:
                async with asyncio.timeout(PUBLISH_TIMEOUT):
                    pipe = self._client.pipeline(transaction=False)
                    for channel, data, _ in batch:
                        pipe.publish(channel, data)
                    heard: list[int] = await pipe.execute()
                return heard
            except RedisConnectionError as exc:
                if attempt == 2:
                    raise BrokerDown(f"cannot publish to the broker at {self.url}: {exc}") from exc
            except (RedisError, OSError, TimeoutError) as exc:
                raise BrokerDown(f"cannot publish to the broker at {self.url}: {exc}") from exc
        raise AssertionError("unreachable")

    async def _listen(self, channel: str) -> None:
        from redis.exceptions import RedisError

        if self._pubsub is None or not self._up.is_set():
            return  # subscribed again with every other channel on reconnection
        event = self._confirmed.setdefault(channel, asyncio.Event())
        try:
            async with asyncio.timeout(SUBSCRIBE_TIMEOUT):
                await self._pubsub.subscribe(channel)
                await event.wait()
        except (RedisError, OSError, TimeoutError):
            # The reader sees the lost connection and subscribes every channel again.
            self._confirmed.pop(channel, None)
            log.warning("broker: subscribing %s waits for the broker to come back", channel)

    async def _unlisten(self, channel: str) -> None:
        from redis.exceptions import RedisError

        if self._pubsub is None or not self._up.is_set():
            return
        with contextlib.suppress(RedisError, OSError):
            await self._pubsub.unsubscribe(channel)


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
