"""The bot protocol and the two basic bots: legal, reproducible, quick, and sensible."""

from __future__ import annotations

from collections import Counter

import pytest

from bezique import Action, Deal, Observation, Rules
from bezique.bots import Bot, Limit, PlayResult, RandomBot, SimpleBot, make, names, register
from bezique.bots.view import View
from bezique.core.cards import CODES, SUITS, parse_card
from bezique.core.tricks import beats

VARIANTS = [
    Rules.preset("classic"),
    Rules.preset("classic", meld_reuse="higher-score-only", melds_scored_per_trick=2),
    Rules.preset("classic", stage1_must_follow_suit=True, seven_exchange_counts_as_meld=False),
    Rules.preset("classic", second_seven_scores="play", trick_scoring="card-points"),
    Rules.preset(
        "classic",
        two_trump_sevens=True,
        double_marriage=True,
        plain_sequence=True,
        carte_blanche=True,
        second_seven_scores="win-trick",
    ),
    Rules.preset("classic", players=3, packs=3),
    Rules.preset("classic", players=4, packs=4, partnerships=True),
    Rules.preset("classic", turn_up=False, packs=4, hand_size=9, deal_packets=(3, 3, 3)),
]


def play_out(deal: Deal, bots: list[Bot]) -> list[tuple[Observation, Action]]:
    """Play a deal to its end, checking every choice is legal; the (observation, choice) list."""
    seen = []
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        action = bots[seat].choose(obs)
        assert isinstance(action, Action)
        assert str(action) in obs.legal, (str(action), obs.legal)
        seen.append((obs, action))
        deal.apply(action)
    return seen


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
@pytest.mark.parametrize("name", ["random", "simple", "careless"])
def test_bots_play_legal_actions_in_every_seat(rules: Rules, name: str) -> None:
    for seed in range(3):
        deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
        bots = [make(name, seed=seed * 10 + s) for s in range(rules.players)]
        moves = play_out(deal, bots)
        assert {obs.seat for obs, _ in moves} == set(range(rules.players))


def test_simple_against_random_in_many_classic_deals() -> None:
    totals = Counter[str]()
    rules = Rules.preset("classic")
    for seed in range(16):
        simple_seat = seed % 2
        bots: list[Bot] = [make("random", seed), make("random", seed)]
        bots[simple_seat] = make("simple", seed)
        deal = Deal.new(rules, seed=seed, dealer=(seed // 2) % 2)
        play_out(deal, bots)
        totals["simple"] += deal.points[simple_seat]
        totals["random"] += deal.points[1 - simple_seat]
    assert totals["simple"] > 2 * totals["random"]


def test_careless_slips_about_one_decision_in_three_and_else_plays_simple() -> None:
    """The easy level's bot: simple's choice, or now and then a random one, reproducibly."""
    rules = Rules.preset("classic")
    slips = decisions = 0
    for seed in range(6):
        deal = Deal.new(rules, seed=seed, dealer=seed % 2)
        bots: list[Bot] = [make("careless", seed), make("simple", seed)]
        for obs, action in play_out(deal, bots):
            if obs.seat != 0 or len(obs.legal) == 1:
                continue
            decisions += 1
            result = make("careless", seed).play(obs)
            assert result.action == action  # reproducible from the seed and the observation
            if "careless" in result.info["reason"]:
                slips += 1
            else:
                assert action == make("simple", seed).choose(obs)
    assert decisions >= 150
    assert 0.18 <= slips / decisions <= 0.42  # slip = 0.3: more than 3.5 standard errors off


def test_play_returns_a_play_result_with_info() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=3)
    obs = deal.observation(deal.to_move)
    for name in names():
        result = make(name, seed=1).play(obs, Limit(time=0.1))
        assert isinstance(result, PlayResult)
        assert str(result.action) in obs.legal
        assert isinstance(result.info, dict)
    info = make("simple").play(obs).info
    assert set(info["scores"]) == set(obs.legal)


@pytest.mark.parametrize("name", ["random", "simple"])
def test_same_seed_and_observation_give_the_same_action(name: str) -> None:
    rules = Rules.preset("classic")
    deal = Deal.new(rules, seed=21)
    observations = [obs for obs, _ in play_out(deal, [make(name, 5), make(name, 6)])]
    first = make(name, seed=42)
    again = make(name, seed=42)
    picks = [str(first.choose(o)) for o in observations]
    # the same bot asked again, in reverse order, and a twin built with the same seed agree
    assert [str(first.choose(o)) for o in reversed(observations)] == picks[::-1]
    assert [str(again.choose(o)) for o in observations] == picks


def test_random_bot_depends_on_its_seed() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=4)
    observations = [obs for obs, _ in play_out(deal, [make("random", 1), make("random", 2)])]
    a = [str(make("random", 1).choose(o)) for o in observations]
    b = [str(make("random", 2).choose(o)) for o in observations]
    assert a != b


