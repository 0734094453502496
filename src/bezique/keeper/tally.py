"""The keeper's totals: the end of a deal, the games and the match.

Everything that decides a score here calls the core's functions, so that the keeper and the
engine count alike: :func:`~bezique.core.brisques.majority_adjustments` for brisque-majority
scoring, :func:`~bezique.core.games.add_points`, :func:`~bezique.core.games.game_winner`,
:func:`~bezique.core.games.count_game` and :func:`~bezique.core.games.match_winner` for the
Haitian match of games ("en bas table", "cent points"), :func:`~bezique.core.match.settle_points`
for per-deal games and :func:`~bezique.core.scoring.target_winner` for the target.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.brisques import majority_adjustments
from ..core.games import (
    GameResult,
    GameTally,
    add_points,
    count_game,
    game_winner,
    match_winner,
)
from ..core.match import settle_points
from ..core.rules import Rules
from ..core.scoring import target_winner
from .sheet import DealSheet, _does, _State


class Tally(GameTally):
    """Totals of a :class:`~bezique.keeper.Keeper`: per game, per match."""

    rules: Rules
    players: list[str]
    handicap: tuple[int, ...]
    _state: _State

    if TYPE_CHECKING:  # the keeper's own, used here

        @property
        def side_names(self) -> list[str]: ...
        @property
        def deal(self) -> DealSheet | None: ...
        def _current(self) -> DealSheet: ...

    @property
    def per_deal(self) -> bool:
        """True when each deal is a game of its own (Rubicon, Chinese, eight-pack)."""
        return self.rules.deal_scoring == "per-deal"

    def deal_score(self, sheet: DealSheet) -> list[int]:
        """What a finished deal adds to the game totals: its points, or in per-deal games its
        payout."""
        if self.per_deal:
            return list(sheet.settlement.payout) if sheet.settlement else [0] * self.rules.sides
        return sheet.totals

    def _tally(self) -> tuple[list[GameResult], list[int]]:
        """The finished games and the current game's scores: every finished deal's points
        added with :func:`add_points` (never below 0 where the rules say so), the scores
        starting again from the handicap after each game of a match of games."""
        games: list[GameResult] = []
        scores = list(self.handicap)
        for sheet in self._state.deals:
            if not sheet.over:
                break
            scores = add_points(self.rules, scores, self.deal_score(sheet))
            if sheet.game is not None:
                games.append(sheet.game)
                scores = list(self.handicap)
        return games, scores

    @property
    def scores(self) -> list[int]:
        """Totals per side over the finished deals (of the current game, in a match of games;
        a game just won shows its final scores until the next deal starts)."""
        games, scores = self._tally()
        deals = self._state.deals
        if games and deals and deals[-1].over and deals[-1].game is not None:
            return list(games[-1].scores)
        return scores

    def game_sheets(self) -> list[DealSheet]:
        """The deals of the game in progress, the current one last: those since the last game
        won in a match of games; in per-deal games only the deal being entered."""
        deals = self._state.deals
        if self.per_deal:
            return deals[-1:] if deals and not deals[-1].over else []
        start = 0
        for i, sheet in enumerate(deals):
            if sheet.game is not None:
                start = i + 1
        return deals[start:]

    def game_scores_before(self) -> list[int]:
        """The scores the next (or current) deal starts from."""
        return self._tally()[1]

    @property
    def running(self) -> list[int]:
        """Game totals with the points of the deal in progress added (in per-deal games the
        deal in progress pays out only when it ends, so this is :attr:`scores`)."""
        totals = self.scores
        current = self.deal
        if current is not None and not self.per_deal:
            totals = [a + b for a, b in zip(current.carry, current.totals, strict=True)]
        return totals

    @property
    def winner(self) -> int | None:
        """The winning side once the match is decided, else None."""
        return self._state.winner

    @property
    def is_over(self) -> bool:
        """True once a side has won."""
        return self._state.winner is not None

    # --- the end of a deal -------------------------------------------------------------------
    def _target_reached(self, sheet: DealSheet) -> None:
        """``target_check=immediate`` (HAITIAN.md H25): a side whose game score reaches the
        target with a declaration or a seven ends the deal at once, with no last trick and no
        brisques."""
        r = self.rules
        if r.target_check != "immediate" or self.per_deal:
            return
        reached = [s for s in range(r.sides) if sheet.carry[s] + sheet.totals[s] >= r.target]
        if not reached:
            return
        sheet.ended_early = True
        sheet.tricks = [0] * r.sides
        sheet.brisques = [0] * r.sides
        sheet.last_trick = [0] * r.sides
        names = " and ".join(self.side_names[s] for s in reached)
        sheet.log.append(f"{names} reached {r.target}: the deal ends at once")
        self._finish(sheet)

    def _do_end(self, entry: dict[str, Any]) -> None:
        r = self.rules
        sheet = self._current()
        if sheet.last_trick_seat is None:
            raise ValueError(
                "enter who took the last trick first (it scores "
                f"{r.last_trick_bonus} and decides ties)"
            )
        if r.trick_scoring == "brisque-majority":
            # the majority settles on the game scores with the deal's other points and the
            # last trick (HAITIAN.md section 6, H22-H24)
            before = [c + t for c, t in zip(sheet.carry, sheet.totals, strict=True)]
            sheet.tricks = majority_adjustments(r, sheet.brisques, before)
            sheet.log.append(
                "brisques "
                + " – ".join(str(b // 10) for b in sheet.brisques)
                + ": "
                + ", ".join(
                    f"{n} {a:+d}" for n, a in zip(self.side_names, sheet.tricks, strict=True)
                )
            )
        self._finish(sheet)

    def _finish(self, sheet: DealSheet) -> None:
        r, st = self.rules, self._state
        sheet.over = True
        if self.per_deal:
            settlement = settle_points(r, sheet.totals, sheet.brisques)
            sheet.settlement = settlement
            if settlement.winner is None:
                sheet.log.append(f"deal {sheet.number} is a tie: nobody scores; deal again")
            else:
                w = settlement.winner
                how = "a rubicon" if settlement.rubicon else "the game"
                sheet.log.append(
                    f"deal {sheet.number}: {_does(self.side_names[w], 'win')} {how}, "
                    f"scoring {settlement.payout[w]}"
                )
            winner = settlement.winner
        else:
            sheet.log.append(
                f"deal {sheet.number} over: "
                + ", ".join(f"{n} {t}" for n, t in zip(self.side_names, sheet.totals, strict=True))
            )
            after = add_points(r, sheet.carry, sheet.totals)
            if r.match_games:
                seen = [] if sheet.last_trick_seat is None else [sheet.last_trick_seat]
                winner = game_winner(r, after, seen)
            else:
                winner = self._cumulative_winner(sheet, after)
        if sheet.wins_game is not None:
            winner = sheet.wins_game
        if r.match_games:
            st.winner = None
            if winner is not None:
                games = self.games
                counts = games[-1].counts if games else (0,) * r.sides
                first = games[-1].last_deal + 1 if games else 0
                scores = add_points(r, sheet.carry, self.deal_score(sheet))
                counts, double = count_game(r, counts, winner, scores)
                sheet.game = GameResult(
                    first, sheet.number - 1, winner, tuple(scores), double, counts
                )
                sheet.log.append(
                    f"{_does(self.side_names[winner], 'win')} game {len(games) + 1}"
                    + (" en bas table (it counts 2)" if double else "")
                    + "; match count "
                    + ", ".join(f"{n} {c}" for n, c in zip(self.side_names, counts, strict=True))
                )
                st.winner = match_winner(r, counts)
        else:
            st.winner = winner
        if st.winner is not None:
            sheet.log.append(f"{_does(self.side_names[st.winner], 'win')} the match")

    def _cumulative_winner(self, sheet: DealSheet, totals: list[int]) -> int | None:
        """The target rule (RULES.md 2.1, 2.2, :func:`target_winner`): reaching the target at
        the end of a deal wins; if several sides reach it, the taker of the last trick (or, by
        option, the higher score).  The keeper does not know who took the earlier tricks, so
        when a third player took the last trick, the higher score decides among the others."""
        r = self.rules
        # the last trick's side first, then the others by score (highest first, ties in order)
        recent = sorted(range(r.sides), key=lambda s: -totals[s])
        if sheet.last_trick_seat is not None:
            recent.insert(0, r.side_of(sheet.last_trick_seat))
        return target_winner(r, totals, recent)


__all__ = ["Tally"]
