"""The state of one deal: the slots every layer of :class:`~bezique.core.deal.Deal` works on.

The engine is the inner loop of every search player, so state is plain lists of small ints:
every physical card has an id, ``_kinds[id]`` is its kind, ``_mask[id]`` the melds it has scored
in (0 while concealed), ``_known[id]`` whether all players know where it is while concealed.

A deal is built in layers, one module each, every one a subclass of the one before:
:class:`DealBase` (the slots), :class:`~bezique.core.movegen.MoveGen` (legal moves),
:class:`~bezique.core.resolve.Resolver` (text to a legal move, and why an action is illegal),
:class:`~bezique.core.transitions.DealState` (dealing and the transitions),
:class:`~bezique.core.applying.DealIds` (applying an action, by notation or integer id),
:class:`~bezique.core.worlds.Worlds` (determinization) and
:class:`~bezique.core.deal.Deal` (observations and position strings).  Beside them, two
modules hold no layer: :mod:`bezique.core.dealing` (card ids and how the cards are dealt) and
:mod:`bezique.core.idtables` (the rules' play-id tables and the answers of their options that
the transitions read).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for the annotations only: events.py imports this module (PART_*)
    from .events import ScoreEvent
    from .idtables import DealTables
    from .notation import Action
    from .rules import Rules

PLAY, DECLARE, OVER = "play", "declare", "over"

PART_MELDS, PART_TRICKS, PART_LAST, PART_BONUS = 0, 1, 2, 3
"""The parts of a side's points in a deal, the indices of ``_pts[side]`` (the C engine's
``PART_*``): declarations (sevens of trumps, carte blanche and the exchange included), the
tricks (brisques, card points or per-trick points), the last trick's bonus, the turn-up
bonuses (:class:`~bezique.core.transitions.SideResult` holds them by name)."""

# A concrete move: a card id to play | ('meld', meld id, card ids) | ('exchange', card id) | ('pass',)
Move = int | tuple[Any, ...]
RngLike = random.Random | int | None
ShufflePlan = tuple[int, int, list[int], tuple[tuple[int, list[int], int], ...], tuple[int, ...]]
"""(seat, actions applied, the unseen card ids, (seat, the cards it keeps, how many it is
dealt) for each other seat that holds unseen cards, the seats dealt nothing): see
``Worlds.reshuffle``."""


def as_rng(rng: RngLike) -> random.Random:
    """A random generator: the one given, or one seeded with the int (None: a fresh seed)."""
    return rng if isinstance(rng, random.Random) else random.Random(rng)


class DealBase:
    """The state of a deal: every slot, with its type (the behaviour comes in layers)."""

    __slots__ = (
        "_carry",
        "_decl_count",
        "_events",
        "_exchanged",
        "_game_bezique",
        "_hands",
        "_history",
        "_idt",
        "_instances",
        "_kinds",
        "_known",
        "_leader",
        "_legal",
        "_mask",
        "_names",
        "_phase",
        "_pts",
        "_shuffle_plan",
        "_stage",
        "_stock",
        "_to_move",
        "_trick",
        "_tricks",
        "_trump",
        "_turn_up",
        "dealer",
        "initial",
        "rules",
        "seed",
    )

    rules: Rules
    dealer: int
    _hands: list[list[int]]
    """Each seat's cards, as card ids (:meth:`hand` gives them in notation)."""
    seed: int | None
    """The seed it was shuffled from (None for a stacked or rebuilt deal)."""
    initial: tuple[tuple[tuple[str, ...], ...], str | None, tuple[str, ...]] | None
    """The cards as dealt: (hands, turn-up, stock in draw order); None for a rebuilt deal."""
    _kinds: tuple[int, ...]
    _mask: list[int]
    _known: list[bool]
    _stock: list[int]
    _turn_up: int | None
    _trump: int | None
    _trick: list[tuple[int, int]]
    _tricks: list[tuple[int, tuple[int, ...], int]]
    _events: list[ScoreEvent]
    _history: list[str]
    """The actions applied so far, in notation."""
    _instances: list[tuple[int, int, tuple[int, ...]]]
    _pts: list[list[int]]
    """Per side, its points in the four parts ``PART_MELDS``, ``PART_TRICKS``, ``PART_LAST``
    and ``PART_BONUS``."""
    _leader: int
    _to_move: int | None
    _phase: str
    _stage: int
    _decl_count: int
    _exchanged: bool
    _legal: dict[int, Move] | None
    """The legal moves by action id, in the order ``legal_actions`` lists them (None: not
    worked out yet for this position); melds may first have provisional negative keys until
    their ids are asked for (``MoveGen._by_id``)."""
    _names: dict[int, Action]
    """The action of each id of :attr:`_legal` (set with it): the rules-wide table of
    :attr:`_idt` where every legal action's notation is position-independent, else this
    position's own, which holds exactly the ids of :attr:`_legal`, in the same order (so
    ``legal_actions`` lists its values)."""
    _idt: DealTables
    """The rules' play-id tables and the answers of their options that transitions read
    (:func:`~bezique.core.idtables.deal_tables`)."""
    _shuffle_plan: ShufflePlan | None
    """What :meth:`~bezique.core.worlds.Worlds.reshuffle` worked out for a seat at this point
    (kept until the next action; a copy starts without it)."""
    _carry: tuple[int, ...]
    """Each side's game score coming into the deal (see ``Deal.carry``)."""
    _game_bezique: bool
    """A bezique was declared in an earlier deal of this game (see ``Deal.game_bezique``)."""
