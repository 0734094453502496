"""The score-keeper keeps a Haitian match: joker entries, brisque-majority scoring,
the target reached during a deal, and the match of games ("en bas table", "cent points").

The main check replays matches the engine played into the keeper, deal by deal, entry by entry
as the players would call them at the table, and asks for the same totals.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bezique import Rules
from bezique.bots import make
from bezique.core.match import Match
from bezique.core.records import record_match
from bezique.keeper import Keeper


def engine_match(
    rules: Rules, seed: int, max_deals: int = 12, handicap: tuple[int, ...] | None = None
) -> Match:
    """A match the engine plays between simple bots (stopped after ``max_deals``)."""
    match = Match(rules, seed=seed, handicap=handicap)
    bots = {s: make("simple", seed=seed + s) for s in range(rules.players)}
    while True:
        deal = match.deal
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            deal.apply(bots[seat].choose(deal.observation(seat)))
        if match.winner is not None or len(match.deals) >= max_deals:
            return match
        match.next_deal()


def keep_like_the_engine(match: Match, keeper: Keeper) -> None:
    """Enter every deal of ``match`` into ``keeper`` as the players would: the deal, each
    declaration (cards already on the table written @table) and seven of trumps played, then
    the brisques each side won and the last trick."""
    record = record_match(match)
    finals = dict(enumerate(match.deals))
    rules = match.rules
    before = None
    current = -1
    for i, _ply, action, deal in record.states():
        if i != current:
            if current >= 0:
                _end(keeper, finals[current])
            current = i
            keeper.new_deal(dealer=deal.dealer)
            before = deal
            continue
        assert before is not None and action is not None
        seat = before.to_move
        assert seat is not None
        if action.startswith("meld "):
            # the notation marks a declared card @... only where a concealed one is also held
            concealed = Counter(before.observation(seat).hand)
            words = action.split()
            cards = []
            for ref in words[2:]:
                c, at, _ = ref.partition("@")
                if not at and concealed[c]:
                    concealed[c] -= 1
                    cards.append(c)
                else:
                    cards.append(c + "@table")
            keeper.declare(seat, " ".join([words[1], *cards]))
        # a trick just completed: each seven of trumps in it scored for its player (H15), as
        # the players call it out at the table
        done = deal.observation(None).tricks
        if len(done) > len(before.observation(None).tricks) and before.trump is not None:
            leader, played, _winner = done[-1]
            for i, card in enumerate(played):
                if card == "7" + before.trump:
                    keeper.declare((leader + i) % rules.players, "seven " + card)
        before = deal
    _end(keeper, finals[current])


def _end(keeper: Keeper, deal: object) -> None:
    from bezique.core.deal import Deal

    assert isinstance(deal, Deal)
    if keeper.deal is None:  # ended at once when the target was reached
        assert deal.ended_early
        return
    assert not deal.ended_early
    rules = deal.rules
    won = [0] * rules.sides
    obs = deal.observation(None)
    for _leader, cards, winner in obs.tricks:
        won[rules.side_of(winner)] += sum(1 for c in cards if c[0] in "AT")
    for side in range(rules.sides):
        seat = next(s for s in range(rules.players) if rules.side_of(s) == side)
        keeper.tricks(seat, brisques=won[side])
    keeper.last_trick(obs.tricks[-1][2])
    keeper.end_deal()


@pytest.mark.parametrize(
    ("preset", "seed", "handicap"),
    [
        ("haitian", 3, None),
        ("haitian", 11, None),
        ("haitian(players=3)", 5, None),
        ("haitian(players=4)", 7, None),
        ("haitian(players=4,partnerships=true)", 2, None),
        ("haitian(cent_points_handicap=100)", 4, (0, 100)),  # H32: the last match's loser
        ("haitian(first_bezique=100)", 3, None),  # H07: the first bésigue of each game
    ],
)
def test_engine_deals_kept_give_the_engines_totals(
    preset: str, seed: int, handicap: tuple[int, ...] | None
) -> None:
    """Whole matches (seeds 3 and 11 play to a count of 4 with games won en bas table and
    deals ended at once by the target) give the engine's points deal by deal, its games and
    counts, and its winner."""
    rules = Rules.from_string(preset)
    match = engine_match(rules, seed, handicap=handicap)
    keeper = Keeper(rules, handicap=handicap)
    keep_like_the_engine(match, keeper)
    for sheet, deal in zip(keeper.deals, match.deals, strict=True):
        assert sheet.totals == list(deal.points), f"deal {sheet.number}"
        assert sheet.ended_early == deal.ended_early
    assert keeper.scores == match.scores
    assert keeper.games == match.games
    assert keeper.match_counts == match.match_counts
    assert keeper.winner == match.winner


@pytest.mark.parametrize(("loser", "double"), [(749, True), (750, False)])
def test_en_bas_table_below_750(loser: int, double: bool) -> None:
    """HAITIAN.md H27: a game won with the loser on 749 counts 2 (en bas table), on 750 1;
    H26: the next game starts again from the players' starting scores."""
    k = Keeper(Rules.preset("haitian"), ["Ann", "Bob"], handicap=[980, loser])
    k.new_deal()
    k.declare("Ann", "marriage KS QS")  # 1020: the deal and the game end at once
    game = k.games[0]
    assert game.double is double and game.counts == ((2 if double else 1), 0)
    k.new_deal()
    assert k.deal is not None and k.deal.carry == [980, loser]


