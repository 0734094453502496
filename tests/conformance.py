"""A generic conformance suite for the deal engine, run over every rule set.

Each check takes a :class:`~bezique.Deal` (and sometimes a seat and a random generator) and
raises ``AssertionError`` saying what is wrong.  :func:`check_deal` plays one seeded deal with a
random legal action at every step and runs every check at every step; :func:`check_deals` does
that for many seeds and gathers the failures, so that one broken invariant does not hide the
others.  The suite reads the engine's internal attributes (``_hands``, ``_stock``, ``_turn_up``,
``_trick``, ``_tricks``, ``_mask``, ``_known``, ``_kinds``) to know where every physical card
really is: it is an engine test, and nothing outside ``tests/`` may do that.

Nothing here depends on a preset's name, so a new preset is covered as soon as
``Rules.presets()`` lists it.  ``tests/test_conformance.py`` runs it under pytest and
``scripts/conformance.py --deals 20000`` runs it at scale.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from bezique import Action, Deal, IllegalAction, Observation, Rules
from bezique.core.melds import profile_names

CODES = (*(r + s for s in "SHDC" for r in "ATKQJ987"), "XX")  # XX: the wild card
"""Card codes by kind, written out here rather than taken from the engine."""

# Classic rule variations run by the suite next to the presets.
CLASSIC_VARIATIONS: tuple[dict[str, Any], ...] = (
    {"meld_reuse": "higher-score-only"},
    {"stage2_must_head": False},
    {"trick_scoring": "card-points"},
    {"seven_exchange_counts_as_meld": False},
    {"second_seven_scores": "play"},
    {"second_seven_scores": "win-trick"},
    {"two_trump_sevens": True},
    {"double_marriage": True},
    {"plain_sequence": True},
    {"carte_blanche": True},
    {"melds_scored_per_trick": 2},
    {
        "two_trump_sevens": True,
        "double_marriage": True,
        "plain_sequence": True,
        "carte_blanche": True,
        "melds_scored_per_trick": 2,
        "seven_exchange_counts_as_meld": False,
    },
    {"draw_order": "leader-first"},  # seed 001 l.14
    {"min_tricks_before_declaring": 4, "exchange_before_min_tricks": True},  # 001 l.14
)


def preset_rule_sets() -> list[tuple[str, Rules]]:
    """Every preset, by name."""
    return [(name, Rules.preset(name)) for name in Rules.presets()]


def variation_rule_sets() -> list[tuple[str, Rules]]:
    """The classic preset with each of :data:`CLASSIC_VARIATIONS`."""
    out = []
    for options in CLASSIC_VARIATIONS:
        rules = Rules.preset("classic", **options)
        out.append((str(rules), rules))
    return out


# --- what the cards are worth ------------------------------------------------------------------

_CARD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}


def trick_value(rules: Rules, cards: Iterable[str]) -> int:
    """Points a trick of these card codes is worth to its winner."""
    ranks = [c[0] for c in cards]
    brisques = 10 * sum(1 for r in ranks if r in "AT")
    if rules.trick_scoring in ("brisques", "brisque-majority"):
        return brisques  # brisque-majority: what the majority is counted from
    if rules.trick_scoring == "card-points":
        return sum(_CARD_POINTS.get(r, 0) for r in ranks)
    if rules.trick_scoring == "greek-per-trick":
        return 10 + brisques
    assert rules.trick_scoring == "none", f"unknown trick scoring {rules.trick_scoring!r}"
    return 0


def trick_total(rules: Rules) -> int:
    """Trick points in a whole hand, the last-trick bonus not included (160 in classic)."""
    per_pack = {
        "brisques": 80,
        "brisque-majority": 80,
        "card-points": 120,
        "greek-per-trick": 80,
        "none": 0,
    }
    total = per_pack[rules.trick_scoring] * rules.packs
    if rules.trick_scoring == "greek-per-trick":
        total += 10 * rules.tricks
    return total


def trick_winner(
    cards: list[tuple[int, str]], trump: str | None, wild_lead_wins: bool = False
) -> int:
    """The seat winning a trick of (seat, code) in play order (RULES.md section 1).  A wild card
    never wins, unless ``wild_lead_wins`` and it was led and nobody trumps (HAITIAN.md H16)."""
    order = "ATKQJ987"
    win_seat, best = cards[0]
    for seat, card in cards[1:]:
        if card == "XX":  # a wild card played to a lead never wins
            beats = False
        elif best == "XX":
            beats = card[1] == trump if wild_lead_wins else True
        elif card[1] == best[1]:
            beats = order.index(card[0]) < order.index(best[0])
        else:
            beats = card[1] == trump
        if beats:
            win_seat, best = seat, card
    return win_seat


# --- where the cards are -------------------------------------------------------------------------


def _code(deal: Deal, cid: int) -> str:
    return CODES[deal._kinds[cid]]


def _codes(deal: Deal, ids: Iterable[int]) -> Counter[str]:
    return Counter(_code(deal, c) for c in ids)


def places(deal: Deal) -> dict[str, list[int]]:
    """Every place a physical card can be, with the card ids there."""
    out: dict[str, list[int]] = {}
    for seat, hand in enumerate(deal._hands):
        out[f"hand {seat}"] = list(hand)
    out["stock"] = list(deal._stock)
    out["turn-up"] = [] if deal._turn_up is None else [deal._turn_up]
    out["trick"] = [c for _, c in deal._trick]
    out["tricks"] = [c for _, cs, _ in deal._tricks for c in cs]
    return out


def hidden_ids(deal: Deal, seat: int | None) -> list[int]:
    """Card ids ``seat`` has not seen: other seats' concealed cards not known to all, and the
    stock (``seat=None``: every seat's)."""
    out: list[int] = []
    for s, hand in enumerate(deal._hands):
        if s != seat:
            out.extend(c for c in hand if not deal._mask[c] and not deal._known[c])
    out.extend(deal._stock)
    return out


def opponents_hidden(deal: Deal, seat: int | None) -> Counter[str]:
    """The multiset of other seats' concealed, unknown cards (per seat, as 'seat:code')."""
    out: Counter[str] = Counter()
    for s, hand in enumerate(deal._hands):
        if s != seat:
            for c in hand:
                if not deal._mask[c] and not deal._known[c]:
                    out[f"{s}:{_code(deal, c)}"] += 1
    return out


# constants, and caches the deal works out from its state (legal moves by id, their actions,
# the rules' id tables, the resample's plan): none is state of its own
_CONSTANT_SLOTS = frozenset(
    {
        "_legal",
        "_names",
        "_idt",
        "_shuffle_plan",
        "_kinds",
        "rules",
        "initial",
        "seed",
        "dealer",
    }
)


def snapshot(deal: Deal) -> tuple[Any, ...]:
    """The whole internal state (every slot but the constant ones and the legal-move cache),
    frozen for comparing.

    It is stricter than :meth:`Deal.position` and much cheaper, so the checks that compare
    states many times a step use it; they compare position strings as well, once.
    """
    out: list[Any] = []
    # the state lives in the slots of every class of the split Deal, not only its own
    names = [n for cls in type(deal).__mro__ for n in getattr(cls, "__slots__", ())]
    for name in names:
        if name in _CONSTANT_SLOTS:
            continue
        value = getattr(deal, name)
        if isinstance(value, list):
            if value and isinstance(value[0], list):  # hands, points
                value = tuple(map(tuple, value))
            else:
                value = tuple(value)
        out.append(value)
    return tuple(out)


# --- the checks ------------------------------------------------------------------------------------


def check_cards(deal: Deal) -> None:
    """Every physical card is in exactly one place, and the pack is complete."""
    rules = deal.rules
    where: dict[int, str] = {}
    for place, ids in places(deal).items():
        for c in ids:
            assert c not in where, f"card {_code(deal, c)} (id {c}) is in {where[c]} and {place}"
            where[c] = place
    odd = sorted(set(range(rules.cards)) ^ set(where))
    assert not odd, f"cards lost or invented: the pack has {rules.cards}; ids {odd} differ"
    assert Counter(deal._kinds) == Counter(rules.pack_kinds), "wrong pack"
    for seat in range(rules.players):
        assert deal.hand(seat) == sorted(
            deal.hand(seat), key=lambda c: ("SHDCX".index(c[1]), "ATKQJ987X".index(c[0]))
        ), f"hand({seat}) is not sorted"
        assert Counter(deal.hand(seat)) == _codes(deal, deal._hands[seat]), f"hand({seat}) wrong"
        table = Counter(deal.table(seat))
        assert table == _codes(deal, (c for c in deal._hands[seat] if deal._mask[c])), (
            f"table({seat}) is not the declared cards"
        )
        assert not table - Counter(deal.hand(seat)), f"table({seat}) not within hand({seat})"
    for c in range(rules.cards):
        if deal._mask[c]:
            assert any(c in h for h in deal._hands), f"a declared card {_code(deal, c)} left a hand"


def check_counts(deal: Deal) -> None:
    """Hand sizes, the stock, the stage, the phase and whose turn it is agree with the rules."""
    rules = deal.rules
    n = rules.players
    done = deal.tricks_played
    sizes = [len(h) for h in deal._hands]
    played = {s for s, _ in deal._trick}
    assert len(deal._trick) < n, "a full trick was left on the table"
    assert deal.stock_size == len(deal._stock)
    assert deal.turn_up == (None if deal._turn_up is None else _code(deal, deal._turn_up))
    assert deal.tricks_played == len(deal._tricks) == len(deal.trick_winners)
    assert done <= rules.tricks, f"{done} tricks played; the hand has {rules.tricks}"
    if deal.phase == "over":
        assert deal.is_over and deal.to_move is None
        return
    assert not deal.is_over and deal.to_move is not None
    assert 0 <= deal.to_move < n
    assert deal.phase in ("play", "declare"), f"unknown phase {deal.phase!r}"
    left = len(deal._stock) + (deal._turn_up is not None)
    if deal.stage == 1:
        assert rules.turn_up == (deal._turn_up is not None), "the turn-up is missing in stage 1"
        if rules.turn_up:
            assert deal.trump is not None, "the turn-up fixes trump"
        if deal.phase == "declare":
            assert not deal._trick, "declaring in the middle of a trick"
            assert done >= 1 and deal.to_move == deal.last_trick_winner, (
                "only the winner of the last trick may declare"
            )
            assert sizes == [rules.hand_size - 1] * n, f"hands {sizes} while declaring"
            assert left == rules.stock_cards - n * (done - 1), f"{left} cards left to draw"
        else:
            want = [rules.hand_size - (s in played) for s in range(n)]
            assert sizes == want, f"hands {sizes} in stage 1 (expected {want})"
            assert left == rules.stock_cards - n * done, f"{left} cards left to draw"
            assert done < rules.stage1_tricks, "stage 1 outlasted the stock"
    else:
        assert deal.stage == 2, f"unknown stage {deal.stage}"
        assert deal.phase == "play", "no declarations in stage 2"
        assert left == 0, "stage 2 began with cards left to draw"
        assert done >= rules.stage1_tricks
        assert not any(deal._mask[c] for h in deal._hands for c in h), "melds left on the table"
        want = [rules.tricks - done - (s in played) for s in range(n)]
        assert sizes == want, f"hands {sizes} in stage 2 (expected {want})"
    expected = (deal.leader + len(deal._trick)) % n if deal.phase == "play" else deal.to_move
    assert deal.to_move == expected, f"seat {deal.to_move} to move; expected {expected}"
    if deal._trick:
        assert [s for s, _ in deal._trick] == [
            (deal.leader + i) % n for i in range(len(deal._trick))
        ]


def check_points(deal: Deal) -> None:
    """Points agree with the scoring events, and with the tricks and their winners."""
    rules = deal.rules
    sides = rules.sides
    assert len(deal.points) == sides
    by_events = [0] * sides
    for _, seat, _, pts in deal.events:
        by_events[rules.side_of(seat)] += pts
    tricks = [0] * sides
    for _, cs, w in deal._tricks:
        tricks[rules.side_of(w)] += trick_value(rules, (_code(deal, c) for c in cs))
    immediate = rules.brisque_timing == "immediate" or rules.trick_scoring == "greek-per-trick"
    if deal.is_over:
        result = deal.result
        assert result is not None, "no result once over"
        assert [r.total for r in result] == deal.points, "result totals differ from points"
        assert [r.melds + r.last_trick + r.bonuses for r in result] == by_events, (
            "result does not match the scoring events"
        )
        if deal.ended_early:
            check_early_end(deal, by_events)
            return
        last = [0] * sides
        last[rules.side_of(deal.last_trick_winner)] = rules.last_trick_bonus  # type: ignore[arg-type]
        assert [r.last_trick for r in result] == last, "last-trick bonus misplaced"
        if rules.trick_scoring == "brisque-majority":
            assert sum(tricks) == trick_total(rules), f"brisques won {tricks}"
            before = [c + e for c, e in zip(deal.carry, by_events, strict=True)]
            assert [r.tricks for r in result] == brisque_majority(rules, tricks, before), (
                f"brisque majority of {tricks} on scores {before} wrongly settled"
            )
            return
        assert [r.tricks + r.brisques for r in result] == tricks, (
            "trick points do not match the tricks won"
        )
        won = sum(r.tricks + r.brisques for r in result)
        assert won == trick_total(rules), f"trick points total {won}; expected {trick_total(rules)}"
        if rules.brisques_only_to_settle:  # kept aside to settle a per-deal game
            assert all(r.tricks == 0 for r in result), "settling brisques counted as points"
        from_tricks = sum(r.tricks + r.brisques + r.last_trick for r in result)
        assert from_tricks == trick_total(rules) + rules.last_trick_bonus, (
            f"tricks and last trick make {from_tricks}, not "
            f"{trick_total(rules)} + {rules.last_trick_bonus}"
        )
        counted = 0 if rules.brisques_only_to_settle else trick_total(rules)
        assert sum(deal.points) == sum(by_events) + counted
    else:
        assert deal.result is None, "a result before the end"
        immediate = immediate and not rules.brisques_only_to_settle
        want = [e + t for e, t in zip(by_events, tricks, strict=True)] if immediate else by_events
        assert deal.points == want, f"points {deal.points}; events and tricks give {want}"


def brisque_majority(rules: Rules, brisques: list[int], scores: list[int]) -> list[int]:
    """HAITIAN.md section 6, written out again: more brisques score 10 each, fewer lose the
    penalty, a tie gives each the bonus; only for a side on at least the gate score."""
    out = []
    for side in (0, 1):
        mine, theirs = brisques[side], brisques[1 - side]
        if scores[side] < rules.brisque_min_score:
            out.append(0)
        elif mine == theirs:
            out.append(rules.brisque_tie_bonus)
        elif mine > theirs:
            out.append(mine)
        elif rules.score_floor_zero:
            out.append(-min(rules.brisque_loser_penalty, max(0, scores[side])))
        else:
            out.append(-rules.brisque_loser_penalty)
    return out


def check_early_end(deal: Deal, by_events: list[int]) -> None:
    """A deal ended when a side reached the target (``target_check=immediate``): that side is
    there, nobody had been before the last scoring step, and no trick points nor last trick
    count (HAITIAN.md H25, section 6), even where a seven of trumps in the last trick reached
    it (H15)."""
    rules = deal.rules
    assert rules.target_check == "immediate", "a deal ended early without target_check"
    result = deal.result
    assert result is not None
    totals = [c + p for c, p in zip(deal.carry, deal.points, strict=True)]
    assert max(totals) >= rules.target, f"ended early on {totals}, under {rules.target}"
    assert deal.events[-1][2] == "target reached", "the target event is not the last one"
    if rules.brisque_timing == "end-of-hand" and rules.trick_scoring != "greek-per-trick":
        assert all(r.tricks == 0 for r in result), "trick points counted in a deal ended early"
    assert all(r.last_trick == 0 for r in result), "a last trick in a deal ended early"
    # a meld reaches the target between tricks of stage 1; a seven of trumps scores as its
    # trick is taken, so in the deal's very last trick it too ends the deal before the bonus
    if deal.tricks_played == rules.tricks:
        step = deal.events[-2]
        assert step.what.startswith("seven ") and step.trick == rules.tricks, (
            f"every trick played, yet ended early after {step}"
        )
    else:
        assert deal.tricks_played < rules.tricks, f"{deal.tricks_played} tricks played"


def check_legal(deal: Deal) -> None:
    """Every legal action is distinct, round-trips through its notation, and applies; applying
    it or its text gives the same deal; the original is left untouched."""
    before = snapshot(deal)
    position = deal.position()
    legal = deal.legal_actions()
    texts = [str(a) for a in legal]
    assert len(set(texts)) == len(texts), f"duplicate legal actions: {texts}"
    assert len(set(legal)) == len(legal)
    if deal.is_over:
        assert not legal
        return
    assert legal, "no legal action in a live deal"
    verbs = {a.verb for a in legal}
    if deal.phase == "play":
        assert verbs == {"play"}, f"non-play actions in the play phase: {texts}"
    else:
        assert "play" not in verbs and "pass" in texts, f"declare phase actions: {texts}"
    for i, (a, text) in enumerate(zip(legal, texts, strict=True)):
        assert isinstance(a, Action)
        assert Action.parse(text) == a, f"{text!r} parses to {Action.parse(text)!r}"
        one = deal.clone()
        one.apply(text)
        after = snapshot(one)
        assert one.history == [*deal.history, text], f"history after {text!r}: {one.history}"
        assert after != before, f"{text!r} changed nothing"
        if i in (0, len(legal) - 1):
            two = deal.clone()
            two.apply(a)
            assert after == snapshot(two), f"{text!r} applied as text differs from the Action"
    assert snapshot(deal) == before, "trying the legal actions changed the deal"
    assert deal.position() == position
    assert [str(a) for a in deal.legal_actions()] == texts, "legal actions changed"


def _loosely_legal(cand: Action, legal: list[Action]) -> bool:
    """Could ``cand`` be read as a legal action (same verb, meld and card codes)?"""
    cards = sorted(c.partition("@")[0] for c in cand.cards)
    return any(
        a.verb == cand.verb
        and a.meld == cand.meld
        and sorted(c.partition("@")[0] for c in a.cards) == cards
        for a in legal
    )


# Things that are never an action, whatever the position.
NOT_ACTIONS: tuple[Any, ...] = (
    "",
    "   ",
    "xyzzy",
    "play",
    "play ZZ",
    "play 11S",
    "play AS KS",
    "play AS@nowhere",
    "meld",
    "meld nonsense AS",
    "meld bezique",
    "meld marriage KS QH",
    "pass pass",
    "exchange",
    "exchange 7S 7H",
    42,
    None,
    3.5,
    b"pass",
    ["pass"],
    ("play", "", ("AS",)),
    object(),
    Action("play"),
    Action("play", "", ("AS", "KS")),
    Action("dance"),
    Action("meld", "bezique"),
    Action("meld", "no-such-meld", ("AS",)),
    Action("pass", "", ("AS",)),
    Action("exchange"),
)


def illegal_candidates(deal: Deal, rng: random.Random) -> list[Any]:
    """Actions that must be rejected in this position."""
    out: list[Any] = list(NOT_ACTIONS)
    legal = deal.legal_actions()
    if deal.is_over:
        return [*out, "pass", "play AS", "meld bezique QS JD", Action("pass"), Action.play("7H")]
    seat = deal.to_move
    assert seat is not None
    held = set(deal.hand(seat))
    missing = [c for c in CODES if c not in held]
    texts: list[str] = []
    if missing:
        out.append("play " + rng.choice(missing))
        out.append("play " + rng.choice(missing) + "@table")
    if deal.phase == "play":
        out += ["pass", "meld bezique QS JD", "exchange 7" + (deal.trump or "S")]
        playable = {c.partition("@")[0] for a in legal for c in a.cards}
        out += [f"play {c}" for c in sorted(held - playable)]
        # @table names a declared copy: wrong for a card with none on the table
        out += [f"play {c}@table" for c in sorted(held - set(deal.table(seat)))[:2]]
    else:
        texts += [f"play {c}" for c in sorted(held)[:3]]
        texts += [
            "meld four-aces AS AH AD AC",
            "meld four-jacks JS JH JD JC",
            "meld bezique QS JD",
            "meld double-bezique QS QS JD JD",
            "meld royal-marriage KS QS",
            "meld trump-sequence AH TH KH QH JH",
            "meld seven 7" + (deal.trump or "S"),
            "exchange 7" + (deal.trump or "S"),
        ]
        trump = deal.trump
        if trump is not None:
            plain = "SHDC".replace(trump, "")
            texts.append(f"exchange 7{rng.choice(plain)}")
            texts.append(f"meld royal-marriage K{plain[0]} Q{plain[0]}")
        melds = [a for a in legal if a.verb == "meld" and a.cards]
        if melds and missing:
            a = rng.choice(melds)
            cards = list(a.cards)
            cards[rng.randrange(len(cards))] = rng.choice(missing)
            texts.append(str(Action("meld", a.meld, tuple(cards))))
    for text in texts:
        if not _loosely_legal(Action.parse(text), legal):
            out.append(text)
    return out


def _reject(deal: Deal, cand: Any, texts: list[str]) -> None:
    try:
        deal.apply(cand)
    except IllegalAction as e:
        assert str(e), f"IllegalAction without a message for {cand!r}"
    except Exception as e:
        raise AssertionError(
            f"apply({cand!r}) raised {type(e).__name__}: {e} (IllegalAction expected)"
        ) from e
    else:
        raise AssertionError(f"apply({cand!r}) was accepted; legal: {texts}")


def check_illegal(deal: Deal, rng: random.Random) -> None:
    """Illegal actions raise IllegalAction (a ValueError) with a message, and leave the deal
    unchanged (its position string, its whole state and its legal actions)."""
    assert issubclass(IllegalAction, ValueError)
    before = snapshot(deal)
    texts = [str(a) for a in deal.legal_actions()]
    candidates = illegal_candidates(deal, rng)
    trial = deal.clone()
    errors = []
    for cand in candidates:
        try:
            _reject(trial, cand, texts)
        except AssertionError as e:
            errors.append(str(e))
            trial = deal.clone()  # it may have been changed
    assert not errors, "\n".join(errors)
    if snapshot(trial) != before:  # find the culprit
        for cand in candidates:
            trial = deal.clone()
            _reject(trial, cand, texts)
            assert snapshot(trial) == before, f"rejected {cand!r} changed the deal"
    assert [str(a) for a in trial.legal_actions()] == texts, "rejected actions changed legal ones"
    # and a few on the deal itself (check_deal compares its position string afterwards)
    for cand in rng.sample(candidates, 3):
        with contextlib.suppress(AssertionError):  # reported above
            _reject(deal, cand, texts)
    assert snapshot(deal) == before, "a rejected action changed the deal"


def check_clone(deal: Deal, rng: random.Random) -> None:
    """A clone is equal and independent: applying to it (or to a clone of it) leaves the
    original unchanged.  (check_deal checks the other way round on every real step.)"""
    copy = deal.clone()
    state = snapshot(deal)
    assert snapshot(copy) == state
    assert copy._hands is not deal._hands and copy._stock is not deal._stock
    if deal.is_over:
        return
    copy.apply(rng.choice(copy.legal_actions()))
    assert snapshot(deal) == state, "applying to the clone changed the original"
    copied, copied_state = copy.position(), snapshot(copy)
    third = copy.clone()
    if not third.is_over:
        third.apply(rng.choice(third.legal_actions()))
    assert snapshot(copy) == copied_state, "applying to a clone of the clone changed the clone"
    assert copy.position() == copied


def check_round_trips(deal: Deal) -> None:
    """The position string and every seat's observation string read back to equal values."""
    text = deal.position()
    again = Deal.from_position(text)
    assert again == deal and again.position() == text, "position string does not round-trip"
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in deal.legal_actions()]
    for seat in [*range(deal.rules.players), None]:
        obs = deal.observation(seat)
        back = Observation.from_string(obs.to_string())
        assert back == obs, f"observation of seat {seat} does not round-trip"


