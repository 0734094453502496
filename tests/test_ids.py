"""Integer action ids, native to the core (bezique.core.ids; docs/api.md "Action ids").

``tests/data/action_ids_v1.json`` was written by the environments' id table before the ids moved
into the core (``envs/encoding.py``, "Action ids (version 1)").  Version 2 only enlarged the
alternate block: every id of version 1 must keep its meaning, since the compiled engine and
trained agents rely on it.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from bezique import Deal, IllegalAction, Rules
from bezique.core.ids import IDS_VERSION, ActionIds, action_ids

GOLDEN = json.loads((Path(__file__).parent / "data" / "action_ids_v1.json").read_text())


def test_the_golden_file_covers_every_preset() -> None:
    assert set(Rules.presets()) - set(GOLDEN) <= {"haitian"}
    # the greek entry was recorded before the preset's second seven scored on winning a trick
    # (seed 000 l.57): it keeps the rules it was recorded with, whose ids must not change
    assert GOLDEN["greek"]["rules"] == "greek(second_seven_scores=declare)"


def _version_1_alternates(ids: ActionIds) -> int:
    """The size of version 1's alternate block for these ids' rules."""
    return (8 if ids.rules.meld_reforming else 4) * max(ids.copies) + 8


@pytest.mark.parametrize("preset", sorted(GOLDEN))
def test_ids_keep_their_version_1_meaning(preset: str) -> None:
    """Version 2 is version 1 with a larger alternate block: the same descriptions for every id
    version 1 had, the same ranges but the last, and the same id for every legal action along
    random deals (half of them declaring whenever they can) as the version-1 table recorded."""
    assert IDS_VERSION == 2
    g = GOLDEN[preset]
    rules = Rules.from_string(g["rules"])
    ids = action_ids(rules)
    assert rules.num_actions == ids.num_actions
    assert ids.num_actions - ids.num_alternates == g["num_actions"] - _version_1_alternates(ids)
    assert ids.num_alternates > _version_1_alternates(ids)
    desc = "\n".join(ids.describe(i) for i in range(g["num_actions"]))
    assert hashlib.sha256(desc.encode()).hexdigest() == g["describe_sha256"]
    old_last = f"{ids.alt_base}-{g['num_actions'] - 1}"
    assert ids.table().replace(f"{ids.alt_base}-{ids.num_actions - 1}", old_last) == g["table"]
    for rec in g["deals"]:
        deal = Deal.new(rules, seed=rec["seed"], dealer=rec["dealer"])
        rng = random.Random(rec["choice_seed"])
        for step in rec["steps"]:
            pairs = [[i, str(a)] for i, a in deal.legal_id_actions()]
            assert pairs == step
            assert deal.legal_ids() == [i for i, _ in step]
            obs = deal.observation(deal.to_move)
            assert sorted(zip(obs.legal_ids, obs.legal, strict=True)) == [tuple(p) for p in step]
            actions = deal.legal_actions()
            melds = [a for a in actions if a.verb == "meld"]
            action = rng.choice(melds if melds and rec["greedy"] else actions)
            deal.apply_id(deal.action_id(action))
            assert deal.history[-1] == str(action)
        assert deal.is_over and deal.legal_ids() == []


@pytest.mark.parametrize("preset", ["classic", "four", "rubicon", "eight-pack", "old-russian"])
def test_ids_from_a_deal_equal_ids_from_its_observation(preset: str) -> None:
    """The deal's ids and those worked out from the notation of an observation alone (what a
    program holding no deal uses) agree, and are one-to-one on the legal actions."""
    rules = Rules.preset(preset)
    ids = action_ids(rules)
    alternates = 0
    for seed in range(3):
        deal = Deal.new(rules, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            pairs = deal.legal_id_actions()
            assert len({i for i, _ in pairs}) == len(pairs) == len(deal.legal_actions())
            assert all(0 <= i < ids.num_actions for i, _ in pairs)
            alternates += sum(i >= ids.alt_base for i, _ in pairs)
            obs = deal.observation(deal.to_move)
            assert ids.from_observation(obs) == [(i, str(a)) for i, a in pairs]
            for i, a in pairs:
                assert deal.id_action(i) == a and deal.action_id(a) == i
                assert deal.action_id(str(a)) == i
            actions = deal.legal_actions()
            melds = [a for a in actions if a.verb == "meld"]
            deal.apply(rng.choice(melds or actions))
    if preset == "eight-pack":  # declarations that differ only in a copy's history occur
        assert alternates > 0


def test_apply_id_plays_like_apply() -> None:
    rules = Rules.preset("rubicon")
    a, b = Deal.new(rules, seed=4), Deal.new(rules, seed=4)
    rng = random.Random(1)
    while not a.is_over:
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply_id(b.action_id(action))
        assert a.position() == b.position()


def test_bad_ids_are_refused_and_change_nothing() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=3)
    before = deal.position()
    legal = deal.legal_ids()
    illegal = next(i for i in range(deal.rules.num_actions) if i not in legal)
    cases = [
        (illegal, "is not legal now; legal ids: "),
        (-1, "no action id -1: ids run from 0 to 1104"),
        (deal.rules.num_actions, "no action id 1105"),
        ("5", "an action id is an int"),
        (True, "an action id is an int"),
        (2.0, "an action id is an int"),
    ]
    for bad, message in cases:
        with pytest.raises(IllegalAction, match=message):
            deal.apply_id(bad)  # type: ignore[arg-type]
        assert deal.position() == before
    with pytest.raises(IllegalAction, match="must play a card now, not pass"):
        deal.action_id("pass")
    deal.apply_id(legal[0])
    assert deal.history == [str(action_ids(deal.rules).describe(legal[0]))]


def test_describe_names_every_block() -> None:
    classic = action_ids(Rules.preset("classic"))
    assert classic.describe(0) == "pass" and classic.describe(1) == "exchange"
    assert classic.describe(classic.play_base) == "play AS"
    assert classic.describe(classic.play_base + 1) == "play AS (declared, history 1)"
    assert classic.describe(classic.meld_base).startswith("meld ")
    assert classic.describe(classic.alt_base) == "alternate declaration 0"
    with pytest.raises(ValueError, match="no action id"):
        classic.describe(classic.num_actions)
    partners = action_ids(Rules.preset("four", partner_declaring="winner-or-partner"))
    assert partners.describe(2) == "partner"
    assert action_ids(Rules.preset("rubicon")).exchange_id is None


def test_a_position_of_real_play_needing_61_alternates() -> None:
    """Deals played by the heuristic and learned players keep declared cards and declare them
    again: this old Russian position (wild cards, eight copies of a kind) offers 87
    declarations, 61 of them on alternate ids, more than version 1's block of 40 held (it
    raised RuntimeError there).  Both engines give every one its own id."""
    from bezique import fast

    position = (Path(__file__).parent / "data" / "old_russian_61_alternates.position").read_text()
    deal = Deal.from_position(position.strip())
    ids = action_ids(deal.rules)
    pairs = deal.legal_id_actions()
    assert len(pairs) == len(deal.legal_actions()) == 87
    assert len({i for i, _ in pairs}) == 87
    assert sum(i >= ids.alt_base for i, _ in pairs) == 61 > _version_1_alternates(ids)
    assert all(i < ids.num_actions for i, _ in pairs)
    assert fast.supports(deal.rules)
    assert fast.FastDeal.from_deal(deal).legal_id_actions() == pairs
