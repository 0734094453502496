"""What the lobby's polling of the store costs: the time of one lobby read (the public tables
with their seats and ratings, and the quick-match counts) with the lobby full, on SQLite or on
the PostgreSQL a URL names.  Each server node makes at most two such reads a second however many
browsers look (``online.LISTING_SECONDS``), so this time, twice a second per node, is the whole
cost.  A benchmark, not a test: it prints and never fails.

    python benchmarks/lobby_poll.py
    python benchmarks/lobby_poll.py --database postgresql://user:pw@127.0.0.1:5432/bench
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from bezique.server.onlinedb import LISTED, OnlineStore
from bezique.server.storage import SeatRow, Store, default_url


def main() -> None:
    """Fill the lobby, then time the reads."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="a database URL (default: a new SQLite file)")
    parser.add_argument("--tables", type=int, default=LISTED, help="public tables listed")
    parser.add_argument("--private", type=int, default=2000, help="other tables stored")
    parser.add_argument("--reads", type=int, default=200)
    args = parser.parse_args()
    url = args.database or default_url(tempfile.mkdtemp(prefix="bezique-lobby-"))
    store = Store(url)
    db = OnlineStore(store.engine)
    stamp = int(time.time() * 1000) % 100_000
    for i in range(args.tables + args.private):
        code = f"b{stamp}x{i}"
        seats = [SeatRow(0, f"P{i}", "human", "", None), SeatRow(1, "Seat 2", "open", "", None)]
        store.create_table(code, "classic", i, {}, 0, seats, "waiting")
        if i < args.tables:
            db.mark_table(code, public=True, rated=True, variant="classic/2")
            pid, _key = db.new_player(f"P{i}")
            db.set_seat_player(code, 0, pid)
    db.listing()  # warm
    times = []
    for _ in range(args.reads):
        t = time.perf_counter()
        listed = db.listing()
        db.waiting_count()
        times.append(time.perf_counter() - t)
    times.sort()
    print(
        f"{store.engine.dialect.name}: {len(listed)} public tables of "
        f"{args.tables + args.private}: one lobby read median "
        f"{statistics.median(times) * 1000:.2f} ms, p99 {times[int(len(times) * 0.99) - 1] * 1000:.2f} ms"
    )
    store.close()


if __name__ == "__main__":
    main()