def test_random_bot_covers_the_legal_actions() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=8)
    obs = deal.observation(deal.to_move)
    picks = {str(make("random", seed).choose(obs)) for seed in range(200)}
    assert picks == set(obs.legal)


def test_bots_need_only_the_observation() -> None:
    """A bot given the position string's observation (rebuilt from text) chooses alike."""
    deal = Deal.new(Rules.preset("classic"), seed=13)
    moves = play_out(deal, [make("simple", 1), make("simple", 2)])
    for obs, action in moves[::7]:
        rebuilt = Observation.from_string(obs.to_string())
        assert make("simple", obs.seat).choose(rebuilt) == make("simple", obs.seat).choose(obs)
        assert str(action) in rebuilt.legal


def test_make_errors_and_names() -> None:
    assert names()[:7] == ["beginner", "easy", "medium", "hard", "expert", "random", "simple"]
    assert isinstance(make("random"), RandomBot)
    assert isinstance(make(" Simple ", seed=3), SimpleBot)
    with pytest.raises(ValueError, match=r"unknown player 'nobody'.*random, simple"):
        make("nobody")
    with pytest.raises(ValueError, match="empty name"):
        make("")
    with pytest.raises(ValueError, match="one lowercase word"):
        register("two words", SimpleBot)


def test_limit_validates() -> None:
    assert Limit() == Limit(time=None, iterations=None)
    assert Limit(time=0.5, iterations=100).iterations == 100
    with pytest.raises(ValueError):
        Limit(time=0)
    with pytest.raises(ValueError):
        Limit(iterations=0)
    with pytest.raises(AttributeError):
        Limit().time = 1.0  # type: ignore[misc]


def test_bots_refuse_an_observation_without_a_decision() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=1)
    waiting = 1 - (deal.to_move or 0)
    for name in names():
        with pytest.raises(ValueError, match="no decision"):
            make(name).choose(deal.observation(waiting))


# The simple bot's speed is measured by `python benchmarks/bots.py --levels simple`, not timed here.


# --- sensible play in stacked positions ----------------------------------------------------------
def stacked(hand0: list[str], hand1: list[str], turn_up: str, dealer: int) -> Deal:
    """A classic deal with the given hands and turn-up; the rest of the pack as the stock."""
    left = Counter({c: 2 for c in CODES[:32]})
    left.subtract([*hand0, *hand1, turn_up])
    stock = [c for c in CODES[:32] for _ in range(left[c])]
    return Deal.from_cards(
        Rules.preset("classic"), hands=[hand0, hand1], turn_up=turn_up, stock=stock, dealer=dealer
    )


LOW = ["8C", "9C", "8D", "9D", "8S", "9S", "7C", "7D"]


def test_simple_prefers_the_double_bezique() -> None:
    deal = stacked(["AS", "QS", "QS", "JD", "JD", "8C", "9C", "8D"], LOW, "9H", dealer=1)
    deal.apply("play AS")
    deal.apply("play 8C")
    obs = deal.observation(0)
    assert obs.phase == "declare" and "meld double-bezique QS QS JD JD" in obs.legal
    assert str(make("simple").choose(obs)) == "meld double-bezique QS QS JD JD"


