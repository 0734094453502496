"""Where strangers meet: the lobby of public tables, quick match, player identities and ratings
(the HTTP routes; the rows are in ``onlinedb.py``, the rating model in ``ratings.py``).

Everything lives in the database, not in a node's memory, so every server node in front of one
PostgreSQL sees the same lobby, queue and ratings.  The lobby is read from the store at most
every :data:`LISTING_SECONDS` per node (one query shared by everyone looking), and browsers ask
for it every second: a table made public on any node shows in every lobby within about
``1 + LISTING_SECONDS`` seconds.

Identities have no password: a secret key the browser keeps (localStorage), sent in request
bodies only and stored hashed.  Quick-match tickets are secrets too (hashed at rest); the seat
token of a matched person waits in the queue row for them to pick up, at most
:data:`~.onlinedb.CLAIM_SECONDS`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ..core.rules import Rules
from .limits import AddressLimit, address_key, retry_after
from .onlinedb import OnlineStore, Refused, Waiting
from .protocol import MAX_NAME, ProtocolError, clean_name
from .ratings import settle, variant_key
from .storage import Store
from .tables import Lobby, Table

log = logging.getLogger("bezique.server")

LISTING_SECONDS = 0.5
"""How long a node reuses the lobby it read from the store."""
QUEUE_PER_ADDRESS = 2
"""People one client address may have waiting for a quick match at once (two in a household;
a flood of joins from one address is refused, never queued)."""
POLL_RATE = 4.0
"""Lobby reads and queue polls a second an address may make on average (a page asks once a
second) ..."""
POLL_BURST = 40.0
"""... and at once."""


class Quick(BaseModel):
    rules: str = Field(default="classic", max_length=400)
    name: str = Field(default="", max_length=200)
    key: str | None = Field(default=None, max_length=200)


class Ticket(BaseModel):
    ticket: str = Field(max_length=200)


class NewPlayer(BaseModel):
    name: str = Field(default="", max_length=200)


class Key(BaseModel):
    key: str = Field(max_length=200)
    name: str | None = Field(default=None, max_length=200)


class Online:
    """The lobby, the queue and the ratings of one server node."""

    def __init__(self, lobby: Lobby, store: Store, *, queue_per_address: int | None = None):
        """``queue_per_address``: default ``BEZIQUE_QUEUE_PER_ADDRESS``, else
        :data:`QUEUE_PER_ADDRESS`."""
        self.lobby = lobby
        self.db = OnlineStore(store.engine)
        if queue_per_address is None:
            queue_per_address = int(os.environ.get("BEZIQUE_QUEUE_PER_ADDRESS", QUEUE_PER_ADDRESS))
        if queue_per_address < 1:
            raise ValueError("the people an address may have waiting must be at least 1")
        self.queue_per_address = queue_per_address
        self._listing: tuple[float, dict[str, Any]] | None = None
        self._reading: asyncio.Task[dict[str, Any]] | None = None
        self._settling: set[asyncio.Task[None]] = set()
        self.listing_reads = 0
        """Times this node read the lobby from the store (its cost: one read per period)."""
        lobby.on_over = self.finished

    async def _db(self, fn: Any, *args: Any) -> Any:
        return await self.lobby.work.db(fn, *args)

    # --- identities -----------------------------------------------------------------------------
    async def identify(self, key: str | None) -> tuple[str, str] | None:
        """(id, name) of the identity a key opens; None for no key; a wrong key is an error."""
        if key is None or key == "":
            return None
        who: tuple[str, str] | None = await self._db(self.db.player_for_key, key)
        if who is None:
            raise HTTPException(403, "unknown player key")
        return who

    # --- tables ---------------------------------------------------------------------------------
    async def table_made(
        self, table: Table, seat: int, *, public: bool, rated: bool, who: tuple[str, str] | None
    ) -> None:
        """Record a new table's lobby and rating flags, and who made it."""
        if not (public or rated or who):
            return  # a plain private table: nothing more to keep
        await self._db(
            lambda: self.db.mark_table(
                table.code, public=public, rated=rated, variant=variant_key(table.rules)
            )
        )
        if who is not None:
            await self._db(self.db.set_seat_player, table.code, seat, who[0])
        self._listing = None

    async def next_table(self, old: Table, new: Table, seat: int) -> None:
        """A next match keeps its table's lobby and rating flags, and its maker's identity
        (the others give theirs as they take their seats again)."""
        flags = await self._db(self.db.table_flags, old.code)
        if flags is None:
            return
        player = (await self._db(self.db.seat_players, old.code)).get(seat)
        who = (player, "") if player is not None else None
        await self.table_made(
            new, seat, public=flags[0], rated=flags[1] and who is not None, who=who
        )

    async def joining(self, table: Table, key: str | None) -> tuple[str, str] | None:
        """Who joins (before the seat is claimed): a rated table takes identified people."""
        who = await self.identify(key)
        flags = await self._db(self.db.table_flags, table.code)
        if flags is not None and flags[1] and who is None:
            raise HTTPException(409, "this table is rated: make a player identity first")
        if (
            who is not None
            and who[0] in (await self._db(self.db.seat_players, table.code)).values()
        ):
            raise HTTPException(409, "you have a seat at this table already")
        return who

    async def seat_taken(self, table: Table, seat: int, who: tuple[str, str] | None) -> None:
        if who is not None and await self._db(self.db.table_flags, table.code) is not None:
            await self._db(self.db.set_seat_player, table.code, seat, who[0])
        self._listing = None

    def finished(self, table: Table) -> None:
        """A match is over (the lobby calls this): rate it if its table is rated."""
        match = table.match
        if match is None or match.winner is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # loaded outside the server's loop (a tool): nothing to run on
            return
        seats = list(table.seats)

        async def run() -> None:
            try:
                await self._db(settle, self.db, table.code, table.rules, match, seats)
            except Exception:
                log.exception("table %s: could not settle its ratings", table.code)
            self._listing = None

        task = loop.create_task(run())
        self._settling.add(task)  # held till done: the loop keeps only a weak reference
        task.add_done_callback(self._settling.discard)

    async def listing(self) -> dict[str, Any]:
        """The lobby, read from the store at most every LISTING_SECONDS (one read shared)."""
        now = time.monotonic()
        if self._listing is not None and now - self._listing[0] < LISTING_SECONDS:
            return self._listing[1]
        if self._reading is None:
            self._reading = asyncio.get_running_loop().create_task(self._read())
        task = self._reading
        try:
            return await asyncio.shield(task)
        finally:
            if task.done() and self._reading is task:
                self._reading = None

    async def _read(self) -> dict[str, Any]:
        tables = await self._db(self.db.listing)
        waiting = await self._db(self.db.waiting_count)
        self.listing_reads += 1
        data = {"tables": tables, "waiting": waiting}
        self._listing = (time.monotonic(), data)
        return data

    # --- quick match ----------------------------------------------------------------------------
    async def quick(self, body: Quick, host: str | None) -> dict[str, Any]:
        try:
            rules = Rules.from_string(body.rules)
        except (ValueError, TypeError) as e:
            raise HTTPException(400, f"bad rules: {e}") from None
        who = await self.identify(body.key)
        name = clean_name(body.name, "Player")[:MAX_NAME]
        ticket = secrets.token_urlsafe(24)
        try:
            await self._db(
                self.db.join_queue,
                ticket,
                str(rules),
                rules.players,
                address_key(host),
                who[0] if who else None,
                name,
                self.queue_per_address,
            )
        except Refused as e:
            raise HTTPException(429, str(e)) from None
        await self._pair(str(rules), rules.players)
        return {"ticket": ticket, **await self.poll(ticket)}

    async def poll(self, ticket: str) -> dict[str, Any]:
        """Where a waiting person stands: still waiting, or the table found for them."""
        entry: Waiting | None = await self._db(self.db.poll, ticket)
        if entry is None:
            raise HTTPException(404, "not waiting: join again")
        if entry.code is None and not entry.claimed:
            await self._pair(entry.rules, entry.players)
            entry = await self._db(self.db.poll, ticket)
            if entry is None:
                raise HTTPException(404, "not waiting: join again")
        if entry.code is not None:
            return {
                "state": "matched",
                "code": entry.code,
                "seat": entry.seat,
                "token": entry.token,
            }
        counts = await self._db(self.db.waiting_count)
        return {
            "state": "waiting",
            "rules": entry.rules,
            "players": entry.players,
            "waiting": counts.get(entry.rules, 0),
        }

    async def leave(self, ticket: str) -> dict[str, Any]:
        left = await self._db(self.db.leave, ticket)
        return {"left": bool(left)}

    async def _pair(self, rules_text: str, players: int) -> None:
        """Make a table for the longest-waiting people of these rules, if there are enough."""
        found = await self._db(self.db.pair, rules_text, players)
        if found is None:
            return
        claim, people = found
        try:
            seats = await self._make_table(rules_text, people)
        except Exception:
            log.exception("could not make a quick-match table")
            await self._db(self.db.unclaim, claim)
            return
        await self._db(self.db.matched, claim, seats)

    async def _make_table(
        self, rules_text: str, people: list[Waiting]
    ) -> dict[int, tuple[str, int, str]]:
        """The table for paired people in a random order of seats (partners by chance): seat
        0 makes it, the others take their seats; then it is listed (to watch) and rated when
        everyone has an identity.  Each person's (code, seat, token) by queue id."""
        order = list(people)
        secrets.SystemRandom().shuffle(order)
        rules = self.lobby.rules_for(rules_text)
        seats = [{"kind": "me"}] + [{"kind": "open"}] * (len(order) - 1)
        table, seat0, token0 = await self.lobby.create(rules, seats, order[0].name, hints=False)
        out = {order[0].id: (table.code, seat0, token0)}
        async with table.lock:
            for p in order[1:]:
                try:
                    seat, token = await table.claim(p.name)
                except ProtocolError as e:  # nobody else knows the table yet
                    raise RuntimeError(e.message) from None
                out[p.id] = (table.code, seat, token)
        rated = all(p.player is not None for p in order)
        await self._db(
            lambda: self.db.mark_table(
                table.code, public=True, rated=rated, variant=variant_key(rules)
            )
        )
        for p in order:
            if p.player is not None:
                await self._db(self.db.set_seat_player, table.code, out[p.id][1], p.player)
        self._listing = None
        return out


