"""A match: deals played one after another until a side reaches the target score (or, with
``match_games``, until a side has won enough games: see :mod:`bezique.core.games`)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from .cards import RANKS, rank_of
from .deal import Deal, SideResult
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
        self._played: list[PlayedDeal] = []
        """The deals before the current one, as kept once finished."""
        self._built: dict[int, Deal] = {}
        """Those of them at hand as deals: played here, or replayed when asked for."""
        self._current: Deal | None = None
        self._current_played: PlayedDeal | None = None
        self._tallies = [_Tally(0, (), (0,) * sides, self.handicap, 0)]
        """The tally after none, one, ... all of the deals of :attr:`_played`: a long match is
        counted once, not again at every question."""
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

    @classmethod
    def resume(
        cls,
        rules: Rules,
        seed: int,
        handicap: Sequence[int] | None,
        played: Sequence[PlayedDeal],
    ) -> Match:
        """The match ``Match(rules, seed, handicap)`` after ``played``, its finished deals in
        order, with the next deal dealt: what replaying them would give, without replaying them
        (a long match is resumed at the cost of its current deal).  Each must be the deal this
        match deals next (its seed, dealer and the game scores it began on) and none may end the
        match; otherwise ValueError, naming the deal."""
        match = cls(rules, seed, handicap)
        for i, p in enumerate(played):
            deal = match.deal
            dealt = (match.deal_seeds[-1], deal.dealer, deal.carry, deal.game_bezique)
            if (p.seed, p.dealer, p.carry, p.game_bezique) != dealt:
                given = (p.seed, p.dealer, p.carry, p.game_bezique)
                raise ValueError(
                    f"deal {i} is not this match's: it was dealt as {given} (seed, dealer, game "
                    f"scores, bezique in the game), the match deals it as {dealt}"
                )
            match._keep(p)
            if match._winner_of(match._tallies[-1], p) is not None:
                raise ValueError(f"deal {i} ends the match: no deal can follow it")
            match._start((p.dealer + 1) % rules.players)
        return match

    def _start(self, dealer: int) -> None:
        seed = self._rng.getrandbits(63)
        self.deal_seeds.append(seed)
        played = self._played
        state = self._tallies[-1]
        games, scores = state.games, list(state.scores)
        first = games[-1].last_deal + 1 if games else 0  # the current game's first deal
        if first == len(played):  # a new game begins
            scores = list(self.handicap)
        carry = scores if any(scores) else None
        # first_bezique pays for the first bezique of a game, not of each deal (HAITIAN.md H07)
        game_bezique = (
            bool(self.rules.first_bezique) and first < len(played) and played[-1].bezique_in_game
        )
        self._current = Deal.new(
            self.rules, seed=seed, dealer=dealer, carry=carry, game_bezique=game_bezique
        )
        self._current_played = None
        self._three_in_a_row()

    def _three_in_a_row(self) -> None:
        """Greek club rule: the same trump suit three deals running gives the dealer +20
        (-20 when it is clubs; :func:`~bezique.core.scoring.trump_run_bonus`)."""
        trumps = [p.trump for p in self._played[-2:]] + [self.deal.trump]
        points = trump_run_bonus(self.rules, trumps[-3:])
        if points:
            side = self.rules.side_of(self.deal.dealer)
            self.adjustments.append((len(self._played), side, points, "same trump three deals"))

    @property
    def deals(self) -> Sequence[Deal]:
        """Every deal of the match so far, the current one last.  A finished deal of a resumed
        match is replayed when it is first asked for (:attr:`finished` has what it came to
        without that)."""
        return _Deals(self)

    @property
    def finished(self) -> list[PlayedDeal]:
        """Every finished deal as the match keeps it: those before the current one, and the
        current one once it is over."""
        current = self._current_outcome()
        return [*self._played] if current is None else [*self._played, current]

    def _current_outcome(self) -> PlayedDeal | None:
        """The current deal as kept once it is over (worked out once), else None."""
        if self._current_played is None and self.deal.is_over:
            self._current_played = PlayedDeal.of(self.deal, self.deal_seeds[-1])
        return self._current_played

    def _deal_at(self, index: int) -> Deal:
        if index == len(self._played):
            return self.deal
        deal = self._built.get(index)
        if deal is None:
            deal = self._built[index] = self._played[index].replayed(self.rules)
        return deal

    @property
    def deal(self) -> Deal:
        """The current deal."""
        assert self._current is not None  # dealt by __init__
        return self._current

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
            last = len(self._played)
            return games[-1].winner if games and games[-1].last_deal == last else None
        return self.winner

    def _deal_winner(self, deal: PlayedDeal, scores: Sequence[int]) -> int | None:
        """The side that a finished deal makes the winner of its game, on these game scores."""
        if deal.game_won_by is not None:
            return self.rules.side_of(deal.game_won_by)
        if self.rules.deal_scoring == "per-deal":
            return deal.settlement(self.rules).winner
        return game_winner(self.rules, scores, deal.trick_winners)

    def _tally(self) -> tuple[list[GameResult], list[int]]:
        """The finished games, and the current game's scores, from the deals played."""
        state = self._tallies[-1]
        current = self._current_outcome()
        if current is not None:
            state = self._after(state, current)
        elif state.games and state.games[-1].last_deal == len(self._played) - 1:
            return list(state.games), list(self.handicap)  # the current deal begins a game
        return list(state.games), list(state.scores)

    def _after(self, state: _Tally, deal: PlayedDeal) -> _Tally:
        """The tally once ``deal``, the next finished deal after ``state``, is counted."""
        rules = self.rules
        i = state.deals
        games, counts = state.games, state.counts
        scores, first = list(state.scores), state.first
        if games and games[-1].last_deal == i - 1:  # the last deal ended a game
            scores, first = list(self.handicap), i
        points = deal.settlement(rules).payout if rules.deal_scoring == "per-deal" else deal.points
        scores = add_points(rules, scores, points)
        for at, side, p, _ in self.adjustments:
            if at == i:
                scores[side] += p
        if rules.match_games:
            w = self._deal_winner(deal, scores)
            if w is not None:
                counts, double = count_game(rules, counts, w, scores)
                games = (*games, GameResult(first, i, w, tuple(scores), double, counts))
        return _Tally(i + 1, games, counts, tuple(scores), first)

    def _keep(self, deal: PlayedDeal) -> None:
        """Count ``deal`` as the next finished deal before the current one."""
        self._tallies.append(self._after(self._tallies[-1], deal))
        self._played.append(deal)

    def _winner_of(self, state: _Tally, last: PlayedDeal) -> int | None:
        """The side that has won the match at ``state``, whose last deal was ``last``."""
        if self.rules.match_games:
            games = state.games
            if not games or games[-1].last_deal != state.deals - 1:
                return None
            return match_winner(self.rules, games[-1].counts)
        return self._deal_winner(last, state.scores)

    @property
    def winner(self) -> int | None:
        """The winning side once the match is decided (checked at the end of a deal), else None."""
        last = self._current_outcome()
        if last is None:
            return None
        return self._winner_of(self._after(self._tallies[-1], last), last)

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
        finished = self._current_outcome()
        assert finished is not None  # the deal is over
        self._built[len(self._played)] = self.deal
        self._keep(finished)
        self._start((finished.dealer + 1) % self.rules.players)
        return self.deal

    def __repr__(self) -> str:
        return f"<Match {self.rules} deal {len(self._played) + 1} scores {self.scores}>"


