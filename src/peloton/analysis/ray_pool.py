"""Playing a run's games on Ray (``peloton simulate --ray``), beside the process pool
of :mod:`.pool`: a local Ray started for the run, or a cluster's workers.

The games are cut into chunks of consecutive indices, each chunk one Ray task; the
chunks come back in whatever order the workers finish them and :func:`in_order`
yields their games by index, so every figure is the same as with ``--jobs N`` for the
same seed. Ray itself is imported only when a run asks for it: it is the optional
``ray`` extra (``pip install 'peloton[ray]'``).
"""

from __future__ import annotations

import logging
import re
import socket
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar

from .. import __version__
from ..core.errors import ConfigError

R = TypeVar("R")

#: How to get Ray, said when it is missing.
INSTALL = "pip install 'peloton[ray]'"
#: Seconds to wait for a cluster's address to answer before saying it does not (Ray's
#: own wait for an address where nothing listens is minutes long).
CONNECT_TIMEOUT = 5.0
#: The most games one task plays: small enough for the progress bar to move and for
#: the games to spread over the workers, large enough that a quick game does not pay
#: a task's cost alone.
MAX_CHUNK = 16
#: Chunks per worker slot when a run is long enough (see :func:`chunks`).
CHUNKS_PER_SLOT = 8
#: ``HOST:PORT`` or ``ray://HOST:PORT`` (Ray Client), the host a name, IPv4 or [IPv6].
_ADDRESS = re.compile(
    r"^(?P<client>ray://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(?P<port>\d+)$"
)


@dataclass(frozen=True)
class RayCluster:
    """Where ``--ray`` plays: a local Ray started for the run (``address`` None), or
    the running cluster at ``address`` (``HOST:PORT``, ``ray://HOST:PORT`` or
    ``auto``, the cluster started on this machine by ``ray start``). ``jobs`` is the
    most games played at once (None: one per CPU of the cluster); a local Ray gets
    that many CPUs."""

    address: str | None = None
    jobs: int | None = None

    def check(self) -> None:
        """Raise :class:`ConfigError` for a malformed address or a bad ``jobs``."""
        if self.jobs is not None and self.jobs < 1:
            raise ConfigError(f"--jobs must be at least 1, not {self.jobs}")
        if self.address is not None and self.address != "auto" and endpoint(self.address) is None:
            raise ConfigError(
                f"--ray-address {self.address!r}: give HOST:PORT (the head node's GCS port, "
                "6379 by default), ray://HOST:PORT (Ray Client) or auto (the cluster "
                "started on this machine by `ray start`)"
            )


def endpoint(address: str) -> tuple[str, int] | None:
    """The host and port of a ``HOST:PORT`` or ``ray://HOST:PORT`` address, or None
    when it is not one."""
    found = _ADDRESS.match(address.strip())
    if found is None:
        return None
    port = int(found["port"])
    if not 0 < port < 65536:
        return None
    return found["host"].strip("[]"), port


def import_ray() -> ModuleType:
    """The ``ray`` module, or :class:`ConfigError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ConfigError(
            f"--ray needs Ray, which is not installed: {INSTALL} (or pip install ray)"
        ) from None
    return ray


def probe(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Raise :class:`ConfigError` if nothing answers at ``address``'s host and port
    (before Ray, which would retry for minutes)."""
    where = endpoint(address)
    if where is None:  # "auto": Ray finds the local cluster itself, and fails fast
        return
    try:
        with socket.create_connection(where, timeout=timeout):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise ConfigError(
            f"--ray-address {address}: no Ray cluster answers there ({reason}); start one "
            "with `ray start --head` and give the address it prints"
        ) from None


def chunks(count: int, slots: int) -> list[range]:
    """Games ``0 .. count-1`` cut into consecutive chunks: at least
    :data:`CHUNKS_PER_SLOT` per worker slot where there are enough games, never more
    than :data:`MAX_CHUNK` games each."""
    size = max(1, min(MAX_CHUNK, count // (slots * CHUNKS_PER_SLOT)))
    return [range(start, min(start + size, count)) for start in range(0, count, size)]


def in_order(finished: Iterable[tuple[int, list[R]]]) -> Iterator[R]:
    """The results of chunks (their first index, their results) that finish in any
    order, yielded by index as soon as every earlier one is in."""
    waiting: dict[int, list[R]] = {}
    following = 0
    for start, results in finished:
        waiting[start] = results
        while following in waiting:
            chunk = waiting.pop(following)
            yield from chunk
            following += len(chunk)
    if waiting:
        raise RuntimeError(f"games from {following} on never came back")


def play_chunk(worker: Callable[[int], R], games: range, version: str) -> list[R]:
    """Play ``games`` in this Ray worker (module-level, so that a worker imports it by
    name): the outcomes in order. ``version`` is the command's Peloton: a node with
    another one could play other games, so it refuses."""
    if version != __version__:
        raise ConfigError(
            f"a Ray worker runs Peloton {__version__}, this command {version}: install "
            "the same version on every node of the cluster"
        )
    return [worker(index) for index in games]


def ray_map(worker: Callable[[int], R], count: int, cluster: RayCluster) -> Iterator[R]:
    """``worker(i)`` for ``i`` in ``0 .. count-1`` on Ray, yielding in index order.

    Connects to ``cluster`` (or starts a local Ray), unless this process already has
    Ray running, which is then used as it is (and left running); a Ray started here
    is shut down at the end."""
    cluster.check()
    ray = import_ray()
    if cluster.address is not None:
        probe(cluster.address)
    started = connect(ray, cluster)
    try:
        slots = cluster.jobs or max(1, int(ray.cluster_resources().get("CPU", 1)))
        yield from in_order(_finished(ray, worker, chunks(count, slots), 2 * slots))
    finally:
        if started:
            ray.shutdown()


def connect(ray: Any, cluster: RayCluster) -> bool:
    """Start or join Ray for ``cluster``; True if this call started it (so must stop it)."""
    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    try:
        if cluster.address is None:
            # "local": a new Ray of this machine, whatever RAY_ADDRESS says.
            ray.init(address="local", num_cpus=cluster.jobs, include_dashboard=False, **quiet)
        else:
            ray.init(address=cluster.address, **quiet)
    except ConnectionError as exc:
        if cluster.address is None:
            raise ConfigError(f"--ray: cannot start a local Ray: {exc}") from None
        raise ConfigError(
            f"--ray-address {cluster.address}: cannot join the Ray cluster: {exc}"
        ) from None
    return True


def _finished(
    ray: Any, worker: Callable[[int], R], work: list[range], window: int
) -> Iterator[tuple[int, list[R]]]:
    """Run the chunks as Ray tasks, at most ``window`` at once; yield (first index,
    results) as each finishes."""
    task = ray.remote(num_cpus=1)(play_chunk)
    shared = ray.put(worker)  # sent to the cluster once, not with every chunk
    pending: dict[Any, int] = {}
    queued = iter(work)

    def submit() -> None:
        games = next(queued, None)
        if games is not None:
            pending[task.remote(shared, games, __version__)] = games.start

    for _ in range(window):
        submit()
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                start = pending.pop(ref)
                results = _get(ray, ref)
                submit()
                yield start, results
    finally:
        for ref in pending:  # an error or an interruption: no game goes on for nothing
            ray.cancel(ref)


def _get(ray: Any, ref: Any) -> Any:
    """A task's result; a game's own error raised as itself, not wrapped by Ray."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        if isinstance(exc.cause, Exception):
            raise exc.cause from None
        raise
