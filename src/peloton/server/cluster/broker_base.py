"""Messages between the nodes of a cluster (issue 19): publish/subscribe on named
channels, and request/reply on top of them; the broker every kind shares, and the
one inside a process (:class:`LocalBroker`). :mod:`.redis_broker` is Redis's;
:mod:`.broker` is where the rest of the server finds them.

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
  ping (:mod:`.redis_broker`).
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
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

log = logging.getLogger("peloton.server.cluster.broker")

Handler = Callable[[bytes], Awaitable[None]]
Server = Callable[[bytes], Awaitable[bytes]]
Callback = Callable[[], Awaitable[None]]


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
