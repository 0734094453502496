"""The product speaks of itself only: no file outside the laboratory (``lab/``) and the
changelog names a development session or a numbered issue by its number (the word followed by
the number, singular or plural, with or without ``#``).  A reader who needs a point in time gets a date, a version or a commit.

A third-party bug is cited by its address (``https://github.com/o/r/issues/123``), which this
does not match: the number follows a slash, not the word.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HISTORY = re.compile(r"\b(?:session|issue)s?[ _-]*#?\d", re.IGNORECASE)
"""A session or an issue followed by its number."""

ALLOWED = ("lab/", "CHANGELOG.md")
"""The laboratory keeps its dated notebook and records; the changelog is history by design."""

SKIPPED_DIRS = {".git", ".venv", "node_modules", "build", "dist", ".mypy_cache", ".pytest_cache"}


def project_files() -> list[str]:
    """The files of the checkout that git would keep (tracked or not ignored), relative paths;
    without git, every file under the root outside the build and tool folders."""
    try:
        run = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return sorted(
            str(p.relative_to(ROOT))
            for p in ROOT.rglob("*")
            if p.is_file() and not SKIPPED_DIRS & set(p.relative_to(ROOT).parts)
        )
    return sorted(line for line in run.stdout.splitlines() if line)


def history_lines(text: str) -> list[str]:
    """The lines of ``text`` that name a session or an issue by number."""
    return [line.strip() for line in text.splitlines() if HISTORY.search(line)]


def test_the_pattern_finds_history_and_leaves_the_rest() -> None:
    # written in pieces, so that this file does not say what it looks for
    found = [
        "the expert level of sessions" + " 11-17",
        "Session" + " 21: two last looks",
        "(issue" + " 16, item 9)",
        "Issue" + " 14: a link to no table",
        "see issue" + " #35",
        "session" + "_4 notes",
    ]
    kept = [
        "https://github.com/pytest-dev/pytest-xdist/issues/1323",
        "a seat token lasts the session",
        "issues found: 0",
        "the sessions table",
        "2026-12-04, version 0.9.0, commit 1a2b3c4",
    ]
    assert [t for t in found if not history_lines(t)] == []
    assert [t for t in kept if history_lines(t)] == []


def test_no_file_of_the_product_names_a_session_or_an_issue() -> None:
    files = project_files()
    assert "README.md" in files and "tests/test_no_history.py" in files
    said: list[str] = []
    for name in files:
        if name.startswith(ALLOWED):
            continue
        path = ROOT / name
        if not path.is_file():  # deleted in the working tree, not yet committed
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary: pictures, compressed records
        said += [f"{name}: {line[:120]}" for line in history_lines(text)]
    assert not said, "history in the product (use a date, a version or a commit):\n" + "\n".join(
        said[:40]
    )
