"""The README's first steps work in a fresh shell (issue 16, item 12): ``make play`` starts the
browser game and the ``bezique`` command lives in the project's virtual environment, not on
the shell's PATH, so every command the README shows must say how to reach it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def blocks() -> list[tuple[int, str]]:
    """Each ``sh`` code block with where it starts."""
    return [(m.start(), m.group(1)) for m in re.finditer(r"```sh\n(.*?)```", README, re.S)]


def test_make_play_is_said_to_open_the_browser_game_and_where() -> None:
    makefile = (ROOT / "Makefile").read_text()
    target = makefile[makefile.index("\nplay:") :].split("\n\n")[0]
    assert "bezique serve" in target and "127.0.0.1 --port 8000" in target
    first = README.index("make play")
    said = README[first : first + 1200]
    assert "browser" in said and "http://127.0.0.1:8000" in said


def test_every_bare_bezique_command_comes_after_saying_how_to_run_it() -> None:
    """A block running ``bezique ...`` must follow the words that activate the environment
    (or run ``.venv/bin/bezique``)."""
    activate = README.find("source .venv/bin/activate")
    assert activate != -1 and ".venv/bin/bezique" in README
    for start, body in blocks():
        for line in body.splitlines():
            if re.match(r"\s*bezique\s", line):
                assert start > activate or "source .venv/bin/activate" in body, line
