"""``lab/scripts/arena_chain.py``: arena runs over a list of seeds, one file each, for pools built
over many sittings (packed into lab/records/pooled/ by lab/scripts/records.py)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bezique.arena import ArenaResult

LAB = Path(__file__).resolve().parent.parent
SCRIPT = LAB / "scripts" / "arena_chain.py"


def chain_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("arena_chain", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_chain(out: Path, seeds: str, *arena: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--out",
            str(out),
            "--prefix",
            "rr",
            "--seeds",
            seeds,
            "--",
            *arena,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_seed_lists() -> None:
    parse = chain_module().parse_seeds
    assert parse("8201-8204") == [8201, 8202, 8203, 8204]
    assert parse("5-3,9") == [5, 4, 3, 9]
    assert parse("7") == [7]
    with pytest.raises(argparse.ArgumentTypeError, match="not a seed"):
        parse("7-x")


def test_a_chain_runs_each_seed_once_and_skips_claimed_ones(tmp_path: Path) -> None:
    (tmp_path / "rr-13.claim").write_text("another chain\n")
    arena = ("random", "random", "--variant", "classic", "--deals", "1", "--jobs", "1")
    first = run_chain(tmp_path, "11-13", *arena)
    assert first.returncode == 0, first.stderr
    assert sorted(p.name for p in tmp_path.glob("*.json")) == ["rr-11.json", "rr-12.json"]
    assert not list(tmp_path.glob("*.tmp")) and not (tmp_path / "rr-11.claim").exists()
    result = ArenaResult.from_json(json.loads((tmp_path / "rr-12.json").read_text()))
    assert result.seed == 12 and result.decks == 1 and len(result.plays) == 2  # both seatings
    before = (tmp_path / "rr-11.json").stat().st_mtime_ns
    again = run_chain(tmp_path, "12-11", *arena)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "rr-11.json").stat().st_mtime_ns == before  # finished runs are kept
    assert not (tmp_path / "rr-13.json").exists()  # claimed elsewhere: left to that chain


def test_bad_chains_are_refused(tmp_path: Path) -> None:
    no_split = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(tmp_path), "--prefix", "rr", "--seeds", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert no_split.returncode == 2 and "after --" in no_split.stderr
    seeded = run_chain(tmp_path, "1", "random", "random", "--seed", "4")
    assert seeded.returncode == 2 and "--seed and --json" in seeded.stderr
    failing = run_chain(tmp_path, "1", "no-such-bot", "random", "--deals", "1")
    assert failing.returncode == 1 and "seed 1: the arena failed" in failing.stderr
    assert not (tmp_path / "rr-1.json").exists() and (tmp_path / "rr-1.claim").exists()
    assert "no-such-bot" in (tmp_path / "rr-1.log").read_text()
