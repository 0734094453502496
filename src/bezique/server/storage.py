"""Where the tables live: SQLAlchemy 2 over an SQLite file by default, PostgreSQL (psycopg)
when ``BEZIQUE_DATABASE_URL`` names one.

A game is stored as its rules, its seed and an append-only log of actions: the engine replays
the log to rebuild the table, so nothing but the log has to be kept right.  Every write is
committed before the call returns, so an action the server has acknowledged survives the
server being killed.

Beside the log, each finished deal's outcome is kept (``bz_outcomes``): what the match needs of
it to go on (:class:`~bezique.core.match.PlayedDeal`), so that a table is rebuilt by replaying
its current deal only.  The outcomes are a cache of the log: one that is missing (or does not
fit) only means the log is replayed from the start.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url

NEXT_DEAL = "next-deal"
"""The log entry that starts the next deal of a match (seat -1)."""

metadata = MetaData()

tables_t = Table(
    "bz_tables",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("created", Float, nullable=False),
    Column("rules", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("config", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("host", Integer, nullable=False),
)

seats_t = Table(
    "bz_seats",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(80), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("level", String(32), nullable=False),
    Column("token_hash", String(64), nullable=True),
)

moves_t = Table(
    "bz_moves",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("deal", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("at", Float, nullable=False),
)

outcomes_t = Table(
    "bz_outcomes",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("outcome", Text, nullable=False),
)
"""Each finished deal's outcome (:meth:`~bezique.core.match.PlayedDeal.outcome`, as JSON)."""

leases_t = Table(
    "bz_leases",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("node", String(80), nullable=False),
    Column("epoch", BigInteger, nullable=False),
    Column("at", Float, nullable=False),
)
"""Who holds each table (several nodes on PostgreSQL, ``lease.py``): the holder and the lease's
epoch, one more at each new holder; a write carries the epoch its node holds and is refused if
it is no longer the table's."""

lease_log_t = Table(
    "bz_lease_log",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    Column("code", String(16), nullable=False, index=True),
    Column("node", String(80), nullable=False),
    Column("epoch", BigInteger, nullable=False),
    Column("event", String(16), nullable=False),
    Column("at", Float, nullable=False),
)
"""Every lease taken ('acquired') and given up ('released'), in order: what shows that no table
ever had two holders."""

SCHEMA_LOCK = 0x62657A69
"""The advisory lock nodes starting together take around making the schema (PostgreSQL's
``CREATE TABLE IF NOT EXISTS`` is not safe against a second one at the same moment)."""


def create_schema(engine: Engine, tables: MetaData) -> None:
    """Make ``tables`` where they are missing; on PostgreSQL under :data:`SCHEMA_LOCK`, so
    nodes starting together do not make one table twice."""
    if engine.dialect.name == "postgresql":
        with engine.begin() as c:
            c.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": SCHEMA_LOCK})
            tables.create_all(c)
    else:
        tables.create_all(engine)


class LeaseLost(Exception):
    """A write for a table this node does not (or no longer) hold: refused, nothing written."""

    def __init__(self, code: str) -> None:
        super().__init__(f"table {code} is not held by this node")
        self.code = code


Fence = Callable[[str], int | None]
"""The epoch of the lease this node holds on a table, or None when it holds none."""


@dataclass
class SeatRow:
    seat: int
    name: str
    kind: str
    """'human' (claimed), 'open' (waiting for a friend) or 'bot'."""
    level: str
    token_hash: str | None


@dataclass
class MoveRow:
    n: int
    deal: int
    seat: int
    action: str


@dataclass
class TableRow:
    code: str
    created: float
    rules: str
    seed: int
    config: dict[str, Any]
    status: str
    host: int
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[MoveRow] = field(default_factory=list)
    outcomes: dict[int, dict[str, Any]] = field(default_factory=dict)
    """The finished deals' outcomes kept, by deal index (those that could be read)."""


def default_url(data_dir: str | os.PathLike[str]) -> str:
    """The SQLite file in the data folder (made if missing)."""
    os.makedirs(data_dir, exist_ok=True)
    return "sqlite:///" + os.path.join(os.path.abspath(data_dir), "bezique.db")


def engine_url(url: str) -> str:
    """``url`` with the driver this package installs: a bare ``postgresql://`` or
    ``postgres://`` URL (as hosting services hand them out) means psycopg 3."""
    parsed = make_url(url)
    if parsed.drivername in ("postgres", "postgresql"):
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return url


