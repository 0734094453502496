"""The server through the ASGI test client: whole games, every kind of bad message, seat
tokens, reconnecting, the computer taking over, records and replays."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import socket
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fastapi  # noqa: F401  (installed by the dev extra; missing it fails)
import httpx
import jsonschema  # noqa: F401  (installed by the dev extra; missing it fails)
import pytest
from sqlalchemy import func, select

with warnings.catch_warnings():  # starlette's note about its httpx transport
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bezique import Rules
from bezique.core.match import Match
from bezique.core.records import GameRecord, record_match
from bezique.server import create_app
from bezique.server.app import MAX_BODY
from bezique.server.limits import AddressLimit
from bezique.server.protocol import MAX_MESSAGE, ProtocolError, parse_client
from bezique.server.room import Lobby
from bezique.server.storage import Store, default_url, tables_t
from server_helpers import (
    Player,
    app_client,
    check_client,
    friends_table,
    hello,
    lobby,
    new_table,
    play_people,
    play_vs_computer,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path, takeover_seconds=0.3) as c:
        yield c


# --- the API ---------------------------------------------------------------------------------------
def test_info_lists_presets_and_levels(client: TestClient) -> None:
    info = client.get("/api/info").json()
    names = [p["name"] for p in info["presets"]]
    assert names == Rules.presets()
    by_name = {p["name"]: p["players"] for p in info["presets"]}
    assert 2 in by_name["classic"] and 3 in by_name["three"] and by_name["four"] == [4]
    assert by_name["no-trump"][0] == 2 and sorted(by_name["no-trump"]) == [2, 3, 4]
    assert all(ns[0] == Rules.preset(name).players for name, ns in by_name.items())
    # the start page shows the target each variant plays to unless told otherwise
    targets = {p["name"]: p["target"] for p in info["presets"]}
    assert targets["classic"] == Rules.preset("classic").target and targets["greek"] > 0
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
    assert p.seat is not None and record.players[p.seat] == "Me"
    p.close()


def test_review_after_a_deal(client: TestClient) -> None:
    t = new_table(client, rules="classic(target=200)", level="beginner")
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
    parsed = parse_client(json.dumps(good))
    assert parsed["type"] == "action" and parsed["action"] == "play AS"
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
    other = new_table(client, level="easy")
    with client.websocket_connect(f"/ws/{host['code']}") as ws:
        ws.send_text(json.dumps({"type": "action", "v": 1, "move": 0, "action": "pass"}))
        assert json.loads(ws.receive_text())["code"] == "hello-first"
        ws.send_text(hello("not-a-token"))
        assert json.loads(ws.receive_text())["code"] == "auth"
    with client.websocket_connect(f"/ws/{host['code']}") as ws:
        ws.send_text(hello(other["token"]))  # a token of another table
        assert json.loads(ws.receive_text())["code"] == "auth"


def test_rate_limit(tmp_path: Path) -> None:
    app = create_app(tmp_path, bot_delay=0, rate=1, burst=5)
    with TestClient(app) as c:
        t = new_table(c, level="easy")
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
        new_table(c, level="easy")
        assert c.post("/api/tables", json={"rules": "nope"}).status_code == 400  # counts too
        store = lobby(c).store

        def tables_stored() -> int:
            with store.engine.connect() as conn:
                return int(conn.execute(select(func.count()).select_from(tables_t)).scalar_one())

        assert tables_stored() == 2
        refused = [
            c.post("/api/tables", json={"level": "easy"}),
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
        new_table(other, level="easy")
        # a while later, one more
        now[0] += 2.0
        r = c.post(f"/api/tables/{host['code']}/join", json={"name": "Bob"})
        assert r.status_code == 200 and r.json()["table"]["status"] == "playing"
        assert c.post("/api/tables", json={"level": "easy"}).status_code == 429
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
    t = new_table(client, level="easy", seat=1)
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
    t = new_table(client, rules="classic(target=200)", level="easy")
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


# --- text no UTF-8 can hold, bodies too large, the database off the event loop ------------------
LONE = "\\ud800"
"""A lone surrogate as JSON text writes it (no UTF-8 text can hold the character it stands for)."""


def finished_record() -> str:
    """A finished match between random players, as record JSON."""
    rng = random.Random(1)
    match = Match(Rules.preset("classic", target=200), seed=1)
    while True:
        while not match.deal.is_over:
            match.deal.apply(rng.choice(match.deal.legal_actions()))
        if match.winner is not None:
            return record_match(match, players=["Ann", "Bob"]).to_json()
        match.next_deal()


def tables_stored(client: TestClient) -> int:
    with lobby(client).store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(tables_t)).scalar_one())


def test_lone_surrogates_are_refused_with_a_clear_error(client: TestClient) -> None:
    """Text with a lone surrogate is refused (422 with each error's place and reason, not the
    input, which could not be written back), never a 500, and changes nothing."""
    host = new_table(client, name="Ann", seats=[{"kind": "me"}, {"kind": "open"}])
    stored = tables_stored(client)
    join = f"/api/tables/{host['code']}/join"
    requests = [
        ("/api/tables", f'{{"name": "{LONE}"}}'),
        ("/api/tables", f'{{"rules": "{LONE}"}}'),
        ("/api/tables", f'{{"level": "{LONE}"}}'),
        ("/api/tables", f'{{"seat": "{LONE}"}}'),
        ("/api/tables", f'{{"seats": [{{"kind": "me", "level": "{LONE}"}}, {{"kind": "bot"}}]}}'),
        ("/api/tables", '{"name": '),
        (join, f'{{"name": "{LONE}"}}'),
        (join, '{"name": "Bob \\udc00"}'),
        (join, "[1, "),
    ]
    for path, body in requests:
        r = client.post(path, content=body.encode(), headers={"Content-Type": "application/json"})
        assert r.status_code == 422, (path, body, r.text)
        detail = r.json()["detail"]
        assert detail and all(set(e) == {"loc", "msg", "type"} for e in detail), detail
    assert tables_stored(client) == stored
    assert client.get(f"/api/tables/{host['code']}").json()["seats"][1]["kind"] == "open"
    # a record with such a name is not replayed (the answer could not be written)
    good = finished_record()
    assert client.post("/api/replay", content=good.encode()).status_code == 200
    data = json.loads(good)
    data["players"][0] = "\ud800"
    r = client.post("/api/replay", content=json.dumps(data).encode())
    assert r.status_code == 400 and "Unicode" in r.json()["detail"]


def test_lone_surrogates_in_messages_are_malformed(client: TestClient) -> None:
    """A WebSocket message with a lone surrogate gets the protocol's error, and the connection
    goes on; a surrogate pair (one character) is fine."""
    for text in (
        f'{{"type": "hello", "v": 1, "token": "{LONE}"}}',
        f'{{"type": "ping", "v": 1, "{LONE}": 0}}',
        f'{{"type": "action", "v": 1, "move": 0, "action": "play {LONE}"}}',
        '{"type": "ping", "v": 1, "token": "\ud800"}',  # the character itself, not escaped
    ):
        with pytest.raises(ProtocolError) as e:
            parse_client(text)
        assert e.value.code == "malformed", e.value.message
    pair = parse_client('{"type": "hello", "v": 1, "token": "\\ud83d\\ude00"}')
    assert pair["type"] == "hello" and pair["token"] == "\U0001f600"
    host, friend = friends_table(client)
    with client.websocket_connect(f"/ws/{host['code']}") as ws:
        for text in (
            f'{{"type": "hello", "v": 1, "token": "{LONE}"}}',
            '{"type": "hello", "v": 1, "token": "\ud800"}',
            "\udcff",
        ):
            ws.send_text(text)
            err = json.loads(ws.receive_text())
            assert err["type"] == "error" and err["code"] == "malformed", err
    p = Player(client, host["code"], friend["token"])
    mover = p if p.my_turn() else Player(client, host["code"], host["token"])
    mover.send_raw(f'{{"type": "action", "v": 1, "move": {mover.move}, "action": "play {LONE}"}}')
    assert mover.error()["code"] == "malformed"
    mover.act()
    assert mover.until(lambda m: m["type"] == "update")["move"] == 1


def test_chunked_bodies_are_counted_as_they_come(tmp_path: Path) -> None:
    """A body without Content-Length (chunked) is refused once it passes the limit, before the
    rest is read: 413 on every endpoint; one within the limit is read as ever."""
    app = create_app(tmp_path, bot_delay=0)
    chunk = 64 * 1024
    sent = [0]

    async def body(total: int) -> Any:
        for _ in range(total // chunk):
            sent[0] += 1
            yield b" " * chunk

    async def pieces(data: bytes) -> Any:
        for i in range(0, len(data), 1000):
            yield data[i : i + 1000]

    async def go() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            made = (await c.post("/api/tables", json={"level": "easy"})).json()
            for path in ("/api/replay", "/api/tables", f"/api/tables/{made['code']}/join"):
                sent[0] = 0
                r = await c.post(
                    path, content=body(8 * MAX_BODY), headers={"Content-Type": "application/json"}
                )
                assert "content-length" not in r.request.headers
                assert sent[0] <= MAX_BODY // chunk + 2, (path, sent)  # not all 64 chunks
                assert r.status_code == 413 and r.json() == {"detail": "request too large"}
            # within the limit: read whole
            r = await c.post("/api/replay", content=pieces(finished_record().encode()))
            assert "content-length" not in r.request.headers
            assert r.status_code == 200 and r.json()["players"] == ["Ann", "Bob"]
            r = await c.post(
                "/api/tables",
                content=pieces(json.dumps({"level": "easy", "name": "Ann" * 50}).encode()),
                headers={"Content-Type": "application/json"},
            )
            assert (
                r.status_code == 200 and r.json()["table"]["seats"][0]["name"] == "Ann" * 13 + "A"
            )
            # a Content-Length past the limit is refused before anything is read
            r = await c.post("/api/replay", content=b"{" * (MAX_BODY + 1))
            assert r.status_code == 413 and r.json() == {"detail": "request too large"}

    try:
        asyncio.run(go())
    finally:
        app.state.lobby.close()
        app.state.store.close()


def _in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _spy_on_store(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record each store call made in the event loop's thread (none should be)."""
    in_loop: list[str] = []

    def spy(name: str, real: Any) -> Any:
        def call(*args: Any) -> Any:
            if _in_event_loop():
                in_loop.append(name)
            return real(*args)

        return call

    for name in ("load", "create_table", "update_seat", "set_status", "append", "append_many"):
        monkeypatch.setattr(store, name, spy(name, getattr(store, name)))
    return in_loop


