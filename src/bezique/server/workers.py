"""Where the server's blocking work runs, off the event loop: database calls on threads of their
own, and the computer's thinking (its moves, hints, reviews) on a small pool of its own.

Both once shared asyncio's default pool, so eight connections asking for hints (a second of
search each) took every thread, and every table's commits queued behind them: acknowledgements
went from milliseconds to seconds.  Apart, thinking can only delay thinking; and since search is
CPU work that holds Python's lock, the thinking pool is kept as small as the machine's cores, so
the event loop and the commits always get their turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from .protocol import ProtocolError

T = TypeVar("T")

DB_THREADS = 4
"""Threads for database calls (commits are grouped: one transaction carries every action that
arrived meanwhile, so a few threads go a long way)."""


def default_thinkers() -> int:
    """Threads for the computer's thinking: the cores, at least one and at most four."""
    return max(1, min(4, os.cpu_count() or 1))


class Workers:
    """The two pools: ``await workers.db(fn, *args)`` and ``await workers.think(fn, *args)``
    run ``fn(*args)`` in a worker thread and return its result."""

    def __init__(self, thinkers: int | None = None, db_threads: int = DB_THREADS) -> None:
        self.thinkers = thinkers or default_thinkers()
        self._db = ThreadPoolExecutor(db_threads, thread_name_prefix="bezique-db")
        self._think = ThreadPoolExecutor(self.thinkers, thread_name_prefix="bezique-think")

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db, partial(fn, *args))

    async def think(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._think, partial(fn, *args))

    @property
    def db_pool(self) -> ThreadPoolExecutor:
        return self._db

    def close(self) -> None:
        """Stop taking work; work not yet started is dropped."""
        self._db.shutdown(wait=False, cancel_futures=True)
        self._think.shutdown(wait=False, cancel_futures=True)


class Slots:
    """Places for work asked by clients (a table's hints and reviews): one at a time for a key
    (a seat), ``most`` at once in all; a request past either is refused at once (``rate``), so
    asking again and again costs nothing."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._held: set[Hashable] = set()

    def __bool__(self) -> bool:
        return bool(self._held)

    @contextlib.contextmanager
    def hold(self, key: Hashable) -> Iterator[None]:
        if key in self._held:
            raise ProtocolError("rate", "your last hint or review is still being worked out")
        if len(self._held) >= self.most:
            raise ProtocolError("rate", "the computer is busy at this table: ask again shortly")
        self._held.add(key)
        try:
            yield
        finally:
            self._held.discard(key)


__all__ = ["DB_THREADS", "Slots", "Workers", "default_thinkers"]
