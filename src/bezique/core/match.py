"""A match: deals played one after another until a side reaches the target score (or, with
``match_games``, until a side has won enough games: see :mod:`bezique.core.games`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import RANKS, rank_of
from .deal import Deal
from .events import EventKind
from .games import (
    GameResult,
    GameTally,
    add_points,
    count_game,
    game_winner,
    match_winner,
    next_handicap,
)
from .notation import Action
from .rules import Rules
from .scoring import trump_run_bonus


class Match(GameTally):
    """Deals to the target.  A cut decides the first dealer; the deal then passes to the left.

    Play the current deal through ``match.deal.apply(...)`` (or :meth:`apply`); when it is over,
    :attr:`scores` includes it, :attr:`winner` says whether the match is decided, and
    :meth:`next_deal` starts the next one.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        handicap: Sequence[int] | None = None,
    ) -> None:
        self.rules: Rules = rules if rules is not None else Rules.preset("classic")
        self.seed: int | None = seed
        sides = self.rules.sides
        self.handicap: tuple[int, ...] = tuple(handicap) if handicap else (0,) * sides
        """The score each side starts every game on (cent points: the last match's loser)."""
        if len(self.handicap) != sides or not all(
            isinstance(h, int) and not isinstance(h, bool) and h >= 0 for h in self.handicap
        ):
            raise ValueError(f"handicap must be {sides} whole numbers >= 0: got {handicap!r}")
        self._rng = random.Random(seed)
        self.cut: list[str] = []
        """The cards cut for the first deal, per seat (the last round if there were ties)."""
        self.first_dealer: int = self._cut()
        self.deals: list[Deal] = []
        """Every deal of the match so far, the current one last."""
        self.deal_seeds: list[int] = []
        self.adjustments: list[tuple[int, int, int, str]] = []
        """Match-level points: (deal index, side, points, why)."""
        self._start(self.first_dealer)

    def _cut(self) -> int:
        n = self.rules.players
        while True:
            cards = self._rng.sample(range(32 * self.rules.packs), n)
            ranks = [rank_of(c % 32) for c in cards]
            self.cut = [RANKS[r] + "SHDC"[(c % 32) >> 3] for r, c in zip(ranks, cards, strict=True)]
            best = min(ranks)  # rank 0 is the ace, the highest
            if ranks.count(best) == 1:
                return ranks.index(best)

    def _start(self, dealer: int) -> None:
        seed = self._rng.getrandbits(63)
        self.deal_seeds.append(seed)
        games, scores = self._tally()
        first = games[-1].last_deal + 1 if games else 0  # the current game's first deal
        if first == len(self.deals):  # a new game begins
            scores = list(self.handicap)
        carry = scores if any(scores) else None
        # first_bezique pays for the first bezique of a game, not of each deal (HAITIAN.md H07)
        game_bezique = (
            bool(self.rules.first_bezique)
            and first < len(self.deals)
            and self.deals[-1].bezique_in_game
        )
        self.deals.append(
            Deal.new(self.rules, seed=seed, dealer=dealer, carry=carry, game_bezique=game_bezique)
        )
        self._three_in_a_row()

    def _three_in_a_row(self) -> None:
        """Greek club rule: the same trump suit three deals running gives the dealer +20
        (-20 when it is clubs; :func:`~bezique.core.scoring.trump_run_bonus`)."""
        points = trump_run_bonus(self.rules, [d.trump for d in self.deals[-3:]])
        if points:
            side = self.rules.side_of(self.deals[-1].dealer)
            self.adjustments.append((len(self.deals) - 1, side, points, "same trump three deals"))

    @property
    def deal(self) -> Deal:
        """The current deal."""
        return self.deals[-1]

    @property
    def dealer(self) -> int:
        """Dealer of the current deal."""
        return self.deal.dealer

    def apply(self, action: Action | str) -> None:
        """Apply an action to the current deal."""
        self.deal.apply(action)

    @property
    def scores(self) -> list[int]:
        """Game totals per side: every finished deal of the current game (the current deal
        once it is over); with ``match_games`` 0, the whole match is one game.

        With per-deal scoring (Rubicon and its family) a deal is a game, and each finished
        deal adds its payout (:func:`settle`) to the winner."""
        return self._tally()[1]

    @property
    def game_winner(self) -> int | None:
        """The side that won the game the current deal finished, else None."""
        if self.rules.match_games:
            games = self.games
            last = len(self.deals) - 1
            return games[-1].winner if games and games[-1].last_deal == last else None
        return self.winner

    def _deal_winner(self, deal: Deal, scores: Sequence[int]) -> int | None:
        """The side that a finished deal makes the winner of its game, on these game scores."""
        for e in deal.events:
            if e.kind is EventKind.WINS_GAME:
                return self.rules.side_of(e.seat)
        if self.rules.deal_scoring == "per-deal":
            return settle(deal).winner
        return game_winner(self.rules, scores, deal.trick_winners)

    def _tally(self) -> tuple[list[GameResult], list[int]]:
        """The finished games, and the current game's scores, from the deals played."""
        rules = self.rules
        games: list[GameResult] = []
        counts = (0,) * rules.sides
        scores, first = list(self.handicap), 0
        adjust: dict[int, list[tuple[int, int]]] = {}
        for i, side, p, _ in self.adjustments:
            adjust.setdefault(i, []).append((side, p))
        for i, d in enumerate(self.deals):
            if games and games[-1].last_deal == i - 1:  # the last deal ended a game
                scores, first = list(self.handicap), i
            if not d.is_over:
                break
            points = settle(d).payout if rules.deal_scoring == "per-deal" else d.points
            scores = add_points(rules, scores, points)
            for side, p in adjust.get(i, ()):
                scores[side] += p
            if rules.match_games:
                w = self._deal_winner(d, scores)
                if w is not None:
                    counts, double = count_game(rules, counts, w, scores)
                    games.append(GameResult(first, i, w, tuple(scores), double, counts))
        return games, scores

    @property
    def winner(self) -> int | None:
        """The winning side once the match is decided (checked at the end of a deal), else None."""
        deal = self.deal
        if not deal.is_over:
            return None
        if self.rules.match_games:
            games = self.games
            if not games or games[-1].last_deal != len(self.deals) - 1:
                return None
            return match_winner(self.rules, games[-1].counts)
        return self._deal_winner(deal, self.scores)

    def rematch(self, seed: int | None = None) -> Match:
        """A new match of the same rules once this one is won; with ``cent_points_handicap``
        its loser starts every game on that score until he wins a match (HAITIAN.md H32)."""
        if self.winner is None:
            raise ValueError("the match is not over yet")
        return Match(self.rules, seed, next_handicap(self.rules, self.handicap, self.winner))

    @property
    def is_over(self) -> bool:
        """True once a side has won."""
        return self.winner is not None

    def next_deal(self) -> Deal:
        """Start the next deal, dealt by the seat to the left of the last dealer (in the next
        game if this deal ended one)."""
        if not self.deal.is_over:
            raise ValueError("the current deal is not over yet")
        if self.winner is not None:
            raise ValueError(f"the match is over: side {self.winner} won")
        self._start((self.deal.dealer + 1) % self.rules.players)
        return self.deal

    def __repr__(self) -> str:
        return f"<Match {self.rules} deal {len(self.deals)} scores {self.scores}>"


