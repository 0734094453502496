"""A match resumed from its finished deals as kept (:class:`~bezique.core.match.PlayedDeal`,
:meth:`~bezique.core.match.Match.resume`) is the match that replaying them makes: scores, games,
adjustments, seeds, the next deal dealt, and its record; finished deals are replayed only when
asked for."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bezique import Rules
from bezique.core.match import Match, PlayedDeal
from bezique.core.records import record_match
from helpers import random_match


def replayed_to(match: Match, deals: int) -> Match:
    """The same match replayed from the start until ``deals`` deals are over."""
    assert match.seed is not None
    again = Match(match.rules, seed=match.seed, handicap=match.handicap)
    for i in range(deals):
        if i:
            again.next_deal()
        for action in match.finished[i].actions:
            again.deal.apply(action)
    return again


def state(match: Match) -> tuple[Any, ...]:
    """Everything a match tells of itself, but the finished deals' play."""
    return (
        match.scores,
        match.games,
        match.match_counts,
        match.winner,
        match.game_winner,
        match.adjustments,
        match.deal_seeds,
        match.finished,
        len(match.deals),
        record_match(match),
    )


CASES = [
    *Rules.presets(),
    "classic(target=500)",
    "haitian(first_bezique=20)",
    "greek(target=3000)",
]


@pytest.mark.parametrize("text", CASES)
def test_a_resumed_match_is_the_replayed_one(text: str) -> None:
    """At each deal (a sample of them in long matches), the match resumed from the deals before
    it and then played through it equals the match replayed from the start: game scores and
    resets, games won (HAITIAN.md's match of games), the Greek club's trump-run points, the
    per-deal payouts, the seeds and dealers of the next deal, the record."""
    rules = Rules.from_string(text)
    match = random_match(rules, seed=41)
    n = len(match.finished)
    assert n == len(match.deals)
    picks = sorted({0, 1, n // 2, n - 2, n - 1} & set(range(n)))
    for k in picks:
        resumed = Match.resume(rules, 41, None, match.finished[:k])
        assert resumed.deal.dealer == match.deals[k].dealer
        assert resumed.deal.carry == match.deals[k].carry
        for action in match.finished[k].actions:
            resumed.deal.apply(action)
        assert state(resumed) == state(replayed_to(match, k + 1)), (text, k)


def test_a_resumed_match_with_a_handicap_is_the_replayed_one() -> None:
    """The handicap (HAITIAN.md H32: the last match's loser starts each game on it) is where
    every game of the resumed match starts too."""
    rules = Rules.from_string("haitian(cent_points_handicap=300)")
    match = random_match(rules, seed=7, handicap=(0, 300))
    k = len(match.finished) - 1
    resumed = Match.resume(rules, 7, (0, 300), match.finished[:k])
    for action in match.finished[k].actions:
        resumed.deal.apply(action)
    assert state(resumed) == state(match)


def test_finished_deals_are_replayed_only_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """Resuming and scoring replay nothing; asking for a finished deal replays that one."""
    rules = Rules.preset("classic")
    match = random_match(rules, seed=3)
    assert len(match.finished) >= 3
    calls: list[int] = []
    original = PlayedDeal.replayed

    def counted(self: PlayedDeal, rules: Rules) -> Any:
        calls.append(self.seed)
        return original(self, rules)

    monkeypatch.setattr(PlayedDeal, "replayed", counted)
    resumed = Match.resume(rules, 3, None, match.finished[:2])
    _ = resumed.scores, resumed.winner, resumed.finished, record_match(resumed)
    assert calls == []
    first = resumed.deals[0]
    assert first.history == match.deals[0].history and first.points == match.deals[0].points
    assert resumed.deals[0] is first  # kept once replayed
    assert calls == [match.deal_seeds[0]]
    assert [d.history for d in resumed.deals[:2]] == [d.history for d in match.deals[:2]]


def test_the_outcome_goes_through_json_and_back() -> None:
    match = random_match(Rules.preset("rubicon"), seed=11)
    for played in match.finished:
        data = json.loads(json.dumps(played.outcome()))
        assert PlayedDeal.from_outcome(data, played.actions) == played


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"points": "12"}, "points must be a list"),
        ({"seed": True}, "seed must be a whole number"),
        ({"result": [[1, 2, 3]]}, "not a played deal's outcome"),
        ({"trump": 3}, "trump must be a suit letter"),
        ({"game_bezique": 1}, "must be true or false"),
    ],
)
def test_an_outcome_of_another_shape_is_refused(change: dict[str, Any], error: str) -> None:
    played = random_match(Rules.preset("classic"), seed=2).finished[0]
    with pytest.raises(ValueError, match=error):
        PlayedDeal.from_outcome({**played.outcome(), **change}, played.actions)
    data = played.outcome()
    del data["carry"]
    with pytest.raises(ValueError, match="not a played deal's outcome"):
        PlayedDeal.from_outcome(data, played.actions)


def test_a_deal_that_is_not_the_matchs_is_refused() -> None:
    """Another seed, another dealer or other game scores: the resumed match would not be this
    one, so it is refused, naming the deal."""
    rules = Rules.preset("classic")
    match = random_match(rules, seed=5)
    played = list(match.finished[:3])
    with pytest.raises(ValueError, match="deal 1 is not this match's"):
        Match.resume(rules, 5, None, [played[0], replace(played[1], seed=played[1].seed + 1)])
    with pytest.raises(ValueError, match="deal 2 is not this match's"):
        Match.resume(rules, 5, None, [*played[:2], replace(played[2], carry=(0, 0))])
    with pytest.raises(ValueError, match="deal 0 is not this match's"):
        Match.resume(rules, 6, None, played)


def test_no_deal_follows_the_one_that_ends_the_match() -> None:
    rules = Rules.preset("classic")
    match = random_match(rules, seed=5)
    with pytest.raises(ValueError, match=f"deal {len(match.finished) - 1} ends the match"):
        Match.resume(rules, 5, None, match.finished)


def test_actions_that_do_not_play_out_to_the_outcome_are_refused() -> None:
    played = random_match(Rules.preset("classic"), seed=8).finished[0]
    with pytest.raises(ValueError, match="do not play out"):
        replace(played, points=(0, 0)).replayed(Rules.preset("classic"))


@pytest.mark.parametrize("handicap", [None, (0, 300)])
def test_a_new_game_starts_its_scores_again(handicap: tuple[int, ...] | None) -> None:
    """HAITIAN.md H26 (scores reset after a game) and H32 (on the handicap): while the first
    deal of the next game is played, the game scores are the start of a game, in the match
    played and in the match resumed there."""
    rules = Rules.from_string("haitian(cent_points_handicap=300)")
    match = random_match(rules, seed=41, handicap=handicap)
    start = list(handicap or (0, 0))
    ended = [g.last_deal for g in match.games]
    assert ended and ended[0] + 1 < len(match.deals)
    k = ended[0] + 1  # the first deal of the second game
    replayed = replayed_to(match, k)
    replayed.next_deal()
    resumed = Match.resume(rules, 41, handicap, match.finished[:k])
    for m in (replayed, resumed):
        assert not m.deal.is_over and m.scores == start
        m.deal.apply(m.deal.legal_actions()[0])
        assert m.scores == start  # nothing scored yet
