"""Write the behaviour fingerprint: a hash of every preset's play by the deterministic players.

For every preset and each of a few seeds, a whole deal is played by each of the seeded players
below (every seat by the same player); the script hashes, step by step, the seat to move, its
observation (the position string), the action chosen, the points, and every scoring event, and
writes one SHA-256 per (preset, player, seed) to ``tests/data/fingerprint.txt``.
``tests/test_fingerprint.py`` plays the deals again and compares: a change to the rules or to how
the players choose shows up there, so a refactoring that should change nothing can prove it::

    python scripts/make_fingerprint.py          # write tests/data/fingerprint.txt
    python scripts/make_fingerprint.py --check  # exit 1 if the committed file differs
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from bezique import Deal, Rules
from bezique.bots.base import Limit
from bezique.bots.oracle import OracleBot
from bezique.bots.registry import make

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "fingerprint.txt"
SEEDS = (1, 2)
#: The players: each is seeded, and none reads a clock (budgets count engine steps);
#: ``oracle`` is the cheating player's exact stage 2 after the simple bot's stage 1.
PLAYERS = ("random", "simple", "careless", "heuristic", "oracle")
ORACLE_LIMIT = Limit(nodes=200)
HEADER = (
    "# Behaviour fingerprint: preset player seed sha256 of the whole deal's play "
    "(scripts/make_fingerprint.py)."
)


def _chooser(player: str, seed: int) -> Callable[[Deal], str]:
    """A function from the deal to the action its seat to move plays, as notation."""
    if player == "oracle":
        # the oracle's stage 1 plays whole deals out per action (too slow for a test): the
        # simple bot plays it, the oracle the exact stage 2
        oracle = OracleBot(seed)
        oracle.solver_nodes = 5_000
        simple = make("simple", seed)

        def choose(deal: Deal) -> str:
            if deal.stage == 2 and deal.phase == "play":
                return str(oracle.play_with_deal(deal, ORACLE_LIMIT).action)
            return str(simple.choose(deal.observation(deal.to_move)))

        return choose
    bot = make(player, seed)
    return lambda deal: str(bot.choose(deal.observation(deal.to_move)))


def fingerprint(preset: str, player: str, seed: int) -> str:
    """The SHA-256 of one deal of ``preset`` dealt from ``seed``, played by ``player``."""
    rules = Rules.preset(preset)
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
    choose = _chooser(player, seed)
    digest = hashlib.sha256()

    def put(*parts: object) -> None:
        digest.update(("\x1f".join(map(str, parts)) + "\n").encode())

    put("start", deal.initial, deal.trump, list(deal.events))
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        observation = deal.observation(seat)
        put("obs", seat, observation.to_string())
        action = choose(deal)
        before = len(deal.events)
        deal.apply(action)
        put("act", action, list(deal.points), list(deal.events[before:]))
    put("end", list(deal.points), deal.result, deal.observation(None).to_string())
    return digest.hexdigest()


def lines() -> Iterator[str]:
    """Every line of the fingerprint file, header first."""
    yield HEADER
    for preset in Rules.presets():
        for player in PLAYERS:
            for seed in SEEDS:
                yield f"{preset} {player} {seed} {fingerprint(preset, player, seed)}"


def main(argv: list[str] | None = None) -> int:
    """Write the fingerprint file, or with ``--check`` compare it with the committed one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="compare with the committed file; write nothing"
    )
    args = parser.parse_args(argv)
    text = "\n".join(lines()) + "\n"
    if args.check:
        have = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if have != text:
            print(
                f"{OUT.name} differs from the players' play now: "
                "run python scripts/make_fingerprint.py if the change is intended",
                file=sys.stderr,
            )
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
