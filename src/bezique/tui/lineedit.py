"""Line editing and history at the terminal prompts (``bezique play``, ``replay``, ``keep``).

Python's own :mod:`readline` does the editing where it exists (Linux, macOS; on Windows the
console has its own): arrow keys move in the line and step through earlier entries instead of
printing ``^[[D``.  Each command keeps its history in its own file under the user's state folder
(``$XDG_STATE_HOME/bezique``, else ``~/.local/state/bezique``), the last :data:`HISTORY_LENGTH`
lines, so that entries typed in an earlier session come back with the up arrow.
``BEZIQUE_HISTORY=0`` (or empty) keeps no history file.

Only real terminals get this: scripted input (tests, pipes) is read as before.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
from pathlib import Path
from types import ModuleType

HISTORY_LENGTH = 500
"""Lines kept in each history file."""

_active: dict[str, Path | None] = {}
"""The history file each prompt kind has loaded (None: editing without a file)."""


def _readline() -> ModuleType | None:
    """The readline module, or None where Python has none (Windows, some builds)."""
    try:
        import readline
    except ImportError:
        return None
    return readline


def history_path(kind: str, environ: dict[str, str] | None = None) -> Path | None:
    """The history file of one kind of prompt (``play``, ``replay``, ``keep``), or None when
    ``BEZIQUE_HISTORY`` is set to ``0`` or empty."""
    env = os.environ if environ is None else environ
    if "BEZIQUE_HISTORY" in env and env["BEZIQUE_HISTORY"].strip() in ("", "0"):
        return None
    base = env.get("XDG_STATE_HOME") or str(
        Path(env.get("HOME", "~")).expanduser() / ".local/state"
    )
    return Path(base) / "bezique" / f"{kind}-history"


def load_history(readline: ModuleType, path: Path) -> None:
    """Read a history file into readline; a missing or unreadable one is no error (the history
    only starts empty)."""
    readline.clear_history()
    with contextlib.suppress(OSError, UnicodeDecodeError):
        readline.read_history_file(str(path))


def save_history(readline: ModuleType, path: Path) -> bool:
    """Write readline's history (the last :data:`HISTORY_LENGTH` lines) to ``path``; False if
    it cannot be written (a read-only home must not stop a game)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        readline.set_history_length(HISTORY_LENGTH)
        readline.write_history_file(str(path))
    except OSError:
        return False
    return True


def enable(kind: str, *, stdin_is_tty: bool | None = None) -> bool:
    """Turn on line editing (and the history of ``kind``) for :func:`input`; True if it is on.

    Does nothing when input does not come from a terminal or Python has no readline.  The
    history is written back when the program exits."""
    tty = sys.stdin.isatty() if stdin_is_tty is None else stdin_is_tty
    if not tty:
        return False
    readline = _readline()
    if readline is None:
        return False
    if kind in _active:
        return True
    path = history_path(kind)
    if path is not None:
        load_history(readline, path)
        atexit.register(save_history, readline, path)
    _active[kind] = path
    return True


def read_line(prompt: str, bold: bool = True) -> str:
    """One line from the terminal after a plain-text ``prompt``: given to :func:`input` itself
    so that readline knows where the line starts when it redraws it (the bold escapes are
    marked as taking no room, between \\001 and \\002)."""
    if bold:
        prompt = f"\001\033[1m\002{prompt}\001\033[0m\002"
    return input(prompt)


__all__ = ["HISTORY_LENGTH", "enable", "history_path", "load_history", "read_line", "save_history"]