def check_observation(deal: Deal, seat: int | None) -> None:
    """The observation of ``seat`` shows exactly what the seat may know, and nothing else."""
    obs = deal.observation(seat)
    rules = deal.rules
    M, known = deal._mask, deal._known
    assert obs.seat == seat and obs.phase == deal.phase and obs.to_move == deal.to_move
    assert obs.hand_sizes == tuple(len(h) for h in deal._hands)
    assert obs.stock_size == deal.stock_size or not rules.show_stock_count
    assert obs.turn_up == deal.turn_up and obs.trump == deal.trump
    assert list(obs.points) == deal.points
    own = Counter() if seat is None else _codes(deal, (c for c in deal._hands[seat] if not M[c]))
    assert Counter(obs.hand) == own, f"seat {seat} sees hand {obs.hand}, holds {own}"
    for s, hand in enumerate(deal._hands):
        table = sorted((_code(deal, c), profile_names(M[c])) for c in hand if M[c])
        shown = sorted(
            (ref.partition("@")[0], tuple(ref.partition("@")[2].split("+")))
            for ref in obs.tables[s]
        )
        assert shown == table, f"seat {seat} sees table {obs.tables[s]} of seat {s}"
        public = _codes(deal, (c for c in hand if not M[c] and known[c]))
        assert Counter(obs.known[s]) == public, f"seat {seat} sees known {obs.known[s]} of {s}"
    assert obs.trick == tuple(deal.trick)
    assert [(ld, cs, w) for ld, cs, w in obs.tricks] == [
        (ld, tuple(_code(deal, c) for c in cs), w) for ld, cs, w in deal._tricks
    ]
    # Every card code the observation shows is one the seat has seen.
    shown_codes: Counter[str] = Counter(obs.hand)
    for s in range(rules.players):
        shown_codes.update(r.partition("@")[0] for r in obs.tables[s])
        if s == seat:  # the seat's own known cards are in its hand already
            assert not Counter(obs.known[s]) - Counter(obs.hand), "own known cards not in hand"
        else:
            shown_codes.update(obs.known[s])
    shown_codes.update(c for _, c in obs.trick)
    shown_codes.update(c for _, cs, _ in obs.tricks for c in cs)
    if obs.turn_up:
        shown_codes[obs.turn_up] += 1
    seen = _codes(deal, set(range(rules.cards)) - set(hidden_ids(deal, seat)))
    assert shown_codes == seen, f"seat {seat} is shown {shown_codes - seen} it has not seen"
    if seat is not None and seat == deal.to_move:
        assert obs.legal == tuple(str(a) for a in deal.legal_actions())
    else:
        assert obs.legal == ()


