"""The classic rule tests' kit: stacked two-handed classic deals (:func:`build`, which fills the
rest of the 64-card pack with low plain cards first, so the pack is exact), and short ways to
play and check them (legal actions, a trick, a meld).  Shared by test_rules_classic.py,
test_options.py and test_fast.py."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

import pytest

from bezique import Deal, IllegalAction, Rules

RANKS = "ATKQJ987"
SUITS = "SHDC"
PACK = [r + s for s in SUITS for r in RANKS]


# --- helpers ----------------------------------------------------------------------------------


def _filler(trump: str, left: Counter[str]) -> list[str]:
    """The cards still free, the least useful first: low plain cards, low trumps, brisques,
    court cards, and the sevens of trumps last."""
    plain = [s for s in SUITS if s != trump]
    low = [r + s for r in "987" for s in plain]
    order = low + low + ["9" + trump, "8" + trump]
    order += [r + s for r in "TA" for s in plain] + ["T" + trump, "A" + trump]
    order += [r + s for r in "KQJ" for s in [*plain, trump]] + ["7" + trump]
    out: list[str] = []
    for card in order + order:
        if left[card] > 0:
            left[card] -= 1
            out.append(card)
    assert not +left
    return out


def build(
    h0: Iterable[str] = (),
    h1: Iterable[str] = (),
    up: str = "8C",
    stock: Iterable[str] = (),
    dealer: int = 1,
    **options: object,
) -> Deal:
    """A stacked deal: seat 0 holds ``h0``, seat 1 ``h1`` (each padded to 8 cards), ``up`` is the
    turn-up and ``stock`` the first cards drawn; the rest of the pack follows.  With the
    default ``dealer=1`` seat 0 leads the first trick."""
    h0, h1, stock = list(h0), list(h1), list(stock)
    left = Counter({c: 2 for c in PACK})
    left.subtract([*h0, *h1, up, *stock])
    assert all(n >= 0 for n in left.values()), f"more than two of a card: {-left}"
    rest = _filler(up[1], left)
    while len(h0) < 8:
        h0.append(rest.pop(0))
    while len(h1) < 8:
        h1.append(rest.pop(0))
    rules = Rules.preset("classic", **options)
    return Deal.from_cards(rules, [h0, h1], up, stock + rest, dealer=dealer)


def legal(deal: Deal) -> list[str]:
    return [str(a) for a in deal.legal_actions()]


def card(ref: str) -> str:
    """``'play QS@table'`` or ``'QS@table'`` -> ``'QS'``."""
    return ref.split()[-1].split("@")[0]


def beats(c: str, best: str, trump: str | None) -> bool:
    """Does ``c``, played after ``best``, beat it?"""
    if c[1] == best[1]:
        return RANKS.index(c[0]) < RANKS.index(best[0])
    return c[1] == trump


def _cost(action: str, trump: str | None) -> tuple[int, ...]:
    c = card(action)
    return ("@" in action, c[1] == trump, c[0] in "KQJ", c[0] in "AT", -RANKS.index(c[0]))


def trick(deal: Deal, winner: int, lead: str | None = None, follow: str | None = None) -> None:
    """Play one trick that ``winner`` wins.  Cards not given are chosen as the cheapest
    (plain low cards first, court cards and trumps last) that give that result."""
    assert deal.phase == "play" and not deal.trick
    leader = deal.to_move
    trump = deal.trump
    if lead is None:
        lead = min(legal(deal), key=lambda a: _cost(a, trump))
    deal.apply(lead if lead.startswith("play") else "play " + lead)
    led = deal.trick[0][1]
    if follow is None:
        want = winner != leader
        options = [a for a in legal(deal) if beats(card(a), led, trump) == want]
        assert options, f"stacking error: the follower cannot {'win' if want else 'lose'}"
        follow = min(options, key=lambda a: _cost(a, trump))
    deal.apply(follow if follow.startswith("play") else "play " + follow)
    assert deal.last_trick_winner == winner


def settle(deal: Deal) -> None:
    """Pass while a declaration is pending."""
    while deal.phase == "declare":
        deal.apply("pass")


def assert_illegal(deal: Deal, action: str) -> None:
    """The action raises IllegalAction and leaves the deal exactly as it was."""
    before = deal.position()
    with pytest.raises(IllegalAction):
        deal.apply(action)
    assert deal.position() == before
    assert action not in legal(deal)


def melds(deal: Deal, kind: str) -> list[str]:
    """The legal declarations of one meld kind."""
    return [a for a in legal(deal) if a.split()[:2] == ["meld", kind]]


def meld(deal: Deal, kind: str, cards: str) -> str:
    """Apply the one legal declaration of ``kind`` made of ``cards`` (codes, any copies)."""
    want = sorted(cards.split())
    found = [a for a in melds(deal, kind) if sorted(card(c) for c in a.split()[2:]) == want]
    assert len(found) == 1, f"expected one '{kind} {cards}' among {legal(deal)}"
    deal.apply(found[0])
    return found[0]


def play_random(deal: Deal, seed: int) -> None:
    rng = random.Random(seed)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))


def drawn(before: list[str], after: list[str], played: str) -> Counter[str]:
    """Cards that came into a hand across one trick."""
    return Counter(after) - (Counter(before) - Counter([played]))


class Stage1:
    """Seat 0 leads and wins all 24 stage-1 tricks with cards nobody needs, keeping ``keep0``
    (7 cards) and drawing ``last0`` as the last face-down card; seat 1 keeps ``keep1`` (7 cards)
    and takes the turn-up ``up``.  The 48 other cards are played in pairs that seat 0 wins."""

    def __init__(
        self, keep0: list[str], last0: str, keep1: list[str], up: str, **options: object
    ) -> None:
        assert len(keep0) == 7 and len(keep1) == 7
        trump = up[1]
        left = Counter({c: 2 for c in PACK})
        left.subtract([*keep0, last0, *keep1, up])
        assert all(n >= 0 for n in left.values())
        rest = sorted(
            left.elements(), key=lambda c: (c[1] == trump, -RANKS.index(c[0]), c), reverse=True
        )
        self.h, self.v = rest[:24], rest[24:]
        stock = [c for pair in zip(self.h[1:], self.v[1:], strict=True) for c in pair] + [last0]
        rules = Rules.preset("classic", **options)
        self.deal = Deal.from_cards(
            rules, [[*keep0, self.h[0]], [*keep1, self.v[0]]], up, stock, dealer=1
        )

    def play(self, upto: int = 24, declare: dict[int, str] | None = None) -> Deal:
        """Play tricks up to number ``upto``, declaring ``declare[n]`` after trick n (else pass)."""
        deal = self.deal
        declare = declare or {}
        while deal.tricks_played < upto:
            n = deal.tricks_played
            deal.apply("play " + self.h[n])
            deal.apply("play " + self.v[n])
            assert deal.last_trick_winner == 0
            if n + 1 in declare:
                deal.apply(declare[n + 1])
            if n + 1 < upto:
                settle(deal)
        return deal


def one_trick(lead: str, follow: str, up: str = "8C") -> int:
    """Seat 0 leads ``lead``, seat 1 follows ``follow``: the winner's seat."""
    deal = build([lead], [follow], up)
    deal.apply("play " + lead)
    deal.apply("play " + follow)
    assert deal.tricks_played == 1
    return deal.last_trick_winner  # type: ignore[return-value]


# --- C01-C06: pack, deal, turn-up, first lead -------------------------------------------------
