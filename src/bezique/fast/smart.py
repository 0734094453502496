"""The weights of the compiled ``'smart'`` policy.

The ``'smart'`` policy (``fast/policy.c``) is the heuristic player's stage-1 rules of thumb in
C: each card the seat may play gets a *keep value* (what it is worth held), and a lead or a
follow is worth what the trick brings less the keep value of the card spent.  Its numbers are
the weights below, in the order :data:`SMART_PARAMS` names them; :data:`SMART_DEFAULT` is the
heuristic player's own set.  Any other set of the same length may be given to
:meth:`FastDeal.pimc <bezique.fast.FastDeal.pimc>` (the playouts and the prior of a search) and
to :func:`bezique.fast.duel`, which plays two sets against each other on mirrored decks in C,
for tuning (``scripts/tune_policy.py``)::

    >>> from bezique import Rules, fast
    >>> from bezique.fast.smart import SMART_DEFAULT
    >>> if fast.available():
    ...     margins = fast.duel(Rules.preset("classic"), 4, 1, SMART_DEFAULT, SMART_DEFAULT)
    ...     [a + b for a, b in margins] == [0.0] * 4  # equal players: each deck cancels out
    ... else:
    ...     True
    True
"""

from __future__ import annotations

from collections.abc import Sequence

SMART_PARAMS: tuple[tuple[str, float, str], ...] = (
    ("keep_ace", 7.0, "keep value of a plain ace"),
    ("keep_ten", 5.0, "keep value of a plain ten"),
    ("keep_king", 3.0, "keep value of a plain king"),
    ("keep_queen", 2.5, "keep value of a plain queen"),
    ("keep_jack", 2.0, "keep value of a plain jack"),
    ("keep_nine", 1.0, "keep value of a plain nine"),
    ("keep_eight", 0.5, "keep value of a plain eight"),
    ("keep_seven", 0.0, "keep value of a plain seven"),
    ("trump", 8.0, "a trump keeps this plus 7 less its rank (ace 0 ... seven 7)"),
    ("meld", 0.7, "weight of the meld points a card may still bring, by the unseen cards"),
    ("exchange", 0.7, "weight of the turn-up's keep value on the card that may take it"),
    ("late_trump", 4.0, "a trump's extra keep value at the end of the stock"),
    ("late_trump_rank", 0.4, "less this much a rank below the ace"),
    ("late_ace", 2.0, "a plain ace's extra keep value at the end of the stock"),
    ("declare", 0.5, "a trick won is worth this share of the best declaration it opens"),
    ("win_base", 1.0, "plus this"),
    ("last_trick", 6.0, "what the last trick of the stock is worth more"),
    ("lead_risk", 0.3, "share of a led card's points expected to be lost to a higher card"),
    ("lead_win_cost", 1.0, "taken from what a lead that wins its trick brings"),
    ("lose", 4.0, "what letting another seat win a stage-1 trick (and declare) costs"),
    ("hold", 0.5, "chance that a winning follow holds when others play after it"),
)
"""Each weight's name, the heuristic player's value, and what it does (``fast/policy.c``,
``SMART_DEFAULT``, in the same order; "at the end of the stock" scales by the share of the
stock drawn, squared)."""

SMART_DEFAULT: tuple[float, ...] = tuple(value for _, value, _ in SMART_PARAMS)
"""The heuristic player's weights."""

SMART_NAMES: tuple[str, ...] = tuple(name for name, _, _ in SMART_PARAMS)
"""The weights' names, in order."""


def check_params(params: Sequence[float]) -> tuple[float, ...]:
    """``params`` as a tuple of floats, or ``ValueError`` saying what is wrong with them."""
    values = tuple(params)
    if len(values) != len(SMART_PARAMS):
        raise ValueError(f"the smart policy has {len(SMART_PARAMS)} weights: got {len(values)}")
    out = []
    for name, v in zip(SMART_NAMES, values, strict=True):
        if (
            isinstance(v, bool)
            or not isinstance(v, int | float)
            or v != v
            or abs(v) == float("inf")
        ):
            raise ValueError(f"the smart policy's weight {name} must be a finite number: got {v!r}")
        out.append(float(v))
    return tuple(out)


__all__ = ["SMART_DEFAULT", "SMART_NAMES", "SMART_PARAMS", "check_params"]
