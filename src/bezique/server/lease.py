"""Leases: which node of several holds a table, so that only one accepts its moves.

Several ``bezique serve`` processes (nodes) share one PostgreSQL database; the proxy in front
of them sends every request of a table to one node, but "one" is the proxy's belief, not a
guarantee.  The guarantee is here:

* A node holds a table while it holds a session advisory lock on the table's code, on a
  connection of its own (the lease connection).  PostgreSQL gives such a lock to one session
  at a time, and takes it back the moment the session ends: a node that dies (even by SIGKILL,
  whose sockets the kernel closes) loses all its leases at once.
* Taking a lease also raises the table's epoch in ``bz_leases`` and writes the event to
  ``bz_lease_log``; every write for the table checks, in its own transaction, that the epoch
  is still the one this node took (``Store.fence``, fencing), so a node that lost its lease
  without knowing it yet cannot write.
* A node asked for a table another node holds asks that node (``NOTIFY``) to hand it over and
  waits a moment for the lock: the holder closes the table's connections (its clients connect
  again, and the proxy sends them to the asker) and lets go.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import make_url

from .protocol import ProtocolError

if TYPE_CHECKING:
    from .room import Lobby
    from .storage import Store
    from .tables import Table

log = logging.getLogger("bezique.server")

CHANNEL = "bezique_handoff"
"""The NOTIFY channel on which a node asks the holder of a table to hand it over."""
HEARTBEAT_SECONDS = 0.2
"""How often the lease connection is used (a trivial query): it shows the connection alive
and brings in the hand-over requests waiting for it."""
WAIT_SECONDS = 5.0
"""How long a node waits for a table another node holds to be handed over."""
POLL_SECONDS = 0.05
"""How often it tries the lock meanwhile."""


class Elsewhere(ProtocolError):
    """Another node holds the table and did not hand it over in time: try again shortly."""

    def __init__(self, code: str) -> None:
        super().__init__(
            "not-allowed", "this table is moving between servers: connect again in a moment"
        )
        self.table_code = code


def conninfo(url: str) -> dict[str, Any]:
    """psycopg's connection arguments for a SQLAlchemy ``postgresql://`` URL."""
    u = make_url(url)
    out: dict[str, Any] = {}
    if u.host:
        out["host"] = u.host
    if u.port:
        out["port"] = u.port
    if u.username:
        out["user"] = u.username
    if u.password is not None:
        out["password"] = u.password
    if u.database:
        out["dbname"] = u.database
    for k, v in u.query.items():  # host=/a/socket/folder and the like
        out[k] = v if isinstance(v, str) else v[-1]
    return out


