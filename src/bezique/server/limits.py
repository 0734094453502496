"""The limits on HTTP requests and connections: the size of a request body, the rate of the
requests that make something or cost real work (a table, a seat, a replay, a rules page), a token
bucket per client address, the WebSockets an address may hold open, and the headers every answer
carries.

A body is counted as it arrives, so a chunked upload (no ``Content-Length``) is refused once it
passes the limit, before the rest is read.

Each address may make ``burst`` such requests at once, then ``rate`` a second.  An IPv6 address
counts by its /64 network, since one machine is commonly given a whole /64.  The table of
buckets stays bounded: a bucket untouched long enough to be full again is the same as none and
is dropped, and past ``max_addresses`` the longest idle ones are dropped first (such an address
starts again with a full bucket, which is the most it can gain).
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

HTTP_RATE = 1.0
"""Requests a second an address may make on average (creating or joining tables, uploads) ..."""
HTTP_BURST = 20.0
"""... and at once."""
MAX_ADDRESSES = 65_536
"""Addresses remembered at most."""
WS_PER_ADDRESS = 64
"""WebSockets one client address may hold open at once (a household or a classroom behind one
address has room; one machine cannot take every file the server may open)."""
LOOKUP_RATE = 10.0
"""Table look-ups a second an address may make on average (``GET /api/tables/{code}`` and the
hellos of WebSockets, each of which may load a table from the store) ..."""
LOOKUP_BURST = 60.0
"""... and at once (a code is one of 31^8: guessing at this rate finds nothing)."""
BODY_SECONDS = 10.0
"""A request body must have arrived within this long of the application asking for it, or the
answer is 408 and the connection is closed (a client sending its body a byte at a time)."""
HELLO_SECONDS = 10.0
"""A WebSocket must say hello within this long, or it is closed."""
HEAD_SECONDS = 10.0
"""An HTTP request's head (request line and headers) must arrive within this long, or the
connection is closed (a client sending its headers a byte at a time holds a socket for good)."""
SECURITY_HEADERS = {
    # no other site may frame the game (clickjacking), and the page runs only its own files
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Headers on every HTTP answer."""


def address_key(host: str | None) -> str:
    """Whose bucket a request uses: its address, an IPv6 address by its /64 network."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class AddressLimit:
    """Token buckets by client address; ``take(host)`` answers whether a request may go on."""

    def __init__(
        self,
        rate: float = HTTP_RATE,
        burst: float = HTTP_BURST,
        *,
        max_addresses: int = MAX_ADDRESSES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not rate > 0 or not burst >= 1:
            raise ValueError("the HTTP rate must be above 0 and the burst at least 1")
        self.rate, self.burst = float(rate), float(burst)
        self.max_addresses = max_addresses
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        """Address -> (tokens, when counted), the least recently used first."""

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, host: str | None) -> float:
        """Take a token for a request from ``host``: 0 when it may go on, else the seconds
        until it may (nothing is taken then)."""
        now = self.clock()
        self._forget_idle(now)
        key = address_key(host)
        tokens, last = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + max(0.0, now - last) * self.rate)
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.max_addresses:
            self._buckets.popitem(last=False)
        return wait

    def _forget_idle(self, now: float) -> None:
        """Drop the buckets that have filled up again (the longest idle come first)."""
        full_after = self.burst / self.rate
        while self._buckets:
            key, (_tokens, last) = next(iter(self._buckets.items()))
            if now - last < full_after:
                break
            del self._buckets[key]


class AddressCount:
    """Open connections by client address (an IPv6 address by its /64): ``take(host)`` is
    False when the address holds ``limit`` already; ``give_back(host)`` when one closes."""

    def __init__(self, limit: int = WS_PER_ADDRESS) -> None:
        if limit < 1:
            raise ValueError("the connections an address may hold must be at least 1")
        self.limit = limit
        self._open: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._open)

    def count(self, host: str | None) -> int:
        return self._open.get(address_key(host), 0)

    def take(self, host: str | None) -> bool:
        key = address_key(host)
        held = self._open.get(key, 0)
        if held >= self.limit:
            return False
        self._open[key] = held + 1
        return True

    def give_back(self, host: str | None) -> None:
        key = address_key(host)
        held = self._open.get(key, 0) - 1
        if held > 0:
            self._open[key] = held
        else:
            self._open.pop(key, None)


class TooLarge(HTTPException):
    """A request body past the limit: ``413`` ``{"detail": "request too large"}``."""

    def __init__(self) -> None:
        # the rest of the body is not wanted: uvicorn closes the connection after the answer
        super().__init__(413, "request too large", headers={"Connection": "close"})


class BodyLate(HTTPException):
    """A request body not in within :data:`BODY_SECONDS`: ``408``, and the connection closed."""

    def __init__(self) -> None:
        super().__init__(408, "the request body came too slowly", headers={"Connection": "close"})


class BodyLimit:
    """ASGI middleware: an HTTP request body may have at most ``limit`` bytes, and must arrive
    within ``seconds`` of the application first asking for it.

    A ``Content-Length`` past the limit (or not a number) is refused before the application
    runs; a body without one (``Transfer-Encoding: chunked``) is counted as the application
    reads it, and reading past the limit raises :class:`TooLarge` there, which the application
    answers as it answers any HTTP error (here, should it escape, the middleware does).  A body
    still coming when its time is up raises :class:`BodyLate` the same way."""

    def __init__(self, app: ASGIApp, limit: int, seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.limit = limit
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lengths = [v for k, v in scope.get("headers", ()) if k.lower() == b"content-length"]
        if any(not v.isdigit() or int(v) > self.limit for v in lengths):
            await _too_large(scope, receive, send)
            return
        seen = 0
        started = False
        complete = False
        due: float | None = None

        async def counted() -> Message:
            nonlocal seen, complete, due
            if complete:  # the body is in: what comes now is the client leaving, untimed
                return await receive()
            loop = asyncio.get_running_loop()
            due = loop.time() + self.seconds if due is None else due
            try:
                message = await asyncio.wait_for(receive(), max(due - loop.time(), 0.001))
            except TimeoutError:
                raise BodyLate() from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise TooLarge()
                complete = not message.get("more_body", False)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except (TooLarge, BodyLate) as e:
            if started:
                raise
            await _refuse(scope, receive, send, e)


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    await _refuse(scope, receive, send, TooLarge())


async def _refuse(scope: Scope, receive: Receive, send: Send, e: HTTPException) -> None:
    response = JSONResponse(
        {"detail": e.detail}, status_code=e.status_code, headers={"Connection": "close"}
    )
    await response(scope, receive, send)


def retry_after(wait: float) -> str:
    """The ``Retry-After`` header for a wait: whole seconds, at least one."""
    return str(max(1, math.ceil(wait)))


__all__ = [
    "BODY_SECONDS",
    "HEAD_SECONDS",
    "HELLO_SECONDS",
    "HTTP_BURST",
    "HTTP_RATE",
    "LOOKUP_BURST",
    "LOOKUP_RATE",
    "SECURITY_HEADERS",
    "WS_PER_ADDRESS",
    "AddressCount",
    "AddressLimit",
    "BodyLate",
    "BodyLimit",
    "TooLarge",
    "address_key",
    "retry_after",
]
