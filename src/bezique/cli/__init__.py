"""The ``bezique`` command: play against the computer, replay a record, read the rules.

::

    bezique play [--variant classic] [--option key=value ...] [--opponent simple|random]
                 [--seed N] [--save FILE] [--name NAME] [--seat N] [--hints]
    bezique play --resume FILE [--opponent NAME] [--save FILE] [--hints]
    bezique replay FILE [--seat N | --all]
    bezique rules [PRESET] [--option key=value ...] [--options [--all]]
    bezique bots
    bezique arena A B [--variant classic] [--deals N] [--seed S] [--jobs K] [--json FILE]
                      [--ray [ADDRESS]]
    bezique arena-pool FILE... [--json FILE]
    bezique self-play BOT [--deals N] [--seed S] [--out FILE.npz] [--jobs K] [--ray [ADDRESS]]
    bezique serve [--host 127.0.0.1] [--port 8000] [--data DIR] [--limit-concurrency N]
                  [--timeout-keep-alive S] [--api-docs] [--no-ws-compression]
                  [--database URL] [--nodes N | --node NAME]
                  [--forwarded-allow-ips IP,IP]

Wrong arguments (an unknown preset, option, value, bot or a bad record) give a one-line error
and exit status 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from .. import __version__
from ..core.rules import Rules
from .common import OptionList, build_rules, fail
from .common import console as _console

app = typer.Typer(
    name="bezique",
    help="Bezique, the card game: play against the computer, replay games, read the rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # plain help: the rich help of this typer shows every flag as taking a <bool> value
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        print(f"bezique {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Bezique, the card game."""


@app.command()
def play(
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant", "-v", help="Preset to play (see `bezique rules`; default classic)."
        ),
    ] = None,
    option: OptionList = None,
    opponent: Annotated[
        str | None,
        typer.Option(
            "--opponent",
            help="Computer player: a level (beginner, easy, medium, hard, expert), a baseline or "
            "a family with settings (`bezique bots`; default simple, or the resumed game's).",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for the cut and the shuffles.")
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            help="Write the game record to FILE after every deal and on quit (without it, "
            "quitting saves to bezique-play-DATE-TIME.json here).",
        ),
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", help="Your name in the game and the record (You).")
    ] = None,
    seat: Annotated[
        int | None, typer.Option("--seat", help="Your seat (0 or 1 in the two-handed game).")
    ] = None,
    hints: Annotated[
        bool,
        typer.Option("--hints", help="Show the expert's suggestion in plain words at each turn."),
    ] = False,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume",
            help="Continue the match saved in FILE (by --save or on quitting): the deals, the "
            "deal in progress and whose turn it is.",
        ),
    ] = None,
) -> None:
    """Play a match against the computer in the terminal."""
    import datetime

    from ..bots.registry import resolve
    from ..tui.game import TerminalGame

    chosen = None
    if opponent is not None:
        try:
            chosen = str(resolve(opponent))
        except ValueError as e:
            fail(str(e))
    if resume is not None:
        given = [
            flag
            for flag, value in (
                ("--variant", variant),
                ("--option", option or None),
                ("--seed", seed),
                ("--seat", seat),
                ("--name", name),
            )
            if value is not None
        ]
        if given:
            fail(
                f"--resume takes the rules, seed, seat and names from FILE: leave out {', '.join(given)}"
            )
        try:
            game = TerminalGame.resume(
                resume, opponent=chosen, console=_console(), hints=hints, save=save
            )
        except ValueError as e:
            fail(str(e))
        raise typer.Exit(game.run())
    rules = build_rules(variant or "classic", option)
    seat = 0 if seat is None else seat
    if not 0 <= seat < rules.players:
        fail(f"--seat must be a seat from 0 to {rules.players - 1}: got {seat}")
    if seed is not None and seed < 0:
        fail(f"--seed must not be negative: got {seed}")
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    game = TerminalGame(
        rules,
        opponent=chosen or "simple",
        seed=seed,
        seat=seat,
        name="You" if name is None else name,
        save=save,
        console=_console(),
        hints=hints,
        quit_save=None if save is not None else Path(f"bezique-play-{stamp}.json"),
    )
    raise typer.Exit(game.run())


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record written by `bezique play --save`.")],
    seat: Annotated[
        int | None, typer.Option("--seat", help="Show the game as this seat saw it (default 0).")
    ] = None,
    show_all: Annotated[
        bool, typer.Option("--all", help="Show every hand, not one seat's view.")
    ] = False,
) -> None:
    """Step through a game record: Enter next, b back, a number to jump, q quit."""
    from ..core.records import GameRecord, RecordError
    from ..tui.replay import Replayer

    if show_all and seat is not None:
        fail("give either --seat or --all, not both")
    try:
        record = GameRecord.read(file)
    except RecordError as e:
        fail(str(e))
    except (OSError, ValueError) as e:
        fail(f"{file}: {e}")
    try:
        replayer = Replayer(record, seat=None if show_all else (seat or 0), console=_console())
    except ValueError as e:
        fail(f"{file}: {e}")
    raise typer.Exit(replayer.run())


