"""The searches of the compiled engine: PIMC rollouts and IS-MCTS over a :class:`FastDeal`.

Each search takes the deal, what to search (seat, moves, worlds, seed) and a frozen settings
record (:class:`PimcSettings`, :class:`IsmctsSettings`) that says how; a bad setting is a
one-line ``ValueError`` when the record is built.  Both run in C without the GIL, so searches
in several threads run at once.

A search may carry a budget in CPU seconds of the calling thread (``cpu_budget``, or an
absolute ``deadline`` on the clock of :func:`time.thread_time`): it is an anytime search, it
stops once the budget is spent and returns what it has found so far (always at least one world,
or one iteration).  Within its budget a search does exactly what it does without one.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from .smart import check_params

if TYPE_CHECKING:
    from . import FastDeal

_STYLES = {"heuristic": 0, "meld": 1, "smart": 2}
_SEED = (1 << 64) - 1


def _whole(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < high:
        raise ValueError(f"{name} must be a whole number from {low} below {high}, not {value!r}")


def _budget(value: float | None) -> None:
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value < 1e9
    ):
        raise ValueError(f"cpu_budget must be None or seconds from 0, not {value!r}")


def deadline_for(cpu_budget: float | None, deadline: float | None = None) -> float:
    """The thread CPU time (:func:`time.thread_time`) a search stops at: ``deadline`` if given,
    else now plus ``cpu_budget``; 0.0 for no limit.  A budget of 0 still lets the search do its
    first world (or iteration)."""
    if deadline is not None:
        if not math.isfinite(deadline) or deadline < 0.0:
            raise ValueError(f"deadline must be a thread CPU time of 0 or more, not {deadline!r}")
        return max(deadline, 1e-9)
    if cpu_budget is None:
        return 0.0
    return time.thread_time() + cpu_budget + 1e-9


@dataclass(frozen=True)
class PimcSettings:
    """How :func:`pimc` plays its rollouts.

    Each move of each world is applied, then the deal is played on with the default ``policy``
    (``'heuristic'``, ``'meld'``: a stage-1 trick is worth the declaration it opens, or
    ``'smart'``), a uniform move with chance ``explore``, the same random numbers for every move
    of a world, and finished by the exact stage-2 solver from the first trick of stage 2 (while
    it needs at most ``solver_nodes`` nodes; 0: never)."""

    explore: float = 0.1
    solver_nodes: int = 20_000
    policy: str = "heuristic"
    couple_draws: bool = False
    """Two-handed stage 1: each seat draws from its own pile of the world's stock, whoever wins
    a trick, so that the moves of a world draw the same cards."""
    endgame_stock: int = 0
    """Two hands: where a move leaves at most this many cards in the stock, the world's exact
    value (``endgame.c``) instead of a playout; 0: never."""
    smart_params: Sequence[float] | None = None
    """The ``'smart'`` policy's weights (:mod:`bezique.fast.smart`; None: the heuristic
    player's)."""
    bias: Sequence[float] | None = None
    """The worlds are dealt as :meth:`FastDeal.resample` with this bias (None: uniform)."""
    other_params: Sequence[float] | None = None
    """With ``'smart'``, the weights the other sides play by (None: ``smart_params``)."""
    cut: tuple[int, int, bytes] | None = None
    """``(tricks, stock, packed)``: the playouts stop at the first trick led once that many
    more tricks are complete while the stock holds more than ``stock`` cards, scored by the
    value model ``packed`` (:meth:`bezique.bots.value.ValueModel.packed`); None: never."""
    cpu_budget: float | None = None
    """Seconds of the calling thread's CPU a call may take (None: no limit)."""

    def __post_init__(self) -> None:
        if self.policy not in _STYLES:
            raise ValueError(f"unknown playout policy {self.policy!r}: one of {', '.join(_STYLES)}")
        if isinstance(self.explore, bool) or not 0.0 <= self.explore <= 1.0:
            raise ValueError(f"explore must be between 0 and 1, not {self.explore!r}")
        _whole("solver_nodes", self.solver_nodes, 0, 1 << 62)
        _whole("endgame_stock", self.endgame_stock, 0, 1 << 20)
        _budget(self.cpu_budget)
        from . import check_bias

        for name in ("smart_params", "other_params"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, check_params(value))
        if self.bias is not None:
            object.__setattr__(self, "bias", check_bias(self.bias))
        if self.cut is not None:
            object.__setattr__(self, "cut", tuple(self.cut))

    def replace(self, **changes: object) -> PimcSettings:
        """A copy with these settings changed."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


class PimcResult(NamedTuple):
    """What :func:`pimc` found."""

    values: list[float]
    """The margins for the side, world by world and within a world move by move (worlds done
    only: fewer than asked where the budget ran out)."""
    solved: int
    """Rollouts the stage-2 solver finished."""
    nodes: int
    """Nodes the solver searched in all."""


def pimc(
    deal: FastDeal,
    seat: int,
    side: int,
    moves: Sequence[int],
    first: int,
    worlds: int,
    seed: int,
    settings: PimcSettings | None = None,
    *,
    deadline: float | None = None,
) -> PimcResult:
    """PIMC rollouts inside C, for the search players (:mod:`bezique.bots.fastpimc`).

    For each world ``first`` .. ``first + worlds - 1`` (a :meth:`FastDeal.resample` for
    ``seat`` drawn from ``seed`` and the world's number) and each index in ``moves`` (into
    :meth:`FastDeal.legal_actions`), the margin for ``side`` of that move played out as
    ``settings`` say.  With a budget (``settings.cpu_budget``, or ``deadline`` on the clock of
    :func:`time.thread_time`) no world is begun once it is spent and a world left part-way is
    dropped: ``len(values) // len(moves)`` worlds were done, at least one."""
    s = settings or PimcSettings()
    style = _STYLES[s.policy] | (4 if s.couple_draws else 0) | (s.endgame_stock << 4)
    values, solved, nodes = deal._c.pimc(
        seat,
        side,
        list(moves),
        first,
        worlds,
        seed & _SEED,
        s.explore,
        s.solver_nodes,
        style,
        s.smart_params,
        s.bias,
        s.other_params,
        s.cut,
        deadline_for(s.cpu_budget, deadline),
    )
    return PimcResult(values, solved, nodes)