def haitian(**options: object) -> Keeper:
    rules = Rules.preset("haitian")
    if options:
        rules = rules.replace(**options)
    return Keeper(rules, ["Ann", "Bob"])


def test_before_trump_only_a_marriage_and_it_fixes_trump() -> None:
    """HAITIAN.md H04, H05: before trump only a marriage may be declared; the first (any suit)
    fixes trump and scores 40."""
    k = haitian()
    k.new_deal()
    with pytest.raises(ValueError, match="only a marriage"):
        k.declare("Ann", "bezique QS JD")
    assert k.declare("Ann", "marriage KH QH") == 40
    assert k.deal is not None and k.deal.trump == "H"
    assert k.declare("Bob", "bezique QS JD") == 40


def test_jokers_complete_quartets_once_a_deal() -> None:
    """HAITIAN.md H10, H11: a joker completes four of a kind (not a marriage); a joker that
    scored in four kings cannot complete four jacks later in the deal."""
    k = haitian()
    k.new_deal()
    k.declare("Ann", "marriage KH QH")
    with pytest.raises(ValueError, match="joker"):
        k.declare("Ann", "marriage KS XX")
    assert k.declare("Ann", "four-kings KS KD KC XX") == 80
    with pytest.raises(ValueError, match="joker scores in one meld a deal"):
        k.declare("Ann", "four-jacks JS JH JD XX@table")


def test_the_quinte_needs_the_declarers_marriage() -> None:
    """HAITIAN.md H08: A 10 J of trumps added to the declarer's own royal marriage: 250."""
    k = haitian()
    k.new_deal()
    k.declare("Ann", "marriage KH QH")
    with pytest.raises(ValueError, match="own royal marriage"):
        k.declare("Bob", "trump-sequence AH TH KH QH JH")
    assert k.declare("Ann", "trump-sequence AH TH KH@table QH@table JH") == 250


def test_brisque_majority_at_the_end_of_a_deal() -> None:
    """HAITIAN.md H23: brisques 17-15, players on 700 (taker of the last trick) and 600:
    880 and 400 (700 + 10 + 170; 600 - 200), the scores carried in as a handicap."""
    k = Keeper(Rules.preset("haitian"), ["Ann", "Bob"], handicap=[700, 600])
    k.new_deal()
    k.tricks("Ann", brisques=17)
    k.tricks("Bob", brisques=15)
    k.last_trick("Ann")
    k.end_deal()
    assert k.scores == [880, 400]


def test_reaching_the_target_with_a_declaration_ends_the_deal() -> None:
    """HAITIAN.md H25: reaching 1000 by a declaration ends the deal at once."""
    k = Keeper(Rules.preset("haitian"), ["Ann", "Bob"], handicap=[980, 0])
    k.new_deal()
    k.declare("Ann", "marriage KS QS")
    assert k.deal is None and k.deals[-1].ended_early
    assert k.games[0].winner == 0 and k.games[0].double  # Bob on 0: en bas table
    assert k.match_counts == (2, 0)


def test_handicap_is_in_the_journal(tmp_path: Path) -> None:
    """HAITIAN.md H32: the cent-points handicap carries into every game of the match."""
    path = tmp_path / "h.jsonl"
    k = Keeper(Rules.preset("haitian"), ["Ann", "Bob"], path, handicap=[0, 100])
    k.new_deal()
    assert k.running == [0, 100]
    again = Keeper.resume(path)
    assert again.handicap == (0, 100) and again.running == [0, 100]


def test_undo_of_the_declaration_that_ended_the_deal() -> None:
    """Undo takes back a declaration that reached the target: the deal is in progress again
    and the game is not won."""
    k = Keeper(Rules.preset("haitian"), ["Ann", "Bob"], handicap=[980, 0])
    k.new_deal()
    k.declare("Ann", "marriage KS QS")
    assert k.games
    k.undo()
    assert k.deal is not None and not k.deal.ended_early and not k.games
    assert k.running == [980, 0]
