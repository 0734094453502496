"""The ASGI application: the static client, a small JSON API to make and join tables, and the
WebSocket each client plays through (``/ws/{code}``)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import re
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__, bots
from ..core.games import next_handicap
from ..core.match import Match
from ..core.melds import MELDS, meld_score
from ..core.records import GameRecord, RecordError, record_match
from ..core.rules import Rules
from .lease import Elsewhere, Leases, attach
from .limits import (
    BODY_SECONDS,
    HELLO_SECONDS,
    HTTP_BURST,
    HTTP_RATE,
    LOOKUP_BURST,
    LOOKUP_RATE,
    SECURITY_HEADERS,
    WS_PER_ADDRESS,
    AddressCount,
    AddressLimit,
    BodyLimit,
    TooLarge,
    retry_after,
)
from .online import Online, add_routes
from .protocol import MAX_NAME, ProtocolError, clean_name, dumps, error, parse_client
from .replay import PAGE_STEPS, ReplayError, record_actions, replay_steps
from .room import Lobby
from .seatlinks import add_routes as seat_link_routes
from .storage import Store, default_url
from .tables import BURST, RATE, Connection, Table, default_level, levels
from .tutorial import add_routes as tutorial_routes

WEB = Path(__file__).resolve().parent.parent / "web"
SCHEMA = Path(__file__).resolve().parent / "protocol.schema.json"
MAX_BODY = 512 * 1024
"""Largest HTTP request body (an uploaded record for the replay view), whether its size is
given (``Content-Length``) or not (a chunked upload, counted as it arrives)."""
LIMITED = re.compile(
    r"/api/tables|/api/tables/[^/]+/(?:join|next-match)|/api/replay|/api/quick|/api/players"
    r"|/api/tables/[^/]+/(?:seat-link|claim)|/api/my-games|/api/tutorial"
)
"""The POST requests under the per-address rate limit: they make tables, seats, replays,
quick-match entries, player identities, seat links and guided deals."""
TOO_MANY_SOCKETS = "too many connections from your address: close some first"
LIMITED_GET = re.compile(r"/api/rules|/api/tables/[^/]+/replay")
"""The GET requests under the same limit: each builds a rule set or replays a whole game."""
LOOKUP = re.compile(r"/api/tables/[^/]+")
"""The GET requests under the look-up limit (which hellos share): a table by its code."""
READERS = 4
"""Texts from clients (rules, records) read at once, in worker threads: the rest queue."""
CACHED_RECORDS = 8
"""Uploaded records kept read, by the digest of their bytes (the pages of one record read it
once), and answers kept (by record and page) eight times as many, each as the JSON sent: a page
of 2,000 steps as its values is some 13,000 objects and 1.5 MiB, which every full garbage
collection (stopping every thread, the event loop's too) would scan, 64 of them for 0.4 s."""


class SeatChoice(BaseModel):
    kind: str = Field(pattern="^(me|open|bot)$")
    level: str | None = Field(default=None, max_length=32)


class CreateTable(BaseModel):
    rules: str = Field(default="classic", max_length=400)
    seats: list[SeatChoice] | None = Field(default=None, max_length=4)
    level: str | None = Field(default=None, max_length=32)
    """Shortcut for a game against the computer: every other seat this level."""
    name: str = Field(default="", max_length=200)
    seat: int = Field(default=0, ge=0, le=3)
    hints: bool | None = None
    public: bool = False
    """Listed in the lobby (else the table is found by its link only)."""
    rated: bool = False
    """The finished match moves the players' ratings (every person needs an identity)."""
    key: str | None = Field(default=None, max_length=200)
    """The maker's player key, if they have an identity."""


class JoinTable(BaseModel):
    name: str = Field(default="", max_length=200)
    key: str | None = Field(default=None, max_length=200)


class NextMatch(BaseModel):
    token: str = Field(max_length=200)
    """The seat's token at the finished table: only its players may start the next match."""


def _rules(text: str) -> Rules:
    try:
        return Rules.from_string(text)
    except (ValueError, TypeError) as e:
        raise HTTPException(400, f"bad rules: {e}") from None


def _read_record(body: bytes) -> GameRecord:
    """An uploaded record read and checked (in a worker thread: it replays the game), or a 400."""
    try:
        record_actions(body)  # a record too long is refused before it is replayed at all
        rec = GameRecord.from_json(body)
    except (RecordError, ReplayError) as e:
        raise HTTPException(400, str(e)) from None
    try:
        rec.to_json().encode("utf-8")
    except UnicodeEncodeError:
        raise HTTPException(400, "a record's text must be valid Unicode") from None
    return rec


def _page(record: GameRecord, deal: int) -> bytes:
    """A page of a record's replay as the JSON sent (in a worker thread: it replays the game)."""
    page = replay_steps(record, deal, PAGE_STEPS)
    return json.dumps(page, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def presets() -> list[dict[str, Any]]:
    """Each preset with the numbers of players it can seat (its own number first) and the
    target it plays to."""
    out = []
    for name in Rules.presets():
        default = Rules.preset(name).players
        counts: list[int] = [default]
        for n in (2, 3, 4):
            if n == default:
                continue
            try:
                if Rules.preset(name, players=n).players == n:
                    counts.append(n)
            except (ValueError, TypeError):
                pass
        out.append({"name": name, "players": counts, "target": Rules.preset(name).target})
    return out


def rules_facts(rules: Rules) -> dict[str, Any]:
    """The facts of a rule set for the rules page: every option's value, meaning and range
    (``[lowest, highest]`` for a number, else null), and the melds that score."""
    docs = Rules.option_docs()
    melds = []
    for m in MELDS:
        try:
            points = meld_score(rules, m.id)
        except AttributeError:
            continue
        if points > 0 and m.name != "seven":
            melds.append({"name": m.name, "points": points})
    return {
        "rules": str(rules),
        "preset": rules.name,
        "players": rules.players,
        "packs": rules.packs,
        "hand_size": rules.hand_size,
        "tricks": rules.tricks,
        "melds": melds,
        "options": [
            {
                "name": k,
                "value": _plain(getattr(rules, k)),
                "doc": docs[k],
                "range": _plain(Rules.option_range(k)),
            }
            for k in docs
        ],
    }


def _plain(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


def printable(value: Any) -> Any:
    """JSON values with every string writable as UTF-8: a lone surrogate (which JSON's
    ``\\ud800`` escapes give) becomes the text of its escape."""
    if isinstance(value, str):
        return value if value.isascii() else value.encode("utf-8", "backslashreplace").decode()
    if isinstance(value, dict):
        return {printable(k): printable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [printable(v) for v in value]
    return value


def validation_errors(exc: RequestValidationError) -> list[dict[str, Any]]:
    """What was wrong with a request, for its answer: where and what, without the input
    (which may be anything, unwritable text among it)."""
    out = []
    for e in exc.errors():
        loc = [x if isinstance(x, int) else str(x) for x in e.get("loc", ())]
        out.append({"loc": loc, "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))})
    return list(printable(out))


def create_app(
    data: str | os.PathLike[str] | None = None,
    database_url: str | None = None,
    *,
    bot_delay: float | None = None,
    takeover_seconds: float | None = None,
    rate: float | None = None,
    burst: float | None = None,
    http_rate: float | None = None,
    http_burst: float | None = None,
    hint_level: str | None = None,
    review_level: str | None = None,
    hello_seconds: float | None = None,
    ws_per_address: int | None = None,
    api_docs: bool | None = None,
    node: str | None = None,
    lookup_rate: float | None = None,
    lookup_burst: float | None = None,
    body_seconds: float = BODY_SECONDS,
) -> FastAPI:
    """The server.  Storage: ``database_url``, else ``BEZIQUE_DATABASE_URL``, else an SQLite
    file in ``data`` (default ``./bezique-data``).

    ``bot_delay``: seconds the computer waits before each move (default
    ``BEZIQUE_BOT_DELAY`` or 0.4); ``takeover_seconds``: how long a person may be away before
    the computer plays for them (default ``BEZIQUE_TAKEOVER_SECONDS`` or 30); ``rate`` and
    ``burst``: the messages a second a connection may send, and in a burst (default
    ``BEZIQUE_RATE`` or 10, and three times the rate); ``http_rate`` and ``http_burst``: the
    requests a second a client address may make to create or join tables and upload records,
    and in a burst (default ``BEZIQUE_HTTP_RATE`` or 1, ``BEZIQUE_HTTP_BURST`` or 20);
    ``hello_seconds``: how long a new WebSocket may take to say hello (default
    ``BEZIQUE_HELLO_SECONDS`` or 10); ``ws_per_address``: the WebSockets one client address may
    hold open (default ``BEZIQUE_WS_PER_ADDRESS`` or 64); ``api_docs``: serve ``/openapi.json``
    and ``/redoc`` (default ``BEZIQUE_API_DOCS``, else off); ``node``: this server's name as
    one node of several sharing a PostgreSQL database (``cluster.py``; default
    ``BEZIQUE_NODE``, else a server on its own); ``lookup_rate`` and ``lookup_burst``: the
    table look-ups and WebSocket hellos a second an address may make, and in a burst (default
    ``BEZIQUE_LOOKUP_RATE`` or 10, ``BEZIQUE_LOOKUP_BURST`` or 60);
    ``body_seconds``: how long a request body may take to arrive.
    """
    if rate is None:
        rate = float(os.environ.get("BEZIQUE_RATE", str(RATE)))
    if burst is None:
        burst = 3 * rate if "BEZIQUE_RATE" in os.environ else BURST
    if http_rate is None:
        http_rate = float(os.environ.get("BEZIQUE_HTTP_RATE", str(HTTP_RATE)))
    if http_burst is None:
        http_burst = float(os.environ.get("BEZIQUE_HTTP_BURST", str(HTTP_BURST)))
    http_limit = AddressLimit(http_rate, http_burst)
    if lookup_rate is None:
        lookup_rate = float(os.environ.get("BEZIQUE_LOOKUP_RATE", str(LOOKUP_RATE)))
    if lookup_burst is None:
        lookup_burst = float(os.environ.get("BEZIQUE_LOOKUP_BURST", str(LOOKUP_BURST)))
    lookups = AddressLimit(lookup_rate, lookup_burst)
    if hello_seconds is None:
        hello_seconds = float(os.environ.get("BEZIQUE_HELLO_SECONDS", str(HELLO_SECONDS)))
    if ws_per_address is None:
        ws_per_address = int(os.environ.get("BEZIQUE_WS_PER_ADDRESS", str(WS_PER_ADDRESS)))
    sockets = AddressCount(ws_per_address)
    if api_docs is None:
        api_docs = os.environ.get("BEZIQUE_API_DOCS", "") not in ("", "0", "false", "no")
    if bot_delay is None:
        bot_delay = float(os.environ.get("BEZIQUE_BOT_DELAY", "0.4"))
    if takeover_seconds is None:
        takeover_seconds = float(os.environ.get("BEZIQUE_TAKEOVER_SECONDS", "30"))
    url = (
        database_url
        or os.environ.get("BEZIQUE_DATABASE_URL")
        or default_url(data if data is not None else "bezique-data")
    )
    store = Store(url)
    lobby = Lobby(
        store,
        bot_delay=bot_delay,
        takeover_seconds=takeover_seconds,
        rate=rate,
        burst=burst,
        hint_level=hint_level,
        review_level=review_level,
    )

    leases = _leases(store, lobby, node if node is not None else os.environ.get("BEZIQUE_NODE"))

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if leases is not None:
            await leases.start()
        yield
        lobby.close()
        if leases is not None:
            await leases.close()
        store.close()

    app = FastAPI(
        title="bezique",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url="/redoc" if api_docs else None,
        openapi_url="/openapi.json" if api_docs else None,
    )
    app.state.lobby = lobby
    app.state.sockets = sockets
    app.state.store = store
    app.state.http_limit = http_limit
    online = app.state.online = Online(lobby, store)
    # inside the rate limit below (middleware added later runs first): a refused request is
    # refused before its size matters
    app.add_middleware(BodyLimit, limit=MAX_BODY, seconds=body_seconds)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": validation_errors(exc)}, status_code=422)

    @app.exception_handler(Elsewhere)
    async def elsewhere(_request: Request, exc: Elsewhere) -> JSONResponse:
        return JSONResponse({"detail": exc.message}, status_code=503, headers={"Retry-After": "1"})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        exc.detail = printable(exc.detail)  # it may quote the request
        return await http_exception_handler(request, exc)

    @app.middleware("http")
    async def limits(request: Request, call_next: Any) -> Response:
        limited = LIMITED if request.method == "POST" else LIMITED_GET
        path = _route_path(request)
        bucket = None
        if request.method in ("GET", "POST") and limited.fullmatch(path):
            bucket = http_limit
        elif request.method == "GET" and LOOKUP.fullmatch(path):
            bucket = lookups
        if bucket is not None:
            wait = bucket.take(request.client.host if request.client else None)
            if wait:  # before the body is read: a refused request costs next to nothing
                return JSONResponse(
                    {"detail": "too many requests: slow down"},
                    status_code=429,
                    headers={"Retry-After": retry_after(wait)},
                )
        response: Response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    # --- pages -------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.get("/protocol.schema.json", include_in_schema=False)
    async def schema() -> FileResponse:
        return FileResponse(SCHEMA, media_type="application/schema+json")

    # --- the API -----------------------------------------------------------------------------
    @app.get("/api/info")
    async def info() -> dict[str, Any]:
        return {
            "version": __version__,
            "protocol": 1,
            "presets": presets(),
            "levels": [{"name": n, "about": bots.about(n)} for n in levels()],
            "default_level": default_level(),
            "takeover_seconds": lobby.takeover_seconds,
        }

    reading = asyncio.Semaphore(READERS)

    async def off_loop(fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in a worker thread, a few at a time: reading what a client sent never
        holds up the event loop, and many at once only queue."""
        async with reading:
            return await asyncio.to_thread(fn, *args)

    def facts(text: str) -> dict[str, Any]:
        return rules_facts(_rules(text))

    @app.get("/api/rules")
    async def rules_page(rules: str = "classic") -> dict[str, Any]:
        found: dict[str, Any] = await off_loop(facts, rules)
        return found

    @app.post("/api/tables")
    async def create(body: CreateTable) -> dict[str, Any]:
        rules: Rules = await off_loop(_rules, body.rules)
        if body.seats is not None:
            seats = [s.model_dump() for s in body.seats]
        else:
            level = body.level or default_level()
            if not 0 <= body.seat < rules.players:
                raise HTTPException(400, f"seat must be 0 to {rules.players - 1}")
            seats = [
                {"kind": "me"} if i == body.seat else {"kind": "bot", "level": level}
                for i in range(rules.players)
            ]
        people = sum(1 for s in seats if s["kind"] != "bot")
        hints = body.hints if body.hints is not None else people == 1
        who = await online.identify(body.key)
        if body.rated and who is None:
            raise HTTPException(400, "a rated table needs your player key")
        try:
            table, seat, token = await lobby.create(rules, seats, body.name, hints=hints)
        except ValueError as e:
            raise HTTPException(400, str(e)) from None
        await online.table_made(table, seat, public=body.public, rated=body.rated, who=who)
        return {"code": table.code, "seat": seat, "token": token, "table": table.info()}

    async def _table(code: str) -> Table:
        table = await lobby.find(code)
        if table is None:
            raise HTTPException(404, "no such table")
        return table

    @app.get("/api/tables/{code}")
    async def table_info(code: str) -> dict[str, Any]:
        return (await _table(code)).info()

    @app.post("/api/tables/{code}/join")
    async def join(code: str, body: JoinTable) -> dict[str, Any]:
        table = await _table(code)
        who = await online.joining(table, body.key)
        async with table.lock:
            try:
                seat, token = await table.claim(clean_name(body.name, "Friend")[:MAX_NAME])
            except ProtocolError as e:
                raise HTTPException(409, e.message) from None
        await online.seat_taken(table, seat, who)
        return {"code": table.code, "seat": seat, "token": token, "table": table.info()}

    async def _finished(code: str) -> tuple[Table, Match]:
        table = await _table(code)
        if table.status != "over" or table.match is None:
            raise HTTPException(409, "the record is available once the match is over")
        return table, table.match

    @app.post("/api/tables/{code}/next-match")
    async def next_match(code: str, body: NextMatch) -> dict[str, Any]:
        """The next match after a finished one: a new table with the same rules, the caller in
        the same seat, the computers at the same levels and the other people's seats open; with
        ``cent_points_handicap`` the loser starts each of its games on that score until he wins
        a match (HAITIAN.md H32, ``Match.rematch``)."""
        table, match = await _finished(code)
        seat = table.seat_for(body.token)
        if seat is None:
            raise HTTPException(403, "only a player at this table may start its next match")
        winner = match.winner if match.winner is not None else 0
        handicap = list(next_handicap(match.rules, match.handicap, winner))
        seats = [
            {"kind": "me"}
            if s.seat == seat
            else {"kind": "bot", "level": s.level}
            if s.kind == "bot"
            else {"kind": "open"}
            for s in table.seats
        ]
        name = table.seats[seat].name
        new, me, token = await lobby.create(
            table.rules, seats, name, hints=table.hints, handicap=handicap
        )
        await online.next_table(table, new, me)  # public and rated as the match before
        return {"code": new.code, "seat": me, "token": token, "table": new.info()}

    def _record(table: Table, match: Match) -> GameRecord:
        return record_match(
            match,
            players=[s.name for s in table.seats],
            meta={"table": table.code, "site": "bezique serve"},
        )

    @app.get("/api/tables/{code}/record")
    async def record(code: str) -> Response:
        table, match = await _finished(code)
        return Response(
            _record(table, match).to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="bezique-{code}.json"'},
        )

    replaying = asyncio.Semaphore(1)  # one replay worked out at a time: the rest queue
    records: OrderedDict[str, GameRecord] = OrderedDict()
    answers: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def _kept(cache: OrderedDict[Any, Any], key: Any, value: Any, most: int) -> None:
        cache[key] = value
        while len(cache) > most:
            cache.popitem(last=False)

    async def _replayed(record: GameRecord, deal: int, key: str) -> Response:
        """A page of the replay, worked out once for each record and page (``key``: the
        record's name in the cache) and kept as its JSON."""
        async with replaying:
            found = answers.get((key, deal))
            if found is not None:
                answers.move_to_end((key, deal))
            else:
                try:
                    found = await asyncio.to_thread(_page, record, deal)
                except ReplayError as e:
                    raise HTTPException(400, str(e)) from None
                _kept(answers, (key, deal), found, 8 * CACHED_RECORDS)
            return Response(found, media_type="application/json")

    @app.get("/api/tables/{code}/replay")
    async def replay(code: str, deal: int = 0) -> Response:
        table, match = await _finished(code)
        return await _replayed(_record(table, match), deal, f"table {table.code}")

    @app.post("/api/replay")
    async def replay_upload(request: Request, deal: int = 0) -> Response:
        chunks, size = [], 0
        async for chunk in request.stream():  # counted as it comes (BodyLimit does too)
            size += len(chunk)
            if size > MAX_BODY:
                raise TooLarge()
            chunks.append(chunk)
        body = b"".join(chunks)
        digest = hashlib.sha256(body).hexdigest()
        rec = records.get(digest)
        if rec is None:  # the pages of one record: read once
            rec = await off_loop(_read_record, body)
            _kept(records, digest, rec, CACHED_RECORDS)
        else:
            records.move_to_end(digest)
        if (rec.kind == "match" and rec.winner is None) or (
            rec.kind == "deal" and rec.deals[0].points is None
        ):
            raise HTTPException(400, "only finished games can be replayed here")
        return await _replayed(rec, deal, f"upload {digest}")

    add_routes(app, online)  # the lobby, quick match, identities and ratings (online.py)
    seat_link_routes(app, lobby)  # personal seat links, and "your games"
    tutorial_routes(app, lobby)  # the guided first deal

    # --- the game ----------------------------------------------------------------------------
    @app.websocket("/ws/{code}")
    async def play(ws: WebSocket, code: str) -> None:
        host = ws.client.host if ws.client else None
        await ws.accept()
        if not sockets.take(host):
            await ws.send_text(dumps(error("not-allowed", TOO_MANY_SOCKETS)))
            await ws.close(1008)  # policy violation
            return
        try:
            await _play(ws, code)
        finally:
            sockets.give_back(host)

    async def _play(ws: WebSocket, code: str) -> None:
        host = ws.client.host if ws.client else None
        conn = Connection(lobby.rate, lobby.burst)
        writer = asyncio.create_task(_write(ws, conn))
        table: Table | None = None
        hello_by = asyncio.get_running_loop().time() + hello_seconds
        try:
            while not conn.closed:
                if table is None:  # a connection that never says hello is closed
                    left = hello_by - asyncio.get_running_loop().time()
                    try:
                        received = await asyncio.wait_for(ws.receive(), max(left, 0.001))
                    except TimeoutError:
                        conn.send(error("hello-first", f"say hello within {hello_seconds:g} s"))
                        break
                else:
                    received = await ws.receive()
                if received["type"] == "websocket.disconnect":
                    break
                text = received.get("text")
                if not conn.allow():
                    conn.send(error("rate", "too many messages: slow down"))
                    continue
                try:
                    msg = parse_client(text)
                    if table is None:
                        if msg["type"] != "hello":
                            raise ProtocolError("hello-first", "say hello first")
                        if lookups.take(host):  # each hello may load a table from the store
                            conn.send(error("rate", "too many hellos from your address"))
                            break
                        found = await lobby.find(code)
                        if found is None:
                            conn.send(error("no-table", "no such table"))
                            break
                        await found.attach(conn, msg["token"])
                        table = found
                    else:
                        await table.handle(conn, dict(msg))
                except ProtocolError as e:
                    move = table.moves if table is not None else None
                    conn.send(error(e.code, e.message, move))
                    if e.code == "auth" or (table is None and e.code == "not-allowed"):
                        break  # a bad token, or a seat open in too many places
        except WebSocketDisconnect:
            pass
        finally:
            if table is not None:
                table.detach(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2.0)
            writer.cancel()
            with contextlib.suppress(Exception):
                await ws.close()

    return app


def _leases(store: Store, lobby: Lobby, node: str | None) -> Leases | None:
    """A node of several: its leases, fencing every write (None for a server on its own)."""
    if not node:
        return None
    if not store.shared:
        raise ValueError("several nodes need a shared database: give --database postgresql://…")
    return attach(lobby, store, node)


def _route_path(request: Request) -> str:
    """The request's path as the routes see it (without the prefix the app is served under)."""
    path: str = request.scope["path"]
    root: str = request.scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


async def _write(ws: WebSocket, conn: Connection) -> None:
    """Send a connection's queued messages in order; stop at None."""
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                break
            await ws.send_text(text)
    except Exception:  # the socket is gone
        conn.closed = True
    with contextlib.suppress(Exception):
        await ws.close()


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    data: str | None = None,
    *,
    limit_concurrency: int | None = None,
    timeout_keep_alive: int | None = None,
    api_docs: bool = False,
    ws_compression: bool = True,
    database_url: str | None = None,
    node: str | None = None,
    forwarded_allow_ips: list[str] | None = None,
) -> None:
    """Run the server (``bezique serve``): uvicorn's ``limit_concurrency`` (connections at once
    past which requests are answered 503) and ``timeout_keep_alive`` (seconds an idle HTTP
    connection is kept) as given; ``api_docs`` serves ``/openapi.json`` and ``/redoc``;
    ``ws_compression`` compresses WebSocket messages (permessage-deflate); ``database_url`` and
    ``node`` as :func:`create_app` takes them (ValueError: a node without PostgreSQL);
    ``forwarded_allow_ips``: the proxies whose ``X-Forwarded-For`` is believed (default none)."""
    import uvicorn

    from .serving import TIMEOUT_KEEP_ALIVE, config

    app = create_app(data, database_url, api_docs=api_docs or None, node=node)
    shown = f"[{host}]" if ":" in host else host
    print(f"Bezique is served at http://{shown}:{port}/ (Ctrl+C stops it)", flush=True)
    keep_alive = TIMEOUT_KEEP_ALIVE if timeout_keep_alive is None else timeout_keep_alive
    settings = config(
        app,
        host,
        port,
        limit_concurrency=limit_concurrency,
        timeout_keep_alive=keep_alive,
        ws_compression=ws_compression,
        forwarded_allow_ips=forwarded_allow_ips,
    )
    uvicorn.Server(settings).run()


__all__ = ["create_app", "presets", "replay_steps", "rules_facts", "serve"]