def shuffle_hidden(deal: Deal, seat: int | None, rng: random.Random) -> Deal:
    """A clone with the cards ``seat`` has not seen moved around among their places."""
    copy = deal.clone()
    slots: list[tuple[list[int], int]] = []
    for s, hand in enumerate(copy._hands):
        if s != seat:
            slots += [
                (hand, i) for i, c in enumerate(hand) if not copy._mask[c] and not copy._known[c]
            ]
    slots += [(copy._stock, i) for i in range(len(copy._stock))]
    ids = [lst[i] for lst, i in slots]
    rng.shuffle(ids)
    for (lst, i), c in zip(slots, ids, strict=True):
        lst[i] = c
    copy._legal = None  # the cached legal moves name card ids
    return copy


def check_secrecy(deal: Deal, seat: int | None, rng: random.Random) -> bool:
    """Moving the cards ``seat`` has not seen leaves its observation string unchanged.

    Returns whether the other seats' concealed cards really changed (the caller counts how often,
    so that the check cannot pass by moving nothing).
    """
    obs = deal.observation(seat).to_string()
    other = shuffle_hidden(deal, seat, rng)
    check_cards(other)
    assert other.observation(seat).to_string() == obs, (
        f"seat {seat}'s observation changes with cards it has not seen"
    )
    return opponents_hidden(other, seat) != opponents_hidden(deal, seat)


