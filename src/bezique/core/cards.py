"""Cards: suits, ranks, card kinds and their two-character codes.

A *card kind* is a small int ``suit * 8 + rank`` (0-31).  Ranks are numbered in trick-taking
order from the highest, so a lower rank number beats a higher one::

    rank:  0  1  2  3  4  5  6  7
           A  T  K  Q  J  9  8  7

Suits are numbered ``S H D C`` (0-3).  Several packs are shuffled together, so the engine also
gives every physical card a *card id* (its position in the pack list of a deal); the pack list
maps ids to kinds.  Players only ever name a card by its code (``QS``, ``TD``, ``7H``).
"""

from __future__ import annotations

from typing import Final, TypeAlias

Kind: TypeAlias = int
"""A card kind: ``suit * 8 + rank``."""

SUITS: Final = "SHDC"
RANKS: Final = "ATKQJ987"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES: Final = ("ace", "ten", "king", "queen", "jack", "nine", "eight", "seven")

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN = range(8)
NUM_KINDS: Final = 32
#: The suitless wild card of the old Russian game ("шприц"), code ``XX``.
WILD: Final = 32
ALL_KINDS: Final = 33

#: Card points of the Russian count (A 11, 10 10, K 4, Q 3, J 2, others 0), by rank.
CARD_POINTS: Final = (11, 10, 4, 3, 2, 0, 0, 0)
#: Ranks whose cards are brisques (aces and tens).
BRISQUE_RANKS: Final = frozenset({ACE, TEN})
#: Court (face) cards: king, queen, jack.
COURT_RANKS: Final = frozenset({KING, QUEEN, JACK})


def kind(suit: int, rank: int) -> Kind:
    """The card kind of a suit and a rank number."""
    return suit * 8 + rank


def suit_of(k: Kind) -> int:
    """The suit number (0-3) of a card kind."""
    return k >> 3


def rank_of(k: Kind) -> int:
    """The rank number (0 = ace ... 7 = seven) of a card kind."""
    return k & 7


CODES: Final = (*(r + s for s in SUITS for r in RANKS), "XX")
"""``CODES[kind]`` is the two-character code of a card kind, e.g. ``CODES[3] == 'QS'``;
``CODES[WILD] == 'XX'``."""

_BY_CODE: dict[str, Kind] = {code: k for k, code in enumerate(CODES)}


def code(k: Kind) -> str:
    """The two-character code of a card kind (``'QS'``)."""
    return CODES[k]


def pretty(k: Kind) -> str:
    """The code with a suit symbol and ``10`` for the ten (``'Q♠'``, ``'10♦'``); ``★`` for
    the wild card."""
    if k == WILD:
        return "★"
    rank = RANKS[rank_of(k)]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit_of(k)]


SHOWN: Final = 40
"""Characters of a value an error message quotes at most: a message never echoes a long input
(a record, a rules string or an action may come from anyone, and be any length)."""


def shown(value: object) -> str:
    """A value as an error message quotes it: its ``repr``, cut to :data:`SHOWN` characters.

    >>> shown("QS"), shown(10**50)
    ("'QS'", '1000000000000000000000000000000000000...')
    """
    if isinstance(value, str) and len(value) > SHOWN:
        value = value[:SHOWN]  # the repr of what is shown, not of the whole text
    try:
        text = repr(value)
    except ValueError:  # a whole number of more digits than Python writes
        return "a number too long to show"
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def parse_card(text: str) -> Kind:
    """Parse a card code.

    Accepts ``QS``, ``qs``, ``10D``, ``TD``, ``Q♠``.  Raises ``ValueError`` naming the bad text.
    """
    t = text.strip().upper()
    if t in ("★", "*"):
        return WILD
    for i, sym in enumerate(SUIT_SYMBOLS):
        t = t.replace(sym, SUITS[i])
    if t.startswith("10"):
        t = "T" + t[2:]
    k = _BY_CODE.get(t)
    if k is None:
        raise ValueError(
            f"not a card: {shown(text)} (a card is a rank A T K Q J 9 8 7 and a suit S H D C, e.g. QS)"
        )
    return k


def is_brisque(code: str) -> bool:
    """Is the card of this code (``'AS'``, ``'TD@table'``) a brisque, an ace or a ten
    (:data:`BRISQUE_RANKS`)?  A wild card is none."""
    k = parse_card(code.partition("@")[0])
    return k != WILD and rank_of(k) in BRISQUE_RANKS


def pack(packs: int, ranks: str = RANKS, extra_nines: int = 0, wild_cards: int = 0) -> list[Kind]:
    """The kinds of a whole pack in pack order: ``packs`` packs of the given ranks in every
    suit (piquet packs by default), then extra nines spread over the suits, then wild cards."""
    rank_set = {RANKS.index(r) for r in ranks}
    cards = [k for _ in range(packs) for k in range(NUM_KINDS) if k & 7 in rank_set]
    cards += [kind(i % 4, NINE) for i in range(extra_nines)]
    return cards + [WILD] * wild_cards


def sort_key(k: Kind) -> tuple[int, int]:
    """Sort by suit (S H D C), then from the highest rank down."""
    return (suit_of(k), rank_of(k))
