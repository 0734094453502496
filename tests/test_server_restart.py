"""Nothing is lost: ``bezique serve`` is killed (SIGKILL) in the middle of a game and started
again on the same data (an SQLite file, or PostgreSQL: tests/conftest.py); the players
reconnect with their seat tokens and finish, and the record equals that of the same actions
played without the interruption."""

from __future__ import annotations

import signal
import urllib.request
from pathlib import Path

import fastapi  # noqa: F401  (installed by the dev extra; missing it fails)
import pytest
import websockets  # noqa: F401  (installed by the dev extra; missing it fails)

from bezique.core.records import GameRecord, record_match
from helpers import free_port, post, start
from server_helpers import Player, close_all, play_people, replayed


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
    assert record.seed is not None
    match = replayed("classic(target=300)", record.seed, sent)
    plain = record_match(match, players=["Ann", "Bob"], meta=record.meta)
    assert record == plain.validate()
