"""Turn finished arena runs into a row of a strength table and an entry of the stored strength runs.

The ``--json`` files of ``bezique arena`` runs of one pair on one rule set (different seeds) are
pooled as ``bezique arena-pool`` pools them; the script prints the Markdown row (margin with its
95% interval, deal score, match wins with the Wilson interval, Elo, A's CPU seconds a move) and,
with ``--runs``, writes the entry into that file, replacing an entry with the same ``--label``::

    python lab/scripts/strength_row.py arena-runs/rubicon-*.json --label "expert-c rubicon" \\
        --command "bezique arena expert-c heuristic --variant rubicon --deals 10 --seed S ..." \\
        --runs lab/records/strength-runs.jsonl.gz

``--same-decks FILES`` (repeatable) names runs of another player against the same opponent on
the same seeds: the script then prints A's gain over that player deck by deck
(``bezique.arena.paired_margin``) and keeps each in the entry's ``same_decks`` list.
``--paired-with LABEL`` (repeatable, with ``--runs``) does the same with an entry already in the
file: every entry keeps A's mean margin on each deck by the deck's seed (``deck_margins``), so a
later run can be compared with it without the arena files, which are not kept.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from bezique.arena import paired_deck_margins, paired_margin, pool
from bezique.arena.runner import ArenaResult

sys.path.insert(0, str(Path(__file__).parent))
from records import (  # the sibling script, found through sys.path
    head_commit,
    read_entries,
    write_entries,
)


def _iv(e: dict[str, Any], digits: int = 1, percent: bool = False) -> str:
    def f(x: float | None) -> str:
        if x is None:
            return "—"
        return f"{100 * x:.{digits}f}" if percent else f"{x:+.{digits}f}".replace("-", "−")

    return f"{f(e['mean'])}{'%' if percent else ''} [{f(e['low'])}, {f(e['high'])}]"


def entry(results: list[ArenaResult], command: str, note: str, label: str) -> dict[str, Any]:
    """The stored entry of these runs pooled."""
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
        "seeds": [r.seed for r in results],
        "decks": pooled.decks,
        "wall_seconds": round(sum(r.seconds for r in results), 2),
        "runs": [
            {"seed": r.seed, "decks": r.decks, "margin": r.summary()["margin"]} for r in results
        ],
        "summary": summary,
        "deck_margins": {str(seed): round(m, 2) for seed, m in pooled.deck_margins().items()},
        "command": command,
        "date": datetime.date.today().isoformat(),
        "commit": head_commit(),
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


def _paired_with(e: dict[str, Any], data: list[dict[str, Any]], label: str) -> tuple[str, Any]:
    """A's gain deck by deck over the player of the stored entry ``label`` (same opponent, same
    rules), from the two entries' per-deck margins."""
    found = [d for d in data if d.get("label") == label]
    if not found:
        raise ValueError(f"no entry labelled {label!r} in the runs file")
    other = found[0]
    if "deck_margins" not in other:
        raise ValueError(f"entry {label!r} keeps no per-deck margins (an early entry)")
    for key in ("b", "variant"):
        if other[key] != e[key]:
            raise ValueError(f"entry {label!r} has {key} {other[key]!r}, these runs {e[key]!r}")
    mine = {int(k): v for k, v in e["deck_margins"].items()}
    theirs = {int(k): v for k, v in other["deck_margins"].items()}
    return f"{other['a']} ({label})", paired_deck_margins(mine, theirs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--label", required=True, help="names the entry (replaced on a rerun)")
    parser.add_argument("--command", required=True, help="how the runs were made")
    parser.add_argument("--note", default="")
    parser.add_argument(
        "--runs", type=Path, help="the entries to update (.jsonl.gz, or a JSON list)"
    )
    parser.add_argument(
        "--same-decks",
        type=Path,
        nargs="+",
        action="append",
        help="runs of another player against the same opponent on the same seeds (repeatable)",
    )
    parser.add_argument(
        "--paired-with",
        metavar="LABEL",
        action="append",
        default=[],
        help="an entry of --runs of another player against the same opponent (repeatable)",
    )
    args = parser.parse_args()
    if args.paired_with and not args.runs:
        parser.error("--paired-with reads the entries of --runs: name that file")
    try:  # a file that is not an arena result, runs that cannot pool or pair: one line, no trace
        results = _load(args.files)
        others = [_load(files) for files in args.same_decks or []]
        e = entry(results, args.command, args.note, args.label)
        pooled = pool(results)
        gains = [(str(o[0].a), paired_margin(pooled, pool(o))) for o in others]
        data = read_entries(args.runs) if args.runs and args.runs.exists() else []
        gains += [_paired_with(e, data, label) for label in args.paired_with]
    except (OSError, ValueError) as err:
        parser.error(str(err))
    print(row(e))
    print("runs:", "; ".join(f"seed {r['seed']}: {_iv(r['margin'])}" for r in e["runs"]))
    for name, gain in gains:
        e.setdefault("same_decks", []).append({"a": name, "gain": gain.as_dict(2)})
        print(f"A's gain over {name} on the same {gain.n} decks: {_iv(gain.as_dict(2))}")
    if args.runs:
        data = [d for d in data if d.get("label") != args.label] + [e]
        write_entries(args.runs, data)


if __name__ == "__main__":
    main()