def test_the_database_is_used_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every database call of the server (making, finding, loading, joining, starting and
    finishing tables) runs in a worker thread, so a slow database never stalls the others."""
    in_loop = _spy_on_store(lobby(client).store, monkeypatch)
    assert client.get("/api/tables/zzzzzzzz").status_code == 404
    host = new_table(
        client,
        rules="three",
        name="Ann",
        seats=[{"kind": "me"}, {"kind": "open"}, {"kind": "open"}],
    )
    lobby(client).forget(lobby(client).tables[host["code"]])  # gone from memory: loaded again
    assert client.get(f"/api/tables/{host['code']}").json()["status"] == "waiting"
    lobby(client).forget(lobby(client).tables[host["code"]])
    friend = client.post(f"/api/tables/{host['code']}/join", json={"name": "Bob"}).json()
    lobby(client).forget(lobby(client).tables[host["code"]])
    a = Player(client, host["code"], host["token"])
    assert a.seat == 0 and a.welcome["table"]["seats"][1]["name"] == "Bob"
    a.send(type="start")
    state = a.until(lambda m: m["type"] == "state")
    assert [s["kind"] for s in state["table"]["seats"]] == ["human", "human", "bot"]
    b = Player(client, host["code"], friend["token"])
    assert b.seat == 1
    for p in (a, b):
        p.close()
    t = new_table(client, rules="classic(target=200)", level="easy")
    p = Player(client, t["code"], t["token"])
    end = play_vs_computer(p)
    assert end["match"]["winner"] is not None
    p.close()
    assert in_loop == []


def test_tables_asked_for_together_are_loaded_once(tmp_path: Path) -> None:
    """While a table is loaded (slowly) the event loop goes on; everyone asking for it then
    gets the same table, loaded once."""
    store = Store(default_url(tmp_path))
    loads: list[str] = []
    real_load = store.load

    def slow_load(code: str) -> Any:
        loads.append(code)
        time.sleep(0.2)
        return real_load(code)

    async def go() -> None:
        lobby = Lobby(store, bot_delay=0)
        seats = [{"kind": "me"}, {"kind": "open"}]
        table, seat, _token = await lobby.create(Rules.preset("classic"), seats, "Ann", hints=False)
        assert seat == 0 and lobby.tables[table.code] is table
        lobby.forget(table)
        store.load = slow_load  # type: ignore[method-assign]
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        ticker = asyncio.create_task(tick())
        found = await asyncio.gather(*[lobby.find(table.code) for _ in range(5)], lobby.find("z2"))
        ticker.cancel()
        first = found[0]
        assert first is not None and first is not table and first.code == table.code
        assert all(f is first for f in found[:5]) and found[5] is None
        assert sorted(loads) == sorted([table.code, "z2"])  # once each
        assert ticks >= 5  # the loop went on during the loads
        assert lobby.tables[table.code] is first and not lobby._loading
        assert await lobby.find(table.code) is first and len(loads) == 2  # from memory now
        assert await lobby.find("no such!") is None and len(loads) == 2  # not asked
        lobby.close()

    try:
        asyncio.run(go())
    finally:
        store.close()


def test_a_real_server_closes_on_text_that_is_not_utf8(tmp_path: Path) -> None:
    """A WebSocket text frame that is not UTF-8 never reaches the application: uvicorn fails
    that connection (1007, as RFC 6455 requires), logs one line, no traceback, and the server
    goes on."""
    from helpers import free_port, post, start

    port = free_port()
    proc = start(port, tmp_path)
    try:
        t = post(port, "/api/tables", {"level": "easy"})
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall(
                f"GET /ws/{t['code']} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            got = b""
            while b"\r\n\r\n" not in got:
                got += s.recv(4096)
            head, _, got = got.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 101")
            payload = b'{"type": "hello", "v": 1, "token": "\xff"}'
            mask = os.urandom(4)
            masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            s.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)  # a text frame
            while len(got) < 4:
                more = s.recv(4096)
                if not more:
                    break
                got += more
            assert got[:4] == b"\x88\x02" + (1007).to_bytes(2, "big")  # close: 1007
        p = Player(None, t["code"], t["token"], url=f"ws://127.0.0.1:{port}/ws/{t['code']}")
        p.send_raw(f'{{"type": "action", "v": 1, "move": {p.move}, "action": "play {LONE}"}}')
        assert p.error()["code"] == "malformed"
        p.close()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert "Traceback" not in err.decode(), err.decode()


def test_nobody_at_a_friends_table_the_computer_waits(client: TestClient) -> None:
    """With every person gone the computer plays no seat; it takes over an away seat
    only while someone is connected, and the table tells when it will."""
    host, friend = friends_table(client)
    a = Player(client, host["code"], host["token"], seed=1)
    b = Player(client, host["code"], friend["token"], seed=2)
    table = lobby(client).get(host["code"])
    b.close()
    # the others are told when the computer takes over b's seat
    countdown = a.until(lambda m: m["type"] == "table" and not m["table"]["seats"][1]["connected"])
    wait = countdown["table"]["seats"][1]["takeover_in"]
    assert wait is not None and 0 < wait <= 0.3
    assert countdown["table"]["seats"][0]["takeover_in"] is None
    a.close()
    time.sleep(1.0)  # both away for longer than the takeover time (0.3 s)
    moves = table.moves
    time.sleep(1.0)
    assert table.moves == moves, "the computer played with nobody at the table"
    assert not any(table.computer_plays(s) for s in range(2))
    # one person back: the computer plays the other seat while that person is there
    a2 = Player(client, host["code"], host["token"], seed=3)
    t0 = time.monotonic()
    while table.moves < moves + 6:
        if a2.my_turn() and a2.move not in a2.acted:
            a2.acted.add(a2.move)
            a2.act()
        a2.recv()
        assert time.monotonic() - t0 < 30
    assert table.computer_plays(1)
    a2.close()


def test_a_table_that_does_not_exist(client: TestClient) -> None:
    """A link to no table gets its own error code (the client shows a 'no such table'
    screen and stops reconnecting), not 'auth' (a stale token)."""
    p = Player(client, "nosuchtable", None)
    assert p.welcome["type"] == "error" and p.welcome["code"] == "no-table"
    p.close()
    p = Player(client, "nosuchtable", "some-token")
    assert p.welcome["code"] == "no-table"
    p.close()


def test_haitian_match_of_games_to_its_end(client: TestClient) -> None:
    """A Haitian match (HAITIAN.md section 6, H26-H28) played through the server: every
    message's ``match.games`` is the engine's count of games, and the match ends when a count
    reaches ``match_games`` (a short game and a low en bas table mark, so it has several)."""
    rules = "haitian(target=200,match_games=3,double_game_below=120)"
    t = new_table(client, rules=rules, level="beginner")
    p = Player(client, t["code"], t["token"], seed=4)
    end = play_vs_computer(p)
    match: Match = lobby(client).get(t["code"]).match
    assert match.winner is not None
    g = end["match"]["games"]
    assert g["needed"] == 3 and g["double_below"] == 120 and g["handicap"] == [0, 0]
    assert g["counts"] == list(match.match_counts) and max(g["counts"]) >= 3
    assert g["counts"][end["match"]["winner"]] == max(g["counts"])
    assert [(x["winner"], x["double"], x["last_deal"]) for x in g["played"]] == [
        (x.winner, x.double, x.last_deal) for x in match.games
    ]
    # a game counts 2 exactly when won en bas table (H27)
    for x in g["played"]:
        loser = min(x["scores"])
        assert x["double"] == (loser < 120)
    # every message on the way carried the counts as they stood
    counted = [m["match"]["games"]["counts"] for m in p.received if m.get("match")]
    assert counted[0] == [0, 0] and counted[-1] == g["counts"]
    p.close()


def test_next_match_gives_its_loser_the_cent_points_handicap(client: TestClient) -> None:
    """HAITIAN.md H32 (``cent_points_handicap=100``) at the table: once a match is over, one of
    its players starts the next match, a new table where the loser starts each game on 100."""
    rules = "haitian(target=60,match_games=1,cent_points_handicap=100)"
    t = new_table(client, rules=rules, level="beginner")
    code = t["code"]
    # not before the match is over
    assert (
        client.post(f"/api/tables/{code}/next-match", json={"token": t["token"]}).status_code == 409
    )
    p = Player(client, code, t["token"], seed=6)
    play_vs_computer(p)
    match: Match = lobby(client).get(code).match
    assert match.winner is not None
    loser = 1 - match.winner
    # only a player of the table may
    stranger = client.post(f"/api/tables/{code}/next-match", json={"token": "x" * 32})
    assert stranger.status_code == 403
    r = client.post(f"/api/tables/{code}/next-match", json={"token": t["token"]})
    assert r.status_code == 200
    nxt = r.json()
    assert nxt["code"] != code and nxt["seat"] == p.seat
    assert [s["kind"] for s in nxt["table"]["seats"]] == [s["kind"] for s in t["table"]["seats"]]
    q = Player(client, nxt["code"], nxt["token"], seed=7)
    games = q.welcome["match"]["games"]
    assert games["handicap"][loser] == 100 and games["handicap"][match.winner] == 0
    assert q.welcome["match"]["scores"] == games["handicap"]  # the games start from it
    assert lobby(client).get(nxt["code"]).match.handicap[loser] == 100
    p.close()
    q.close()