@dataclass(frozen=True)
class _Tally:
    """A match's count after its first ``deals`` finished deals."""

    deals: int
    games: tuple[GameResult, ...]
    counts: tuple[int, ...]
    scores: tuple[int, ...]
    """The scores of the game the last deal counted belongs to (ended or not)."""
    first: int
    """That game's first deal."""


class _Deals(Sequence[Deal]):
    """A match's deals as a sequence (:attr:`Match.deals`): a finished deal of a resumed match
    is replayed the first time it is asked for."""

    def __init__(self, match: Match) -> None:
        self._match = match

    def __len__(self) -> int:
        return len(self._match._played) + 1

    @overload
    def __getitem__(self, index: int) -> Deal: ...

    @overload
    def __getitem__(self, index: slice) -> list[Deal]: ...

    def __getitem__(self, index: int | slice) -> Deal | list[Deal]:
        n = len(self)
        if isinstance(index, slice):
            return [self._match._deal_at(i) for i in range(*index.indices(n))]
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError(f"deal {index} of {n}")
        return self._match._deal_at(i)

    def __iter__(self) -> Iterator[Deal]:
        return (self._match._deal_at(i) for i in range(len(self)))


def _whole(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{what} must be a whole number: got {value!r}")
    return value


def _wholes(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list of whole numbers")
    return tuple(_whole(v, what) for v in value)


@dataclass(frozen=True)
class PlayedDeal:
    """A finished deal as a match keeps it: how it was dealt (its seed, dealer, the game scores
    it began on and whether a bezique had been declared in the game), its actions, and what it
    came to.  That is all that scoring the match, showing the deal's points and writing its
    record need: a match is resumed from these (:meth:`Match.resume`) without replaying them."""

    dealer: int
    seed: int
    carry: tuple[int, ...]
    game_bezique: bool
    actions: tuple[str, ...]
    trump: str | None
    points: tuple[int, ...]
    """Per side, as :attr:`Deal.points` said at the end."""
    result: tuple[SideResult, ...]
    trick_winners: tuple[int, ...]
    game_won_by: int | None
    """The seat whose play won the game outright within the deal, else None."""
    bezique_in_game: bool

    @classmethod
    def of(cls, deal: Deal, seed: int) -> PlayedDeal:
        """What the match keeps of ``deal`` (over), dealt from ``seed``."""
        result = deal.result
        if result is None:
            raise ValueError("the deal is not over")
        won = next((e.seat for e in deal.events if e.kind is EventKind.WINS_GAME), None)
        return cls(
            deal.dealer,
            seed,
            deal.carry,
            deal.game_bezique,
            tuple(deal.history),
            deal.trump,
            tuple(deal.points),
            tuple(result),
            tuple(deal.trick_winners),
            won,
            deal.bezique_in_game,
        )

    def settlement(self, rules: Rules) -> Settlement:
        """The payout of this deal played as a game (:func:`settle`)."""
        return _settle_result(rules, self.result)

    def replayed(self, rules: Rules) -> Deal:
        """The deal itself, dealt again and its actions applied; ValueError if it does not come
        to what this says (another deal's record, or other rules)."""
        deal = Deal.new(
            rules,
            seed=self.seed,
            dealer=self.dealer,
            carry=self.carry,
            game_bezique=self.game_bezique,
        )
        for action in self.actions:
            deal.apply(action)
        if not deal.is_over or PlayedDeal.of(deal, self.seed) != self:
            raise ValueError("the actions do not play out to this deal's result")
        return deal

    def outcome(self) -> dict[str, Any]:
        """Everything but the actions, as JSON-ready data (a store keeps the actions apart)."""
        return {
            "dealer": self.dealer,
            "seed": self.seed,
            "carry": list(self.carry),
            "game_bezique": self.game_bezique,
            "trump": self.trump,
            "points": list(self.points),
            "result": [
                [r.melds, r.tricks, r.last_trick, r.bonuses, r.brisques] for r in self.result
            ],
            "trick_winners": list(self.trick_winners),
            "game_won_by": self.game_won_by,
            "bezique_in_game": self.bezique_in_game,
        }

    @classmethod
    def from_outcome(cls, data: Mapping[str, Any], actions: Sequence[str]) -> PlayedDeal:
        """The deal from :meth:`outcome`'s data and its actions; ValueError on data of another
        shape."""
        try:
            result = data["result"]
            if not isinstance(result, list) or not all(isinstance(r, list) for r in result):
                raise ValueError("result must be a list of lists")
            trump, won = data["trump"], data["game_won_by"]
            if trump is not None and not isinstance(trump, str):
                raise ValueError(f"trump must be a suit letter or null: got {trump!r}")
            flags = data["game_bezique"], data["bezique_in_game"]
            if not all(isinstance(f, bool) for f in flags):
                raise ValueError("game_bezique and bezique_in_game must be true or false")
            return cls(
                _whole(data["dealer"], "dealer"),
                _whole(data["seed"], "seed"),
                _wholes(data["carry"], "carry"),
                flags[0],
                tuple(str(a) for a in actions),
                trump,
                _wholes(data["points"], "points"),
                tuple(SideResult(*_wholes(r, "result")) for r in result),
                _wholes(data["trick_winners"], "trick_winners"),
                None if won is None else _whole(won, "game_won_by"),
                flags[1],
            )
        except (KeyError, TypeError) as e:
            raise ValueError(f"not a played deal's outcome: {type(e).__name__} {e}") from None


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
    return _settle_result(deal.rules, result)


def _settle_result(rules: Rules, result: Sequence[SideResult]) -> Settlement:
    """:func:`settle_points` of a finished deal's result (a deal's or a played deal's)."""
    return settle_points(rules, [r.total for r in result], [r.brisques for r in result])


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
