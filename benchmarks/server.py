"""Server load: many concurrent tables of computer players, each seat a real WebSocket client
on loopback, against ``bezique serve`` running in its own process.

Run: ``python benchmarks/server.py [--tables 200] [--seconds 30] [--think 1.0] [--profile F]
[--no-compression]``

Every table is a table for two people whose seats are taken by client processes' players:
each waits ``--think`` seconds (on average, uniformly between half and one and a half times)
and plays a random legal action, the way a person at a browser would, and says ready after each
deal.  Printed: the tables held open, actions a second, and the median and 99th percentile of
the time from a client sending an action to receiving its acknowledgement (the update for that
action, sent after the action is committed to the database).  Goal: 200 tables with
p99 < 100 ms on a two-core machine.  ``--think 0`` measures the most the server can take.

Cluster mode, ``--cluster [--nodes 1,2] [--levels 50,100,…]``: for each number of nodes,
``bezique serve --nodes N`` (the nodes, HAProxy and one PostgreSQL, the same database for every
N) is loaded with more and more tables, the clients speaking to the proxy; at each level the
p99 is measured (the median of ``--windows`` windows' p99s, so that a burst of another job on a
shared machine spoils a window, not the level), and the highest level whose p99 stays under
100 ms is the figure for N.  The CPU each part used (nodes, proxy, database, this client, and
the machine's other jobs) says where the time goes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from websockets.asyncio.client import connect

GOAL_TABLES = 200
GOAL_P99_MS = 100.0
RULES = "classic(target=10000)"
"""Long matches, at the highest target the server allows: no table ends during a run."""
UNLIMITED = {
    "BEZIQUE_BOT_DELAY": "0",
    "BEZIQUE_RATE": "1000",
    "BEZIQUE_HTTP_RATE": "1000",
    "BEZIQUE_HTTP_BURST": "1000",
    "BEZIQUE_WS_PER_ADDRESS": "100000",  # every seat's WebSocket comes from this address
    "BEZIQUE_LOOKUP_RATE": "100000",  # and says hello from it
    "BEZIQUE_LOOKUP_BURST": "100000",
}
"""The server's settings for a load from one address: every table is made, joined and played
from here, so the per-address limits are lifted (and the computer answers at once)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    port: int, data: str, profile: str | None = None, compression: bool = True
) -> subprocess.Popen[bytes]:
    env = {**os.environ, **UNLIMITED}
    env.pop("BEZIQUE_DATABASE_URL", None)
    run = [sys.executable]
    if profile:  # the server's own time, by function, written when it stops (SIGINT)
        run += ["-m", "cProfile", "-o", profile]
    cmd = [*run, "-m", "bezique.cli", "serve", "--port", str(port), "--data", data]
    if not compression:
        cmd.append("--no-ws-compression")
    proc = subprocess.Popen(cmd, env=env)
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


def table_for_two(base: str) -> tuple[str, list[str]]:
    """A new table of two people, both seats taken: its WebSocket address and the two tokens."""
    host = post(base, "/api/tables", {"rules": RULES, "seats": [{"kind": "me"}, {"kind": "open"}]})
    friend = post(base, f"/api/tables/{host['code']}/join", {})
    ws = base.replace("http://", "ws://")
    return f"{ws}/ws/{host['code']}", [host["token"], friend["token"]]


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors = 0
        self.error_codes: dict[str, int] = {}
        """Errors the server told the clients, by code (a refused action stalls its table)."""
        self.open = 0
        self.measuring = False
        self.server_cpu: float | None = None
        self.client_cpu = 0.0


