"""The package's imports, read statically from the source of every module of ``src/bezique``
(:data:`GRAPH`, which project modules each module imports, and :func:`package_graph`, which
packages under ``bezique`` import which): at the top, inside functions (lazy imports) and
anywhere else, but not under ``if TYPE_CHECKING:`` (those are never run).  Read by
tests/test_structure.py and tests/test_architecture_doc.py."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "bezique"


def module_name(path: Path) -> str:
    """The dotted name of a module of the package, from its path."""
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


def imports_in(node: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """The import statements under a node, at any depth, but not under ``if TYPE_CHECKING:``."""
    out: list[ast.Import | ast.ImportFrom] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking_only(child):
            for other in child.orelse:
                out += (
                    imports_in(other)
                    if not isinstance(other, ast.Import | ast.ImportFrom)
                    else [other]
                )
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            out.append(child)
        else:
            out += imports_in(child)
    return out


def imported_modules(name: str) -> set[str]:
    """The project modules a module imports, lazily or not."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in imports_in(ast.parse(path.read_text())):
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