@app.command()
def rules(
    preset: Annotated[
        str, typer.Argument(help="A preset name, or a rules string such as classic(target=1500).")
    ] = "classic",
    option: OptionList = None,
    options: Annotated[
        bool,
        typer.Option(
            "--options",
            help="List the options these rules change from their base game, with their values "
            "and meanings.",
        ),
    ] = False,
    every: Annotated[
        bool, typer.Option("--all", help="With --options: list every other option too.")
    ] = False,
) -> None:
    """Print the rules of a preset in plain words."""
    from ..tui.rules_text import render_options, render_rules

    chosen = build_rules(preset, option)
    console = _console()
    console.print(render_options(chosen, every) if options else render_rules(chosen))
    if not options:
        console.print(
            Text(
                f"Presets: {', '.join(Rules.presets())}.  "
                "`bezique rules PRESET --options` lists the options.",
                style="dim",
            )
        )


@app.command("bots")
def list_bots() -> None:
    """List the computer players: the levels, the baselines and the search families with their
    settings (a player is named by a spec: NAME or NAME:key=value,...)."""
    from ..bots.levels import LEVELS
    from ..bots.registry import entries
    from ..bots.spec import describe_settings

    console = _console()
    shown = entries()
    width = max(len(e.name) for e in shown) + 2  # the longest name still leaves a gap
    heads = {"level": "Levels", "baseline": "Baselines", "family": "Search families"}
    for kind, head in heads.items():
        console.print(Text(head, style="bold underline"))
        for e in (e for e in shown if e.kind == kind):
            budget = f" (budget: {e.budget})" if e.budget else ""
            console.print(Text.assemble(("  " + f"{e.name:<{width}}", "bold"), e.about + budget))
            if kind == "level":
                console.print(Text("      " + LEVELS[e.name].spec, style="cyan"))
            for key, default, allowed, doc in describe_settings(e.settings):
                console.print(
                    Text.assemble(
                        ("      " + f"{key}={default}", "cyan"), f"  [{allowed}]  ", (doc, "dim")
                    )
                )
    console.print(
        Text(
            "A player is named NAME or NAME:key=value,... (any of them takes a budget: "
            "iterations=N, nodes=N or time=SECONDS), e.g. pimc-c:prior=learned,bar=2/1.5.",
            style="dim",
        )
    )


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    data: Annotated[
        Path | None,
        typer.Option("--data", help="Folder for the SQLite database (default ./bezique-data)."),
    ] = None,
    limit_concurrency: Annotated[
        int | None,
        typer.Option(
            "--limit-concurrency",
            min=1,
            help="uvicorn's limit: connections at once past which requests get 503 "
            "(default: none; keep it under the open-file limit, `ulimit -n`).",
        ),
    ] = None,
    timeout_keep_alive: Annotated[
        int,
        typer.Option(
            "--timeout-keep-alive", min=1, help="Seconds an idle HTTP connection is kept open."
        ),
    ] = 5,
    api_docs: Annotated[
        bool, typer.Option("--api-docs", help="Serve the API description at /openapi.json.")
    ] = False,
    ws_compression: Annotated[
        bool,
        typer.Option(
            "--ws-compression/--no-ws-compression",
            help="Compress WebSocket messages (less traffic; off: about a fifth less CPU).",
        ),
    ] = True,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            envvar="BEZIQUE_DATABASE_URL",
            show_envvar=False,
            help="Database URL (default: an SQLite file in the data folder; several nodes "
            "need postgresql://…).",
        ),
    ] = None,
    nodes: Annotated[
        int | None,
        typer.Option(
            "--nodes",
            min=1,
            max=64,
            help="Run N server nodes behind HAProxy on 127.0.0.1, sharing PostgreSQL (a cluster "
            "of its own in the data folder unless --database names one).",
        ),
    ] = None,
    node: Annotated[
        str | None,
        typer.Option(
            "--node",
            help="Serve as the node of this name among several sharing --database (PostgreSQL).",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            "--forwarded-allow-ips",
            help="Comma-separated addresses of the proxies whose X-Forwarded-For names the "
            "client (default: none, the header is ignored).",
        ),
    ] = "",
) -> None:
    """Serve the game in the browser (needs the web extra of the package)."""
    if not 1 <= port <= 65535:  # the socket layer would wrap a larger number silently
        fail(f"--port must be from 1 to 65535: got {port}")
    try:
        from ..server import serve as run_server
    except ImportError as e:
        fail(f"the server needs the web extra (pip install 'bezique[web]'): {e}")
    if database is not None:
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        try:
            make_url(database)
        except ArgumentError:
            fail("--database: not a database URL (sqlite:///FILE or postgresql://…)")
    if nodes is not None:
        _serve_nodes(nodes, host, port, data, database, limit_concurrency, ws_compression)
        return
    if node is not None and (node == "" or len(node) > 80 or not node.isprintable()):
        fail("--node: a name of 1 to 80 printable characters")
    try:
        run_server(
            host=host,
            port=port,
            data=None if data is None else str(data),
            limit_concurrency=limit_concurrency,
            timeout_keep_alive=timeout_keep_alive,
            api_docs=api_docs,
            ws_compression=ws_compression,
            database_url=database,
            node=node,
            forwarded_allow_ips=[a.strip() for a in forwarded_allow_ips.split(",") if a.strip()],
        )
    except ValueError as e:
        fail(str(e))


