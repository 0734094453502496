"""Helpers that test modules share (a test module imports no other test module:
tests/test_structure.py): a free port on 127.0.0.1, ``bezique serve`` started as a process of
its own and asked over HTTP (:func:`start`, :func:`post`), the ``bezique`` command through
typer's test runner (:func:`run_cli`), the browser client's translations (:func:`strings`), and
a whole match between random players (:func:`random_match`).

The other helper modules: ``server_helpers.py`` (protocol players, schema checks, the app under
a test client or under uvicorn in a thread, a cluster of nodes), ``browser_helpers.py``
(Debian's chromium through Playwright), ``classic_kit.py`` and ``variant_kit.py`` (stacked
deals), ``fast_kit.py`` (rule tests mirrored in the compiled engine), ``choices.py`` (fixed
positions and the choices made there), ``conformance.py`` (the deal engine's conformance
suite) and ``import_graph.py`` (the package's imports, read from its source).  Shared fixtures
are in ``conftest.py``, which imports this module in every run: nothing heavier than the
package itself is imported here at the top."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import bezique
from bezique import Match, Rules

WEB = Path(bezique.__file__).parent / "web"
"""The browser client's files."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on (at the moment of asking)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(
    port: int, data: Path, bot_delay: str = "0", database_url: str | None = None
) -> subprocess.Popen[bytes]:
    """``bezique serve`` on 127.0.0.1:port, started and answering; its tables in ``data``, or
    in the database ``database_url`` names."""
    env = {
        **os.environ,
        "BEZIQUE_BOT_DELAY": bot_delay,
        "BEZIQUE_TAKEOVER_SECONDS": "600",
        "BEZIQUE_RATE": "1000",
        "BEZIQUE_HTTP_RATE": "1000",  # the browser tests make many tables from one address
        "BEZIQUE_HTTP_BURST": "1000",
    }
    env.pop("BEZIQUE_DATABASE_URL", None)
    if database_url is not None:
        env["BEZIQUE_DATABASE_URL"] = database_url
    cmd = [sys.executable, "-m", "bezique.cli", "serve", "--port", str(port), "--data", str(data)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(proc.stderr.read().decode() if proc.stderr else "") from None
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start")


def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON to the server on 127.0.0.1:port; its JSON answer."""
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())  # type: ignore[no-any-return]


def run_cli(*args: str) -> tuple[int, str]:
    """``bezique ARGS`` through typer's test runner, 200 columns wide: the exit code and the
    output."""
    from typer.testing import CliRunner

    from bezique.cli import app

    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.output


def strings(lang: str) -> dict[str, str]:
    """The browser client's texts in a language (``web/i18n/LANG.json``), by key."""
    data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def random_match(rules: Rules, seed: int, handicap: tuple[int, ...] | None = None) -> Match:
    """A whole match between random players (their choices drawn from ``seed`` too)."""
    match = Match(rules, seed=seed, handicap=handicap)
    rng = random.Random(seed)
    while match.winner is None:
        if match.deal.is_over:
            match.next_deal()
        else:
            match.deal.apply(rng.choice(match.deal.legal_actions()))
    return match
