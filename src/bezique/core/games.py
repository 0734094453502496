"""Games within a match, and the Haitian match of games ("cent points", HAITIAN.md section 6).

A *game* is deals played until a side reaches the target.  With ``match_games`` 0 (every preset
but Haitian) the match is that one game.  Otherwise each game won adds 1 to the winner's match
count, or 2 when it is won "en bas table" (every loser under ``double_game_below``), and sets
every loser's count back to 0; the first count to reach ``match_games`` wins the match.  Game
scores start from 0 each game, or from a side's handicap (``cent_points_handicap``, given to the
loser of the previous match until he wins one).

These are pure functions of numbers, so that the score-keeper and the engine count alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .scoring import target_winner

if TYPE_CHECKING:
    from .rules import Rules


@dataclass(frozen=True)
class GameResult:
    """One finished game of a match."""

    first_deal: int
    """Index (in the match's deals) of the game's first deal."""
    last_deal: int
    winner: int
    scores: tuple[int, ...]
    """The game scores at its end, per side."""
    double: bool
    """Won en bas table: it counts twice."""
    counts: tuple[int, ...]
    """The match counts per side after this game."""


def add_points(rules: Rules, scores: Sequence[int], points: Sequence[int]) -> list[int]:
    """Game scores after a deal's points are added (never below 0 with ``score_floor_zero``)."""
    out = [s + p for s, p in zip(scores, points, strict=True)]
    return [max(0, s) for s in out] if rules.score_floor_zero else out


def game_winner(rules: Rules, scores: Sequence[int], trick_winners: Sequence[int]) -> int | None:
    """The side that has won the game on these scores, else None
    (:func:`~bezique.core.scoring.target_winner`; ``trick_winners`` are the seats that won
    each trick of the last deal)."""
    side_of = rules.side_of
    return target_winner(rules, scores, (side_of(w) for w in reversed(trick_winners)))


def count_game(
    rules: Rules, counts: Sequence[int], winner: int, scores: Sequence[int]
) -> tuple[tuple[int, ...], bool]:
    """The match counts after ``winner`` wins a game on ``scores``, and whether it was won en
    bas table (every loser under ``double_game_below``: the game counts 2)."""
    losers = [scores[s] for s in range(len(scores)) if s != winner]
    double = bool(rules.double_game_below) and all(s < rules.double_game_below for s in losers)
    out = [0] * len(counts)
    out[winner] = counts[winner] + (2 if double else 1)
    return tuple(out), double


def match_counts(rules: Rules, games: Sequence[GameResult]) -> tuple[int, ...]:
    """Each side's count of games towards ``match_games`` after ``games`` (none: all 0)."""
    return games[-1].counts if games else (0,) * rules.sides


class GameTally:
    """What a match of games reads from its finished deals, for :class:`~bezique.core.match.
    Match` and the score-keeper alike: each works out :meth:`_tally` from its own deals."""

    rules: Rules

    def _tally(self) -> tuple[list[GameResult], list[int]]:
        """The finished games, and the scores of the game in progress."""
        raise NotImplementedError

    @property
    def games(self) -> list[GameResult]:
        """The games won so far in a match of games (``match_games``; else the match is one
        game and this is empty)."""
        return self._tally()[0]

    @property
    def match_counts(self) -> tuple[int, ...]:
        """Each side's count of games towards ``match_games`` (cent points, HAITIAN.md
        section 6)."""
        return match_counts(self.rules, self.games)


def match_winner(rules: Rules, counts: Sequence[int]) -> int | None:
    """The side whose match count has reached ``match_games`` (cent points), else None."""
    if not rules.match_games:
        return None
    for side, c in enumerate(counts):
        if c >= rules.match_games:
            return side
    return None


def next_handicap(rules: Rules, handicap: Sequence[int], winner: int) -> tuple[int, ...]:
    """The scores each side starts every game of the next match on: the match's winner loses
    any handicap; every loser gets ``cent_points_handicap`` (and keeps it until he wins)."""
    return tuple(
        0 if side == winner else max(h, rules.cent_points_handicap)
        for side, h in enumerate(handicap)
    )
