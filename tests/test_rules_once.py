"""Each rule written once, in the core: the players, the screens, the score-keeper and the
environments call the core's functions instead of writing a rule again.

Two kinds of test keep it so: the core's helpers compared with the rule they express on many
positions (and with what the callers did before, where that was right), and a reading of the
source that fails when a copy of a rule comes back outside the core.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from bezique import Deal, Rules
from bezique.bots.simple import SimpleBot
from bezique.bots.view import View
from bezique.core.cards import ACE, ALL_KINDS, SEVEN, WILD, kind
from bezique.core.scoring import (
    kind_values,
    seven_capture_points,
    trick_sevens,
    valued_kind_values,
    valued_trick_values,
)
from bezique.core.tricks import beats, count_beaters, follow_duty

SRC = Path(__file__).resolve().parent.parent / "src" / "bezique"


def _defined(path: Path) -> set[str]:
    """Every function and class name defined anywhere in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        n.name
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }


# --- the beating rule as counts --------------------------------------------------------------


@pytest.mark.parametrize("lead_wins", [False, True])
def test_count_beaters_is_beats_counted(lead_wins: bool) -> None:
    """RULES.md 1.5 (a higher card of the suit or a trump beats; a wild card never wins, or with
    wild_card_lead_wins wins when led unless trumped, HAITIAN.md H16), counted over 2,000 random
    multisets of cards against every kind."""
    rng = random.Random(36)
    for _ in range(2000):
        counts = [rng.choice((0, 0, 0, 1, 2)) for _ in range(ALL_KINDS)]
        trump = rng.choice((None, 0, 1, 2, 3))
        for k in range(ALL_KINDS):
            want = sum(
                1
                for c in range(ALL_KINDS)
                for _ in range(counts[c])
                if beats(c, k, trump, lead_wins)
            )
            assert count_beaters(k, counts, trump, lead_wins) == want


def test_the_view_counts_beaters_by_the_core() -> None:
    """The heuristic players' count of unseen beaters is the core's, on real observations of
    every preset."""
    for preset in Rules.presets():
        deal = Deal.new(Rules.preset(preset), seed=3)
        rng = random.Random(3)
        for _ in range(40):
            if deal.is_over:
                break
            seat = deal.to_move
            assert seat is not None
            view = View(deal.observation(seat))
            for k in range(ALL_KINDS):
                assert view.beaters_unseen(k) == count_beaters(
                    k, view.unseen, view.trump, view.rules.wild_card_lead_wins
                )
            deal.apply(rng.choice(deal.legal_actions()))


# --- the stage-2 duties --------------------------------------------------------------------------


def _fake_view(rules: Rules, trump: int | None) -> View:
    return cast(View, SimpleNamespace(seat=0, trump=trump, rules=rules))


def test_after_a_led_joker_the_follower_must_trump() -> None:
    """HAITIAN.md H20: in phase 3, after a led joker a follower holding trumps must trump (a
    joker has no suit to follow: another joker is no answer)."""
    rules = Rules.preset("haitian")
    hearts = 1
    cards = [kind(0, SEVEN), kind(hearts, ACE), WILD]
    replies = SimpleBot._replies(_fake_view(rules, hearts), WILD, cards)
    assert replies == [kind(hearts, ACE)]


@pytest.mark.parametrize("preset", ["classic", "russian", "haitian", "old-russian", "four"])
def test_the_simple_bot_follows_the_core_duties(preset: str) -> None:
    """RULES.md 2.3 (stage 2: follow suit, head, trump): the simple bot's reading of what the
    opponent may answer is the core's :func:`follow_duty`, on 3,000 random hands and leads."""
    rules = Rules.preset(preset)
    rng = random.Random(7)
    kinds = sorted(set(rules.pack_kinds))
    for _ in range(3000):
        trump = rng.choice((None, 0, 1, 2, 3))
        led = rng.choice(kinds)
        cards = sorted(rng.choice(kinds) for _ in range(rng.randint(1, 8)))
        got = SimpleBot._replies(_fake_view(rules, trump), led, cards)
        want = follow_duty(cards, range(ALL_KINDS), [(0, led)], 2, trump, rules)
        assert got == list(want)


# --- what a trick is worth -----------------------------------------------------------------------


def test_valued_kind_values_are_the_valued_trick_values_by_kind() -> None:
    """RULES.md 2.2 (brisques score the taker; Rubicon's brisques only settle ties)."""
    for preset in Rules.presets():
        rules = Rules.preset(preset)
        per_rank, _ = valued_trick_values(rules)
        values = valued_kind_values(rules)
        assert len(values) == len(kind_values(rules)) == ALL_KINDS
        assert values[WILD] == 0
        assert all(values[k] == per_rank[k & 7] for k in range(WILD))


def test_sevens_in_a_trick() -> None:
    """HAITIAN.md section 4: play-always scores each seven of trumps for its player, capture
    for the trick's taker; other settings score none in the trick."""
    trump = 2
    seven = kind(trump, SEVEN)
    trick = [(0, seven), (1, kind(trump, ACE)), (2, seven)]
    always = Rules.preset("haitian")
    assert trick_sevens(always, trump, trick, 1) == [(0, 10, False), (2, 10, False)]
    assert seven_capture_points(always) == 0
    capture = Rules.preset("haitian", second_seven_scores="capture")
    assert trick_sevens(capture, trump, trick, 1) == [(1, 10, True), (1, 10, True)]
    assert seven_capture_points(capture) == 10
    assert trick_sevens(Rules.preset("classic"), trump, trick, 1) == []


# --- no copy comes back ----------------------------------------------------------------------


