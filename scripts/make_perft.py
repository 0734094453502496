"""Write tests/data/perft.txt: legal action sequence counts ("perft") for a few deals.

For each case the file gives how the deal is built and, for every depth 1..N, the number of
distinct sequences of that many legal actions from that point (the deal's own stock order
decides the draws).  ``tests/test_perft.py`` rebuilds each deal from the file and recounts.
Run this again only when a change of the rules engine is meant to change the counts::

    python scripts/make_perft.py          # write it
    python scripts/make_perft.py --check  # exit 1 if the committed file differs
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bezique import Deal, Rules

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft.txt"
DEPTH = 6
PRESET_DEPTH = 4

HEADER = """\
# Perft counts: the number of distinct sequences of legal actions of each length from the
# start of a deal (its stock order decides the draws).  tests/test_perft.py recounts them.
# Regenerate with `python scripts/make_perft.py` only after an intended rules change.
#
# case NAME           one block per deal
# rules TEXT          Rules.from_string(TEXT)
# seed S dealer D     Deal.new(rules, seed=S, dealer=D), or
# cards dealer D      Deal.from_cards(rules, hands, turn_up, stock, dealer=D) with
# hand SEAT CARDS     each seat's cards,
# turn-up CARD        the turn-up and
# stock CARDS         the stock, the first card drawn first;
# then ACTIONS        actions applied before counting (comma separated), if any
# depth N COUNT       the count for each depth
"""


@dataclass
class Case:
    """One deal to count from."""

    name: str
    rules: str = "classic"
    seed: int | None = None
    dealer: int = 0
    hands: list[list[str]] = field(default_factory=list)
    turn_up: str | None = None
    stock: list[str] = field(default_factory=list)
    then: list[str] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)
    depth: int = DEPTH
    """How deep the script counts it (the presets' start positions: less, their trees are
    wide)."""

    def build(self) -> Deal:
        """The deal to count from."""
        rules = Rules.from_string(self.rules)
        if self.seed is not None:
            deal = Deal.new(rules, seed=self.seed, dealer=self.dealer)
        else:
            deal = Deal.from_cards(
                rules, self.hands, turn_up=self.turn_up, stock=self.stock, dealer=self.dealer
            )
        for action in self.then:
            deal.apply(action)
        return deal


def perft(deal: Deal, depth: int) -> list[int]:
    """The number of distinct legal action sequences from ``deal`` of each length 1..depth
    (one walk of the tree: the sequences of length n are the legal actions at depth n - 1)."""
    counts = [0] * depth

    def walk(node: Deal, level: int) -> None:
        legal = node.legal_actions()
        counts[level] += len(legal)
        if level + 1 < depth:
            for action in legal:
                child = node.clone()
                child.apply(action)
                walk(child, level + 1)

    if depth > 0:
        walk(deal, 0)
    return counts


def _stacked() -> Case:
    """A deal rich in melds: both players hold beziques and marriages, seat 1 (on lead) the
    seven of trumps and a royal marriage, and the second seven comes early from the stock."""
    hands = [
        ["AH", "TH", "KS", "QS", "KD", "QD", "JD", "9C"],  # seat 0, the dealer
        ["QS", "JD", "KH", "QH", "7H", "AS", "KC", "QC"],  # seat 1, on lead
    ]
    turn_up = "8H"
    used = [c for h in hands for c in h] + [turn_up]
    rest = [r + s for s in "SHDC" for r in "ATKQJ987" for _ in range(2)]
    for c in used:
        rest.remove(c)
    random.Random(2024).shuffle(rest)
    for c in ("AD", "7H", "KH"):  # drawn early: a second seven and marriage
        rest.remove(c)
        rest.insert(0, c)
    return Case("stacked-melds", hands=hands, turn_up=turn_up, stock=rest, dealer=0)


def _late(seed: int, rules: str = "classic") -> Case:
    """A seeded deal from late in stage 1: the counts cross the last draw into stage 2."""
    case = Case(f"seed-{seed}-trick-23", rules=rules, seed=seed, dealer=seed % 2)
    deal = case.build()
    rng = random.Random(seed)
    last = deal.rules.stage1_tricks - 2
    if rules != "classic":
        case.name = f"{rules}-seed-{seed}-trick-{last + 1}"
    while not (deal.tricks_played == last and deal.phase == "play"):
        deal.apply(rng.choice(deal.legal_actions()))
    case.then = deal.history
    return case


def cases() -> list[Case]:
    """The deals counted in the file."""
    return [
        Case("seed-1", seed=1, dealer=0),
        Case("seed-2", seed=2, dealer=1),
        Case("seed-3", seed=3, dealer=0),
        _stacked(),
        _late(4),
        Case("haitian-seed-1", rules="haitian", seed=1, dealer=0),
        Case("haitian-3-seed-2", rules="haitian(players=3)", seed=2, dealer=2),
        _late(5, "haitian"),
        # the start of a deal of every other preset (perft counts for every preset)
        *(
            Case(f"{preset}-seed-1", rules=preset, seed=1, dealer=1, depth=PRESET_DEPTH)
            for preset in Rules.presets()
            if preset not in ("classic", "haitian")
        ),
    ]


def render(cs: list[Case]) -> str:
    """The file's text, counting every case to :data:`DEPTH`."""
    lines = [HEADER]
    for case in cs:
        lines.append(f"case {case.name}")
        lines.append(f"rules {case.rules}")
        if case.seed is not None:
            lines.append(f"seed {case.seed} dealer {case.dealer}")
        else:
            lines.append(f"cards dealer {case.dealer}")
            for seat, hand in enumerate(case.hands):
                lines.append(f"hand {seat} {','.join(hand)}")
            lines.append(f"turn-up {case.turn_up}")
            lines.append(f"stock {','.join(case.stock)}")
        if case.then:
            lines.append(f"then {','.join(case.then)}")
        for depth, count in enumerate(perft(case.build(), case.depth), start=1):
            lines.append(f"depth {depth} {count}")
        lines.append("")
    return "\n".join(lines)


def parse(text: str) -> list[Case]:
    """Read the cases and their counts back from the file's text."""
    out: list[Case] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "case":
            out.append(Case(rest))
            continue
        case = out[-1]
        words = rest.split()
        if key == "rules":
            case.rules = rest
        elif key == "seed":
            case.seed, case.dealer = int(words[0]), int(words[2])
        elif key == "cards":
            case.dealer = int(words[1])
        elif key == "hand":
            case.hands.append(words[1].split(","))
        elif key == "turn-up":
            case.turn_up = rest
        elif key == "stock":
            case.stock = rest.split(",")
        elif key == "then":
            case.then = rest.split(",")
        elif key == "depth":
            case.counts[int(words[0])] = int(words[1])
        else:
            raise ValueError(f"bad line in perft file: {raw!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the perft file, or with ``--check`` compare it with the committed one."""
    parser = argparse.ArgumentParser(description="Write the perft counts (tests/data/perft.txt).")
    parser.add_argument(
        "--check", action="store_true", help="compare with the committed file; write nothing"
    )
    args = parser.parse_args(argv)
    text = render(cases())
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(
                "tests/data/perft.txt is stale: run python scripts/make_perft.py", file=sys.stderr
            )
            return 1
        return 0
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
