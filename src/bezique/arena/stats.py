"""Statistics for bot matches: means with confidence intervals, Wilson intervals, Elo.

Mirrored deals are not independent plays: the two plays of one deck share its luck.  So every
interval here treats the *pair* (or, with three sides, the set of plays of one deck) as one
sample: the per-deck mean is the unit, and the interval is the usual normal one on those means.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


@dataclass(frozen=True)
class Estimate:
    """A mean with a 95% confidence interval."""

    mean: float
    low: float
    high: float
    n: int
    """Independent samples behind it."""

    def as_dict(self, digits: int = 4) -> dict[str, float | int | None]:
        """The estimate as plain JSON values; an end that is not a finite number (no interval
        from one sample, no finite Elo for a perfect score) is ``None``."""

        def plain(v: float) -> float | None:
            return round(v, digits) if math.isfinite(v) else None

        return {
            "mean": plain(self.mean),
            "low": plain(self.low),
            "high": plain(self.high),
            "n": self.n,
        }

    def text(self, digits: int = 1, scale: float = 1.0, unit: str = "") -> str:
        """``'12.3 [4.5, 20.1]'`` (times ``scale``, with ``unit`` after each number; ``—`` for
        a number that is not finite)."""

        def f(v: float) -> str:
            return f"{v * scale:.{digits}f}{unit}" if math.isfinite(v) else "—"

        return f"{f(self.mean)} [{f(self.low)}, {f(self.high)}]"


def mean_interval(values: Sequence[float]) -> Estimate:
    """The mean of independent samples with its 95% normal interval."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = sum(values) / n
    if n == 1:
        return Estimate(m, -math.inf, math.inf, 1)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, n)


def wilson_interval(wins: float, n: int) -> Estimate:
    """A proportion (``wins`` may count ties as halves) with its 95% Wilson score interval."""
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # at 0 or n wins the bound is exactly 0 or 1; rounding would leave 0.9999999999999999
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= n else min(1.0, centre + half)
    return Estimate(p, low, high, n)


def elo(score: float) -> float:
    """The Elo difference that an expected score (0 to 1) stands for; infinite for a perfect
    score (0 or 1), which no finite difference predicts."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_interval(score: Estimate) -> Estimate:
    """An Elo difference with its interval, from a score estimate (the interval's ends mapped
    through :func:`elo`)."""
    return Estimate(elo(score.mean), elo(score.low), elo(score.high), score.n)
