"""The shape of the source tree (DESIGN.md "The house"): no import circle, lazy imports
included, not even between packages; the core imports nothing of the project outside it; no
module over 800 lines; tables worked out per rule set kept one way; the laboratory outside the
package; and no test module importing another (what tests share is in helper modules, listed in
tests/helpers.py, and shared fixtures in tests/conftest.py).

The package's imports are read statically (tests/import_graph.py): at the top, inside functions
(lazy imports) and anywhere else, but not under ``if TYPE_CHECKING:`` (those are never run).
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from import_graph import GRAPH, MODULES, SRC, imports_in, package_graph

MOST_LINES = 800
TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


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
        for node in imports_in(ast.parse(path.read_text()))
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


def imported_test_modules(path: Path) -> list[tuple[int, str]]:
    """The test modules (``test_*``) a file imports, with the line of each import: at the top,
    inside functions or anywhere else, by an import statement or by ``importlib.import_module``
    or ``__import__`` with a constant name."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] if node.level == 0 else []
        elif (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) in ("importlib.import_module", "import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = [node.args[0].value]
        else:
            continue
        found += [(node.lineno, n) for n in names if n.split(".")[0].startswith("test_")]
    return found


def test_the_test_import_reader_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The reader finds top-level, lazy and dynamic imports of test modules, and nothing else."""
    path = tmp_path / "sample.py"
    path.write_text(
        "import importlib\n"
        "import test_a as facts\n"
        "from test_b import x\n"
        "from helpers import free_port\n"
        "def f():\n"
        "    from test_c.sub import y\n"
        "    import test_d\n"
        "    return importlib.import_module('test_e'), __import__('latest')\n"
    )
    assert [n for _, n in imported_test_modules(path)] == [
        "test_a",
        "test_b",
        "test_c.sub",
        "test_d",
        "test_e",
    ]


def test_no_test_module_imports_another() -> None:
    """A test module is run by pytest, never imported: what several test modules share lives in
    a helper module (tests/helpers.py lists them), and shared fixtures in tests/conftest.py.  A
    module that imports a test module takes in its fixtures, and any test imported by name, which
    then run a second time under another name.  The benchmarks, which borrow the tests' helpers,
    import no test module either."""
    files = [*sorted(TESTS.glob("*.py")), *sorted((ROOT / "benchmarks").glob("*.py"))]
    assert len(files) > 50  # the reader looks where the tests are
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in files
        for line, name in imported_test_modules(path)
    ]
    assert not found, "\n".join(found)


def test_every_slow_entry_names_a_test_that_exists() -> None:
    """The list of slow tests that ``make check`` leaves out names real files and functions
    (an entry left behind by a move would quietly put a slow test back in the quick loop)."""
    from conftest import SLOW

    for entry in SLOW:
        path, _, name = entry.partition("::")
        source = ROOT / path
        assert source.is_file(), entry
        if name:
            assert f"def {name}(" in source.read_text(encoding="utf-8"), entry
