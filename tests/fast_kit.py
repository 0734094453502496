"""Helpers for the tests of the compiled engine (bezique.fast): a rule test of the reference
core run with every action of its deals mirrored in the compiled engine and compared after each
(:class:`Twins`, :func:`mirror`; :func:`rule_tests` lists a module's rule tests with their
parameters), and a random source that always says 0 (:class:`ZeroRandom`).  The rule-fact
modules (tests/test_rules_haitian.py, test_rules_old_russian.py, test_rules_seed_options.py)
mirror their own facts with these."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from bezique import Deal, fast
from bezique.fast.differential import compare


class Twins:
    """Every reference deal the rule-fact tests play, mirrored in the compiled engine: each
    action applied to a deal is applied to a twin ``FastDeal`` (and a reference copy with the
    same card ids), which are compared after it."""

    def __init__(self) -> None:
        self.pairs: dict[int, tuple[Deal, Deal, Any]] = {}
        self.busy = False
        self.steps = 0
        self.apply = Deal.apply

    def patched(self) -> Any:
        twins = self

        def apply(deal: Deal, action: Any) -> None:
            if twins.busy or not fast.supports(deal.rules):
                twins.apply(deal, action)
                return
            twins.busy = True
            try:
                pair = twins.pairs.get(id(deal))
                if pair is None or pair[0] is not deal:
                    shadow = Deal.from_position(deal.position())
                    pair = twins.pairs[id(deal)] = (deal, shadow, fast.FastDeal.from_deal(deal))
            finally:
                twins.busy = False
            twins.apply(deal, action)  # an illegal action raises here, before the twins move
            twins.busy = True
            try:
                _, shadow, f = pair
                twins.apply(shadow, action)
                f.apply(action)
                compare(shadow, f)
                twins.steps += 1
            finally:
                twins.busy = False

        return apply


def rule_tests(namespace: Mapping[str, Any], prefix: str = "test_") -> Iterator[Any]:
    """The rule tests of a module (its ``globals()``) whose names start with ``prefix``, as
    ``pytest.param(test, kwargs)``, one per set of parameters of a parametrized test."""
    for name in sorted(n for n in namespace if n.startswith(prefix)):
        test = namespace[name]
        cases: list[dict[str, Any]] = [{}]
        for mark in getattr(test, "pytestmark", []):
            if mark.name != "parametrize":
                continue
            names = (
                [n.strip() for n in mark.args[0].split(",")]
                if isinstance(mark.args[0], str)
                else list(mark.args[0])
            )
            values = [v.values if hasattr(v, "values") else v for v in mark.args[1]]
            values = [v if len(names) > 1 else (v,) for v in values]
            cases = [{**c, **dict(zip(names, v, strict=True))} for c in cases for v in values]
        for i, kwargs in enumerate(cases):
            yield pytest.param(test, kwargs, id=f"{name}-{i}" if kwargs else name)


def mirror(test: Any, kwargs: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> int:
    """Run a rule test with every action of its deals mirrored in C; the steps mirrored."""
    twins = Twins()
    monkeypatch.setattr(Deal, "apply", twins.patched())
    test(**kwargs)
    return twins.steps


class ZeroRandom(random.Random):
    """A random source that always says 0: the Python policy without its random tie-breaks."""

    def random(self) -> float:
        return 0.0
