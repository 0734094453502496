"""Inference: how likely a guess at the other hands is, given what their players did.

A search player deals the cards it has not seen again at random (determinization); uniform
worlds ignore what the other players' choices say about their cards.  This module weighs a
guess at another seat's concealed cards by how likely that seat's past actions are, under a
simple model of play (:class:`PlayModel`) learned from the heuristic player's self-play:

* **Cards played and kept.**  At each trick of stage 1 the seat chose the card it played from
  its hand; the model gives each card a score (by rank, trump or not, leading or following,
  and whether it beats the card led) and a choice the probability ``exp(score)`` over the sum
  for the hand.  A guess that holds cards the seat would rather have played (a plain seven
  kept while it threw an ace away) makes that choice unlikely, so the guess weighs less.
* **Declarations passed on.**  After winning a stage-1 trick a seat may declare; a guess in
  which it held a marriage, a bezique, four of a rank or the seven of trumps then and declared
  nothing weighs less, by the learned chance that a player passes on a meld it holds.

A card concealed now was not necessarily held at an earlier trick (it may have been drawn
since); the model counts it as held ``d`` draws ago with chance ``(1 - 1/hand_size) ** d``,
which is what a hand that plays one card in ``hand_size`` at random each trick gives.

Everything is computed from the observing seat's :class:`~bezique.core.observation.Observation`
and the guess: :func:`log_weight` for one guess, :func:`world_weights` for a batch (normalized
probabilities), :func:`resample` for guesses drawn in proportion to them (sampling importance
resampling).  ``scripts/measure_inference.py`` fits the model and prints the log-likelihood of
the true hidden hands against uniform sampling on held-out deals (docs/learning.md).
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from ..core.cards import ALL_KINDS, SUITS, WILD, parse_card
from ..core.events import EventKind, ScoreEvent
from ..core.observation import Observation
from ..core.tricks import beats

MELD_CLASSES = ("royal-marriage", "marriage", "bezique", "four", "seven")
"""The meld chances a pass on declaring is weighed against (``four``: four aces, kings, queens
or jacks)."""

_QS, _JD = parse_card("QS"), parse_card("JD")


def card_column(kind: int, trump: int) -> int:
    """The opponent models' column of a card kind: its rank among the 8 trump ranks (0-7) or,
    off trump, among the 8 plain ranks (8-15).  The play model, the belief model and the
    scripts that fit them all index their weights by it, so training and play agree.

    >>> card_column(parse_card("TH"), trump=1), card_column(parse_card("TS"), trump=1)
    (1, 9)
    """
    return (0 if kind >> 3 == trump else 8) + (kind & 7)


_FOUR_RANKS = (0, 2, 3, 4)  # aces, kings, queens, jacks
_RANK_WORDS = {0: "aces", 2: "kings", 3: "queens", 4: "jacks"}


@dataclass(frozen=True)
class PlayModel:
    """Scores of the cards a seat may play, and the chance it passes on a meld it holds."""

    lead: tuple[float, ...] = (0.0,) * 16
    """Score of leading a card: 8 trump ranks (A T K Q J 9 8 7), then 8 plain ranks."""
    follow: tuple[float, ...] = (0.0,) * 16
    """Score of following with a card, laid out as :attr:`lead`."""
    beats: float = 0.0
    """Added when the following card beats the card led."""
    beats_brisque: float = 0.0
    """Added when the following card is an ace or a ten and beats the card led."""
    loses_brisque: float = 0.0
    """Added when the following card is an ace or a ten and loses to the card led."""
    pass_chance: dict[str, float] = field(default_factory=lambda: dict.fromkeys(MELD_CLASSES, 1.0))
    """Per meld class, the chance a winner holding such a meld declares nothing."""
    info: dict[str, object] = field(default_factory=dict)

    def score(self, kind: int, trump: int, led: int | None, lead_wins: bool = False) -> float:
        """The score of playing card kind ``kind`` (``led``: the card led, None to lead;
        ``lead_wins``: the rules' ``wild_card_lead_wins``, for whether it takes the trick)."""
        col = card_column(kind, trump)
        if led is None:
            return self.lead[col]
        s = self.follow[col]
        win = beats(kind, led, trump, lead_wins)
        if win:
            s += self.beats
        if kind & 7 <= 1:
            s += self.beats_brisque if win else self.loses_brisque
        return s

    def to_json(self) -> dict[str, object]:
        """The model as plain JSON data."""
        return {
            "format": "bezique-play-model",
            "lead": list(self.lead),
            "follow": list(self.follow),
            "beats": self.beats,
            "beats_brisque": self.beats_brisque,
            "loses_brisque": self.loses_brisque,
            "pass_chance": self.pass_chance,
            "info": self.info,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> PlayModel:
        """Read :meth:`to_json`'s data; ``ValueError`` if it is something else."""
        if data.get("format") != "bezique-play-model":
            raise ValueError("not a bezique play model")
        lead, follow, pc, info = data["lead"], data["follow"], data["pass_chance"], data["info"]
        assert isinstance(lead, list) and isinstance(follow, list)
        assert isinstance(pc, dict) and isinstance(info, dict)
        if len(lead) != 16 or len(follow) != 16 or set(pc) != set(MELD_CLASSES):
            raise ValueError("a play model needs 16 lead and follow scores and every meld class")
        return cls(
            tuple(float(a) for a in lead),
            tuple(float(a) for a in follow),
            float(data["beats"]),  # type: ignore[arg-type]
            float(data["beats_brisque"]),  # type: ignore[arg-type]
            float(data["loses_brisque"]),  # type: ignore[arg-type]
            {k: min(1.0, max(1e-3, float(v))) for k, v in pc.items()},
            info,
        )

    @classmethod
    def load(cls, path: str | Path) -> PlayModel:
        """Read a model file (JSON)."""
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))

    def save(self, path: str | Path) -> None:
        """Write the model file (JSON)."""
        Path(path).write_text(json.dumps(self.to_json()) + "\n", encoding="utf-8")


