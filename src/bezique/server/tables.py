"""Tables: a match, its seats and the connections watching it, behind one lock per table.

Database calls run in worker threads of their own, each call with a connection of its own, and
the computer's thinking in another small pool (``workers.py``), never in the event loop, which
goes on serving every other table meanwhile.

The server is the authority.  Clients send action notation only; the table checks who sends
it, that it is that seat's turn and that the move number is current, lets the engine judge
legality, commits the action to the store, and only then tells everyone, each connection
getting the view of its own seat (a spectator the public view).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from .. import bots
from ..bots.base import Bot
from ..core.match import Match, PlayedDeal
from ..core.notation import IllegalAction
from ..core.rules import Rules
from . import advice
from .connection import BURST, RATE, Connection
from .protocol import (
    ProtocolError,
    dumps,
    match_info,
    message,
    parse_action,
    view,
)
from .storage import NEXT_DEAL, SeatRow, TableRow
from .workers import Slots

if TYPE_CHECKING:
    from .room import Lobby

log = logging.getLogger("bezique.server")

CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CODE_LENGTH = 8
IDLE_SECONDS = 600.0
"""A table nobody is connected to (and no computer is playing) leaves memory after this."""
SEAT_CONNECTIONS = 4
"""Connections one seat token may hold at once (a phone, a laptop, a tab or two)."""
MAX_ADVICE = 2
"""Hints and reviews worked out at once for one table (and one at a time for a seat)."""
COALESCE_SECONDS = 0.1
"""Joins and leaves within this long are told to the table in one message."""
MAX_RULE_SETS = 256
"""Rule sets the lobby keeps for its tables to share."""
MAX_TARGET = 10_000
"""Highest target a table plays to (a classic match to 1,000 has about 600 actions)."""
MAX_TABLE_ACTIONS = 20_000
"""Actions a table's log may hold: at a deal's end past this the match stops, undecided (rules
whose deals score nothing would otherwise go on for good)."""
SEED_BITS = 128
"""Bits of a table's seed and of each computer player's: secrets of their own, drawn apart, so
nothing a player sees (the computer's choices among them) tells anything of the cards."""


def hash_token(token: str) -> str:
    # a token is ASCII; anything else (a lone surrogate among it) only has to hash to no seat
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def levels() -> list[str]:
    """The computer players on offer, and the only ones the server seats: the levels (:data:`bezique.bots.levels.LEVELS`)."""
    return bots.levels()


def default_level() -> str:
    offered = levels()
    return "medium" if "medium" in offered else offered[0]


def replay_log(
    rules: Rules,
    seed: int,
    handicap: list[int] | None,
    actions: list[str],
    outcomes: Mapping[int, Mapping[str, Any]] | None = None,
) -> tuple[Match, int]:
    """The match a table's log makes, and the actions of play in it (the log's entries less
    the deal starts).  With the ``outcomes`` of every finished deal (as the store keeps them)
    only the current deal is replayed; without them, or if they do not fit the log, the whole
    log.  Called in a worker thread: even one deal takes a while on big rules."""
    deals: list[list[str]] = [[]]
    for action in actions:
        if action == NEXT_DEAL:
            deals.append([])
        else:
            deals[-1].append(action)
    moves = len(actions) - (len(deals) - 1)
    finished = deals[:-1]
    match = None
    if outcomes is not None and all(i in outcomes for i in range(len(finished))):
        try:
            played = [PlayedDeal.from_outcome(outcomes[i], a) for i, a in enumerate(finished)]
            match = Match.resume(rules, seed, handicap, played)
        except ValueError as e:
            log.warning("a table's kept deal outcomes do not fit its log (%s): replaying it", e)
    if match is None:
        match = Match(rules, seed, handicap)
        for deal in finished:
            for action in deal:
                match.deal.apply(action)
            match.next_deal()
    for action in deals[-1]:
        match.deal.apply(action)
    return match, moves


ReplayArgs = tuple[Rules, int, list[int] | None, list[str], Mapping[int, Mapping[str, Any]] | None]
"""The arguments of :func:`replay_log`."""


def replay_args(rules: Rules, row: TableRow) -> ReplayArgs:
    """What :func:`replay_log` needs to rebuild a table from its stored row (``rules``: its
    rules, read)."""
    actions = [m.action for m in row.moves]
    return rules, stored_seed(row), row.config.get("handicap"), actions, row.outcomes


def stored_seed(row: TableRow) -> int:
    """A table's seed: its whole 128 bits are in the config (the column holds 63 of them)."""
    return int(row.config.get("seed", row.seed))


class Table:
    """A table: rules, seed, seats, the match (once started) and who is connected."""

    def __init__(self, lobby: Lobby, row: TableRow, built: tuple[Match, int] | None = None) -> None:
        self.lobby = lobby
        self.code = row.code
        self.rules = lobby.rules_for(row.rules)
        self.seed = stored_seed(row)
        self.config = row.config
        self.host = row.host
        self.status = row.status
        self.seats: list[SeatRow] = row.seats
        n = self.rules.players
        self.conns: set[Connection] = set()
        self.taken_over: set[int] = set()
        self.away_since: list[float | None] = [None] * n
        self.ready = [False] * n
        self.lock = asyncio.Lock()
        self.match: Match | None = None
        self.moves = 0
        self.log_n = 0
        self._bots: dict[tuple[int, str], Bot] = {}
        self._bot_seeds: dict[int, int] = {}
        """Each computer seat's seed, a secret of its own (never derived from the table's)."""
        self._driver: asyncio.Task[None] | None = None
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._advising = Slots(MAX_ADVICE)
        """Seats whose hint or review is being worked out."""
        self._seats_told: asyncio.TimerHandle | None = None
        self._outcomes_kept: set[int] = set()
        """Deals whose outcomes the store has (``storage.outcomes_t``)."""
        self._rebuild(row, built)

    # --- state -----------------------------------------------------------------------------------
    def _rebuild(self, row: TableRow, built: tuple[Match, int] | None = None) -> None:
        """Replay the log (or take the match ``built`` from it in a worker thread): the table
        as it was after the last committed action."""
        self.match = None
        self.moves = 0
        self.log_n = len(row.moves)
        self._outcomes_kept = set(row.outcomes)
        if self.status == "waiting":
            return
        match, self.moves = built or replay_log(*replay_args(self.rules, row))
        self.match = match
        if match.winner is not None:  # a log that ends the match is over, whatever was stored
            self.status = "over"

    async def _reload(self) -> None:
        row = await self.lobby.work.db(self.lobby.store.load, self.code)
        if row is not None:
            self.status = row.status
            self.seats = row.seats
            self._rebuild(row, await self.lobby.built(row))

    @property
    def hints(self) -> bool:
        return bool(self.config.get("hints", False))

    @property
    def takeover_seconds(self) -> float | None:
        value = self.config.get("takeover")
        return None if value is None else float(value)

    def computer_plays(self, seat: int) -> bool:
        """Does the computer play this seat now? (For an away person only while others are in.)"""
        present = any(c.seat is not None for c in self.conns)  # spectators do not count
        return self.seats[seat].kind == "bot" or (seat in self.taken_over and present)

    def takeover_in(self, seat: int) -> float | None:
        """Seconds until the computer takes over this away seat; None when no clock runs."""
        since, wait = self.away_since[seat], self.takeover_seconds
        if since is None or wait is None or seat in self.taken_over:
            return None
        return round(max(0.0, since + wait - time.monotonic()), 1)

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def info(self) -> dict[str, Any]:
        """What anyone may know about the table."""
        return {
            "code": self.code,
            "rules": str(self.rules),
            "preset": self.rules.name,
            "players": self.rules.players,
            "sides": self.rules.sides,
            "partnerships": self.rules.partnerships,
            "status": self.status,
            "host": self.host,
            "hints": self.hints,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "level": s.level if s.kind == "bot" else None,
                    "connected": s.kind == "bot" or self.connected(s.seat),
                    "computer": self.computer_plays(s.seat),
                    "takeover_in": self.takeover_in(s.seat),
                }
                for s in self.seats
            ],
        }

    def seat_for(self, token: str) -> int | None:
        """The seat a token belongs to, or None."""
        h = hash_token(token)
        found = None
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                found = s.seat
        return found

    def _view_message(
        self, kind: str, viewer: int | None, info: dict[str, Any] | None = None, **extra: Any
    ) -> dict[str, Any]:
        """A message carrying ``viewer``'s view of the deal (None: the public view); ``info``
        is the match information when the caller has it already."""
        match = self.match
        if match is not None and info is None:
            info = match_info(match, self.moves, self.ready)
        seen = None if match is None else view(match.deal.observation(viewer))
        return message(kind, move=self.moves, view=seen, match=info, **extra)

    # --- telling the clients ---------------------------------------------------------------------
    def _per_seat(self, build: Callable[[int | None], dict[str, Any]]) -> None:
        """Send each connection the message built for its own seat (built once a seat)."""
        cache: dict[int | None, str] = {}
        for c in list(self.conns):
            text = cache.get(c.seat)
            if text is None:
                text = cache[c.seat] = dumps(build(c.seat))
            c.send(text)

    def _broadcast_state(self) -> None:
        self._per_seat(lambda seat: self._view_message("state", seat, table=self.info()))

    def _broadcast_table(self) -> None:
        if self._seats_told is not None:  # told now, with the joins and leaves pending
            self._seats_told.cancel()
            self._seats_told = None
        text = dumps(message("table", table=self.info()))
        for c in list(self.conns):
            c.send(text)

    def _seats_changed(self) -> None:
        """Joins and leaves: one ``table`` message for all of them within a moment (a crowd
        of watchers arriving would otherwise cost a message to each for each)."""
        if self._seats_told is None:
            self._seats_told = asyncio.get_running_loop().call_later(
                COALESCE_SECONDS, self._broadcast_table
            )

    # --- connections -----------------------------------------------------------------------------
    async def attach(self, conn: Connection, token: str | None) -> None:
        """A connection says hello: as the seat its token names, or as a spectator."""
        async with self.lock:
            self._attach(conn, token)
            # a person back at a table that waited: the computer goes on for the away seats
            await self._maybe_next_deal()
            self.kick()

    def _attach(self, conn: Connection, token: str | None) -> None:
        seat = None
        if token is not None:
            seat = self.seat_for(token)
            if seat is None:
                raise ProtocolError("auth", "this seat token is not valid at this table")
            if sum(1 for c in self.conns if c.seat == seat) >= SEAT_CONNECTIONS:
                raise ProtocolError(
                    "not-allowed",
                    f"this seat is open in {SEAT_CONNECTIONS} places already: close one first",
                )
        conn.table, conn.seat = self, seat
        self.conns.add(conn)
        if seat is not None:
            self.away_since[seat] = None
            timer = self._timers.pop(seat, None)
            if timer is not None:
                timer.cancel()
            self.taken_over.discard(seat)
        conn.send(self._view_message("welcome", seat, table=self.info(), seat=seat))
        self._seats_changed()

    def detach(self, conn: Connection) -> None:
        if conn not in self.conns:
            return
        self.conns.discard(conn)
        seat = conn.seat
        if seat is not None and not self.connected(seat):
            self._away(seat)
        if not self.conns:
            if self.status == "over":
                self.lobby.forget(self)
                return
            self.idle_later()  # kept in the database; dropped from memory if nobody comes back
        self._seats_changed()

    def idle_later(self) -> None:
        """Check later whether the table is still needed in memory (every loaded table gets
        this check, whether or not anyone ever connects)."""
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to time
            asyncio.get_running_loop().call_later(self.lobby.idle_seconds, self._idle_check)

    def _idle_check(self) -> None:
        if self.conns:  # the last connection to close starts the clock again
            return
        busy = self._driver is not None or self._timers or self._advising or self.lock.locked()
        if not busy:
            self.lobby.forget(self)
            return
        self.idle_later()  # the computer or a clock is still at work: look again later

    def _away(self, seat: int) -> None:
        """A person's last connection closed: after the set time the computer plays for them."""
        wait = self.takeover_seconds
        if wait is None or self.seats[seat].kind != "human":
            return
        self.away_since[seat] = time.monotonic()
        loop = asyncio.get_running_loop()
        old = self._timers.pop(seat, None)
        if old is not None:
            old.cancel()
        self._timers[seat] = loop.call_later(wait, self._take_over, seat)

    def _take_over(self, seat: int) -> None:
        self._timers.pop(seat, None)
        asyncio.get_running_loop().create_task(self._taking_over(seat))

    async def _taking_over(self, seat: int) -> None:
        async with self.lock:
            if self.connected(seat) or self.seats[seat].kind != "human":
                return
            self.taken_over.add(seat)
            self._broadcast_table()
            await self._maybe_next_deal()
            self.kick()

    def start_timers(self) -> None:
        """After a (re)load nobody is connected: start the clock for every person."""
        for s in self.seats:
            if s.kind == "human" and not self.connected(s.seat):
                self._away(s.seat)

    def close(self) -> None:
        for t in self._timers.values():
            t.cancel()
        self._timers.clear()
        if self._seats_told is not None:
            self._seats_told.cancel()
        if self._driver is not None:
            self._driver.cancel()
        for c in list(self.conns):
            c.close()

    # --- messages --------------------------------------------------------------------------------
    async def handle(self, conn: Connection, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            conn.send(message("pong"))
        elif kind == "action":
            await self.act(conn, msg["move"], msg["action"])
        elif kind == "ready":
            async with self.lock:
                await self._ready(conn, msg["deal"])
        elif kind == "start":
            async with self.lock:
                await self._start_request(conn)
        elif kind == "hint":
            await self._hint(conn, msg["move"])
        elif kind == "review":
            await self._review(conn, msg["deal"])
        elif kind == "hello":
            raise ProtocolError("malformed", "already said hello")

    def _player(self, conn: Connection) -> int:
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators watch: they cannot act")
        return conn.seat

    def _playing(self) -> Match:
        if self.match is None:
            raise ProtocolError("not-started", "the game has not started yet")
        if self.status == "over":
            raise ProtocolError("over", "the match is over")
        return self.match

    async def act(self, conn: Connection, move: int, text: str) -> None:
        seat = self._player(conn)
        async with self.lock:
            match = self._playing()
            if move != self.moves:
                raise ProtocolError(
                    "stale", f"move {move} is not current: {self.moves} actions have been played"
                )
            deal = match.deal
            if deal.is_over:
                raise ProtocolError("not-your-turn", "the deal is over: say ready for the next")
            if deal.to_move != seat:
                raise ProtocolError("not-your-turn", f"it is seat {deal.to_move}'s turn")
            action = parse_action(text)
            try:
                # the text is read once, here: from now on the action is its id
                action_id = deal.action_id(action)
            except IllegalAction as e:
                raise ProtocolError("illegal", str(e)) from None
            await self._apply(seat, action_id)

    async def _apply(self, seat: int, action_id: int) -> None:
        """Apply the legal action with this id, commit, tell everyone (caller holds the lock)."""
        match = self.match
        assert match is not None
        deal = match.deal
        deal.apply_id(action_id)  # IllegalAction leaves the deal as it was
        applied = deal.history[-1]
        over = deal.is_over and match.winner is not None
        try:
            await self.lobby.writer.append(
                self.code, self.log_n, len(match.deals) - 1, seat, applied, "over" if over else None
            )
        except Exception:
            log.exception("table %s: could not store an action", self.code)
            await self._reload()
            raise ProtocolError("server", "the move could not be saved; try again") from None
        self.log_n += 1
        self.moves += 1
        index = self.moves - 1
        if deal.is_over:
            self.ready = [False] * self.rules.players
            if over:  # stored with the action
                self.status = "over"
                if self.lobby.on_over is not None:
                    self.lobby.on_over(self)
        info = match_info(match, self.moves, self.ready)
        self._per_seat(
            lambda s: self._view_message("update", s, info, seat=seat, action=applied, index=index)
        )
        if deal.is_over:
            if self.status == "over":
                self._broadcast_table()
            await self._maybe_next_deal()
        self.kick()

    async def _ready(self, conn: Connection, deal: int) -> None:
        seat = self._player(conn)
        match = self._playing()
        if deal != len(match.deals) - 1 or not match.deal.is_over:
            raise ProtocolError("stale", "that deal is not the one just finished")
        self.ready[seat] = True
        await self._maybe_next_deal()
        if self.match is match and match.deal.is_over:
            self._per_seat(lambda s: self._view_message("state", s))

    async def _maybe_next_deal(self) -> None:
        match = self.match
        if match is None or self.status != "playing" or not match.deal.is_over:
            return
        if match.winner is not None:
            return
        if self.moves >= MAX_TABLE_ACTIONS:  # a match this long stops here, undecided
            await self.lobby.work.db(self.lobby.store.set_status, self.code, "over")
            self.status = "over"
            self._broadcast_table()
            return
        n = self.rules.players
        if not all(self.ready[s] or self.computer_plays(s) for s in range(n)):
            return
        try:
            await self.lobby.writer.append(self.code, self.log_n, len(match.deals), -1, NEXT_DEAL)
        except Exception:
            log.exception("table %s: could not store the next deal", self.code)
            return
        self.log_n += 1
        match.next_deal()
        self.ready = [False] * n
        self._broadcast_state()
        self.kick()
        await self._keep_outcomes(match)

    async def _keep_outcomes(self, match: Match) -> None:
        """Store the outcomes of the finished deals not stored yet (a table from before they
        were kept gets them all): a reload then replays only the current deal.  They are a cache
        of the log, so a failure is only logged."""
        finished = match.finished[: len(match.deals) - 1]  # the current deal's is not needed
        missing = {i: p.outcome() for i, p in enumerate(finished) if i not in self._outcomes_kept}
        if not missing:
            return
        try:
            await self.lobby.work.db(self.lobby.store.save_outcomes, self.code, missing)
        except Exception:
            log.warning("table %s: could not keep the deals' outcomes", self.code, exc_info=True)
        else:
            self._outcomes_kept.update(missing)

    async def _start_request(self, conn: Connection) -> None:
        seat = self._player(conn)
        if self.status != "waiting":
            raise ProtocolError("not-allowed", "the game has already started")
        if seat != self.host:
            raise ProtocolError("not-allowed", "only the host starts the game")
        level = str(self.config.get("fill_level") or default_level())
        for s in self.seats:
            if s.kind == "open":
                await self._store_seat(
                    replace(s, kind="bot", level=level, name=f"Computer ({level})")
                )
        await self.begin()

    async def _store_seat(self, seat: SeatRow) -> None:
        """Store a seat's new state, then take it (the caller holds the lock)."""
        await self.lobby.work.db(self.lobby.store.update_seat, self.code, seat)
        self.seats[seat.seat] = seat

    async def begin(self) -> None:
        """Every seat is taken: deal (the caller holds the lock)."""
        await self.lobby.work.db(self.lobby.store.set_status, self.code, "playing")
        self.status = "playing"
        self.match = Match(self.rules, self.seed, self.config.get("handicap"))
        self._broadcast_state()
        self.kick()

    async def claim(self, name: str) -> tuple[int, str]:
        """A friend joins: the first open seat, with a new token (caller holds the lock)."""
        for s in self.seats:
            if s.kind == "open":
                token = secrets.token_urlsafe(24)
                await self._store_seat(
                    replace(s, kind="human", name=name, token_hash=hash_token(token))
                )
                if self.takeover_seconds is not None and not self.connected(s.seat):
                    self._away(s.seat)
                if not any(x.kind == "open" for x in self.seats):
                    await self.begin()
                else:
                    self._broadcast_table()
                return s.seat, token
        raise ProtocolError("not-allowed", "every seat at this table is taken")

    async def _hint(self, conn: Connection, move: int) -> None:
        seat = self._player(conn)
        async with self.lock:
            match = self._playing()
            if not self.hints:
                raise ProtocolError("not-allowed", "hints are off at this table")
            if move != self.moves or match.deal.to_move != seat:
                raise ProtocolError("not-your-turn", "a hint is for your own turn")
            obs = match.deal.observation(seat)
        lobby = self.lobby
        with self._advising.hold(seat):
            action, reason = await lobby.work.think(
                advice.suggest, obs, lobby.hint_level, lobby.hint_seconds
            )
        conn.send(message("hint", move=move, action=action, reason=reason))

    async def _review(self, conn: Connection, deal: int) -> None:
        seat = self._player(conn)
        async with self.lock:
            match = self.match
            if match is None or not 0 <= deal < len(match.finished):
                raise ProtocolError("not-allowed", "a review is for a finished deal")
        with self._advising.hold(seat):
            items = await self.lobby.work.think(
                advice.review, match, deal, seat, self.lobby.review_level
            )
        conn.send(message("review", deal=deal, seat=seat, items=items))

    # --- the computer ----------------------------------------------------------------------------
    def _bot(self, seat: int) -> Bot:
        s = self.seats[seat]
        level = s.level if s.kind == "bot" else str(self.config.get("fill_level") or "")
        if level not in levels():  # a seat stored with another bot plays as the default
            level = default_level()
        key = (seat, level)
        bot = self._bots.get(key)
        if bot is None:
            seed = self._bot_seeds.setdefault(seat, secrets.randbits(SEED_BITS))
            bot = self._bots[key] = bots.make(level, seed=seed)
        return bot

    def _bot_to_move(self) -> int | None:
        match = self.match
        if match is None or self.status != "playing":
            return None
        seat = match.deal.to_move
        if seat is None or not self.computer_plays(seat):
            return None
        return seat

    def kick(self) -> None:
        """Let the computer move if it is its turn (one driver task a table)."""
        if self._driver is None and self._bot_to_move() is not None:
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        failures = 0
        try:
            while True:
                async with self.lock:
                    seat = self._bot_to_move()
                    if seat is None:
                        return
                    assert self.match is not None
                    obs = self.match.deal.observation(seat)
                    moves = self.moves
                bot = self._bot(seat)
                if self.lobby.bot_delay:
                    await asyncio.sleep(self.lobby.bot_delay)
                choice = await self.lobby.work.think(bot.choose, obs)
                async with self.lock:
                    if self.moves != moves or self._bot_to_move() != seat:
                        continue
                    assert self.match is not None
                    try:
                        await self._apply(seat, self.match.deal.action_id(choice))
                    except ProtocolError as e:  # not stored: the table was reloaded
                        if e.code != "server":
                            raise
                        failures += 1
                        if failures > 5:
                            return
                    except IllegalAction:
                        log.exception("table %s: the computer's move failed", self.code)
                        return
                if failures:
                    await asyncio.sleep(1.0)
        finally:
            self._driver = None


__all__ = [
    "BURST",
    "MAX_TABLE_ACTIONS",
    "MAX_TARGET",
    "RATE",
    "SEED_BITS",
    "Connection",
    "Table",
    "default_level",
    "levels",
    "replay_log",
    "stored_seed",
]
