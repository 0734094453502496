"""The server against a client on 127.0.0.1 that sends the worst it can: nested rules, forged
forwarding headers, any bot by name, long tables, guessable seeds, slow bodies, deep JSON."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
import urllib.error
import urllib.request
import warnings
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

with warnings.catch_warnings():  # starlette's note about its httpx transport
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bezique import Deal, Rules
from bezique.core import rules as rules_module
from bezique.core.match import Match
from bezique.core.records import record_match
from bezique.server import app as app_module
from bezique.server import create_app, room, tables
from bezique.server.storage import NEXT_DEAL
from helpers import run_cli
from server_helpers import (
    Player,
    app_client,
    close_all,
    make,
    new_table,
    play_vs_computer,
    played,
    real_server,
    ws_url,
)


def nested(depth: int) -> str:
    return "classic(deal_packets=" + "(" * depth + "3" + ")" * depth + ")"


def get_status(port: int, path: str, headers: dict[str, str] | None = None) -> int:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


# --- nested rules reach no handler as work on the event loop ------------------------------------
@pytest.mark.parametrize("depth", [400, 1000])
def test_nested_rules_to_every_endpoint_are_a_short_400(tmp_path: Path, depth: int) -> None:
    """Depth 400 to ``GET /api/rules`` froze the server for 1.2 s; depth 1,000 was a 500 with a
    220 KB traceback.  Each is a 400 whose detail is one short line, whatever the endpoint."""
    with app_client(tmp_path) as c:
        text = nested(depth)
        r = c.get("/api/rules", params={"rules": text})
        assert r.status_code == 400 and "nested deeper" in r.json()["detail"]
        assert len(r.json()["detail"]) < 200
        data = json.loads(record_match(played("classic(target=200)")).to_json())
        data["rules"] = text
        r = c.post("/api/replay", content=json.dumps(data).encode())
        assert r.status_code == 400 and len(r.json()["detail"]) < 400
        assert "(" * 80 not in r.json()["detail"]


def test_rules_from_clients_are_read_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading a client's rules (and records) runs in worker threads, never in the loop."""
    in_loop: list[bool] = []
    read = Rules.from_string.__func__  # type: ignore[attr-defined]

    def watched(cls: type[Rules], text: str) -> Rules:
        try:
            asyncio.get_running_loop()
            in_loop.append(True)
        except RuntimeError:
            in_loop.append(False)
        return read(cls, text)  # type: ignore[no-any-return]

    with app_client(tmp_path) as c:
        monkeypatch.setattr(Rules, "from_string", classmethod(watched))
        rules_module._PARSED.clear()
        assert c.get("/api/rules", params={"rules": "classic(target=700)"}).status_code == 200
        assert new_table(c, rules="classic(target=800)", level="easy")["code"]
        text = record_match(played("classic(target=200)")).to_json()
        assert c.post("/api/replay", content=text.encode()).status_code == 200
    assert in_loop and not any(in_loop)


# --- forwarded addresses --------------------------------------------------------------------------
def test_forwarded_for_is_trusted_only_from_named_proxies(tmp_path: Path) -> None:
    """A process on 127.0.0.1 sending ``X-Forwarded-For`` made each request look like another
    client: 40 of 40 went through a limit of 20.  The header counts only from the proxies the
    server is told of (none by default)."""
    limits: dict[str, Any] = {"http_rate": 0.001, "http_burst": 20, "ws_per_address": 3}
    with real_server(tmp_path / "a", **limits) as app:
        port = app.state.port
        got = [
            get_status(port, "/api/rules?rules=classic", {"X-Forwarded-For": f"10.1.{i}.7"})
            for i in range(40)
        ]
        assert got.count(200) == 20 and got.count(429) == 20
        with contextlib.ExitStack() as stack:
            held = [
                stack.enter_context(
                    connect(
                        ws_url(app, "abcdefgh"),
                        additional_headers={"X-Forwarded-For": f"10.2.{i}.1"},
                    )
                )
                for i in range(4)
            ]
            refused = json.loads(held[3].recv(timeout=5))
            assert refused["code"] == "not-allowed"
    with real_server(tmp_path / "b", forwarded=["127.0.0.1"], **limits) as app:
        port = app.state.port
        got = [
            get_status(port, "/api/rules?rules=classic", {"X-Forwarded-For": f"10.1.{i}.7"})
            for i in range(40)
        ]
        assert got.count(200) == 40  # a named proxy's header is believed: each its own client


def test_serve_takes_the_proxies_to_trust() -> None:
    from bezique.server import serving

    assert not serving.config(object()).proxy_headers  # nobody is trusted by default
    settings = serving.config(object(), forwarded_allow_ips=["10.0.0.5", "127.0.0.1"])
    assert settings.proxy_headers and settings.forwarded_allow_ips == ["10.0.0.5", "127.0.0.1"]
    code, out = run_cli("serve", "--help")
    assert code == 0 and "--forwarded-allow-ips" in out