async def seat(
    url: str, token: str, think: float, stats: Stats, stop: asyncio.Event, seed: int
) -> None:
    rng = random.Random(seed)
    async with connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        stats.open += 1
        me: int | None = None
        pending: tuple[float, int] | None = None
        readied: set[int] = set()
        acted: set[int] = set()
        try:
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                m = json.loads(raw)
                kind = m["type"]
                if kind == "welcome":
                    me = m["seat"]
                if kind == "error":
                    stats.errors += 1
                    code = str(m.get("code"))
                    stats.error_codes[code] = stats.error_codes.get(code, 0) + 1
                    pending = None
                if kind == "update" and pending is not None and m["index"] == pending[1]:
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - pending[0])
                        stats.actions += 1
                    pending = None
                view, match = m.get("view"), m.get("match")
                if view is None or pending is not None:
                    continue
                if view["phase"] == "over":
                    if match["winner"] is None and match["deal"] not in readied:
                        readied.add(match["deal"])
                        await ws.send(json.dumps({"type": "ready", "v": 1, "deal": match["deal"]}))
                    continue
                if view["to_move"] == me and m["move"] not in acted:
                    acted.add(m["move"])
                    if think:
                        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                    action = rng.choice(view["legal"])["action"]
                    pending = (time.perf_counter(), m["move"])
                    await ws.send(
                        json.dumps({"type": "action", "v": 1, "move": m["move"], "action": action})
                    )
        finally:
            stats.open -= 1


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) a process has used so far, where /proc tells it (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(
    base: str, tables: int, seconds: float, warmup: float, think: float, server_pid: int = 0
) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    tasks = []
    seats: list[tuple[str, str]] = []
    for _ in range(tables):  # every table first, so that making them does not wait on play
        url, tokens = await loop.run_in_executor(None, table_for_two, base)
        seats += [(url, token) for token in tokens]
    for k, (url, token) in enumerate(seats):
        tasks.append(asyncio.create_task(seat(url, token, think, stats, stop, k)))
    await asyncio.sleep(warmup)
    stats.measuring = True
    t0 = time.perf_counter()
    cpu0, mine0 = cpu_seconds(server_pid), time.process_time()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    cpu1, mine1 = cpu_seconds(server_pid), time.process_time()
    stats.server_cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
    stats.client_cpu = mine1 - mine0
    held = stats.open // 2
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    stats.open = held
    stats.actions_per_second = stats.actions / elapsed  # type: ignore[attr-defined]
    return stats


def p99_ms(lat: list[float]) -> float:
    lat = sorted(lat)
    return lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("inf")


class Level:
    """One load level of a cluster run: its p99 is the median of the p99s of its windows (a
    burst of another job on a shared machine spoils one window, not the level)."""

    def __init__(self, tables: int, windows: list[list[float]], seconds: float) -> None:
        lat = sorted(x for w in windows for x in w)
        self.tables = tables
        self.acks = len(lat)
        self.p50 = statistics.median(lat) * 1000 if lat else float("nan")
        self.windows = [p99_ms(w) for w in windows]
        self.p99 = statistics.median(self.windows)
        self.rate = len(lat) / seconds
        self.cpu: dict[str, float] = {}


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (every process, every core: /proc/stat)."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rpartition(")")[2].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return out


def group_cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(p) or 0.0 for p in pids)


async def ramp(
    base: str,
    levels: list[int],
    seconds: float,
    warmup: float,
    think: float,
    parts: dict[str, Any],
    windows: int = 3,
) -> list[Level]:
    """More and more tables on one running cluster: a :class:`Level` per step, up to the
    first whose p99 is over the goal.  ``parts``: the process ids of each part, by name (or a
    function giving them)."""
    stats = Stats()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    tasks: list[asyncio.Task[None]] = []
    out: list[Level] = []
    made = 0
    for target in levels:
        while made < target:
            url, tokens = await loop.run_in_executor(None, table_for_two, base)
            for token in tokens:
                k = len(tasks)
                tasks.append(asyncio.create_task(seat(url, token, think, stats, stop, k)))
            made += 1
        await asyncio.sleep(warmup)
        pids = {k: (v() if callable(v) else v) for k, v in parts.items()}
        cpu0 = {k: group_cpu(v) for k, v in pids.items()}
        mine0, busy0 = time.process_time(), machine_busy()
        measured: list[list[float]] = []
        stats.measuring = True
        for _ in range(windows):
            stats.latencies = []
            await asyncio.sleep(seconds / windows)
            measured.append(stats.latencies)
        stats.measuring = False
        level = Level(made, measured, seconds)
        level.cpu = {k: (group_cpu(v) - cpu0[k]) / seconds for k, v in pids.items()}
        level.cpu["client"] = (time.process_time() - mine0) / seconds
        level.cpu["other jobs"] = max(
            0.0, (machine_busy() - busy0) / seconds - sum(level.cpu.values())
        )
        out.append(level)
        cpu = ", ".join(f"{k} {v:.2f}" for k, v in level.cpu.items())
        spread = "/".join(f"{w:.0f}" for w in level.windows)
        told = ", ".join(f"{k} {v}" for k, v in sorted(stats.error_codes.items())) or "none"
        print(
            f"  {made:4d} tables: {level.rate:6.0f} actions/s, p50 {level.p50:6.1f} ms, "
            f"p99 {level.p99:7.1f} ms (windows {spread}); CPU s/s: {cpu}; "
            f"errors so far: {told}; seats open {stats.open}/{2 * made}",
            flush=True,
        )
        if level.p99 >= GOAL_P99_MS:
            break
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return out


