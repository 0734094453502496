"""Helpers for the server tests: a player speaking the protocol through the ASGI test client
or a real WebSocket (:class:`Player`), a check of every server message against the published
JSON Schema, tables made and matches played through the API, matches played or replayed
without a server (:func:`played`, :func:`replayed`), the app under a test client
(:func:`app_client`) and under uvicorn on 127.0.0.1 in a thread of this process
(:func:`real_server`, so that a test can reach into it), and ``bezique serve --nodes N``, a
cluster of nodes with HAProxy and a PostgreSQL of its own, started as a process
(:func:`launched`).

``bezique serve`` as a single process of its own (:func:`helpers.start`) is in helpers.py."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import uvicorn

import bezique.server
from bezique import Rules
from bezique.core.match import Match
from bezique.server import create_app, serving
from helpers import free_port, post, random_match

SCHEMA_PATH = Path(bezique.server.__file__).parent / "protocol.schema.json"
Message = dict[str, Any]


@cache
def _validators(side: str) -> dict[str, jsonschema.Draft202012Validator]:
    """A validator per message type (the schema's ``oneOf`` alternatives are titled by type)."""
    schema = json.loads(SCHEMA_PATH.read_text())
    return {
        alt["title"]: jsonschema.Draft202012Validator({**schema, "$ref": f"#/{side}/oneOf/{i}"})
        for i, alt in enumerate(schema[side]["oneOf"])
    }


def check_server(msg: Message) -> None:
    """A server message must match the documented shape of its type."""
    validators = _validators("server")
    assert msg.get("type") in validators, msg
    validators[msg["type"]].validate(msg)


def check_client(msg: Message) -> None:
    validators = _validators("client")
    assert msg.get("type") in validators, msg
    validators[msg["type"]].validate(msg)


SAMPLE = 10
"""Every message of a type new to a connection is checked against the schema, then one in
SAMPLE (the check is slow next to the game)."""


def hello(token: str | None) -> str:
    return json.dumps({"type": "hello", "v": 1, "token": token})


OPEN: list[Player] = []
"""Connections still open (closed by the test fixtures, so a failed test does not hang)."""


def new_table(client: Any, **body: Any) -> dict[str, Any]:
    """``POST /api/tables`` through a test client: the answer (code, seat, token, table)."""
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def friends_table(client: Any, rules: str = "classic", seats: int = 2) -> list[dict[str, Any]]:
    """A table for people: the host and a friend per other seat; their seats and tokens."""
    host = new_table(
        client,
        rules=rules,
        name="Ann",
        seats=[{"kind": "me"}] + [{"kind": "open"}] * (seats - 1),
    )
    out = [host]
    for i in range(1, seats):
        r = client.post(f"/api/tables/{host['code']}/join", json={"name": f"Friend {i}"})
        assert r.status_code == 200, r.text
        out.append(r.json())
    return out


def lobby(client: Any) -> Any:
    """The app's lobby (its tables in memory)."""
    return client.app.state.lobby


class Player:
    """One WebSocket connection through a Starlette test client; records every message."""

    def __init__(
        self, client: Any, code: str, token: str | None, *, seed: int = 0, url: str | None = None
    ) -> None:
        """Through a test ``client``, or (``url`` given) a real WebSocket to a server."""
        self.cm = _Real(url) if url is not None else client.websocket_connect(f"/ws/{code}")
        self.closed = False
        OPEN.append(self)
        self.ws: Any = self.cm.__enter__()
        self.token = token
        self.received: list[Message] = []
        self.types: set[Any] = set()
        self.latest: Message | None = None
        self.rng = random.Random(seed)
        self.acted: set[int] = set()
        self.readied: set[int] = set()
        self.send_raw(hello(token))
        self.welcome = self.until(lambda m: m["type"] in ("welcome", "error"))
        self.seat: int | None = self.welcome.get("seat")

    def send(self, **msg: Any) -> None:
        msg = {"v": 1, **msg}
        self.ws.send_text(json.dumps(msg))

    def send_raw(self, text: str) -> None:
        self.ws.send_text(text)

    def recv(self) -> Message:
        msg: Message = json.loads(self.ws.receive_text())
        if msg.get("type") not in self.types or len(self.received) % SAMPLE == 0:
            self.types.add(msg.get("type"))
            check_server(msg)
        self.received.append(msg)
        if msg.get("view") is not None:
            self.latest = msg
        return msg

    def until(self, pred: Callable[[Message], bool], limit: int = 10_000) -> Message:
        for _ in range(limit):
            msg = self.recv()
            if pred(msg):
                return msg
        raise AssertionError("message never came")

    def error(self) -> Message:
        return self.until(lambda m: m["type"] == "error")

    @property
    def view(self) -> Message:
        assert self.latest is not None
        return self.latest["view"]  # type: ignore[no-any-return]

    @property
    def move(self) -> int:
        assert self.latest is not None
        return int(self.latest["move"])

    def my_turn(self) -> bool:
        v = self.latest and self.latest["view"]
        return bool(v and v["phase"] != "over" and v["to_move"] == self.seat)

    def act(self, choose: Callable[[list[str]], str] | None = None) -> str:
        actions = [a["action"] for a in self.view["legal"]]
        action = choose(actions) if choose else self.rng.choice(actions)
        self.send(type="action", move=self.move, action=action)
        return action

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.cm.__exit__(None, None, None)


class _Real:
    """A real WebSocket (the ``websockets`` library) shaped like the test client's."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.cm = connect(url, max_size=2**22, open_timeout=10)
        self.conn = self.cm.__enter__()

    def __enter__(self) -> _Real:
        return self

    def send_text(self, text: str) -> None:
        self.conn.send(text)

    def receive_text(self) -> str:
        data = self.conn.recv(timeout=30)
        assert isinstance(data, str)
        return data

    def __exit__(self, *exc: object) -> None:
        self.cm.__exit__(None, None, None)


def close_all() -> None:
    while OPEN:
        OPEN.pop().close()


@contextmanager
def app_client(
    data: Path | None = None, *, database_url: str | None = None, takeover_seconds: float = 600
) -> Iterator[Any]:
    """The app (storage in ``data`` or at ``database_url``) through a test client, with the
    message limits lifted and quick computer players; every player closed on leaving."""
    from fastapi.testclient import TestClient

    app = create_app(
        data,
        database_url=database_url,
        bot_delay=0,
        takeover_seconds=takeover_seconds,
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


def replayed(rules: str, seed: int, actions: list[str]) -> Match:
    """The match those actions make, played without a break."""
    match = Match(Rules.from_string(rules), seed=seed)
    it = iter(actions)
    while match.winner is None:
        if match.deal.is_over:
            match.next_deal()
        else:
            match.deal.apply(next(it))
    assert next(it, None) is None
    return match


def play_vs_computer(player: Player, hints_every: int = 0, deals: int = 1000) -> Message:
    """Play against server bots: act when it is this seat's turn, say ready after each deal;
    returns the last message once the match is decided or ``deals`` deals are over."""
    assert player.latest is not None
    msg = player.latest
    count = 0
    while True:
        match = msg.get("match")
        if (
            match is not None
            and msg["view"]["phase"] == "over"
            and (match["winner"] is not None or len(match["deals"]) >= deals)
        ):
            return msg
        if msg.get("view") is not None and msg is player.latest:
            view = msg["view"]
            if view["phase"] == "over":
                assert match is not None
                if match["deal"] not in player.readied:
                    player.readied.add(match["deal"])
                    player.send(type="ready", deal=match["deal"])
            elif player.my_turn() and player.move not in player.acted:
                player.acted.add(player.move)
                count += 1
                if hints_every and count % hints_every == 0:
                    player.send(type="hint", move=player.move)
                player.act()
        msg = player.recv()


def play_people(
    players: list[Player],
    watchers: Sequence[Player] = (),
    stop_after: int | None = None,
) -> list[str]:
    """Play a match between connected people, in lockstep: whoever is to move acts, then
    every connection reads up to that action's update.  Stops when the match is decided (or
    ``stop_after`` actions have been played); returns the actions sent."""
    everyone = [*players, *watchers]
    sent: list[str] = []
    while True:
        ref = players[0]
        if stop_after is not None and ref.move >= stop_after:
            return sent
        assert ref.latest is not None
        match = ref.latest["match"]
        view = ref.view
        if view["phase"] == "over":
            if match["winner"] is not None:
                return sent
            deal = match["deal"]
            for p in players:
                p.send(type="ready", deal=deal)

            def next_deal_or_end(m: Message, d: int = deal) -> bool:
                return m["type"] == "state" and (
                    m["match"]["deal"] > d or m["match"]["winner"] is not None
                )

            for p in everyone:
                p.until(next_deal_or_end)
            continue
        mover = next(p for p in players if p.seat == view["to_move"])
        sent.append(mover.act())
        index = ref.move

        def update_of(m: Message, i: int = index) -> bool:
            return bool(m["type"] == "update" and m["index"] == i)

        for p in everyone:
            p.until(update_of)


def played(rules: str, seed: int = 5) -> Match:
    """A whole match between random players."""
    return random_match(Rules.from_string(rules), seed)


@contextmanager
def real_server(
    tmp_path: Path,
    head_seconds: float = 10.0,
    forwarded: list[str] | None = None,
    **options: Any,
) -> Iterator[Any]:
    """``create_app`` under uvicorn with the settings ``bezique serve`` uses, listening on
    127.0.0.1 in a thread of this process; yields the app (``app.state.port``: its port).
    ``forwarded``: the proxies whose ``X-Forwarded-For`` is believed."""
    settings: dict[str, Any] = {
        "bot_delay": 0,
        "takeover_seconds": 600,
        "rate": 1000,
        "burst": 1000,
        "http_rate": 1000,
        "http_burst": 1000,
        "hint_level": "medium",
        "review_level": "medium",
        **options,
    }
    app = create_app(tmp_path, **settings)
    port = free_port()
    server = uvicorn.Server(
        serving.config(
            app, "127.0.0.1", port, head_seconds=head_seconds, forwarded_allow_ips=forwarded
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    app.state.port = port
    try:
        yield app
    finally:
        close_all()
        server.should_exit = True
        thread.join(20)


def ws_url(app: Any, code: str) -> str:
    """The WebSocket address of a table of a :func:`real_server`."""
    return f"ws://127.0.0.1:{app.state.port}/ws/{code}"


def make(app: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` to a :func:`real_server`; its JSON answer."""
    return post(app.state.port, path, body)


