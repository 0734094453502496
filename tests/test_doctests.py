"""The examples in the docstrings of every module of the package run as tests (the module
doctests run in ``make test``).

A module that needs an optional extra that is not installed (the web server, OpenSpiel, Ray...)
is skipped, saying which; every other module must import and its examples must pass.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import bezique

MODULES = sorted(
    ["bezique"]
    + [
        info.name
        for info in pkgutil.walk_packages(bezique.__path__, "bezique.")
        if not info.name.endswith(".__main__")  # runs the command when imported
    ]
)
# what a module may need that the package does not install by default (the extras)
OPTIONAL = {"fastapi", "starlette", "uvicorn", "pyspiel", "ray", "gymnasium", "pettingzoo"}


def load(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError as e:
        missing = (e.name or "").partition(".")[0]
        if missing in OPTIONAL:
            pytest.skip(f"{name} needs {missing}, not installed")
        raise


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(load(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_every_package_is_read() -> None:
    """The walk reaches into every subpackage (so a missing one cannot pass unnoticed)."""
    tops = {n.split(".")[1] for n in MODULES if n.count(".") >= 1}
    assert {"core", "keeper", "bots", "arena", "envs", "fast", "server", "tui", "cli"} <= tops


def test_there_are_examples_to_run() -> None:
    attempted = 0
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        attempted += doctest.testmod(module, report=False).attempted
    assert attempted >= 20 and bezique.__name__ == "bezique"
