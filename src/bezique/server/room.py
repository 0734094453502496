"""The room: every table this process holds, found by code, loaded from the store or made.

A :class:`Lobby` keeps the tables in memory, loads one from the store's log off the event loop
when it is asked for, makes new ones, and lets idle ones go (``tables.py`` holds a table).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from sqlalchemy.exc import IntegrityError

from ..core.match import Match
from ..core.rules import Rules
from . import advice
from .connection import BURST, RATE
from .lease import Leases, load_leased
from .protocol import (
    clean_name,
)
from .storage import SeatRow, Store, TableRow, Writer
from .tables import (
    IDLE_SECONDS,
    MAX_RULE_SETS,
    MAX_TARGET,
    SEED_BITS,
    Table,
    default_level,
    hash_token,
    levels,
    new_code,
    replay_args,
    replay_log,
)
from .workers import Workers

log = logging.getLogger("bezique.server")


class Lobby:
    """Every table in memory, loaded from the store on first use."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.4,
        takeover_seconds: float = 30.0,
        rate: float = RATE,
        burst: float = BURST,
        hint_level: str | None = None,
        hint_seconds: float | None = 1.0,
        review_level: str | None = None,
    ) -> None:
        self.store = store
        self.work = Workers()
        """The database's threads, and the computer's."""
        self.writer = Writer(store, self.work.db_pool)
        """Commits the actions of every table, in shared transactions."""
        self.hint_level = hint_level or advice.best_level("expert", "simple")
        """The bot level that gives hints, thinking at most ``hint_seconds``."""
        self.hint_seconds = hint_seconds
        self.review_level = review_level or advice.best_level("medium", "simple")
        """The bot level that reviews a finished deal (quick: it looks at every move)."""
        self.rate, self.burst = rate, burst
        self.bot_delay = bot_delay
        self.takeover_seconds = takeover_seconds
        self.idle_seconds = IDLE_SECONDS
        """How long a table nobody is connected to stays in memory."""
        self.tables: dict[str, Table] = {}
        self._rules: dict[str, Rules] = {}
        """Rule sets by the digest of their text, shared by the tables that play them."""
        self._loading: dict[str, asyncio.Task[Table | None]] = {}
        """The loads from the store under way, by code (one load however many ask)."""
        self.on_over: Callable[[Table], None] | None = None
        """Told of each match ended here or loaded ended (``online.py`` rates rated ones)."""
        self.leases: Leases | None = None
        """On a node of several: tables are loaded under their leases (``lease.py``)."""

    async def find(self, code: str) -> Table | None:
        """The table ``code`` names, from memory or loaded from the store off the event loop
        (once, however many ask); None when there is no such table."""
        table = self.tables.get(code)
        if table is not None or not _plain_code(code):
            return table
        task = self._loading.get(code)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._load(code))
            self._loading[code] = task
            task.add_done_callback(partial(self._loaded, code))
        # one caller giving up (a closed connection) does not stop the load the others wait for
        return await asyncio.shield(task)

    def rules_for(self, text: str, rules: Rules | None = None) -> Rules:
        """The one shared rule set for this text (the most recent ``MAX_RULE_SETS`` kept, by
        the digest of the text: the cache holds no client's text); ``rules``: that text read
        already."""
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        rules = self._rules.pop(key, None) or rules or Rules.from_string(text)
        self._rules[key] = rules
        while len(self._rules) > MAX_RULE_SETS:
            del self._rules[next(iter(self._rules))]
        return rules

    async def _prepared(self, text: str) -> Rules:
        """``rules_for(text)``, read and its engine tables worked out in a worker thread, not
        in the event loop."""

        def read() -> Rules:
            rules = Rules.from_string(text)
            _ = rules.num_actions
            return rules

        return self.rules_for(text, await asyncio.to_thread(read))

    async def built(self, row: TableRow) -> tuple[Match, int] | None:
        """The match a stored table's log makes and its count of moves (:func:`replay_log`),
        its rules read and its log replayed in worker threads, not in the event loop; None for
        a table still waiting for its players."""
        rules = await self._prepared(row.rules)
        if row.status == "waiting":
            return None
        return await asyncio.to_thread(replay_log, *replay_args(rules, row))

    async def _load(self, code: str) -> Table | None:
        if self.leases is not None:
            return await load_leased(self, code, self.leases)
        row = await self.work.db(self.store.load, code)
        built = None if row is None else await self.built(row)
        table = self.tables.get(code)  # made meanwhile (by create, or get)
        if table is None and row is not None:
            table = self._add(row, built)
            if table.status != row.status:  # a match whose end was stored without its status
                await self.work.db(self.store.set_status, code, table.status)
        return table

    def _loaded(self, code: str, task: asyncio.Task[Table | None]) -> None:
        if self._loading.get(code) is task:
            del self._loading[code]
        if not task.cancelled():
            task.exception()  # whoever waited has it; nobody waiting is no error to report

    def get(self, code: str) -> Table | None:
        """As :meth:`find`, but blocking: for callers outside the event loop (tests, tools)."""
        table = self.tables.get(code)
        if table is None:
            if not _plain_code(code):
                return None
            row = self.store.load(code)
            if row is None:
                return None
            table = self._add(row)
        return table

    def _add(self, row: TableRow, built: tuple[Match, int] | None = None) -> Table:
        """A table in memory from its stored row (its match ``built`` from the log already, or
        not); its clocks and the computer start."""
        table = self.tables[row.code] = Table(self, row, built)
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to time
            table.start_timers()
            table.kick()
        table.idle_later()  # made or looked at, never connected to: still freed
        if table.status == "over" and self.on_over is not None:  # maybe ended by a dead node
            self.on_over(table)
        return table

    def forget(self, table: Table) -> None:
        if self.tables.get(table.code) is table:
            table.close()
            del self.tables[table.code]
            if self.leases is not None:
                self.leases.drop(table.code)

    async def create(
        self,
        rules: Rules,
        seats: list[dict[str, Any]],
        name: str,
        *,
        hints: bool,
        seed: int | None = None,
        handicap: list[int] | None = None,
    ) -> tuple[Table, int, str]:
        """A new table; ``seats`` says per seat 'me', 'open' (a friend) or 'bot' (with a
        level); ``handicap``: the score each side starts its games on (a next match, cent
        points).  Returns the table, the creator's seat and the creator's token."""
        rules = await self._prepared(str(rules))
        if rules.target > MAX_TARGET:
            raise ValueError(f"a table plays to a target of at most {MAX_TARGET}")
        n = rules.players
        if len(seats) != n:
            raise ValueError(f"these rules seat {n} players: give {n} seats")
        kinds = [s.get("kind") for s in seats]
        if kinds.count("me") != 1 or any(k not in ("me", "open", "bot") for k in kinds):
            raise ValueError("seats: exactly one 'me', the others 'open' or 'bot'")
        token = secrets.token_urlsafe(24)
        host = kinds.index("me")
        rows = []
        for i, s in enumerate(seats):
            if s["kind"] == "me":
                rows.append(SeatRow(i, clean_name(name, "Player"), "human", "", hash_token(token)))
            elif s["kind"] == "open":
                rows.append(SeatRow(i, f"Seat {i + 1}", "open", "", None))
            else:
                level = str(s.get("level") or default_level())
                if level not in levels():
                    raise ValueError(f"unknown level {level[:32]!r}; levels: {', '.join(levels())}")
                rows.append(SeatRow(i, f"Computer ({level})", "bot", level, None))
        people = sum(1 for r in rows if r.kind != "bot")
        config: dict[str, Any] = {
            "hints": bool(hints),
            "takeover": self.takeover_seconds if people > 1 else None,
            "fill_level": default_level(),
            "handicap": handicap if handicap and any(handicap) else None,
        }
        status = "waiting" if any(r.kind == "open" for r in rows) else "playing"
        seed = secrets.randbits(SEED_BITS) if seed is None else seed
        if seed >= 1 << 63:  # the column holds 63 bits: the whole seed goes in the config
            config["seed"] = seed
        column = seed & ((1 << 63) - 1)
        code = await self.work.db(self._insert, str(rules), column, config, host, rows, status)
        table = self.tables.get(code)  # found (by find or get) as soon as it was stored
        if table is None:
            row = TableRow(code, time.time(), str(rules), seed, config, status, host, rows)
            table = self._add(row) if self.leases is None else Table(self, row)  # see lease.py
        return table, host, token

    def _insert(
        self,
        rules: str,
        seed: int,
        config: dict[str, Any],
        host: int,
        rows: list[SeatRow],
        status: str,
    ) -> str:
        """Store a new table under a new code (in a worker thread); the code."""
        for attempt in range(8):
            code = new_code()
            try:
                self.store.create_table(code, rules, seed, config, host, rows, status)
            except IntegrityError:  # the code is taken (one chance in 10^11), or worse
                if attempt == 7:
                    raise
                continue
            return code
        raise AssertionError("unreachable")

    def close(self) -> None:
        for t in list(self.tables.values()):
            t.close()
        self.tables.clear()
        self.work.close()


def _plain_code(code: str) -> bool:
    """Codes are short and plain: anything else (NUL, which PostgreSQL refuses, among them) is
    no table, without asking the database."""
    return isinstance(code, str) and code.isascii() and code.isalnum() and 1 <= len(code) <= 16


__all__ = ["Lobby"]
