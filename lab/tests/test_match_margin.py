"""lab/scripts/match_margin.py: the line of the match-win rate on the margin over stored entries, and
the margin at which it reaches a share of matches."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "match_margin.py"


def _entry(
    label: str, margin: float, rate: float, decks: int = 500, **extra: Any
) -> dict[str, Any]:
    return {
        "label": label,
        "a": extra.get("a", label),
        "b": "heuristic",
        "variant": extra.get("variant", "classic"),
        "decks": decks,
        "summary": {
            "margin": {"mean": margin, "low": margin - 10, "high": margin + 10, "n": decks},
            "match_win_rate": {"mean": rate, "low": rate - 0.05, "high": rate + 0.05, "n": 280},
        },
    }


def _run(tmp_path: Path, entries: Any, *args: str) -> subprocess.CompletedProcess[str]:
    runs = tmp_path / "runs.json"
    runs.write_text(json.dumps(entries))
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(runs), *args], capture_output=True, text=True, check=False
    )


def test_the_line_and_the_margin_it_asks_for(tmp_path: Path) -> None:
    # on the line rate = 0.5 + 0.004 x margin: 70% at +50; the others are left out
    entries = [
        _entry("a", 0.0, 0.50),
        _entry("b", 25.0, 0.60),
        _entry("c", 75.0, 0.80),
        _entry("c again", 75.0, 0.80, a="c"),  # the same run stored twice counts once
        _entry("few decks", 30.0, 0.10, decks=50),
        _entry("saturated", 190.0, 1.0),
        _entry("other rules", 40.0, 0.10, variant="rubicon"),
    ]
    done = _run(tmp_path, entries, "--rate", "0.7")
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("3 entries: match-win rate = 0.500 + 0.00400 x margin")
    assert "70% of matches at about +50.0 points a deal" in last
    listed = done.stdout.splitlines()[:-1]
    assert [line.split()[-4] for line in listed] == ["a", "b", "c"]


def test_bad_input_is_one_clear_line(tmp_path: Path) -> None:
    one = _run(tmp_path, [_entry("a", 10.0, 0.5)])
    assert one.returncode == 2 and "two entries with different margins: 1 selected" in one.stderr
    assert "Traceback" not in one.stderr
    not_list = _run(tmp_path, {"label": "x"})
    assert not_list.returncode == 2 and "not a list of entries" in not_list.stderr
    falling = _run(tmp_path, [_entry("a", 0.0, 0.7), _entry("b", 50.0, 0.6)])
    assert falling.returncode == 2 and "does not rise with the margin" in falling.stderr
    bad_rate = _run(tmp_path, [_entry("a", 0.0, 0.5), _entry("b", 50.0, 0.6)], "--rate", "70")
    assert bad_rate.returncode == 2 and "--rate is a share between 0 and 1" in bad_rate.stderr
