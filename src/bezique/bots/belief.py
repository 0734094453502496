"""A belief about the other hand: which unseen cards the opponent is likely to hold.

Uniform determinization deals the cards a seat has not seen at random between the other hand
and the stock.  Real players keep some cards and throw others, declare what they can and pass
on what they cannot, so late in the stock the unseen aces and trumps are more often in the other
hand than in the stock, and a meld the opponent would have declared is less likely to be there.
This module gives each unseen card kind a weight from the seat's observation alone, for the
compiled search to deal its worlds with (``bezique.fast.search.pimc(..., bias=...)``: the other hand's
places filled one by one, each unseen card drawn with chance proportional to its kind's weight).

The weight of kind ``k`` is ``exp(theta . x(k))``, where ``x(k)`` (:data:`FEATURES`) describes
the card as the observer sees it: its rank and whether it is trump, how far the stock has run,
whether the opponent passed on declaring a meld the card would have completed with cards shown
on its table, what the opponent has played, and the like.  ``theta`` is fit by logistic
regression on self-play positions (``scripts/train_belief.py``): each unseen copy of a card is
in the opponent's hand or not, with the base odds (hidden cards in the hand over unseen cards
elsewhere) as an offset.  The figure that says whether it knows anything is the held-out
log-likelihood of the true hand's cards against the base rate, in nats (docs/learning.md).

The classic rules only (the model was fit on them); elsewhere :meth:`BeliefModel.bias` returns
None (uniform worlds).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from ..core.cards import ALL_KINDS, SUITS, WILD, parse_card
from ..core.observation import Observation
from ..core.tricks import beats
from .inference import _history, card_column, hidden_places
from .learned import _classic

_QS, _JD = parse_card("QS"), parse_card("JD")

_CLASS_NAMES = tuple(t + r for t in ("trump-", "plain-") for r in "ATKQJ987")

FEATURES: tuple[str, ...] = (
    *(f"class:{c}*stock-band:{b}" for b in range(6) for c in _CLASS_NAMES),
    "bezique-card",
    "bezique-card*progress",
    "pass:marriage",
    "pass:royal-marriage",
    "pass:bezique",
    "pass:four",
    "pass:seven",
    "shown-on-table",
    "played-same-kind",
    "played-same-rank",
    "played-same-suit",
    "thrown-high*high",
    "thrown-high*low",
    "thrown-low*high",
    "thrown-low*low",
    "led-suit",
    "led-suit*trump",
    "declared-partner",
)
"""What :func:`card_features` says of each unseen card kind (one weight each; ``class``: its
rank and whether it is trump, in each sixth of stage 1 (``stock-band``); ``progress``: the
share of the stage-1 tricks played; ``pass:*``: how often the opponent won a trick and
declared nothing while this card would have completed that meld with cards shown on its table,
each pass fading as ``(1 - 1/hand)`` per draw since; ``played-*``: the opponent's plays of the
same kind, rank or suit; ``thrown-*``: the share of the opponent's losing follows that threw a
high card (an ace, a ten or a trump) or a low one, against whether this card is high;
``led-suit``: the share of the opponent's leads in this card's suit; ``declared-partner``: the
opponent declared a meld with this kind's partner that the card would extend)."""


def _band(progress: float) -> int:
    """Which sixth of stage 1 the deal is in (0 to 5)."""
    return min(5, int(progress * 6))


def _is_high(kind: int, trump: int) -> bool:
    return kind >> 3 == trump or kind & 7 <= 1


@dataclass(frozen=True)
class CardRows:
    """One observation's unseen card kinds, for the model: features, copies unseen, and the
    numbers that fix the base odds."""

    kinds: list[int]
    unseen: list[int]
    """Copies of each kind the observer has not seen (in the other hand or the stock)."""
    x: list[list[float]]
    hand: int
    """The opponent's concealed cards the observer has not seen."""
    pool: int
    """Every unseen card (the hand's and the stock's)."""

    @property
    def base(self) -> float:
        """The base rate: the chance an unseen card is in the other hand, knowing nothing."""
        return self.hand / self.pool

    @property
    def offset(self) -> float:
        """The base rate as log-odds (0 where it is 0 or 1), the offset the weights add to."""
        b = self.base
        return math.log(b / (1.0 - b)) if 0 < b < 1 else 0.0


def supported(obs: Observation) -> bool:
    """Whether the model reads this observation: the classic rules it was fit on (any other
    option changes which cards a player keeps), a seat's view, stage 1, a trump."""
    return (
        obs.seat is not None
        and obs.rules == _classic()
        and obs.stage == 1
        and obs.trump is not None
    )


def card_features(obs: Observation) -> CardRows | None:
    """:data:`FEATURES` of each card kind the observer has not seen every copy of, or None where
    the model does not apply (:func:`supported`) or nothing is hidden."""
    if not supported(obs):
        return None
    me = obs.seat
    assert me is not None and obs.trump is not None
    opp = 1 - me
    sizes, unseen_codes = hidden_places(obs)
    hand = sizes[opp]
    if hand <= 0 or not unseen_codes:
        return None
    unseen = Counter(parse_card(c) for c in unseen_codes)
    trump = SUITS.index(obs.trump)
    rules = obs.rules
    s1 = rules.stage1_tricks
    progress = min(len(obs.tricks), s1) / s1
    hist = _history(obs, opp)
    keep = 1.0 - 1.0 / rules.hand_size
    table = hist.table  # the opponent's cards shown (its table and those known to be held)

    # passes, per meld class, the cards that would have completed it with its table
    pass_w = sum(keep**p.draws_since for p in hist.passes)
    pass_cards: dict[str, set[int]] = {k: set() for k in ("marriage", "royal", "bezique", "four")}
    for s in range(4):
        k, q = s * 8 + 2, s * 8 + 3
        klass = "royal" if s == trump else "marriage"
        if table[k] and not table[q]:
            pass_cards[klass].add(q)
        if table[q] and not table[k]:
            pass_cards[klass].add(k)
    if table[_QS] and not table[_JD]:
        pass_cards["bezique"].add(_JD)
    if table[_JD] and not table[_QS]:
        pass_cards["bezique"].add(_QS)
    for r in (0, 2, 3, 4):
        if sum(table[s * 8 + r] > 0 for s in range(4)) >= 3:
            pass_cards["four"].update(s * 8 + r for s in range(4) if not table[s * 8 + r])
    seven = trump * 8 + 7
    turn_up_there = obs.turn_up is not None

    played: Counter[int] = Counter()
    leads: Counter[int] = Counter()
    thrown_high = thrown_low = 0
    for ch in hist.choices:
        played[ch.played] += 1
        if ch.led is None:
            leads[ch.played >> 3] += 1
        elif not beats(ch.played, ch.led, trump, rules.wild_card_lead_wins):
            if _is_high(ch.played, trump):
                thrown_high += 1
            else:
                thrown_low += 1
    follows_lost = max(1, thrown_high + thrown_low)
    n_leads = max(1, sum(leads.values()))
    declared = hist.declared

    kinds, counts, rows = [], [], []
    for kind in sorted(unseen):
        if kind >= WILD:
            continue
        cls = card_column(kind, trump)
        x = [0.0] * len(FEATURES)
        x[16 * _band(progress) + cls] = 1.0
        i = 96
        bez = 1.0 if kind in (_QS, _JD) else 0.0
        x[i], x[i + 1] = bez, bez * progress
        i += 2
        x[i] = pass_w if kind in pass_cards["marriage"] else 0.0
        x[i + 1] = pass_w if kind in pass_cards["royal"] else 0.0
        x[i + 2] = pass_w if kind in pass_cards["bezique"] else 0.0
        x[i + 3] = pass_w if kind in pass_cards["four"] else 0.0
        x[i + 4] = pass_w if kind == seven and turn_up_there else 0.0
        i += 5
        x[i] = float(table[kind])
        x[i + 1] = float(played[kind])
        x[i + 2] = float(sum(played[s * 8 + (kind & 7)] for s in range(4)) - played[kind]) / 4
        x[i + 3] = float(sum(played[(kind >> 3) * 8 + r] for r in range(8)) - played[kind]) / 8
        i += 4
        high = _is_high(kind, trump)
        fh, fl = thrown_high / follows_lost, thrown_low / follows_lost
        x[i], x[i + 1] = (fh, 0.0) if high else (0.0, fh)
        x[i + 2], x[i + 3] = (fl, 0.0) if high else (0.0, fl)
        i += 4
        x[i] = leads[kind >> 3] / n_leads
        x[i + 1] = x[i] if kind >> 3 == trump else 0.0
        i += 2
        partner = (
            (kind & 7 in (2, 3) and f"marriage:{SUITS[kind >> 3]}" in declared)
            or (kind in (_QS, _JD) and "bezique" in declared)
            or (kind >> 3 == trump and kind & 7 in (0, 1, 4) and "royal-marriage" in declared)
        )
        x[i] = 1.0 if partner else 0.0
        assert i + 1 == len(FEATURES)
        kinds.append(kind)
        counts.append(unseen[kind])
        rows.append(x)
    return CardRows(kinds, counts, rows, hand, sum(unseen.values()))


@dataclass(frozen=True)
class BeliefModel:
    """The fitted weights of :data:`FEATURES` (see the module docstring)."""

    theta: tuple[float, ...]
    info: dict[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.theta) != len(FEATURES):
            raise ValueError(
                f"a belief model has {len(FEATURES)} weights, one a feature: got {len(self.theta)}"
            )
        if not all(math.isfinite(t) for t in self.theta):
            raise ValueError("a belief model's weights must be finite numbers")

    def scores(self, rows: CardRows) -> list[float]:
        """The log-odds of each of ``rows``' kinds, less the base odds."""
        return [sum(t * v for t, v in zip(self.theta, x, strict=True) if v) for x in rows.x]

    def bias(self, obs: Observation, power: float = 1.0) -> list[float] | None:
        """The world bias for the compiled search (one weight a card kind, ``ALL_KINDS``):
        ``exp(power * score)`` for the unseen kinds, 1 for the rest (they are not drawn); None
        where the model does not apply."""
        rows = card_features(obs)
        if rows is None:
            return None
        out = [1.0] * ALL_KINDS
        for kind, s in zip(rows.kinds, self.scores(rows), strict=True):
            out[kind] = math.exp(max(-20.0, min(20.0, power * s)))
        return out

    def to_json(self) -> dict[str, object]:
        """The model as plain JSON data."""
        return {
            "format": "bezique-belief-model",
            "features": list(FEATURES),
            "theta": list(self.theta),
            "info": self.info,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> BeliefModel:
        """Read :meth:`to_json`'s data; ``ValueError`` if it is something else."""
        if not isinstance(data, dict) or data.get("format") != "bezique-belief-model":
            raise ValueError("not a bezique belief model")
        if data.get("features") != list(FEATURES):
            raise ValueError("the belief model was fit on other features than this version's")
        theta, info = data.get("theta"), data.get("info", {})
        if not isinstance(theta, list) or not isinstance(info, dict):
            raise ValueError("a belief model needs a list of weights")
        if not all(isinstance(t, int | float) and not isinstance(t, bool) for t in theta):
            raise ValueError("a belief model's weights must be numbers")
        return cls(tuple(float(t) for t in theta), info)

    @classmethod
    def load(cls, path: str | Path) -> BeliefModel:
        """Read a model file (JSON)."""
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))

    def save(self, path: str | Path) -> None:
        """Write the model file (JSON)."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


@cache
def shipped_belief() -> BeliefModel:
    """The belief model that ships with the package (fit on classic self-play)."""
    text = resources.files(__package__).joinpath("belief_classic.json").read_text("utf-8")
    return BeliefModel.from_json(json.loads(text))


def log_gain(model: BeliefModel, rows: CardRows, truth: Sequence[str]) -> float:
    """How much more likely the model makes the opponent's true unseen cards than the base rate
    does, in nats, each unseen copy counted as in the hand or not on its own."""
    held = Counter(parse_card(c) for c in truth)
    base, offset = rows.base, rows.offset
    total = 0.0
    for kind, u, s in zip(rows.kinds, rows.unseen, model.scores(rows), strict=True):
        p = 1.0 / (1.0 + math.exp(-(s + offset)))
        p = min(max(p, 1e-9), 1 - 1e-9)
        y = held[kind]
        total += y * math.log(p / base) + (u - y) * math.log((1 - p) / (1 - base))
    return total


__all__ = ["FEATURES", "BeliefModel", "CardRows", "card_features", "log_gain", "shipped_belief"]
