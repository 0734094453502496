"""Turn finished arena runs into a row of docs/strength.md and an entry of docs/strength-runs.json.

The ``--json`` files of ``bezique arena`` runs of one pair on one rule set (different seeds) are
pooled as ``bezique arena-pool`` pools them; the script prints the Markdown row (margin with its
95% interval, deal score, match wins with the Wilson interval, Elo, A's CPU seconds a move) and,
with ``--runs``, writes the entry into that file, replacing an entry with the same ``--label``::

    python scripts/strength_row.py arena-runs/rubicon-s12*.json --label "expert-c rubicon" \\
        --command "bezique arena expert-c heuristic --variant rubicon --deals 10 --seed S ..." \\
        --runs docs/strength-runs.json

``--same-decks FILES`` (repeatable) names runs of another player against the same opponent on
the same seeds: the script then prints A's gain over that player deck by deck
(``bezique.arena.paired_margin``) and keeps each in the entry's ``same_decks`` list.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
from pathlib import Path
from typing import Any

from bezique.arena import paired_margin, pool
from bezique.arena.runner import ArenaResult


def _iv(e: dict[str, Any], digits: int = 1, percent: bool = False) -> str:
    def f(x: float | None) -> str:
        if x is None:
            return "—"
        return f"{100 * x:.{digits}f}" if percent else f"{x:+.{digits}f}".replace("-", "−")

    return f"{f(e['mean'])}{'%' if percent else ''} [{f(e['low'])}, {f(e['high'])}]"


def entry(results: list[ArenaResult], command: str, note: str, label: str) -> dict[str, Any]:
    """The strength-runs.json entry of these runs pooled."""
    pooled = pool(results)
    summary = pooled.summary()
    a_times = [t for p in pooled.plays for t in p.a_seconds]
    summary["a_seconds_per_move"]["mean"] = round(statistics.fmean(a_times), 5) if a_times else 0
    return {
        "label": label,
        "a": str(pooled.a),
        "b": str(pooled.b),
        "variant": pooled.variant,
        "seed": results[0].seed,
        "decks": pooled.decks,
        "wall_seconds": round(sum(r.seconds for r in results), 2),
        "runs": [
            {"seed": r.seed, "decks": r.decks, "margin": r.summary()["margin"]} for r in results
        ],
        "summary": summary,
        "command": command,
        "date": datetime.date.today().isoformat(),
        "note": note,
    }


def row(e: dict[str, Any]) -> str:
    """The Markdown table row of an entry."""
    s = summary = e["summary"]
    t = summary["a_seconds_per_move"]
    return (
        f"| {e['a']} – {e['b']} ({e['variant']}) | {e['decks']} ({2 * e['decks']}) "
        f"| **{_iv(s['margin'])}** | {_iv(s['deal_win_rate'], percent=True)} "
        f"| {_iv(s['match_win_rate'], percent=True)} of {s['matches']} "
        f"| {_iv(s['elo'], 0)} | {t['median']:.3f} / {t['p95']:.3f} (mean {t.get('mean', 0):.3f}) |"
    )


def _load(files: list[Path]) -> list[ArenaResult]:
    return sorted(
        (ArenaResult.from_json(json.loads(f.read_text())) for f in files), key=lambda r: r.seed
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--label", required=True, help="names the entry (replaced on a rerun)")
    parser.add_argument("--command", required=True, help="how the runs were made")
    parser.add_argument("--note", default="")
    parser.add_argument("--runs", type=Path, help="docs/strength-runs.json to update")
    parser.add_argument(
        "--same-decks",
        type=Path,
        nargs="+",
        action="append",
        help="runs of another player against the same opponent on the same seeds (repeatable)",
    )
    args = parser.parse_args()
    try:  # a file that is not an arena result, runs that cannot pool or pair: one line, no trace
        results = _load(args.files)
        others = [_load(files) for files in args.same_decks or []]
        e = entry(results, args.command, args.note, args.label)
        pooled = pool(results)
        gains = [paired_margin(pooled, pool(other)) for other in others]
    except (OSError, ValueError) as err:
        parser.error(str(err))
    print(row(e))
    print("runs:", "; ".join(f"seed {r['seed']}: {_iv(r['margin'])}" for r in e["runs"]))
    for other, gain in zip(others, gains, strict=True):
        e.setdefault("same_decks", []).append({"a": str(other[0].a), "gain": gain.as_dict(2)})
        print(f"A's gain over {other[0].a} on the same {gain.n} decks: {_iv(gain.as_dict(2))}")
    if args.runs:
        data = json.loads(args.runs.read_text())
        data = [d for d in data if d.get("label") != args.label] + [e]
        args.runs.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
