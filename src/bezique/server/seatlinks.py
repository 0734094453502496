"""Personal seat links, and the list of one's own games.

A seated person may ask for a **seat link**: a secret of that seat that takes it back on any
device (a phone, after the laptop was closed).  Only a hash of it is stored; asking again makes
a new one and ends the old.  Opening the link gives that device a fresh seat token, so the
token the old device held stops working and its connections are closed.  The secret travels
in request bodies and in the page's ``#`` fragment only, never in a path or a query, so no
access log ever holds it.

**Your games**: a browser sends the seat tokens it holds and gets, for each table where a token
is valid, that game's players, status and result (a token that is not valid there gives
nothing: no one learns of another person's game).
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel, Field
from sqlalchemy import Column, Integer, String, delete, insert, select
from sqlalchemy import Table as SqlTable

from .protocol import ProtocolError, dumps, error
from .storage import Store, metadata
from .tables import hash_token

if TYPE_CHECKING:
    from .room import Lobby
    from .tables import Table

seat_links_t = SqlTable(
    "bz_seat_links",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("link_hash", String(64), nullable=False),
)

MAX_GAMES = 60
"""Tables one request for "your games" may ask about (the list shows the newest of them)."""
MOVED = "this seat was taken on another device with its seat link"


def ensure(store: Store) -> None:
    """Make the seat links' table in a database made before it existed."""
    seat_links_t.create(store.engine, checkfirst=True)


def put_link(store: Store, code: str, seat: int, link_hash: str) -> None:
    """Store a seat's link (its hash), ending any link the seat had."""
    with store.engine.begin() as c:
        c.execute(
            delete(seat_links_t).where(seat_links_t.c.code == code, seat_links_t.c.seat == seat)
        )
        c.execute(insert(seat_links_t).values(code=code, seat=seat, link_hash=link_hash))


def link_seat(store: Store, code: str, link_hash: str) -> int | None:
    """The seat at table ``code`` whose link hashes to ``link_hash``; None if none."""
    with store.engine.connect() as c:
        rows = c.execute(
            select(seat_links_t.c.seat, seat_links_t.c.link_hash).where(seat_links_t.c.code == code)
        ).all()
    found = None
    for seat, stored in rows:
        if hmac.compare_digest(str(stored), link_hash):
            found = int(seat)
    return found


async def renew(table: Table, token: str) -> tuple[int, str]:
    """A new seat link for the seat ``token`` holds (the old link ends); the seat and the
    link.  The caller holds the table's lock."""
    seat = table.seat_for(token)
    if seat is None or table.seats[seat].kind != "human":
        raise ProtocolError("auth", "only the person in a seat may have its seat link")
    link = secrets.token_urlsafe(24)
    store = table.lobby.store
    await table.lobby.work.db(put_link, store, table.code, seat, hash_token(link))
    return seat, link


async def claim(table: Table, link: str) -> tuple[int, str]:
    """Take a seat back with its link: a new token for it (the old one ends, and the
    connections that used it are closed); the seat and the token.  The caller holds the
    table's lock."""
    store = table.lobby.store
    seat = await table.lobby.work.db(link_seat, store, table.code, hash_token(link))
    if seat is None or table.seats[seat].kind != "human":
        raise ProtocolError("auth", "this seat link is not valid (it may have been renewed)")
    token = secrets.token_urlsafe(24)
    await table._store_seat(replace(table.seats[seat], token_hash=hash_token(token)))
    text = dumps(error("auth", MOVED))
    for conn in list(table.conns):
        if conn.seat == seat:
            conn.send(text)
            conn.close()
    return seat, token


def game_entry(table: Table, seat: int) -> dict[str, Any]:
    """What "your games" shows of one table, for the person in ``seat``: the players, the
    status and, once played, the scores and the winning side."""
    match = table.match
    out: dict[str, Any] = {
        "code": table.code,
        "rules": str(table.rules),
        "preset": table.rules.name,
        "status": table.status,
        "seat": seat,
        "side": seat % 2 if table.rules.partnerships else seat,
        "partnerships": table.rules.partnerships,
        "players": [
            {"seat": s.seat, "name": s.name, "kind": s.kind, "level": s.level or None}
            for s in table.seats
        ],
        "scores": None,
        "winner": None,
        "target": table.rules.target,
        "deals": 0,
    }
    if match is not None:
        out["scores"] = list(match.scores)
        out["winner"] = match.winner
        out["deals"] = len(match.finished)
    return out


class SeatLinkBody(BaseModel):
    token: str = Field(max_length=200)
    """The seat's token: only the person in the seat may have its link."""


class ClaimBody(BaseModel):
    link: str = Field(max_length=200)
    """The seat link's secret."""


class GameRef(BaseModel):
    code: str = Field(max_length=16)
    token: str = Field(max_length=200)


class GamesBody(BaseModel):
    games: list[GameRef] = Field(max_length=MAX_GAMES)


def add_routes(app: FastAPI, lobby: Lobby) -> None:
    """The seat-link and "your games" routes of the API."""
    ensure(lobby.store)

    async def _table(code: str) -> Table:
        table = await lobby.find(code)
        if table is None:
            raise HTTPException(404, "no such table")
        return table

    @app.post("/api/tables/{code}/seat-link")
    async def seat_link(code: str, body: SeatLinkBody) -> dict[str, Any]:
        """A new personal link for the caller's seat (any older one ends)."""
        table = await _table(code)
        async with table.lock:
            try:
                seat, link = await renew(table, body.token)
            except ProtocolError as e:
                raise HTTPException(403, e.message) from None
        return {"code": table.code, "seat": seat, "link": link}

    @app.post("/api/tables/{code}/claim")
    async def claim_seat(code: str, body: ClaimBody) -> dict[str, Any]:
        """Take a seat back with its link: a fresh token for this device."""
        table = await _table(code)
        async with table.lock:
            try:
                seat, token = await claim(table, body.link)
            except ProtocolError as e:
                raise HTTPException(403, e.message) from None
            table._seats_changed()
        return {"code": table.code, "seat": seat, "token": token, "table": table.info()}

    @app.post("/api/my-games")
    async def my_games(body: GamesBody) -> dict[str, Any]:
        """The games these seat tokens belong to (the others are left out, unsaid)."""
        out = []
        for ref in body.games:
            table = await lobby.find(ref.code)
            if table is None:
                continue
            seat = table.seat_for(ref.token)
            if seat is None:
                continue
            out.append(game_entry(table, seat))
        return {"games": out}


__all__ = ["add_routes", "claim", "ensure", "game_entry", "link_seat", "put_link", "renew"]
