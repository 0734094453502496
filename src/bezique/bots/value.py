"""A learned evaluation: the expected final margin of a seat's side, from its observation alone.

::

    >>> from bezique import Deal, Rules
    >>> from bezique.bots.value import evaluate
    >>> deal = Deal.new(Rules.preset("classic"), seed=3)
    >>> round(evaluate(deal.observation(0))) == round(evaluate(deal.observation(0), 0))
    True

:func:`evaluate` reads only what :meth:`Deal.observation(seat) <bezique.core.deal.Deal.observation>`
gives the seat (its own cards, the cards on the table and played, the points, the stock size),
turns it into the fixed list of numbers :func:`features` describes, and passes them through a
small network whose weights ship with the package (``value_classic.json``, trained by
``scripts/train_value.py``; docs/learning.md has the figures).  The answer is in points: the
side's final deal points (brisques and the last trick included) less the mean of the other
sides', as the heuristic player would play the rest of the deal.

Evaluation is plain Python (no numpy): the core stays free of dependencies.  Training needs
numpy (``scripts/train_value.py``).

The features (:data:`FEATURE_NAMES`) are relative to the observing seat and to trumps: every
card is counted by rank and by whether it is a trump, in five places - the seat's hand, its
side's table, the other sides' tables and known cards, the cards played, and the cards it has
not seen - with the points so far, the stock left, whose move it is, brisques won and the meld
chances of the seat's holdings.  Suits other than trumps are pooled, so what is learned about
one plain suit holds for all.
"""

from __future__ import annotations

import json
import math
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from operator import mul
from pathlib import Path

from ..core.cards import RANKS, SUITS, parse_card
from ..core.observation import Observation
from ..core.percache import per_rules
from ..core.rules import Rules

FEATURES_VERSION = 1
"""Changes whenever :func:`features` changes (weights name the version they were fit on)."""

PLACES = ("hand", "my_table", "their_cards", "played", "unseen")
"""Where each card is counted: the seat's concealed cards, its side's declared cards, the other
sides' declared and publicly known cards, cards played (tricks and the trick in progress), and
the cards the seat has not seen (the other hands' secret cards and the stock)."""

_SCALAR = (
    "bias",
    "margin_so_far",
    "stock_left",
    "stock_left_sq",
    "stage2",
    "my_move",
    "my_lead",
    "my_declare",
    "brisques_won",
    "tricks_won",
    "turn_up",
    "trump_marriages",
    "plain_marriages",
    "beziques",
    "aces",
    "kings",
    "queens",
    "jacks",
    "trump_sequence",
    "seven_of_trumps",
    "their_aces",
    "their_kings",
    "their_queens",
    "their_jacks",
    "their_beziques",
    "their_trump_sequence",
)

FEATURE_NAMES: tuple[str, ...] = (
    *_SCALAR,
    *(f"{p}_{t}_{r}" for p in PLACES for t in ("trump", "plain") for r in RANKS),
)
"""The names of :func:`features`' entries, in order: the scalars, then for each place of
:data:`PLACES`, the count of each rank among trumps and among the plain suits."""

_BEZIQUE = (parse_card("QS"), parse_card("JD"))


