"""The score-keeper for games played with real cards: :class:`Keeper` (the score sheet of each
deal and the match) and its journal (:meth:`Keeper.resume`).

The rules of scoring are the core's (:mod:`bezique.core.melds`, :mod:`bezique.core.match`):
the keeper checks and adds up what the players enter.
"""

from .keeper import Keeper
from .sheet import (
    JOURNAL_FORMAT,
    JOURNAL_VERSION,
    OFFENCES,
    DealSheet,
    Declaration,
    describe,
    parse_declaration,
)

__all__ = [
    "JOURNAL_FORMAT",
    "JOURNAL_VERSION",
    "OFFENCES",
    "DealSheet",
    "Declaration",
    "Keeper",
    "describe",
    "parse_declaration",
]
