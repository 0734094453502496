"""The variant rule tests' kit: stacked deals of any preset (:func:`stack`, which fills the rest of
the pack with the least useful cards first), :func:`to_stage2` (a stage 1 of junk that seat 0
wins, so stage 2 starts with the hands a test chooses) and short ways to play and check a deal.
Shared by the rule tests of the variants, the Haitian and old Russian games and the seed
options, and by test_fast_haitian.py."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from bezique import Deal, Rules
from bezique.core.cards import CODES

# the rule tests take these from here too
from classic_kit import assert_illegal as assert_illegal
from classic_kit import legal as legal
from classic_kit import melds as melds

RANKS = "ATKQJ987"
SUITS = "SHDC"
COURTS = "KQJ"


# --- helpers ----------------------------------------------------------------------------------


def pack_of(rules: Rules) -> Counter[str]:
    """Every card of the whole pack, by code."""
    return Counter(CODES[k] for k in rules.pack_kinds)


def filler_order(trump: str | None) -> list[str]:
    """Card codes from the least useful to the most: low plain cards, plain tens, low trumps,
    plain aces, trump brisques, court cards (trumps last), the seven of trumps, the wild card."""
    plain = [s for s in SUITS if s != trump]
    order = [r + s for r in "987" for s in plain] + ["T" + s for s in plain]
    if trump:
        order += ["9" + trump, "8" + trump]
    order += ["A" + s for s in plain]
    if trump:
        order += ["T" + trump, "A" + trump]
    order += [r + s for r in COURTS for s in plain]
    if trump:
        order += [r + trump for r in COURTS] + ["7" + trump]
    return [*order, "XX"]


def stack(
    rules: Rules,
    hands: Sequence[Iterable[str]],
    up: str | None = None,
    stock: Iterable[str] = (),
    dealer: int | None = None,
    trump: str | None = None,
) -> Deal:
    """A stacked deal: seat ``s`` holds ``hands[s]`` padded to the hand size, ``up`` is the
    turn-up (None without one) and ``stock`` the first cards drawn; the rest of the pack follows,
    the least useful cards first (``trump`` says which suit to keep out of the filler when there
    is no turn-up yet).  By default the dealer is the last seat, so that seat 0 leads."""
    held = [list(h) for h in hands]
    held += [[] for _ in range(rules.players - len(held))]
    stock = list(stock)
    left = pack_of(rules)
    left.subtract([c for h in held for c in h] + [c for c in [up] if c] + stock)
    assert all(n >= 0 for n in left.values()), f"more cards than the pack holds: {-left}"
    rest: list[str] = []
    for c in filler_order(trump or (up[1] if up else None)):
        rest += [c] * left[c]
        left[c] = 0
    assert not +left
    if dealer is None:
        dealer = rules.players - 1
    for seat, h in enumerate(held):
        if rules.dealer_sits_out and seat == dealer:
            assert not h, "the dealer sits out: he holds no cards"
            continue
        while len(h) < rules.hand_size:
            h.append(rest.pop(0))
    return Deal.from_cards(rules, held, up, stock + rest, dealer=dealer)


def card(ref: str) -> str:
    """``'play QS@table'`` or ``'QS@table'`` -> ``'QS'``."""
    return ref.split()[-1].split("@")[0]


def beats(c: str, best: str, trump: str | None) -> bool:
    """Does ``c``, played after ``best``, beat it?  (A wild card never wins.)"""
    if c == "XX":
        return False
    if best == "XX":
        return True
    if c[1] == best[1]:
        return RANKS.index(c[0]) < RANKS.index(best[0])
    return c[1] == trump


def winning_card(cards: Sequence[str], trump: str | None) -> int:
    """Index of the card that wins a trick played in this order."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


def _cost(action: str, trump: str | None) -> tuple[int, ...]:
    c = card(action)
    return (
        "@" in action,
        c == "XX",
        c[1] == trump,
        c[0] in COURTS,
        c[0] in "AT",
        -RANKS.index(c[0]) if c != "XX" else 0,
    )


def trick(deal: Deal, winner: int, *cards: str | None) -> None:
    """Play one trick that seat ``winner`` wins.  ``cards`` are the cards played in turn from
    the leader (``'QS'`` or ``'play QS@table'``); missing ones (or None) are chosen as the
    cheapest that give that result.  Declarations left pending are not passed."""
    assert deal.phase == "play" and not deal.trick
    n = deal.rules.active_players
    trump = deal.trump
    for i in range(n):
        seat = deal.to_move
        given = cards[i] if i < len(cards) else None
        if given is None:
            played = [c for _, c in deal.trick]
            best = played[winning_card(played, trump)] if played else None
            options = legal(deal)
            if best is not None:
                want = seat == winner
                options = [a for a in options if beats(card(a), best, trump) == want]
            assert options, f"stacking error: seat {seat} cannot play to let {winner} win"
            given = min(options, key=lambda a: _cost(a, trump))
        deal.apply(given if given.startswith("play") else "play " + given)
    assert deal.last_trick_winner == winner, deal.trick_winners


def passes(deal: Deal) -> None:
    """Pass while a declaration is pending."""
    while deal.phase == "declare":
        deal.apply("pass")