def check_resample(deal: Deal, seat: int, rng: random.Random) -> tuple[Deal, bool]:
    """``resample`` keeps the seat's observation and legal actions and deals only unseen cards.

    Returns the resampled deal and whether the other seats' concealed cards changed.
    """
    obs = deal.observation(seat)
    world = deal.resample(seat, rng)
    check_cards(world)
    check_counts(world)
    assert world.is_over or world.legal_actions(), (
        f"the resampled deal is stuck: {world.phase} phase, seat {world.to_move} to move, "
        "no legal action"
    )
    assert world.observation(seat) == obs, f"resample changed seat {seat}'s observation"
    assert world.observation(seat).to_string() == obs.to_string()
    if deal.to_move == seat:
        assert [str(a) for a in world.legal_actions()] == [str(a) for a in deal.legal_actions()]
    assert Counter(world.hand(seat)) == Counter(deal.hand(seat)), "resample changed the seat's hand"
    pool = _codes(deal, hidden_ids(deal, seat))
    assert _codes(world, hidden_ids(world, seat)) == pool, "resample dealt cards the seat has seen"
    assert len(hidden_ids(world, seat)) == len(hidden_ids(deal, seat))
    return world, opponents_hidden(world, seat) != opponents_hidden(deal, seat)


def consistent_worlds(deal: Deal, seat: int, most: int = 60) -> Counter[str] | None:
    """Every deal ``seat`` cannot tell from this one, as full position strings, each with its
    weight: how likely a uniform shuffle of the unseen cards makes it, up to a common factor
    (``1 / prod(copies of a kind in one hand)!``).  None when there are more than ``most``."""
    hidden = set(hidden_ids(deal, seat))
    slots = {
        s: len([c for c in hand if c in hidden])
        for s, hand in enumerate(deal._hands)
        if s != seat and any(c in hidden for c in hand)
    }
    if len(deal._stock) > 4:
        return None
    left, tries = len(hidden), 1
    for n in slots.values():
        tries *= math.comb(left, n)
        left -= n
    if tries > 5000:  # too many ways to list
        return None
    pool = sorted(_code(deal, c) for c in hidden)
    ids_of: dict[str, list[int]] = {}
    for c in hidden:
        ids_of.setdefault(_code(deal, c), []).append(c)

    def fill(
        seats: list[int], left: list[str]
    ) -> Iterable[tuple[dict[int, tuple[str, ...]], list[str]]]:
        if not seats:
            yield {}, left
            return
        for part in sorted(set(itertools.combinations(left, slots[seats[0]]))):
            rest = list((Counter(left) - Counter(part)).elements())
            for more, stock in fill(seats[1:], sorted(rest)):
                yield {seats[0]: part, **more}, stock

    out: Counter[str] = Counter()
    for hands, rest in fill(sorted(slots), pool):
        for stock in sorted(set(itertools.permutations(rest))):
            if len(out) >= most:
                return None
            copy = deal.clone()
            free = {k: list(v) for k, v in ids_of.items()}
            for s, part in hands.items():
                kept = [c for c in copy._hands[s] if c not in hidden]
                copy._hands[s] = sorted(kept + [free[k].pop() for k in part])
            copy._stock = [free[k].pop() for k in stock]
            copy._legal = None
            weight = 1.0
            for part in hands.values():
                for n in Counter(part).values():
                    weight /= math.factorial(n)
            out[copy.position()] += weight  # type: ignore[assignment]
    return out