def add_routes(app: FastAPI, online: Online) -> None:
    """The lobby's, quick match's and ratings' routes.  Joining the queue and making an
    identity are under the server's per-address limit for tables (``LIMITED`` in app.py);
    lobby reads and queue polls under a bucket of their own (:data:`POLL_RATE`)."""
    polls = AddressLimit(POLL_RATE, POLL_BURST)
    app.state.poll_limit = polls

    def polled(request: Request) -> JSONResponse | None:
        wait = polls.take(request.client.host if request.client else None)
        if wait:
            return JSONResponse(
                {"detail": "too many requests: slow down"},
                status_code=429,
                headers={"Retry-After": retry_after(wait)},
            )
        return None

    @app.get("/api/lobby")
    async def lobby_list(request: Request) -> Any:
        """The public tables (waiting for players, or playing: to watch) and who waits for a
        quick match."""
        return polled(request) or await online.listing()

    @app.post("/api/quick")
    async def quick_join(body: Quick, request: Request) -> dict[str, Any]:
        """Wait for a quick match: a ticket, and the table at once if enough people wait."""
        return await online.quick(body, request.client.host if request.client else None)

    @app.post("/api/quick/poll")
    async def quick_poll(body: Ticket, request: Request) -> Any:
        return polled(request) or await online.poll(body.ticket)

    @app.post("/api/quick/leave")
    async def quick_leave(body: Ticket, request: Request) -> Any:
        return polled(request) or await online.leave(body.ticket)

    @app.post("/api/players")
    async def new_player(body: NewPlayer) -> dict[str, Any]:
        """A new identity: its id (public) and key (secret: kept by the browser)."""
        name = clean_name(body.name, "Player")[:MAX_NAME]
        pid, key = await online._db(online.db.new_player, name)
        return {"id": pid, "key": key, "name": name}

    @app.post("/api/players/me")
    async def me(body: Key, request: Request) -> Any:
        """Who a key is (and a new name for them, if given)."""
        refused = polled(request)
        if refused:
            return refused
        who = await online.identify(body.key)
        assert who is not None
        if body.name is not None:
            name = clean_name(body.name, who[1])[:MAX_NAME]
            await online._db(online.db.rename, who[0], name)
        return await online._db(online.db.player, who[0])

    @app.get("/api/players/{pid}")
    async def player(pid: str) -> dict[str, Any]:
        if not (pid.isascii() and pid.isalnum() and len(pid) <= 16):
            raise HTTPException(404, "no such player")
        found: dict[str, Any] | None = await online._db(online.db.player, pid)
        if found is None:
            raise HTTPException(404, "no such player")
        return found

    @app.get("/api/leaderboard")
    async def leaderboard(request: Request, variant: str = "classic/2") -> Any:
        refused = polled(request)
        if refused:
            return refused
        variant = variant[:64]
        players = await online._db(online.db.leaderboard, variant)
        variants = await online._db(online.db.variants)
        return {"variant": variant, "variants": variants, "players": players}

    @app.get("/api/tables/{code}/online")
    async def table_online(code: str) -> dict[str, Any]:
        """A table's lobby and rating flags (a private unrated table: both false)."""
        table = await online.lobby.find(code)
        if table is None:
            raise HTTPException(404, "no such table")
        flags = await online._db(online.db.table_flags, code)
        public, rated = (flags[0], flags[1]) if flags else (False, False)
        return {"public": public, "rated": rated, "variant": variant_key(table.rules)}


__all__ = ["LISTING_SECONDS", "QUEUE_PER_ADDRESS", "Online", "add_routes"]