def features(obs: Observation) -> list[float]:
    """The evaluation's inputs for the observing seat (see :data:`FEATURE_NAMES`).

    Points are in hundreds and counts raw.  ``ValueError`` for the public view (no seat)."""
    me = obs.seat
    if me is None:
        raise ValueError("the public view has no hand to evaluate: give a seat's observation")
    rules = obs.rules
    my_side = rules.side_of(me)
    sides = rules.sides
    trump = SUITS.index(obs.trump) if obs.trump is not None else -1

    def rel(side_values: Sequence[float]) -> float:
        """This side's value less the mean of the other sides'."""
        mine = side_values[my_side]
        return float(mine) - (float(sum(side_values)) - mine) / (sides - 1)

    places: list[Counter[int]] = [Counter() for _ in PLACES]
    hand = [parse_card(c) for c in obs.hand]
    places[0].update(hand)
    mine_table: list[int] = []
    for seat, refs in enumerate(obs.tables):
        cards = [parse_card(r.split("@")[0]) for r in refs]
        if rules.side_of(seat) == my_side:
            places[1].update(cards)
            mine_table += cards
        else:
            places[2].update(cards)
    for seat, codes in enumerate(obs.known):
        if rules.side_of(seat) != my_side:
            places[2].update(parse_card(c) for c in codes)
    brisques = [0.0] * sides
    tricks = [0.0] * sides
    for _, cards_, winner in obs.tricks:
        ks = [parse_card(c) for c in cards_]
        places[3].update(ks)
        w = rules.side_of(winner)
        tricks[w] += 1
        brisques[w] += sum(1 for k in ks if k & 7 <= 1)
    places[3].update(parse_card(c) for _, c in obs.trick)
    seen = Counter(hand)
    for p in places[1:4]:
        seen.update(p)
    if obs.turn_up is not None:
        seen[parse_card(obs.turn_up)] += 1
    pack = _pack(rules)
    places[4].update({k: n - seen[k] for k, n in pack.items() if n > seen[k]})

    full = rules.cards - rules.players * rules.hand_size
    left = obs.stock_size / full if full > 0 else 0.0
    mine_all = Counter(hand)
    mine_all.update(mine_table)
    theirs = places[2]

    def marriages(held: Counter[int], trumps: bool) -> float:
        return float(
            sum(min(held[s * 8 + 2], held[s * 8 + 3]) for s in range(4) if (s == trump) == trumps)
        )

    def rank_total(held: Counter[int], r: int) -> float:
        return float(sum(held[s * 8 + r] for s in range(4)))

    def sequence(held: Counter[int]) -> float:
        return float(sum(1 for r in range(5) if trump >= 0 and held[trump * 8 + r] > 0))

    def beziques(held: Counter[int]) -> float:
        return float(min(held[_BEZIQUE[0]], held[_BEZIQUE[1]]))

    x = [
        1.0,
        rel(obs.points) / 100.0,
        left,
        left * left,
        1.0 if obs.stage == 2 else 0.0,
        1.0 if obs.to_move == me and obs.phase == "play" else 0.0,
        1.0 if obs.to_move == me and obs.phase == "play" and not obs.trick else 0.0,
        1.0 if obs.to_move == me and obs.phase == "declare" else 0.0,
        rel(brisques),
        rel(tricks),
        1.0 if obs.turn_up is not None else 0.0,
        marriages(mine_all, True),
        marriages(mine_all, False),
        beziques(mine_all),
        rank_total(mine_all, 0),
        rank_total(mine_all, 2),
        rank_total(mine_all, 3),
        rank_total(mine_all, 4),
        sequence(mine_all),
        1.0 if trump >= 0 and mine_all[trump * 8 + 7] > 0 else 0.0,
        rank_total(theirs, 0),
        rank_total(theirs, 2),
        rank_total(theirs, 3),
        rank_total(theirs, 4),
        beziques(theirs),
        sequence(theirs),
    ]
    for held in places:
        trumps = [0.0] * 8
        plain = [0.0] * 8
        for k, n in held.items():
            if k >= 32:  # a wild card: no rank to count it under
                continue
            (trumps if k >> 3 == trump else plain)[k & 7] += n
        x += trumps + plain
    return x


@per_rules
def _pack(rules: Rules) -> Counter[int]:
    return Counter(rules.pack_kinds)


