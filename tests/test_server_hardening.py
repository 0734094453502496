"""The server under abuse: rules out of range, replays of long games,
hints and connections that would starve everyone else, tables never freed, the match's end
across a crash, and the smaller points (broadcasts, names, headers, API pages, refusals)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import tempfile
import threading
import time
import urllib.request
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

with warnings.catch_warnings():  # starlette's note about its httpx transport
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bezique import Action, Deal, Rules
from bezique.core.events import EventKind
from bezique.core.melds import MELD_BY_NAME, meld_score
from bezique.core.records import record_match
from bezique.server import advice, connection, create_app, protocol, serving, tables
from bezique.server import replay as replay_module
from bezique.server.connection import Connection
from bezique.server.room import Lobby
from bezique.server.storage import Store, default_url
from helpers import run_cli
from server_helpers import (
    Player,
    app_client,
    friends_table,
    make,
    new_table,
    play_people,
    played,
    real_server,
    ws_url,
)
from server_helpers import lobby as lobby_of


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as c:
        yield c


# --- 1: rule options out of range ------------------------------------------------------------------
def test_rules_out_of_range_are_refused_by_every_request(client: TestClient) -> None:
    """``/api/rules?rules=classic(wild_cards=100000000)`` took 1.7 GB and 1.2 s of the event
    loop; ``packs=30000`` kept ~90 MB a table.  Both are a clear 400 now, and nothing is made."""
    r = client.get("/api/rules", params={"rules": "classic(wild_cards=100000000)"})
    assert r.status_code == 400
    assert r.json()["detail"] == "bad rules: option wild_cards must be 0 to 8: got 100000000"
    options = {o["name"]: o for o in client.get("/api/rules").json()["options"]}
    assert options["wild_cards"]["range"] == [0, 8] and options["target"]["range"] == [1, 10**6]
    assert options["meld_reuse"]["range"] is None
    r = client.post("/api/tables", json={"rules": "classic(packs=30000)", "level": "easy"})
    assert r.status_code == 400 and "packs must be 1 to 12" in r.json()["detail"]
    assert not lobby_of(client).tables


# --- 2: replays ------------------------------------------------------------------------------------
def laid_over(pages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every step's whole view, each step's changes laid over the view before (as the client
    does)."""
    out: list[dict[str, Any]] = []
    view: dict[str, Any] = {}
    for page in pages:
        for i, step in enumerate(page["steps"]):
            if i == 0:
                assert set(step["view"]) == set(replay_module.VIEW_KEYS)  # a page starts whole
            view = {**view, **step["view"]}
            out.append({**step, "view": view})
    return out


def all_pages(get: Any) -> list[dict[str, Any]]:
    pages = [get(0)]
    while pages[-1]["next_deal"] is not None:
        assert pages[-1]["next_deal"] == pages[-1]["steps"][-1]["deal"] + 1
        pages.append(get(pages[-1]["next_deal"]))
    return pages


def test_a_long_replay_comes_by_pages_of_changes(client: TestClient) -> None:
    """A 39 KiB record once gave a 2.3 MB answer (37 MB for the one the audit found): every
    step carried the whole trick history.  Now the answer grows with the game: each step holds
    what changed, by pages of whole deals, and laid over one another the steps are exactly
    the positions of the game."""
    record = record_match(played("classic(target=5000)"), players=["Ann", "Bob"])
    text = record.to_json()
    answers: list[int] = []

    def get(deal: int) -> dict[str, Any]:
        r = client.post(f"/api/replay?deal={deal}", content=text.encode())
        assert r.status_code == 200, r.text
        answers.append(len(r.content))
        page: dict[str, Any] = r.json()
        assert page["deals"] == len(record.deals) and page["first_deal"] == deal
        return page

    pages = all_pages(get)
    assert len(pages) >= 2
    assert all(len(p["steps"]) <= replay_module.PAGE_STEPS for p in pages)
    assert sum(answers) < 12 * len(text)  # was 60 times the record
    steps = laid_over(pages)
    states = list(record.states())
    assert len(steps) == len(states)
    for step, (i, ply, action, deal) in zip(steps, states, strict=True):
        assert (step["deal"], step["ply"], step["action"]) == (i, ply, action)
        v = step["view"]
        assert v["points"] == deal.points and v["trick"] == [list(t) for t in deal.trick]
        for seat in range(2):
            assert sorted(v["hands"][seat] + v["tables"][seat]) == sorted(deal.hand(seat))
            assert v["tables"][seat] == deal.table(seat)
        # the deal's declarations with named fields, saying what `melds` says in words
        assert [(e["trick"], e["seat"], e["points"]) for e in v["scoring"]] == [
            (e.trick, e.seat, e.points) for e in deal.events if e.kind is EventKind.MELD
        ]
        named = [[e["seat"], e["kind"], e["meld"], e["cards"], e["points"]] for e in v["scoring"]]
        assert [[s, f"{k} {m} {' '.join(c)}", p] for s, k, m, c, p in named] == v["melds"]
    assert client.post("/api/replay?deal=999", content=text.encode()).status_code == 400


