"""The command line's messages for bad input: each one line, saying what is wrong with what
was given (a port out of range, a journal of garbage, a record's own bad seat, JSON cut
short), and the take-back note in plain words."""

from __future__ import annotations

import json
import os
from pathlib import Path

from typer.testing import CliRunner

from bezique.cli import app
from bezique.tui.game import TerminalGame

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def one_error(out: str) -> str:
    lines = [x for x in out.splitlines() if x.strip()]
    assert len(lines) == 1, out
    assert lines[0].startswith("error: "), out
    return lines[0]


def test_a_port_out_of_range_is_refused(tmp_path: Path) -> None:
    for port in ("99999", "0", "-1", "65536"):
        code, out = run("serve", "--port", port, "--data", str(tmp_path))
        assert code == 2
        line = one_error(out)
        assert "--port" in line and "65535" in line and port in line
        assert "served at" not in out


def test_a_journal_of_garbage_is_not_called_empty(tmp_path: Path) -> None:
    for text in ("garbage", "garbage\n", "{\n"):
        path = tmp_path / "j.jsonl"
        path.write_text(text)
        code, out = run("keep", "--resume", str(path))
        assert code == 2
        line = one_error(out)
        assert "not a score-keeper journal" in line and "is empty" not in line, line
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    code, out = run("keep", "--resume", str(path))
    assert code == 2 and "is empty" in one_error(out)


def _record(tmp_path: Path) -> Path:
    path = tmp_path / "r.json"
    from rich.console import Console

    def stop(_prompt: str) -> str:
        raise EOFError

    quiet = Console(file=open(os.devnull, "w"))  # noqa: SIM115
    game = TerminalGame(seed=3, ask=stop, save=path, console=quiet)
    game.run()
    return path


def test_a_record_with_a_bad_seat_names_the_record_not_the_flag(tmp_path: Path) -> None:
    path = _record(tmp_path)
    data = json.loads(path.read_text())
    data["meta"]["seat"] = "5"
    path.write_text(json.dumps(data))
    code, out = run("play", "--resume", str(path))
    assert code == 2
    line = one_error(out)
    assert "--seat" not in line and "seat 5" in line and path.name in line, line


def test_truncated_json_says_where_it_stops(tmp_path: Path) -> None:
    path = _record(tmp_path)
    text = path.read_text()
    cut = text.index('"', text.index('"players"') + len('"players"') + 1) + 3  # inside a name
    path.write_text(text[:cut])
    for cmd in ("replay", "play"):
        args = (cmd, str(path)) if cmd == "replay" else (cmd, "--resume", str(path))
        code, out = run(*args)
        assert code == 2
        line = one_error(out)
        # the message is whole: not cut off before the position it once ended with
        assert not line.rstrip().endswith((" at", "at:")), line
        assert "line " in line and "column " in line and "cut short" in line, line


def test_the_take_back_note_says_what_is_left(tmp_path: Path) -> None:
    from rich.console import Console

    answers = iter(["1", "1", "undo"])

    def ask(prompt: str) -> str:
        if not prompt.startswith("Your choice"):
            raise EOFError
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    console = Console(record=True, width=120, force_terminal=False)
    game = TerminalGame(seed=21, console=console, ask=ask)
    game.run()
    notes = " ".join(n.plain for n in game.notes) + console.export_text()
    assert "Took back your last move" in notes
    assert "of yours in this deal" not in notes
    assert "more can be taken back in this deal" in notes or "none is left" in notes