@dataclass(frozen=True)
class ValueModel:
    """A small network: standardized features, one hidden layer of rectified units and a
    linear part beside it.  ``predict(x) = b + w.z + v.relu(W z + c)`` with
    ``z = (x - mean) / scale``."""

    rules: str
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    linear: tuple[float, ...]
    bias: float
    hidden_w: tuple[tuple[float, ...], ...]
    hidden_b: tuple[float, ...]
    out_w: tuple[float, ...]
    constant: float
    """The mean margin of the training positions: the constant predictor to beat."""
    info: dict[str, object]

    def predict(self, x: Sequence[float]) -> float:
        """The expected margin for a feature list of :func:`features`."""
        if len(x) != len(self.mean):
            raise ValueError(f"{len(x)} features; the model takes {len(self.mean)}")
        lin, bias, rows = self._folded
        y: float = bias + sum(map(mul, lin, x))
        for row, c, v in rows:
            h: float = c + sum(map(mul, row, x))
            if h > 0.0:
                y += v * h
        return y

    @cached_property
    def _folded(self) -> tuple[list[float], float, list[tuple[list[float], float, float]]]:
        """The layers with the standardization folded in (``w.z = (w/s).x - w.m/s``): the
        same numbers with a third of the arithmetic per call."""

        def fold(w: Sequence[float], b: float) -> tuple[list[float], float]:
            ws = [a / s for a, s in zip(w, self.scale, strict=True)]
            return ws, b - math.fsum(a * m for a, m in zip(ws, self.mean, strict=True))

        lin, bias = fold(self.linear, self.bias)
        rows = []
        for row, c, v in zip(self.hidden_w, self.hidden_b, self.out_w, strict=True):
            if v != 0.0:
                w, b = fold(row, c)
                rows.append((w, b, v))
        return lin, bias, rows

    @cached_property
    def packed(self) -> bytes:
        """The folded layers as C doubles, for the compiled engine (``FastDeal.value``, the
        playouts a search cuts short): the linear part and its bias, then per hidden unit its
        input weights, bias and output weight."""
        lin, bias, rows = self._folded
        flat = [*lin, bias]
        for w, c, v in rows:
            flat += [*w, c, v]
        return array("d", flat).tobytes()

    def to_json(self) -> dict[str, object]:
        """The model as plain JSON data (what :meth:`from_json` reads)."""
        return {
            "format": "bezique-value",
            "features_version": FEATURES_VERSION,
            "features": list(FEATURE_NAMES),
            "rules": self.rules,
            "mean": list(self.mean),
            "scale": list(self.scale),
            "linear": list(self.linear),
            "bias": self.bias,
            "hidden_w": [list(r) for r in self.hidden_w],
            "hidden_b": list(self.hidden_b),
            "out_w": list(self.out_w),
            "constant": self.constant,
            "info": self.info,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> ValueModel:
        """Read :meth:`to_json`'s data; ``ValueError`` if it is not a model of these features."""
        if data.get("format") != "bezique-value":
            raise ValueError("not a bezique value model")
        if data.get("features_version") != FEATURES_VERSION:
            raise ValueError(
                f"a model of features version {data.get('features_version')}; "
                f"this bezique computes version {FEATURES_VERSION}"
            )

        def floats(key: str) -> tuple[float, ...]:
            v = data[key]
            assert isinstance(v, list)
            return tuple(float(a) for a in v)

        hw = data["hidden_w"]
        assert isinstance(hw, list)
        info = data.get("info", {})
        assert isinstance(info, dict)
        model = cls(
            rules=str(data["rules"]),
            mean=floats("mean"),
            scale=floats("scale"),
            linear=floats("linear"),
            bias=float(data["bias"]),  # type: ignore[arg-type]
            hidden_w=tuple(tuple(float(a) for a in row) for row in hw),
            hidden_b=floats("hidden_b"),
            out_w=floats("out_w"),
            constant=float(data["constant"]),  # type: ignore[arg-type]
            info=info,
        )
        n = len(FEATURE_NAMES)
        if len(model.mean) != n or len(model.scale) != n or len(model.linear) != n:
            raise ValueError(f"the model's layers do not take {n} features")
        if any(len(r) != n for r in model.hidden_w):
            raise ValueError(f"the model's hidden layer does not take {n} features")
        return model

    @classmethod
    def load(cls, path: str | Path) -> ValueModel:
        """Read a model file (JSON)."""
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))

    def save(self, path: str | Path) -> None:
        """Write the model file (JSON)."""
        Path(path).write_text(json.dumps(self.to_json()) + "\n", encoding="utf-8")


SHIPPED = {"classic": "value_classic.json"}
"""The rule sets with shipped weights, and their files in this package."""


@cache
def shipped_model(rules: str = "classic") -> ValueModel:
    """The shipped model for a rule set, the one :func:`evaluate` uses; ``ValueError`` naming
    the rule sets there are models for.  (Other models are read with :meth:`ValueModel.load`.)"""
    name = SHIPPED.get(rules)
    if name is None:
        raise ValueError(f"no shipped value model for {rules!r}: there are {sorted(SHIPPED)}")
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return ValueModel.from_json(json.loads(text))


def has_model(rules: Rules) -> bool:
    """True when a shipped model evaluates these rules."""
    return str(rules) in SHIPPED


def evaluate(observation: Observation, seat: int | None = None) -> float:
    """The expected final margin, in points, of the observing seat's side (see the module
    docstring), from the seat's observation only.

    ``seat``, if given, must be the observing seat (a guard against evaluating one seat with
    another's view).  ``ValueError`` for the public view and for rules without a model."""
    if seat is not None and seat != observation.seat:
        raise ValueError(f"this is seat {observation.seat}'s observation, not seat {seat}'s")
    return shipped_model(str(observation.rules)).predict(features(observation))


__all__ = [
    "FEATURES_VERSION",
    "FEATURE_NAMES",
    "PLACES",
    "SHIPPED",
    "ValueModel",
    "evaluate",
    "features",
    "has_model",
    "shipped_model",
]