def test_simple_exchanges_the_seven_for_a_trump_ace() -> None:
    deal = stacked(["AS", "7H", "8C", "9C", "8D", "9D", "JC", "TC"], LOW, "AH", dealer=1)
    deal.apply("play AS")
    deal.apply("play 8C")
    obs = deal.observation(0)
    assert "exchange 7H" in obs.legal and "pass" in obs.legal
    assert str(make("simple").choose(obs)) == "exchange 7H"


def test_simple_declares_rather_than_passing() -> None:
    rules = Rules.preset("classic")
    offered = 0
    for seed in range(25):
        deal = Deal.new(rules, seed=seed)
        bots = [make("simple", 1), make("simple", 2)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            action = bots[seat].choose(obs)
            if obs.phase == "declare" and any(a.startswith("meld") for a in obs.legal):
                offered += 1
                assert action.verb != "pass", obs.legal
            deal.apply(action)
    assert offered > 40


def test_simple_keeps_trumps_and_throws_low_on_a_worthless_lead() -> None:
    # seat 1 leads (dealer 0); trump is hearts
    deal = stacked(["AH", "TH", "KH", "8S", "AC", "TC", "QD", "9D"], LOW, "9H", dealer=0)
    deal.apply("play 9S")
    choice = str(make("simple").choose(deal.observation(0)))
    assert choice not in ("play AH", "play TH", "play KH", "play AC", "play TC")


def test_simple_captures_a_led_ten_cheaply() -> None:
    hand = ["AC", "8S", "9S", "8D", "9D", "KS", "QH", "JS"]
    deal = stacked(hand, ["TC", "9C", "8D", "9D", "8S", "9S", "7C", "7D"], "9H", dealer=0)
    deal.apply("play TC")
    assert str(make("simple").choose(deal.observation(0))) == "play AC"


def test_simple_heads_a_brisque_in_stage_two_when_it_can() -> None:
    rules = Rules.preset("classic")
    checked = 0
    for seed in range(30):
        deal = Deal.new(rules, seed=seed)
        bots = [make("simple", 3), make("simple", 4)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            action = bots[seat].choose(obs)
            if obs.stage == 2 and len(obs.trick) == 1 and obs.trick[0][1][0] in "AT":
                assert obs.trump is not None
                led, trump = parse_card(obs.trick[0][1]), SUITS.index(obs.trump)
                winners = [a for a in obs.legal if beats(parse_card(a.split()[1][:2]), led, trump)]
                if winners:
                    checked += 1
                    assert str(action) in winners
            deal.apply(action)
    assert checked > 5


def test_view_counts_unseen_cards() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=2)
    obs = deal.observation(deal.to_move)
    view = View(obs)
    # 64 cards: 8 in the hand and the turn-up are seen; the rest are not
    assert view.unseen_total == 64 - 8 - 1
    with pytest.raises(ValueError):
        View(deal.observation(None))


def test_the_view_knows_the_wild_card() -> None:
    """Decision 11: a wild card never wins a trick, so any card played after one beats it;
    HAITIAN.md HD12 (wild_card_lead_wins): a wild card led wins unless trumped.  The
    heuristic players' view asks core.tricks, as the engine does."""
    wild = CODES.index("XX")
    for preset, lead_wins in (("old-russian", False), ("haitian", True)):
        deal = Deal.new(Rules.preset(preset), seed=3)
        while deal.trump is None or deal.to_move is None or deal.phase != "play":
            deal.apply(deal.legal_actions()[0])
        view = View(deal.observation(deal.to_move))
        trump = SUITS.index(deal.trump)
        plain = parse_card("K" + SUITS[(trump + 1) % 4])
        trumped = parse_card("7" + SUITS[trump])
        assert view.winning([(0, wild), (1, plain)]) == ((0, wild) if lead_wins else (1, plain))
        assert view.winning([(0, wild), (1, trumped)]) == (1, trumped)
        want = (
            sum(view.unseen[k] for k in range(32) if k >> 3 == trump)
            if lead_wins
            else view.unseen_total - view.unseen[wild]
        )
        assert view.beaters_unseen(wild) == want
