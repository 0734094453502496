"""A `Rules` value compiled for the C engine: option values and meld tables, from the core.

Everything here is worked out from the reference core's own values and functions
(:mod:`bezique.core.melds`), never from preset names, so that the two engines agree by
construction; the differential tests check that they do.
"""

from __future__ import annotations

from typing import Any

from ..core.cards import NINE, SEVEN
from ..core.ids import action_ids
from ..core.melds import (
    BEZIQUE,
    DOUBLE_BEZIQUE,
    MARRIAGE,
    MELDS,
    QUARTET_RANK,
    ROYAL_MARRIAGE,
    TRUMP_SEQUENCE,
    bezique_kinds,
    blocked_masks,
    declarable_melds,
    meld_score,
    slots,
)
from ..core.percache import per_rules
from ..core.rules import Rules
from ..core.scoring import trick_values

MAX_CARDS = 320
"""Most cards in a pack the compiled engine plays (eight packs of 32 and more fit)."""
MAX_HAND = 38
_LOW = (1 << 64) - 1


class UnsupportedRules(ValueError):
    """An option value the compiled engine does not play; use the reference core instead."""


# Options the compiled engine does not play yet (the Haitian ones and some seed options), with
# the values it plays.
_UNPLAYED: tuple[tuple[str, tuple[object, ...]], ...] = (
    ("melds_before_trump", ("all-but-sequence",)),
    ("meld_reuse", ("by-class", "higher-score-only")),
    ("second_seven_scores", ("declare", "play", "win-trick")),
    ("trick_scoring", ("brisques", "card-points", "greek-per-trick", "none")),
    ("target_check", ("end-of-hand",)),
    ("sequence_needs_marriage", (False,)),
    ("first_bezique", (0,)),
    ("four_wild_cards", (0,)),
    ("wild_card_lead_wins", (False,)),
    # issue 16: the seed options not compiled yet
    ("draw_order", ("winner-first",)),
    ("exchange_before_min_tricks", (False,)),
    ("trump_set_scoring", ("whole",)),
)


def check_supported(rules: Rules) -> None:
    """Raise :class:`UnsupportedRules`, naming the option, if the engine cannot play these rules."""
    if rules.wild_cards:
        raise UnsupportedRules(
            f"option wild_cards={rules.wild_cards} is not supported by the compiled engine "
            "(it plays no wild cards): use the reference core"
        )
    for name, plays in _UNPLAYED:
        value = getattr(rules, name)
        if value not in plays:
            raise UnsupportedRules(
                f"option {name}={value} is not supported by the compiled engine: use the "
                "reference core"
            )
    if rules.cards > MAX_CARDS:
        raise UnsupportedRules(
            f"option packs={rules.packs} gives {rules.cards} cards: the compiled engine plays "
            f"at most {MAX_CARDS}; use the reference core"
        )
    if rules.hand_size > MAX_HAND:
        raise UnsupportedRules(
            f"option hand_size={rules.hand_size} is over the compiled engine's {MAX_HAND}: "
            "use the reference core"
        )


def plan(rules: Rules, trump: int | None) -> tuple[tuple[Any, ...], ...]:
    """The ways to declare under these rules and trump, in the core's order, each as
    (meld, blocked bits low, high, slots, needs by count, needs by rank)."""
    blocked = blocked_masks(rules)
    melds = declarable_melds(rules, trump is not None)  # the core's list, in its order
    items = []
    for meld in melds:
        for req in slots(rules, meld, trump):
            needs: dict[int, int] = {}
            rank_needs = []
            for kinds, n in req:
                if len(kinds) == 1:
                    needs[n] = needs.get(n, 0) | 1 << kinds[0]
                else:  # any suits of one rank
                    rank_needs.append((kinds[0] & 7, n))
            block = blocked[meld]
            items.append(
                (
                    meld,
                    block & _LOW,
                    block >> 64,
                    tuple((tuple(k), n) for k, n in req),
                    tuple(needs.items()),
                    tuple(rank_needs),
                )
            )
    return tuple(items)


