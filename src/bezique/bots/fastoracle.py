"""The compiled oracle (``oracle-c``): it cheats, for measurement only.

It is :mod:`.fastpimc`'s search run on the one true world instead of sampled ones.  Like
:class:`~.oracle.OracleBot` it is given the real deal (every hand and the order of the stock)
through :meth:`FastOracleBot.play_with_deal`, which only the arena calls
(:func:`bezique.arena.runner.decide`); it is not a :class:`~.base.Bot`, not in
:func:`bezique.bots.make`, no level uses it and no menu offers it.

* **Stage 2** (two hands, every card known): the exact stage-2 solver in C on the real deal.
* **Stage 1 and the declarations:** every legal action is applied to the real deal and played
  on by the same default policy as ``pimc-c``'s playouts (the C heuristic policy, a uniform move
  with chance 0.1 at each step, :attr:`FastOracleBot.policy`), the exact solver finishing each playout from the
  first trick of stage 2; the draws are the real ones.  Every action is played out from the same
  random numbers (common random numbers) and the best mean is played.

Its margin over a player bounds what better play could gain from above (much of it is knowing
the draws, which no honest player can); ``docs/strength.md`` compares the honest players with it.
Where the compiled engine does not play the rules, the reference-core oracle plays instead.
"""

from __future__ import annotations

import math
import time
import zlib
from dataclasses import dataclass, fields
from typing import Any

from .. import fast
from ..core.deal import Deal
from ..core.notation import Action
from ..core.observation import Observation
from .base import Limit, PlayResult
from .fastpimc import FastPimcBot, PimcSettings
from .oracle import OracleBot
from .spec import Codec, setting

_MASK = (1 << 64) - 1


