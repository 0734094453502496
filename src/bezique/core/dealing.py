"""Dealing and card ids: which physical card is which, and how the cards are dealt.

Card ids run kind by kind, as many copies of each kind as the pack holds, so that a hand sorted
by id is sorted by kind.  :func:`shuffled` deals from a seed; :func:`stacked` places the cards
a caller names (a stacked deal for tests and puzzles).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .cards import ALL_KINDS, WILD, code, parse_card
from .percache import per_rules
from .rules import Rules

Dealt = tuple[list[list[int]], int | None, list[int]]
"""Card ids as dealt: per seat the hand, the turn-up (or None), the stock in draw order."""


def active_order(rules: Rules, dealer: int, first: int) -> list[int]:
    """The seats that take part in a deal, clockwise from ``first``."""
    n = rules.players
    seats = [(first + i) % n for i in range(n)]
    return [s for s in seats if s != dealer] if rules.dealer_sits_out else seats


@per_rules
def kinds_of(rules: Rules) -> tuple[int, ...]:
    """Kind of each card id: ids run kind by kind, as many copies of each as the pack holds."""
    return tuple(sorted(rules.pack_kinds))


@per_rules
def _counts(rules: Rules) -> tuple[int, ...]:
    counts = [0] * ALL_KINDS
    for k in rules.pack_kinds:
        counts[k] += 1
    return tuple(counts)


def card_counts(rules: Rules) -> list[int]:
    """How many cards of each kind the pack holds (a fresh list: callers count it down)."""
    return list(_counts(rules))


@per_rules
def offsets(rules: Rules) -> tuple[int, ...]:
    """The first card id of each kind."""
    offset, total = [0] * ALL_KINDS, 0
    for k, n in enumerate(_counts(rules)):
        offset[k] = total
        total += n
    return tuple(offset)


def check_dealer(rules: Rules, dealer: int) -> None:
    """``ValueError`` unless ``dealer`` is a seat of these rules."""
    if not isinstance(dealer, int) or not 0 <= dealer < rules.players:
        raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1}: got {dealer!r}")


def check_carry(rules: Rules, carry: Sequence[int]) -> tuple[int, ...]:
    """Each side's game score coming into a deal, checked: one whole number a side."""
    out = tuple(carry)
    if len(out) != rules.sides or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in out
    ):
        raise ValueError(f"carry must be {rules.sides} whole numbers, one a side: got {carry!r}")
    return out


def shuffled(rules: Rules, seed: int | None, dealer: int) -> Dealt:
    """The cards shuffled from ``seed`` and dealt in the packets of the rules."""
    check_dealer(rules, dealer)
    rng = random.Random(seed)
    order = list(range(rules.cards))
    rng.shuffle(order)
    # positions in the pack list become card ids, copy by copy
    pack_kinds, offset = rules.pack_kinds, offsets(rules)
    copies = [0] * ALL_KINDS
    for i, old in enumerate(order):
        k = pack_kinds[old]
        order[i] = offset[k] + copies[k]
        copies[k] += 1
    n = rules.players
    hands: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    for size in rules.deal_packets:
        for seat in active_order(rules, dealer, (dealer + 1) % n):
            hands[seat].extend(order[pos : pos + size])
            pos += size
    rest = order[pos:]
    turn_up = None
    if rules.turn_up:
        kinds = kinds_of(rules)
        # a wild card cannot be the trump: it goes back into the stock at a random place
        # and the next card is turned (decision 11)
        while kinds[rest[0]] == WILD:
            rest.insert(rng.randrange(1, len(rest) + 1), rest.pop(0))
        turn_up = rest.pop(0)
    return hands, turn_up, rest


def stacked(
    rules: Rules,
    hands: Sequence[Iterable[str]],
    turn_up: str | None,
    stock: Iterable[str],
    dealer: int,
) -> Dealt:
    """Card ids for the cards named: each seat's hand, the turn-up and the stock (``stock[0]``
    drawn first).  ``ValueError`` unless they make up the whole pack exactly."""
    check_dealer(rules, dealer)
    n = rules.players
    if len(hands) != n:
        raise ValueError(f"{n} hands needed, got {len(hands)}")
    if (turn_up is not None) != rules.turn_up:
        raise ValueError(
            "these rules turn up a trump card: give turn_up"
            if rules.turn_up
            else "these rules have no turn-up card: leave turn_up out"
        )
    copies = [0] * ALL_KINDS
    counts, offset = _counts(rules), offsets(rules)

    def take(text: str) -> int:
        k = parse_card(text)
        if copies[k] >= counts[k]:
            raise ValueError(f"too many {code(k)}: the pack holds {counts[k]}")
        cid = offset[k] + copies[k]
        copies[k] += 1
        return cid

    hand_ids = []
    for seat, h in enumerate(hands):
        ids = [take(c) for c in h]
        size = 0 if rules.dealer_sits_out and seat == dealer else rules.hand_size
        if len(ids) != size:
            raise ValueError(f"seat {seat} has {len(ids)} cards; {size} needed")
        hand_ids.append(ids)
    up = take(turn_up) if turn_up is not None else None
    if up is not None and parse_card(turn_up or "") == WILD:
        raise ValueError("a wild card cannot be the turn-up: it has no suit (O11)")
    stock_ids = [take(c) for c in stock]
    missing = [code(k) for k in range(ALL_KINDS) for _ in range(counts[k] - copies[k])]
    if missing:
        raise ValueError(f"the cards do not make up the pack: missing {' '.join(missing)}")
    return hand_ids, up, stock_ids


__all__ = [
    "Dealt",
    "active_order",
    "card_counts",
    "check_dealer",
    "kinds_of",
    "offsets",
    "shuffled",
    "stacked",
]
