"""Golden playthroughs: whole seeded deals of every preset (four classic ones, five Haitian ones
at several tables and scores carried in, one of each other preset), written again in memory and
compared with the committed transcripts in tests/golden/ (written by scripts/make_golden.py)."""

from __future__ import annotations

import difflib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bezique import Deal, Rules, fast

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
HOW = "If the change is intended, run `make golden` (python scripts/make_golden.py) and commit it."


def _load_script() -> ModuleType:
    name = "make_golden"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


make_golden = _load_script()


def test_the_transcripts_are_the_scripts() -> None:
    """No transcript is missing, and none is left over from a seed no longer played."""
    want = sorted(make_golden.path_for(s, r, c).name for r, s, c in make_golden.PLAYS)
    have = sorted(p.name for p in GOLDEN.glob("*.txt"))
    assert have == want, f"tests/golden/ holds {have}, the script writes {want}. {HOW}"


@pytest.mark.parametrize(
    ("rules_text", "seed", "carry"),
    make_golden.PLAYS,
    ids=[f"{r}-{s}" for r, s, _ in make_golden.PLAYS],
)
def test_golden_playthrough(rules_text: str, seed: int, carry: tuple[int, ...] | None) -> None:
    path = make_golden.path_for(seed, rules_text, carry)
    assert path.exists(), f"{path.relative_to(ROOT)} is missing. {HOW}"
    want = path.read_text(encoding="utf-8")
    got = make_golden.transcript(seed, rules_text, carry)
    if got != want:
        diff = difflib.unified_diff(
            want.splitlines(),
            got.splitlines(),
            fromfile=f"{path.relative_to(ROOT)} (committed)",
            tofile="engine now",
            lineterm="",
            n=2,
        )
        shown = list(diff)[:60]
        pytest.fail(
            f"the engine no longer plays {path.relative_to(ROOT)} the same way. {HOW}\n"
            + "\n".join(shown),
            pytrace=False,
        )


# --- the same playthroughs in the compiled engine --------------------------------------------
FAST_PLAYS = [
    p for p in make_golden.PLAYS if fast.available() and fast.supports(Rules.from_string(p[0]))
]


def _concealed(f: fast.FastDeal, seat: int) -> list[str]:
    return sorted(f.concealed(seat))


@pytest.mark.skipif(not fast.available(), reason="the compiled engine is not built")
@pytest.mark.parametrize(
    ("rules_text", "seed", "carry"), FAST_PLAYS, ids=[f"{r}-{s}" for r, s, _ in FAST_PLAYS]
)
def test_golden_playthrough_in_the_compiled_engine(
    rules_text: str, seed: int, carry: tuple[int, ...] | None
) -> None:
    """The committed transcript replayed in a FastDeal, read through its own C paths (never
    its reference twin): at every step the seat to move, the stage and phase, each seat's
    concealed cards, the stock, the turn-up, the trick, the points and the legal actions in
    order are the transcript's; the chosen action is applied; the final points agree."""
    rules = Rules.from_string(rules_text)
    dealer = seed % rules.players
    f = fast.FastDeal.from_deal(Deal.new(rules, seed=seed, dealer=dealer, carry=carry))
    lines = make_golden.path_for(seed, rules_text, carry).read_text(encoding="utf-8").splitlines()
    steps = 0
    for i, line in enumerate(lines):
        where = f"{rules_text} seed {seed}, line {i + 1}"
        if line.startswith("step "):
            steps += 1
            head = f"trick {f.tricks_played + 1}, stage {f.stage}, {f.phase}, seat {f.to_move}"
            assert line.split(": ", 1)[1] == f"{head} to move", where
        elif line.startswith("  seat ") and ":" in line:
            seat = int(line.split()[1].rstrip(":"))
            shown = line.split(": ", 1)[1].split(" | ")[0]
            cards = sorted(shown.split()) if shown != "-" else []
            assert cards == _concealed(f, seat), where
        elif line.startswith("  stock "):
            trick = " ".join(f"{s}:{c}" for s, c in f.trick) or "-"
            points = " ".join(str(p) for p in f.points)
            want = f"  stock {f.stock_size}, turn-up {f.turn_up or '-'}, trick {trick}, "
            assert line == want + f"points {points}", where
        elif line.startswith("  legal ("):
            legal = f.legal_texts()
            assert line == f"  legal ({len(legal)}): {', '.join(legal)}", where
        elif line.startswith("  chosen: "):
            f.apply(line.removeprefix("  chosen: "))
        elif line.startswith("points: "):
            assert f.is_over, where
            assert line == f"points: {' '.join(str(p) for p in f.points)}", where
    assert steps > 0 and f.is_over