def _serve_nodes(
    nodes: int,
    host: str,
    port: int,
    data: Path | None,
    database: str | None,
    limit_concurrency: int | None,
    ws_compression: bool,
) -> None:
    """``bezique serve --nodes N``: the nodes, HAProxy and PostgreSQL (server/cluster.py)."""
    from ..server.cluster import Cluster, ClusterError, run

    # HAProxy on this machine names each client in X-Forwarded-For: the nodes believe it alone
    args = ["--forwarded-allow-ips", "127.0.0.1"]
    if not ws_compression:
        args.append("--no-ws-compression")
    if limit_concurrency is not None:
        args += ["--limit-concurrency", str(limit_concurrency)]
    cluster = Cluster(
        nodes,
        (data or Path("bezique-data")).resolve(),
        host=host,
        port=port,
        database=database,
        node_args=args,
    )
    try:
        run(cluster)
    except ClusterError as e:
        fail(str(e))


from .keep import keep_command  # noqa: E402  (bezique keep: the score-keeper)

app.command("keep")(keep_command)

from .arena import (  # noqa: E402  (bezique arena: bots against bots)
    arena_command,
    arena_pool_command,
    selfplay_command,
)

app.command("arena")(arena_command)
app.command("arena-pool")(arena_pool_command)
app.command("self-play")(selfplay_command)


def main() -> None:
    """Entry point of the ``bezique`` command."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
