"""The examples in the docstrings of the core, the keeper and the bots run as tests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bezique

PACKAGES = ("bezique.core", "bezique.keeper", "bezique.bots")
MODULES = sorted(
    {
        name
        for package in PACKAGES
        for name in [package]
        + [
            info.name
            for info in pkgutil.iter_modules(
                importlib.import_module(package).__path__, package + "."
            )
        ]
    }
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_there_are_examples_to_run() -> None:
    attempted = sum(
        doctest.testmod(importlib.import_module(name), report=False).attempted for name in MODULES
    )
    assert attempted >= 10 and bezique.__name__ == "bezique"