@cache
def shipped_model() -> PlayModel:
    """The play model that ships with the package (fit on classic self-play)."""
    text = resources.files(__package__).joinpath("play_model.json").read_text(encoding="utf-8")
    return PlayModel.from_json(json.loads(text))


@dataclass(frozen=True)
class _Choice:
    """One card the seat chose at a stage-1 trick, with what the model needs of it."""

    draws_since: int
    played: int
    led: int | None


@dataclass(frozen=True)
class _Pass:
    """A stage-1 trick the seat won and then declared nothing after."""

    draws_since: int


@dataclass(frozen=True)
class _History:
    """What one seat did, read from an observer's view."""

    choices: tuple[_Choice, ...]
    passes: tuple[_Pass, ...]
    table: Counter[int]
    declared: frozenset[str]
    turn_up_taken_after: int


def _history(obs: Observation, seat: int) -> _History:
    rules = obs.rules
    s1 = rules.stage1_tricks
    done = len(obs.tricks)
    drawn = min(done, s1)  # draws so far: one after each stage-1 trick

    def since(j: int) -> int:
        """Draws after trick ``j`` (0-based) up to now; the trick in progress is ``done``."""
        return max(0, drawn - j)

    choices: list[_Choice] = []
    passes: list[_Pass] = []
    declared_after = {
        e.trick for e in obs.events if e.seat == seat and e.kind is not EventKind.LAST_TRICK
    }
    for j, (_, cards, winner) in enumerate(obs.tricks):
        if j >= s1:
            break
        order = _trick_seats(obs, j)
        for pos, (who, code) in enumerate(zip(order, cards, strict=False)):
            if who == seat:
                led = None if pos == 0 else parse_card(cards[0])
                choices.append(_Choice(since(j), parse_card(code), led))
        if winner == seat and (j + 1) not in declared_after and j + 1 < s1:
            passes.append(_Pass(since(j)))  # declared before the draw after trick j
    if done < s1:
        for pos, (who, code) in enumerate(obs.trick):
            if who == seat:
                led = None if pos == 0 else parse_card(obs.trick[0][1])
                choices.append(_Choice(0, parse_card(code), led))
    table = Counter(parse_card(r.split("@")[0]) for r in obs.tables[seat])
    table.update(parse_card(c) for c in obs.known[seat])
    declared = frozenset(_meld_key(e) for e in obs.events if e.seat == seat)
    return _History(tuple(choices), tuple(passes), table, declared, drawn)


def _meld_key(event: ScoreEvent) -> str:
    """``meld marriage KH QH`` -> ``marriage:H``; other melds by name (``bezique``); other
    events by their words."""
    if event.kind is not EventKind.MELD:
        return event.what
    if event.meld == "marriage" and event.cards:
        return "marriage:" + event.cards[0][-1]
    return event.meld


