"""What the lobby, quick match and ratings keep, in the server's database (beside the tables'
logs, on the same engine: SQLite or PostgreSQL), so that every server node sees the same.

- ``bz_online``: a table's listing flags (public: shown in the lobby; rated) and its variant.
- ``bz_players``: identities: a public id, a name and the hash of the secret key (never the key).
- ``bz_seat_players``: which identity sits at which seat of a rated or public table.
- ``bz_ratings``: a rating (``mu``, ``sigma``) per identity and variant.
- ``bz_results``: one row per seat of every rated game settled: the ratings before and after.
  Its primary key (table, seat) is what makes settling a game happen once, on any node.
- ``bz_queue``: the people waiting for a quick match, each by the hash of a ticket.

Every method is blocking (the server calls them in its database threads).  Writes that must not
interleave (joining the queue and pairing, settling ratings) take one lock: PostgreSQL's
transaction-scoped advisory lock across nodes, and a process lock for SQLite, which is the
single-process store.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine

from .storage import create_schema, seats_t, tables_t

metadata = MetaData()

online_t = Table(
    "bz_online",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("public", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("variant", String(64), nullable=False),
    Column("created", Float, nullable=False, index=True),
)

players_t = Table(
    "bz_players",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("name", String(80), nullable=False),
    Column("created", Float, nullable=False),
)

seat_players_t = Table(
    "bz_seat_players",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(16), nullable=False, index=True),
)

ratings_t = Table(
    "bz_ratings",
    metadata,
    Column("player", String(16), primary_key=True),
    Column("variant", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)

results_t = Table(
    "bz_results",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(16), nullable=True, index=True),
    Column("level", String(32), nullable=True),
    Column("name", String(80), nullable=False),
    Column("variant", String(64), nullable=False),
    Column("rank", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", Float, nullable=False),
)

queue_t = Table(
    "bz_queue",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("ticket_hash", String(64), nullable=False, unique=True),
    Column("rules", String(400), nullable=False, index=True),
    Column("players", Integer, nullable=False),
    Column("address", String(64), nullable=False, index=True),
    Column("player", String(16), nullable=True),
    Column("name", String(80), nullable=False),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("claim", String(32), nullable=True),
    Column("code", String(16), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("token", String(64), nullable=True),
)

QUEUE_LOCK = 0x627A71
"""The PostgreSQL advisory lock key the queue's writers and the settling of ratings share."""
STALE_SECONDS = 10.0
"""A waiting entry not polled for this long is gone (its browser closed): never paired."""
CLAIM_SECONDS = 60.0
"""A pairing whose table was never made (its node died meanwhile) frees its people after this;
a matched entry is kept this long for its person to pick up (a lost answer is asked again)."""
LISTED = 100
"""Public tables the lobby lists at most (the newest)."""
WAITING_LISTED = 30 * 60.0
"""A public table still waiting for players this long after it was made is left out of the
lobby (its maker has most likely gone) ..."""
PLAYING_LISTED = 6 * 3600.0
"""... and a game still playing this long after (one everybody left) too."""


