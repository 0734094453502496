"""Nothing is lost: ``bezique serve`` is killed (SIGKILL) in the middle of a game and started
again on the same data (an SQLite file, or PostgreSQL: tests/conftest.py); the players
reconnect with their seat tokens and finish, and the record equals that of the same actions
played without the interruption."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import fastapi  # noqa: F401  (installed by the dev extra; missing it fails)
import pytest
import websockets  # noqa: F401  (installed by the dev extra; missing it fails)

from bezique.core.records import GameRecord, record_match
from server_helpers import Player, close_all, play_people, replayed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(
    port: int, data: Path, bot_delay: str = "0", database_url: str | None = None
) -> subprocess.Popen[bytes]:
    """``bezique serve`` on 127.0.0.1:port, started and answering; its tables in ``data``, or
    in the database ``database_url`` names."""
    env = {
        **os.environ,
        "BEZIQUE_BOT_DELAY": bot_delay,
        "BEZIQUE_TAKEOVER_SECONDS": "600",
        "BEZIQUE_RATE": "1000",
        "BEZIQUE_HTTP_RATE": "1000",  # the browser tests make many tables from one address
        "BEZIQUE_HTTP_BURST": "1000",
    }
    env.pop("BEZIQUE_DATABASE_URL", None)
    if database_url is not None:
        env["BEZIQUE_DATABASE_URL"] = database_url
    cmd = [sys.executable, "-m", "bezique.cli", "serve", "--port", str(port), "--data", str(data)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode() if proc.stderr else "") from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_kill_and_restart_loses_nothing(
    tmp_path: Path, database: str, request: pytest.FixtureRequest
) -> None:
    db_url = request.getfixturevalue("pg_url") if database == "postgres" else None
    port = free_port()
    server = start(port, tmp_path, database_url=db_url)
    try:
        host = post(
            port,
            "/api/tables",
            {
                "rules": "classic(target=300)",
                "name": "Ann",
                "seats": [{"kind": "me"}, {"kind": "open"}],
            },
        )
        code = host["code"]
        friend = post(port, f"/api/tables/{code}/join", {"name": "Bob"})
        url = f"ws://127.0.0.1:{port}/ws/{code}"
        a = Player(None, code, host["token"], seed=1, url=url)
        b = Player(None, code, friend["token"], seed=2, url=url)
        sent = play_people([a, b], stop_after=70)
        hand = a.view["hand"]
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        close_all()

        server = start(port, tmp_path, database_url=db_url)
        a = Player(None, code, host["token"], seed=3, url=url)
        b = Player(None, code, friend["token"], seed=4, url=url)
        assert (a.seat, b.seat) == (0, 1)
        assert a.move == 70 and a.view["hand"] == hand  # every acknowledged action is there
        sent += play_people([a, b])
        assert a.latest["match"]["winner"] is not None  # type: ignore[index]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables/{code}/record") as r:
            record = GameRecord.from_json(r.read())
    finally:
        close_all()
        server.kill()
        server.wait(10)
    # the same actions, played without a break
    match = replayed("classic(target=300)", record.seed, sent)
    plain = record_match(match, players=["Ann", "Bob"], meta=record.meta)
    assert record == plain.validate()