def _trick_seats(obs: Observation, j: int) -> list[int]:
    """The seats in play order of completed trick ``j``."""
    leader = obs.tricks[j][0]
    n = obs.rules.players
    order = [(leader + i) % n for i in range(n)]
    if obs.rules.dealer_sits_out:
        order.remove(obs.dealer)
    return order


def log_weight(
    obs: Observation, seat: int, cards: Sequence[str], model: PlayModel | None = None
) -> float:
    """The log-likelihood (up to a constant that does not depend on the guess) of ``seat``'s
    past actions, had its concealed cards that the observer has not seen been ``cards``.

    Only public actions and the observer's own view are read; ``ValueError`` for the
    observer's own seat."""
    return seat_weigher(obs, seat, model)(cards)


def seat_weigher(
    obs: Observation, seat: int, model: PlayModel | None = None
) -> Callable[[Sequence[str]], float]:
    """:func:`log_weight` for many guesses at one seat's cards: what does not depend on the
    guess (the seat's history, each past choice's scores) is worked out once, here."""
    if seat == obs.seat:
        raise ValueError("the observer's own cards are not guessed")
    model = model or shipped_model()
    hist = _history(obs, seat)
    trump = SUITS.index(obs.trump) if obs.trump is not None else -1
    lead_wins = obs.rules.wild_card_lead_wins
    n = obs.rules.hand_size
    keep = 1.0 - 1.0 / n
    # per past choice: the chance a card held now was held then, the exp(score) of every kind,
    # the card chosen's, and an average card's (for the rest of that hand)
    rows = []
    for ch in hist.choices:
        exp_score = [math.exp(model.score(k, trump, ch.led, lead_wins)) for k in range(ALL_KINDS)]
        rows.append(
            (
                keep**ch.draws_since,
                exp_score,
                exp_score[ch.played],
                sum(exp_score[:WILD]) / WILD,
            )
        )
    passes = [keep**ps.draws_since for ps in hist.passes]
    turn_up_there = obs.turn_up is not None

    def weigh(cards: Sequence[str]) -> float:
        guess = [parse_card(c) for c in cards]
        total = 0.0
        for q, exp_score, chosen, mean in rows:
            held = q * len(guess)
            mass = q * sum(exp_score[k] for k in guess)
            # the rest of the hand at that trick (cards played or declared since): average cards
            total -= math.log(chosen + mass + max(0.0, n - 1 - held) * mean)
        if passes:
            melds = _meld_chances(guess, hist, trump, turn_up_there)
            for q in passes:
                for klass, needed in melds:
                    total += math.log1p(-(q**needed) * (1.0 - model.pass_chance[klass]))
        return total

    return weigh


def _meld_chances(
    guess: list[int], hist: _History, trump: int, turn_up_there: bool
) -> list[tuple[str, int]]:
    """The melds the guess would have let the seat declare, each with how many of its cards
    come from the guess (those may have been drawn later; table cards count as held)."""
    g = Counter(guess)
    t = hist.table
    out: list[tuple[str, int]] = []
    for s in range(4):
        k, q = s * 8 + 2, s * 8 + 3
        if g[k] + t[k] and g[q] + t[q] and (g[k] or g[q]):
            klass = "royal-marriage" if s == trump else "marriage"
            if (klass if s == trump else f"marriage:{SUITS[s]}") not in hist.declared:
                out.append((klass, int(not t[k]) + int(not t[q])))
    if (
        g[_QS] + t[_QS]
        and g[_JD] + t[_JD]
        and (g[_QS] or g[_JD])
        and "bezique" not in hist.declared
    ):
        out.append(("bezique", int(not t[_QS]) + int(not t[_JD])))
    for r in _FOUR_RANKS:
        have = [g[s * 8 + r] for s in range(4)]
        shown = [t[s * 8 + r] for s in range(4)]
        declared = f"four-{_RANK_WORDS[r]}" in hist.declared
        if sum(have) and sum(have) + sum(shown) >= 4 and not declared:
            out.append(("four", min(4, sum(have))))
    if trump >= 0 and turn_up_there and g[trump * 8 + 7]:
        out.append(("seven", 1))
    return out


