"""Every whole-number option of ``Rules`` has a documented range, refused by ``Rules`` itself:
a rules string such as ``classic(wild_cards=100000000)`` once built a pack
of a hundred million cards before anything said no.  The ranges hold every preset of RULES.md
with room to spare (the largest: old Russian, decision 11, 10 packs of A K Q J 10, 12 nines,
2 wild cards, 18 cards a hand; the largest points: Rubicon's quintuple bezique 9000, section 2.5
and fact E01's eight-pack scores)."""

from __future__ import annotations

import time
from dataclasses import fields

import pytest

from bezique import Rules
from bezique.core.match import Match
from bezique.core.records import GameRecord, RecordError, record_match


def whole_number_options() -> list[str]:
    return [f.name for f in fields(Rules) if f.name != "name" and type(f.default) is int]


@pytest.mark.parametrize("name", whole_number_options())
def test_every_whole_number_option_has_a_range_refused_on_both_sides(name: str) -> None:
    span = Rules.option_range(name)
    assert span is not None
    low, high = span
    for bad in (low - 1, high + 1, 10**9):
        with pytest.raises(ValueError, match=rf"option {name} must be {low} to {high}: got {bad}"):
            Rules.preset("classic", **{name: bad})


def test_every_preset_is_inside_the_ranges() -> None:
    for preset in Rules.presets():
        for players in (2, 3, 4):
            try:
                rules = Rules.preset(preset, players=players)
            except ValueError as e:
                assert "must be" not in str(e), e  # a count the preset does not seat
                continue
            for name in whole_number_options():
                low, high = Rules.option_range(name) or (0, 0)
                assert low <= getattr(rules, name) <= high, (preset, players, name)


@pytest.mark.parametrize(
    "text",
    [
        "classic(wild_cards=100000000)",
        "classic(packs=30000)",
        "classic(extra_nines=50000000)",
        "classic(hand_size=1000000,packs=100000)",
        "classic(target=100000000000)",
        "classic(four_aces=99999999999999)",
    ],
)
def test_huge_options_are_refused_at_once(text: str) -> None:
    """Refused before a pack is built: in well under a second, with a message naming the
    option and its range."""
    t0 = time.perf_counter()
    with pytest.raises(ValueError, match=r"option \w+ must be \d+ to \d+: got \d+"):
        Rules.from_string(text)
    assert time.perf_counter() - t0 < 0.5


def test_too_many_deal_packets_are_refused() -> None:
    with pytest.raises(ValueError, match="deal_packets must have at most 24 packets: got 30"):
        Rules.preset("classic", deal_packets=(1,) * 30)


def test_a_record_with_rules_out_of_range_is_refused() -> None:
    """Records inherit the ranges: a record whose rules string is out of range is not read."""
    text = record_match(Match(Rules.preset("classic"), seed=3)).to_json()
    bad = text.replace('"classic"', '"classic(wild_cards=100000000)"', 1)
    assert bad != text
    with pytest.raises(RecordError, match="wild_cards must be 0 to 8"):
        GameRecord.from_json(bad)
