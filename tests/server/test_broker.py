"""The broker between cluster nodes (issue 19, server/cluster/broker.py): publish/subscribe
and request/reply through a real ``redis-server`` and in one process (the same test
bodies run on both), two processes talking through Redis, and Redis stopped and
started again on the same port while both sides keep going."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import textwrap
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from cluster_support import RedisServer, free_port
from peloton.server.cluster import broker as b

WAIT = 10.0  # the longest any single wait in these tests may take


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), timeout=60))


class Inbox:
    """What a subscriber received, awaitable message by message."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()

    async def __call__(self, data: bytes) -> None:
        await self.queue.put(data)

    async def next(self) -> bytes:
        return await asyncio.wait_for(self.queue.get(), WAIT)

    async def nothing(self, within: float = 0.2) -> bool:
        """Whether nothing arrives within ``within`` seconds."""
        try:
            await asyncio.wait_for(self.queue.get(), within)
        except TimeoutError:
            return True
        return False


@pytest.fixture(params=["local", "redis"])
def brokers(request: pytest.FixtureRequest) -> Callable[[], b.Broker]:
    """Makes brokers that hear each other: in-process ones on a fresh hub, or
    :class:`~peloton.server.cluster.broker.RedisBroker` objects on the session's Redis."""
    if request.param == "local":
        hub = b.LocalHub()
        return lambda: b.LocalBroker(hub=hub)
    url: str = request.getfixturevalue("redis_url")
    return lambda: b.connect(url)


def test_a_message_reaches_every_subscriber_in_order(brokers: Callable[[], b.Broker]) -> None:
    async def body() -> None:
        one, two, three = brokers(), brokers(), brokers()
        for broker in (one, two, three):
            await broker.start()
        assert len({one.node, two.node, three.node}) == 3  # random node ids
        inbox_two, inbox_three = Inbox(), Inbox()
        await two.subscribe("table:t1", inbox_two)
        await three.subscribe("table:t1", inbox_three)
        for i in range(50):
            await one.publish("table:t1", f"move {i}".encode())
        await one.publish("table:other", b"not for them")
        for inbox in (inbox_two, inbox_three):
            assert [await inbox.next() for _ in range(50)] == [
                f"move {i}".encode() for i in range(50)
            ]
            assert await inbox.nothing()
        # Published at once (many tables broadcasting): still in order, none lost.
        await asyncio.gather(
            *(one.publish("table:t1", f"at once {i}".encode()) for i in range(200))
        )
        for inbox in (inbox_two, inbox_three):
            assert [await inbox.next() for _ in range(200)] == [
                f"at once {i}".encode() for i in range(200)
            ]
        # Binary payloads arrive untouched.
        await one.publish("table:t1", bytes(range(256)))
        assert await inbox_two.next() == bytes(range(256))
        assert await inbox_three.next() == bytes(range(256))
        # After unsubscribing, nothing more arrives; the other subscriber still hears.
        await two.unsubscribe("table:t1")
        await one.publish("table:t1", b"after")
        assert await inbox_three.next() == b"after"
        assert await inbox_two.nothing()
        for broker in (one, two, three):
            await broker.close()

    run(body)


def test_a_slow_handler_delays_only_its_own_channel(brokers: Callable[[], b.Broker]) -> None:
    async def body() -> None:
        sender, receiver = brokers(), brokers()
        await sender.start()
        await receiver.start()
        release = asyncio.Event()
        fast = Inbox()

        async def slow(data: bytes) -> None:
            await release.wait()

        await receiver.subscribe("slow", slow)
        await receiver.subscribe("fast", fast)
        await sender.publish("slow", b"1")
        await sender.publish("fast", b"2")
        assert await fast.next() == b"2"
        release.set()
        await sender.close()
        await receiver.close()

    run(body)


def test_request_and_reply(brokers: Callable[[], b.Broker]) -> None:
    async def body() -> None:
        owner, relay = brokers(), brokers()
        await owner.start()
        await relay.start()

        async def answer(data: bytes) -> bytes:
            if data == b"fail":
                raise ValueError("no table 'zz'")
            if data == b"slow":
                await asyncio.sleep(WAIT)
            return b"echo:" + data

        channel = f"node:{owner.node}:http"
        await owner.serve(channel, answer)
        assert await relay.request(channel, b"GET /api/tables/t1", timeout=WAIT) == (
            b"echo:GET /api/tables/t1"
        )
        # Many requests at once: each gets its own answer.
        texts = [f"request {i}".encode() for i in range(40)]
        answers = await asyncio.gather(*(relay.request(channel, t, WAIT) for t in texts))
        assert answers == [b"echo:" + t for t in texts]
        # The owner asking itself works too.
        assert await owner.request(channel, b"self", WAIT) == b"echo:self"
        # A handler's exception reaches the requester as BrokerError, with its message.
        with pytest.raises(b.BrokerError, match="no table 'zz'"):
            await relay.request(channel, b"fail", WAIT)
        # No reply in time: TimeoutError, and the late reply is dropped quietly.
        with pytest.raises(TimeoutError, match="no reply"):
            await relay.request(channel, b"slow", timeout=0.2)
        # Nobody serves the channel: TimeoutError at once (NoListener).
        with pytest.raises(TimeoutError, match="no node serves"):
            await relay.request("node:nobody:http", b"x", timeout=WAIT)
        # The service still answers after all that.
        assert await relay.request(channel, b"again", WAIT) == b"echo:again"
        await owner.close()
        await relay.close()

    run(body)