def check_resample_worlds(deal: Deal, seat: int, rng: random.Random, most: int = 60) -> int:
    """``resample`` (the id-level reshuffle) and ``Deal.from_observation`` (the rebuild from
    text) reach exactly the deals consistent with what ``seat`` has seen, every one of them,
    and ``resample`` draws each about as often as its share of the arrangements.

    Returns the number of worlds compared (0 when there are too many to list, or one).
    """
    worlds = consistent_worlds(deal, seat, most)
    if worlds is None or len(worlds) < 2:
        return 0
    total = sum(worlds.values())
    draws = int(min(2000, max(100, 20 * total / min(worlds.values()))))
    obs = deal.observation(seat)
    by_ids = Counter(deal.resample(seat, rng).position() for _ in range(draws))
    by_text = {Deal.from_observation(obs, rng).position() for _ in range(draws)}
    assert set(by_ids) == set(worlds), (
        f"resample reached {len(by_ids)} deals of the {len(worlds)} consistent ones"
        f" ({len(set(by_ids) - set(worlds))} inconsistent)"
    )
    assert by_text == set(worlds), (
        f"from_observation reached {len(by_text)} deals of the {len(worlds)} consistent ones"
    )
    for world, ways in worlds.items():
        expected = draws * ways / total
        spread = 6 * (expected * (1 - ways / total)) ** 0.5 + 1
        assert abs(by_ids[world] - expected) <= spread, (
            f"resample drew a world {by_ids[world]} times in {draws}, expected {expected:.0f}"
        )
    return len(worlds)