# --- computer players: the levels only --------------------------------------------------------------
def test_only_the_five_levels_play_at_the_server(tmp_path: Path) -> None:
    """Any of the package's 54 bots could be seated by name (searches with no time limit among
    them).  The server seats the five levels only: as the quick game's level, as a seat, and
    as what it offers."""
    with app_client(tmp_path) as c:
        assert [x["name"] for x in c.get("/api/info").json()["levels"]] == tables.levels()
        for level in ("pimc", "ismcts", "random", "simple", "expert-c-lp"):
            r = c.post("/api/tables", json={"level": level})
            assert r.status_code == 400 and "unknown level" in r.json()["detail"], level
            seats = [{"kind": "me"}, {"kind": "bot", "level": level}]
            r = c.post("/api/tables", json={"seats": seats})
            assert r.status_code == 400 and "unknown level" in r.json()["detail"], level
        assert not c.app.state.lobby.tables
        for level in tables.levels():
            assert new_table(c, level=level)["table"]["seats"][1]["level"] == level


def test_a_stored_seat_with_another_bot_plays_as_the_default_level(tmp_path: Path) -> None:
    with app_client(tmp_path) as c:
        made = new_table(c, level="easy")
        table = c.app.state.lobby.tables[made["code"]]
        table.seats[1].level = "pimc"
        assert table._bot(1).name == tables.default_level()


# --- seeds ------------------------------------------------------------------------------------------
def test_seeds_are_independent_secrets(tmp_path: Path) -> None:
    """Bots were seeded with ``(table seed + 7919 * seat) mod 2^32``: their random choices gave
    away 32 bits of the deck's seed.  A bot's seed is now a secret of its own, and a table's
    seed has 128 bits."""
    with app_client(tmp_path) as c:
        lobby = c.app.state.lobby

        async def two() -> list[Any]:
            out = []
            for _ in range(2):
                t, _seat, _token = await lobby.create(
                    Rules.preset("classic"),
                    [{"kind": "me"}, {"kind": "bot", "level": "beginner"}],
                    "Ann",
                    hints=False,
                    seed=12345,
                )
                out.append(t)
            return out

        a, b = c.portal.call(two)
        assert a.seed == b.seed == 12345
        sa, sb = a._bot(1).seed, b._bot(1).seed
        assert sa != sb and sa != a.seed and sb != b.seed
        seeds = [new_table(c, level="beginner") for _ in range(6)]
        made = [lobby.tables[m["code"]] for m in seeds]
        assert max(t.seed.bit_length() for t in made) > 120  # 128 random bits, not 63
        assert max(t._bot(1).seed.bit_length() for t in made) > 120
        assert len({t._bot(1).seed for t in made}) == len(made)


def test_no_message_to_a_seat_carries_a_seed(tmp_path: Path) -> None:
    with app_client(tmp_path) as c:
        made = new_table(c, rules="classic(target=200)", level="beginner")
        table = c.app.state.lobby.tables[made["code"]]
        p = Player(c, made["code"], made["token"])
        texts: list[str] = []
        original = p.recv

        def keep() -> Any:
            msg = original()
            texts.append(json.dumps(msg))
            return msg

        p.recv = keep  # type: ignore[method-assign]
        for _ in range(8):
            while not p.my_turn():
                p.recv()
            p.act()
            p.until(lambda m: m["type"] == "update" and m["seat"] == p.seat)
        assert table.match is not None
        secrets_ = [table.seed, table._bot(1).seed, *table.match.deal_seeds]
        secrets_ += [s & 0xFFFFFFFF for s in secrets_]
        for text in texts:
            for s in secrets_:
                assert str(s) not in text
        p.close()


# --- replays, JSON, bodies, lookups -------------------------------------------------------------------
def test_deep_json_to_the_replay_upload_is_a_clear_400(client: TestClient) -> None:
    """Deeply nested JSON to ``POST /api/replay`` raised RecursionError: a 500 and a traceback."""
    for body in (b"[" * 100_000, b'{"deals":' * 50_000, b'{"format":' + b"[" * 200_000):
        r = client.post("/api/replay", content=body)
        assert r.status_code == 400, r.text[:200]
        assert "nested too deeply" in r.json()["detail"]