def test_requests_are_served_at_the_same_time(brokers: Callable[[], b.Broker]) -> None:
    """A request waiting for something does not hold the next one up: here the first
    one can only finish once the second has been answered."""

    async def body() -> None:
        owner, relay = brokers(), brokers()
        await owner.start()
        await relay.start()
        second_done = asyncio.Event()

        async def answer(data: bytes) -> bytes:
            if data == b"first":
                await second_done.wait()
            else:
                second_done.set()
            return data

        await owner.serve("c", answer)
        first = asyncio.ensure_future(relay.request("c", b"first", WAIT))
        assert await relay.request("c", b"second", WAIT) == b"second"
        assert await first == b"first"
        await owner.close()
        await relay.close()

    run(body)


def test_a_handler_that_fails_does_not_stop_its_channel(brokers: Callable[[], b.Broker]) -> None:
    async def body() -> None:
        sender, receiver = brokers(), brokers()
        await sender.start()
        await receiver.start()
        inbox = Inbox()

        async def picky(data: bytes) -> None:
            if data == b"bad":
                raise RuntimeError("bad message")
            await inbox(data)

        await receiver.subscribe("c", picky)
        for data in (b"good 1", b"bad", b"good 2"):
            await sender.publish("c", data)
        assert [await inbox.next(), await inbox.next()] == [b"good 1", b"good 2"]
        await sender.close()
        await receiver.close()

    run(body)


def test_redis_stopped_and_started_again_both_sides_recover(own_redis: RedisServer) -> None:
    async def body() -> None:
        publisher, subscriber = b.connect(own_redis.url), b.connect(own_redis.url)
        await publisher.start()
        await subscriber.start()
        reconnected = {publisher.node: asyncio.Event(), subscriber.node: asyncio.Event()}
        for broker in (publisher, subscriber):

            def callback(node: str = broker.node) -> Callable[[], Awaitable[None]]:
                async def call() -> None:
                    reconnected[node].set()

                return call

            broker.on_reconnect(callback())
        asked: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()

        async def ask() -> None:
            asked.set_result(await publisher.request("node:s:http", b"anyone there?", WAIT))

        publisher.on_reconnect(ask)
        inbox = Inbox()
        await subscriber.subscribe("table:t1", inbox)
        await subscriber.serve("node:s:http", lambda data: _echo(data))
        await publisher.publish("table:t1", b"before")
        assert await inbox.next() == b"before"

        own_redis.stop()
        # While Redis is down a publish fails with BrokerDown, quickly (the bound here
        # is generous: it only proves the publish does not hang).
        with pytest.raises(b.BrokerDown):
            await asyncio.wait_for(publisher.publish("table:t1", b"lost"), WAIT)
        with pytest.raises(b.BrokerDown):
            await asyncio.wait_for(publisher.request("node:s:http", b"x", WAIT), WAIT)
        # A channel subscribed while Redis is down is subscribed when it comes back.
        later = Inbox()
        await subscriber.subscribe("table:t2", later)

        own_redis.start()  # the same port
        for event in reconnected.values():
            await asyncio.wait_for(event.wait(), WAIT)
        # A callback may use the broker: here it asks the other node something.
        assert await asyncio.wait_for(asked, WAIT) == b"echo:anyone there?"
        # Publishing works again as soon as Redis answers; the subscriptions are back.
        await publisher.publish("table:t1", b"after")
        assert await inbox.next() == b"after"
        await publisher.publish("table:t2", b"new")
        assert await later.next() == b"new"
        assert await publisher.request("node:s:http", b"ping", WAIT) == b"echo:ping"
        await publisher.close()
        await subscriber.close()

    run(body)


def test_a_quick_redis_restart_unnoticed_by_the_publisher(own_redis: RedisServer) -> None:
    """Redis stopped and started again while nobody publishes: the subscriber
    reconnects by itself, and the publisher's first message afterwards goes through
    (its pooled connection, closed by the old Redis, is replaced)."""

    async def body() -> None:
        publisher, subscriber = b.connect(own_redis.url), b.connect(own_redis.url)
        await publisher.start()
        await subscriber.start()
        back = asyncio.Event()

        async def on_back() -> None:
            back.set()

        subscriber.on_reconnect(on_back)
        inbox = Inbox()
        await subscriber.subscribe("c", inbox)
        await publisher.publish("c", b"one")
        assert await inbox.next() == b"one"
        own_redis.stop()
        own_redis.start()
        await asyncio.wait_for(back.wait(), WAIT)
        await publisher.publish("c", b"two")
        assert await inbox.next() == b"two"
        await publisher.close()
        await subscriber.close()

    run(body)