class Leases:
    """One node's leases, over its lease connection.

    ``hand_over(code)`` is the node's way to let go of a table another node asks for (close
    its connections, then :meth:`drop` it); ``lost_all()`` is told that the lease connection
    failed, so every table must leave memory."""

    def __init__(
        self,
        url: str,
        node: str,
        hand_over: Callable[[str], Coroutine[Any, Any, None]],
        lost_all: Callable[[], None],
        *,
        wait_seconds: float = WAIT_SECONDS,
    ) -> None:
        self.params = conninfo(url)
        self.node = node
        self.hand_over = hand_over
        self.lost_all = lost_all
        self.wait_seconds = wait_seconds
        self.epochs: dict[str, int] = {}
        """The tables this node holds, with the epoch of each lease."""
        self._conn: Any = None
        self._lock = asyncio.Lock()
        """One lease operation at a time on the one connection (each is a few statements)."""
        self._releasing: dict[str, asyncio.Task[None]] = {}
        self._heartbeat: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # --- the connection --------------------------------------------------------------------------
    async def start(self) -> None:
        """Open the lease connection and begin listening for hand-over requests."""
        await self._connect()
        self._heartbeat = asyncio.get_running_loop().create_task(self._beat())

    async def _connect(self) -> None:
        import psycopg

        conn = await psycopg.AsyncConnection.connect(**self.params, autocommit=True)
        conn.add_notify_handler(self._notified)
        await conn.execute(f"LISTEN {CHANNEL}")
        self._conn = conn

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                async with self._lock:
                    await self._conn.execute("SELECT 1")
            except Exception:
                log.warning("node %s: the lease connection failed; every table let go", self.node)
                self.epochs.clear()
                self.lost_all()
                with contextlib.suppress(Exception):
                    await self._conn.close()
                while True:
                    try:
                        await self._connect()
                        break
                    except Exception:
                        await asyncio.sleep(1.0)

    def epoch(self, code: str) -> int | None:
        """The epoch of this node's lease on ``code``, None when it holds none (the store's
        fence; called from the database threads)."""
        return self.epochs.get(code)

    # --- taking and giving up ----------------------------------------------------------------------
    async def acquire(self, code: str) -> int:
        """Take the lease on ``code`` (a table that exists), asking its holder to hand it over
        if another node has it; its epoch.  :class:`Elsewhere` when it is not had in time."""
        held = self.epochs.get(code)
        if held is not None:
            return held
        pending = self._releasing.get(code)
        if pending is not None:  # this node is letting go of it: let that finish first
            await asyncio.shield(pending)
        deadline = time.monotonic() + self.wait_seconds
        asked = False
        while True:
            async with self._lock:
                held = self.epochs.get(code)
                if held is not None:  # taken meanwhile by another request of this node
                    return held
                cur = await self._conn.execute(
                    "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (code,)
                )
                row = await cur.fetchone()
                if row is not None and row[0]:
                    epoch = await self._record_acquired(code)
                    self.epochs[code] = epoch
                    return epoch
                if not asked:
                    await self._conn.execute(
                        "SELECT pg_notify(%s, %s)", (CHANNEL, f"{code} {self.node}")
                    )
                    asked = True
            if time.monotonic() >= deadline:
                raise Elsewhere(code)
            await asyncio.sleep(POLL_SECONDS)

    async def _record_acquired(self, code: str) -> int:
        """The new epoch, and the log entry saying who took it (one transaction; the caller
        holds the advisory lock and ``_lock``).  Updating the lease row waits for any write
        that read it under the old epoch to commit, so the log this node loads next has it."""
        now = time.time()
        async with self._conn.transaction():
            cur = await self._conn.execute(
                "INSERT INTO bz_leases (code, node, epoch, at) VALUES (%s, %s, 1, %s) "
                "ON CONFLICT (code) DO UPDATE SET epoch = bz_leases.epoch + 1, "
                "node = excluded.node, at = excluded.at RETURNING epoch",
                (code, self.node, now),
            )
            row = await cur.fetchone()
            epoch = int(row[0])
            await self._conn.execute(
                "INSERT INTO bz_lease_log (code, node, epoch, event, at) "
                "VALUES (%s, %s, %s, 'acquired', %s)",
                (code, self.node, epoch, now),
            )
        return epoch

    def drop(self, code: str) -> None:
        """Give up the lease on ``code`` (the table has left this node's memory): no write
        for it passes from now on; the lock is released in the background."""
        epoch = self.epochs.pop(code, None)
        if epoch is None:
            return
        with contextlib.suppress(RuntimeError):  # no running loop: the connection closes anyway
            task = asyncio.get_running_loop().create_task(self._release(code, epoch))
            self._releasing[code] = task
            task.add_done_callback(lambda t: self._released(code, t))

    def _released(self, code: str, task: asyncio.Task[None]) -> None:
        if self._releasing.get(code) is task:
            del self._releasing[code]

    async def _release(self, code: str, epoch: int) -> None:
        try:
            async with self._lock:
                await self._conn.execute(
                    "INSERT INTO bz_lease_log (code, node, epoch, event, at) "
                    "VALUES (%s, %s, %s, 'released', %s)",
                    (code, self.node, epoch, time.time()),
                )
                await self._conn.execute(
                    "SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (code,)
                )
        except Exception:  # the connection is gone, and the lock with it
            log.warning("node %s: could not release table %s cleanly", self.node, code)

    def _notified(self, note: Any) -> None:
        code, _, asker = str(note.payload).partition(" ")
        if asker == self.node or code not in self.epochs:
            return
        task = asyncio.get_running_loop().create_task(self.hand_over(code))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Let every lease go (closing the connection releases the locks)."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(BaseException):
                await self._heartbeat
        for task in list(self._releasing.values()):
            with contextlib.suppress(BaseException):
                await task
        if self._conn is not None:
            async with self._lock:
                for code, epoch in list(self.epochs.items()):
                    with contextlib.suppress(Exception):
                        await self._conn.execute(
                            "INSERT INTO bz_lease_log (code, node, epoch, event, at) "
                            "VALUES (%s, %s, %s, 'released', %s)",
                            (code, self.node, epoch, time.time()),
                        )
                self.epochs.clear()
                with contextlib.suppress(Exception):
                    await self._conn.close()


async def load_leased(lobby: Lobby, code: str, leases: Leases) -> Table | None:
    """``lobby.find``'s load on a node of several: the lease taken first (the old holder's last
    writes are then committed), the log read after; None when there is no such table.  A table
    made on this node is not kept in memory by it: it is loaded here, under its lease, by the
    node the proxy sends its players to."""
    if not await lobby.work.db(lobby.store.exists, code):
        return None  # no lease for a code that names nothing
    await leases.acquire(code)
    built = None
    try:
        row = await lobby.work.db(lobby.store.load, code)
        if row is not None:
            built = await lobby.built(row)
    except BaseException:
        leases.drop(code)
        raise
    if row is None or leases.epoch(code) is None:  # handed over meanwhile
        leases.drop(code)
        raise Elsewhere(code)
    table = lobby.tables.get(code)
    if table is None:
        table = lobby._add(row, built)
        if table.status != row.status:
            await lobby.work.db(lobby.store.set_status, code, table.status)
    return table


async def hand_over(lobby: Lobby, code: str) -> None:
    """Another node asks for this table: close its connections (their clients connect again,
    and the proxy sends them to that node) and let the lease go."""
    table = lobby.tables.get(code)
    if table is None:
        if lobby.leases is not None and code not in lobby._loading:
            lobby.leases.drop(code)
        return
    async with table.lock:
        lobby.forget(table)  # which drops the lease


def lose_all(lobby: Lobby) -> None:
    """The leases are gone (the lease connection failed): every table leaves memory."""
    for table in list(lobby.tables.values()):
        lobby.forget(table)


def attach(lobby: Lobby, store: Store, node: str) -> Leases:
    """Make ``lobby`` and ``store`` one node of several: tables loaded under leases, every
    write fenced.  The leases are to be started (and closed) in the event loop."""
    leases = Leases(store.url, node, partial(hand_over, lobby), partial(lose_all, lobby))
    lobby.leases = leases
    store.fence = leases.epoch
    return leases


__all__ = [
    "CHANNEL",
    "Elsewhere",
    "Leases",
    "attach",
    "conninfo",
    "hand_over",
    "load_leased",
    "lose_all",
]
