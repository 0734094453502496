"""lab/scripts/records.py: arena runs packed into one .jsonl.gz an experiment and back, and the
records kept in lab/records/ readable, each row naming its command, seeds and commit."""

from __future__ import annotations

import gzip
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bezique.arena import ArenaResult, pool, run_arena

LAB = Path(__file__).resolve().parent.parent
SCRIPT = LAB / "scripts" / "records.py"


def records_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("records", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False
    )


def test_pack_and_unpack_keep_the_deals_and_name_the_command(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    results = [run_arena("simple", "random", "classic", decks=2, seed=s) for s in (5, 6)]
    for r in results:
        (runs / f"sr-{r.seed}.json").write_text(json.dumps(r.to_json()))
    packed = tmp_path / "sr.jsonl.gz"
    done = _run("pack", str(runs), "--experiment", "sr", "--out", str(packed), "--commit", "abc")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in gzip.decompress(packed.read_bytes()).splitlines()]
    assert [r["seeds"] for r in rows] == [[5], [6]]
    assert rows[0]["command"] == "bezique arena simple random --variant classic --deals 2 --seed 5"
    assert {r["commit"] for r in rows} == {"abc"}
    assert all("a_seconds" not in p for r in rows for p in r["record"]["plays"])

    back = tmp_path / "back"
    done = _run("unpack", str(packed), "--out", str(back))
    assert done.returncode == 0, done.stderr
    again = [ArenaResult.from_json(json.loads(f.read_text())) for f in sorted(back.glob("*.json"))]
    assert pool(again).summary()["margin"] == pool(results).summary()["margin"]
    assert pool(again).deck_margins() == pool(results).deck_margins()


def test_the_same_rows_give_the_same_bytes(tmp_path: Path) -> None:
    records = records_module()
    rows = [{"label": "x", "seeds": [1]}, {"label": "y", "seeds": [2, 3]}]
    first, second = tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl.gz"
    records.write_entries(first, rows)
    records.write_entries(second, rows)
    assert first.read_bytes() == second.read_bytes()
    assert records.read_entries(first) == rows


def test_bad_input_is_one_clear_line(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    bad = _run("pack", str(empty), "--experiment", "e", "--out", str(tmp_path / "e.jsonl.gz"))
    assert bad.returncode == 2 and "no .json files" in bad.stderr
    (empty / "x.json").write_text('{"a": 1}')
    bad = _run("pack", str(empty), "--experiment", "e", "--out", str(tmp_path / "e.json"))
    assert bad.returncode == 2 and "must end in .jsonl.gz" in bad.stderr
    bad = _run("pack", str(empty), "--experiment", "e", "--out", str(tmp_path / "e.jsonl.gz"))
    assert bad.returncode == 2 and "not an arena result" in bad.stderr
    (tmp_path / "junk.jsonl.gz").write_bytes(b"not gzip")
    bad = _run("unpack", str(tmp_path / "junk.jsonl.gz"), "--out", str(tmp_path / "o"))
    assert bad.returncode == 2 and "not a gzip file" in bad.stderr
    assert "Traceback" not in bad.stderr
    assert not (tmp_path / "e.jsonl.gz").exists()


@pytest.mark.parametrize(
    "path", sorted((LAB / "records").rglob("*.jsonl.gz")), ids=lambda p: p.name
)
def test_every_stored_row_names_its_command_seeds_and_commit(path: Path) -> None:
    rows = records_module().read_entries(path)
    assert rows
    for row in rows:
        if "key" in row:  # the conformance journal: its key names the code, the rules, the seeds
            assert json.loads(row["key"])[0]
            continue
        assert isinstance(row["command"], str) and row["command"].strip()
        assert row["seeds"] and all(isinstance(s, int) for s in row["seeds"])
        assert row["commit"] and row["commit"] != "unknown"


def test_the_records_stay_small() -> None:
    """The laboratory's records: 2 MB at most in all (raw per-move times are not kept)."""
    total = sum(f.stat().st_size for f in (LAB / "records").rglob("*") if f.is_file())
    assert total <= 2 * 1024 * 1024, total
