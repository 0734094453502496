"""The arena and self-play on Ray: the same results with and without Ray, a worker
killed mid-run changes nothing, failures are reported, never counted twice.

One local Ray instance of 2 CPUs serves the whole module (the ``cluster`` fixture); the tests
that need no running Ray, or a fresh process, are in ``test_distributed_cli.py``.
"""

from __future__ import annotations

import importlib.util
import json
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import ray
from typer.testing import CliRunner

from bezique.arena import run_arena
from bezique.arena.distributed import (
    LOCAL,
    ClusterError,
    TaskError,
    _Helper,
    ray_session,
    run_tasks,
)
from bezique.arena.runner import ArenaResult, _work
from bezique.arena.selfplay import Positions, generate
from bezique.cli import app

# One local Ray instance at a time: these tests share a worker under pytest-xdist.
pytestmark = pytest.mark.xdist_group("ray")

# the workers get this module's functions by value: they cannot import a test module by name
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # type: ignore[no-untyped-call]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A local Ray instance with 2 CPUs for the module (started through the project's own
    connection code), stopped at the end."""
    assert not ray.is_initialized()
    with pytest.MonkeyPatch.context() as env:
        env.delenv("RAY_USAGE_STATS_ENABLED", raising=False)
        with ray_session(LOCAL, cpus=2) as module:
            assert module.cluster_resources()["CPU"] == 2
            # an instance of our own sends no usage statistics out
            assert os.environ["RAY_USAGE_STATS_ENABLED"] == "0"
            yield module
    assert not ray.is_initialized()


def figures(result: ArenaResult) -> tuple[Any, Any]:
    """Every deal and the summary, without the CPU timings (which differ from run to run)."""
    data = result.to_json()
    plays = [{k: v for k, v in p.items() if not k.endswith("seconds")} for p in data["plays"]]
    summary = {k: v for k, v in data["summary"].items() if not k.endswith("seconds_per_move")}
    return plays, summary


def _fails_on_three(x: int) -> int:
    if x == 3:
        raise ValueError("three is bad")
    return x * x


def check_task_order_and_errors(**options: Any) -> None:
    assert run_tasks(_fails_on_three, [5, 1, 4, 2, 0, 6, 7], **options) == [25, 1, 16, 4, 0, 36, 49]
    # a task that raises is not retried: the run stops, naming the task and the error
    with pytest.raises(TaskError, match=r"task 4 failed: ValueError: three is bad"):
        run_tasks(_fails_on_three, [0, 1, 2, 4, 3, 5, 6, 7, 8], **options)


# (first in the module: worker processes are forked before Ray's threads exist in this process)
@pytest.mark.parametrize("options", [{}, {"jobs": 2}, {"jobs": 2, "batch": 2}])
def test_results_in_task_order_without_ray(options: dict[str, Any]) -> None:
    check_task_order_and_errors(**options)


def _slow_square(x: int) -> int:
    time.sleep(0.05)
    return x * x


def test_while_ray_starts_the_helper_finishes_what_it_started() -> None:
    """The worker processes that play the first tasks while a local Ray instance starts: told
    to stop, they finish every task they started and start no other; each result is handed on
    once (the rest then goes to Ray from ``helper.next`` on)."""
    chunks = [[i, i + 100] for i in range(40)]
    got: dict[int, list[int]] = {}

    def finished(i: int, value: list[int]) -> None:
        assert i not in got
        got[i] = value

    with multiprocessing.get_context("fork").Pool(2) as pool:
        helper = _Helper(pool, 2, _slow_square, chunks, 2, finished)
        helper.start()
        time.sleep(0.5)
        helper.stop.set()
        helper.join()
    assert helper.error is None and 0 < helper.next < len(chunks)
    assert sorted(got) == list(range(helper.next))
    assert all(got[i] == [i * i, (i + 100) ** 2] for i in got)


@pytest.mark.parametrize("options", [{"ray": LOCAL}, {"ray": LOCAL, "batch": 3}])
def test_results_in_task_order_on_ray(cluster: Any, options: dict[str, Any]) -> None:
    check_task_order_and_errors(**options)


def test_arena_on_ray_gives_the_figures_of_the_run_without(cluster: Any) -> None:
    done: list[int] = []
    here = run_arena("heuristic", "random", "classic", decks=6, seed=11)
    on_ray = run_arena(
        "heuristic",
        "random",
        "classic",
        decks=6,
        seed=11,
        ray=LOCAL,
        progress=lambda d, t: done.append(d),
    )
    assert figures(on_ray) == figures(here)
    assert len(on_ray.plays) == 12 and sorted({p.deck for p in on_ray.plays}) == list(range(6))
    # progress as decks finish: one call a deck, counting up to the total
    assert done == [1, 2, 3, 4, 5, 6]
    # another seed plays other decks (the comparison above can fail)
    assert figures(run_arena("heuristic", "random", decks=6, seed=12, ray=LOCAL)) != figures(here)


def test_arena_command_with_ray(cluster: Any, tmp_path: Path) -> None:
    runner = CliRunner()
    outs: list[ArenaResult] = []
    for extra in ([], ["--ray"]):
        out = tmp_path / f"run{len(outs)}.json"
        result = runner.invoke(
            app,
            [
                "arena",
                "simple",
                "random",
                "--deals",
                "3",
                "--seed",
                "4",
                "--json",
                str(out),
                *extra,
            ],
        )
        assert result.exit_code == 0, result.output
        outs.append(ArenaResult.from_json(json.loads(out.read_text())))
    assert figures(outs[0]) == figures(outs[1])
    # an address needs --ray; --jobs does not go with a cluster
    bad = runner.invoke(app, ["arena", "simple", "random", "auto"])
    assert bad.exit_code == 2 and "a Ray address follows --ray" in bad.output
    bad = runner.invoke(app, ["arena", "simple", "random", "--ray", "auto", "--jobs", "2"])
    assert bad.exit_code == 2 and "cluster uses all of its CPUs" in bad.output


def _deck_dying_once(job: tuple[str, tuple[str, str, str, int, int]]) -> Any:
    """An arena deck whose worker is killed (SIGKILL, as the kernel's out-of-memory killer or a
    lost machine would end it) the first time it plays deck 2."""
    marker, work = job
    if work[4] == 2 and not os.path.exists(marker):
        Path(marker).write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    return _work(work)


def test_a_worker_killed_mid_run_changes_nothing(cluster: Any, tmp_path: Path) -> None:
    marker = str(tmp_path / "killed")
    jobs = [(marker, ("classic", "heuristic", "random", 5, i)) for i in range(5)]
    done: list[int] = []
    per_deck = run_tasks(_deck_dying_once, jobs, ray=LOCAL, progress=lambda d, t: done.append(d))
    assert Path(marker).exists()  # the worker did die, with deck 2 half played
    plays = sorted((p for deck in per_deck for p in deck), key=lambda p: (p.deck, p.seating))
    here = run_arena("heuristic", "random", "classic", decks=5, seed=5)
    again = ArenaResult(here.a, here.b, here.rules, here.variant, 5, 5, plays)
    # deck 2 was played again on another worker, counted once: the same figures as without Ray
    assert figures(again) == figures(here)
    assert [p.deck for p in plays] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert done == [1, 2, 3, 4, 5]


def test_a_lost_task_without_retries_is_a_one_line_error(cluster: Any, tmp_path: Path) -> None:
    marker = str(tmp_path / "killed")
    jobs = [(marker, ("classic", "random", "random", 5, i)) for i in range(4)]
    with pytest.raises(ClusterError, match=r"task 2 on was lost 1 times") as e:
        run_tasks(_deck_dying_once, jobs, ray=LOCAL, retries=0)
    assert "\n" not in str(e.value)


def test_selfplay_on_ray_and_here_are_the_same(cluster: Any, tmp_path: Path) -> None:
    here = generate("simple", "classic", deals=3, seed=9)
    on_ray = generate("simple", "classic", deals=3, seed=9, ray=LOCAL, batch=2)
    assert list(np.unique(on_ray.deal)) == [0, 1, 2]
    for name in ("x", "margin", "deal", "seat", "ply"):
        assert np.array_equal(getattr(here, name), getattr(on_ray, name)), name
    other = generate("simple", deals=1, seed=10)
    assert not np.array_equal(other.x[:20], here.x[:20])
    path = tmp_path / "positions.npz"
    on_ray.save(path)
    back = Positions.load(path)
    assert np.array_equal(back.x, here.x) and (back.bot, back.seed, back.deals) == ("simple", 9, 3)


def test_strength_suite_on_ray(
    cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = importlib.util.spec_from_file_location(
        "strength", Path(__file__).parents[1] / "benchmarks" / "strength.py"
    )
    assert spec is not None and spec.loader is not None
    strength = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(strength)
    monkeypatch.setattr(strength, "GROUPS", {"quick": [("simple", "random")]})
    summaries: list[Any] = []
    for extra in ([], ["--ray"]):
        out = tmp_path / f"out{len(summaries)}"
        monkeypatch.setattr(
            sys,
            "argv",
            ["strength.py", "--decks", "2", "--only", "quick", "--out", str(out), *extra],
        )
        strength.main()
        summaries.append(json.loads((out / "summary.json").read_text()))
    assert summaries[0] == summaries[1] and summaries[0][0]["decks"] == 2
