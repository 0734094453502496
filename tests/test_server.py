"""The server through the ASGI test client: whole games, every kind of bad message, seat
tokens, reconnecting, the computer taking over, records and replays."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fastapi  # noqa: F401  (installed by the dev extra; missing it fails)
import jsonschema  # noqa: F401  (installed by the dev extra; missing it fails)
import pytest
from sqlalchemy import func, select

with warnings.catch_warnings():  # starlette's note about its httpx transport
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bezique import Rules
from bezique.core.match import Match
from bezique.core.records import GameRecord
from bezique.server import create_app
from bezique.server.limits import AddressLimit
from bezique.server.protocol import MAX_MESSAGE, ProtocolError, parse_client
from bezique.server.storage import tables_t
from server_helpers import (
    Player,
    check_client,
    close_all,
    friends_table,
    hello,
    lobby,
    new_table,
    play_people,
    play_vs_computer,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        tmp_path,
        bot_delay=0,
        takeover_seconds=0.3,
        rate=10_000,
        burst=10_000,
        hint_level="medium",
        review_level="medium",
    )
    with TestClient(app) as c:
        try:
            yield c
        finally:
            close_all()


# --- the API ---------------------------------------------------------------------------------------
def test_info_lists_presets_and_levels(client: TestClient) -> None:
    info = client.get("/api/info").json()
    names = [p["name"] for p in info["presets"]]
    assert names == Rules.presets()
    by_name = {p["name"]: p["players"] for p in info["presets"]}
    assert 2 in by_name["classic"] and 3 in by_name["three"] and by_name["four"] == [4]
    assert by_name["no-trump"][0] == 2 and sorted(by_name["no-trump"]) == [2, 3, 4]
    assert all(ns[0] == Rules.preset(name).players for name, ns in by_name.items())
    assert info["default_level"] in [lv["name"] for lv in info["levels"]]
    assert client.get("/").status_code == 200
    assert client.get("/protocol.schema.json").status_code == 200


def test_rules_facts(client: TestClient) -> None:
    facts = client.get("/api/rules", params={"rules": "classic(target=1500)"}).json()
    assert facts["rules"] == "classic(target=1500)"
    melds = {m["name"]: m["points"] for m in facts["melds"]}
    assert melds["double-bezique"] == 500 and melds["trump-sequence"] == 250
    assert {"name": "target", "value": 1500} in [
        {"name": o["name"], "value": o["value"]} for o in facts["options"]
    ]
    assert client.get("/api/rules", params={"rules": "nonsense"}).status_code == 400


def test_bad_table_requests(client: TestClient) -> None:
    assert client.post("/api/tables", json={"rules": "nope"}).status_code == 400
    assert client.post("/api/tables", json={"level": "grandmaster"}).status_code == 400
    bad_seats = {"seats": [{"kind": "me"}, {"kind": "me"}]}
    assert client.post("/api/tables", json=bad_seats).status_code == 400
    assert client.post("/api/tables", json={"seats": [{"kind": "me"}]}).status_code == 400
    assert client.post("/api/tables", json={"seat": 3}).status_code == 400
    assert client.get("/api/tables/zzzzzzzz").status_code == 404
    r = client.post("/api/tables", content=b"x" * (600 * 1024))
    assert r.status_code == 413


# --- whole games -----------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", Rules.presets())
def test_a_deal_of_every_preset_against_the_computer(client: TestClient, preset: str) -> None:
    rules = Rules.preset(preset)
    t = new_table(client, rules=preset, level="medium", name="Me", seat=rules.players - 1)
    assert t["table"]["status"] == "playing" and t["table"]["hints"] is True
    p = Player(client, t["code"], t["token"], seed=3)
    assert p.seat == rules.players - 1
    end = play_vs_computer(p, hints_every=9, deals=1)
    assert end["view"]["phase"] == "over" and len(end["match"]["deals"]) == 1
    assert end["match"]["deals"][0]["points"] == end["view"]["points"]
    assert [m for m in p.received if m["type"] == "hint"]
    assert not [m for m in p.received if m["type"] == "error"]
    p.close()


@pytest.mark.parametrize("preset", ["classic", "three", "four"])
def test_whole_match_against_the_computer(client: TestClient, preset: str) -> None:
    rules = Rules.preset(preset, target=400)
    t = new_table(client, rules=str(rules), level="medium", name="Me")
    p = Player(client, t["code"], t["token"], seed=4)
    end = play_vs_computer(p)
    assert end["match"]["winner"] is not None
    table = lobby(client).get(t["code"])
    assert table.status == "over" and table.match.winner == end["match"]["winner"]
    assert end["match"]["scores"] == table.match.scores
    # the record is the core's format, and replays to the same match
    r = client.get(f"/api/tables/{t['code']}/record")
    assert r.status_code == 200
    record = GameRecord.from_json(r.text)
    assert record.kind == "match" and record.winner == end["match"]["winner"]
    assert list(record.scores) == end["match"]["scores"]
    assert record.players[p.seat] == "Me"
    p.close()


def test_review_after_a_deal(client: TestClient) -> None:
    t = new_table(client, rules="classic(target=200)", level="random")
    p = Player(client, t["code"], t["token"], seed=5)
    play_vs_computer(p)
    p.send(type="review", deal=0)
    review = p.until(lambda m: m["type"] in ("review", "error"))
    assert review["type"] == "review" and review["seat"] == 0
    match: Match = lobby(client).get(t["code"]).match
    history = match.deals[0].history
    for item in review["items"]:
        assert history[item["ply"]] == item["played"] != item["suggested"]
    assert review["items"], "a random player is always corrected somewhere"
    p.send(type="review", deal=99)
    assert p.error()["code"] == "not-allowed"
    p.close()


def test_table_for_people_with_spectator(client: TestClient) -> None:
    host, friend = friends_table(client, "classic(target=300)")
    assert host["seat"] == 0 and friend["seat"] == 1
    assert host["token"] != friend["token"] and len(host["token"]) >= 32
    a = Player(client, host["code"], host["token"], seed=1)
    b = Player(client, host["code"], friend["token"], seed=2)
    watcher = Player(client, host["code"], None)
    assert (a.seat, b.seat, watcher.seat) == (0, 1, None)
    assert watcher.welcome["view"]["hand"] == [] and watcher.welcome["view"]["seat"] is None
    play_people([a, b], [watcher])
    assert a.view["phase"] == "over" and a.latest["match"]["winner"] is not None  # type: ignore[index]
    # nobody's hints at a table of people unless allowed
    a.send(type="hint", move=a.move)
    assert a.error()["code"] in ("not-allowed", "over")
    # the full table refuses another friend
    assert client.post(f"/api/tables/{host['code']}/join", json={}).status_code == 409
    for p in (a, b, watcher):
        p.close()


def test_four_people_partnership_table(client: TestClient) -> None:
    seats = friends_table(client, "four(target=300)", seats=4)
    players = [Player(client, s["code"], s["token"], seed=i) for i, s in enumerate(seats)]
    assert [p.seat for p in players] == [0, 1, 2, 3]
    play_people(players)
    assert players[0].latest["match"]["winner"] in (0, 1)  # type: ignore[index]
    for p in players:
        p.close()


def test_waiting_table_started_by_the_host(client: TestClient) -> None:
    host = new_table(
        client,
        rules="three",
        name="Ann",
        seats=[{"kind": "me"}, {"kind": "open"}, {"kind": "open"}],
    )
    assert host["table"]["status"] == "waiting"
    a = Player(client, host["code"], host["token"])
    assert a.welcome["view"] is None
    friend = client.post(f"/api/tables/{host['code']}/join", json={"name": "Bob"}).json()
    b = Player(client, host["code"], friend["token"])
    b.send(type="start")
    assert b.error()["code"] == "not-allowed"  # only the host
    b.send(type="action", move=0, action="play AS")
    assert b.error()["code"] == "not-started"
    a.send(type="start")
    state = a.until(lambda m: m["type"] == "state")
    kinds = [s["kind"] for s in state["table"]["seats"]]
    assert kinds == ["human", "human", "bot"] and state["table"]["status"] == "playing"
    a.send(type="start")
    assert a.error()["code"] == "not-allowed"
    a.close()
    b.close()


# --- bad messages --------------------------------------------------------------------------------
def test_parse_client_refuses_bad_shapes() -> None:
    good = {"type": "action", "v": 1, "move": 0, "action": "play AS"}
    check_client(good)
    assert parse_client(json.dumps(good))["action"] == "play AS"
    bad: list[tuple[Any, str]] = [
        (None, "malformed"),
        (b"{}", "malformed"),
        ("{", "malformed"),
        ("[1, 2]", "malformed"),
        ("{}", "unknown-type"),
        ('{"type": "launch", "v": 1}', "unknown-type"),
        ('{"type": "ping"}', "version"),
        ('{"type": "ping", "v": 2}', "version"),
        ('{"type": "ping", "v": true}', "version"),
        ('{"type": "ping", "v": 1, "extra": 0}', "malformed"),
        ('{"type": "action", "v": 1, "action": "pass"}', "malformed"),
        ('{"type": "action", "v": 1, "move": "0", "action": "pass"}', "malformed"),
        ('{"type": "action", "v": 1, "move": true, "action": "pass"}', "malformed"),
        ('{"type": "action", "v": 1, "move": -1, "action": "pass"}', "malformed"),
        ('{"type": "action", "v": 1, "move": 1e3, "action": "pass"}', "malformed"),
        ('{"type": "action", "v": 1, "move": 0, "action": ["pass"]}', "malformed"),
        (json.dumps({**good, "action": "play " + "A" * 1100}), "too-large"),
        ("[" * 100_000, "too-large"),
        (" " * (MAX_MESSAGE + 1), "too-large"),
        ('{"type": "hello", "v": 1, "token": 5}', "malformed"),
        ("[" * 1020 + "]" * 1020, "malformed"),
    ]
    for text, code in bad:
        with pytest.raises(ProtocolError) as e:
            parse_client(text)
        assert e.value.code == code, (text, e.value.message)


def test_bad_messages_change_nothing(client: TestClient) -> None:
    host, friend = friends_table(client)
    a = Player(client, host["code"], host["token"])
    b = Player(client, host["code"], friend["token"])
    table = lobby(client).get(host["code"])
    mover, other = (a, b) if a.view["to_move"] == 0 else (b, a)
    before = table.match.deal.position()
    cases: list[tuple[Player, str, str]] = [
        (mover, "not json", "malformed"),
        (mover, '{"type": "action", "v": 1}', "malformed"),
        (mover, '{"type": "fly", "v": 1}', "unknown-type"),
        (mover, '{"type": "ping", "v": 9}', "version"),
        (mover, "x" * (MAX_MESSAGE + 10), "too-large"),
        (mover, hello(host["token"]), "malformed"),
        (mover, json.dumps({"type": "action", "v": 1, "move": 5, "action": "pass"}), "stale"),
        (mover, json.dumps({"type": "action", "v": 1, "move": 0, "action": "fly AS"}), "malformed"),
        (mover, json.dumps({"type": "action", "v": 1, "move": 0, "action": "pass"}), "illegal"),
        (
            mover,
            json.dumps({"type": "action", "v": 1, "move": 0, "action": "play ZZ"}),
            "malformed",
        ),
        (
            other,
            json.dumps({"type": "action", "v": 1, "move": 0, "action": "pass"}),
            "not-your-turn",
        ),
        (mover, json.dumps({"type": "ready", "v": 1, "deal": 0}), "stale"),
        (mover, json.dumps({"type": "review", "v": 1, "deal": 0}), "not-allowed"),
        (mover, json.dumps({"type": "hint", "v": 1, "move": 0}), "not-allowed"),
    ]
    # a card the mover does not hold
    held = set(mover.view["hand"])
    missing = next(c for c in (r + s for s in "SHDC" for r in "ATKQJ987") if c not in held)
    cases.append(
        (
            mover,
            json.dumps({"type": "action", "v": 1, "move": 0, "action": f"play {missing}"}),
            "illegal",
        )
    )
    for p, text, code in cases:
        p.send_raw(text)
        err = p.error()
        assert err["code"] == code, (text, err)
        assert err["move"] == 0
    mover.ws.send_bytes(b"\x00\x01")
    assert mover.error()["code"] == "malformed"
    assert table.match.deal.position() == before and table.moves == 0
    # a spectator cannot act
    w = Player(client, host["code"], None)
    w.send(type="action", move=0, action=mover.view["legal"][0]["action"])
    assert w.error()["code"] == "spectator"
    w.send(type="ready", deal=0)
    assert w.error()["code"] == "spectator"
    assert table.match.deal.position() == before
    # after all that, the right message still works
    mover.act()
    mover.until(lambda m: m["type"] == "update")
    assert table.moves == 1
    for p in (a, b, w):
        p.close()


def test_hello_first_and_bad_tokens(client: TestClient) -> None:
    host, _ = friends_table(client)
    other = new_table(client, level="simple")
    with client.websocket_connect(f"/ws/{host['code']}") as ws:
        ws.send_text(json.dumps({"type": "action", "v": 1, "move": 0, "action": "pass"}))
        assert json.loads(ws.receive_text())["code"] == "hello-first"
        ws.send_text(hello("not-a-token"))
        assert json.loads(ws.receive_text())["code"] == "auth"
    with client.websocket_connect(f"/ws/{host['code']}") as ws:
        ws.send_text(hello(other["token"]))  # a token of another table
        assert json.loads(ws.receive_text())["code"] == "auth"
    with client.websocket_connect("/ws/nosuchtable") as ws:
        ws.send_text(hello(None))
        assert json.loads(ws.receive_text())["code"] == "auth"


def test_rate_limit(tmp_path: Path) -> None:
    app = create_app(tmp_path, bot_delay=0, rate=1, burst=5)
    with TestClient(app) as c:
        t = new_table(c, level="simple")
        p = Player(c, t["code"], t["token"])
        for _ in range(12):
            p.send(type="ping")
        got = [p.until(lambda m: m["type"] in ("pong", "error"))["type"] for _ in range(12)]
        assert got.count("error") >= 6 and "pong" in got
        p.close()


def test_http_rate_limit(tmp_path: Path) -> None:
    """Making tables, taking seats and uploading records share a bucket per address: past it,
    429 with Retry-After, and nothing is made."""
    app = create_app(tmp_path, bot_delay=0, http_rate=0.5, http_burst=3)
    now = [1000.0]
    app.state.http_limit.clock = lambda: now[0]
    with TestClient(app) as c:
        host = new_table(c, name="Ann", seats=[{"kind": "me"}, {"kind": "open"}])
        new_table(c, level="simple")
        assert c.post("/api/tables", json={"rules": "nope"}).status_code == 400  # counts too
        store = lobby(c).store

        def tables_stored() -> int:
            with store.engine.connect() as conn:
                return int(conn.execute(select(func.count()).select_from(tables_t)).scalar_one())

        assert tables_stored() == 2
        refused = [
            c.post("/api/tables", json={"level": "simple"}),
            c.post(f"/api/tables/{host['code']}/join", json={"name": "Bob"}),
            c.post("/api/replay", content=b"{}"),
        ]
        for r in refused:
            assert r.status_code == 429 and r.json() == {"detail": "too many requests: slow down"}
            assert r.headers["Retry-After"] == "2"  # one request in 2 s
        assert tables_stored() == 2
        assert store.load(host["code"]).seats[1].kind == "open"
        # reading is not limited, nor is another address
        assert c.get(f"/api/tables/{host['code']}").json()["seats"][1]["kind"] == "open"
        other = TestClient(app, client=("203.0.113.7", 50000))  # no lifespan: shares the app's
        new_table(other, level="simple")
        # a while later, one more
        now[0] += 2.0
        r = c.post(f"/api/tables/{host['code']}/join", json={"name": "Bob"})
        assert r.status_code == 200 and r.json()["table"]["status"] == "playing"
        assert c.post("/api/tables", json={"level": "simple"}).status_code == 429
        now[0] += 60.0  # the bucket fills up to the burst, no further
        assert [c.post("/api/tables", json={}).status_code for _ in range(4)] == [200] * 3 + [429]


def test_address_limit_buckets() -> None:
    now = [0.0]
    limit = AddressLimit(1.0, 2.0, max_addresses=50, clock=lambda: now[0])
    assert [limit.take("192.0.2.1") for _ in range(3)] == [0.0, 0.0, 1.0]
    now[0] += 0.25
    assert limit.take("192.0.2.1") == 0.75 and limit.take("::ffff:192.0.2.1") == 0.75
    # an IPv6 address counts by its /64
    assert limit.take("2001:db8::1") == limit.take("2001:db8::ffff:2") == 0.0
    assert limit.take("2001:db8::3") == 1.0 and limit.take("2001:db8:0:1::1") == 0.0
    # the table stays bounded: the longest idle go first, full buckets are forgotten
    for i in range(500):
        limit.take(f"10.0.{i // 256}.{i % 256}")
    assert len(limit) == 50
    now[0] += 2.0  # every bucket is full again: none is kept
    limit.take("198.51.100.1")
    assert len(limit) == 1
    with pytest.raises(ValueError):
        AddressLimit(0, 20)


# --- seats, reconnecting and the computer taking over ---------------------------------------------
def test_reconnect_keeps_the_seat(client: TestClient) -> None:
    t = new_table(client, level="simple", seat=1)
    p = Player(client, t["code"], t["token"])
    for _ in range(3):
        while not p.my_turn():
            p.recv()
        p.act()
        p.until(lambda m: m["type"] == "update")
    moves, hand = p.move, p.view["hand"]
    p.close()
    q = Player(client, t["code"], t["token"])
    assert q.seat == 1 and q.move >= moves
    if q.move == moves:
        assert q.view["hand"] == hand
    assert q.welcome["table"]["seats"][1]["connected"] is True
    q.close()


def test_the_computer_plays_for_a_person_away_too_long(client: TestClient) -> None:
    host, friend = friends_table(client)
    a = Player(client, host["code"], host["token"], seed=1)
    b = Player(client, host["code"], friend["token"], seed=2)
    b.close()
    table = lobby(client).get(host["code"])
    t0 = time.monotonic()
    # a plays on; b's turns are played by the computer once b has been away 0.3 s
    while table.moves < 12:
        if a.my_turn() and a.move not in a.acted:
            a.acted.add(a.move)
            a.act()
        a.recv()
        assert time.monotonic() - t0 < 30
    seats = [m for m in a.received if m["type"] == "table"]
    assert any(m["table"]["seats"][1]["computer"] for m in seats)
    assert any(u["seat"] == 1 for u in a.received if u["type"] == "update")
    # b comes back: the seat is b's again, and the computer stops
    b2 = Player(client, host["code"], friend["token"])
    assert b2.seat == 1 and b2.welcome["table"]["seats"][1]["computer"] is False
    assert 1 not in table.taken_over
    for p in (a, b2):
        p.close()


def test_record_only_when_over_and_replay(client: TestClient) -> None:
    t = new_table(client, rules="classic(target=200)", level="simple")
    assert client.get(f"/api/tables/{t['code']}/record").status_code == 409
    assert client.get(f"/api/tables/{t['code']}/replay").status_code == 409
    p = Player(client, t["code"], t["token"])
    play_vs_computer(p)
    p.close()
    text = client.get(f"/api/tables/{t['code']}/record").text
    steps = client.get(f"/api/tables/{t['code']}/replay").json()
    record = GameRecord.from_json(text)
    assert len(steps["steps"]) == sum(len(d.actions) + 1 for d in record.deals)
    first = steps["steps"][0]["view"]
    assert sum(len(h) for h in first["hands"]) == 16
    up = client.post("/api/replay", content=text.encode())
    assert up.status_code == 200 and up.json()["steps"] == steps["steps"]
    assert client.post("/api/replay", content=b'{"format": 1}').status_code == 400
