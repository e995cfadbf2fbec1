"""The broker through Redis's publish/subscribe (:class:`RedisBroker`): one connection
for publishing, one for every subscription of the process, read by one task that
reconnects when the connection is lost, and a ping that finds a silent Redis
(:mod:`.broker_base` says what every broker does)."""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .broker_base import Broker, BrokerDown, log

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
