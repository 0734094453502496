"""The laboratory's run records: arena runs packed into one ``.jsonl.gz`` an experiment.

An experiment run as many short arena runs (``lab/scripts/arena_chain.py``, one ``--json`` file
a seed) is packed into one gzip'd JSON-lines file, one row a run::

    python lab/scripts/records.py pack arena-runs/P --experiment P --out lab/records/pooled/P.jsonl.gz

Each row names the run's ``command`` (the ``bezique arena`` line that plays the same deals),
its ``seeds``, the ``commit`` it ran on (``--commit``, else the checkout's ``HEAD``) and the
``record``: the arena's JSON without the CPU seconds of every move (machine noise, most of the
bytes; the record's summary keeps their median and 95th percentile).  ``unpack`` writes the
records back as arena JSON files, which ``bezique arena-pool`` and ``strength_row.py`` read::

    python lab/scripts/records.py unpack lab/records/pooled/P.jsonl.gz --out /tmp/P
    bezique arena-pool /tmp/P/*.json

:func:`read_entries` and :func:`write_entries` read and write such files (and plain JSON lists,
the older form of the strength entries) for the other lab scripts.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any


def read_entries(path: Path) -> list[dict[str, Any]]:
    """The rows of a ``.jsonl.gz`` file, or the entries of a JSON list; ValueError otherwise."""
    if path.name.endswith(".jsonl.gz"):
        try:
            text = gzip.decompress(path.read_bytes()).decode("utf-8")
        except (OSError, EOFError) as e:
            raise ValueError(f"{path}: not a gzip file ({e})") from None
        try:
            rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        except ValueError as e:
            raise ValueError(f"{path}: a line is not JSON ({e})") from None
    else:
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as e:
            raise ValueError(f"{path}: not JSON ({e})") from None
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise ValueError(f"{path}: not a list of entries")
    return rows


def write_entries(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write ``rows`` as :func:`read_entries` reads them back (the form the file name says).

    The gzip header carries no time stamp, so the same rows give the same bytes."""
    if path.name.endswith(".jsonl.gz"):
        text = "".join(
            json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in rows
        )
        path.write_bytes(gzip.compress(text.encode("utf-8"), 9, mtime=0))
    else:
        path.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def arena_command(record: dict[str, Any]) -> str:
    """The ``bezique arena`` command that plays the deals of an arena record again."""
    rules = str(record.get("rules", "classic"))
    variant = str(record.get("variant", rules))
    words = ["bezique", "arena", str(record["a"]), str(record["b"])]
    words += ["--variant", variant if variant == rules else rules]
    words += ["--deals", str(record["decks"]), "--seed", str(record["seed"])]
    return shlex.join(words)


def strip_seconds(record: dict[str, Any]) -> dict[str, Any]:
    """The record without the CPU seconds of each move (the counts of moves stay)."""
    out = dict(record)
    out["plays"] = [
        {k: v for k, v in p.items() if k not in ("a_seconds", "b_seconds")}
        for p in record.get("plays", [])
    ]
    return out


def pack_row(experiment: str, name: str, record: dict[str, Any], commit: str) -> dict[str, Any]:
    """One row of a packed experiment: how to run it again, then the record."""
    seeds = [int(r["seed"]) for r in record.get("runs", [])] or [int(record["seed"])]
    return {
        "experiment": experiment,
        "file": name,
        "command": arena_command(record),
        "seeds": seeds,
        "commit": commit,
        "record": strip_seconds(record),
    }


def head_commit() -> str:
    """The checkout's ``HEAD`` (12 hex digits), or ``unknown`` outside a git checkout."""
    run = subprocess.run(
        ["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, check=False
    )
    return run.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    pack = sub.add_parser("pack", help="arena JSON files of a folder into one .jsonl.gz")
    pack.add_argument("folder", type=Path)
    pack.add_argument("--experiment", required=True)
    pack.add_argument("--out", type=Path, required=True)
    pack.add_argument("--commit", help="the commit the runs played on (default: HEAD)")
    unpack = sub.add_parser("unpack", help="a .jsonl.gz back into arena JSON files")
    unpack.add_argument("file", type=Path)
    unpack.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        if args.what == "pack":
            if not args.out.name.endswith(".jsonl.gz"):
                parser.error(f"--out {args.out}: the name must end in .jsonl.gz")
            files = sorted(args.folder.glob("*.json"))
            if not files:
                parser.error(f"{args.folder}: no .json files")
            commit = args.commit or head_commit()
            rows = []
            for f in files:
                record = json.loads(f.read_text(encoding="utf-8"))
                if not isinstance(record, dict) or not {"a", "b", "seed", "decks"} <= set(record):
                    parser.error(f"{f}: not an arena result")
                rows.append(pack_row(args.experiment, f.name, record, commit))
            write_entries(args.out, rows)
            print(f"{len(rows)} runs into {args.out}")
        else:
            rows = read_entries(args.file)
            args.out.mkdir(parents=True, exist_ok=True)
            for r in rows:
                name = Path(str(r["file"])).name  # never a path out of --out
                (args.out / name).write_text(json.dumps(r["record"]) + "\n", encoding="utf-8")
            print(f"{len(rows)} runs into {args.out}")
    except (OSError, ValueError, KeyError) as e:
        parser.error(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
