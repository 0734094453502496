"""The weights of the compiled ``'smart'`` policy.

The ``'smart'`` policy (``fast/policy.c``) is the heuristic player's stage-1 rules of thumb in
C: each card the seat may play gets a *keep value* (what it is worth held), and a lead or a
follow is worth what the trick brings less the keep value of the card spent.  Its numbers are
the weights below, in the order :data:`SMART_PARAMS` names them; :data:`SMART_DEFAULT` is the
heuristic player's own set.  Any other set of the same length may be given to
:func:`bezique.fast.search.pimc` (the playouts and the prior of a search) and
to :func:`bezique.fast.duel`, which plays two sets against each other on mirrored decks in C,
for tuning (``lab/scripts/tune_policy.py``)::

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

_RANKS = ("ace", "ten", "king", "queen", "jack", "nine", "eight", "seven")

LEARNED_FEATURES: tuple[tuple[str, str], ...] = (
    *((f"plain_{r}", f"the card is a plain {r}") for r in _RANKS),
    *((f"trump_{r}", f"the card is the {r} of trumps") for r in _RANKS),
    *((f"plain_{r}_drawn", f"a plain {r}, times the share of the stock drawn") for r in _RANKS),
    *(
        (f"trump_{r}_drawn", f"the {r} of trumps, times the share of the stock drawn")
        for r in _RANKS
    ),
    ("meld_loss", "the meld points the seat may lose by parting with the card"),
    ("meld_loss_drawn", "the same, times the share of the stock drawn"),
    ("lead", "the card leads the trick"),
    ("lead_safe", "a lead: the chance no unseen card beats it"),
    ("lead_safe_declare", "a lead: that chance times the best declaration winning opens"),
    ("lead_beaten_points", "a lead: the chance it is beaten times its trick points"),
    ("lead_drawn", "a lead, times the share of the stock drawn"),
    ("follow_win", "a follow that wins the trick"),
    ("follow_win_points", "a winning follow: the trick's points"),
    ("follow_win_declare", "a winning follow: the best declaration it opens"),
    ("follow_lose_points", "a losing follow: the trick's points"),
    ("declared", "the card is on the table in a declared meld"),
    ("copies", "other copies of the card in the hand"),
    ("unseen", "copies of the card the seat has not seen"),
    ("suit_length", "other cards of its suit in the hand"),
    ("last_trick_won", "the last trick of the stock, won (a lead: the chance it is safe)"),
    ("exchange_card", "the card may yet take the turn-up"),
    ("follow_trump_win", "a winning follow with a trump"),
    ("lead_brisque", "a lead of an ace or a ten"),
    ("follow_win_brisque_led", "a winning follow on a led ace or ten"),
    ("follow_lose_drawn", "a losing follow, times the share of the stock drawn"),
    ("follow_win_drawn", "a winning follow, times the share of the stock drawn"),
    ("lead_trump_drawn", "a trump lead, times the share of the stock drawn"),
    ("lead_meld_loss", "a lead: the meld points it may lose"),
)
"""The features of a stage-1 card the policy's learned terms weigh (``fast/policy.c``,
``learned_features``, in this order): a weighting may add one weight per feature after the
rule weights, and each card's value grows by their sum of products.  The features read only
what the seat to move sees; :meth:`FastDeal.smart_features
<bezique.fast.FastDeal.smart_features>` gives them per card, to fit the weights
(``lab/scripts/train_policy.py``)."""

LEARNED_NAMES: tuple[str, ...] = tuple(name for name, _ in LEARNED_FEATURES)
"""The learned terms' features' names, in order."""

SMART_DEFAULT: tuple[float, ...] = tuple(value for _, value, _ in SMART_PARAMS)
"""The heuristic player's weights."""

SMART_NAMES: tuple[str, ...] = tuple(name for name, _, _ in SMART_PARAMS)
"""The weights' names, in order."""


NET_SHAPE: tuple[int, int] = (16, 1 + len(LEARNED_FEATURES))
"""The learned network's units and inputs: each rectified unit reads the card's value by the rules
alone (the learned terms left out) and its :data:`LEARNED_FEATURES`; what the units add, weighted, is
the network's term in the card's value.  Its weights follow the learned terms': each unit's
inputs' weights unit by unit, then the units' biases, then their weights in the value
(``fast/search.h``, ``SP_NET``)."""

NET_NAMES: tuple[str, ...] = (
    tuple(
        f"net_{h}_{name}"
        for h in range(NET_SHAPE[0])
        for name in ("value", *(n for n, _ in LEARNED_FEATURES))
    )
    + tuple(f"net_{h}_bias" for h in range(NET_SHAPE[0]))
    + tuple(f"net_{h}_out" for h in range(NET_SHAPE[0]))
)
"""The network's weights' names, in order."""


def check_params(params: Sequence[float]) -> tuple[float, ...]:
    """``params`` as a tuple of floats, or ``ValueError`` saying what is wrong with them: the
    rule weights of :data:`SMART_PARAMS`, optionally followed by one weight for each of the
    :data:`LEARNED_FEATURES` (none given: all 0), optionally followed by the network's
    (:data:`NET_NAMES`; none given: no network)."""
    values = tuple(params)
    rules = len(SMART_PARAMS)
    learned = rules + len(LEARNED_FEATURES)
    full = learned + len(NET_NAMES)
    if len(values) not in (rules, learned, full):
        raise ValueError(
            f"the smart policy has {rules} weights ({learned} with its learned terms, {full} with"
            f" its network): got {len(values)}"
        )
    out = []
    for name, v in zip(SMART_NAMES + LEARNED_NAMES + NET_NAMES, values, strict=False):
        if (
            isinstance(v, bool)
            or not isinstance(v, int | float)
            or v != v
            or abs(v) == float("inf")
        ):
            raise ValueError(f"the smart policy's weight {name} must be a finite number: got {v!r}")
        out.append(float(v))
    return tuple(out)


__all__ = [
    "LEARNED_FEATURES",
    "LEARNED_NAMES",
    "NET_NAMES",
    "NET_SHAPE",
    "SMART_DEFAULT",
    "SMART_NAMES",
    "SMART_PARAMS",
    "check_params",
]
