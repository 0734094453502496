"""Write the golden playthroughs: whole deals (classic, Haitian, and one of every other preset)
as readable transcripts in tests/golden/.

Each deal is shuffled from a seed and played to the end, every action chosen from the legal
ones by ``random.Random(seed)``.  The transcript shows, step by step, the seat to move, the
phase, every hand as the engine holds it, the legal actions, the action chosen, and what it
scored; then the result.  ``tests/test_golden.py`` writes each transcript again in memory and
compares it with the file, so any change in what the engine does shows up as a readable diff.
Run this again (``make golden``) only when such a change is intended, and commit the files::

    python scripts/make_golden.py          # write tests/golden/
    python scripts/make_golden.py --check  # exit 1 if a committed transcript differs
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

from bezique import Deal, Rules

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden"
SEEDS = (1, 2, 3, 4)
RULES = "classic"
#: Every deal played: (rules, seed, game scores brought into the deal or None).
PLAYS: tuple[tuple[str, int, tuple[int, ...] | None], ...] = (
    *((RULES, seed, None) for seed in SEEDS),
    ("haitian", 1, None),
    ("haitian", 2, (620, 180)),  # the brisque gate on one side only
    ("haitian", 3, (980, 960)),  # near the target: the deal ends at once
    ("haitian(players=3)", 4, None),
    ("haitian(players=4,partnerships=true)", 5, None),
    # one deal of every other preset (a golden playthrough for every preset)
    *((preset, 1, None) for preset in Rules.presets() if preset not in (RULES, "haitian")),
)


def path_for(seed: int, rules_text: str = RULES, carry: tuple[int, ...] | None = None) -> Path:
    """The transcript file of a deal."""
    name = "".join(c if c.isalnum() else "-" for c in rules_text).strip("-")
    if carry:
        name += "-carry-" + "-".join(map(str, carry))
    return OUT / f"{name}-seed-{seed}.txt"


def _cards(cards: list[str] | tuple[str, ...]) -> str:
    return " ".join(cards) if cards else "-"


def _seat_line(deal: Deal, seat: int) -> str:
    public = deal.observation(None)
    on_table = Counter(deal.table(seat))
    concealed = []
    for card in deal.hand(seat):
        if on_table[card]:
            on_table[card] -= 1
        else:
            concealed.append(card)
    line = f"  seat {seat}: {_cards(concealed)}"
    if public.tables[seat]:
        line += f" | table {_cards(public.tables[seat])}"
    if public.known[seat]:
        line += f" | known {_cards(public.known[seat])}"
    return line


def transcript(seed: int, rules_text: str = RULES, carry: tuple[int, ...] | None = None) -> str:
    """The transcript of the deal of ``seed``, dealt by seat ``seed % players``."""
    rules = Rules.from_string(rules_text)
    dealer = seed % rules.players
    deal = Deal.new(rules, seed=seed, dealer=dealer, carry=carry)
    rng = random.Random(seed)
    assert deal.initial is not None
    hands, turn_up, stock = deal.initial
    out = [
        "# Golden playthrough: one whole deal, each action chosen from the legal ones by",
        f"# random.Random({seed}).choice.  tests/test_golden.py compares it with the engine.",
        "# After an intended change, regenerate with `make golden` (python scripts/make_golden.py).",
        f"rules: {rules}",
        f"seed: {seed}",
        f"dealer: seat {dealer}",
        *([f"game scores brought in: {' '.join(map(str, carry))}"] if carry else []),
        "dealt:",
    ]
    out += [f"  seat {seat}: {_cards(list(hand))}" for seat, hand in enumerate(hands)]
    out.append(f"turn-up: {turn_up or '-'}, trump {deal.trump or '-'}")
    out.append(f"stock, first drawn first: {_cards(list(stock))}")
    for _, seat, what, points in deal.events:
        out.append(f"scores: seat {seat} {what} {points:+d}")
    step = 0
    while not deal.is_over:
        step += 1
        legal = deal.legal_actions()
        out.append("")
        out.append(
            f"step {step}: trick {deal.tricks_played + 1}, stage {deal.stage}, "
            f"{deal.phase}, seat {deal.to_move} to move"
        )
        out += [_seat_line(deal, seat) for seat in range(rules.players)]
        trick = " ".join(f"{s}:{c}" for s, c in deal.trick) or "-"
        out.append(
            f"  stock {deal.stock_size}, turn-up {deal.turn_up or '-'}, trick {trick}, "
            f"points {' '.join(str(p) for p in deal.points)}"
        )
        out.append(f"  legal ({len(legal)}): {', '.join(str(a) for a in legal)}")
        action = rng.choice(legal)
        events, tricks = len(deal.events), deal.tricks_played
        deal.apply(action)
        out.append(f"  chosen: {action}")
        if deal.tricks_played > tricks:
            out.append(f"  trick {deal.tricks_played} won by seat {deal.last_trick_winner}")
        for _, seat, what, points in deal.events[events:]:
            out.append(f"  scores: seat {seat} {what} {points:+d}")
    result = deal.result
    assert result is not None
    out.append("")
    out.append(f"over after {step} steps and {deal.tricks_played} tricks")
    if deal.ended_early:
        out.append("ended early: the target was reached")
    out.append(f"trick winners: {' '.join(str(w) for w in deal.trick_winners)}")
    for side, r in enumerate(result):
        out.append(
            f"side {side}: melds {r.melds}, tricks {r.tricks}, last trick {r.last_trick}, "
            f"bonuses {r.bonuses}, total {r.total}"
        )
    out.append(f"points: {' '.join(str(p) for p in deal.points)}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write every transcript, or with ``--check`` compare them with the committed files."""
    parser = argparse.ArgumentParser(description="Write the golden playthroughs (tests/golden/).")
    parser.add_argument(
        "--check", action="store_true", help="compare with the committed files; write nothing"
    )
    args = parser.parse_args(argv)
    if args.check:
        want = {path_for(s, r, c): transcript(s, r, c) for r, s, c in PLAYS}
        stale = [
            p.name for p, text in want.items() if not p.exists() or p.read_text("utf-8") != text
        ]
        stale += [p.name for p in OUT.glob("*.txt") if p not in want]
        if stale:
            print(
                f"tests/golden/ is stale ({', '.join(sorted(stale))}): run python scripts/make_golden.py",
                file=sys.stderr,
            )
            return 1
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for rules_text, seed, carry in PLAYS:
        path = path_for(seed, rules_text, carry)
        path.write_text(transcript(seed, rules_text, carry), encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