class FastOracleBot(OracleBot):
    """The oracle in the compiled engine: see the module docstring.  Not a :class:`Bot`."""

    name = "oracle-c"
    default_rollouts = 32
    """Playouts of each action a decision when the limit does not say (``Limit.iterations``
    sets it; ``Limit.nodes`` is read as 40 engine steps a playout over all the actions)."""
    policy = "heuristic"
    """The playouts' policy in C (:meth:`bezique.fast.FastDeal.playout`): ``"heuristic"`` makes
    a uniform move with chance 0.1 at each step, as ``pimc-c``'s playouts do;
    ``"heuristic-exact"`` never does (then one playout of each action says all)."""
    solver_nodes = 200_000
    """Most solver nodes for one stage-2 position (beyond them the policy plays it out)."""

    def play_with_deal(self, deal: Deal | Any, limit: Limit | None = None) -> PlayResult:
        """Choose for the seat to move of a :class:`Deal` or a :class:`bezique.fast.FastDeal`,
        looking at the whole deal (the cheating path).  The deal is left as it is."""
        if isinstance(deal, Deal):
            if not fast.supports(deal.rules):
                return super().play_with_deal(deal, limit)
            world = fast.FastDeal.from_deal(deal)
        else:
            world = deal.clone()
        seat = world.to_move
        if seat is None:
            raise ValueError("the deal is over: nobody is to move")
        actions: list[Action] = world.legal_actions()
        if len(actions) == 1:
            return PlayResult(actions[0], {"reason": "the only legal action"})
        side = world.side_of(seat)
        if world.stage == 2 and world.phase == "play":
            values = world.solve(side, self.solver_nodes)
            if values is not None:
                scores = {str(a): values[a.cards[0].partition("@")[0]] for a in actions}
                best = max(actions, key=lambda a: scores[str(a)])
                return PlayResult(best, {"scores": scores, "reason": "stage 2 solved exactly"})
        return self._playouts(world, actions, seat, side, limit)

    def _rounds(self, limit: Limit | None, candidates: int) -> tuple[int, float | None]:
        if limit is None:
            return self.default_rollouts, None
        if limit.iterations is not None:
            return max(1, limit.iterations), limit.time
        if limit.nodes is not None:
            return max(1, limit.nodes // (40 * candidates)), limit.time
        return (self.default_rollouts if limit.time is None else 1 << 30), limit.time

    def _playouts(
        self, world: Any, actions: list[Action], seat: int, side: int, limit: Limit | None
    ) -> PlayResult:
        rounds, seconds = self._rounds(limit, len(actions))
        start = time.process_time()
        seed = _state_seed(self._salt, world, seat)
        n = len(actions)
        per: list[list[float]] = [[] for _ in range(n)]
        solved = 0
        for r in range(rounds):
            rseed = (seed * 0x9E3779B97F4A7C15 + r * 0xBF58476D1CE4E5B9) & _MASK
            for i in range(n):
                child = world.clone()
                child.apply_index(i)
                value, done = self._rollout(child._c, world.rules, side, rseed)
                per[i].append(value)
                solved += done
            if seconds is not None and time.process_time() - start >= seconds:
                break
        means = [sum(v) / len(v) for v in per]
        best = max(range(n), key=lambda i: (means[i], -i))
        played = len(per[0])
        return PlayResult(
            actions[best],
            {
                "value": round(means[best], 3),
                "scores": {str(a): round(m, 3) for a, m in zip(actions, means, strict=True)},
                "visits": played * n,
                "reason": f"{played} playouts of each action on the real deal "
                f"({solved} finished by the solver)",
            },
        )

    def _rollout(self, core: Any, rules: Any, side: int, seed: int) -> tuple[float, int]:
        """Play ``core`` (a compiled deal, changed) to the end as ``pimc-c``'s playouts do: the
        policy, then the exact solver from the first trick of stage 2.  Its margin for
        ``side``, and 1 if the solver finished it."""
        policy = self.policy
        try_solver = self.solver_nodes > 0
        step = 0
        while not core.is_over:
            if (
                try_solver
                and core.stock_size == 0
                and core.phase == "play"
                and core.info()["stage"] == 2
            ):
                values = core.solve(side, self.solver_nodes)
                if values is not None:
                    to_move = core.to_move
                    ours = rules.side_of(to_move) == side
                    tail = max(values.values()) if ours else min(values.values())
                    return _margin(core.parts(), rules, side) + tail, 1
                try_solver = False  # too big: the policy plays it out
            step += 1
            pick = core.policy_pick(policy, (seed + step * 0x94D049BB133111EB) & _MASK)
            core.apply_index(pick)
        return _margin(core.parts(), rules, side), 0


def _margin(parts: list[tuple[int, int, int, int]], rules: Any, side: int) -> float:
    """A side's points less the mean of the others', as the C playouts count them (tricks'
    brisques a tenth where they only settle)."""
    weight = 0.1 if rules.brisques_only_to_settle else 1.0
    values = [m + last + bonus + weight * tricks for m, tricks, last, bonus in parts]
    total = math.fsum(values)
    return values[side] - (total - values[side]) / (len(values) - 1)


def _state_seed(salt: int, world: Any, seat: int) -> int:
    """A seed from the bot's salt and the state (cheap to read, unlike an observation): the
    same deal at the same point gets the same playouts."""
    key = repr(
        (salt, seat, world.tricks_played, world.legal_texts(), world.hand(seat), world.points)
    )
    return zlib.crc32(key.encode()) * 0x2545F4914F6CDD1D & _MASK


@dataclass(frozen=True)
class HandOracleSettings(PimcSettings):
    """The settings of ``oracle-hand``: those of the ``pimc-c`` search it runs, and when the
    other hands are shown to it."""

    shown: int | None = setting(
        None,
        Codec("int", 0, 200, off=True),
        "show the other hands only once the stock holds at most this many cards (off: always)",
    )


HAND_ORACLE_ROLLOUTS = 4_000
"""``oracle-hand``'s rollouts a move when the arena gives no budget (the expert level's)."""


class HandOracleBot(OracleBot):
    """``oracle-hand``: a ``pimc-c`` search (its settings, :class:`HandOracleSettings`) shown
    the other hands.

    For measurement only, like the oracles above: it is given the real deal, marks every card
    the other seats hold concealed as known to all, and lets the honest search play from that
    observation (at :data:`HAND_ORACLE_ROLLOUTS` unless told otherwise).  Its worlds then keep
    the other hands as they are and deal only the stock again, so its margin over the same
    search played honestly on the same decks is what knowing the other hands is worth to that
    search: more than any inference from their play could bring it.  What the full oracle gains
    beyond it comes from knowing the stock's order.  With ``shown=16`` it is shown the other
    hands over the last 16 cards of the stock only (about the last third of stage 1), which
    says when in the deal knowing them pays.
    """

    name = "oracle-hand"

    def __init__(self, seed: int | None = None, settings: HandOracleSettings | None = None) -> None:
        super().__init__(seed)
        self.settings = settings if settings is not None else HandOracleSettings()
        search = {f.name: getattr(self.settings, f.name) for f in fields(PimcSettings)}
        self._search = FastPimcBot(seed, PimcSettings(**search))

    def play_with_deal(self, deal: Deal | Any, limit: Limit | None = None) -> PlayResult:
        """Choose for the seat to move of a :class:`Deal` (or a compiled one), seeing every
        hand but not the stock.  The deal is left as it is."""
        real = deal if isinstance(deal, Deal) else deal.to_deal()
        seat = real.to_move
        if seat is None:
            raise ValueError("the deal is over: nobody is to move")
        budget = Limit(iterations=HAND_ORACLE_ROLLOUTS) if limit is None else limit
        return self._search.play(self.view(real, seat), budget)

    def view(self, deal: Deal, seat: int) -> Observation:
        """What the search is shown: :func:`hands_shown`, or the seat's honest observation
        while the stock holds more than ``shown`` cards."""
        shown = self.settings.shown
        if shown is not None and deal.stock_size > shown:
            return deal.observation(seat)
        return hands_shown(deal, seat)


def hands_shown(deal: Deal, seat: int) -> Observation:
    """What ``seat`` would see of ``deal`` if every other seat's concealed cards were known to
    all (the stock still unseen): the observation :class:`HandOracleBot` searches from.  The
    deal is left as it is."""
    shown = deal.clone()
    for other, hand in enumerate(shown._hands):
        if other != seat:
            for c in hand:
                if not shown._mask[c]:
                    shown._known[c] = True
    return shown.observation(seat)
