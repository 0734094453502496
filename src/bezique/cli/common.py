"""What every ``bezique`` subcommand shares: the console, one-line errors, and the rules
built from ``--variant`` and ``--option key=value`` (the one option parser of the command line).
"""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from ..core.rules import Rules

OptionList = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="KEY=VALUE",
        help="Change a rule option, e.g. --option target=1500 (repeat for more; "
        "`bezique rules --options` lists them).",
    ),
]
"""The ``--option KEY=VALUE`` of every command that takes rules (read by :func:`build_rules`)."""


def console() -> Console:
    """The console the commands print to."""
    return Console(highlight=False)


def fail(message: str) -> NoReturn:
    """Print a one-line error to stderr and exit with status 2."""
    Console(stderr=True, highlight=False).print(
        Text.assemble(("error: ", "bold red"), " ".join(message.split())), soft_wrap=True
    )
    raise typer.Exit(2)


def build_rules(variant: str, options: list[str] | None) -> Rules:
    """A preset (or rules string) with ``key=value`` options, read as ``Rules.from_string``
    reads them."""
    pairs = []
    for item in options or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            fail(f"--option {item!r}: expected KEY=VALUE, e.g. --option target=1500")
        if any(ch in key for ch in "(),"):
            fail(f"--option {item!r}: bad option name {key.strip()!r}")
        pairs.append(f"{key.strip()}={value.strip()}")
    text = variant.strip()
    if pairs:
        body = ",".join(pairs)
        text = f"{text[:-1]},{body})" if text.endswith(")") else f"{text}({body})"
    try:
        return Rules.from_string(text)
    except ValueError as e:
        fail(str(e))


__all__ = ["OptionList", "build_rules", "console", "fail"]