def test_a_record_too_long_to_replay_is_refused_before_it_is_read(client: TestClient) -> None:
    data = json.loads(record_match(played("classic(target=200)")).to_json())
    data["deals"] = data["deals"][:1]
    data["deals"][0]["actions"] = ["pass"] * (replay_module.MAX_ACTIONS + 1)
    r = client.post("/api/replay", content=json.dumps(data).encode())
    assert r.status_code == 400
    assert r.json()["detail"].startswith(f"this game has {replay_module.MAX_ACTIONS + 1} actions")


def test_rules_pages_and_replays_are_rate_limited(tmp_path: Path) -> None:
    """``GET /api/rules`` and ``GET /api/tables/{code}/replay`` build a rule set or replay a
    whole game: they share the per-address bucket of the requests that make things."""
    app = create_app(tmp_path, bot_delay=0, http_rate=0.01, http_burst=3)
    with TestClient(app) as c:
        got = [c.get("/api/rules", params={"rules": "classic"}).status_code for _ in range(3)]
        assert got == [200, 200, 200]
        r = c.get("/api/rules", params={"rules": "classic"})
        assert r.status_code == 429 and "Retry-After" in r.headers
        assert c.get("/api/tables/abcdefgh/replay").status_code == 429
        assert c.get("/api/info").status_code == 200  # other reading is not limited


def player(app: Any, made: dict[str, Any]) -> Player:
    return Player(None, made["code"], made["token"], url=ws_url(app, made["code"]))


def until_my_turn(p: Player) -> None:
    while not p.my_turn():
        p.recv()


class SlowAdvisor:
    """An advisor that thinks until released: hints pile up exactly as long as a test says."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self, obs: Any, level: str | None, seconds: float | None) -> tuple[str, str]:
        with self.lock:
            self.calls += 1
        self.release.wait(30)
        return obs.legal[0], "slow"


@pytest.fixture
def slow_advisor() -> Iterator[SlowAdvisor]:
    slow = SlowAdvisor()
    advice.set_advisor(slow)
    try:
        yield slow
    finally:
        slow.release.set()
        advice.set_advisor(None)


# --- 3: hints never starve commits --------------------------------------------------------------
def test_thinking_never_holds_up_commits(tmp_path: Path, slow_advisor: SlowAdvisor) -> None:
    """Hints once shared asyncio's default pool with the database: enough hints being worked
    out at once (more than its threads: at most 32) and no table's action was committed until
    they were done.  Now the database has threads of its own and the thinking a bounded pool:
    with 40 slow hints pending, another table's action is acknowledged at once."""
    with real_server(tmp_path) as app:
        askers = []
        for _ in range(40):
            p = player(app, make(app, "/api/tables", {"level": "easy", "hints": True}))
            until_my_turn(p)  # every computer move first: the hints hold the thinkers
            askers.append(p)
        for p in askers:
            p.send(type="hint", move=p.move)
        thinkers = app.state.lobby.work.thinkers
        deadline = time.monotonic() + 10
        while slow_advisor.calls < thinkers and time.monotonic() < deadline:
            time.sleep(0.02)
        host = make(app, "/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]})
        friend = make(app, f"/api/tables/{host['code']}/join", {"name": "Bob"})
        a, b = player(app, host), player(app, friend)  # the match has begun: welcome shows it
        mover = a if a.my_turn() else b
        mover.act()
        index = mover.move
        got = mover.until(lambda m: m["type"] in ("update", "error"))  # the socket waits 30 s
        assert got["type"] == "update" and got["index"] == index
        assert slow_advisor.calls == thinkers  # the rest wait their turn, none refused
        slow_advisor.release.set()
        for p in askers:
            assert p.until(lambda m: m["type"] in ("hint", "error"))["type"] == "hint"


def test_one_seat_holds_few_connections_and_one_hint_at_a_time(
    tmp_path: Path, slow_advisor: SlowAdvisor
) -> None:
    """Eight connections with one seat token asking a hint a second each raised every other
    table's acknowledgements to seconds.  A seat may hold four connections (the others are
    refused and closed), and has one hint or review worked out at a time."""
    with real_server(tmp_path) as app:
        made = make(app, "/api/tables", {"level": "easy", "hints": True})
        held = [player(app, made) for _ in range(tables.SEAT_CONNECTIONS)]
        assert all(p.welcome["type"] == "welcome" for p in held)
        for _ in range(4):
            extra = player(app, made)
            assert extra.welcome["type"] == "error" and extra.welcome["code"] == "not-allowed"
            assert "open in 4 places" in extra.welcome["message"]
            with pytest.raises(ConnectionClosed):
                extra.recv()
            extra.close()
        first = held[0]
        until_my_turn(first)
        first.send(type="hint", move=first.move)
        deadline = time.monotonic() + 10
        while slow_advisor.calls < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        for p in held[1:]:
            until_my_turn(p)
            p.send(type="hint", move=p.move)
            refused = p.until(lambda m: m["type"] in ("hint", "error"))
            assert refused["code"] == "rate" and "still being worked out" in refused["message"]
        assert slow_advisor.calls == 1
        slow_advisor.release.set()
        assert first.until(lambda m: m["type"] in ("hint", "error"))["type"] == "hint"
        held[0].close()  # a place is free again
        again = player(app, made)
        assert again.welcome["type"] == "welcome"


# --- 4: connections ------------------------------------------------------------------------------
def test_a_websocket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with real_server(tmp_path, hello_seconds=0.5) as app:
        made = make(app, "/api/tables", {"level": "easy"})
        with connect(ws_url(app, made["code"])) as ws:
            t0 = time.monotonic()
            msg = json.loads(ws.recv(timeout=5))
            assert msg["code"] == "hello-first" and "within 0.5 s" in msg["message"]
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=5)
            assert time.monotonic() - t0 < 4
        p = player(app, made)  # saying hello in time is as before
        assert p.welcome["type"] == "welcome"


