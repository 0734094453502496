"""``bezique arena``: two players on mirrored deals, with a text report and optional JSON."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:
    from .runner import ArenaResult

OptionList = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", metavar="KEY=VALUE", help="Change a rule option (repeat for more)."
    ),
]


def arena_command(
    a: Annotated[
        str,
        typer.Argument(
            help="Player A: a bot or level name (`bezique bots`), or oracle; a budget may follow, "
            "e.g. pimc:nodes=5000."
        ),
    ],
    b: Annotated[str, typer.Argument(help="Player B, written as A is.")],
    variant: Annotated[
        str, typer.Option("--variant", "-v", help="Preset (or rules string) to play.")
    ] = "classic",
    option: OptionList = None,
    deals: Annotated[
        int, typer.Option("--deals", "-n", help="Decks to play; each is played in every seating.")
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Arena seed: decides every deck.")] = 1,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Worker processes (0: one per core).")
    ] = 1,
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Also write every deal and the figures here.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress line.")] = False,
) -> None:
    """Play two computer players against each other on mirrored deals (each deck twice, seats
    swapped) and report win rates, the point margin and Elo, with 95% intervals."""
    from ..cli.common import build_rules, fail
    from .runner import PlayerSpec, run_arena

    rules = build_rules(variant, option)
    try:
        spec_a, spec_b = PlayerSpec.parse(a), PlayerSpec.parse(b)
    except ValueError as e:
        fail(str(e))
    if deals < 1:
        fail(f"--deals must be at least 1: got {deals}")
    if seed < 0:
        fail(f"--seed must not be negative: got {seed}")
    if jobs < 0:
        fail(f"--jobs must not be negative: got {jobs}")
    jobs = jobs or os.cpu_count() or 1
    err = Console(stderr=True, highlight=False)
    show = not quiet and sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if show:
            err.print(f"\r{done}/{total} decks", end="")

    result = run_arena(spec_a, spec_b, rules, decks=deals, seed=seed, jobs=jobs, progress=progress)
    if show:
        err.print()
    result.variant = variant
    _report(result, json_file)


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
    from ..cli.common import fail
    from .runner import ArenaResult, pool

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
    from ..cli.common import fail

    Console(highlight=False, soft_wrap=True).print(Text(result.text()))
    if json_file is not None:
        try:
            json_file.write_text(json.dumps(result.to_json(), indent=1) + "\n")
        except OSError as e:
            fail(f"could not write {json_file}: {e}")
