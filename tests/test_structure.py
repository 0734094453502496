"""The shape of the source tree (DESIGN.md "The house"): no import circle, lazy imports
included, and no module over 800 lines.

Imports are read statically from every module of ``src/bezique``: at the top, inside functions
(lazy imports) and anywhere else, but not under ``if TYPE_CHECKING:`` (those are never run).
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "bezique"
MOST_LINES = 800


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    out: list[ast.Import | ast.ImportFrom] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking_only(child):
            for other in child.orelse:
                out += (
                    _imports(other)
                    if not isinstance(other, ast.Import | ast.ImportFrom)
                    else [other]
                )
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            out.append(child)
        else:
            out += _imports(child)
    return out


def imported_modules(name: str) -> set[str]:
    """The project modules a module imports, lazily or not."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _imports(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = []
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in MODULES else base)
        out.update(t for t in targets if t in MODULES and t != name)
    return out


GRAPH = {name: imported_modules(name) for name in MODULES}


def cycles() -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each as a list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return out


def test_the_graph_is_read() -> None:
    """The reader sees top-level, lazy and relative imports (so an empty answer means something)."""
    assert "bezique.core.rules" in GRAPH["bezique.core.deal"] or any(
        "bezique.core.rules" in GRAPH[m] for m in GRAPH["bezique.core.deal"]
    )
    assert GRAPH["bezique.core.cards"] == set()
    assert "bezique.core.deal" in GRAPH["bezique.core.match"]


def test_no_import_circle() -> None:
    assert cycles() == []


def package_of(module: str) -> str:
    """The top-level package of a module (``bezique.core.deal`` -> ``core``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def package_graph() -> dict[str, set[str]]:
    """Which of the packages under ``bezique`` import which (lazy imports included)."""
    out: dict[str, set[str]] = {package_of(m): set() for m in GRAPH}
    for name, targets in GRAPH.items():
        out[package_of(name)] |= {package_of(t) for t in targets} - {package_of(name)}
    return out


def test_no_circle_between_packages() -> None:
    """DESIGN.md "The house": the arrows between the packages point one way (the command
    line on top; ``fast`` under the bots and the environments), so not even a lazy import
    goes back up: a circle of modules in different packages is a circle all the same."""
    graph = package_graph()
    seen: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(p: str, path: list[str]) -> None:
        seen[p] = 1
        for q in sorted(graph[p]):
            assert seen.get(q) != 1, f"import circle: {' -> '.join([*path, p, q])}"
            if q not in seen:
                walk(q, [*path, p])
        seen[p] = 2

    for p in sorted(graph):
        if p not in seen:
            walk(p, [])
    assert graph["fast"] <= {"core"}, graph["fast"]
    assert graph["keeper"] <= {"core"}, graph["keeper"]
    assert "cli" not in set().union(*(t for p, t in graph.items() if p != "cli"))


def test_core_imports_nothing_of_the_project_outside_core() -> None:
    for name, targets in GRAPH.items():
        if name.startswith("bezique.core"):
            outside = sorted(t for t in targets if not t.startswith("bezique.core"))
            assert outside == [], f"{name} imports {outside}"


def test_no_module_over_800_lines() -> None:
    sizes = {name: len(path.read_text().splitlines()) for name, path in MODULES.items()}
    assert {n: s for n, s in sizes.items() if s > MOST_LINES} == {}


def test_per_rules_tables_are_kept_one_way() -> None:
    """A table worked out per rule set goes through ``core.percache.per_rules``,
    never ``functools.cache`` or ``lru_cache`` on a function of a ``Rules`` (which hashes every
    option at each call and keeps the rules alive)."""
    found = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.args.args:
                continue
            first = node.args.args[0].annotation
            takes_rules = isinstance(first, ast.Name | ast.Constant) and "Rules" in ast.unparse(
                first
            )
            cached = any(
                "cache" in ast.unparse(d) and "per_rules" not in ast.unparse(d)
                for d in node.decorator_list
            )
            if takes_rules and cached:
                found.append(f"{name}.{node.name}")
    assert found == []


def test_the_laboratory_stays_outside_the_package() -> None:
    """``lab/`` (research scripts, records, notebook) is no part of the product: no module of
    the package imports it, and setuptools looks for packages under ``src/`` alone, so the
    wheel holds none of it."""
    importing = sorted(
        name
        for name, path in MODULES.items()
        for node in _imports(ast.parse(path.read_text()))
        for target in (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
        )
        if target == "lab" or target.startswith("lab.")
    )
    assert importing == []
    config = tomllib.loads((SRC.parent / "pyproject.toml").read_text())
    assert config["tool"]["setuptools"]["packages"]["find"]["where"] == ["src"]
    assert not (SRC / "lab").exists()
