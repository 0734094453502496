"""Shared fixtures, and the marks that let `make check` leave out the tests that need a service.

For the browser tests (tests/browser_helpers.py), one per module: ``browser``, Debian's chromium
through Playwright, and ``server``, a ``bezique serve`` of the module's own on a free port of
127.0.0.1 whose computer players wait 0.02 s (its address; a module may define a ``server`` of
its own instead).

A temporary PostgreSQL cluster of the tests' own, for the server's storage (``postgres``, and
``pg_url`` for a new empty database in it):

The cluster is made with ``initdb`` in a temporary folder, listens on 127.0.0.1 (a free port)
and on a socket in that folder only, and is stopped and removed after the session.  PostgreSQL
refuses to run as root: as root it runs as the ``postgres`` system user (made by Debian's
``postgresql`` package, which ``make test`` installs).  Missing binaries fail the tests that
need them: a skipped test would pass unseen.

The marks (registered in pyproject.toml, run with ``--strict-markers``) are given here, from
what a test uses, so that a new test is marked the same way as its neighbours:
``browser`` and ``ray`` for the tests of those xdist groups (one chromium, one local Ray
instance), ``postgres`` for every test that asks for the PostgreSQL cluster (a fixture, or a
``postgres`` parameter), and ``slow`` for the tests listed in :data:`SLOW` (several seconds each,
measured with ``pytest --durations``).  ``make check`` runs what none of them marks."""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import launch
from helpers import free_port, start

PG_USER = "bezique"
"""The cluster's superuser (not an operating-system user)."""


def _pg_bin() -> Path | None:
    """The folder of PostgreSQL's server programs: ``BEZIQUE_PG_BIN``, else the newest Debian
    version, else wherever ``initdb`` is on the PATH."""
    named = os.environ.get("BEZIQUE_PG_BIN")
    if named:
        return Path(named)
    versions = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    if versions:
        return max(versions, key=lambda b: int(b.parent.name) if b.parent.name.isdigit() else 0)
    which = shutil.which("initdb")
    return Path(which).parent if which else None