@dataclass(frozen=True)
class Settlement:
    """How a per-deal game (Rubicon, Chinese, eight-pack) is paid out."""

    scores: tuple[int, ...]
    """The scores that decided it (brisques included if they had to be counted)."""
    brisques_counted: bool
    winner: int | None
    """The winning side (None for a tie)."""
    rubicon: bool
    """The loser stayed under the rubicon threshold."""
    payout: tuple[int, ...]
    """What each side scores for the game."""
    parts: tuple[tuple[str, int], ...] = ()
    """The winner's payout term by term, in the order the rules add them: ``'rubicon'``,
    ``'winner'`` and ``'loser'`` (the scores as paid, rounded to hundreds where the rules say),
    ``'brisques'`` (the rubicon's brisque bonus, where not 0); or ``'game'`` and ``'difference'``;
    then ``'loser under 100'`` where the loser made under 100.  Empty for a tie."""
    paid_scores: tuple[int, int] = (0, 0)
    """The winner's and the loser's scores as the payout counts them (rounded where the rules
    round to hundreds); (0, 0) for a tie."""


def settle(deal: Deal) -> Settlement:
    """Pay out a finished deal played as a game (RULES.md 2.5-2.7): :func:`settle_points` of
    its scores and brisques."""
    result = deal.result
    if result is None:
        raise ValueError("the deal is not over")
    return settle_points(deal.rules, [r.total for r in result], [r.brisques for r in result])


def settle_points(rules: Rules, scores: Sequence[int], brisques: Sequence[int]) -> Settlement:
    """Pay out a per-deal game from plain numbers: each side's score for the deal (brisques left
    out where they count only to settle) and its brisque points (0 where they do not count apart).

    The higher score wins the game bonus plus the difference.  A loser under the rubicon
    threshold is rubiconed: the winner scores the rubicon bonus plus both scores plus the
    brisque bonus.  A loser under 100 gives the winner 100 more.  Where brisques count only to
    settle, they are counted (for both) to break a tie or to lift the loser over the threshold.
    """
    if len(scores) != 2 or len(brisques) != 2:
        raise ValueError("a per-deal game is settled between two sides")
    base = list(scores)
    with_brisques = [s + b for s, b in zip(base, brisques, strict=True)]
    final, counted = base, not rules.brisques_only_to_settle and rules.trick_scoring == "brisques"
    if rules.brisques_only_to_settle:
        low = min(base)
        if base[0] == base[1] or (
            low < rules.rubicon_threshold
            and with_brisques[base.index(low)] >= rules.rubicon_threshold
        ):
            final, counted = with_brisques, True
    if final[0] == final[1]:
        return Settlement(tuple(final), counted, None, False, (0, 0))
    win = 0 if final[0] > final[1] else 1
    w, lose = final[win], final[1 - win]
    if rules.round_to_hundreds and w // 100 != lose // 100:
        w, lose = w // 100 * 100, lose // 100 * 100
    rubicon = lose < rules.rubicon_threshold
    parts: list[tuple[str, int]]
    if rubicon:
        parts = [("rubicon", rules.rubicon_bonus), ("winner", w), ("loser", lose)]
        if rules.rubicon_brisque_bonus:
            parts.append(("brisques", rules.rubicon_brisque_bonus))
    else:
        parts = [("game", rules.game_bonus), ("difference", w - lose)]
    if lose < 100:
        parts.append(("loser under 100", rules.small_loser_bonus))
    pay = sum(v for _, v in parts)
    payout = (pay, 0) if win == 0 else (0, pay)
    return Settlement(tuple(final), counted, win, rubicon, payout, tuple(parts), (w, lose))