class Store:
    """The tables, seats and action logs in one database."""

    def __init__(self, url: str) -> None:
        url = engine_url(url)
        self.url = url
        self.engine: Engine
        if url.startswith("sqlite"):
            self.engine = create_engine(url, connect_args={"check_same_thread": False})

            @event.listens_for(self.engine, "connect")
            def _pragmas(conn: Any, _record: Any) -> None:
                cur = conn.cursor()
                # WAL with synchronous=NORMAL: a committed write is in the file before the call
                # returns, so it survives the process being killed
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA busy_timeout=5000")
                cur.close()

        else:
            self.engine = create_engine(url, pool_pre_ping=True)
        self.fence: Fence | None = None
        """Set on a node of several (``lease.py``): every write for a table checks, in its own
        transaction, that this node still holds the table's lease."""
        create_schema(self.engine, metadata)

    @property
    def shared(self) -> bool:
        """Can several server processes share this database (PostgreSQL, not SQLite)?"""
        return self.engine.dialect.name == "postgresql"

    def _fenced(self, c: Connection, codes: Any) -> None:
        """Refuse the transaction unless this node holds every table in ``codes`` under the
        epoch it believes: the lease row is read FOR SHARE, so a new holder's taking it (which
        updates the row) waits for this write to commit, and a write after that sees the new
        epoch and fails."""
        fence = self.fence
        if fence is None:
            return
        for code in sorted(set(codes)):
            epoch = fence(code)
            if epoch is None:
                raise LeaseLost(code)
            held = c.execute(
                select(leases_t.c.epoch).where(leases_t.c.code == code).with_for_update(read=True)
            ).scalar()
            if held != epoch:
                raise LeaseLost(code)

    def close(self) -> None:
        self.engine.dispose()

    # --- writing ---------------------------------------------------------------------------------
    def create_table(
        self,
        code: str,
        rules: str,
        seed: int,
        config: dict[str, Any],
        host: int,
        seats: list[SeatRow],
        status: str,
    ) -> None:
        with self.engine.begin() as c:
            c.execute(
                insert(tables_t).values(
                    code=code,
                    created=time.time(),
                    rules=rules,
                    seed=seed,
                    config=json.dumps(config),
                    status=status,
                    host=host,
                )
            )
            c.execute(
                insert(seats_t),
                [
                    {
                        "code": code,
                        "seat": s.seat,
                        "name": s.name,
                        "kind": s.kind,
                        "level": s.level,
                        "token_hash": s.token_hash,
                    }
                    for s in seats
                ],
            )

    def append(
        self, code: str, n: int, deal: int, seat: int, action: str, status: str | None = None
    ) -> None:
        """Add one entry to a table's log and commit it, with the table's new ``status`` (the
        match's last action and "over" are one transaction: a crash cannot split them)."""
        self.append_many([(code, n, deal, seat, action)], {code: status} if status else None)

    def append_many(
        self, rows: list[tuple[str, int, int, int, str]], statuses: dict[str, str] | None = None
    ) -> None:
        """Add log entries ``(code, n, deal, seat, action)`` and set tables' new statuses, in
        one transaction."""
        now = time.time()
        with self.engine.begin() as c:
            self._fenced(c, [row[0] for row in rows] + list(statuses or ()))
            c.execute(
                insert(moves_t),
                [
                    {"code": code, "n": n, "deal": deal, "seat": seat, "action": action, "at": now}
                    for code, n, deal, seat, action in rows
                ],
            )
            for code, status in (statuses or {}).items():
                c.execute(update(tables_t).where(tables_t.c.code == code).values(status=status))

    def save_outcomes(self, code: str, outcomes: dict[int, dict[str, Any]]) -> None:
        """Keep finished deals' outcomes (deal index -> data); one kept already stays as it is
        (an outcome follows from the log: a second writer has the same)."""
        with self.engine.begin() as c:
            self._fenced(c, [code])
            have = set(
                c.execute(
                    select(outcomes_t.c.deal).where(
                        outcomes_t.c.code == code, outcomes_t.c.deal.in_(list(outcomes))
                    )
                ).scalars()
            )
            rows = [
                {"code": code, "deal": deal, "outcome": json.dumps(data)}
                for deal, data in sorted(outcomes.items())
                if deal not in have
            ]
            if rows:
                c.execute(insert(outcomes_t), rows)

    def update_seat(self, code: str, seat: SeatRow) -> None:
        with self.engine.begin() as c:
            self._fenced(c, [code])
            c.execute(
                update(seats_t)
                .where(seats_t.c.code == code, seats_t.c.seat == seat.seat)
                .values(
                    name=seat.name, kind=seat.kind, level=seat.level, token_hash=seat.token_hash
                )
            )

    def set_status(self, code: str, status: str) -> None:
        with self.engine.begin() as c:
            self._fenced(c, [code])
            c.execute(update(tables_t).where(tables_t.c.code == code).values(status=status))

    # --- reading ---------------------------------------------------------------------------------
    def exists(self, code: str) -> bool:
        """Is there a table ``code``?"""
        with self.engine.connect() as c:
            return (
                c.execute(select(tables_t.c.code).where(tables_t.c.code == code)).first()
                is not None
            )

    def load(self, code: str) -> TableRow | None:
        """A table with its seats and whole log, or None."""
        with self.engine.connect() as c:
            row = c.execute(select(tables_t).where(tables_t.c.code == code)).first()
            if row is None:
                return None
            out = TableRow(
                code=row.code,
                created=row.created,
                rules=row.rules,
                seed=int(row.seed),
                config=json.loads(row.config),
                status=row.status,
                host=row.host,
            )
            for s in c.execute(
                select(seats_t).where(seats_t.c.code == code).order_by(seats_t.c.seat)
            ):
                out.seats.append(SeatRow(s.seat, s.name, s.kind, s.level, s.token_hash))
            for m in c.execute(select(moves_t).where(moves_t.c.code == code).order_by(moves_t.c.n)):
                out.moves.append(MoveRow(m.n, m.deal, m.seat, m.action))
            for o in c.execute(select(outcomes_t).where(outcomes_t.c.code == code)):
                with contextlib.suppress(ValueError):  # unreadable: the log is replayed instead
                    data = json.loads(o.outcome)
                    if isinstance(data, dict):
                        out.outcomes[o.deal] = data
            return out


