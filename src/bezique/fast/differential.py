"""Differential testing: the compiled engine stepped in lockstep with the reference core.

Used by ``tests/test_fast.py`` (a sample) and ``scripts/fast_differential.py`` (the big run).
Every step compares the legal actions in notation (and their order), their action ids, the
points, phase, trump, stock size, the seat to move, every hand, table and known card, and at
the end the result.  Any difference raises :class:`Mismatch` with the position to replay it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..core.deal import Deal
from ..core.rules import Rules
from . import FastDeal, supports

if TYPE_CHECKING:
    from ..bots.base import Bot

# The presets the compiled engine does not play (none since it plays the old Russian game):
# the reference core would play them.
UNPLAYED_PRESETS: tuple[str, ...] = ()
PRESETS = [p for p in Rules.presets() if p not in UNPLAYED_PRESETS]

# Options varied at random on top of a preset, with the values tried.
VARIATIONS: dict[str, tuple[Any, ...]] = {
    "pack_ranks": ("ATKQJ987", "ATKQJ9"),
    "extra_nines": (0, 4),
    "dealer_sits_out": (False, True),
    "stage1_must_follow_suit": (True, False),
    "stage2_must_head": (True, False),
    "stage2_must_trump": (True, False),
    "first_lead_seat": ("left", "right"),
    "reveal_last_draw": (True, False),
    "min_tricks_before_declaring": (0, 1, 3),
    "melds_scored_per_trick": (1, 2, 3),
    "declare_only_after_beating": (True, False),
    "repeat_doubles": (True, False),
    "sequence_bezique_jack": (True, False),
    "partner_declaring": ("winner-only", "winner-or-partner"),
    "meld_reforming": (True, False),
    "meld_reuse": ("by-class", "higher-score-only", "once-per-kind"),
    "melds_before_trump": ("all-but-sequence", "marriage-only"),
    "first_bezique": (0, 100),
    "bezique_pairing": ("spade-queen-diamond-jack", "opposite-colour", "same-colour"),
    "quartet_distinct_suits": (True, False),
    "two_trump_sevens": (True, False),
    "double_marriage": (True, False),
    "triple_marriages": (True, False),
    "plain_sequence": (True, False),
    "carte_blanche": (True, False),
    "carte_blanche_repeat": (True, False),
    "four_tens": (0, 90),
    "four_trump_queens": (0, 600),
    "four_bezique_jacks": (0, 164),
    "seven_of_trumps": (0, 10),
    "turn_up_exchange": ("seven", "nine", "none"),
    "seven_exchange_counts_as_meld": (True, False),
    "second_seven_scores": ("declare", "play", "win-trick", "play-always", "capture"),
    "trick_scoring": ("brisques", "card-points", "greek-per-trick", "none", "brisque-majority"),
    "target_check": ("end-of-hand", "immediate"),
    "sequence_needs_marriage": (False, True),
    "brisque_timing": ("end-of-hand", "immediate"),
    "turn_up_bonus": ("none", "seven", "greek-club"),
    "last_trick_bonus": (0, 10, 250),
    "play_out_hand": (True, False),
    "trump_double_marriage": (0, 50),
    "sequence_fixes_trump": (True, False),
    "brisques_only_to_settle": (True, False),
    # the wild cards (the Haitian jokers, the old Russian "шприц")
    "wild_cards": (0, 2, 4),
    "wild_card_melds": ("any", "quartets", "all-but-sequence"),
    "four_wild_cards": (0, 200),
    "wild_card_lead_wins": (True, False),
    "stage2_wild_card": ("discard", "last-resort"),
    # seed 001
    "draw_order": ("winner-first", "leader-first"),
    "exchange_before_min_tricks": (False, True),
    # seed 000-B (old Russian): sets of trump cards paying card by card
    "trump_set_scoring": ("whole", "cumulative"),
}


class Mismatch(AssertionError):
    """The two engines differ."""


def random_rules(rng: random.Random) -> Rules:
    """A preset with a few options changed at random."""
    while True:
        name = rng.choice(PRESETS)
        changes = {
            opt: rng.choice(VARIATIONS[opt])
            for opt in rng.sample(sorted(VARIATIONS), rng.randint(1, 5))
        }
        players = rng.choice((None, 2, 3, 4)) if name == "no-trump" else None
        try:
            rules = Rules.preset(name, **({"players": players} if players else {}))
            rules = rules.replace(**changes)
        except ValueError:
            continue
        if supports(rules):
            return rules


def stacked(rules: Rules, rng: random.Random, dealer: int) -> Deal:
    """A deal stacked for declarations: the court cards, aces and wild cards go to the hands
    first."""
    from ..core.cards import CODES

    cards = [CODES[k] for k in rules.pack_kinds]
    rng.shuffle(cards)
    cards.sort(key=lambda c: c[0] not in "AKQJX" or rng.random() < 0.3)  # X: wild cards
    n, size = rules.players, rules.hand_size
    sits = rules.dealer_sits_out
    hands: list[list[str]] = [[] for _ in range(n)]
    pos = 0
    for seat in range(n):
        if sits and seat == dealer:
            continue
        hands[seat] = cards[pos : pos + size]
        pos += size
    rest = cards[pos:]
    rng.shuffle(rest)
    # a wild card is never the turn-up (decision 11)
    turn_up = rest.pop(next(i for i, c in enumerate(rest) if c != "XX")) if rules.turn_up else None
    return Deal.from_cards(rules, hands, turn_up, rest, dealer=dealer)


def _state(d: Any, n: int) -> tuple[Any, ...]:
    return (
        d.to_move,
        d.phase,
        d.trump,
        d.stock_size,
        d.points,
        d.stage,
        d.leader,
        d.turn_up,
        d.trick,
        d.tricks_played,
        d.last_trick_winner,
        [d.hand(s) for s in range(n)],
        [d.table(s) for s in range(n)],
    )


def compare(ref: Deal, fast: FastDeal, ids: bool = True) -> None:
    """Raise :class:`Mismatch` if the two deals differ in anything the engine keeps."""
    n = ref.rules.players
    a, b = _state(ref, n), _state(fast, n)
    if a != b:
        raise Mismatch(f"state differs:\n ref  {a}\n fast {b}\n at {ref.position()}")
    ra = [str(x) for x in ref.legal_actions()]
    fa = [str(x) for x in fast.legal_actions()]
    if ra != fa:
        raise Mismatch(f"legal actions differ:\n ref  {ra}\n fast {fa}\n at {ref.position()}")
    known = ref.observation(None).known
    fk = tuple(tuple(fast.known(s)) for s in range(n))
    if known != fk:
        raise Mismatch(f"known cards differ: ref {known} fast {fk} at {ref.position()}")
    if ref.result != fast.result:
        raise Mismatch(f"results differ: ref {ref.result} fast {fast.result}")
    if ids and ref.to_move is not None:
        want = ref.legal_id_actions()
        got = fast.legal_id_actions()
        if want != got:
            raise Mismatch(f"action ids differ:\n ref  {want}\n fast {got}\n at {ref.position()}")


def lockstep(
    deal: Deal,
    rng: random.Random,
    ids: bool = True,
    greedy: bool = False,
    players: Sequence[Bot] | None = None,
) -> int:
    """Play a deal to its end in both engines, comparing after every action; returns the
    number of actions.  ``greedy``: declare whenever possible (more melds to check).
    ``players``: a bot for each seat chooses the actions from its observation instead, so the
    deal goes where real games go and random play seldom does (cards kept and declared again
    and again: an eight-pack quintuple bezique whose cards each name the melds they are in)."""
    ref = Deal.from_position(deal.position())  # card ids as FastDeal.from_deal gives them
    fast = FastDeal.from_deal(deal)
    steps = 0
    while True:
        compare(ref, fast, ids)
        if ref.is_over:
            return steps
        if players is not None and ref.to_move is not None:
            action = players[ref.to_move].choose(ref.observation(ref.to_move))
        else:
            actions = ref.legal_actions()
            melds = [a for a in actions if a.verb != "pass"] if ref.phase == "declare" else []
            action = rng.choice(melds if greedy and melds else actions)
        ref.apply(action)
        if rng.random() < 0.5:
            fast.apply(action)
        else:
            fast.apply(str(action))
        steps += 1


def deals(rules: Rules, count: int, seed: int) -> Iterator[tuple[Deal, bool]]:
    """Random deals, stacked deals and deals some way in, with the greedy flag to play them."""
    rng = random.Random(seed)
    for i in range(count):
        dealer = i % rules.players
        kind = i % 3
        if kind == 0:
            deal = Deal.new(rules, seed=seed * 100_003 + i, dealer=dealer)
        elif kind == 1:
            deal = stacked(rules, rng, dealer)
        else:
            deal = Deal.new(rules, seed=seed * 100_003 + i, dealer=dealer)
            for _ in range(rng.randint(0, 60)):
                if deal.is_over:
                    break
                deal.apply(rng.choice(deal.legal_actions()))
        yield deal, i % 2 == 0