def hash_secret(secret: str) -> str:
    """The stored form of a key or ticket."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class _Taken(Exception):
    """Someone to be paired was claimed by another pairing at the same moment."""


class Refused(Exception):
    """A request the queue turns down (a one-line reason)."""


@dataclass
class Waiting:
    """One person in the quick-match queue."""

    id: int
    rules: str
    players: int
    player: str | None
    name: str
    code: str | None
    seat: int | None
    token: str | None
    claimed: bool


@dataclass
class RatedSeat:
    """A seat of a rated game as it is settled: who (an identity, or a computer level), the
    rank of its side (0 best) and its rating before and after."""

    seat: int
    player: str | None
    level: str | None
    name: str
    rank: int
    before: tuple[float, float]
    after: tuple[float, float] = (0.0, 0.0)


class OnlineStore:
    """The lobby's, the queue's and the ratings' rows on the server's database engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        self._lock = threading.Lock()  # SQLite: one process, one writer of these at a time
        create_schema(engine, metadata)

    @contextmanager
    def _locked(self) -> Iterator[Connection]:
        """A transaction holding the queue lock (across nodes on PostgreSQL)."""
        with self._lock, self.engine.begin() as c:
            if self.postgres:
                c.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": QUEUE_LOCK})
            yield c

    # --- tables ---------------------------------------------------------------------------------
    def mark_table(self, code: str, *, public: bool, rated: bool, variant: str) -> None:
        with self.engine.begin() as c:
            c.execute(
                insert(online_t).values(
                    code=code, public=public, rated=rated, variant=variant, created=time.time()
                )
            )

    def table_flags(self, code: str) -> tuple[bool, bool, str] | None:
        """(public, rated, variant) of a table, or None for a plain private one."""
        with self.engine.connect() as c:
            row = c.execute(select(online_t).where(online_t.c.code == code)).first()
        return None if row is None else (bool(row.public), bool(row.rated), str(row.variant))

    def set_seat_player(self, code: str, seat: int, player: str) -> None:
        with self.engine.begin() as c:
            c.execute(insert(seat_players_t).values(code=code, seat=seat, player=player))

    def seat_players(self, code: str) -> dict[int, str]:
        with self.engine.connect() as c:
            rows = c.execute(select(seat_players_t).where(seat_players_t.c.code == code))
            return {r.seat: r.player for r in rows}

    def listing(self, limit: int = LISTED) -> list[dict[str, Any]]:
        """The public tables not yet over (nor stale: :data:`WAITING_LISTED`), the newest
        first, with their seats (and each identified person's rating in the table's
        variant)."""
        now = time.time()
        fresh = or_(
            and_(tables_t.c.status == "waiting", online_t.c.created >= now - WAITING_LISTED),
            and_(tables_t.c.status == "playing", online_t.c.created >= now - PLAYING_LISTED),
        )
        with self.engine.connect() as c:
            rows = c.execute(
                select(online_t.c.code, online_t.c.rated, online_t.c.variant, tables_t.c.rules)
                .add_columns(tables_t.c.status)
                .join(tables_t, tables_t.c.code == online_t.c.code)
                .where(online_t.c.public, fresh)
                .order_by(online_t.c.created.desc())
                .limit(limit)
            ).all()
            codes = [r.code for r in rows]
            if not codes:
                return []
            seats: dict[str, list[Any]] = {}
            for s in c.execute(
                select(seats_t).where(seats_t.c.code.in_(codes)).order_by(seats_t.c.seat)
            ):
                seats.setdefault(s.code, []).append(s)
            who = {
                (r.code, r.seat): r.player
                for r in c.execute(select(seat_players_t).where(seat_players_t.c.code.in_(codes)))
            }
            ratings = {
                (r.player, r.variant): (r.mu, r.sigma)
                for r in c.execute(
                    select(ratings_t).where(ratings_t.c.player.in_(set(who.values()) or {""}))
                )
            }
        out = []
        for r in rows:
            listed = []
            for s in seats.get(r.code, []):
                player = who.get((r.code, s.seat))
                rating = ratings.get((player, r.variant)) if player else None
                listed.append(
                    {
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name if s.kind != "open" else None,
                        "level": s.level if s.kind == "bot" else None,
                        "player": player,
                        "rating": None if rating is None else shown(*rating),
                    }
                )
            out.append(
                {
                    "code": r.code,
                    "rules": r.rules,
                    "variant": r.variant,
                    "status": r.status,
                    "rated": bool(r.rated),
                    "free": sum(1 for s in listed if s["kind"] == "open"),
                    "seats": listed,
                }
            )
        return out

    # --- identities -----------------------------------------------------------------------------
    def new_player(self, name: str) -> tuple[str, str]:
        """A new identity: its public id and its secret key (only its hash is kept)."""
        key = secrets.token_urlsafe(24)
        for _ in range(8):
            pid = secrets.token_hex(6)
            with self.engine.begin() as c:
                if c.execute(select(players_t.c.id).where(players_t.c.id == pid)).first():
                    continue
                c.execute(
                    insert(players_t).values(
                        id=pid, key_hash=hash_secret(key), name=name, created=time.time()
                    )
                )
            return pid, key
        raise RuntimeError("no free player id")  # one chance in 2^40 per try

    def player_for_key(self, key: str) -> tuple[str, str] | None:
        """(id, name) of the identity this key opens, or None."""
        with self.engine.connect() as c:
            row = c.execute(
                select(players_t.c.id, players_t.c.name).where(
                    players_t.c.key_hash == hash_secret(key)
                )
            ).first()
        return None if row is None else (str(row.id), str(row.name))

    def rename(self, pid: str, name: str) -> None:
        with self.engine.begin() as c:
            c.execute(update(players_t).where(players_t.c.id == pid).values(name=name))

    def player(self, pid: str, recent: int = 20) -> dict[str, Any] | None:
        """An identity's public page: name, rating per variant, its recent rated games (each
        with everyone at the table and the change of this player's rating)."""
        with self.engine.connect() as c:
            row = c.execute(select(players_t).where(players_t.c.id == pid)).first()
            if row is None:
                return None
            ratings = [
                {"variant": r.variant, "rating": shown(r.mu, r.sigma), "games": r.games}
                for r in c.execute(
                    select(ratings_t)
                    .where(ratings_t.c.player == pid)
                    .order_by(ratings_t.c.games.desc())
                )
            ]
            mine = c.execute(
                select(results_t)
                .where(results_t.c.player == pid)
                .order_by(results_t.c.at.desc())
                .limit(recent)
            ).all()
            codes = [m.code for m in mine]
            others: dict[str, list[Any]] = {}
            for o in c.execute(
                select(results_t)
                .where(results_t.c.code.in_(codes or [""]))
                .order_by(results_t.c.seat)
            ):
                others.setdefault(o.code, []).append(o)
        games = []
        for m in mine:
            games.append(
                {
                    "code": m.code,
                    "variant": m.variant,
                    "at": m.at,
                    "rank": m.rank,
                    "before": shown(m.mu_before, m.sigma_before),
                    "after": shown(m.mu_after, m.sigma_after),
                    "seats": [
                        {"seat": o.seat, "name": o.name, "player": o.player, "rank": o.rank}
                        for o in others.get(m.code, [])
                    ],
                }
            )
        return {"id": row.id, "name": row.name, "ratings": ratings, "games": games}

    def leaderboard(self, variant: str, limit: int = 50) -> list[dict[str, Any]]:
        """The best identities in a variant by their cautious rating (``mu - 3 sigma``)."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(ratings_t, players_t.c.name)
                .join(players_t, players_t.c.id == ratings_t.c.player)
                .where(ratings_t.c.variant == variant)
                .order_by((ratings_t.c.mu - 3 * ratings_t.c.sigma).desc(), ratings_t.c.player)
                .limit(limit)
            ).all()
        return [
            {"player": r.player, "name": r.name, "rating": shown(r.mu, r.sigma), "games": r.games}
            for r in rows
        ]

    def variants(self) -> list[str]:
        """The variants anyone has a rating in."""
        with self.engine.connect() as c:
            return sorted({str(v) for (v,) in c.execute(select(ratings_t.c.variant).distinct())})

    def rating(self, pid: str, variant: str) -> tuple[float, float] | None:
        with self.engine.connect() as c:
            row = c.execute(
                select(ratings_t.c.mu, ratings_t.c.sigma).where(
                    ratings_t.c.player == pid, ratings_t.c.variant == variant
                )
            ).first()
        return None if row is None else (float(row.mu), float(row.sigma))

    # --- settling a rated game -----------------------------------------------------------------
    def settle(
        self,
        code: str,
        variant: str,
        seats: list[RatedSeat],
        initial: tuple[float, float],
        rate: Callable[[list[RatedSeat]], None],
    ) -> bool:
        """Record a finished rated game and move its people's ratings, in one transaction;
        False (nothing changed) when it was settled before.  ``rate`` fills each seat's
        ``after`` from its ``before`` (read here, under the lock; ``initial`` for a person's
        first game in the variant; a computer's anchor is given already)."""
        with self._locked() as c:
            if c.execute(select(results_t.c.code).where(results_t.c.code == code)).first():
                return False
            people = [s.player for s in seats if s.player is not None]
            current = {
                r.player: (float(r.mu), float(r.sigma), int(r.games))
                for r in c.execute(
                    select(ratings_t).where(
                        ratings_t.c.player.in_(people or [""]), ratings_t.c.variant == variant
                    )
                )
            }
            for s in seats:
                if s.player is not None:
                    mu, sigma, _ = current.get(s.player, (*initial, 0))
                    s.before = (mu, sigma)
            rate(seats)
            now = time.time()
            c.execute(
                insert(results_t),
                [
                    {
                        "code": code,
                        "seat": s.seat,
                        "player": s.player,
                        "level": s.level,
                        "name": s.name[:80],
                        "variant": variant,
                        "rank": s.rank,
                        "mu_before": s.before[0],
                        "sigma_before": s.before[1],
                        "mu_after": s.after[0],
                        "sigma_after": s.after[1],
                        "at": now,
                    }
                    for s in seats
                ],
            )
            for s in seats:
                if s.player is None:
                    continue  # a computer's anchor never moves
                mu, sigma = s.after
                if s.player in current:
                    c.execute(
                        update(ratings_t)
                        .where(ratings_t.c.player == s.player, ratings_t.c.variant == variant)
                        .values(mu=mu, sigma=sigma, games=ratings_t.c.games + 1, updated=now)
                    )
                else:
                    c.execute(
                        insert(ratings_t).values(
                            player=s.player,
                            variant=variant,
                            mu=mu,
                            sigma=sigma,
                            games=1,
                            updated=now,
                        )
                    )
            return True

    def settled(self, code: str) -> bool:
        with self.engine.connect() as c:
            return (
                c.execute(select(results_t.c.code).where(results_t.c.code == code)).first()
                is not None
            )

    # --- the quick-match queue ------------------------------------------------------------------
    def join_queue(
        self,
        ticket: str,
        rules: str,
        players: int,
        address: str,
        player: str | None,
        name: str,
        per_address: int,
    ) -> None:
        """Put a person in the queue, or raise :class:`Refused`: an address may have
        ``per_address`` people waiting, an identity one."""
        now = time.time()
        with self._locked() as c:
            self._sweep(c, now)
            waiting = and_(queue_t.c.code.is_(None), queue_t.c.claim.is_(None))
            held = c.execute(
                select(func.count())
                .select_from(queue_t)
                .where(waiting, queue_t.c.address == address)
            ).scalar_one()
            if held >= per_address:
                raise Refused(
                    f"your address has {held} waiting for a match already: wait or leave first"
                )
            if (
                player is not None
                and c.execute(
                    select(queue_t.c.id).where(waiting, queue_t.c.player == player)
                ).first()
            ):
                raise Refused("you are waiting for a match already")
            c.execute(
                insert(queue_t).values(
                    ticket_hash=hash_secret(ticket),
                    rules=rules,
                    players=players,
                    address=address,
                    player=player,
                    name=name,
                    created=now,
                    seen=now,
                )
            )

    def pair(self, rules: str, players: int) -> tuple[str, list[Waiting]] | None:
        """Claim the ``players`` longest-waiting people for these rules (every one seen
        lately), or None when there are not enough.  Returns the claim and the people."""
        try:
            return self._pair(rules, players)
        except _Taken:  # rolled back: whoever claimed them first pairs them
            return None

    def _pair(self, rules: str, players: int) -> tuple[str, list[Waiting]] | None:
        now = time.time()
        with self._locked() as c:
            self._sweep(c, now)
            rows = c.execute(
                select(queue_t)
                .where(
                    queue_t.c.rules == rules,
                    queue_t.c.players == players,
                    queue_t.c.code.is_(None),
                    queue_t.c.claim.is_(None),
                    queue_t.c.seen >= now - STALE_SECONDS,
                )
                .order_by(queue_t.c.created, queue_t.c.id)
                .limit(players)
            ).all()
            if len(rows) < players:
                return None
            claim = secrets.token_hex(8)
            done = c.execute(
                update(queue_t)
                .where(
                    queue_t.c.id.in_([r.id for r in rows]),
                    queue_t.c.claim.is_(None),
                    queue_t.c.code.is_(None),
                )
                .values(claim=claim, seen=now)
            )
            if done.rowcount != players:  # claimed meanwhile elsewhere (the lock makes it rare)
                raise _Taken()
            return claim, [_waiting(r) for r in rows]

    def matched(self, claim: str, seats: dict[int, tuple[str, int, str]]) -> None:
        """The table made for a claim: each person's (code, seat, token) by queue id."""
        with self.engine.begin() as c:
            for qid, (code, seat, token) in seats.items():
                c.execute(
                    update(queue_t)
                    .where(queue_t.c.id == qid, queue_t.c.claim == claim)
                    .values(code=code, seat=seat, token=token, seen=time.time())
                )

    def unclaim(self, claim: str) -> None:
        """A pairing that failed: its people wait again."""
        with self.engine.begin() as c:
            c.execute(update(queue_t).where(queue_t.c.claim == claim).values(claim=None))

    def poll(self, ticket: str) -> Waiting | None:
        """A person's queue entry (seen now), or None: unknown ticket, or gone stale."""
        h = hash_secret(ticket)
        now = time.time()
        with self.engine.begin() as c:
            row = c.execute(select(queue_t).where(queue_t.c.ticket_hash == h)).first()
            if row is None:
                return None
            if row.code is None and row.claim is None and row.seen < now - STALE_SECONDS:
                return None  # swept at the next join or pairing
            c.execute(update(queue_t).where(queue_t.c.id == row.id).values(seen=now))
            return _waiting(row)

    def leave(self, ticket: str) -> bool:
        """Leave the queue (before being paired); whether the ticket was waiting."""
        with self._locked() as c:
            done = c.execute(
                delete(queue_t).where(
                    queue_t.c.ticket_hash == hash_secret(ticket),
                    queue_t.c.claim.is_(None),
                    queue_t.c.code.is_(None),
                )
            )
            return bool(done.rowcount)

    def waiting_count(self) -> dict[str, int]:
        """People waiting, by rules."""
        now = time.time()
        with self.engine.connect() as c:
            rows = c.execute(
                select(queue_t.c.rules, func.count())
                .where(
                    queue_t.c.code.is_(None),
                    queue_t.c.claim.is_(None),
                    queue_t.c.seen >= now - STALE_SECONDS,
                )
                .group_by(queue_t.c.rules)
            )
            return {str(r): int(n) for r, n in rows}

    def queue_size(self) -> int:
        with self.engine.connect() as c:
            return int(c.execute(select(func.count()).select_from(queue_t)).scalar_one())

    def _sweep(self, c: Connection, now: float) -> None:
        """Drop the entries nobody polls, and the pairings done (or failed) long ago."""
        c.execute(
            delete(queue_t).where(queue_t.c.claim.is_(None), queue_t.c.seen < now - STALE_SECONDS)
        )
        c.execute(
            delete(queue_t).where(
                queue_t.c.claim.is_not(None), queue_t.c.seen < now - CLAIM_SECONDS
            )
        )


def _waiting(r: Any) -> Waiting:
    return Waiting(
        id=int(r.id),
        rules=str(r.rules),
        players=int(r.players),
        player=r.player,
        name=str(r.name),
        code=r.code,
        seat=r.seat,
        token=r.token,
        claimed=r.claim is not None,
    )


def shown(mu: float, sigma: float) -> dict[str, float]:
    """A rating as the API shows it: ``mu``, ``sigma`` and the cautious ``value``
    (``mu - 3 sigma``) the leaderboard orders by."""
    return {"mu": round(mu, 3), "sigma": round(sigma, 3), "value": round(mu - 3 * sigma, 2)}


__all__ = [
    "CLAIM_SECONDS",
    "STALE_SECONDS",
    "OnlineStore",
    "RatedSeat",
    "Refused",
    "Waiting",
    "hash_secret",
    "shown",
]
