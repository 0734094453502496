"""Ratings: a skill per identity and variant, moved only by finished rated games, with the
Weng-Lin Bayesian model of the ``openskill`` library (Plackett-Luce), which rates teams (the
four-handed partnerships) and games of three sides as readily as two.

A rating is ``mu`` (the skill believed) and ``sigma`` (how unsure that belief is); what is shown
and ordered by is the cautious ``mu - 3 sigma``.  A computer seat plays at its level's fixed
anchor (:data:`ANCHORS`, ``sigma`` :data:`ANCHOR_SIGMA`): it moves the people's ratings as a
person of that skill would and never moves itself, so one person playing the computer is rated
too.

Settling happens on the server that finished the game, from the match it holds (never from
anything a client sends), once: the results' primary key is the table's code and seat.
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from ..core.match import Match
from ..core.rules import Rules
from .onlinedb import OnlineStore, RatedSeat
from .storage import SeatRow

MODEL = PlackettLuce()
INITIAL = (float(MODEL.mu), float(MODEL.sigma))
"""A person's rating before their first rated game in a variant: 25 and 25/3."""
ANCHORS = {"beginner": 15.0, "easy": 20.0, "medium": 25.0, "hard": 29.0, "expert": 33.0}
"""The ``mu`` of each computer level (the levels' order, about one beginner-to-expert spread of
a strong person's rating; set by hand, never moved by games)."""
ANCHOR_SIGMA = 1.0
"""How sure the anchors are: a computer's rating is taken as known."""
OTHER_BOT = 20.0
"""The anchor of a computer player that is none of the five levels."""


def variant_key(rules: Rules) -> str:
    """What a rating is kept per: the preset and the number of players, ``p`` marking a
    partnership game (``classic/2``, ``classic/4p``); targets and other options share it."""
    return f"{rules.name}/{rules.players}{'p' if rules.partnerships else ''}"


def side_ranks(match: Match) -> list[int]:
    """Each side's place in a decided match, 0 the winner; the others by their game score
    (equal scores share a place)."""
    winner = match.winner
    assert winner is not None
    scores = match.scores
    others = sorted({scores[s] for s in range(len(scores)) if s != winner}, reverse=True)
    return [0 if s == winner else 1 + others.index(scores[s]) for s in range(len(scores))]


def rated_seats(
    rules: Rules, match: Match, seats: list[SeatRow], players: dict[int, str]
) -> list[RatedSeat] | None:
    """The seats of a finished game as they are rated, or None when it cannot be rated (a
    person's seat without an identity)."""
    ranks = side_ranks(match)
    out = []
    for s in seats:
        player = players.get(s.seat)
        if s.kind == "bot":
            anchor = (ANCHORS.get(s.level, OTHER_BOT), ANCHOR_SIGMA)
            out.append(
                RatedSeat(s.seat, None, s.level, s.name, ranks[rules.side_of(s.seat)], anchor)
            )
        elif player is None:
            return None
        else:
            out.append(
                RatedSeat(s.seat, player, None, s.name, ranks[rules.side_of(s.seat)], INITIAL)
            )
    return out


def rate(rules: Rules, seats: list[RatedSeat]) -> None:
    """Fill each seat's rating after the game from the ratings before, the seats of a side
    forming one team; a computer keeps its anchor."""
    sides: dict[int, list[RatedSeat]] = {}
    for s in seats:
        sides.setdefault(rules.side_of(s.seat), []).append(s)
    order = sorted(sides)
    teams = [[MODEL.rating(mu=s.before[0], sigma=s.before[1]) for s in sides[k]] for k in order]
    ranks = [float(sides[k][0].rank) for k in order]
    new: Any = MODEL.rate(teams, ranks=ranks)
    for k, team in zip(order, new, strict=True):
        for s, r in zip(sides[k], team, strict=True):
            s.after = s.before if s.player is None else (float(r.mu), float(r.sigma))


def settle(db: OnlineStore, code: str, rules: Rules, match: Match, seats: list[SeatRow]) -> bool:
    """Rate a finished game at a rated table (blocking: a database thread).  False when the
    table is not rated, cannot be (a person without an identity), or was settled before."""
    flags = db.table_flags(code)
    if flags is None or not flags[1] or match.winner is None:
        return False
    variant = flags[2]
    rated = rated_seats(rules, match, seats, db.seat_players(code))
    if rated is None or all(s.player is None for s in rated):
        return False
    return db.settle(code, variant, rated, INITIAL, lambda ss: rate(rules, ss))


__all__ = [
    "ANCHORS",
    "ANCHOR_SIGMA",
    "INITIAL",
    "rate",
    "rated_seats",
    "settle",
    "side_ranks",
    "variant_key",
]
