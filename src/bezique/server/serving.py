"""Running the application under uvicorn: its settings, and the one thing uvicorn leaves open.

uvicorn closes a kept-alive connection that stays silent, but not one that has begun a request
and never finishes its head: a client sending its headers a byte a minute (slowloris) holds a
socket, and a few hundred such hold every file the process may open.  :class:`GuardedHTTP`
closes a connection whose request head has not arrived within ``HEAD_SECONDS`` of its first
byte (or of the connection opening).  A WebSocket's own first message has its limit in the
application (``hello_seconds``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from uvicorn import Config
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from .limits import HEAD_SECONDS

TIMEOUT_KEEP_ALIVE = 5
"""Seconds a kept-alive HTTP connection may stay silent between requests (uvicorn's default)."""


class GuardedHTTP(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol, closing a connection whose request head is late."""

    head_seconds: float = HEAD_SECONDS

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._time_head()

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        if self._head_timer is None and (cycle is None or cycle.response_complete):
            self._time_head()  # the first bytes of a new request: its head is now due
        super().data_received(data)

    def _time_head(self) -> None:
        self._head_timer = self.loop.call_later(self.head_seconds, self._head_late, self.cycle)

    def _head_late(self, cycle_before: Any) -> None:
        self._head_timer = None
        if self.cycle is cycle_before and not self.transport.is_closing():
            self.transport.close()  # no request began since the clock started
        # else a request began: the next one's first bytes start the clock again, and an idle
        # kept-alive connection is uvicorn's to close (--timeout-keep-alive)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def handle_websocket_upgrade(self, *args: Any) -> None:
        self._stop_head_timer()  # the WebSocket takes the connection over
        super().handle_websocket_upgrade(*args)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)


class _ClientFault(logging.Filter):
    """uvicorn logs a WebSocket text frame that is not UTF-8 with a traceback, as if the server
    had failed; it closes that connection (1007) as it must, and one line says so."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("Invalid UTF-8 sequence received from client"):
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def config(
    app: Any,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    limit_concurrency: int | None = None,
    timeout_keep_alive: int = TIMEOUT_KEEP_ALIVE,
    head_seconds: float = HEAD_SECONDS,
    ws_compression: bool = True,
    forwarded_allow_ips: Sequence[str] | None = None,
) -> Config:
    """uvicorn's settings for the application: WebSocket frames of at most 64 KiB, the HTTP
    protocol that times request heads, and uvicorn's own limits (``limit_concurrency``: the
    connections and tasks at once past which new requests are answered 503; None: no limit);
    ``ws_compression``: WebSocket messages compressed (permessage-deflate: a view of some 1.3 KB
    travels as a few hundred bytes, for a fifth of the server's time an action);
    ``forwarded_allow_ips``: the proxies whose ``X-Forwarded-For`` names the client (none by
    default: the header is ignored, so a process on this machine cannot pass itself off as
    many clients and escape every per-address limit)."""
    errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _ClientFault) for f in errors.filters):
        errors.addFilter(_ClientFault())
    http = type("GuardedHTTP", (GuardedHTTP,), {"head_seconds": head_seconds})
    return Config(
        app,
        host=host,
        port=port,
        http=http,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=ws_compression,
        log_level="warning",
        limit_concurrency=limit_concurrency,
        timeout_keep_alive=timeout_keep_alive,
        proxy_headers=bool(forwarded_allow_ips),
        forwarded_allow_ips=list(forwarded_allow_ips) if forwarded_allow_ips else None,
    )


__all__ = ["TIMEOUT_KEEP_ALIVE", "GuardedHTTP", "config"]