def hidden_places(obs: Observation) -> tuple[list[int], list[str]]:
    """How many concealed cards each seat holds that the observer has not seen (0 for the
    observer), and the unseen cards (those and the stock), as codes."""
    me = obs.seat
    if me is None:
        raise ValueError("the public view guesses every hand: give a seat's observation")
    seen: Counter[str] = Counter(obs.hand)
    sizes = []
    for s in range(obs.rules.players):
        refs = [r.split("@")[0] for r in obs.tables[s]]
        if s != me:
            seen.update(refs)
            seen.update(obs.known[s])
            sizes.append(obs.hand_sizes[s] - len(refs) - len(obs.known[s]))
        else:
            seen.update(r for r in refs)
            sizes.append(0)
    for _, cards, _ in obs.tricks:
        seen.update(cards)
    seen.update(c for _, c in obs.trick)
    if obs.turn_up is not None:
        seen[obs.turn_up] += 1
    pack: Counter[str] = Counter(_codes(obs))
    unseen = [c for c, n in sorted(pack.items()) for _ in range(n - seen[c])]
    return sizes, unseen


def _codes(obs: Observation) -> list[str]:
    from ..core.cards import CODES

    return [CODES[k] for k in obs.rules.pack_kinds]


def world_hidden(obs: Observation, hands: Sequence[Sequence[str]]) -> list[list[str]]:
    """A determinized world's guess, in the form the weights take: from every card each seat
    holds in the world (``Deal.hand(s)`` or ``FastDeal.hand(s)`` of a world built from the
    observation), each other seat's concealed cards less those the observer knows it holds
    (its table and its publicly known cards); the observer's own entry is empty."""
    out: list[list[str]] = []
    for s, hand in enumerate(hands):
        if s == obs.seat:
            out.append([])
            continue
        rest = list(hand)
        for c in [*(r.split("@")[0] for r in obs.tables[s]), *obs.known[s]]:
            if c not in rest:
                raise ValueError(f"seat {s} of the world does not hold its public card {c}")
            rest.remove(c)
        out.append(sorted(rest))
    return out


def sample_uniform(obs: Observation, rng: random.Random) -> list[list[str]]:
    """One guess at every other seat's unseen concealed cards, uniform among those the
    observer cannot rule out (what determinization deals them)."""
    sizes, unseen = hidden_places(obs)
    rng.shuffle(unseen)
    out, pos = [], 0
    for n in sizes:
        out.append(sorted(unseen[pos : pos + n]))
        pos += n
    return out


def world_log_weight(
    obs: Observation, hidden: Sequence[Sequence[str]], model: PlayModel | None = None
) -> float:
    """:func:`log_weight` summed over the other seats (``hidden[s]``: seat ``s``'s guessed
    unseen concealed cards; the observer's entry is ignored)."""
    return world_weigher(obs, model)(hidden)


def world_weigher(
    obs: Observation, model: PlayModel | None = None
) -> Callable[[Sequence[Sequence[str]]], float]:
    """:func:`world_log_weight` for many guesses at the same observation, each seat's
    :func:`seat_weigher` built once."""
    seats = [(s, seat_weigher(obs, s, model)) for s in range(obs.rules.players) if s != obs.seat]

    def weigh(hidden: Sequence[Sequence[str]]) -> float:
        return math.fsum(w(hidden[s]) for s, w in seats)

    return weigh


def world_weights(
    obs: Observation, worlds: Sequence[Sequence[Sequence[str]]], model: PlayModel | None = None
) -> list[float]:
    """Normalized probabilities of guesses (each as for :func:`world_log_weight`) drawn
    uniformly: the importance weights a search gives its determinized worlds."""
    if not worlds:
        return []
    weigh = world_weigher(obs, model)
    logs = [weigh(w) for w in worlds]
    top = max(logs)
    ws = [math.exp(v - top) for v in logs]
    total = math.fsum(ws)
    return [w / total for w in ws]


def resample(
    obs: Observation,
    n: int,
    rng: random.Random,
    pool: int | None = None,
    model: PlayModel | None = None,
) -> list[list[list[str]]]:
    """``n`` guesses drawn in proportion to their weight: ``pool`` (default ``4 * n``) uniform
    guesses weighed by :func:`world_weights`, then ``n`` drawn from them with replacement."""
    if n < 1:
        raise ValueError(f"n must be at least 1: got {n}")
    cands = [sample_uniform(obs, rng) for _ in range(pool or 4 * n)]
    ws = world_weights(obs, cands, model)
    return [cands[i] for i in rng.choices(range(len(cands)), weights=ws, k=n)]


__all__ = [
    "MELD_CLASSES",
    "PlayModel",
    "hidden_places",
    "log_weight",
    "resample",
    "sample_uniform",
    "seat_weigher",
    "shipped_model",
    "world_hidden",
    "world_log_weight",
    "world_weigher",
    "world_weights",
]
