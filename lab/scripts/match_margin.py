"""How the share of matches won follows the margin a deal, over the stored strength entries.

A goal set in matches won ("70% of matches") is easier to plan for in points a deal, the figure
every arena measures most precisely. This fits a straight line to the match-win rate against the
mean margin of every stored entry of one rule set with enough decks (least squares over the
entries, each counting once), leaving out the runs whose margin is past ``--max-margin``, where
the rate saturates near 100%, and prints the margin at which the line reaches ``--rate``::

    python lab/scripts/match_margin.py lab/records/strength-runs.jsonl.gz --rate 0.70

The matches of an entry are built from its deals (``bezique.arena``), so the rate and the margin
of one entry come from the same decks. Several entries were played on the same seeds, so the
points are not independent: the line is a guide for planning, not a test. An entry that repeats
another (the same pair, margin, rate and matches: a run made again to the point) counts once.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from records import read_entries  # the sibling script, found through sys.path


@dataclass(frozen=True)
class Point:
    """One stored entry: its label, its pair, the mean margin and the share of matches won."""

    label: str
    pair: str
    margin: float
    rate: float
    matches: int


@dataclass(frozen=True)
class Fit:
    """``rate = intercept + slope * margin`` over ``points``."""

    slope: float
    intercept: float
    points: int

    def margin_for(self, rate: float) -> float:
        """The margin a deal at which the line reaches ``rate``."""
        if self.slope <= 0:
            raise ValueError("the match-win rate does not rise with the margin over these entries")
        return (rate - self.intercept) / self.slope


def points(
    entries: list[dict[str, Any]], variant: str, min_decks: int, max_margin: float
) -> list[Point]:
    """The entries of ``variant`` with at least ``min_decks`` decks, a match-win rate, and a
    margin no greater than ``max_margin``, by margin."""
    out: list[Point] = []
    for e in entries:
        summary = e.get("summary") or {}
        if e.get("variant") != variant or e.get("decks", 0) < min_decks:
            continue
        if "match_win_rate" not in summary or "margin" not in summary:
            continue
        margin = float(summary["margin"]["mean"])
        if margin > max_margin:
            continue
        p = Point(
            label=str(e.get("label", e.get("a", "?"))),
            pair=f"{e.get('a')} – {e.get('b')}",
            margin=margin,
            rate=float(summary["match_win_rate"]["mean"]),
            matches=int(summary["match_win_rate"]["n"]),
        )
        if not any(
            (q.pair, q.margin, q.rate, q.matches) == (p.pair, p.margin, p.rate, p.matches)
            for q in out
        ):
            out.append(p)
    return sorted(out, key=lambda p: p.margin)


def fit(pts: list[Point]) -> Fit:
    """The least-squares line of the rate on the margin."""
    if len(pts) < 2 or len({p.margin for p in pts}) < 2:
        raise ValueError(f"a line needs two entries with different margins: {len(pts)} selected")
    slope, intercept = statistics.linear_regression([p.margin for p in pts], [p.rate for p in pts])
    return Fit(slope, intercept, len(pts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "runs", type=Path, help="lab/records/strength-runs.jsonl.gz (or a JSON list)"
    )
    parser.add_argument("--variant", default="classic", help="the rule set (default: classic)")
    parser.add_argument("--min-decks", type=int, default=200, help="fewest decks (default: 200)")
    parser.add_argument(
        "--max-margin", type=float, default=120.0, help="largest margin kept (default: 120)"
    )
    parser.add_argument("--rate", type=float, default=0.70, help="the share asked (default: 0.70)")
    args = parser.parse_args()
    if not 0 < args.rate < 1:
        parser.error(f"--rate is a share between 0 and 1: got {args.rate}")
    try:  # a missing or malformed file, too few entries: one line, no trace
        entries = read_entries(args.runs)
        pts = points(entries, args.variant, args.min_decks, args.max_margin)
        line = fit(pts)
        needed = line.margin_for(args.rate)
    except (OSError, ValueError, KeyError, TypeError) as err:
        parser.error(str(err))
    for p in pts:
        print(f"{p.margin:+7.1f}  {100 * p.rate:5.1f}% of {p.matches:4d}  {p.label} ({p.pair})")
    print(
        f"{line.points} entries: match-win rate = {line.intercept:.3f} + {line.slope:.5f} x margin;"
        f" {100 * args.rate:.0f}% of matches at about {needed:+.1f} points a deal"
    )


if __name__ == "__main__":
    main()