@dataclass
class Cluster:
    port: int
    password: str
    _names: Iterator[int]

    def url(self, db: str) -> str:
        return f"postgresql+psycopg://{PG_USER}:{self.password}@127.0.0.1:{self.port}/{db}"

    def new_database(self) -> str:
        """A new empty database; its SQLAlchemy URL."""
        import psycopg

        name = f"t{next(self._names)}"
        with psycopg.connect(
            host="127.0.0.1",
            port=self.port,
            user=PG_USER,
            password=self.password,
            dbname="postgres",
            autocommit=True,
        ) as c:
            c.execute(f"CREATE DATABASE {name}")
        return self.url(name)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """A PostgreSQL server of this test session's own."""
    bindir = _pg_bin()
    if bindir is None or not (bindir / "initdb").exists():
        pytest.fail(
            "no PostgreSQL server programs (initdb, pg_ctl): `make test` installs Debian's "
            "postgresql; elsewhere install it or set BEZIQUE_PG_BIN",
            pytrace=False,
        )
    as_user: list[str] = []
    owner: tuple[int, int] | None = None
    if os.geteuid() == 0:
        import pwd

        try:
            pg = pwd.getpwnam("postgres")
        except KeyError:
            pytest.fail("as root, PostgreSQL needs the `postgres` user to run as", pytrace=False)
        as_user = ["runuser", "-u", "postgres", "--"]
        owner = (pg.pw_uid, pg.pw_gid)
    # not under pytest's own temporary folder: the postgres user could not reach into it
    root = Path(tempfile.mkdtemp(prefix="bezique-pg-"))
    if owner is not None:
        os.chown(root, *owner)
    data, log = root / "data", root / "log"
    password = secrets.token_hex(16)
    (root / "pw").write_text(password + "\n")
    if owner is not None:
        os.chown(root / "pw", *owner)
    os.chmod(root / "pw", 0o600)
    port = free_port()

    def run(*cmd: str) -> None:
        done = subprocess.run([*as_user, *cmd], capture_output=True, text=True, timeout=120)
        if done.returncode:
            extra = log.read_text() if log.exists() else ""
            pytest.fail(f"{cmd[0]} failed:\n{done.stdout}{done.stderr}{extra}", pytrace=False)

    started = False
    try:
        run(
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            PG_USER,
            f"--pwfile={root / 'pw'}",
            "--auth=scram-sha-256",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )
        # durability of the cluster itself is not under test: no fsync, a small footprint
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={root} "
            "-c fsync=off -c full_page_writes=off -c max_connections=40 "
            "-c shared_buffers=16MB"
        )
        run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start")
        started = True
        yield Cluster(port, password, itertools.count())
    finally:
        if started:
            with contextlib.suppress(Exception):
                subprocess.run(
                    [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                    capture_output=True,
                    timeout=60,
                )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def pg_url(postgres: Cluster) -> str:
    """The SQLAlchemy URL of a new empty database in the session's PostgreSQL."""
    return postgres.new_database()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless, for the tests of one module (browser_helpers.launch)."""
    from playwright import sync_api  # the dev extra installs it; a missing one fails

    with sync_api.sync_playwright() as p:
        b = launch(p)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``bezique serve`` for the tests of one module, on a free port of 127.0.0.1, its computer
    players waiting 0.02 s before each move; its address (``http://127.0.0.1:PORT``)."""
    port = free_port()
    proc = start(port, tmp_path_factory.mktemp("web"), bot_delay="0.02")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait(10)


SLOW: tuple[str, ...] = (
    "tests/test_server_leak.py::test_review_positions_are_the_seats_own_views",
    "tests/test_conformance.py::test_preset_conforms",
    "lab/tests/test_training.py::",
    "tests/test_belief.py::test_the_shipped_model_knows_more_than_the_base_rate_on_fresh_deals",
    "lab/tests/test_arena_chain.py::",
    "tests/test_option_ranges.py::test_every_whole_number_option_has_a_range_refused_on_both_sides",
    "tests/test_fast.py::test_lockstep_random_option_variations",
    "tests/test_bots_search.py::test_every_bot_plays_legal_actions_in_every_preset",
    "tests/test_fingerprint.py::test_every_preset_plays_as_fingerprinted",
    "tests/test_fuzz_requests.py::test_every_kind_of_hostile_request_is_answered_within_the_limits",
    "tests/test_fastpimc.py::test_an_overrule_is_checked_again_on_fresh_worlds_when_asked",
    "tests/test_server_leak.py::test_against_the_computer_with_hints_and_review",
    "tests/test_bots_trials.py::test_the_spec_chooses_as_the_old_player",
    "tests/test_server.py::test_nobody_at_a_friends_table_the_computer_waits",
    "tests/test_fast.py::test_the_big_run_script_plays_at_random_or_by_bots",
    "tests/test_server_restart.py::test_kill_and_restart_loses_nothing",
    "tests/test_known_copies.py::test_a_card_that_leaves_a_hand_takes_the_known_copy_with_it",
)
"""Node-id prefixes of the tests that take several seconds each (``pytest --durations=0``);
``make check`` leaves them out, ``make test`` runs them."""

_SERVICE_GROUPS = {"browser", "ray"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by the services it needs and by its cost (see the module docstring)."""
    for item in items:
        for mark in item.iter_markers("xdist_group"):
            group = mark.args[0] if mark.args else mark.kwargs.get("name")
            if group in _SERVICE_GROUPS:
                item.add_marker(group)
        params = getattr(getattr(item, "callspec", None), "params", {})
        fixtures = getattr(item, "fixturenames", ())
        if "postgres" in fixtures or "pg_url" in fixtures or "postgres" in params.values():
            item.add_marker("postgres")
        if item.nodeid.startswith(SLOW):
            item.add_marker("slow")