def pimc_hidden(
    deal: FastDeal,
    seat: int,
    first: int,
    worlds: int,
    seed: int,
    bias: Sequence[float] | None = None,
) -> list[list[list[str]]]:
    """The worlds ``first`` .. ``first + worlds - 1`` of :func:`pimc` with this ``seed``,
    ``seat`` and ``bias``, each as the cards it deals every other seat that ``seat`` has not
    seen (per seat, sorted codes; an empty list for ``seat``): the guesses
    :func:`bezique.bots.inference.world_weights` weighs."""
    from . import check_bias

    out: list[list[list[str]]] = deal._c.pimc_hidden(
        seat, first, worlds, seed & _SEED, check_bias(bias)
    )
    return out


@dataclass(frozen=True)
class IsmctsSettings:
    """How :func:`ismcts` searches.

    The prior gives ``prior_weight`` to the heuristic's action and shares the rest evenly;
    values are margins squashed by ``tanh(margin / scale)`` so that ``c_puct`` is in the units
    of the literature; an untried action is worth the mean of its tried siblings less ``fpu``.
    Playouts use ``policy`` (a uniform move with chance ``explore``) and the stage-2 solver (at
    most ``solver_nodes`` nodes; 0: never).  The tree holds at most ``max_tree_nodes`` nodes.
    ``stop_early``: stop once no root action can catch the most visited one; ``seconds`` (0:
    none): stop after that much wall time (the result then depends on the clock)."""

    prior_weight: float = 0.7
    c_puct: float = 1.5
    scale: float = 250.0
    fpu: float = 0.1
    explore: float = 0.1
    solver_nodes: int = 20_000
    policy: str = "smart"
    max_tree_nodes: int = 200_000
    stop_early: bool = False
    seconds: float = 0.0
    cpu_budget: float | None = None
    """Seconds of the calling thread's CPU a call may take (None: no limit)."""

    def __post_init__(self) -> None:
        if self.policy not in _STYLES:
            raise ValueError(f"unknown playout policy {self.policy!r}: one of {', '.join(_STYLES)}")
        if not 0.0 <= self.prior_weight <= 1.0:
            raise ValueError(f"prior_weight must be between 0 and 1, not {self.prior_weight!r}")
        if not 0.0 <= self.explore <= 1.0:
            raise ValueError(f"explore must be between 0 and 1, not {self.explore!r}")
        if not self.c_puct >= 0.0 or not self.scale > 0.0 or not self.seconds >= 0.0:
            raise ValueError(
                f"c_puct and seconds must be 0 or more and scale above 0: got {self.c_puct!r}, "
                f"{self.seconds!r}, {self.scale!r}"
            )
        if not math.isfinite(self.fpu):
            raise ValueError(f"fpu must be a finite number, not {self.fpu!r}")
        _whole("max_tree_nodes", self.max_tree_nodes, 1, 1 << 40)
        _whole("solver_nodes", self.solver_nodes, 0, 1 << 62)
        _budget(self.cpu_budget)

    def replace(self, **changes: object) -> IsmctsSettings:
        """A copy with these settings changed."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


class IsmctsResult(NamedTuple):
    """What :func:`ismcts` found, per legal action of the root (in
    :meth:`FastDeal.legal_actions` order) and in all."""

    visits: list[int]
    """Iterations through each root action (they sum to :attr:`iterations`)."""
    values: list[float | None]
    """Mean squashed value in [-1, 1] for the searching side (None: never visited)."""
    margins: list[float | None]
    """Mean margin in points for the searching side (None: never visited)."""
    iterations: int
    """Iterations run (fewer than asked only with ``stop_early``, ``seconds`` or a budget)."""
    solved: int
    """Playouts the stage-2 solver finished."""
    solver_nodes: int
    """Nodes the solver searched in all."""
    tree_nodes: int
    """Nodes of the tree, its root included."""


def ismcts(
    deal: FastDeal,
    seat: int,
    prior: int,
    iterations: int,
    seed: int,
    settings: IsmctsSettings | None = None,
    *,
    deadline: float | None = None,
) -> IsmctsResult:
    """Single-observer IS-MCTS in C (``ismcts.c``) for ``seat``, the seat to move.

    Each of ``iterations`` iterations deals a world ``seat`` cannot tell from this one
    (:meth:`FastDeal.resample`, from ``seed`` and the iteration's number), walks down one tree
    of actions as ``seat`` sees them choosing by PUCT among the actions legal in that world,
    adds one node and plays the deal out; ``prior`` is the legal-action index the prior favours
    at the root.  With a budget (``settings.cpu_budget`` or ``deadline``) it stops once the
    budget is spent, after at least one iteration."""
    s = settings or IsmctsSettings()
    _whole("iterations", iterations, 1, 1 << 31)
    visits, values, margins, done, solved, nodes, used = deal._c.ismcts(
        seat,
        prior,
        iterations,
        seed & _SEED,
        s.prior_weight,
        s.c_puct,
        s.scale,
        s.fpu,
        s.explore,
        s.solver_nodes,
        _STYLES[s.policy],
        s.max_tree_nodes,
        s.stop_early,
        s.seconds,
        deadline_for(s.cpu_budget, deadline),
    )
    return IsmctsResult(visits, values, margins, done, solved, nodes, used)


__all__ = [
    "IsmctsResult",
    "IsmctsSettings",
    "PimcResult",
    "PimcSettings",
    "deadline_for",
    "ismcts",
    "pimc",
    "pimc_hidden",
]