def test_no_copy_of_a_rule_outside_the_core() -> None:
    """The copies the players once held are gone: the simple bot's own follow duties, the
    exact stage-2 block of the heuristic and the oracle (one helper in the solver)."""
    assert "_forced_replies" not in _defined(SRC / "bots" / "simple.py")
    for name in ("heuristic.py", "oracle.py"):
        text = (SRC / "bots" / name).read_text(encoding="utf-8")
        assert "exact_values" not in text and "exact_choice" in text, name
    solver = (SRC / "bots" / "solver.py").read_text(encoding="utf-8")
    assert "second_seven_scores" not in solver
    view = (SRC / "bots" / "view.py").read_text(encoding="utf-8")
    assert "count_beaters" in view and "def beaters_unseen" in view


# --- settling a per-deal game ------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["rubicon", "chinese", "eight-pack"])
def test_the_settlement_breakdown_adds_up_and_is_what_the_screen_prints(preset: str) -> None:
    """RULES.md 2.5-2.7 (game bonus and difference, or the rubicon; 100 more for a loser under
    100): the settlement's terms add up to the payout, and the terminal prints those terms."""
    from bezique.core.match import settle_points
    from bezique.tui.render import settlement_text

    rng = random.Random(5)
    for rounding in (False, True):
        rules = Rules.preset(preset, round_to_hundreds=rounding)
        for _ in range(500):
            scores = [rng.randrange(0, 4000, 10) for _ in range(2)]
            brisques = [rng.randrange(0, 200, 10) for _ in range(2)]
            s = settle_points(rules, scores, brisques)
            if s.winner is None:
                assert s.parts == () and s.payout == (0, 0)
                continue
            assert sum(v for _, v in s.parts) == s.payout[s.winner]
            w, lose = s.paid_scores
            assert ("loser under 100" in dict(s.parts)) == (lose < 100)
            text = settlement_text(rules, s, ["North", "South"]).plain
            assert text.endswith(f"= {s.payout[s.winner]}.") or "Brisques" in text
            for name, value in s.parts:
                assert str(value if name != "difference" else f"({w} - {lose})") in text


def test_the_screens_settle_and_count_brisques_by_the_core() -> None:
    """The terminal's settlement text rounds nothing itself and names no brisque ranks."""
    render = (SRC / "tui" / "render.py").read_text(encoding="utf-8")
    assert "round_to_hundreds" not in render and "< 100" not in render
    for name in ("render.py", "hints.py"):
        text = (SRC / "tui" / name).read_text(encoding="utf-8")
        assert '"AT"' not in text and "BRISQUE =" not in text, name


def test_the_rules_text_reads_the_options_themselves() -> None:
    """The rules in words read each option from the Rules value (no stand-in defaults), and the
    turn-up bonuses come from scoring: a rubicon game says that a loser under 100 gives the
    winner small_loser_bonus more (RULES.md 2.7), with the value set."""
    from bezique.core.cards import ACE, HEARTS, SPADES
    from bezique.core.scoring import turn_up_bonus
    from bezique.tui.rules_text import rules_sections

    text = (SRC / "tui" / "rules_text.py").read_text(encoding="utf-8")
    assert not re.search(r"getattr\(\w+, [\"']", text) and "_get(" not in text

    def words(rules: Rules) -> str:
        return " ".join(s for _, sentences in rules_sections(rules) for s in sentences)

    rubicon = Rules.preset("rubicon")
    assert f"the winner scores {rubicon.small_loser_bonus} more" in words(rubicon)
    assert "the winner scores 250 more" in words(Rules.preset("rubicon", small_loser_bonus=250))
    greek = Rules.preset("greek")
    black = turn_up_bonus(greek, kind(SPADES, ACE), 0)[0][1]
    red = turn_up_bonus(greek, kind(HEARTS, ACE), 0)[0][1]
    assert f"a black ace gives the dealer {black}, a red ace {red}" in words(greek)


def test_one_card_column_for_the_opponent_models() -> None:
    """The play model, the belief model and the fitting script index cards by one function."""
    pattern = re.compile(r"0 if \w+ >> 3 == \w+ else 8")
    root = SRC.parent.parent
    for path in [*SRC.rglob("*.py"), *(root / "scripts").glob("*.py")]:
        if path.name == "inference.py":
            continue
        assert not pattern.search(path.read_text(encoding="utf-8")), path


def test_the_penalties_are_the_cores() -> None:
    """RULES.md 2.1.4 (facts C47-C49): the keeper's offences are the core's, the Russian extra
    card following extra_card_penalty; the keeper writes no penalty figure of its own."""
    from bezique.core.penalties import offences
    from bezique.keeper import OFFENCES, Keeper

    for scheme in ("russian", "victorian", "no-further-points", "none"):
        for cost in (50, 60):
            rules = Rules.preset("classic", penalty_scheme=scheme, extra_card_penalty=cost)
            assert Keeper(rules, ["Ann", "Bob"]).offences() == offences(rules)
    assert offences(Rules.preset("russian", extra_card_penalty=60))["extra-card"][0] == -60
    assert OFFENCES["victorian"]["too-many-cards"][0] == 100
    for name in ("sheet.py", "keeper.py"):
        text = (SRC / "keeper" / name).read_text(encoding="utf-8")
        assert '"revoke"' not in text and "-120" not in text, name


def test_the_environments_share_their_helpers() -> None:
    """Gymnasium and PettingZoo build the action mask and guard the episode with envs.common's
    helpers, not each with its own copy."""
    for name in ("gymnasium_env.py", "pettingzoo_env.py"):
        text = (SRC / "envs" / name).read_text(encoding="utf-8")
        assert "np.zeros(enc.num_actions" not in text and "mask[i] = 1" not in text, name
        assert 'raise RuntimeError("call reset() first")' not in text, name
        assert "started(self._episode)" in text and ".legal_mask(" in text, name
