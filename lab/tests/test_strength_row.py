"""lab/scripts/strength_row.py: arena runs into a stored strength entry, and two players
compared deck by deck, from arena files or from entries already stored."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bezique.arena import paired_margin, run_arena

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "strength_row.py"


def _row(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False
    )


def test_entries_keep_deck_margins_and_pair_with_a_stored_entry(tmp_path: Path) -> None:
    simple = run_arena("simple", "random", "classic", decks=3, seed=11)
    heuristic = run_arena("heuristic", "random", "classic", decks=3, seed=11)
    other = run_arena("simple", "careless", "classic", decks=2, seed=11)
    for name, result in [("s", simple), ("h", heuristic), ("o", other)]:
        (tmp_path / f"{name}.json").write_text(json.dumps(result.to_json()))
    runs = tmp_path / "runs.json"
    runs.write_text("[]")
    base = ["--command", "c", "--runs", str(runs)]

    first = _row(str(tmp_path / "s.json"), "--label", "simple", *base)
    assert first.returncode == 0, first.stderr
    stored = json.loads(runs.read_text())[0]
    assert stored["deck_margins"] == {
        str(seed): round(m, 2) for seed, m in simple.deck_margins().items()
    }
    assert len(stored["deck_margins"]) == 3

    # paired with the stored entry: the same figure as from the two arena files
    second = _row(
        str(tmp_path / "h.json"), "--label", "heuristic", *base, "--paired-with", "simple"
    )
    assert second.returncode == 0, second.stderr
    gain = paired_margin(heuristic, simple)
    entry = next(e for e in json.loads(runs.read_text()) if e["label"] == "heuristic")
    assert entry["same_decks"][0]["a"] == "simple (simple)"
    assert entry["same_decks"][0]["gain"]["mean"] == pytest.approx(gain.mean, abs=0.01)
    assert f"on the same {gain.n} decks" in second.stdout

    # refused with one line, the file unchanged: no such entry, an early entry without them,
    # another opponent, no runs file
    old = {k: v for k, v in entry.items() if k != "deck_margins"} | {"label": "old"}
    runs.write_text(json.dumps([*json.loads(runs.read_text()), old]))
    before = runs.read_text()
    bad = _row(str(tmp_path / "h.json"), "--label", "x", *base, "--paired-with", "nobody")
    assert bad.returncode == 2 and "no entry labelled 'nobody'" in bad.stderr
    assert "Traceback" not in bad.stderr
    bad = _row(str(tmp_path / "s.json"), "--label", "x", *base, "--paired-with", "old")
    assert bad.returncode == 2 and "keeps no per-deck margins" in bad.stderr
    bad = _row(str(tmp_path / "o.json"), "--label", "x", *base, "--paired-with", "simple")
    assert bad.returncode == 2 and "has b 'random', these runs 'careless'" in bad.stderr
    bad = _row(str(tmp_path / "h.json"), "--label", "x", "--command", "c", "--paired-with", "s")
    assert bad.returncode == 2 and "--paired-with reads the entries of --runs" in bad.stderr
    assert runs.read_text() == before
