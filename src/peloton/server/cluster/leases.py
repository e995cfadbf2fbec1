"""Leases: one owner node per table in a cluster (issue 19).

Every node of a cluster shares one database. A table is run by the one node that
holds its lease: a row of ``leases`` (key, owner, expires, epoch). The holder renews
its leases every second or so; a lease not renewed for ``ttl`` seconds has expired,
and any node may take it (that is failover: the owner died or stalled). Each change
of holder increments the epoch, so that an old owner's late write can be told from
the new owner's.

Taking a lease is one statement (an upsert whose update applies only when the row is
free, expired or already the taker's): on PostgreSQL two nodes racing for the same
key cannot both win, because the row is locked by the first and the second's
condition is checked again on what the first wrote.

Time is the database's clock on PostgreSQL (``now()``, one clock for every node, so
that the nodes' own clocks do not matter); SQLite (one machine) uses this process's
clock. Tests inject a clock instead. The methods block: call them in a thread.

``nodes`` says which nodes are alive (``beat`` every second or so), and where each
one serves.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Engine, case, func, literal, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ..storage.store import leases, nodes

Clock = Callable[[], datetime]

#: Seconds a lease (and a node's beat) lasts without renewal.
LEASE_TTL = 5.0


class Leases:
    """The leases of one node (``node``) in the database behind ``engine``."""

    def __init__(
        self, engine: Engine, node: str, ttl: float = LEASE_TTL, clock: Clock | None = None
    ) -> None:
        if not ttl > 0:
            raise ValueError(f"a lease must last more than 0 seconds, not {ttl}")
        self.engine = engine
        self.node = node
        self.ttl = timedelta(seconds=ttl)
        self.clock = clock
        self._postgres = engine.dialect.name == "postgresql"
        #: The keys this node believes it holds (what :meth:`renew` renews).
        self.held: set[str] = set()

    # ------------------------------------------------------------ time

    def _now(self) -> ColumnElement[Any]:
        """Now: the injected clock, else the database's (PostgreSQL), else this
        process's (SQLite)."""
        if self.clock is not None:
            return literal(self.clock(), leases.c.expires.type)
        if self._postgres:
            return func.now()
        return literal(datetime.now(UTC), leases.c.expires.type)

    def _until(self, now: ColumnElement[Any]) -> ColumnElement[Any]:
        """When a lease taken or renewed ``now`` expires."""
        if self.clock is None and self._postgres:
            return now + literal(self.ttl)
        return literal(self._python_now() + self.ttl, leases.c.expires.type)

    def _python_now(self) -> datetime:
        return self.clock() if self.clock is not None else datetime.now(UTC)

    # ------------------------------------------------------------ leases

    def acquire(self, key: str) -> int | None:
        """Take ``key``'s lease if it is free, expired or already this node's; this
        node's epoch for it then, else ``None`` (another node holds it). A live lease
        of this node is renewed and keeps its epoch; any other take starts a new
        epoch."""
        now = self._now()
        until = self._until(now)
        dialect: Any = postgresql if self._postgres else sqlite
        stmt = dialect.insert(leases).values(key=key, owner=self.node, expires=until, epoch=1)
        live_own = (leases.c.owner == self.node) & (leases.c.expires > now)
        stmt = stmt.on_conflict_do_update(
            index_elements=[leases.c.key],
            set_={
                "owner": stmt.excluded.owner,
                "expires": stmt.excluded.expires,
                "epoch": case((live_own, leases.c.epoch), else_=leases.c.epoch + 1),
            },
            where=(leases.c.owner == self.node) | (leases.c.expires <= now),
        ).returning(leases.c.epoch)
        with self.engine.begin() as conn:
            epoch = conn.execute(stmt).scalar_one_or_none()
        if epoch is None:
            self.held.discard(key)
            return None
        self.held.add(key)
        return int(epoch)

    def renew(self) -> list[str]:
        """Renew every lease this node holds; the keys it lost (expired before this
        renewal, whether or not another node took them since), sorted. A lost key
        is no longer this node's: it stops running that table, and may try
        :meth:`acquire` again (with a new epoch)."""
        if not self.held:
            return []
        now = self._now()
        stmt = (
            update(leases)
            .where(leases.c.owner == self.node, leases.c.expires > now)
            .values(expires=self._until(now))
            .returning(leases.c.key)
        )
        with self.engine.begin() as conn:
            renewed = set(conn.execute(stmt).scalars())
        lost = sorted(self.held - renewed)
        self.held &= renewed
        return lost

    def release(self, key: str) -> None:
        """Give ``key``'s lease up (if this node holds it): any node may take it at
        once. The row stays, so that the next holder's epoch is still a new one."""
        self.held.discard(key)
        now = self._now()
        stmt = (
            update(leases)
            .where(leases.c.key == key, leases.c.owner == self.node, leases.c.expires > now)
            .values(expires=now)
        )
        with self.engine.begin() as conn:
            conn.execute(stmt)

    def owner(self, key: str) -> str | None:
        """The node holding ``key``'s lease now; ``None`` if it is free or expired."""
        return self.owners([key]).get(key)

    def owners(self, keys: list[str]) -> dict[str, str]:
        """The live owner of each of ``keys`` that has one (free and expired keys are
        left out)."""
        if not keys:
            return {}
        stmt = select(leases.c.key, leases.c.owner).where(
            leases.c.key.in_(keys), leases.c.expires > self._now()
        )
        with self.engine.connect() as conn:
            return {row.key: row.owner for row in conn.execute(stmt)}

    def epoch(self, key: str) -> int | None:
        """``key``'s epoch as stored (whoever holds it, live or not), ``None`` if no
        node ever took it."""
        with self.engine.connect() as conn:
            value = conn.execute(select(leases.c.epoch).where(leases.c.key == key)).scalar()
        return None if value is None else int(value)

    # ------------------------------------------------------------ nodes

    def beat(self, address: str) -> None:
        """This node is alive and serves on ``address`` (for the next ``ttl`` seconds)."""
        now = self._now()
        until = self._until(now)
        dialect: Any = postgresql if self._postgres else sqlite
        stmt = dialect.insert(nodes).values(node=self.node, address=address, expires=until)
        stmt = stmt.on_conflict_do_update(
            index_elements=[nodes.c.node],
            set_={"address": stmt.excluded.address, "expires": stmt.excluded.expires},
        )
        with self.engine.begin() as conn:
            conn.execute(stmt)

    def live_nodes(self) -> list[str]:
        """The nodes whose last beat has not expired, sorted."""
        return sorted(self.addresses())

    def addresses(self) -> dict[str, str]:
        """Each live node's address."""
        stmt = select(nodes.c.node, nodes.c.address).where(nodes.c.expires > self._now())
        with self.engine.connect() as conn:
            return {row.node: row.address for row in conn.execute(stmt)}