def test_websockets_per_address_are_bounded(tmp_path: Path) -> None:
    """237 idle WebSockets from one address once took every file a 256-file process had."""
    with real_server(tmp_path, ws_per_address=3) as app:
        made = make(app, "/api/tables", {"level": "easy"})
        held = [player(app, made) for _ in range(2)]
        idle = contextlib.ExitStack()
        idle.enter_context(connect(ws_url(app, made["code"])))  # no hello yet: it counts
        with connect(ws_url(app, made["code"])) as fourth:
            msg = json.loads(fourth.recv(timeout=5))
            assert msg == {
                "type": "error",
                "v": 1,
                "code": "not-allowed",
                "message": "too many connections from your address: close some first",
            }
            with pytest.raises(ConnectionClosed) as closed:
                fourth.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        idle.close()
        deadline = time.monotonic() + 5
        while app.state.sockets.count("127.0.0.1") > 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert player(app, made).welcome["type"] == "welcome"  # room again
        for p in held:
            p.close()


def test_a_slow_request_head_is_closed(tmp_path: Path) -> None:
    """A client that opens a connection and sends its request head a byte at a time (or
    nothing at all) is closed once the head is late; a whole request is answered as before."""
    with real_server(tmp_path, head_seconds=0.5) as app:
        port = app.state.port
        head = b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
        for start, trickle in ((b"", b""), (head, b"a")):
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                t0 = time.monotonic()
                s.sendall(start)
                for _ in range(3):  # a byte now and then, never the blank line
                    time.sleep(0.1)
                    with contextlib.suppress(OSError):
                        s.sendall(trickle)
                assert s.recv(4096) == b""  # closed by the server
                assert time.monotonic() - t0 < 4
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=5) as r:
            assert r.status == 200


def test_a_kept_alive_connection_is_not_cut_by_the_head_clock(tmp_path: Path) -> None:
    """Between requests an idle connection is uvicorn's to close (``--timeout-keep-alive``,
    5 s): the head clock (here 0.3 s) only times a request that has begun."""
    with real_server(tmp_path, head_seconds=0.3) as app:
        request = b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        with socket.create_connection(("127.0.0.1", app.state.port), timeout=5) as s:
            for _ in range(2):
                s.sendall(request)
                got = b""
                while b'"version"' not in got:
                    more = s.recv(65536)
                    assert more, "closed"
                    got += more
                assert got.startswith(b"HTTP/1.1 200")
                time.sleep(1.0)  # idle for over three head clocks, under the keep-alive


