"""A `Rules` value compiled for the C engine: option values and meld tables, from the core.

Everything here is worked out from the reference core's own values and functions
(:mod:`bezique.core.melds`), never from preset names, so that the two engines agree by
construction; the differential tests check that they do.
"""

from __future__ import annotations

import dataclasses
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
    SET_MELDS,
    TRUMP_SEQUENCE,
    bezique_kinds,
    meld_score,
    set_family,
    wild_card_melds,
)
from ..core.movegen import meld_plan
from ..core.percache import per_rules
from ..core.rules import Rules
from ..core.scoring import kind_values, trick_values, valued_trick_values

MAX_CARDS = 320
"""Most cards in a pack the compiled engine plays (eight packs of 32 and more fit)."""
MAX_HAND = 38
_LOW = (1 << 64) - 1


class UnsupportedRules(ValueError):
    """An option value the compiled engine does not play; use the reference core instead."""


# The values the compiled engine plays of the options it reads by value (others are refused
# by name, so that a caller falls back to the reference core).
_PLAYS: dict[str, tuple[object, ...]] = {
    "turn_up_bonus": ("none", "seven", "greek-club"),
    "turn_up_exchange": ("seven", "nine", "none"),
    "first_lead_seat": ("left", "right"),
    "partner_declaring": ("winner-only", "winner-or-partner"),
    "melds_before_trump": ("all-but-sequence", "marriage-only"),
    "meld_reuse": ("by-class", "higher-score-only", "once-per-kind"),
    "second_seven_scores": ("declare", "play", "win-trick", "play-always", "capture"),
    "trick_scoring": ("brisques", "card-points", "greek-per-trick", "none", "brisque-majority"),
    "brisque_timing": ("end-of-hand", "immediate"),
    "target_check": ("end-of-hand", "immediate"),
    "wild_card_melds": ("any", "quartets", "all-but-sequence"),
    "stage2_wild_card": ("discard", "last-resort"),
    "draw_order": ("winner-first", "leader-first"),
    "trump_set_scoring": ("whole", "cumulative"),
}
_SEVENS = {"declare": 0, "play": 1, "win-trick": 2, "play-always": 3, "capture": 4}
# Every option the engine was written against: one added to Rules later is refused by name
# unless it keeps its default value (which must then mean the old behaviour).
_KNOWN = frozenset(
    [
        "name",
        "players",
        "packs",
        "hand_size",
        "partnerships",
        "dealer_sits_out",
        "pack_ranks",
        "extra_nines",
        "wild_cards",
        "wild_card_melds",
        "four_wild_cards",
        "wild_card_lead_wins",
        "deal_packets",
        "turn_up",
        "turn_up_bonus",
        "melds_before_trump",
        "sequence_fixes_trump",
        "trump_double_marriage",
        "first_lead_seat",
        "stage1_must_follow_suit",
        "stage2_must_head",
        "stage2_must_trump",
        "stage2_wild_card",
        "play_out_hand",
        "reveal_last_draw",
        "min_tricks_before_declaring",
        "melds_scored_per_trick",
        "declare_only_after_beating",
        "repeat_doubles",
        "sequence_bezique_jack",
        "partner_declaring",
        "meld_reforming",
        "meld_reuse",
        "bezique_pairing",
        "quartet_distinct_suits",
        "sequence_needs_marriage",
        "common_marriage",
        "royal_marriage",
        "bezique",
        "first_bezique",
        "double_bezique",
        "triple_bezique",
        "quadruple_bezique",
        "quintuple_bezique",
        "four_aces",
        "four_kings",
        "four_queens",
        "four_jacks",
        "four_tens",
        "four_trump_aces",
        "four_trump_tens",
        "four_trump_kings",
        "four_trump_queens",
        "four_trump_jacks",
        "five_trump_aces",
        "five_trump_tens",
        "five_trump_kings",
        "five_trump_queens",
        "five_trump_jacks",
        "six_trump_aces",
        "six_trump_tens",
        "six_trump_kings",
        "six_trump_queens",
        "six_trump_jacks",
        "seven_trump_aces",
        "seven_trump_tens",
        "seven_trump_kings",
        "seven_trump_queens",
        "seven_trump_jacks",
        "eight_trump_aces",
        "eight_trump_tens",
        "eight_trump_kings",
        "eight_trump_queens",
        "eight_trump_jacks",
        "four_bezique_jacks",
        "five_bezique_jacks",
        "six_bezique_jacks",
        "seven_bezique_jacks",
        "eight_bezique_jacks",
        "trump_sequence",
        "plain_sequence",
        "double_common_marriage",
        "double_royal_marriage",
        "triple_common_marriage",
        "triple_royal_marriage",
        "two_trump_sevens",
        "carte_blanche",
        "carte_blanche_repeat",
        "seven_of_trumps",
        "turn_up_exchange",
        "seven_exchange_counts_as_meld",
        "second_seven_scores",
        "trick_scoring",
        "draw_order",
        "exchange_before_min_tricks",
        "trump_set_scoring",
        "brisque_min_score",
        "brisque_loser_penalty",
        "brisque_tie_bonus",
        "brisque_timing",
        "last_trick_bonus",
        "target",
        "target_check",
        "score_floor_zero",
        "match_games",
        "double_game_below",
        "cent_points_handicap",
        "both_reach_target",
        "triple_bezique_wins_game",
        "penalty_scheme",
        "extra_card_penalty",  # the score-keeper's (decision 8): nothing the engine plays
        "show_stock_count",
        "deal_scoring",
        "brisques_only_to_settle",
        "game_bonus",
        "rubicon_threshold",
        "rubicon_bonus",
        "rubicon_brisque_bonus",
        "small_loser_bonus",
        "round_to_hundreds",
    ]
)


