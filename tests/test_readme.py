"""The README's first steps work in a fresh shell: ``make play`` starts the
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


def test_the_api_tour_runs_as_written() -> None:
    """The README's Python tour runs (each ``python`` block, in order, in one
    namespace), and the values its comments promise are the ones it gets."""
    found = re.findall(r"```python\n(.*?)```", README, re.S)
    assert found, "the README has a Python tour"
    space: dict[str, object] = {}
    for body in found:
        exec(compile(body, "README.md", "exec"), space)
    deal, match = space["deal"], space["match"]
    assert deal.history[0] == "play AS"  # type: ignore[attr-defined]
    assert match.deal.history  # type: ignore[attr-defined]
    fresh = type(deal).new(space["rules"], seed=7, dealer=0)  # type: ignore[attr-defined]
    assert (fresh.to_move, fresh.phase) == (1, "play")  # "(1, 'play', ...)"
    assert str(fresh.legal_actions()[0]) == "play AS"  # "[Action.parse('play AS'), ...]"


def test_the_cheap_commands_of_the_readme_run() -> None:
    """Every ``bezique rules ...`` or ``bezique bots`` line of the README written as a literal
    command (no ``[optional]`` parts) runs and exits 0."""
    from typer.testing import CliRunner

    from bezique.cli import app

    lines = [
        line.split("#")[0].split()
        for _, body in blocks()
        for line in body.splitlines()
        if re.match(r"\s*(\.venv/bin/)?bezique (rules|bots)\b", line) and "[" not in line
    ]
    assert lines, "the README shows a rules command"
    for words in lines:
        result = CliRunner().invoke(app, words[1:])
        assert result.exit_code == 0, (words, result.output)
        assert result.output.strip()
