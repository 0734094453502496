"""The search players, the stage-2 solver, levels, hints and the arena.

Budgets here are tiny (a few hundred engine steps a decision): these tests check legality,
reproducibility, honesty and bookkeeping, not strength (see docs/strength.md for that).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from bezique import Action, Deal, Observation, Rules
from bezique.arena import ORACLES, PlayerSpec, run_arena, seatings
from bezique.bots import LEVELS, Hint, LevelBot, Limit, hint, levels, make, names
from bezique.bots.oracle import OracleBot
from bezique.bots.playout import playout_action, utility
from bezique.bots.registry import resolve
from bezique.bots.solver import Endgame, SolverLimit, exact_values, play_action, world_is_known
from bezique.cli import app
from bezique.core.cards import CODES
from bezique.core.notation import split_ref

_LP = "prior=learned,playout=learned,learned_bar=2/1.5"
HONEST = [
    "random",
    "simple",
    "heuristic",
    "pimc",
    "ismcts",
    "pimc-c",
    "pimc-c:bar=2/0,futility=off,keep_prior=no",
    "pimc-c:playout=smart,couple=yes",
    "pimc-c:inference=1",
    "pimc-c:prior=learned",
    f"pimc-c:{_LP}",
    f"pimc-c:{_LP},belief=1",
    f"pimc-c:{_LP},opponent=smart",
    f"pimc-c:{_LP},learned_explore=0",
    f"pimc-c:{_LP},learned_explore=0,cut=4/8",
    "learned",
    "ismcts-c",
]
TINY = Limit(nodes=300)

RULES = [Rules.preset(p) for p in Rules.presets()] + [
    Rules.preset("four", partner_declaring="winner-or-partner"),
    Rules.preset("no-trump", players=3),
    Rules.preset("old-russian", players=4),
    Rules.preset("haitian", players=3),
    Rules.preset("haitian", players=4, partnerships=True),
]


def positions(rules: Rules, seed: int, every: int) -> Iterator[tuple[Deal, Observation]]:
    """Decisions with a real choice along a deal played at random (every ``every``-th one,
    and every decision of stage 2's last tricks)."""
    rng = random.Random(seed)
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
    count = 0
    while not deal.is_over:
        actions = deal.legal_actions()
        if len(actions) > 1:
            count += 1
            late = deal.stage == 2 and len(deal.hand(deal.to_move or 0)) <= 3
            if count % every == 0 or (late and count % 2 == 0):
                assert deal.to_move is not None
                yield deal.clone(), deal.observation(deal.to_move)
        deal.apply(actions[rng.randrange(len(actions))])


def ask(name: str, obs: Observation, seed: int = 1) -> str:
    return str(make(name, seed).choose(obs, TINY))


# --- legality over every preset --------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULES, ids=str)
def test_every_bot_plays_legal_actions_in_every_preset(rules: Rules) -> None:
    # a handful of decisions spread over the deal (fewer where a deal is long)
    big = rules.cards > 100
    every = max(4, rules.cards // (12 if big else 6))
    seen = 0
    for deal, obs in positions(rules, seed=rules.players, every=every):
        for name in HONEST:
            assert ask(name, obs) in obs.legal, (name, obs.legal)
        oracle = OracleBot(3).play_with_deal(deal, TINY).action
        assert str(oracle) in obs.legal
        seen += 1
        if seen == (3 if big else 6):
            break
    assert seen >= 3


@pytest.mark.parametrize("name", ["pimc", "ismcts", "heuristic", "pimc-c", "ismcts-c"])
def test_search_bots_play_whole_deals(name: str) -> None:
    """A whole classic and a whole partnership deal, every seat a search bot: all legal."""
    for rules in (Rules.preset("classic"), Rules.preset("four")):
        deal = Deal.new(rules, seed=5)
        bots = [make(name, seed=s) for s in range(rules.players)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            action = bots[seat].choose(obs, Limit(iterations=1))
            assert str(action) in obs.legal
            deal.apply(action)


# --- reproducible and honest ------------------------------------------------------------------------
@pytest.mark.parametrize("name", HONEST)
def test_same_seed_same_choice(name: str) -> None:
    rules = Rules.preset("classic")
    picks = [(obs, ask(name, obs, 7)) for _, obs in positions(rules, 11, 9)]
    assert len(picks) >= 3
    for obs, pick in reversed(picks):
        assert ask(name, obs, 7) == pick


def test_search_bots_depend_on_their_seed() -> None:
    rules = Rules.preset("classic")
    obs = next(o for _, o in positions(rules, 2, 3) if len(o.legal) >= 5)
    for name in ("pimc", "ismcts", "pimc-c", "ismcts-c"):
        # the searches sample other worlds (the choice may still agree: it is anchored)
        values = {str(make(name, seed).play(obs, TINY).info["scores"]) for seed in range(4)}
        assert len(values) > 1


# Every registered bot and level (those of installed extras too) and the tried settings above.
# Only the cheating oracles (bezique.arena.ORACLES) are exempt, and they are no registered bot
# (tests/test_oracle.py).
@pytest.mark.parametrize("name", list(dict.fromkeys([*names(), *HONEST])))
def test_bots_cannot_tell_deals_that_look_the_same(name: str) -> None:
    """Two deals a seat cannot tell apart (the hidden cards dealt again) get the same choice."""
    assert name not in ORACLES
    checked = 0
    for rules in (Rules.preset("classic"), Rules.preset("three"), Rules.preset("four")):
        for deal, obs in positions(rules, 4, 7):
            seat = obs.seat
            assert seat is not None
            other = deal.resample(seat, random.Random(checked))
            assert other.observation(seat) == obs
            assert other.position() != deal.position() or world_is_known(obs)
            assert ask(name, other.observation(seat), 5) == ask(name, obs, 5)
            checked += 1
            if checked % 3 == 0:
                break
    assert checked >= 9


def test_resampled_deals_really_differ() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=9)
    seat = deal.to_move
    assert seat is not None
    other = deal.resample(seat, random.Random(1))
    assert other.hand(1 - seat) != deal.hand(1 - seat)
    assert other.hand(seat) == deal.hand(seat)


# --- the stage-2 solver -------------------------------------------------------------------------------
def brute_force(deal: Deal, side: int) -> float:
    """Every line of play through the engine itself: the best margin for ``side``."""
    if deal.is_over:
        return utility(deal, side)
    values = []
    for a in deal.legal_actions():
        child = deal.clone()
        child.apply(a)
        values.append(brute_force(child, side))
    seat = deal.to_move
    assert seat is not None
    return max(values) if deal.rules.side_of(seat) == side else min(values)


def endgame(rules: Rules, seed: int, cards: int) -> Deal:
    """A stage-2 position with ``cards`` cards in the hand to move (maybe mid-trick)."""
    rng = random.Random(seed)
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
    while not (
        deal.stage == 2 and deal.phase == "play" and len(deal.hand(deal.to_move or 0)) <= cards
    ):
        deal.apply(playout_action(deal, rng, 0.5))
    if seed % 2:
        deal.apply(deal.legal_actions()[-1])
    return deal


@pytest.mark.parametrize(
    "preset,cards",
    [
        ("classic", 4),
        ("russian", 4),
        ("greek", 3),
        ("rubicon", 3),
        ("three", 2),
        ("four", 2),
        # jokers led and discarded, sevens of trumps to the taker (brisques counted flat: the
        # majority count and the sevens scored by their player are not the solver's values)
        ("haitian(trick_scoring=brisques,second_seven_scores=capture)", 3),
        ("haitian(trick_scoring=brisques,second_seven_scores=capture,players=3)", 2),
    ],
)
def test_solver_agrees_with_brute_force(preset: str, cards: int) -> None:
    rules = Rules.from_string(preset)
    for seed in range(4):
        deal = endgame(rules, seed, cards)
        if deal.is_over:
            continue
        seat = deal.to_move
        assert seat is not None
        side = rules.side_of(seat)
        sol, offset = exact_values(deal, side)
        assert set(sol.values) == set(Endgame.from_deal(deal).playable(seat))
        for kind, value in sol.values.items():
            child = deal.clone()
            child.apply(play_action(child, kind))
            assert brute_force(child, side) == pytest.approx(value + offset)
        assert brute_force(deal, side) == pytest.approx(sol.value + offset)
        # the principal variation, played through the engine, reaches that value
        line = deal.clone()
        for _, kind in sol.pv:
            line.apply(play_action(line, kind))
        assert line.is_over and utility(line, side) == pytest.approx(sol.value + offset)


@pytest.mark.parametrize("options", [{}, {"stage2_wild_card": "last-resort"}, {"players": 3}])
def test_solver_plays_the_haitian_stage2_duties(options: dict[str, object]) -> None:
    """The solver's playable cards are the engine's legal plays in Haitian stage-2 positions:
    jokers led (trump if able), jokers as discards or last resort (HAITIAN.md H19, H20)."""
    rules = Rules.preset("haitian", **options)
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
        while not deal.is_over:
            if deal.stage == 2 and deal.phase == "play":
                seat = deal.to_move
                assert seat is not None
                legal = {split_ref(a.cards[0])[0] for a in deal.legal_actions()}
                mine = {CODES[k] for k in Endgame.from_deal(deal).playable(seat)}
                assert mine == legal, (deal.hand(seat), deal.trick)
                checked += 1
            deal.apply(playout_action(deal, rng, 0.5))
    assert checked > 40


def test_solver_node_limit() -> None:
    deal = endgame(Rules.preset("four"), 2, 8)
    with pytest.raises(SolverLimit):
        Endgame.from_deal(deal).solve(0, max_nodes=50)


def test_known_stage_two_is_played_exactly() -> None:
    rules = Rules.preset("classic")
    deal = endgame(rules, 6, 5)
    obs = deal.observation(deal.to_move)
    assert world_is_known(obs)
    sol, offset = exact_values(deal, rules.side_of(obs.seat or 0))
    best = max(sol.values.values())
    for name in ("heuristic", "pimc", "ismcts", "expert", "pimc-c", "ismcts-c"):
        result = make(name, 1).play(obs, TINY)
        assert "exact" in result.info.get("reason", "")
        chosen = result.info["scores"][str(result.action)]
        assert chosen == pytest.approx(best + offset)


# --- budgets, levels and hints ------------------------------------------------------------------------
def test_iteration_budgets_are_respected() -> None:
    obs = next(o for _, o in positions(Rules.preset("classic"), 3, 5) if len(o.legal) >= 3)
    pimc = make("pimc", 1).play(obs, Limit(iterations=4)).info
    assert pimc["visits"] == 4
    ismcts = make("ismcts", 1).play(obs, Limit(iterations=40)).info
    assert ismcts["visits"] == 40
    # a nodes budget stops the search within one world's worth of playouts of it
    small = make("pimc", 1).play(obs, Limit(nodes=2_000)).info
    large = make("pimc", 1).play(obs, Limit(nodes=8_000)).info
    assert 1 <= small["visits"] < large["visits"]
    # one world tries every action: at most that much over the budget
    per_world = large["nodes"] / large["visits"]
    assert 8_000 <= large["nodes"] <= 8_000 + len(obs.legal) * per_world + 100
    tree = make("ismcts", 1).play(obs, Limit(nodes=3_000)).info
    assert 3_000 <= tree["nodes"] <= 3_000 + 200


def test_levels() -> None:
    assert levels() == ["beginner", "easy", "medium", "hard", "expert"]
    assert [LEVELS[n].spec.split(":")[0] for n in levels()] == [
        "random",
        "careless",
        "heuristic",
        "pimc-c",
        "pimc-c",
    ]
    hard, expert = resolve("hard").limit, resolve("expert").limit
    assert hard is not None and expert is not None
    assert hard.iterations is not None and expert.iterations is not None
    assert hard.time is None and expert.time is None  # reproducible: no clock in the levels
    assert expert.iterations > hard.iterations
    assert set(levels()) <= set(names())
    bot = make("hard", seed=3)
    assert isinstance(bot, LevelBot) and bot.name == "hard"
    obs = next(o for _, o in positions(Rules.preset("classic"), 8, 4) if len(o.legal) >= 3)
    # the level's own budget, unless a limit is given
    assert bot.choose(obs) == make("pimc-c", 3).choose(obs, hard)
    assert bot.play(obs).info["visits"] == make("pimc-c", 3).play(obs, hard).info["visits"]
    assert make(LEVELS["expert"].spec, 3).play(obs).info == make("expert", 3).play(obs).info
    # a rollout budget: whole worlds of every candidate still in the running, at least one
    visits = make("expert", 3).play(obs, Limit(iterations=9)).info["visits"]
    assert 9 <= visits < 9 + len(obs.legal)
    # a budget in the spec overrides the level's, as a limit given to play does
    assert make("expert:iterations=9", 3).play(obs).info["visits"] == visits


def test_hint_gives_the_choice_and_the_values() -> None:
    obs = next(o for _, o in positions(Rules.preset("classic"), 12, 6) if len(o.legal) >= 4)
    h = hint(obs, Limit(nodes=600))
    assert isinstance(h, Hint) and isinstance(h.action, Action)
    assert str(h.action) in obs.legal
    assert set(h.values) == set(obs.legal)
    assert h.ranked()[0][1] == max(h.values.values())
    assert h.reason and str(h.action) in h.text()
    assert hint(obs, Limit(nodes=600)) == h  # reproducible
    # the simple level's reasons, and a position with one legal action
    easy = hint(obs, level="easy")
    assert set(easy.values) == set(obs.legal) and str(easy.action) in obs.legal


def test_hints_in_the_terminal_game() -> None:
    from rich.console import Console

    from bezique.tui.game import TerminalGame

    def play(opponent: str, answers: list[str], hints: bool = False) -> str:
        lines = iter(answers)
        console = Console(record=True, width=100, highlight=False)
        game = TerminalGame(
            Rules.preset("classic"),
            opponent=opponent,
            seed=4,
            seat=1,
            console=console,
            ask=lambda prompt: next(lines),
            clear=False,
            hints=hints,
        )
        assert game.run() == 0
        return console.export_text()

    assert "Hint (expert):" in play("random", ["hint", "quit", "y"])
    # --hints: shown at every turn without asking
    assert "Hint (expert):" in play("easy", ["quit", "y"], hints=True)


# --- the arena ------------------------------------------------------------------------------------------
def test_arena_mirrors_and_reports_consistent_json(tmp_path: object) -> None:
    result = run_arena("simple", "random", "classic", decks=3, seed=7)
    data = json.loads(json.dumps(result.to_json()))
    plays = data["plays"]
    assert len(plays) == 6 and data["mirrored"] and data["decks"] == 3
    for deck in range(3):
        mine = [p for p in plays if p["deck"] == deck]
        assert len({p["seed"] for p in mine}) == 1
        assert sorted(p["seating"] for p in mine) == [0, 1]
        a, b = mine
        # the same cards, seats swapped: A's cards in one are B's in the other
        assert a["seed"] == b["seed"] and a["dealer"] == b["dealer"]
    seeds = [p["seed"] for p in plays]
    assert all(seeds.count(s) == 2 for s in seeds)
    summary = data["summary"]
    per_deck = [sum(p["margin"] for p in plays if p["deck"] == d) / 2 for d in range(3)]
    assert summary["margin"]["mean"] == pytest.approx(sum(per_deck) / 3, abs=0.01)
    assert summary["margin"]["low"] <= summary["margin"]["mean"] <= summary["margin"]["high"]
    assert 0 <= summary["deal_win_rate"]["mean"] <= 1
    for p in plays:
        a_side = p["seating"]
        assert p["margin"] == pytest.approx(p["scores"][a_side] - p["scores"][1 - a_side])
        assert p["a_moves"] == len(p["a_seconds"]) > 0
    # the same run again, in two worker processes: the same deals and scores
    again = run_arena("simple", "random", "classic", decks=3, seed=7, jobs=2).to_json()
    assert [(p["seed"], p["scores"]) for p in again["plays"]] == [
        (p["seed"], p["scores"]) for p in plays
    ]


def test_arena_seatings_and_matches() -> None:
    assert seatings(Rules.preset("four")) == [
        [True, False, True, False],
        [False, True, False, True],
    ]
    assert len(seatings(Rules.preset("three"))) == 3
    result = run_arena("random", "random", "rubicon", decks=2, seed=3)
    assert len(result.matches()) <= 4  # per-deal games: a deal is a match
    result = run_arena("oracle:nodes=200", "random", "classic", decks=1, seed=1)
    assert len(result.plays) == 2 and result.plays[0].a_moves > 0
    assert "oracle" not in names()
    assert str(PlayerSpec.parse("pimc:time=2.0,nodes=500")) == "pimc:nodes=500,time=2"
    with pytest.raises(ValueError, match="unknown player"):
        PlayerSpec.parse("nobody")
    with pytest.raises(ValueError, match="no setting 'depth'"):
        PlayerSpec.parse("pimc:depth=3")


def test_arena_command(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "arena.json"
    runner = CliRunner()
    result = runner.invoke(
        app, ["arena", "simple", "random", "--deals", "2", "--seed", "3", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "margin" in result.output and "Elo" in result.output
    data = json.loads(out.read_text())
    assert data["a"] == "simple" and len(data["plays"]) == 4
    bad = runner.invoke(app, ["arena", "simple", "nobody"])
    assert bad.exit_code == 2


def test_arena_deal_score_interval() -> None:
    """The deal-score interval is the normal one on per-deck means, and the Wilson one only
    when every deck went the same way (docs/strength.md)."""
    from bezique.arena.runner import ArenaResult, Play

    def result(outcomes: list[float]) -> ArenaResult:
        plays = [
            Play(
                deck=d,
                seed=d,
                seating=s,
                dealer=0,
                scores=[0.0, 0.0],
                margin=0.0,
                result=r,
                recent_sides=[],
                wins_game=None,
            )
            for d, r in enumerate(outcomes)
            for s in (0, 1)
        ]
        return ArenaResult(
            PlayerSpec.parse("random"),
            PlayerSpec.parse("random"),
            Rules.preset("classic"),
            "classic",
            1,
            len(outcomes),
            plays,
        )

    mixed = result([1.0, 0.0, 1.0, 1.0]).deal_score()
    assert mixed.mean == pytest.approx(0.75) and mixed.low < 0.75 < mixed.high <= 1.0
    allwon = result([1.0] * 10).deal_score()
    # a collapsed normal interval would be [1, 1]; Wilson on 10 of 10 reaches down to ~0.72
    assert allwon.mean == 1.0 and 0.6 < allwon.low < 0.8 and allwon.high == 1.0


def test_arena_statistics_at_the_edges() -> None:
    """A perfect score has no finite Elo, one deck gives no interval: the text shows "—" and
    the JSON null, so the JSON stays standard (docs/strength.md)."""
    import math

    from bezique.arena.stats import Estimate, elo, elo_interval

    assert elo(0.5) == pytest.approx(0.0) and elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    perfect = elo_interval(Estimate(1.0, 0.8, 1.0, 10))
    assert perfect.text(0) == "— [241, —]"
    assert perfect.as_dict() == {"mean": None, "low": 240.824, "high": None, "n": 10}
    one = run_arena("simple", "random", "classic", decks=1, seed=2)
    data = one.to_json()
    json.dumps(data, allow_nan=False)  # raises on NaN or infinity
    assert data["summary"]["margin"]["low"] is None and "—" in one.text()


def test_arena_runs_pool_into_one(tmp_path: object) -> None:
    """Runs with different seeds pool into one result over all their decks; matches are built
    within each run; a run read back from its JSON gives the same figures (docs/strength.md)."""
    from pathlib import Path

    from bezique.arena import ArenaResult, pool

    one = run_arena("simple", "random", "classic", decks=3, seed=5)
    two = run_arena("simple", "random", "classic", decks=4, seed=6)
    back = ArenaResult.from_json(json.loads(json.dumps(one.to_json())))
    assert back.summary() == one.summary()
    both = pool([one, two])
    assert both.decks == 7 and len(both.plays) == 14
    assert sorted({p.deck for p in both.plays}) == list(range(7))
    assert len(both.matches()) == len(one.matches()) + len(two.matches())
    per_deck = one._per_deck(lambda p: p.margin) + two._per_deck(lambda p: p.margin)
    assert both.margin().mean == pytest.approx(sum(per_deck) / 7)
    data = both.to_json()
    assert data["runs"] == [{"seed": 5, "decks": 3}, {"seed": 6, "decks": 4}]
    assert "2 runs pooled (seeds 5, 6)" in both.text()
    # pooled again with a third run, through the JSON
    three = run_arena("simple", "random", "classic", decks=1, seed=7)
    again = pool([ArenaResult.from_json(data), three])
    assert again.runs == ((5, 3), (6, 4), (7, 1)) and again.decks == 8
    with pytest.raises(ValueError, match="seed 5 is in two runs"):
        pool([one, one])
    with pytest.raises(ValueError, match="cannot pool"):
        pool([one, run_arena("random", "simple", "classic", decks=1, seed=8)])
    with pytest.raises(ValueError, match="not an arena result: no"):
        ArenaResult.from_json({"a": "simple"})
    with pytest.raises(ValueError, match="not a valid arena result"):
        ArenaResult.from_json({**one.to_json(), "plays": [{"deck": "x"}]})
    wrong = one.to_json()
    wrong["plays"][1]["deck"] = "x"
    with pytest.raises(ValueError, match=r"plays\[1\] has a value of a wrong type"):
        ArenaResult.from_json(wrong)
    # the command: two files pooled, a bad file refused with a one-line error
    d = Path(str(tmp_path))
    (d / "one.json").write_text(json.dumps(one.to_json()))
    (d / "two.json").write_text(json.dumps(two.to_json()))
    (d / "bad.json").write_text("[1, 2")
    runner = CliRunner()
    ok = runner.invoke(
        app, ["arena-pool", str(d / "one.json"), str(d / "two.json"), "--json", str(d / "p.json")]
    )
    assert ok.exit_code == 0, ok.output
    assert "7 decks x 2 seatings = 14 deals" in ok.output
    assert json.loads((d / "p.json").read_text())["decks"] == 7
    bad = runner.invoke(app, ["arena-pool", str(d / "one.json"), str(d / "bad.json")])
    assert bad.exit_code == 2 and "bad.json" in bad.output


def test_two_players_compare_deck_by_deck_on_the_same_decks() -> None:
    """``paired_margin``: the mean of the per-deck margin differences over the decks two runs
    share (docs/strength.md uses it to compare two players against one opponent)."""
    from bezique.arena import paired_margin

    one = run_arena("simple", "random", "classic", decks=4, seed=5)
    two = run_arena("heuristic", "random", "classic", decks=3, seed=5)
    gain = paired_margin(two, one)
    assert gain.n == 3
    first = one._per_deck(lambda p: p.margin)
    second = two._per_deck(lambda p: p.margin)
    assert gain.mean == pytest.approx(sum(second[d] - first[d] for d in range(3)) / 3)
    assert paired_margin(one, one).mean == 0.0
    with pytest.raises(ValueError, match="share no deck"):
        paired_margin(one, run_arena("simple", "random", "classic", decks=1, seed=6))
    with pytest.raises(ValueError, match="different opponents"):
        paired_margin(one, run_arena("random", "simple", "classic", decks=1, seed=5))
