"""Leases and fencing on their own (PostgreSQL, tests/conftest.py): a node writes a table's log
only while it holds the table's lease under the epoch it took; a second node asking for the
table gets it handed over, and the first node's writes are refused from then on.  Several
nodes on SQLite are refused in one line."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bezique.server.lease import Elsewhere, Leases
from bezique.server.storage import LeaseLost, SeatRow, Store

pytestmark = [pytest.mark.postgres, pytest.mark.xdist_group("postgres")]


def _table(store: Store, code: str) -> None:
    seats = [SeatRow(0, "Ann", "human", "", "x"), SeatRow(1, "Bot", "bot", "random", None)]
    store.create_table(code, "classic", 1, {}, 0, seats, "playing")


def test_fenced_writes_and_hand_over(pg_url: str) -> None:
    store_a, store_b = Store(pg_url), Store(pg_url)
    _table(store_a, "abc")

    async def main() -> None:
        handed: list[str] = []

        async def a_hands_over(code: str) -> None:
            handed.append(code)
            a.drop(code)

        async def b_refuses(code: str) -> None:
            pass  # b keeps what it holds

        a = Leases(pg_url, "a", a_hands_over, lambda: None)
        b = Leases(pg_url, "b", b_refuses, lambda: None, wait_seconds=1.0)
        await a.start()
        await b.start()
        store_a.fence, store_b.fence = a.epoch, b.epoch
        try:
            assert await a.acquire("abc") == 1
            await asyncio.to_thread(store_a.append, "abc", 0, 0, 0, "play AS")
            with pytest.raises(LeaseLost):  # b does not hold it: nothing written
                await asyncio.to_thread(store_b.append, "abc", 1, 0, 1, "play 7S")
            # b asks; a hands it over; b's epoch is the next one
            assert await b.acquire("abc") == 2
            assert handed == ["abc"]
            await asyncio.to_thread(store_b.append, "abc", 1, 0, 1, "play 7S")
            # a node that still believes it holds epoch 1 is refused by the database itself
            store_a.fence = lambda code: 1
            with pytest.raises(LeaseLost):
                await asyncio.to_thread(store_a.append, "abc", 2, 0, 0, "play KS")
            # and a cannot take it back while b keeps it
            with pytest.raises(Elsewhere):
                await _acquire_briefly(pg_url)
        finally:
            await a.close()
            await b.close()

    asyncio.run(main())
    row = store_a.load("abc")
    assert row is not None
    assert [m.action for m in row.moves] == ["play AS", "play 7S"]
    with store_a.engine.connect() as c:
        log = c.exec_driver_sql(
            "SELECT node, epoch, event FROM bz_lease_log WHERE code = 'abc' ORDER BY id"
        ).fetchall()
    assert [tuple(r) for r in log] == [
        ("a", 1, "acquired"),
        ("a", 1, "released"),
        ("b", 2, "acquired"),
        ("b", 2, "released"),
    ]
    store_a.close()
    store_b.close()


async def _acquire_briefly(url: str) -> None:
    async def keep(code: str) -> None:
        pass

    c = Leases(url, "c", keep, lambda: None, wait_seconds=0.3)
    await c.start()
    try:
        await c.acquire("abc")
    finally:
        await c.close()


def test_nodes_need_postgresql(tmp_path: Path) -> None:
    """A node on SQLite, or several nodes given an SQLite database, is one line of error
    (and nothing is started)."""
    for args in (
        ["--node", "n1"],
        ["--nodes", "2", "--database", f"sqlite:///{tmp_path / 'x.db'}"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "bezique.cli", "serve", "--data", str(tmp_path), *args],
            capture_output=True,
            text=True,
            timeout=60,
            env={k: v for k, v in os.environ.items() if k != "BEZIQUE_DATABASE_URL"},
        )
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "postgresql" in lines[0].lower(), lines