def test_serve_offers_uvicorns_own_limits() -> None:
    code, out = run_cli("serve", "--help")
    assert code == 0
    for option in ("--limit-concurrency", "--timeout-keep-alive", "--api-docs", "compression"):
        assert option in out
    settings = serving.config(object(), limit_concurrency=7, timeout_keep_alive=3)
    assert settings.limit_concurrency == 7 and settings.timeout_keep_alive == 3
    assert settings.ws_per_message_deflate
    assert not serving.config(object(), ws_compression=False).ws_per_message_deflate
    assert issubclass(settings.http, serving.GuardedHTTP)  # type: ignore[arg-type]


# --- 5: tables leave memory ------------------------------------------------------------------------
def test_tables_made_or_looked_at_but_never_connected_to_are_freed(client: TestClient) -> None:
    lobby = lobby_of(client)
    lobby.idle_seconds = 0.2
    made = new_table(client, level="easy")
    assert made["code"] in lobby.tables
    wait_for(lambda: made["code"] not in lobby.tables)
    assert client.get(f"/api/tables/{made['code']}").status_code == 200  # loaded again
    assert made["code"] in lobby.tables
    wait_for(lambda: made["code"] not in lobby.tables)
    p = Player(client, made["code"], made["token"])  # still stored: the game goes on
    assert p.welcome["type"] == "welcome" and p.welcome["view"] is not None


def test_a_table_with_someone_connected_stays(client: TestClient) -> None:
    lobby = lobby_of(client)
    lobby.idle_seconds = 0.1
    made = new_table(client, level="easy")
    p = Player(client, made["code"], made["token"])
    time.sleep(0.5)
    assert made["code"] in lobby.tables
    p.close()
    wait_for(lambda: made["code"] not in lobby.tables)


def wait_for(done: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.02)


# --- 6: the match's end survives a crash ----------------------------------------------------------
def finish_between_people(client: TestClient) -> str:
    """A classic match to 200 between two connected people, played to its end; its code."""
    host, friend = friends_table(client, rules="classic(target=200)")
    a = Player(client, host["code"], host["token"])
    b = Player(client, host["code"], friend["token"], seed=1)
    play_people([a, b])
    a.close()
    b.close()
    return str(host["code"])


