"""Write the option tables of docs/variants.md from the Rules presets.

Each table sits between ``<!-- options: PRESET -->`` and ``<!-- end options -->``; for the
classic preset it lists every option, for the others the options that differ from classic.
Run it after changing a preset: ``python scripts/make_variant_tables.py`` (``--check``: exit 1
if the committed tables differ, writing nothing).
tests/test_play_variants.py checks that the document says what the presets say.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from bezique import Rules
from bezique.tui.rules_text import _value

DOC = Path(__file__).resolve().parent.parent / "docs" / "variants.md"
BLOCK = re.compile(r"(<!-- options: ([\w-]+) -->\n)(.*?)(<!-- end options -->)", re.S)


def table(preset: str) -> str:
    """The markdown table of a preset's options (all of them for classic)."""
    docs = Rules.option_docs()
    rules = Rules.preset(preset)
    base = Rules.preset("classic")
    names = [
        n
        for n in Rules.option_names()
        if preset == "classic" or getattr(rules, n) != getattr(base, n)
    ]
    head = "| Option | Value | Meaning |\n|---|---|---|\n"
    if not names:
        return "Every option as in classic.\n"
    rows = [
        f"| `{n}` | `{_value(getattr(rules, n))}` | {docs[n].replace('|', '/')} |\n" for n in names
    ]
    return head + "".join(rows)


def render(text: str) -> str:
    """The document with every table rewritten from the presets."""
    return BLOCK.sub(lambda m: m.group(1) + table(m.group(2)) + m.group(4), text)


def main(argv: list[str] | None = None) -> int:
    """Rewrite the tables, or with ``--check`` say whether the committed ones are stale."""
    parser = argparse.ArgumentParser(description="Rewrite docs/variants.md's option tables.")
    parser.add_argument(
        "--check", action="store_true", help="compare with the committed file; write nothing"
    )
    args = parser.parse_args(argv)
    text = DOC.read_text(encoding="utf-8")
    new = render(text)
    if args.check and new != text:
        print(
            "docs/variants.md's option tables are stale: run python scripts/make_variant_tables.py",
            file=sys.stderr,
        )
        return 1
    if new != text:
        DOC.write_text(new, encoding="utf-8")
        print(f"updated {DOC}")
    missing = [p for p in Rules.presets() if f"<!-- options: {p} -->" not in new]
    if missing:
        print(f"no section for: {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
