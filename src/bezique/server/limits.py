"""The rate limit on the HTTP requests that make something (a table, a seat, a replay): a token
bucket per client address.

Each address may make ``burst`` such requests at once, then ``rate`` a second.  An IPv6 address
counts by its /64 network, since one machine is commonly given a whole /64.  The table of
buckets stays bounded: a bucket untouched long enough to be full again is the same as none and
is dropped, and past ``max_addresses`` the longest idle ones are dropped first (such an address
starts again with a full bucket, which is the most it can gain).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable

HTTP_RATE = 1.0
"""Requests a second an address may make on average (creating or joining tables, uploads) ..."""
HTTP_BURST = 20.0
"""... and at once."""
MAX_ADDRESSES = 65_536
"""Addresses remembered at most."""


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


def retry_after(wait: float) -> str:
    """The ``Retry-After`` header for a wait: whole seconds, at least one."""
    return str(max(1, math.ceil(wait)))


__all__ = ["HTTP_BURST", "HTTP_RATE", "AddressLimit", "address_key", "retry_after"]
