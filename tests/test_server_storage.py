"""The server over each store it supports, an SQLite file and PostgreSQL (a cluster of the test
session's own, started by tests/conftest.py): whole games through the API and the WebSocket,
tables resuming after the server is closed and made again over the same database, and input
that one database takes and another refuses."""

from __future__ import annotations

import asyncio
import json
import warnings
from pathlib import Path
from typing import Any

import fastapi  # noqa: F401  (installed by the dev extra; missing it fails)
import psycopg  # noqa: F401  (installed by the web extra; missing it fails)
import pytest
from sqlalchemy.exc import IntegrityError

with warnings.catch_warnings():  # starlette's note about its httpx transport
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bezique import Match, Rules
from bezique.core.records import GameRecord
from bezique.server.storage import NEXT_DEAL, SeatRow, Store, Writer, default_url
from server_helpers import (
    Player,
    app_client,
    friends_table,
    lobby,
    new_table,
    play_people,
    play_vs_computer,
    replayed,
)

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind: its URL."""
    if request.param == "sqlite":
        return default_url(tmp_path)
    url: str = request.getfixturevalue("pg_url")
    return url


def server(url: str) -> Any:
    """The app over ``url``, through a test client; closed (lobby and store) on leaving."""
    return app_client(database_url=url)


def record(client: TestClient, code: str) -> GameRecord:
    r = client.get(f"/api/tables/{code}/record")
    assert r.status_code == 200, r.text
    return GameRecord.from_json(r.text)


def test_whole_games(database: str) -> None:
    with server(database) as client:
        # the computer plays its table while the people play theirs: shared commits
        solo = new_table(client, rules="three(target=300)", level="easy", name="Solo")
        host, friend = friends_table(client, "classic(target=300)")
        code = host["code"]
        a = Player(client, code, host["token"], seed=1)
        b = Player(client, code, friend["token"], seed=2)
        watcher = Player(client, code, None)
        sent = play_people([a, b], [watcher])
        assert a.latest is not None and a.latest["match"]["winner"] is not None
        rec = record(client, code)
        assert [x for d in rec.deals for x in d.actions] == sent
        assert rec.seed is not None
        assert list(rec.scores) == replayed("classic(target=300)", rec.seed, sent).scores
        assert rec.players == ("Ann", "Friend 1")

        p = Player(client, solo["code"], solo["token"], seed=3)
        end = play_vs_computer(p)
        assert end["match"]["winner"] is not None
        assert not [m for m in p.received + a.received if m["type"] == "error"]
        store = lobby(client).store
        for c, moves in ((code, len(sent)), (solo["code"], end["move"])):
            row = store.load(c)
            assert row.status == "over"
            assert [m.n for m in row.moves] == list(range(len(row.moves)))
            assert sum(m.seat >= 0 for m in row.moves) == moves


def test_tables_resume_after_a_restart(database: str) -> None:
    rules = "classic(target=300)"
    with server(database) as client:
        host, friend = friends_table(client, rules)
        code = host["code"]
        a = Player(client, code, host["token"], seed=1)
        b = Player(client, code, friend["token"], seed=2)
        sent = play_people([a, b], stop_after=40)
        hand = a.view["hand"]
        waiting = new_table(client, name="Cy", seats=[{"kind": "me"}, {"kind": "open"}])
        solo = new_table(client, level="easy", name="Di", seat=1)
        p = Player(client, solo["code"], solo["token"], seed=3)
        while not p.my_turn():
            p.recv()
        p.act()
        solo_move = p.until(lambda m: m["type"] == "update" and m["seat"] == 1)["move"]
        seed = lobby(client).get(code).seed
    # the app is closed: nothing of it is left but the database
    with server(database) as client:
        assert client.get(f"/api/tables/{code}").json()["status"] == "playing"
        a = Player(client, code, host["token"], seed=4)
        b = Player(client, code, friend["token"], seed=5)
        assert (a.seat, b.seat) == (0, 1)
        assert a.move == 40 and a.view["hand"] == hand
        sent += play_people([a, b])
        rec = record(client, code)
        assert rec.seed == seed and rec.players == ("Ann", "Friend 1")
        assert [x for d in rec.deals for x in d.actions] == sent
        assert list(rec.scores) == replayed(rules, seed, sent).scores

        info = client.get(f"/api/tables/{waiting['code']}").json()
        assert info["status"] == "waiting" and info["seats"][0]["name"] == "Cy"
        joined = client.post(f"/api/tables/{waiting['code']}/join", json={"name": "Ed"})
        assert joined.status_code == 200 and joined.json()["table"]["status"] == "playing"

        p = Player(client, solo["code"], solo["token"], seed=6)
        assert p.seat == 1 and p.move >= solo_move  # the computer may have moved since
        end = play_vs_computer(p, deals=1)
        assert end["view"]["phase"] == "over"


def test_names_and_codes_every_database_takes(database: str) -> None:
    """PostgreSQL refuses NUL in text: it never reaches the database."""
    with server(database) as client:
        body = json.dumps({"name": "A\x00n\x07n \u00e9\U0001f600", "level": "easy"})
        r = client.post(
            "/api/tables", content=body.encode(), headers={"Content-Type": "application/json"}
        )
        assert r.status_code == 200, r.text
        t = r.json()
        assert t["table"]["seats"][0]["name"] == "Ann \u00e9\U0001f600"
        host = new_table(client, seats=[{"kind": "me"}, {"kind": "open"}])
        r = client.post(f"/api/tables/{host['code']}/join", json={"name": "\x00\x00"})
        assert r.status_code == 200 and r.json()["table"]["seats"][1]["name"] == "Friend"
        for code in ("%00", "a%00b", "\u00e9", "x" * 17):
            assert client.get(f"/api/tables/{code}").status_code == 404
            assert client.post(f"/api/tables/{code}/join", json={}).status_code == 404
        with client.websocket_connect("/ws/a%00b") as ws:
            ws.send_text(json.dumps({"type": "hello", "v": 1, "token": None}))
            assert json.loads(ws.receive_text())["code"] == "no-table"  # a code that names no table


def test_one_bad_entry_in_a_shared_commit_fails_alone(database: str) -> None:
    store = Store(database)
    try:
        seats = [SeatRow(0, "Ann", "human", "", None), SeatRow(1, "Bot", "bot", "simple", None)]
        for code in ("aaaa", "bbbb"):
            store.create_table(code, "classic", 1, {}, 0, seats, "playing")
        store.append("aaaa", 0, 0, 0, "play AS")
        writer = Writer(store)

        async def both() -> tuple[BaseException | None, BaseException | None]:
            return await asyncio.gather(
                writer.append("aaaa", 0, 0, 1, "play KS"),  # entry 0 is there already
                writer.append("bbbb", 0, 0, 0, "play TS"),
                return_exceptions=True,
            )

        taken, fine = asyncio.run(both())
        assert isinstance(taken, IntegrityError) and fine is None
        assert [m.action for m in store.load("aaaa").moves] == ["play AS"]  # type: ignore[union-attr]
        assert [m.action for m in store.load("bbbb").moves] == ["play TS"]  # type: ignore[union-attr]
    finally:
        store.close()


def test_a_bare_postgresql_url_means_psycopg(pg_url: str) -> None:
    for scheme in ("postgres://", "postgresql://"):
        store = Store(pg_url.replace("postgresql+psycopg://", scheme))
        try:
            assert store.engine.dialect.driver == "psycopg"
            assert store.load("nothing") is None
        finally:
            store.close()


def test_a_next_match_keeps_its_handicap_over_a_restart(database: str) -> None:
    """The handicap a next match starts with (cent points, HAITIAN.md H32) is stored with its
    table: after a restart the match is rebuilt from it."""
    rules = "haitian(target=60,match_games=1,cent_points_handicap=100)"
    with server(database) as client:
        t = new_table(client, rules=rules, level="beginner")
        p = Player(client, t["code"], t["token"], seed=8)
        play_vs_computer(p)
        winner = lobby(client).get(t["code"]).match.winner
        r = client.post(f"/api/tables/{t['code']}/next-match", json={"token": t["token"]})
        assert r.status_code == 200
        nxt = r.json()
    with server(database) as client:
        q = Player(client, nxt["code"], nxt["token"], seed=9)
        handicap = q.welcome["match"]["games"]["handicap"]
        assert handicap[winner] == 0 and handicap[1 - winner] == 100
        assert lobby(client).get(nxt["code"]).match.handicap[1 - winner] == 100


def test_deal_outcomes_are_kept_once_and_read_back(database: str) -> None:
    """Each store keeps a finished deal's outcome once (a second writer's copy is the same deal
    and is left out) and gives back those it can read; a table resumed over a restart in the
    middle of its third deal is the match played."""
    store = Store(database)
    try:
        store.create_table(
            "outcomes", "classic", 1, {}, 0, [SeatRow(0, "A", "bot", "easy", None)], "playing"
        )
        store.save_outcomes("outcomes", {0: {"points": [1, 2]}, 1: {"points": [3, 4]}})
        store.save_outcomes("outcomes", {1: {"points": [9, 9]}, 2: {"points": [5, 6]}})
        row = store.load("outcomes")
        assert row is not None
        assert row.outcomes == {0: {"points": [1, 2]}, 1: {"points": [3, 4]}, 2: {"points": [5, 6]}}
    finally:
        store.close()
    rules = "classic(target=3000)"
    with server(database) as client:
        made = new_table(client, rules=rules, level="beginner")
        p = Player(client, made["code"], made["token"], seed=1)
        play_vs_computer(p, deals=2)
        p.send(type="ready", deal=1)
        p.until(lambda m: m["type"] == "state" and m["match"]["deal"] == 2)
        while not p.my_turn():
            p.recv()
        p.act()
        before = p.until(lambda m: m["type"] == "update" and m["seat"] == p.seat)["match"]
        p.close()
    with server(database) as client:
        assert set(lobby(client).store.load(made["code"]).outcomes) == {0, 1}
        again = Player(client, made["code"], made["token"], seed=2)
        assert again.latest is not None and again.latest["match"]["deals"] == before["deals"]
        assert again.latest["match"]["scores"] == before["scores"]
        table = lobby(client).get(made["code"])
        log = [m.action for m in lobby(client).store.load(made["code"]).moves]
        match = Match(Rules.from_string(rules), seed=table.seed)
        for action in log:
            if action == NEXT_DEAL:
                match.next_deal()
            else:
                match.deal.apply(action)
        assert table.match.finished == match.finished and table.match.scores == before["scores"]
        # the current deal goes on meanwhile (the computer's turn): the finished ones are fixed
        assert [d.history for d in table.match.deals[:2]] == [d.history for d in match.deals[:2]]
        assert len(table.match.deals) == 3
