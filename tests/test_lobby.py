"""The lobby of public tables and quick match, through the API, over SQLite and PostgreSQL
(their state is in the store, so that every server node sees the same)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bezique.server import create_app
from bezique.server.storage import default_url
from server_helpers import Player, app_client, new_table

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return default_url(tmp_path)
    url: str = request.getfixturevalue("pg_url")
    return url


def listed(client: Any) -> dict[str, dict[str, Any]]:
    """The lobby's tables by code (read past the node's short cache)."""
    client.app.state.online._listing = None
    r = client.get("/api/lobby")
    assert r.status_code == 200, r.text
    return {t["code"]: t for t in r.json()["tables"]}


def test_public_tables_are_listed_until_full_private_ones_never(database: str) -> None:
    with app_client(database_url=database) as client:
        seats = [{"kind": "me"}, {"kind": "open"}]
        private = new_table(client, rules="classic", name="Pia", seats=seats)
        public = new_table(client, rules="classic", name="Pat", seats=seats, public=True)
        lobby = listed(client)
        assert private["code"] not in lobby
        row = lobby[public["code"]]
        assert row["status"] == "waiting" and row["free"] == 1 and row["variant"] == "classic/2"
        assert [s["name"] for s in row["seats"]] == ["Pat", None]
        assert "token" not in str(row) and public["token"] not in str(lobby)
        r = client.post(f"/api/tables/{public['code']}/join", json={"name": "Quinn"})
        assert r.status_code == 200, r.text
        row = listed(client)[public["code"]]  # full: now a game to watch
        assert row["status"] == "playing" and row["free"] == 0
        watcher = Player(client, public["code"], None)
        assert watcher.seat is None and watcher.welcome["type"] == "welcome"
        assert all(h == [] or h is None for h in [watcher.view.get("hand")])


def test_two_people_meet_through_quick_match(database: str) -> None:
    with app_client(database_url=database) as client:
        a = client.post("/api/quick", json={"rules": "classic", "name": "Ann"})
        assert a.status_code == 200, a.text
        assert a.json()["state"] == "waiting" and a.json()["waiting"] == 1
        b = client.post("/api/quick", json={"rules": "classic", "name": "Bob"})
        assert b.status_code == 200, b.text
        got_b = b.json()
        assert got_b["state"] == "matched"
        got_a = client.post("/api/quick/poll", json={"ticket": a.json()["ticket"]}).json()
        assert got_a["state"] == "matched" and got_a["code"] == got_b["code"]
        assert {got_a["seat"], got_b["seat"]} == {0, 1}
        players = [Player(client, got["code"], got["token"]) for got in (got_a, got_b)]
        assert sorted(p.seat for p in players) == [0, 1]  # type: ignore[type-var]
        assert players[0].view["phase"] != "waiting"
        info = client.get(f"/api/tables/{got_a['code']}").json()
        assert info["status"] == "playing"
        assert sorted(s["name"] for s in info["seats"]) == ["Ann", "Bob"]
        assert listed(client)[got_a["code"]]["status"] == "playing"  # there to watch


@pytest.mark.parametrize(("rules", "n"), [("three", 3), ("four", 4)])
def test_quick_match_seats_three_and_four(rules: str, n: int, tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        client.app.state.online.queue_per_address = n
        answers = [
            client.post("/api/quick", json={"rules": rules, "name": f"P{i}"}).json()
            for i in range(n)
        ]
        assert [a["state"] for a in answers[:-1]] == ["waiting"] * (n - 1)
        found = [
            client.post("/api/quick/poll", json={"ticket": a["ticket"]}).json() for a in answers
        ]
        assert {f["code"] for f in found} == {answers[-1]["code"]}
        assert sorted(f["seat"] for f in found) == list(range(n))
        info = client.get(f"/api/tables/{found[0]['code']}").json()
        assert info["partnerships"] == (rules == "four") and info["status"] == "playing"


def test_a_flood_of_joins_from_one_address_is_refused_not_queued(database: str) -> None:
    with app_client(database_url=database) as client:
        codes = []
        for i in range(12):
            r = client.post("/api/quick", json={"rules": "three", "name": f"F{i}"})
            codes.append(r.status_code)
        online = client.app.state.online
        assert codes[:2] == [200, 200] and set(codes[2:]) == {429}
        assert online.db.queue_size() == 2  # the refused were never stored
        assert online.db.waiting_count() == {"three": 2}  # (three seats: never paired)


def test_one_waiting_entry_per_identity(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        key = client.post("/api/players", json={"name": "Ida"}).json()["key"]
        first = client.post("/api/quick", json={"rules": "rubicon", "key": key})
        assert first.status_code == 200
        again = client.post("/api/quick", json={"rules": "rubicon", "key": key})
        assert again.status_code == 429 and "already" in again.json()["detail"]
        wrong = client.post("/api/quick", json={"rules": "rubicon", "key": "x" * 32})
        assert wrong.status_code == 403


def test_quick_match_requests_share_the_tables_per_address_limit(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    app = create_app(tmp_path, http_rate=0.001, http_burst=3, bot_delay=0)
    with TestClient(app) as client:
        app.state.online.queue_per_address = 100
        got = [client.post("/api/quick", json={"rules": "classic"}).status_code for _ in range(5)]
        assert got == [200, 200, 200, 429, 429]
        assert client.post("/api/tables", json={"level": "beginner"}).status_code == 429
        assert client.post("/api/players", json={}).status_code == 429


def test_leaving_the_queue_and_bad_tickets(database: str) -> None:
    with app_client(database_url=database) as client:
        t = client.post("/api/quick", json={"rules": "classic"}).json()["ticket"]
        assert client.post("/api/quick/leave", json={"ticket": t}).json() == {"left": True}
        assert client.post("/api/quick/poll", json={"ticket": t}).status_code == 404
        assert client.post("/api/quick/leave", json={"ticket": t}).json() == {"left": False}
        b = client.post("/api/quick", json={"rules": "classic"}).json()
        assert b["state"] == "waiting"  # the one who left is not paired with anyone
        for body in ({}, {"ticket": 5}, {"ticket": "z" * 201}):
            assert client.post("/api/quick/poll", json=body).status_code == 422
        assert client.post("/api/quick", json={"rules": "nonsense(x=1)"}).status_code == 400
        assert (
            client.post("/api/quick", json={"rules": "classic", "name": "n" * 201}).status_code
            == 422
        )


def test_a_stale_waiting_entry_is_never_paired(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        online = client.app.state.online
        gone = client.post("/api/quick", json={"rules": "classic", "name": "Gone"}).json()
        with online.db.engine.begin() as c:  # its browser stopped asking a minute ago
            from sqlalchemy import update

            from bezique.server.onlinedb import queue_t

            c.execute(update(queue_t).values(seen=queue_t.c.seen - 60))
        assert client.post("/api/quick/poll", json={"ticket": gone["ticket"]}).status_code == 404
        fresh = client.post("/api/quick", json={"rules": "classic", "name": "New"}).json()
        assert fresh["state"] == "waiting"


def test_the_lobby_is_read_from_the_store_once_per_period(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        online = client.app.state.online
        new_table(client, rules="classic", seats=[{"kind": "me"}, {"kind": "open"}], public=True)
        online._listing = None
        before = online.listing_reads
        for _ in range(20):
            assert client.get("/api/lobby").status_code == 200
        # twenty reads within the cache's half second cost one or two reads of the store
        assert 1 <= online.listing_reads - before <= 3


def test_the_lobby_is_shared_through_the_store(tmp_path: Path) -> None:
    """Two server processes on one database (as nodes are): a table made public on one is
    in the other's lobby."""
    from fastapi.testclient import TestClient

    url = default_url(tmp_path)
    one = create_app(database_url=url, bot_delay=0)
    two = create_app(database_url=url, bot_delay=0)
    with TestClient(one) as c1, TestClient(two) as c2:
        made = new_table(c1, rules="classic", seats=[{"kind": "me"}, {"kind": "open"}], public=True)
        assert made["code"] in listed(c2)
        a = c1.post("/api/quick", json={"rules": "chinese", "name": "On one"}).json()
        b = c2.post("/api/quick", json={"rules": "chinese", "name": "On two"}).json()
        assert b["state"] == "matched"
        assert c1.post("/api/quick/poll", json={"ticket": a["ticket"]}).json()["code"] == b["code"]