def _refuse(name: str, value: object) -> UnsupportedRules:
    return UnsupportedRules(
        f"option {name}={value} is not supported by the compiled engine: use the reference core"
    )


def check_supported(rules: Rules) -> None:
    """Raise :class:`UnsupportedRules`, naming the option, if the engine cannot play these rules."""
    for name, plays in _PLAYS.items():
        value = getattr(rules, name)
        if value not in plays:
            raise _refuse(name, value)
    for f in dataclasses.fields(rules):
        if f.name not in _KNOWN:
            value = getattr(rules, f.name)
            if f.default is dataclasses.MISSING or value != f.default:
                raise _refuse(f.name, value)
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
    """The ways to declare under these rules and trump, in the core's order (the core's own
    :func:`bezique.core.movegen.meld_plan`), each as (meld, blocked bits low, high, slots,
    needs by count, needs by rank)."""
    return tuple(
        (
            meld,
            block & _LOW,
            block >> 64,
            tuple((tuple(k), n) for k, n in req),
            tuple(needs),
            tuple(rank_needs),
        )
        for (meld, _, block, req), needs, rank_needs in meld_plan(rules, trump)
    )


def fields(rules: Rules) -> dict[str, int | tuple[int, ...]]:
    """The option values the C engine reads, by the names of ``bezique.fast._fields.CONFIG_FIELDS`` (one list,
    generated for both sides by ``scripts/make_fast_tables.py``; ``config.c`` refuses a
    missing or unknown name)."""
    per_rank, per_trick = trick_values(rules)
    exch = {"seven": SEVEN, "nine": NINE, "none": -1}[rules.turn_up_exchange]
    out: dict[str, int | tuple[int, ...]] = {
        "players": rules.players,
        "active_players": rules.active_players,
        "hand_size": rules.hand_size,
        "partnerships": int(rules.partnerships),
        "dealer_sits_out": int(rules.dealer_sits_out),
        "cards": rules.cards,
        "sides": rules.sides,
        "turn_up": int(rules.turn_up),
        "turn_up_bonus": {"none": 0, "seven": 1, "greek-club": 2}[rules.turn_up_bonus],
        "first_lead_left": int(rules.first_lead_seat == "left"),
        "stage1_must_follow_suit": int(rules.stage1_must_follow_suit),
        "stage2_must_head": int(rules.stage2_must_head),
        "stage2_must_trump": int(rules.stage2_must_trump),
        "play_out_hand": int(rules.play_out_hand),
        "reveal_last_draw": int(rules.reveal_last_draw),
        "min_tricks_before_declaring": rules.min_tricks_before_declaring,
        "melds_scored_per_trick": rules.melds_scored_per_trick,
        "declare_only_after_beating": int(rules.declare_only_after_beating),
        "repeat_doubles": int(rules.repeat_doubles),
        "partner_may_declare": int(rules.partner_declaring == "winner-or-partner"),
        "meld_reforming": int(rules.meld_reforming),
        "seven_of_trumps": rules.seven_of_trumps,
        "exchange_rank": exch,
        "seven_exchange_counts_as_meld": int(rules.seven_exchange_counts_as_meld),
        "second_seven_scores": _SEVENS[rules.second_seven_scores],
        "rank_points": tuple(per_rank),
        "trick_points": per_trick,
        "brisques_immediate": int(
            rules.brisque_timing == "immediate" or rules.trick_scoring == "greek-per-trick"
        ),
        "last_trick_bonus": rules.last_trick_bonus,
        "brisques_only_to_settle": int(rules.brisques_only_to_settle),
        "carte_blanche": rules.carte_blanche,
        "carte_blanche_repeat": int(rules.carte_blanche_repeat),
        "trump_double_marriage": rules.trump_double_marriage,
        "sequence_bezique_jack": int(rules.sequence_bezique_jack),
        "first_bezique": rules.first_bezique,
        "target_immediate": int(rules.target_check == "immediate"),
        "target": rules.target,
        "brisque_majority": int(rules.trick_scoring == "brisque-majority"),
        "brisque_min_score": rules.brisque_min_score,
        "brisque_loser_penalty": rules.brisque_loser_penalty,
        "brisque_tie_bonus": rules.brisque_tie_bonus,
        "score_floor_zero": int(rules.score_floor_zero),
        "sequence_needs_marriage": int(rules.sequence_needs_marriage),
        # the wild cards (HAITIAN.md sections 3 and 5; decision 11)
        "wild_cards": rules.wild_cards,
        "wild_card_lead_wins": int(rules.wild_card_lead_wins),
        "wild_card_last_resort": int(rules.stage2_wild_card == "last-resort"),
        # a wild card scores in one meld only
        "wild_card_once": int(rules.meld_reuse == "once-per-kind"),
        "wild_card_meld_bits": (
            sum(1 << m for m in wild_card_melds(rules)) if rules.wild_cards else 0
        ),
        "kind_values": tuple(kind_values(rules)),
        "leader_draws_first": int(rules.draw_order == "leader-first"),
        "exchange_before_min_tricks": int(rules.exchange_before_min_tricks),
    }
    return out


