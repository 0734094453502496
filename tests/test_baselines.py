"""The outside baseline: OpenSpiel's IS-MCTS with its utility scale (lab/benchmarks/openspiel_tune.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bezique import Deal, Rules

pytest.importorskip("open_spiel")

from bezique.envs.openspiel_bot import DEFAULT_SCALE, DEFAULT_UCT_C, OpenSpielISMCTS


def position() -> Deal:
    deal = Deal.new(Rules.preset("classic"), seed=12)
    for _ in range(6):
        deal.apply(deal.legal_actions()[0])
    return deal


def test_scaling_the_utility_is_scaling_the_exploration() -> None:
    deal = position()
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)

    def run(**options: Any) -> object:
        return OpenSpielISMCTS(3, iterations=40, **options).play(obs).info["scores"]

    raw = run(uct_c=2.0, scale=1.0)
    assert run(uct_c=0.5, scale=4.0) == raw  # 0.5 exploration in units of 4 points
    assert run(uct_c=2.0, scale=200.0) != raw  # a real change of the search


def test_defaults_and_bad_settings() -> None:
    bot = OpenSpielISMCTS(1)
    assert (bot.uct_c, bot.scale, bot.utility) == (DEFAULT_UCT_C, DEFAULT_SCALE, "points")
    bads: list[dict[str, Any]] = [{"uct_c": -1.0}, {"scale": 0.0}]
    for bad in bads:
        with pytest.raises(ValueError, match="uct_c must be"):
            OpenSpielISMCTS(1, **bad)