def test_replay_pages_read_a_record_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each page of an uploaded record re-read and re-replayed the whole record (1.4-2 s for a
    279 KiB record).  The pages of one record read it once."""
    from bezique.core.records import GameRecord

    text = record_match(played("classic(target=3000)", seed=9)).to_json().encode()
    reads = [0]
    original = GameRecord.from_json.__func__  # type: ignore[attr-defined]

    def counted(cls: type[GameRecord], body: Any) -> GameRecord:
        reads[0] += 1
        return original(cls, body)  # type: ignore[no-any-return]

    monkeypatch.setattr(GameRecord, "from_json", classmethod(counted))
    monkeypatch.setattr(app_module, "PAGE_STEPS", 200)
    deal: int | None = 0
    pages = 0
    while deal is not None:
        r = client.post(f"/api/replay?deal={deal}", content=text)
        assert r.status_code == 200
        deal = r.json()["next_deal"]
        pages += 1
    assert pages > 2 and reads[0] == 1


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with app_client(tmp_path) as c:
        yield c


def test_a_slow_body_is_cut_off(tmp_path: Path) -> None:
    """Twenty connections sending their bodies a byte at a time were held past 65 s each."""
    with real_server(tmp_path, body_seconds=0.5) as app:
        port = app.state.port
        head = (
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n"
        )
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            t0 = time.monotonic()
            s.sendall(head + b'{"level":')
            got = b""
            try:
                while chunk := s.recv(4096):
                    got += chunk
                    if time.monotonic() - t0 > 8:
                        break
            except OSError:
                pass
            assert time.monotonic() - t0 < 6
            assert got.startswith(b"HTTP/1.1 408")
        assert make(app, "/api/tables", {"level": "easy"})["code"]  # a whole body as before


def test_table_lookups_and_hellos_are_rate_limited(tmp_path: Path) -> None:
    """``GET /api/tables/{code}`` answered 1,817 guesses a second; hellos (each may load a table
    from the store) were not limited at all."""
    app = create_app(tmp_path, bot_delay=0, lookup_rate=0.001, lookup_burst=5)
    with TestClient(app) as c:
        got = [c.get(f"/api/tables/abcdefg{i}").status_code for i in range(8)]
        assert got == [404] * 5 + [429] * 3
    app = create_app(tmp_path, bot_delay=0, lookup_rate=0.001, lookup_burst=3)
    with TestClient(app) as c:
        made = c.post("/api/tables", json={"level": "easy"}).json()
        seen = []
        for _ in range(5):
            with c.websocket_connect(f"/ws/{made['code']}") as ws:
                ws.send_text(json.dumps({"type": "hello", "v": 1, "token": None}))
                seen.append(json.loads(ws.receive_text()))
        assert [m["type"] for m in seen] == ["welcome"] * 3 + ["error"] * 2
        assert seen[-1]["code"] == "rate"
    close_all()


def test_the_lookup_limit_is_set_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A load test from one address (or a proxy not yet trusted) needs the look-up limit raised
    as the other limits are: ``BEZIQUE_LOOKUP_RATE`` and ``BEZIQUE_LOOKUP_BURST``."""
    monkeypatch.setenv("BEZIQUE_LOOKUP_RATE", "0.001")
    monkeypatch.setenv("BEZIQUE_LOOKUP_BURST", "2")
    with TestClient(create_app(tmp_path, bot_delay=0)) as c:
        got = [c.get(f"/api/tables/abcdefg{i}").status_code for i in range(4)]
    assert got == [404] * 2 + [429] * 2
    close_all()


def test_the_rules_cache_is_keyed_by_digest(client: Any) -> None:
    lobby = client.app.state.lobby
    long_text = "classic(" + ",".join(["target=1000"] * 300) + ")"
    lobby.rules_for(long_text)
    assert all(len(k) <= 64 for k in lobby._rules)


# --- long tables ----------------------------------------------------------------------------------------
def test_the_server_bounds_a_match(client: TestClient) -> None:
    """A target of 1,000,000 was allowed: a table's log had no bound."""
    r = client.post("/api/tables", json={"rules": "classic(target=1000000)", "level": "easy"})
    assert r.status_code == 400 and f"at most {tables.MAX_TARGET}" in r.json()["detail"]
    assert new_table(client, rules=f"classic(target={tables.MAX_TARGET})", level="easy")


