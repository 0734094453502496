"""The arena: bots against bots on mirrored deals, with win rates, margins, Elo and intervals.

::

    >>> from bezique.arena import run_arena
    >>> result = run_arena("simple", "random", "classic", decks=2, seed=1)
    >>> len(result.plays)
    4
    >>> sorted({p.seed for p in result.plays}) == [100_000, 100_001]
    True

``bezique arena A B --variant classic --deals N --seed S --jobs K --json FILE`` runs it from the
command line.  See :mod:`.runner` for how deals are mirrored and matches built, and
:mod:`.stats` for the intervals.
"""

from __future__ import annotations

from .runner import (
    ORACLE,
    ORACLE_C,
    ORACLE_HAND,
    ORACLES,
    ArenaResult,
    Play,
    PlayerSpec,
    decide,
    paired_deck_margins,
    paired_margin,
    play_deck,
    pool,
    run_arena,
    seatings,
)
from .stats import Estimate, elo, elo_interval, mean_interval, wilson_interval

__all__ = [
    "ORACLE",
    "ORACLES",
    "ORACLE_C",
    "ORACLE_HAND",
    "ArenaResult",
    "Estimate",
    "Play",
    "PlayerSpec",
    "decide",
    "elo",
    "elo_interval",
    "mean_interval",
    "paired_deck_margins",
    "paired_margin",
    "play_deck",
    "pool",
    "run_arena",
    "seatings",
    "wilson_interval",
]
