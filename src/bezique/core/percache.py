"""The one way to keep tables worked out once per rule set.

A :class:`~bezique.core.rules.Rules` value is frozen, and hashing one walks every option, which
costs more than many of the tables it would look up.  So a per-rules table is kept on the value
itself, in its instance dictionary, under a key private to the function that builds it:
:func:`per_rules` wraps such a function.  The table lives exactly as long as the rules value,
equal rule values built apart share nothing (each builds its own, with the same result), and
no module keeps a global cache keyed by rules.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

if TYPE_CHECKING:
    from .rules import Rules

P = ParamSpec("P")
T = TypeVar("T")


def per_rules(fn: Callable[Concatenate[Rules, P], T]) -> Callable[Concatenate[Rules, P], T]:
    """Remember ``fn(rules, *args)`` on the rules value (``args`` must be hashable).

    >>> from bezique.core.rules import Rules
    >>> calls = []
    >>> @per_rules
    ... def double_target(rules):
    ...     calls.append(1)
    ...     return 2 * rules.target
    >>> r = Rules.preset("classic")
    >>> double_target(r), double_target(r), len(calls)
    (2000, 2000, 1)
    """
    key = f"_per_rules:{fn.__module__}.{fn.__qualname__}"
    if len(inspect.signature(fn).parameters) == 1:
        # the common case, on hot paths: the value itself sits on the rules value
        def cached(rules: Rules, /, *args: P.args, **kwargs: P.kwargs) -> T:
            try:
                return rules.__dict__[key]  # type: ignore[no-any-return]
            except KeyError:
                value = rules.__dict__[key] = fn(rules, *args, **kwargs)
                return value

    else:

        def cached(rules: Rules, /, *args: P.args, **kwargs: P.kwargs) -> T:
            table: dict[Hashable, Any] | None = rules.__dict__.get(key)
            if table is None:
                table = rules.__dict__[key] = {}
            arg_key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
            try:
                return table[arg_key]  # type: ignore[no-any-return]
            except KeyError:
                value = table[arg_key] = fn(rules, *args, **kwargs)
                return value

    functools.update_wrapper(cached, fn)
    return cached


__all__ = ["per_rules"]
