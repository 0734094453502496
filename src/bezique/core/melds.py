"""Meld kinds, what cards form them, and the bookkeeping of meld reuse.

Every card remembers the meld kinds it has scored in as a bit mask (its *profile*); a card in
the concealed hand has never scored (mask 0), a declared card on the table always has.  Whether
a card may score again in meld ``M`` is one test, ``mask & blocked[M] == 0``, where ``blocked[M]``
comes from the reuse rule (RULES.md section 2.1.3):

* ``by-class`` (default): marriages and sequences form one class, beziques another, quartets a
  third; the seven of trumps stands apart.  Across classes reuse is free; within a class a card
  may only go up (marriage -> sequence, bezique -> double bezique), never sideways or down.
* ``higher-score-only``: a card may only score again in a meld of another kind that scores more.
* ``once-per-kind`` (Haitian): a card scores once in each kind of meld: marriages (plain or
  royal), beziques, sequences, and the quartets of each rank (plain and trump alike); a wild card
  scores in one meld only.

On top of that every declaration must put at least one card from the concealed hand on the table.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .cards import ACE, JACK, KING, QUEEN, SEVEN, TEN, WILD, kind
from .percache import per_rules

if TYPE_CHECKING:
    from .rules import Rules


@dataclass(frozen=True)
class MeldKind:
    """A kind of declaration: its notation name, reuse class and level within the class."""

    id: int
    name: str
    klass: str  # 'A' marriages/sequences, 'B' beziques, 'C' quartets, 'S' sevens, 'X' carte
    # blanche, 'W' four wild cards
    level: int
    score_option: str  # the Rules field holding its score


_KINDS: Final = (
    ("marriage", "A", 1, "common_marriage"),
    ("royal-marriage", "A", 1, "royal_marriage"),
    ("double-marriage", "A", 1, "double_common_marriage"),
    ("double-royal-marriage", "A", 1, "double_royal_marriage"),
    ("triple-marriage", "A", 1, "triple_common_marriage"),
    ("triple-royal-marriage", "A", 1, "triple_royal_marriage"),
    ("plain-sequence", "A", 2, "plain_sequence"),
    ("trump-sequence", "A", 2, "trump_sequence"),
    ("bezique", "B", 1, "bezique"),
    ("double-bezique", "B", 2, "double_bezique"),
    ("triple-bezique", "B", 3, "triple_bezique"),
    ("quadruple-bezique", "B", 4, "quadruple_bezique"),
    ("quintuple-bezique", "B", 5, "quintuple_bezique"),
    ("four-aces", "C", 1, "four_aces"),
    ("four-tens", "C", 1, "four_tens"),
    ("four-kings", "C", 1, "four_kings"),
    ("four-queens", "C", 1, "four_queens"),
    ("four-jacks", "C", 1, "four_jacks"),
    ("four-trump-aces", "C", 2, "four_trump_aces"),
    ("four-trump-tens", "C", 2, "four_trump_tens"),
    ("four-trump-kings", "C", 2, "four_trump_kings"),
    ("four-trump-queens", "C", 2, "four_trump_queens"),
    ("four-trump-jacks", "C", 2, "four_trump_jacks"),
    ("five-trump-aces", "C", 3, "five_trump_aces"),
    ("five-trump-tens", "C", 3, "five_trump_tens"),
    ("five-trump-kings", "C", 3, "five_trump_kings"),
    ("five-trump-queens", "C", 3, "five_trump_queens"),
    ("five-trump-jacks", "C", 3, "five_trump_jacks"),
    *(
        (f"{count}-trump-{rank}", "C", level, f"{count}_trump_{rank}")
        for level, count in ((4, "six"), (5, "seven"), (6, "eight"))
        for rank in ("aces", "tens", "kings", "queens", "jacks")
    ),
    *(
        (f"{count}-bezique-jacks", "C", level, f"{count}_bezique_jacks")
        for level, count in ((2, "four"), (3, "five"), (4, "six"), (5, "seven"), (6, "eight"))
    ),
    ("seven", "S", 1, "seven_of_trumps"),
    ("two-sevens", "S", 1, "two_trump_sevens"),
    ("carte-blanche", "X", 1, "carte_blanche"),
    ("four-wild-cards", "W", 1, "four_wild_cards"),
)

MELDS: Final = tuple(MeldKind(i, n, c, lv, s) for i, (n, c, lv, s) in enumerate(_KINDS))
"""Every meld kind, indexed by id."""
MELD_BY_NAME: Final = {m.name: m for m in MELDS}
MELD_CLASSES: Final = ("A", "B", "C", "S")
"""The meld classes a declared card may have scored in, in the order the observation tensor
and the compiled engine count them: marriages and sequences, beziques, quartets and sets,
sevens (``MeldKind.klass``; carte blanche and the wild-card classes are not counted)."""

MARRIAGE = MELD_BY_NAME["marriage"].id
ROYAL_MARRIAGE = MELD_BY_NAME["royal-marriage"].id
DOUBLE_MARRIAGE = MELD_BY_NAME["double-marriage"].id
DOUBLE_ROYAL_MARRIAGE = MELD_BY_NAME["double-royal-marriage"].id
TRIPLE_MARRIAGE = MELD_BY_NAME["triple-marriage"].id
TRIPLE_ROYAL_MARRIAGE = MELD_BY_NAME["triple-royal-marriage"].id
PLAIN_SEQUENCE = MELD_BY_NAME["plain-sequence"].id
TRUMP_SEQUENCE = MELD_BY_NAME["trump-sequence"].id
BEZIQUE = MELD_BY_NAME["bezique"].id
DOUBLE_BEZIQUE = MELD_BY_NAME["double-bezique"].id
TRIPLE_BEZIQUE = MELD_BY_NAME["triple-bezique"].id
QUADRUPLE_BEZIQUE = MELD_BY_NAME["quadruple-bezique"].id
QUINTUPLE_BEZIQUE = MELD_BY_NAME["quintuple-bezique"].id
FOUR_ACES = MELD_BY_NAME["four-aces"].id
FOUR_TENS = MELD_BY_NAME["four-tens"].id
FOUR_KINGS = MELD_BY_NAME["four-kings"].id
FOUR_QUEENS = MELD_BY_NAME["four-queens"].id
FOUR_JACKS = MELD_BY_NAME["four-jacks"].id
FOUR_TRUMP_ACES = MELD_BY_NAME["four-trump-aces"].id
FOUR_TRUMP_TENS = MELD_BY_NAME["four-trump-tens"].id
FOUR_TRUMP_KINGS = MELD_BY_NAME["four-trump-kings"].id
FOUR_TRUMP_QUEENS = MELD_BY_NAME["four-trump-queens"].id
FOUR_TRUMP_JACKS = MELD_BY_NAME["four-trump-jacks"].id
FIVE_TRUMP_ACES = MELD_BY_NAME["five-trump-aces"].id
FIVE_TRUMP_TENS = MELD_BY_NAME["five-trump-tens"].id
FIVE_TRUMP_KINGS = MELD_BY_NAME["five-trump-kings"].id
FIVE_TRUMP_QUEENS = MELD_BY_NAME["five-trump-queens"].id
FIVE_TRUMP_JACKS = MELD_BY_NAME["five-trump-jacks"].id
SEVEN_MELD = MELD_BY_NAME["seven"].id
TWO_SEVENS = MELD_BY_NAME["two-sevens"].id
CARTE_BLANCHE = MELD_BY_NAME["carte-blanche"].id
FOUR_WILD_CARDS = MELD_BY_NAME["four-wild-cards"].id

QUARTET_RANK: Final = {
    FOUR_ACES: ACE,
    FOUR_TENS: TEN,
    FOUR_KINGS: KING,
    FOUR_QUEENS: QUEEN,
    FOUR_JACKS: JACK,
}
_TRUMP_SETS: Final = {
    FOUR_TRUMP_ACES: (ACE, 4),
    FOUR_TRUMP_TENS: (TEN, 4),
    FOUR_TRUMP_KINGS: (KING, 4),
    FOUR_TRUMP_QUEENS: (QUEEN, 4),
    FOUR_TRUMP_JACKS: (JACK, 4),
    FIVE_TRUMP_ACES: (ACE, 5),
    FIVE_TRUMP_TENS: (TEN, 5),
    FIVE_TRUMP_KINGS: (KING, 5),
    FIVE_TRUMP_QUEENS: (QUEEN, 5),
    FIVE_TRUMP_JACKS: (JACK, 5),
}
_MARRIAGE_COPIES: Final = {
    MARRIAGE: 1,
    ROYAL_MARRIAGE: 1,
    DOUBLE_MARRIAGE: 2,
    DOUBLE_ROYAL_MARRIAGE: 2,
    TRIPLE_MARRIAGE: 3,
    TRIPLE_ROYAL_MARRIAGE: 3,
}
_BEZIQUE_COPIES: Final = {
    BEZIQUE: 1,
    DOUBLE_BEZIQUE: 2,
    TRIPLE_BEZIQUE: 3,
    QUADRUPLE_BEZIQUE: 4,
    QUINTUPLE_BEZIQUE: 5,
}
_ROYAL: Final = frozenset({ROYAL_MARRIAGE, DOUBLE_ROYAL_MARRIAGE, TRIPLE_ROYAL_MARRIAGE})
#: Melds that fix trump when declared before trump is known (games without a turn-up).
TRUMP_FIXING: Final = frozenset({ROYAL_MARRIAGE, DOUBLE_ROYAL_MARRIAGE, TRUMP_SEQUENCE})

Slot = tuple[tuple[int, ...], int]
"""A requirement: ``count`` cards, each of one of the listed kinds."""


_RANK_WORDS: Final = {"aces": ACE, "tens": TEN, "kings": KING, "queens": QUEEN, "jacks": JACK}
_COUNT_WORDS: Final = {"four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
for _m in MELDS:
    _w = _m.name.split("-")
    if len(_w) == 3 and _w[1] == "trump" and _w[2] in _RANK_WORDS:
        _TRUMP_SETS[_m.id] = (_RANK_WORDS[_w[2]], _COUNT_WORDS[_w[0]])
#: Sets of bezique jacks (old Russian): meld id -> how many.
BEZIQUE_JACK_SETS: Final = {
    m.id: _COUNT_WORDS[m.name.split("-")[0]] for m in MELDS if m.name.endswith("-bezique-jacks")
}


def set_family(meld: int) -> tuple[int, int] | None:
    """For a set of like cards that grows card by card (four to eight trump cards of a rank, or
    bezique jacks): (the family, the count), where the family is the rank (bezique jacks: -1).
    None for any other meld."""
    if meld in _TRUMP_SETS:
        return _TRUMP_SETS[meld]
    if meld in BEZIQUE_JACK_SETS:
        return -1, BEZIQUE_JACK_SETS[meld]
    return None


#: Each set family's melds by count: family -> {count: meld id}.
SET_MELDS: Final[dict[int, dict[int, int]]] = {}
for _m in MELDS:
    _f = set_family(_m.id)
    if _f is not None:
        SET_MELDS.setdefault(_f[0], {})[_f[1]] = _m.id


GHOST: Final = 64
"""With meld re-forming, a card whose meld was broken (another of its cards played) keeps bit
``GHOST + meld``: it may form that meld again, but still nothing lower in its class.  Its
profile name is ``broken-MELD``."""


def profile_names(mask: int) -> tuple[str, ...]:
    """The meld names of a profile mask, in meld-id order (broken melds after the others)."""
    names = tuple(m.name for m in MELDS if mask >> m.id & 1)
    return names + tuple("broken-" + m.name for m in MELDS if mask >> (GHOST + m.id) & 1)


def profile_mask(names: tuple[str, ...] | list[str]) -> int:
    """The profile mask of meld names; raises ``ValueError`` on an unknown name."""
    mask = 0
    for n in names:
        ghost = n.startswith("broken-")
        m = MELD_BY_NAME.get(n[7:] if ghost else n)
        if m is None:
            raise ValueError(f"unknown meld {n!r}")
        mask |= 1 << (m.id + (GHOST if ghost else 0))
    return mask


def profile_order(name: str) -> int:
    """Sort key of a profile name, as :func:`profile_names` orders them."""
    ghost = name.startswith("broken-")
    m = MELD_BY_NAME.get(name[7:] if ghost else name)
    if m is None:
        raise ValueError(f"unknown meld {name!r}")
    return m.id + (GHOST if ghost else 0)


@per_rules
def meld_scores(rules: Rules) -> tuple[int, ...]:
    """Points of every meld kind under these rules, by meld id (0: not part of the game)."""
    return tuple(int(getattr(rules, m.score_option)) for m in MELDS)


def meld_score(rules: Rules, meld: int) -> int:
    """Points of a meld kind under these rules (0: not part of the game)."""
    return meld_scores(rules)[meld]


@per_rules
def blocked_masks(rules: Rules) -> tuple[int, ...]:
    """For each meld kind, the profile bits that stop a card from scoring in it again."""
    if rules.meld_reuse == "once-per-kind":
        return tuple(_kind_group(m.id) for m in MELDS)
    out = []
    for m in MELDS:
        if m.klass in ("S", "X", "W"):
            bits = sum(1 << o.id for o in MELDS if o.klass == m.klass)
        elif rules.meld_reuse == "by-class":
            bits = sum(1 << o.id for o in MELDS if o.klass == m.klass and o.level >= m.level)
        else:
            score = meld_score(rules, m.id)
            bits = sum(
                1 << o.id
                for o in MELDS
                if o.klass not in ("S", "X", "W")
                and (o.id == m.id or meld_score(rules, o.id) >= score)
            )
        # a broken meld blocks what it blocked, except forming that same meld again
        bits |= sum(1 << (GHOST + o.id) for o in MELDS if o.id != m.id and bits >> o.id & 1)
        out.append(bits)
    return tuple(out)


def _kind_group(meld: int) -> int:
    """The profile bits of every meld of the same kind as ``meld`` (once-per-kind reuse): the
    marriages, the beziques, the sequences, the quartets of one rank (bezique jacks with the
    jacks), the sevens, carte blanche, four wild cards."""

    def key(m: int) -> object:
        if m in _MARRIAGE_COPIES:
            return "marriage"
        if m in _BEZIQUE_COPIES:
            return "bezique"
        if m in (TRUMP_SEQUENCE, PLAIN_SEQUENCE):
            return "sequence"
        if m in QUARTET_RANK:
            return QUARTET_RANK[m]
        if m in _TRUMP_SETS:
            return _TRUMP_SETS[m][0]
        if m in BEZIQUE_JACK_SETS:
            return JACK
        return MELDS[m].klass

    return sum(1 << o.id for o in MELDS if key(o.id) == key(meld))


@per_rules
def wild_card_melds(rules: Rules) -> frozenset[int]:
    """The meld kinds a wild card may complete under these rules (four wild cards apart)."""
    if rules.wild_card_melds == "quartets":
        return frozenset(QUARTET_RANK)
    if rules.wild_card_melds == "all-but-sequence":
        return frozenset(m.id for m in MELDS if m.id not in (TRUMP_SEQUENCE, PLAIN_SEQUENCE))
    return frozenset(m.id for m in MELDS if m.id != FOUR_WILD_CARDS)


def bezique_kinds(rules: Rules, trump: int | None) -> tuple[int, int] | None:
    """The (queen, jack) kinds that form a bezique, or None while it depends on an unfixed trump."""
    if rules.bezique_pairing == "spade-queen-diamond-jack":
        return kind(0, QUEEN), kind(2, JACK)
    if trump is None:
        return None
    # Suits are S H D C: same colour pairs S-C and H-D, opposite colour S-D and H-C.
    partner = {"same-colour": (3, 2, 1, 0), "opposite-colour": (2, 3, 0, 1)}
    return kind(trump, QUEEN), kind(partner[rules.bezique_pairing][trump], JACK)


@per_rules
def active_melds(rules: Rules) -> tuple[int, ...]:
    """Meld kinds worth points under these rules (the sevens and carte blanche excepted; four
    wild cards only where the pack holds four)."""
    return tuple(
        m.id
        for m in MELDS
        if m.klass not in ("S", "X")
        and meld_score(rules, m.id) > 0
        and (m.klass != "W" or rules.wild_cards >= 4)
    )


@per_rules
def declarable_melds(rules: Rules, trump_fixed: bool) -> tuple[int, ...]:
    """Meld kinds that may be declared under these rules, before trump is fixed or after
    (RULES.md 1.3): before it, a marriage (and a double royal marriage where
    ``trump_double_marriage`` scores one) fixes trump, a sequence only with
    ``sequence_fixes_trump``, and only a marriage with ``melds_before_trump='marriage-only'``;
    after it, the seven of trumps where it is declared (``second_seven_scores='declare'``) and
    the two sevens of trumps where they score."""
    melds = list(active_melds(rules))
    if not trump_fixed:
        if rules.trump_double_marriage and DOUBLE_ROYAL_MARRIAGE not in melds:
            melds.append(DOUBLE_ROYAL_MARRIAGE)
        if not rules.sequence_fixes_trump and TRUMP_SEQUENCE in melds:
            melds.remove(TRUMP_SEQUENCE)
        if rules.melds_before_trump == "marriage-only":
            melds = [m for m in melds if m in (ROYAL_MARRIAGE, DOUBLE_ROYAL_MARRIAGE)]
        return tuple(melds)
    if rules.seven_of_trumps and rules.second_seven_scores == "declare":
        melds.append(SEVEN_MELD)
    if rules.two_trump_sevens:
        melds.append(TWO_SEVENS)
    return tuple(melds)


def slots(rules: Rules, meld: int, trump: int | None) -> Iterator[list[Slot]]:
    """Every way the meld can be formed in terms of card kinds, one requirement list each."""
    if meld in _MARRIAGE_COPIES:
        n = _MARRIAGE_COPIES[meld]
        for s in _suits(meld in _ROYAL, trump):
            yield [((kind(s, KING),), n), ((kind(s, QUEEN),), n)]
    elif meld in (TRUMP_SEQUENCE, PLAIN_SEQUENCE):
        for s in _suits(meld == TRUMP_SEQUENCE, trump):
            req: list[Slot] = [((kind(s, r),), 1) for r in (ACE, TEN, KING, QUEEN)]
            pair = bezique_kinds(rules, trump) if trump is not None else None
            if meld == TRUMP_SEQUENCE and rules.sequence_bezique_jack and pair is not None:
                req.append(((kind(s, JACK), pair[1]), 1))  # the bezique jack may stand in
            else:
                req.append(((kind(s, JACK),), 1))
            yield req
    elif meld in BEZIQUE_JACK_SETS:
        pair = bezique_kinds(rules, trump)
        if pair is not None:
            yield [((pair[1],), BEZIQUE_JACK_SETS[meld])]
    elif meld in _BEZIQUE_COPIES:
        pair = bezique_kinds(rules, trump)
        if pair is not None:
            n = _BEZIQUE_COPIES[meld]
            yield [((pair[0],), n), ((pair[1],), n)]
    elif meld in QUARTET_RANK:
        r = QUARTET_RANK[meld]
        if rules.quartet_distinct_suits:
            yield [((kind(s, r),), 1) for s in range(4)]
        else:
            yield [(tuple(kind(s, r) for s in range(4)), 4)]
    elif meld in _TRUMP_SETS:
        if trump is not None:
            r, n = _TRUMP_SETS[meld]
            yield [((kind(trump, r),), n)]
    elif meld == FOUR_WILD_CARDS:
        yield [((WILD,), 4)]
    elif meld in (SEVEN_MELD, TWO_SEVENS) and trump is not None:
        yield [((kind(trump, SEVEN),), 1 if meld == SEVEN_MELD else 2)]


def _suits(in_trumps: bool, trump: int | None) -> list[int]:
    """Suits a marriage or sequence can be in.  While trump is not fixed, a meld "in trumps"
    may be in any suit (declaring it fixes trump) and no meld is in a plain suit yet."""
    if trump is None:
        return [0, 1, 2, 3] if in_trumps else []
    return [trump] if in_trumps else [s for s in range(4) if s != trump]


def slot_needs(req: list[Slot]) -> tuple[dict[int, int], list[tuple[int, int]]]:
    """What a meld's requirement (one way from :func:`slots`) asks of a hand, for quick
    checks: per count, the bit set of the card kinds needed that many times; and
    ``(rank, count)`` for each slot of any suits of one rank.

    >>> slot_needs([((kind(0, QUEEN),), 1), ((kind(2, JACK),), 1)])
    ({1: 1048584}, [])
    """
    needs: dict[int, int] = {}
    rank_needs = []
    for kinds, n in req:
        if len(kinds) == 1:
            needs[n] = needs.get(n, 0) | 1 << kinds[0]
        else:  # any suits of one rank
            rank_needs.append((kinds[0] & 7, n))
    return needs, rank_needs


def choose(groups: list[tuple[int, int]], count: int) -> Iterator[tuple[int, ...]]:
    """Ways to take ``count`` cards from groups of interchangeable cards.

    ``groups`` holds (group key, size); each way is the number taken from each group.
    """
    if not groups:
        if count == 0:
            yield ()
        return
    (_, size), rest = groups[0], groups[1:]
    left = sum(s for _, s in rest)
    for take in range(max(0, count - left), min(size, count) + 1):
        for tail in choose(rest, count - take):
            yield (take, *tail)