def test_a_table_is_loaded_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 19,877-action table took 0.95 s of the event loop to load, on each hello."""
    in_loop: list[bool] = []
    original = tables.replay_log

    def watched(*args: Any) -> Any:
        try:
            asyncio.get_running_loop()
            in_loop.append(True)
        except RuntimeError:
            in_loop.append(False)
        return original(*args)

    with app_client(tmp_path) as c:
        made = new_table(c, rules="classic(target=300)", level="beginner")
        p = Player(c, made["code"], made["token"])
        for _ in range(10):
            while not p.my_turn():
                p.recv()
            p.act()
            p.until(lambda m: m["type"] == "update" and m["seat"] == p.seat)
        while not p.my_turn():  # the computer has answered: nothing moves while the seat is away
            p.recv()
        p.close()
        lobby = c.app.state.lobby
        table = lobby.tables[made["code"]]
        moves = table.moves
        lobby.forget(table)
        monkeypatch.setattr(tables, "replay_log", watched)
        monkeypatch.setattr(room, "replay_log", watched)
        again = Player(c, made["code"], made["token"])
        assert again.welcome["type"] == "welcome" and again.welcome["move"] == moves >= 10
        again.close()
    assert in_loop == [False]


def test_the_log_replayed_in_a_worker_gives_the_match_played() -> None:
    """The log replayed in a worker gives the same match as played."""
    match = played("classic(target=300)")
    actions: list[Any] = []
    for i, d in enumerate(match.deals):
        if i:
            actions.append(NEXT_DEAL)
        actions.extend(d.history)
    assert match.seed is not None
    rebuilt, moves = tables.replay_log(match.rules, match.seed, None, actions)
    assert moves == sum(len(d.history) for d in match.deals)
    assert rebuilt.scores == match.scores and rebuilt.winner == match.winner
    assert isinstance(rebuilt, Match)


def log_of(match: Match, deals: int) -> list[str]:
    """A table's log for the first ``deals`` deals of ``match``."""
    actions: list[str] = []
    for i, d in enumerate(match.deals[:deals]):
        if i:
            actions.append(NEXT_DEAL)
        actions.extend(d.history)
    return actions


def applied_while(monkeypatch: pytest.MonkeyPatch, counts: list[int]) -> None:
    """Count every action applied to any deal from now on (into ``counts``)."""
    original = Deal.apply

    def counted(self: Deal, action: Any) -> None:
        counts.append(1)
        original(self, action)

    monkeypatch.setattr(Deal, "apply", counted)


def test_the_log_with_the_kept_outcomes_replays_only_the_current_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 19,877-action table was replayed whole on each load: with the finished deals' outcomes
    only the current deal's actions are applied, and the match is the one played."""
    match = played("classic(target=2000)")
    assert match.seed is not None and len(match.deals) >= 4
    k = len(match.deals) - 1
    actions = log_of(match, k + 1)
    outcomes = {i: json.loads(json.dumps(p.outcome())) for i, p in enumerate(match.finished[:k])}
    counts: list[int] = []
    applied_while(monkeypatch, counts)
    rebuilt, moves = tables.replay_log(match.rules, match.seed, None, actions, outcomes)
    assert len(counts) == len(match.deal.history)
    assert moves == sum(len(d.history) for d in match.deals)
    assert record_match(rebuilt) == record_match(match)
    assert rebuilt.scores == match.scores and rebuilt.winner == match.winner


@pytest.mark.parametrize("spoil", ["missing", "another seed", "not a dict"])
def test_kept_outcomes_that_do_not_fit_the_log_mean_the_log_replayed(spoil: str) -> None:
    """The outcomes are a cache of the log: a missing one, or one of another deal, and the
    whole log is replayed instead, giving the match played."""
    match = played("classic(target=2000)")
    assert match.seed is not None
    k = len(match.deals) - 1
    outcomes: dict[int, Any] = {i: p.outcome() for i, p in enumerate(match.finished[:k])}
    if spoil == "missing":
        del outcomes[1]
    elif spoil == "another seed":
        outcomes[1]["seed"] += 1
    else:
        outcomes[0] = ["not", "an", "outcome"]
    rebuilt, _ = tables.replay_log(match.rules, match.seed, None, log_of(match, k + 1), outcomes)
    assert record_match(rebuilt) == record_match(match)
    assert [d.history for d in rebuilt.deals] == [d.history for d in match.deals]


def test_a_table_reloaded_replays_only_its_current_deal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server keeps each finished deal's outcome as the next deal starts; a table loaded
    again (after it left memory, or on another node) applies only the current deal's actions,
    and its players see the match as it was."""
    with app_client(tmp_path) as c:
        made = new_table(c, rules="classic(target=3000)", level="beginner")
        p = Player(c, made["code"], made["token"])
        last = play_vs_computer(p, deals=3)
        before = last["match"]
        p.close()
        lobby = c.app.state.lobby
        table = lobby.tables[made["code"]]
        assert table.match is not None
        current = len(table.match.deal.history)
        lobby.forget(table)
        assert set(lobby.store.load(made["code"]).outcomes) == {0, 1}
        counts: list[int] = []
        applied_while(monkeypatch, counts)
        again = Player(c, made["code"], made["token"])
        assert len(counts) == current
        assert again.welcome["type"] == "welcome"
        assert again.latest is not None and again.latest["match"] == before
        again.close()
