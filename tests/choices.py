"""Fixed positions and the choices players make there: the data behind tests/test_bots_golden.py.

A position is kept as the moves that lead to it (rules, deck seed, dealer and actions), so it is
rebuilt by the core alone.  :func:`record` asks a player for its choice in each position, with
the values it compared, and the committed files under ``tests/data/`` hold what it answered.

Run ``python tests/choices.py levels`` to write ``tests/data/level_choices.json`` again (only
when a level is meant to play differently), ``python tests/choices.py trials`` for
``tests/data/trial_choices.json`` (the tried settings, by their spec strings).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT / "src"))

from bezique import Deal, Rules  # noqa: E402
from bezique.bots import Limit, make  # noqa: E402

DATA = ROOT / "tests" / "data"
LEVEL_FILE = DATA / "level_choices.json"
TRIAL_FILE = DATA / "trial_choices.json"

BOT_SEED = 11
"""The seed every recorded player is built with."""


@dataclass(frozen=True)
class Position:
    """A decision: the deal rebuilt from its seed and the moves played so far."""

    key: str
    rules: str
    seed: int
    dealer: int
    moves: tuple[str, ...]

    def deal(self) -> Deal:
        """The deal at this position (a fresh copy)."""
        deal = Deal.new(Rules.from_string(self.rules), seed=self.seed, dealer=self.dealer)
        for move in self.moves:
            deal.apply(move)
        return deal

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "rules": self.rules,
            "seed": self.seed,
            "dealer": self.dealer,
            "moves": list(self.moves),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Position:
        return cls(data["key"], data["rules"], data["seed"], data["dealer"], tuple(data["moves"]))


def _walk(rules: str, seed: int, dealer: int, picks: list[int], tag: str) -> list[Position]:
    """Play a deal by the simple rules of thumb (seeded) and keep the decisions at the
    ``picks``-th choices (counting only decisions with more than one legal action)."""
    deal = Deal.new(Rules.from_string(rules), seed=seed, dealer=dealer)
    players = {s: make("simple", seed=seed * 10 + s) for s in range(deal.rules.players)}
    moves: list[str] = []
    found: list[Position] = []
    choice = 0
    while not deal.is_over and len(found) < len(picks):
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        if len(obs.legal) > 1:
            if choice in picks:
                found.append(Position(f"{tag}-{choice}", rules, seed, dealer, tuple(moves)))
            choice += 1
        action = str(players[seat].choose(obs))
        deal.apply(action)
        moves.append(action)
    return found


def positions() -> list[Position]:
    """The fixed positions: classic deals at every stage (the first tricks, the middle and the
    end of the stock, declarations, stage 2) and a few from other presets."""
    out: list[Position] = []
    for seed in range(1, 7):
        out += _walk("classic", seed, seed % 2, [1, 14, 30, 44, 50, 58], f"classic-s{seed}")
    out += _walk("three", 1, 0, [3, 30], "three-s1")
    out += _walk("four", 2, 1, [5, 40], "four-s2")
    out += _walk("rubicon", 3, 0, [4, 35], "rubicon-s3")
    out += _walk("no-trump", 4, 1, [6, 28], "no-trump-s4")
    out += _walk("chinese", 5, 0, [10, 60], "chinese-s5")
    return out


def answer(player: Any, position: Position, limit: Limit | None) -> dict[str, Any]:
    """What ``player`` (a bot, or an arena player such as an oracle) chooses at ``position``:
    the action, the values it compared (rounded) and its count of visits."""
    deal = position.deal()
    seat = deal.to_move
    assert seat is not None
    if hasattr(player, "play_with_deal"):
        result = player.play_with_deal(deal, limit)
    else:
        result = player.play(deal.observation(seat), limit)
    assert str(result.action) in deal.observation(seat).legal
    scores = {a: round(float(v), 2) for a, v in sorted(result.info.get("scores", {}).items())}
    return {"action": str(result.action), "scores": scores, "visits": result.info.get("visits")}


def record(
    build: Callable[[int], Any], chosen: list[Position], limit: Limit | None
) -> dict[str, dict[str, Any]]:
    """The answers of a freshly built player (seeded :data:`BOT_SEED`) at each position."""
    player = build(BOT_SEED)
    return {p.key: answer(player, p, limit) for p in chosen}


def _builder(spec: str) -> Callable[[int], Any]:
    """A function building the player ``spec`` from a seed."""
    return lambda seed: make(spec, seed)


def uncapped(spec: str) -> Limit | None:
    """The budget of ``spec`` without its CPU cap: its rollouts alone, so a recorded choice
    does not depend on how busy the machine is (a cap on CPU seconds stops the search wherever
    the clock says, and under load that can be before the rollouts end)."""
    from bezique.bots.registry import resolve

    limit = resolve(spec).limit
    return None if limit is None else replace(limit, cpu_budget=None)


def write_levels() -> None:
    """Record every level at every fixed position."""
    from bezique.bots import levels

    chosen = positions()
    data = {
        "positions": [p.to_json() for p in chosen],
        "seed": BOT_SEED,
        "choices": {lv: record(_builder(lv), chosen, uncapped(lv)) for lv in levels()},
    }
    LEVEL_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    what = sys.argv[1:] or ["levels"]
    if "levels" in what:
        write_levels()


TRIAL_LIMIT = Limit(iterations=200)
"""The budget the tried search settings are compared at, besides their own."""

OWN_BUDGET_POSITIONS = 6
"""Positions at which a tried level is also asked at its own budget (the first ones of
:func:`trial_positions`, spread over the stages)."""


def trial_positions() -> list[Position]:
    """The positions the tried settings are compared on: classic ones at every stage (first
    tricks, the end of the stock, declarations, stage 2) and one of each other preset."""
    every = {p.key: p for p in positions()}
    keys = [
        "classic-s1-14",
        "classic-s3-44",
        "classic-s2-30",
        "classic-s1-58",
        "four-s2-5",
        "rubicon-s3-4",
        "classic-s4-1",
        "classic-s5-30",
        "classic-s4-50",
        "classic-s6-58",
        "three-s1-3",
        "no-trump-s4-6",
    ]
    return [every[k] for k in keys]


def write_trials(players: dict[str, Callable[[int], Any]]) -> None:
    """Record each tried player, by the name it had, at :data:`TRIAL_LIMIT` on every trial
    position and at its own budget on the first :data:`OWN_BUDGET_POSITIONS` of them."""
    chosen = trial_positions()
    data: dict[str, Any] = {
        "positions": [p.to_json() for p in chosen],
        "seed": BOT_SEED,
        "limit": {"iterations": TRIAL_LIMIT.iterations},
        "at_limit": {},
        "own_budget": {},
    }
    for name, build in players.items():
        data["at_limit"][name] = record(build, chosen, TRIAL_LIMIT)
        data["own_budget"][name] = record(build, chosen[:OWN_BUDGET_POSITIONS], None)
    TRIAL_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