def card_kinds(rules: Rules) -> bytes:
    """The kind of each card id: ids run kind by kind, as in the core."""
    return bytes(sorted(rules.pack_kinds))


def compile_rules(engine: Any, rules: Rules) -> Any:
    """An ``engine.Config`` for these rules (raises :class:`UnsupportedRules`)."""
    check_supported(rules)
    scores = [meld_score(rules, m.id) for m in MELDS]
    plans = tuple(plan(rules, t) for t in (0, 1, 2, 3, None))
    cfg = engine.Config(fields(rules), card_kinds(rules), scores, plans)
    cfg.set_policy(policy_table(rules))
    if rules.trump_set_scoring == "cumulative":
        cfg.set_trump_sets(*trump_sets(rules))
    return cfg


def trump_sets(rules: Rules) -> tuple[list[int], list[int]]:
    """``trump_set_scoring=cumulative`` (:func:`bezique.core.scoring.meld_points`) as tables,
    9 entries a meld: the meld itself (-1 for a meld of no set family) then the meld of its
    family for each count 1-8; and what it pays when the largest set of its family its cards
    have shown is that count (0: none shown)."""
    members, points = [-1] * (64 * 9), [0] * (64 * 9)
    for m in MELDS:
        family = set_family(m.id)
        if family is None:
            continue
        rank, count = family
        kin = SET_MELDS[rank]
        members[9 * m.id] = m.id
        for n, other in kin.items():
            members[9 * m.id + n] = other
        for shown in range(9):
            low = max(shown + 1, min(kin)) if shown < count else count
            points[9 * m.id + shown] = sum(meld_score(rules, kin[n]) for n in range(low, count + 1))
    return members, points


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
    rank, per_trick = valued_trick_values(rules)  # as bezique.bots.playout.rank_points
    out: list[float] = [*rank, per_trick]
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