def cluster_mode(args: argparse.Namespace) -> None:
    """The highest table count under the p99 goal for each number of nodes, in one run."""
    from pathlib import Path

    from bezique.server.cluster import Cluster, OwnPostgres

    node_counts = [int(x) for x in args.nodes.split(",")]
    levels = [int(x) for x in args.levels.split(",")]
    env = dict(UNLIMITED)
    with open("/proc/loadavg") as f:
        print(f"load average before: {' '.join(f.read().split()[:3])}; cores: {os.cpu_count()}")
    data = Path(tempfile.mkdtemp(prefix="bezique-bench-"))
    os.chmod(data, 0o755)  # as root the database runs as the postgres user, who must reach it
    pg = OwnPostgres(data / "postgres")
    url = pg.start()
    if args.no_sync_commit:  # a diagnosis: commits not waiting for the disk (not for play)
        url += "?options=-c%20synchronous_commit%3Doff"
    postmaster = int((pg.data / "postmaster.pid").read_text().split()[0])
    results: dict[int, list[Level]] = {}
    try:
        for n in node_counts:
            port = free_port()
            args_n = [] if not args.no_compression else ["--no-ws-compression"]
            cluster = Cluster(
                n, data / f"nodes{n}", port=port, database=url, node_args=args_n, env=env
            )
            cluster.start()
            print(f"{n} node(s) behind HAProxy, PostgreSQL shared:", flush=True)
            assert cluster.proxy is not None
            parts: dict[str, Any] = {
                "nodes": [node.proc.pid for node in cluster.running],
                "proxy": [cluster.proxy.pid],
                "database": lambda: [postmaster, *children(postmaster)],
            }
            try:
                results[n] = asyncio.run(
                    ramp(
                        f"http://127.0.0.1:{port}",
                        levels,
                        args.seconds,
                        args.warmup,
                        args.think,
                        parts,
                        args.windows,
                    )
                )
            finally:
                cluster.stop()
    finally:
        pg.stop()
        import shutil

        shutil.rmtree(data, ignore_errors=True)
    with open("/proc/loadavg") as f:
        print(f"load average after: {' '.join(f.read().split()[:3])}")
    print(f"think time {args.think:.2f} s a move; goal p99 < {GOAL_P99_MS:.0f} ms")
    for n, steps in results.items():
        good = [s.tables for s in steps if s.p99 < GOAL_P99_MS]
        best = max(good) if good else 0
        capped = all(s.p99 < GOAL_P99_MS for s in steps)
        more = " (every level tried passed: add higher --levels)" if capped else ""
        print(f"{n} node(s): highest table count with p99 < {GOAL_P99_MS:.0f} ms: {best}{more}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=GOAL_TABLES)
    ap.add_argument("--seconds", type=float, default=30.0, help="measured time")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds before each action")
    ap.add_argument("--profile", metavar="FILE", help="profile the server (cProfile) into FILE")
    ap.add_argument("--no-compression", action="store_true", help="serve with --no-ws-compression")
    ap.add_argument(
        "--cluster", action="store_true", help="nodes behind HAProxy, tables added in steps"
    )
    ap.add_argument("--nodes", default="1,2", help="cluster mode: the node counts to measure")
    ap.add_argument(
        "--levels",
        default="50,100,150,200,250,300,400,500,600",
        help="cluster mode: the table counts tried, in order, up to the first over the goal",
    )
    ap.add_argument(
        "--no-sync-commit",
        action="store_true",
        help="cluster mode: PostgreSQL commits without waiting for the disk (to see its share)",
    )
    ap.add_argument(
        "--windows", type=int, default=3, help="cluster mode: windows a level is measured in"
    )
    args = ap.parse_args()
    if args.cluster:
        cluster_mode(args)
        return
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = start_server(port, data, args.profile, not args.no_compression)
        try:
            stats = asyncio.run(
                run(
                    f"http://127.0.0.1:{port}",
                    args.tables,
                    args.seconds,
                    args.warmup,
                    args.think,
                    server.pid,
                )
            )
        finally:
            if args.profile:  # a clean stop, so that the profile is written
                server.send_signal(signal.SIGINT)
                try:
                    server.wait(30)
                except subprocess.TimeoutExpired:
                    server.kill()
            else:
                server.kill()
            server.wait()
    lat = sorted(stats.latencies)
    if not lat:
        raise SystemExit("no action was acknowledged")
    median = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    print(f"tables held open          {stats.open} (goal {GOAL_TABLES})")
    print(f"think time                {args.think:.2f} s a move, mean")
    print(f"actions acknowledged      {stats.actions} in {args.seconds:.0f} s")
    print(f"actions a second          {stats.actions_per_second:.0f}")  # type: ignore[attr-defined]
    print(f"ack latency median        {median:.1f} ms")
    print(
        f"ack latency p99           {p99:.1f} ms (goal < {GOAL_P99_MS:.0f} ms: ratio {p99 / GOAL_P99_MS:.2f})"
    )
    print(f"errors                    {stats.errors}")
    if stats.server_cpu is not None and stats.actions:
        # CPU a second of wall time near 1.0: the server's one event loop is the limit
        print(
            f"server CPU                {stats.server_cpu / args.seconds:.2f} s a second, "
            f"{1000 * stats.server_cpu / stats.actions:.2f} ms an action"
        )
    print(f"client CPU                {stats.client_cpu / args.seconds:.2f} s a second")


if __name__ == "__main__":
    main()
