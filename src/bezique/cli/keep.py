"""``bezique keep``: the command that starts the score-keeper (:class:`bezique.tui.keeper.
KeeperApp`) on a new match or on a journal to carry on."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Annotated

import typer

from ..core.rules import Rules
from ..keeper import Keeper
from ..tui.keeper import KeeperApp, check_names
from .common import OptionList, build_rules, fail
from .common import console as _console


def keep_command(
    variant: Annotated[
        str | None,
        typer.Option("--variant", "-v", help="Preset being played (default classic)."),
    ] = None,
    option: OptionList = None,
    players: Annotated[
        str | None,
        typer.Option("--players", help="The players' names in seat order, e.g. Ann,Bob."),
    ] = None,
    journal: Annotated[
        Path | None,
        typer.Option(
            "--journal",
            help="Journal file for the entries (default bezique-keep-DATE-TIME.jsonl here).",
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", help="Carry on the match kept in this journal."),
    ] = None,
    handicap: Annotated[
        str | None,
        typer.Option(
            "--handicap",
            help="Each side's starting score in every game, e.g. 0,100 (the Haitian "
            "cent-points handicap of the last match's loser).",
        ),
    ] = None,
) -> None:
    """Keep the score of a game played with real cards: enter what happened, deal by deal."""
    console = _console()
    if resume is not None:
        if (
            variant is not None
            or option
            or players is not None
            or journal is not None
            or handicap is not None
        ):
            fail(
                "--resume takes the rules, the players and the journal from FILE (a match "
                "keeps its rules, penalty scheme included): leave out --variant, --option, "
                "--players, --handicap and --journal"
            )
        try:
            keeper = Keeper.resume(resume)
        except ValueError as e:
            fail(str(e))
    else:
        rules: Rules = build_rules(variant or "classic", option)
        names = None
        if players is not None:
            names = [p.strip() for p in players.split(",")]
            try:
                check_names(names)
            except ValueError as e:
                fail(str(e))
        if journal is None:
            stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
            journal = Path(f"bezique-keep-{stamp}.jsonl")
            n = 1
            while journal.exists():
                n += 1
                journal = Path(f"bezique-keep-{stamp}-{n}.jsonl")
        starts = None
        if handicap is not None:
            try:
                starts = [int(h) for h in handicap.split(",")]
            except ValueError:
                fail(f"--handicap {handicap!r}: give a whole number per side, e.g. 0,100")
        try:
            keeper = Keeper(rules, names, journal, handicap=starts)
        except ValueError as e:
            fail(str(e))
        except OSError as e:
            fail(f"cannot write the journal {journal}: {e.strerror or e}")
    try:
        app = KeeperApp(keeper, console)
    except ValueError as e:
        fail(str(e))
    raise typer.Exit(app.run())


__all__ = ["keep_command"]