def check_over(deal: Deal) -> None:
    """Once over: no legal action, nobody to move, every trick played, and apply refuses."""
    rules = deal.rules
    assert deal.is_over and deal.phase == "over" and deal.to_move is None
    assert deal.legal_actions() == []
    assert deal.result is not None
    if deal.ended_early:  # the target was reached: the deal stopped there (HAITIAN.md H25)
        assert not deal._trick
        return
    assert deal.tricks_played == rules.tricks, f"{deal.tricks_played} tricks; {rules.tricks} due"
    assert not deal._stock and deal._turn_up is None and not deal._trick
    if rules.play_out_hand:  # else the hand ends when the stock is drawn (decision 11)
        assert not any(deal._hands)
    assert deal.result is not None


def check_unchanged(deal: Deal, position: str, state: tuple[Any, ...]) -> None:
    """The checks of a step left the deal as it was."""
    assert deal.position() == position, "the checks (rejected actions, clones) changed the deal"
    assert snapshot(deal) == state


def check_step(deal: Deal, action: Action, before: Deal, position: str) -> None:
    """What one applied action did: history, and the trick winner when a trick completed.
    ``before`` is a clone taken before the action: applying to the deal must not change it."""
    assert before.position() == position, "applying to the deal changed its clone"
    assert deal.history == [*before.history, str(action)]
    if deal.tricks_played == before.tricks_played + 1:
        leader, cs, winner = deal._tricks[-1]
        n = deal.rules.players
        seats = [(leader + i) % n for i in range(n)]
        if deal.rules.dealer_sits_out:
            seats.remove(deal.dealer)
        cards = [(seats[i], _code(deal, c)) for i, c in enumerate(cs)]
        expected = trick_winner(cards, before.trump, deal.rules.wild_card_lead_wins)
        assert winner == expected, f"trick {cards} with trump {before.trump} won by {winner}"
    else:
        assert deal.tricks_played == before.tricks_played