def meld(deal: Deal, kind: str, cards: str) -> str:
    """Apply a legal declaration of ``kind`` made of ``cards`` (codes, any copies): the one that
    puts the fewest new cards on the table if there are several."""
    want = sorted(cards.split())
    found = [a for a in melds(deal, kind) if sorted(card(c) for c in a.split()[2:]) == want]
    assert found, f"expected '{kind} {cards}' among {legal(deal)}"
    found.sort(key=lambda a: -a.count("@"))  # declared copies are named with an @
    deal.apply(found[0])
    return found[0]


def last_event(deal: Deal) -> tuple[int, str, int]:
    """(seat, what, points) of the latest scoring event."""
    _, seat, what, pts = deal.events[-1]
    return seat, what, pts


def play_random(deal: Deal, seed: int) -> None:
    rng = random.Random(seed)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))


def to_stage2(
    rules: Rules, finals: Sequence[Sequence[str]], up: str | None = None, trump: str | None = None
) -> Deal:
    """A deal played through stage 1 so that seat ``s`` holds ``finals[s]`` when stage 2 begins
    and seat 0, having won every stage-1 trick, leads.  Seat 0 leads the highest junk cards
    (trumps, then high ranks) and the others follow with lower ones.  With a turn-up, the last
    seat takes it in the last draw, so ``up`` must be the last card of ``finals[-1]``."""
    n = rules.players
    finals = [list(f) for f in finals]
    assert all(len(f) == rules.hand_size for f in finals)
    trump = trump or (up[1] if up else None)
    if up is not None:
        assert finals[-1][-1] == up
    left = pack_of(rules)
    left.subtract(c for f in finals for c in f)
    assert all(v >= 0 for v in left.values()), -left

    def key(c: str) -> tuple[int, int]:
        return (-1, 0) if c == "XX" else (c[1] == trump, -RANKS.index(c[0]))

    junk = sorted(left.elements(), key=key, reverse=True)
    tricks = rules.stage1_tricks
    assert len(junk) == n * tricks
    per_seat = [junk[:tricks]] + [junk[tricks + i :: n - 1] for i in range(n - 1)]
    hands = [[*finals[s][:-1], per_seat[s][0]] for s in range(n)]
    stock = [per_seat[s][t] for t in range(1, tricks) for s in range(n)]
    stock += [finals[s][-1] for s in range(n)]
    if up is not None:
        stock.pop()
    deal = Deal.from_cards(rules, hands, up, stock, dealer=n - 1)
    for t in range(tricks):
        passes(deal)
        for s in range(n):
            deal.apply("play " + per_seat[s][t])
        assert deal.last_trick_winner == 0
    passes(deal)
    assert deal.stage == 2 and deal.to_move == 0
    for s in range(n):
        assert sorted(deal.hand(s)) == sorted(finals[s])
    return deal


def plays(deal: Deal) -> set[str]:
    """The cards the seat to move may play."""
    return {card(a) for a in legal(deal)}


def stage2_duty(hand: Sequence[str], played: Sequence[str], trump: str | None) -> set[str]:
    """RULES.md 2.1-2.3 and decision 3: the cards a stage-2 follower may play.  Follow suit and
    beat the winning card if able (even the partner's); void, trump if a trump wins; else any."""
    cards = set(hand)
    if not played:
        return cards
    best = played[winning_card(played, trump)]
    same = {c for c in cards if c[1] == played[0][1]}
    if same:
        return {c for c in same if beats(c, best, trump)} or same
    trumps = {c for c in cards if c[1] == trump}
    return {c for c in trumps if beats(c, best, trump)} or cards


def check_stage2_duties(deal: Deal, seed: int) -> tuple[int, int]:
    """Play the deal out at random, checking in stage 2 that the legal plays are exactly the
    duty's.  Returns how often a follower had to beat his partner's card, and how often the
    winning card was a partner's at all."""
    rng = random.Random(seed)
    rules = deal.rules
    over_partner = partner_winning = 0
    while not deal.is_over:
        if deal.stage == 2 and deal.phase == "play":
            seat = deal.to_move
            assert seat is not None
            played = [c for _, c in deal.trick]
            want = stage2_duty(deal.hand(seat), played, deal.trump)
            assert plays(deal) == want, (deal.hand(seat), played, deal.trump)
            if played and rules.partnerships:
                best_seat = deal.trick[winning_card(played, deal.trump)][0]
                if rules.side_of(best_seat) == rules.side_of(seat) and best_seat != seat:
                    partner_winning += 1
                    if want != set(deal.hand(seat)) and all(
                        beats(c, played[winning_card(played, deal.trump)], deal.trump) for c in want
                    ):
                        over_partner += 1
        deal.apply(rng.choice(deal.legal_actions()))
    return over_partner, partner_winning


def stage_lengths(deal: Deal, seed: int) -> tuple[int, int]:
    """Play the deal out at random: (tricks played in stage 1, tricks played in stage 2)."""
    rng = random.Random(seed)
    first = None
    while not deal.is_over:
        if first is None and deal.stage == 2:
            first = deal.tricks_played
        deal.apply(rng.choice(deal.legal_actions()))
    if first is None:
        first = deal.tricks_played
    return first, deal.tricks_played - first


# --- every preset: a random deal plays to the end -------------------------------------------