def test_a_quick_match_between_identities_is_rated(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        keys = [client.post("/api/players", json={"name": n}).json() for n in ("Ida", "Jo")]
        a = client.post("/api/quick", json={"rules": "classic", "key": keys[0]["key"]}).json()
        b = client.post("/api/quick", json={"rules": "classic", "key": keys[1]["key"]}).json()
        assert a["state"] == "waiting" and b["state"] == "matched"
        db = client.app.state.online.db
        assert db.table_flags(b["code"]) == (True, True, "classic/2")
        assert sorted(db.seat_players(b["code"]).values()) == sorted(k["id"] for k in keys)
        row = listed(client)[b["code"]]
        assert {s["player"] for s in row["seats"]} == {k["id"] for k in keys}
        # without an identity on one side the match is played unrated
        c = client.post("/api/quick", json={"rules": "classic", "key": keys[0]["key"]}).json()
        d = client.post("/api/quick", json={"rules": "classic"}).json()
        assert c["state"] == "waiting" and d["state"] == "matched"
        assert db.table_flags(d["code"]) == (True, False, "classic/2")


def test_stale_public_tables_leave_the_lobby(tmp_path: Path) -> None:
    from sqlalchemy import update

    from bezique.server.onlinedb import WAITING_LISTED, online_t

    with app_client(tmp_path) as client:
        seats = [{"kind": "me"}, {"kind": "open"}]
        old = new_table(client, rules="classic", seats=seats, public=True)
        new = new_table(client, rules="classic", seats=seats, public=True)
        with client.app.state.online.db.engine.begin() as c:  # made long ago, nobody came
            c.execute(
                update(online_t)
                .where(online_t.c.code == old["code"])
                .values(created=online_t.c.created - WAITING_LISTED - 1)
            )
        lobby = listed(client)
        assert new["code"] in lobby and old["code"] not in lobby


def test_two_nodes_pairing_at_once_never_pair_anyone_twice(database: str) -> None:
    """Joins and pairings from two nodes (two engines on one database) racing in threads:
    every person is claimed by at most one pairing, and every pairing has two people."""
    import secrets
    import threading

    from bezique.server.onlinedb import OnlineStore
    from bezique.server.storage import Store

    stores = [Store(database), Store(database)]
    nodes = [OnlineStore(s.engine) for s in stores]
    claims: list[tuple[str, list[int]]] = []
    failures: list[BaseException] = []

    def person(i: int) -> None:
        node = nodes[i % 2]
        try:
            node.join_queue(secrets.token_urlsafe(8), "classic", 2, f"a{i}", None, f"P{i}", 1)
            for _ in range(3):
                found = node.pair("classic", 2)
                if found is not None:
                    claims.append((found[0], [w.id for w in found[1]]))
        except BaseException as e:  # reported below
            failures.append(e)

    threads = [threading.Thread(target=person, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failures, failures
    claimed = [pid for _, ids in claims for pid in ids]
    assert all(len(ids) == 2 for _, ids in claims)
    assert len(claimed) == len(set(claimed)) == 16  # everyone paired, nobody twice
    for s in stores:
        s.close()


def test_lobby_reads_and_polls_are_limited_per_address(tmp_path: Path) -> None:
    from bezique.server.online import POLL_BURST

    with app_client(tmp_path) as client:
        client.app.state.poll_limit.clock = lambda: 0.0  # time stands still: no refill
        got = [client.get("/api/lobby").status_code for _ in range(int(POLL_BURST) + 5)]
        assert got == [200] * int(POLL_BURST) + [429] * 5
        refused = client.post("/api/quick/poll", json={"ticket": "x"})
        assert refused.status_code == 429 and refused.headers["Retry-After"]
