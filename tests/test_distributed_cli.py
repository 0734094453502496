"""`--ray` from the command line: a local Ray instance started for the run, bad
addresses and a missing Ray as one-line errors, and `bezique self-play`.

Nothing here uses a Ray instance of this process: the one test that runs on Ray starts its own,
in a fresh `bezique` process, as a person's command does.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from bezique.arena import run_arena
from bezique.arena.distributed import ClusterError, check_address
from bezique.arena.runner import ArenaResult
from bezique.arena.selfplay import Positions
from bezique.cli import app

# One local Ray instance at a time: these tests share a worker under pytest-xdist.
pytestmark = pytest.mark.xdist_group("ray")

BEZIQUE = str(Path(sys.executable).with_name("bezique"))


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (just released by this process)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_local_ray_instance_started_for_the_run(tmp_path: Path) -> None:
    out = tmp_path / "ray.json"
    run = subprocess.run(
        [BEZIQUE, "arena", "simple", "random", "--deals", "4", "--seed", "2", "--json", str(out),
         "--ray", "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""  # no Ray chatter on the terminal
    on_ray = ArenaResult.from_json(json.loads(out.read_text()))
    here = run_arena("simple", "random", "classic", decks=4, seed=2)
    assert [(p.deck, p.seating, p.scores) for p in on_ray.plays] == [
        (p.deck, p.seating, p.scores) for p in here.plays
    ]
    assert on_ray.summary()["margin"] == here.summary()["margin"]
    assert "simple (A) against random (B): classic, 4 decks" in run.stdout


@pytest.mark.parametrize("form", ["ray://127.0.0.1:{port}", "127.0.0.1:{port}"])
def test_a_cluster_that_does_not_answer_is_a_one_line_error(form: str) -> None:
    address = form.format(port=closed_port())
    run = subprocess.run(
        [BEZIQUE, "arena", "random", "random", "--deals", "1", "--ray", address],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1, run.stderr
    assert run.stderr.startswith(f"error: no Ray cluster answers at {address}:")


@pytest.mark.parametrize(
    "address", ["nonsense", "ray://", "ray://host", "host:99999", "http://host:10001", "a b:1"]
)
def test_malformed_addresses_are_refused(address: str) -> None:
    with pytest.raises(ClusterError, match="bad Ray address"):
        check_address(address)
    result = CliRunner().invoke(app, ["arena", "random", "random", "--ray", address])
    assert result.exit_code == 2 and "bad Ray address" in result.output
    assert result.output.strip().count("\n") == 0


def test_good_addresses_are_accepted() -> None:
    for address in ("local", "auto", "ray://head:10001", "10.0.0.5:6379", "ray://[::1]:10001"):
        assert check_address(address) == address


def test_without_ray_installed_the_error_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if not installed
    runner = CliRunner()
    for args in (
        ["arena", "random", "random", "--deals", "1", "--ray"],
        ["arena", "random", "random", "--ray", "ray://head:10001"],
        ["self-play", "random", "--deals", "1", "--out", str(tmp_path / "p.npz"), "--ray"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "pip install 'bezique[cluster]'" in result.output
        assert result.output.strip().count("\n") == 0
    assert not (tmp_path / "p.npz").exists()
    # without --ray nothing needs Ray
    assert runner.invoke(app, ["arena", "random", "random", "--deals", "1"]).exit_code == 0


def test_selfplay_command_writes_positions(tmp_path: Path) -> None:
    out = tmp_path / "positions.npz"
    runner = CliRunner()
    result = runner.invoke(
        app,
        ["self-play", "simple", "--deals", "2", "--seed", "3", "--out", str(out), "--jobs", "2"],
    )
    assert result.exit_code == 0, result.output
    assert "positions" in result.output and str(out) in result.output
    p = Positions.load(out)
    assert (p.bot, p.seed, p.deals) == ("simple", 3, 2)
    assert p.x.shape[0] == len(p) == len(p.seat) == len(p.deal) > 60  # two deals of 30+ tricks
    assert p.x.dtype == np.float32 and p.x.shape[1] > 100
    for d in (0, 1):
        mine = p.deal == d
        # plies count the deal's actions from 0; the two sides' margins are opposite numbers
        assert list(p.ply[mine]) == list(range(int(mine.sum())))
        margins = {int(s): float(m) for s, m in zip(p.seat[mine], p.margin[mine], strict=True)}
        assert margins[0] == -margins[1] != 0
    for args, message in (
        (["self-play", "simple", "--out", str(tmp_path / "p.txt")], "an .npz file"),
        (["self-play", "nobody", "--out", str(out)], "unknown player"),
        (["self-play", "simple", "--deals", "0", "--out", str(out)], "at least 1"),
    ):
        bad = runner.invoke(app, args)
        assert bad.exit_code == 2 and message in bad.output, bad.output