Entry = tuple[str, int, int, int, str, str | None]
"""A log entry to write: code, n, deal, seat, action, and the table's new status or None."""


class Writer:
    """Commits log entries for every table in shared transactions (group commit): an entry
    waits for the batch it joins to be committed, in a worker thread so the server goes on
    meanwhile.  ``await writer.append(...)`` returns once the entry is in the database.  The
    threads are ``executor``'s (the server gives the database a pool of its own), else
    asyncio's default pool."""

    def __init__(self, store: Store, executor: Executor | None = None) -> None:
        self.store = store
        self.executor = executor
        self._pending: list[tuple[Entry, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None

    async def append(
        self, code: str, n: int, deal: int, seat: int, action: str, status: str | None = None
    ) -> None:
        """Commit the entry, and with it the table's new ``status`` if one is given."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append(((code, n, deal, seat, action, status), done))
        if self._task is None:
            self._task = loop.create_task(self._run())
        await done

    async def _call(self, fn: Callable[..., None], *args: Any) -> None:
        await asyncio.get_running_loop().run_in_executor(self.executor, partial(fn, *args))

    async def _run(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                rows = [row[:5] for row, _ in batch]
                statuses = {row[0]: row[5] for row, _ in batch if row[5] is not None}
                try:
                    await self._call(self.store.append_many, rows, statuses)
                except Exception as e:
                    if len(batch) == 1:
                        _settle(batch[0][1], e)
                        continue
                    # one bad entry fails the whole transaction: the others, one at a time
                    for row, done in batch:
                        try:
                            await self._call(self.store.append, *row)
                        except Exception as each:
                            _settle(done, each)
                        else:
                            _settle(done, None)
                else:
                    for _, done in batch:
                        _settle(done, None)
        finally:
            self._task = None


def _settle(done: asyncio.Future[None], error: Exception | None) -> None:
    if done.done():  # the caller gave up waiting
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


__all__ = [
    "NEXT_DEAL",
    "Fence",
    "LeaseLost",
    "MoveRow",
    "SeatRow",
    "Store",
    "TableRow",
    "Writer",
    "default_url",
    "engine_url",
]