def scalars(rules: Rules) -> list[int]:
    """The option values in the order the C engine reads them (pymod.c, Config_init)."""
    per_rank, per_trick = trick_values(rules)
    exch = {"seven": SEVEN, "nine": NINE, "none": -1}[rules.turn_up_exchange]
    return [
        rules.players,
        rules.active_players,
        rules.hand_size,
        int(rules.partnerships),
        int(rules.dealer_sits_out),
        rules.cards,
        rules.sides,
        int(rules.turn_up),
        {"none": 0, "seven": 1, "greek-club": 2}[rules.turn_up_bonus],
        int(rules.first_lead_seat == "left"),
        int(rules.stage1_must_follow_suit),
        int(rules.stage2_must_head),
        int(rules.stage2_must_trump),
        int(rules.play_out_hand),
        int(rules.reveal_last_draw),
        rules.min_tricks_before_declaring,
        rules.melds_scored_per_trick,
        int(rules.declare_only_after_beating),
        int(rules.repeat_doubles),
        int(rules.partner_declaring == "winner-or-partner"),
        int(rules.meld_reforming),
        rules.seven_of_trumps,
        exch,
        int(rules.seven_exchange_counts_as_meld),
        {"declare": 0, "play": 1, "win-trick": 2}[rules.second_seven_scores],
        *per_rank,
        per_trick,
        int(rules.brisque_timing == "immediate" or rules.trick_scoring == "greek-per-trick"),
        rules.last_trick_bonus,
        int(rules.brisques_only_to_settle),
        rules.carte_blanche,
        int(rules.carte_blanche_repeat),
        rules.trump_double_marriage,
        int(rules.sequence_bezique_jack),
    ]


def card_kinds(rules: Rules) -> bytes:
    """The kind of each card id: ids run kind by kind, as in the core."""
    return bytes(sorted(rules.pack_kinds))


def compile_rules(engine: Any, rules: Rules) -> Any:
    """An ``engine.Config`` for these rules (raises :class:`UnsupportedRules`)."""
    check_supported(rules)
    scores = [meld_score(rules, m.id) for m in MELDS]
    plans = tuple(plan(rules, t) for t in (0, 1, 2, 3, None))
    cfg = engine.Config(scalars(rules), card_kinds(rules), scores, plans)
    cfg.set_policy(policy_table(rules))
    return cfg


def id_table(rules: Rules) -> tuple[Any, ...]:
    """The core's action-id layout (:mod:`bezique.core.ids`) as the C engine takes it."""
    ids = action_ids(rules)
    keys = [
        (bytes([meld, *(x for triple in kinds for x in triple)]), mid)
        for (meld, kinds), mid in ids.meld_key.items()
    ]
    return (
        ids.pass_id,
        -1 if ids.exchange_id is None else ids.exchange_id,
        -1 if ids.partner_id is None else ids.partner_id,
        list(ids.play_offset),
        keys,
        ids.alt_base,
        ids.num_actions,
    )


def policy_table(rules: Rules) -> list[float]:
    """The tables of the search players' default policy (``bezique.bots.playout``: rank
    points, declaration values, and per trump the meld values a card may still bring), in the
    order ``Config.set_policy`` reads them.  Kept equal to the Python policy by
    ``tests/test_fast.py``, which plays both side by side."""
    # the rules' trick values, as the search players count them (bots.playout.rank_points):
    # brisques that only settle a per-deal game count a tenth
    per_rank, flat = trick_values(rules)
    scale = 0.1 if rules.brisques_only_to_settle else 1.0
    out: list[float] = [*(scale * p for p in per_rank), float(flat)]
    out += [float(meld_score(rules, m.id)) for m in MELDS] + [0.0] * (64 - len(MELDS))
    out.append(float(rules.seven_of_trumps) + 0.5)
    plain = float(meld_score(rules, MARRIAGE))
    royal = float(meld_score(rules, ROYAL_MARRIAGE))
    for trump in (0, 1, 2, 3, -1):
        if trump < 0:  # not fixed yet: the first marriage fixes it and scores as royal
            out += [max(plain, royal)] * 4
        else:
            out += [royal if s == trump else plain for s in range(4)]
        pair = bezique_kinds(rules, None if trump < 0 else trump)
        if pair is None:
            out += [-1.0, -1.0, 0.0, 0.0]
        else:
            out += [
                float(pair[0]),
                float(pair[1]),
                float(meld_score(rules, BEZIQUE)),
                float(meld_score(rules, DOUBLE_BEZIQUE)),
            ]
        quartet = [0.0] * 8
        for meld, r in QUARTET_RANK.items():
            quartet[r] = max(quartet[r], float(meld_score(rules, meld)))
        out += quartet
        out.append(float(meld_score(rules, TRUMP_SEQUENCE)) if trump >= 0 else 0.0)
    return out


@per_rules
def config(rules: Rules, engine: Any) -> Any:
    """The compiled config of a rule set, built once (kept on the rules value)."""
    return compile_rules(engine, rules)