def test_a_publish_to_a_hung_redis_gives_up(own_redis: RedisServer) -> None:
    """Redis frozen (SIGSTOP: connections open, nothing answers): a publish fails with
    BrokerDown after its short timeout instead of hanging; once Redis thaws, the
    broker works again."""

    async def body() -> None:
        publisher, subscriber = b.connect(own_redis.url), b.connect(own_redis.url)
        await publisher.start()
        await subscriber.start()
        inbox = Inbox()
        await subscriber.subscribe("c", inbox)
        assert own_redis.proc is not None
        own_redis.proc.send_signal(signal.SIGSTOP)
        try:
            with pytest.raises(b.BrokerDown):
                await asyncio.wait_for(publisher.publish("c", b"frozen"), WAIT)
        finally:
            own_redis.proc.send_signal(signal.SIGCONT)
        await publisher.publish("c", b"thawed")
        # The frozen publish may or may not have reached Redis before it gave up.
        first = await inbox.next()
        assert first in (b"frozen", b"thawed")
        if first == b"frozen":
            assert await inbox.next() == b"thawed"
        await publisher.close()
        await subscriber.close()

    run(body)


async def _echo(data: bytes) -> bytes:
    return b"echo:" + data


#: A broker in another process: it answers requests on ``node:other:http`` and, asked
#: ``shout``, publishes on ``shouts``; it prints ``ready`` once serving.
OTHER_PROCESS = textwrap.dedent(
    """
    import asyncio, sys
    from peloton.server.cluster import broker as b

    async def main():
        broker = b.connect(sys.argv[1], node="other")
        await broker.start()
        done = asyncio.Event()

        async def answer(data):
            if data == b"shout":
                await broker.publish("shouts", b"hello from " + broker.node.encode())
            if data == b"quit":
                done.set()
            return data.upper()

        await broker.serve("node:other:http", answer)
        print("ready", flush=True)
        await done.wait()
        await broker.close()

    asyncio.run(main())
    """
)


def test_two_processes_talk_through_redis(redis_url: str) -> None:
    other = subprocess.Popen(
        [sys.executable, "-c", OTHER_PROCESS, redis_url], stdout=subprocess.PIPE, text=True
    )
    try:
        assert other.stdout is not None
        assert other.stdout.readline().strip() == "ready"

        async def body() -> None:
            broker = b.connect(redis_url)
            await broker.start()
            shouts = Inbox()
            await broker.subscribe("shouts", shouts)
            assert await broker.request("node:other:http", b"hello", WAIT) == b"HELLO"
            assert await broker.request("node:other:http", b"shout", WAIT) == b"SHOUT"
            assert await shouts.next() == b"hello from other"
            assert await broker.request("node:other:http", b"quit", WAIT) == b"QUIT"
            await broker.close()

        run(body)
        assert other.wait(timeout=WAIT) == 0
    finally:
        if other.poll() is None:
            other.kill()
            other.wait()


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql://localhost/peloton", "must be Redis"),
        ("localhost:6379", "must be Redis"),
        ("redis://", "names no host"),
        ("redis://localhost:notaport/0", "bad broker URL"),
        ("redis://localhost:6379/zero", "not a number"),
        ("", "must be Redis"),
    ],
)
def test_a_bad_broker_url_is_a_clear_error(url: str, says: str) -> None:
    with pytest.raises(ValueError, match=says) as caught:
        b.connect(url)
    assert "redis://HOST:PORT/DB" in str(caught.value)


def test_the_broker_urls_that_work() -> None:
    assert isinstance(b.connect(None), b.LocalBroker)
    assert b.connect(None, node="n1").node == "n1"
    for url in ("redis://127.0.0.1:6379/0", "redis://localhost", "rediss://h:1/2"):
        assert isinstance(b.connect(url), b.RedisBroker)


def test_an_unreachable_redis_is_broker_down() -> None:
    async def body() -> None:
        broker = b.connect(f"redis://127.0.0.1:{free_port()}/0")
        with pytest.raises(b.BrokerDown, match="cannot reach the broker"):
            await broker.start()
        with pytest.raises(b.BrokerDown):
            await broker.publish("c", b"x")

    run(body)


def test_a_closed_broker_fails_its_waiting_requests(brokers: Callable[[], b.Broker]) -> None:
    async def body() -> None:
        owner, relay = brokers(), brokers()
        await owner.start()
        await relay.start()
        started = asyncio.Event()

        async def never(data: bytes) -> bytes:
            started.set()
            await asyncio.sleep(WAIT * 2)
            return data

        await owner.serve("c", never)
        waiting: asyncio.Task[Any] = asyncio.ensure_future(relay.request("c", b"x", WAIT * 2))
        await asyncio.wait_for(started.wait(), WAIT)
        await relay.close()
        with pytest.raises(b.BrokerDown):
            await asyncio.wait_for(waiting, WAIT)
        await owner.close()

    run(body)