# --- running it ------------------------------------------------------------------------------------


@dataclass
class Stats:
    """What a run checked, and what failed (the first failure of each check)."""

    deals: int = 0
    steps: int = 0
    secrecy: int = 0
    secrecy_changed: int = 0
    resamples: int = 0
    resamples_changed: int = 0
    playouts: int = 0
    failures: dict[str, str] = field(default_factory=dict)
    failure_counts: Counter[str] = field(default_factory=Counter)

    def add(self, other: Stats) -> None:
        for name in ("deals", "steps", "secrecy", "secrecy_changed", "resamples"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.resamples_changed += other.resamples_changed
        self.playouts += other.playouts
        for k, v in other.failures.items():
            self.failures.setdefault(k, v)
        self.failure_counts.update(other.failure_counts)

    def report(self) -> str:
        lines = [
            f"{self.deals} deals, {self.steps} steps; secrecy {self.secrecy_changed}/"
            f"{self.secrecy} moved; resample {self.resamples_changed}/{self.resamples} "
            f"changed; {self.playouts} resampled deals played out"
        ]
        for name, msg in self.failures.items():
            lines.append(f"FAILED {name}\n  ({self.failure_counts[name]} times), first: {msg}")
        return "\n".join(lines)


class _Runner:
    def __init__(self, rules: Rules, seed: int, stats: Stats) -> None:
        self.rules, self.seed, self.stats = rules, seed, stats
        self.dealer = seed % rules.players
        self.carry = carry_for(rules, seed)

    def run(self, name: str, fn: Callable[..., Any], deal: Deal, *args: Any) -> Any:
        """Run one check; record each kind of failure (one per line of the message) once,
        with a reproduction, and count them all."""
        try:
            return fn(deal, *args)
        except Exception as e:
            history = deal.history
            for line in str(e).splitlines() or [""]:
                key = f"{name}: {_failure_kind(type(e).__name__ + ': ' + line)}"
                self.stats.failure_counts[key] += 1
                self.stats.failures.setdefault(
                    key,
                    f"{type(e).__name__}: {line}\n    rules {self.rules}, "
                    f"Deal.new(rules, seed={self.seed}, dealer={self.dealer}"
                    + (f", carry={self.carry}" if self.carry else "")
                    + "), then "
                    f"{len(history)} actions: {history}",
                )
            return None


def _failure_kind(message: str) -> str:
    """A message with its particulars (quoted text, lists, numbers) blanked out."""
    kind = re.sub(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]|\{[^}]*\}|\d+", "_", message)
    return kind[:72]


