"""The levels' choices at fixed positions, as recorded in tests/data/level_choices.json.

Every level is built with the same seed and asked at the same positions (classic deals at every
stage and a few other presets, tests/choices.py); it must choose the same action, with the same
values and visits, as when the file was written.  A change to a level's play shows up here: if
it is meant, write the file again with ``python tests/choices.py levels``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bezique.bots import levels, make
from choices import LEVEL_FILE, Position, answer, uncapped

DATA: dict[str, Any] = json.loads(LEVEL_FILE.read_text())
POSITIONS = [Position.from_json(p) for p in DATA["positions"]]


def test_the_file_covers_every_level_and_position() -> None:
    assert sorted(DATA["choices"]) == sorted(levels())
    assert len(POSITIONS) >= 20
    for level in levels():
        assert sorted(DATA["choices"][level]) == sorted(p.key for p in POSITIONS)


def _same(got: dict[str, Any], want: dict[str, Any]) -> bool:
    if got["action"] != want["action"] or got["visits"] != want["visits"]:
        return False
    if sorted(got["scores"]) != sorted(want["scores"]):
        return False
    return all(abs(got["scores"][a] - v) <= 0.02 for a, v in want["scores"].items())


@pytest.mark.parametrize("level", ["beginner", "easy", "medium", "hard", "expert"])
def test_a_level_chooses_as_recorded(level: str) -> None:
    """The level's action (and the values and visits behind it) at every fixed position, at the
    level's rollouts without its CPU cap (which only a busy machine reaches on these rules)."""
    bot = make(level, DATA["seed"])
    wrong = []
    for position in POSITIONS:
        got = answer(bot, position, uncapped(level))
        want = DATA["choices"][level][position.key]
        if not _same(got, want):
            wrong.append(f"{position.key}: {got['action']} (recorded {want['action']})")
    assert not wrong, f"{level} plays otherwise at {len(wrong)} positions: " + "; ".join(wrong)
