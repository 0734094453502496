"""One WebSocket connection to a table: its queue of outgoing text and its rate limit."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from .protocol import dumps

MAX_QUEUE = 256
"""Messages waiting for a slow client before its connection is dropped."""
RATE = 10.0
"""Messages a second a connection may send, on average ..."""
BURST = 30.0
"""... with bursts of this many."""
MAX_REFUSED = 300
"""Messages refused for the rate limit within ``REFUSED_WINDOW`` seconds before the connection
is closed (a long game's occasional refusals never add up to it)."""
REFUSED_WINDOW = 60.0


class Connection:
    """One WebSocket: a queue of outgoing text (a writer task drains it), the seat it speaks
    for (None: a spectator) and its rate limit."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.table: Any = None
        """The table it said hello to (a ``tables.Table``), None before."""
        self.seat: int | None = None
        self.closed = False
        self.refused = 0
        """Refusals in the current window (``REFUSED_WINDOW`` seconds)."""
        self._tokens = burst
        self._last = self._window = time.monotonic()

    def send(self, msg: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.close()
            return
        self.queue.put_nowait(msg if isinstance(msg, str) else dumps(msg))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def allow(self) -> bool:
        """Take one message from the rate limit's bucket; False when it is empty."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        if now - self._window > REFUSED_WINDOW:
            self._window, self.refused = now, 0
        self.refused += 1
        if self.refused > MAX_REFUSED:
            self.close()
        return False


__all__ = ["BURST", "MAX_QUEUE", "MAX_REFUSED", "RATE", "REFUSED_WINDOW", "Connection"]