def carry_for(rules: Rules, seed: int) -> tuple[int, ...] | None:
    """Game scores brought into a deal, drawn from the seed, where a rule depends on them (the
    target checked at once, brisque-majority scoring): near the target, on either side of the
    brisque gate, or 0.  None where no rule does."""
    if rules.target_check != "immediate" and rules.trick_scoring != "brisque-majority":
        return None
    rng = random.Random(seed * 7919 + 17)
    gate, target = rules.brisque_min_score, rules.target
    near = [0, 0, gate - 10, gate, target // 2, target - 60]
    return tuple(max(0, rng.choice(near)) for _ in range(rules.sides))


def check_deal(
    rules: Rules,
    seed: int,
    stats: Stats | None = None,
    *,
    resample_every: int = 1,
    round_trip_every: int = 1,
) -> Stats:
    """Play one seeded deal with random legal actions, running every check at every step.

    ``resample_every``: resample for a random seat every that many steps (1: every step);
    ``round_trip_every``: read the position and observation strings back every that many
    steps (and at the end).  One resampled world per deal is also played to the end.
    """
    stats = stats if stats is not None else Stats()
    run = _Runner(rules, seed, stats).run
    path = random.Random(seed)
    rng = random.Random(seed + 1_000_003)
    carry = carry_for(rules, seed)
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players, carry=carry)
    again = Deal.new(rules, seed=seed, dealer=seed % rules.players, carry=carry)
    assert again.position() == deal.position(), "Deal.new is not deterministic"
    seats: list[int | None] = [*range(rules.players), None]
    playout_step = path.randrange(rules.tricks * rules.players)
    step = 0
    while True:
        position, state = deal.position(), snapshot(deal)
        run("cards", check_cards, deal)
        run("counts", check_counts, deal)
        run("points", check_points, deal)
        run("legal", check_legal, deal)
        run("illegal", check_illegal, deal, rng)
        run("clone", check_clone, deal, rng)
        if step % round_trip_every == 0 or deal.is_over:
            run("round-trips", check_round_trips, deal)
        for seat in seats:
            run("observation", check_observation, deal, seat)
        if deal.is_over:
            run("over", check_over, deal)
        run("unchanged", check_unchanged, deal, position, state)
        if deal.is_over:
            break
        seat = rng.choice(seats)
        changed = run("secrecy", check_secrecy, deal, seat, rng)
        if deal.stage == 1:
            stats.secrecy += 1
            stats.secrecy_changed += bool(changed)
        if step % resample_every == 0 or step == playout_step:
            seat = rng.randrange(rules.players)
            out = run("resample", check_resample, deal, seat, rng)
            if deal.stage == 1:
                stats.resamples += 1
                stats.resamples_changed += bool(out and out[1])
            if out and step == playout_step:
                run("resample playout", play_out, out[0], rng)
                stats.playouts += 1
        action = path.choice(deal.legal_actions())
        before = deal.clone()
        deal.apply(action)
        run("step", check_step, deal, action, before, position)
        stats.steps += 1
        step += 1
    replay = Deal.new(rules, seed=seed, dealer=seed % rules.players, carry=carry)
    for text in deal.history:
        replay.apply(text)
    if replay.position() != deal.position():
        stats.failures.setdefault("replay", f"seed {seed}: replaying the history differs")
        stats.failure_counts["replay"] += 1
    stats.deals += 1
    return stats


def play_out(deal: Deal, rng: random.Random) -> None:
    """Play a deal to the end with random legal actions, checking the cheap invariants."""
    deal = deal.clone()
    while not deal.is_over:
        check_cards(deal)
        check_counts(deal)
        check_points(deal)
        deal.apply(rng.choice(deal.legal_actions()))
    check_cards(deal)
    check_points(deal)
    check_over(deal)


def check_deals(rules: Rules, seeds: Iterable[int], **every: int) -> Stats:
    """:func:`check_deal` for every seed; the failures are gathered in the returned Stats."""
    stats = Stats()
    for seed in seeds:
        check_deal(rules, seed, stats, **every)
    return stats


def assert_conformance(rules: Rules, seeds: Iterable[int], **every: int) -> Stats:
    """:func:`check_deals`, then fail with every broken invariant's first reproduction."""
    stats = check_deals(rules, seeds, **every)
    assert not stats.failures, f"conformance failures under {rules}:\n{stats.report()}"
    if stats.secrecy:
        assert stats.secrecy_changed >= stats.secrecy // 2, (
            "moving the unseen cards rarely changed the other hands: the secrecy check is "
            f"too weak ({stats.report()})"
        )
    if stats.resamples:
        assert stats.resamples_changed >= stats.resamples // 2, (
            f"resample rarely changed the other hands ({stats.report()})"
        )
    return stats
