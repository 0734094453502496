"""docs/architecture.md says what the tree is ("DESIGN.md's house is what the tree
shows"): its tree names every package, module and file under ``src/bezique`` and nothing that
is gone, every source path it mentions elsewhere exists, and its table of which package may
import which allows every import the code makes (the graph of ``tests/import_graph.py``)."""

from __future__ import annotations

import re

from import_graph import PACKAGE, package_graph

ROOT = PACKAGE.parent.parent
DOC = ROOT / "docs" / "architecture.md"
TEXT = DOC.read_text()

# what the tree need not name: build outputs, and the words of each language (i18n/ is named)
IGNORED_DIRS = {"__pycache__"}
IGNORED_SUFFIXES = {".pyc", ".so", ".pyd", ".o"}
WHOLE_DIRS = {"web/i18n"}


def tree_block(text: str) -> list[str]:
    """The lines of the fenced block that starts with ``src/bezique/``."""
    m = re.search(r"^```\n(src/bezique/\n.*?)^```", text, re.S | re.M)
    assert m, "docs/architecture.md has no tree block starting with src/bezique/"
    return m.group(1).splitlines()


def tree_paths(lines: list[str]) -> set[str]:
    """The paths the tree names, relative to ``src/bezique`` (directories end in ``/``): each
    line indented two spaces per level, its first word the name."""
    out: set[str] = set()
    parents: list[str] = []
    for line in lines[1:]:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0 and indent >= 2, f"odd indentation in the tree: {line!r}"
        depth = indent // 2 - 1
        assert depth <= len(parents), f"a line deeper than its parent: {line!r}"
        del parents[depth:]
        name = line.split()[0]
        path = "".join(parents) + name
        assert path not in out, f"named twice in the tree: {path}"
        out.add(path)
        if name.endswith("/"):
            parents.append(name)
    return out


def source_paths() -> set[str]:
    """Every directory and file under ``src/bezique`` the tree must name."""
    out: set[str] = set()
    for p in sorted(PACKAGE.rglob("*")):
        rel = p.relative_to(PACKAGE)
        parts = rel.parts
        if IGNORED_DIRS & set(parts) or p.suffix in IGNORED_SUFFIXES:
            continue
        if any("/".join(parts[:i]) in WHOLE_DIRS for i in range(1, len(parts))):
            continue
        out.add(rel.as_posix() + ("/" if p.is_dir() else ""))
    return out


def test_the_tree_reader_reads_nesting() -> None:
    lines = [
        "src/bezique/",
        "  a.py   x",
        "  b/     y",
        "    c.py  z",
        "    d/",
        "      e.js",
        "  f.py",
    ]
    assert tree_paths(lines) == {"a.py", "b/", "b/c.py", "b/d/", "b/d/e.js", "f.py"}


def test_the_tree_names_what_exists_and_nothing_else() -> None:
    named = tree_paths(tree_block(TEXT))
    present = source_paths()
    missing = sorted(present - named)
    gone = sorted(named - present)
    assert not missing, f"under src/bezique but not in docs/architecture.md's tree: {missing}"
    assert not gone, f"in docs/architecture.md's tree but not under src/bezique: {gone}"


def test_every_package_and_top_level_module_is_named() -> None:
    """The packages (and any module at the top of ``src/bezique``, as ``cli.py`` once was)."""
    named = tree_paths(tree_block(TEXT))
    top = {p.name + "/" if p.is_dir() else p.name for p in PACKAGE.iterdir()}
    top -= {d + "/" for d in IGNORED_DIRS}
    assert {"core/", "cli/", "keeper/", "web/"} <= top
    assert top <= named
    assert {p for p in named if p.count("/") == (1 if p.endswith("/") else 0)} == top


def test_source_paths_mentioned_anywhere_exist() -> None:
    """Paths in backquotes (``core/scoring.py``, ``src/bezique/server/...``) and dotted module
    names (``bezique.core.events``) name something that is there (a module, a package, or the
    C extension setup.py builds)."""
    for path in re.findall(r"`(?:src/bezique/)?((?:[a-z_]+/)+[A-Za-z_.]+\.[a-z]+)`", TEXT):
        assert (PACKAGE / path).exists() or (ROOT / path).exists(), path
    built = set(re.findall(r'"(bezique(?:\.\w+)+)"', (ROOT / "setup.py").read_text()))
    for dotted in re.findall(r"\bbezique(?:\.[a-z_]+)+", TEXT):
        base = PACKAGE.joinpath(*dotted.split(".")[1:])
        assert base.is_dir() or base.with_suffix(".py").exists() or dotted in built, dotted


def allowed_imports() -> dict[str, set[str]]:
    """The table under "Which package may import which": package -> the packages it may import."""
    section = TEXT.split("## Which package may import which", 1)[1].split("\n## ", 1)[0]
    out: dict[str, set[str]] = {}
    for row in re.findall(r"^\| `(\w+)` \| (.*?) \|$", section, re.M):
        out[row[0]] = set(re.findall(r"`(\w+)`", row[1]))
    return out


def test_every_import_between_packages_is_allowed_by_the_doc() -> None:
    allowed = allowed_imports()
    graph = package_graph()
    packages = set(graph) - {"bezique"}
    assert set(allowed) == packages, "the table names each package once"
    for package, imports in graph.items():
        if package == "bezique":  # the public names: core's, re-exported
            assert imports <= {"core"}
            continue
        extra = sorted(imports - allowed[package])
        assert not extra, f"{package} imports {extra}, which docs/architecture.md does not allow"
    # what tests/test_structure.py holds as law, the table says too
    assert allowed["core"] == set()
    assert allowed["fast"] <= {"core"} and allowed["keeper"] <= {"core"}
    assert not any("cli" in targets for targets in allowed.values())


def test_readme_and_api_link_to_it() -> None:
    assert "docs/architecture.md" in (ROOT / "README.md").read_text()
    assert "architecture.md" in (ROOT / "docs" / "api.md").read_text()