def test_the_last_action_and_the_end_are_one_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last action and the status "over" were two transactions: a kill between them left a
    finished match "playing" and its record unreadable.  Here the second write never happens
    (as if the server died first), and the match is over all the same."""

    set_status = Store.set_status

    def killed(self: Store, code: str, status: str) -> None:
        if status == "over":
            raise RuntimeError("killed between the last action and the status")
        set_status(self, code, status)

    monkeypatch.setattr(Store, "set_status", killed)
    with app_client(tmp_path) as client:
        code = finish_between_people(client)
    monkeypatch.undo()
    store = Store(default_url(tmp_path))
    try:
        row = store.load(code)
        assert row is not None and row.status == "over"
    finally:
        store.close()
    with app_client(tmp_path) as client:
        assert client.get(f"/api/tables/{code}/record").status_code == 200


def test_a_log_that_ends_the_match_is_over_when_rebuilt(tmp_path: Path) -> None:
    """Data written before the fix: the match ended, the status still says "playing".  The
    table rebuilt from its log is over, the record can be read, and the store is corrected."""
    with app_client(tmp_path) as client:
        code = finish_between_people(client)
        client.app.state.store.set_status(code, "playing")
    with app_client(tmp_path) as client:
        info = client.get(f"/api/tables/{code}").json()
        assert info["status"] == "over"
        assert client.get(f"/api/tables/{code}/record").status_code == 200
        row = client.app.state.store.load(code)
        assert row.status == "over"


# --- 7: the smaller points --------------------------------------------------------------------------
def test_joins_and_leaves_are_told_in_one_message() -> None:
    """Every connection arriving or leaving sent every other connection a ``table`` message: a
    crowd of watchers cost a message to each for each.  Those within a moment are one."""

    async def go(tmp: str) -> list[int]:
        store = Store(default_url(tmp))
        lobby = Lobby(store, bot_delay=0)
        table, _seat, token = await lobby.create(
            Rules.preset("classic"), [{"kind": "me"}, {"kind": "open"}], "Ann", hints=False
        )
        host = Connection()
        await table.attach(host, token)
        await asyncio.sleep(0.3)
        counts = [told(host)]
        watchers = [Connection() for _ in range(10)]
        for w in watchers:
            await table.attach(w, None)
        await asyncio.sleep(0.3)
        counts.append(told(host))
        for w in watchers:
            table.detach(w)
        await asyncio.sleep(0.3)
        counts.append(told(host))
        lobby.close()
        store.close()
        return counts

    def told(conn: Connection) -> int:
        n = 0
        while not conn.queue.empty():
            text = conn.queue.get_nowait()
            n += text is not None and json.loads(text)["type"] == "table"
        return n

    with tempfile.TemporaryDirectory() as tmp:
        assert asyncio.run(go(tmp)) == [1, 1, 1]  # was 1, 10, 10


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("Ann\u202eevil", "Annevil"),  # right-to-left override
        ("B\u200bo\u200db\ufeff", "Bob"),  # zero-width space and joiner, byte order mark
        ("\u2066Cy\u2069", "Cy"),  # isolates
        ("\u200e\u200f", "Player"),  # marks only: nothing left
        ("Zoë 李", "Zoë 李"),  # letters of every script stay
    ],
)
def test_names_lose_direction_overrides_and_invisible_characters(
    client: TestClient, given: str, shown: str
) -> None:
    made = new_table(client, level="easy", name=given)
    assert made["table"]["seats"][0]["name"] == shown


def test_answers_forbid_framing_and_foreign_scripts(client: TestClient) -> None:
    for path in ("/", "/api/info", "/static/app.js"):
        r = client.get(path)
        assert r.status_code == 200
        assert r.headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
        assert "default-src 'self'" in r.headers["Content-Security-Policy"]
        assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_the_api_description_only_when_asked_for(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "a")) as c:
        for path in ("/openapi.json", "/redoc", "/docs"):
            assert c.get(path).status_code == 404
    with TestClient(create_app(tmp_path / "b", api_docs=True)) as c:
        assert c.get("/openapi.json").json()["info"]["title"] == "bezique"
        assert c.get("/redoc").status_code == 200


def test_rate_refusals_count_in_a_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """A connection was closed after 300 refusals over its whole life, however far apart; now
    only a flood (over 300 within a minute) closes it."""
    now = [0.0]
    monkeypatch.setattr("bezique.server.connection.time.monotonic", lambda: now[0])
    conn = Connection(rate=1.0, burst=1.0)
    for _minute in range(5):  # 250 refusals a minute, for five minutes
        for _ in range(250):
            conn.allow()
            now[0] += 0.001
        now[0] += 61.0
    assert not conn.closed and conn.allow()
    for _ in range(connection.MAX_REFUSED + 1):
        conn.allow()
    assert conn.closed


# --- 8: load ----------------------------------------------------------------------------------------
def test_tables_of_one_rule_set_share_it(client: TestClient) -> None:
    """The engine works out tables once per rule set (action ids: some 40 ms); a rule set per
    table made every new table cost that on the event loop.  Tables with equal rules share one
    rule set value, loaded again from the store too."""
    lobby = lobby_of(client)
    a = new_table(client, rules="classic(target=300)", level="easy")
    b = new_table(client, rules="classic(target=300)", level="easy")
    c = new_table(client, rules="rubicon", level="easy")
    assert lobby.tables[a["code"]].rules is lobby.tables[b["code"]].rules
    assert lobby.tables[c["code"]].rules is not lobby.tables[a["code"]].rules
    shared = lobby.tables[a["code"]].rules
    lobby.forget(lobby.tables[a["code"]])
    assert client.get(f"/api/tables/{a['code']}").status_code == 200
    assert lobby.tables[a["code"]].rules is shared


def test_the_points_beside_legal_actions_are_as_the_notation_says() -> None:
    """Plays and passes are told apart without parsing them (most legal actions, two views an
    action); every legal action's points still match its parsed notation."""
    rng = random.Random(3)
    seen = set()
    for preset in ("classic", "russian", "rubicon", "old-russian"):
        deal = Deal.new(Rules.preset(preset), seed=rng.randrange(1000))
        while not deal.is_over:
            for a in deal.legal_actions():
                text = str(a)
                parsed = Action.parse(text)
                want = None
                if parsed.verb == "exchange":
                    want = deal.rules.seven_of_trumps
                elif parsed.verb == "meld" and parsed.meld in MELD_BY_NAME:
                    want = meld_score(deal.rules, MELD_BY_NAME[parsed.meld].id)
                assert protocol.action_points(deal.rules, text) == want, text
                seen.add(parsed.verb)
            deal.apply(rng.choice(deal.legal_actions()))
    assert {"play", "meld", "pass"} <= seen