@dataclass
class Launched:
    """A running cluster: the command, its folder, the proxy's address and the state it wrote
    (``cluster.json``: the nodes, the proxy and the database)."""

    proc: subprocess.Popen[bytes]
    data: Path
    base: str
    state: dict[str, Any]


@contextlib.contextmanager
def launched(nodes: int, bot_delay: str = "0") -> Iterator[Launched]:
    """``bezique serve --nodes N`` in a folder of its own (outside pytest's, which the
    ``postgres`` user, who runs the database as root, could not reach); stopped after."""
    data = Path(tempfile.mkdtemp(prefix="bezique-cluster-"))
    os.chmod(data, 0o755)
    port = free_port()
    env = {
        **os.environ,
        "BEZIQUE_BOT_DELAY": bot_delay,
        "BEZIQUE_TAKEOVER_SECONDS": "600",
        "BEZIQUE_RATE": "1000",
        "BEZIQUE_HTTP_RATE": "1000",  # every table is made from this one address
        "BEZIQUE_HTTP_BURST": "1000",
        "BEZIQUE_WS_PER_ADDRESS": "10000",
        "BEZIQUE_LOOKUP_RATE": "10000",  # every client says hello from this one address
        "BEZIQUE_LOOKUP_BURST": "10000",
    }
    env.pop("BEZIQUE_DATABASE_URL", None)
    cmd = [sys.executable, "-m", "bezique.cli", "serve", "--nodes", str(nodes), "--port", str(port)]
    proc = subprocess.Popen(
        [*cmd, "--data", str(data)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    state_file = data / "cluster.json"
    try:
        deadline = time.monotonic() + 120
        while not state_file.exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                out = proc.stdout.read().decode() if proc.stdout else ""
                pytest.fail(f"the cluster did not start:\n{out}", pytrace=False)
            time.sleep(0.2)
        time.sleep(0.2)  # written whole just after it appears
        state = json.loads(state_file.read_text())
        yield Launched(proc, data, f"http://127.0.0.1:{port}", state)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)  # the command stops every part it started
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
        # whatever is left of a failed run (the command was killed): by the ids it wrote
        if state_file.exists():
            left = json.loads(state_file.read_text())
            for pid in [left["proxy"]["pid"], *(n["pid"] for n in left["nodes"])]:
                if pid:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
        postmaster = data / "postgres" / "data" / "postmaster.pid"
        if postmaster.exists():  # the database too (SIGQUIT: PostgreSQL's immediate stop)
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(postmaster.read_text().split()[0]), signal.SIGQUIT)
        shutil.rmtree(data, ignore_errors=True)
