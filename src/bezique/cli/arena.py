"""``bezique arena``: two players on mirrored deals, with a text report and optional JSON;
``bezique self-play``: positions for a learned evaluation.  Both run here, in worker processes
or on Ray."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.text import Text

from .common import OptionList, build_rules, fail

if TYPE_CHECKING:
    from ..arena.runner import ArenaResult

AddressArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="ADDRESS",
        help="With --ray: the cluster, ray://HOST:PORT or auto (default: a Ray instance on this "
        "machine, started for the run).",
        show_default=False,
    ),
]
JobsOption = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        help="Worker processes (default 1; 0: one per core); with --ray, the CPUs of the local "
        "Ray instance (default: every core).",
        show_default=False,
    ),
]
RayFlag = Annotated[
    bool,
    typer.Option(
        "--ray",
        help="Run on Ray (the cluster extra): --ray alone starts a local instance for the run, "
        "--ray ADDRESS uses a cluster.",
    ),
]


def arena_command(
    a: Annotated[
        str,
        typer.Argument(
            help="Player A: a spec, NAME or NAME:key=value,... (`bezique bots`: a level, a "
            "baseline or a family with settings and a budget, e.g. pimc-c:bar=2/1.5,"
            "iterations=4000), or oracle, oracle-c or oracle-hand (they cheat)."
        ),
    ],
    b: Annotated[str, typer.Argument(help="Player B, written as A is.")],
    address: AddressArgument = None,
    variant: Annotated[
        str, typer.Option("--variant", "-v", help="Preset (or rules string) to play.")
    ] = "classic",
    option: OptionList = None,
    deals: Annotated[
        int, typer.Option("--deals", "-n", help="Decks to play; each is played in every seating.")
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Arena seed: decides every deck.")] = 1,
    jobs: JobsOption = None,
    ray: RayFlag = False,
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Also write every deal and the figures here.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress line.")] = False,
) -> None:
    """Play two computer players against each other on mirrored deals (each deck twice, seats
    swapped) and report win rates, the point margin and Elo, with 95% intervals."""
    from ..arena.distributed import ClusterError
    from ..arena.runner import PlayerSpec, run_arena

    rules = build_rules(variant, option)
    try:
        spec_a, spec_b = PlayerSpec.parse(a), PlayerSpec.parse(b)
    except ValueError as e:
        fail(str(e))
    if deals < 1:
        fail(f"--deals must be at least 1: got {deals}")
    if seed < 0:
        fail(f"--seed must not be negative: got {seed}")
    jobs, ray_address = where_to_run(jobs, ray, address)
    progress = Progress("decks", quiet)
    try:
        result = run_arena(
            spec_a,
            spec_b,
            rules,
            decks=deals,
            seed=seed,
            jobs=jobs,
            ray=ray_address,
            progress=progress,
        )
    except ClusterError as e:
        progress.end()
        fail(str(e))
    progress.end()
    result.variant = variant
    _report(result, json_file)


class Progress:
    """``done/total UNIT`` on one line of stderr as work finishes (only on a terminal)."""

    def __init__(self, unit: str, quiet: bool) -> None:
        self.unit = unit
        self.show = not quiet and sys.stderr.isatty()
        self.err = Console(stderr=True, highlight=False)

    def __call__(self, done: int, total: int) -> None:
        if self.show:
            self.err.print(f"\r{done}/{total} {self.unit}", end="")

    def end(self) -> None:
        """Finish the line."""
        if self.show:
            self.err.print()


def where_to_run(jobs: int | None, ray: bool, address: str | None) -> tuple[int | None, str | None]:
    """``jobs`` and ``ray`` of the run for ``--jobs``, ``--ray`` and the ADDRESS argument, or a
    one-line error for a negative ``--jobs``, an address without ``--ray``, a malformed address,
    a missing Ray or ``--jobs`` with a cluster."""
    from ..arena.distributed import LOCAL, ClusterError, check_address, require_ray

    if jobs is not None and jobs < 0:
        fail(f"--jobs must not be negative: got {jobs}")
    if jobs == 0:
        jobs = os.cpu_count() or 1
    if not ray:
        if address is not None:
            fail(f"unexpected argument {address!r}: a Ray address follows --ray")
        return jobs, None
    try:
        target = check_address(address or LOCAL)
        require_ray()  # say what to install before any work starts
    except ClusterError as e:
        fail(str(e))
    if target != LOCAL and jobs is not None:
        fail("--jobs sets the CPUs of a local Ray instance: a cluster uses all of its CPUs")
    return jobs, target


def selfplay_command(
    bot: Annotated[
        str,
        typer.Argument(
            help="The bot in every seat: a spec (`bezique bots`), e.g. pimc:nodes=2000."
        ),
    ],
    address: AddressArgument = None,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="The .npz file to write the positions to.")
    ] = Path("selfplay.npz"),
    variant: Annotated[
        str, typer.Option("--variant", "-v", help="Preset (or rules string) to play.")
    ] = "classic",
    option: OptionList = None,
    deals: Annotated[int, typer.Option("--deals", "-n", help="Deals to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Run seed: decides every deal.")] = 1,
    jobs: JobsOption = None,
    ray: RayFlag = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress line.")] = False,
) -> None:
    """Play seeded deals with one bot in every seat and write every position (the observation
    of the seat to move, encoded) with its final point margin to an .npz file, as training data
    for a learned evaluation."""
    from ..arena.distributed import ClusterError

    rules = build_rules(variant, option)
    if deals < 1:
        fail(f"--deals must be at least 1: got {deals}")
    if seed < 0:
        fail(f"--seed must not be negative: got {seed}")
    if out.suffix != ".npz":
        fail(f"--out {out}: the positions are written to an .npz file")
    jobs, ray_address = where_to_run(jobs, ray, address)
    try:
        from ..arena.selfplay import describe, generate
    except ImportError as e:
        fail(f"self-play needs numpy (pip install 'bezique[cluster]'): {e}")
    progress = Progress("deals", quiet)
    try:
        positions = generate(
            bot, rules, deals=deals, seed=seed, jobs=jobs, ray=ray_address, progress=progress
        )
    except (ValueError, ClusterError) as e:
        progress.end()
        fail(str(e))
    progress.end()
    try:
        positions.save(out)
    except OSError as e:
        fail(f"could not write {out}: {e}")
    d = describe(positions)
    Console(highlight=False, soft_wrap=True).print(
        f"{positions.bot} in every seat: {variant}, {d['deals']} deals, seed {seed}, "
        f"{positions.seconds:.0f} s\n"
        f"  {d['positions']} positions x {d['features']} features, final margin "
        f"{d['margin_mean']:.1f} ± {d['margin_sd']:.1f} (mean ± sd), written to {out}"
    )


def arena_pool_command(
    files: Annotated[
        list[Path], typer.Argument(help="`bezique arena --json` files of the same pair and rules.")
    ],
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Also write the pooled deals and figures here.")
    ] = None,
) -> None:
    """Pool arena runs of the same two players and rules played with different seeds (on one
    machine or many) and report the figures over all their decks."""
    from ..arena.runner import ArenaResult, pool

    results = []
    for path in files:
        try:
            results.append(ArenaResult.from_json(json.loads(path.read_text())))
        except OSError as e:
            fail(f"could not read {path}: {e}")
        except ValueError as e:  # json.JSONDecodeError is a ValueError too
            fail(f"{path}: {e}")
    try:
        result = pool(results)
    except ValueError as e:
        fail(str(e))
    _report(result, json_file)


def _report(result: ArenaResult, json_file: Path | None) -> None:
    """Print the figures; write everything to ``json_file`` when given."""

    Console(highlight=False, soft_wrap=True).print(Text(result.text()))
    if json_file is not None:
        try:
            json_file.write_text(json.dumps(result.to_json(), indent=1) + "\n")
        except OSError as e:
            fail(f"could not write {json_file}: {e}")
