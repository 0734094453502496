"""Levels for people: a named bot and a budget each, from beginner to expert.

=========  ===========  =====================================================================
level      bot          budget
=========  ===========  =====================================================================
beginner   random       none: any legal action
easy       careless     none: the simple rules of thumb, about one move in three at random
medium     heuristic    none: the club player's heuristic, exact once every card is known
hard       pimc-c       ``Limit(iterations=HARD_ROLLOUTS)``: PIMC in the compiled engine
expert     pimc-c-lp0   ``Limit(iterations=EXPERT_ROLLOUTS)``: more rollouts, from the learned
                        policy's choice and played out by it (classic; elsewhere ``pimc-c``)
=========  ===========  =====================================================================

The search levels count rollouts, not seconds, so a level plays the same way on a fast or a slow
machine and its choices can be reproduced; ``benchmarks/bots.py`` measures the seconds a move
takes, and ``docs/strength.md`` records what was measured.  Where the compiled engine is not
built or does not play the rules, ``pimc-c`` hands the decision to the reference-core ``pimc``
with its own budget in engine steps (:attr:`FastPimcBot.fallback_nodes
<bezique.bots.fastpimc.FastPimcBot.fallback_nodes>`).

``easy`` was ``simple`` until session 8, when it proved as strong as ``medium`` in points (the
ladder was flat there); it now slips now and then (:class:`~.simple.CarelessBot`).  The search
levels were the reference-core ``pimc`` (6,000 engine steps) and ``ismcts`` (20,000) until
session 8: they took 0.22 s and 0.8 s a move, over the budgets of 0.1 s and 0.3 s, while the
compiled search keeps within them, beats the heuristic in the arena and is ahead of the old
``expert`` (not yet by a separated interval; docs/strength.md).  They stay playable by name as
``hard-old`` and ``expert-old`` (:data:`FORMER`), for comparison.  ``hard`` searches 300
rollouts a move: ``pimc-c`` at 1,200 (``hard-c``) was as strong as at 4,000 (``expert-c``, the
``expert`` level of sessions 8-10), where at 300 it sits between the heuristic and the expert
(docs/strength.md).  Since session 11 ``expert`` is ``pimc-c-lp``: on the classic rules its
search starts from the learned policy's choice (:mod:`.learned`), plays out by that policy and
overrules it at a lower bar; it was ahead of ``expert-c`` deck by deck over 500 decks
(docs/strength.md, "Session 11").  Where the rules have no learned weights it is ``pimc-c``, so
``expert`` plays them as before.  Since session 18 ``expert`` is ``pimc-c-lp0``, the same
search whose learned playouts make no random moves: over 500 fresh decks it beat the heuristic
by +50.6 [+37.3, +63.9] points a deal, where ``pimc-c-lp`` (now ``expert-c-lp``) had +36.9
(docs/strength.md, "Session 18"); on rules without learned weights nothing changed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.observation import Observation
from .base import Bot, Limit, PlayResult

HARD_NODES = 6_000
"""The old ``hard`` level's budget (``hard-old``), engine steps."""
EXPERT_NODES = 20_000
"""The old ``expert`` level's budget (``expert-old``), engine steps."""
HARD_ROLLOUTS = 300
"""Most rollouts a move for ``hard`` (at most 0.1 s a move, median)."""
HARD_C_ROLLOUTS = 1_200
"""Most rollouts a move for ``hard-c``, the first candidate for ``hard`` (measured in session 7;
as strong as ``expert-c``)."""
EXPERT_ROLLOUTS = 4_000
"""Most rollouts a move for ``expert`` (and ``expert-c``, ``expert-c-lp``, ``expert-c-lp0``; at most
0.3 s a move, median)."""
EXPERT_LATE_ROLLOUTS = 8_000
"""Most rollouts a move for ``expert-c-late`` (the version on trial; at most 0.3 s a move,
median: early in the stock its searches stop long before it)."""

HARD_CPU = 0.1
"""CPU seconds a move for ``hard`` on any rules: its search stops there and plays the best so far
(on the classic rules its rollouts end well before it, so it plays as its rollout count says)."""
EXPERT_CPU = 0.3
"""CPU seconds a move for ``expert`` on any rules (as :data:`HARD_CPU`)."""

EXPERT_ISMCTS_ITERATIONS = 2000
"""Most iterations a move for ``expert-c-ismcts`` (``ismcts-c`` on trial; at most 0.3 s a move,
median, on this machine: docs/strength.md)."""


@dataclass(frozen=True)
class Level:
    """A level of play: the bot it uses and the budget it gives it."""

    name: str
    bot: str
    limit: Limit
    about: str


def _by_name(*levels: Level) -> dict[str, Level]:
    return {lv.name: lv for lv in levels}


LEVELS: dict[str, Level] = _by_name(
    Level("beginner", "random", Limit(), "any legal card, at random"),
    Level("easy", "careless", Limit(), "simple rules of thumb, with slips"),
    Level("medium", "heuristic", Limit(), "a club player's heuristic"),
    Level(
        "hard",
        "pimc-c",
        Limit(iterations=HARD_ROLLOUTS, cpu_budget=HARD_CPU),
        "searches sampled deals (at most 0.1 s a move)",
    ),
    Level(
        "expert",
        "pimc-c-lp0",
        Limit(iterations=EXPERT_ROLLOUTS, cpu_budget=EXPERT_CPU),
        "searches more sampled deals from a learned policy (at most 0.3 s a move)",
    ),
)
"""The levels, weakest first."""

FORMER: dict[str, Level] = _by_name(
    Level("hard-old", "pimc", Limit(nodes=HARD_NODES), "the old hard level: pimc in Python"),
    Level(
        "expert-old",
        "ismcts",
        Limit(nodes=EXPERT_NODES),
        "the old expert level: IS-MCTS in Python",
    ),
)
"""The levels as they were before session 8, playable by name for comparison."""

CANDIDATES: dict[str, Level] = _by_name(
    Level(
        "hard-c",
        "pimc-c",
        Limit(iterations=HARD_C_ROLLOUTS),
        "pimc-c at 1,200 rollouts, first measured as a candidate for hard",
    ),
    Level(
        "expert-c",
        "pimc-c",
        Limit(iterations=EXPERT_ROLLOUTS),
        "the expert level of sessions 8-10 (pimc-c), under the name its measurements used",
    ),
    Level(
        "expert-c-smart",
        "pimc-c-smart",
        Limit(iterations=EXPERT_ROLLOUTS),
        "pimc-c-smart (smart playouts, coupled draws) at expert-c's budget",
    ),
    Level(
        "expert-c-late",
        "pimc-c-late",
        Limit(iterations=EXPERT_LATE_ROLLOUTS),
        "pimc-c-late (smart playouts, a lower bar late in the stock), 8,000 rollouts",
    ),
    Level(
        "expert-c-model",
        "pimc-c-model",
        Limit(iterations=EXPERT_LATE_ROLLOUTS),
        "pimc-c-model (expert-c-late, playouts without random moves), 8,000 rollouts",
    ),
    Level(
        "expert-c-inf",
        "pimc-c-inf",
        Limit(iterations=EXPERT_ROLLOUTS),
        "pimc-c-inf (worlds weighed by the opponent's past plays) at expert-c's budget",
    ),
    Level(
        "expert-c-learned",
        "pimc-c-learned",
        Limit(iterations=EXPERT_ROLLOUTS),
        "pimc-c-learned (starting from the learned policy's choice) at expert-c's budget",
    ),
    Level(
        "expert-c-lp",
        "pimc-c-lp",
        Limit(iterations=EXPERT_ROLLOUTS),
        "the expert level of sessions 11-17 (pimc-c-lp), under the name its measurements used",
    ),
    Level(
        "expert-c-lpn",
        "pimc-c-lpn",
        Limit(iterations=EXPERT_ROLLOUTS),
        "pimc-c-lpn (the learned weights with a network on top) at the expert's budget",
    ),
    Level(
        "expert-c-bel",
        "pimc-c-bel",
        Limit(iterations=EXPERT_ROLLOUTS),
        "pimc-c-bel (worlds dealt by the belief model of the other hand) at the expert's budget",
    ),
    Level(
        "expert-c-opp",
        "pimc-c-opp",
        Limit(iterations=EXPERT_ROLLOUTS),
        "pimc-c-opp (the opponent played out by the heuristic's rules) at the expert's budget",
    ),
    Level(
        "expert-c-lp0",
        "pimc-c-lp0",
        Limit(iterations=EXPERT_ROLLOUTS),
        "the expert level since session 18 (pimc-c-lp0), under the name its measurements used",
    ),
    Level(
        "expert-c-lpn0",
        "pimc-c-lpn0",
        Limit(iterations=EXPERT_ROLLOUTS),
        "pimc-c-lpn0 (pimc-c-lp0 on the network weights) at the expert's budget",
    ),
    Level(
        "expert-c-opp0",
        "pimc-c-opp0",
        Limit(iterations=EXPERT_ROLLOUTS),
        "pimc-c-opp0 (pimc-c-opp, playouts without random moves) at the expert's budget",
    ),
    Level(
        "expert-c-lpv",
        "pimc-c-lpv",
        Limit(iterations=EXPERT_ROLLOUTS),
        "pimc-c-lpv (playouts cut four tricks on, scored by the learned evaluation) at the expert's budget",
    ),
    Level(
        "expert-c-lpv1",
        "pimc-c-lpv1",
        Limit(iterations=EXPERT_ROLLOUTS),
        "pimc-c-lpv1 (playouts cut one trick on, scored by the learned evaluation) at the expert's budget",
    ),
    Level(
        "expert-c-lpv8",
        "pimc-c-lpv8",
        Limit(iterations=EXPERT_ROLLOUTS),
        "pimc-c-lpv8 (playouts cut eight tricks on, scored by the learned evaluation) at the expert's budget",
    ),
    Level(
        "expert-c-lpvs",
        "pimc-c-lpvs",
        Limit(iterations=EXPERT_ROLLOUTS),
        "pimc-c-lpvs (pimc-c-lpv8 scored by a value model of its own playouts) at the expert's budget",
    ),
    Level(
        "expert-c-ismcts",
        "ismcts-c",
        Limit(iterations=EXPERT_ISMCTS_ITERATIONS),
        "ismcts-c (IS-MCTS in C, the heuristic as a PUCT prior) at expert-c's CPU budget",
    ),
)
"""The compiled search by name for measurement: ``expert-c-lp0`` is the ``expert`` level,
``expert-c-lp`` the ``expert`` level of sessions 11-17, ``expert-c`` that of sessions 8-10,
``hard-c`` that search at 1,200 rollouts; ``expert-c-smart``, ``expert-c-late``,
``expert-c-model``, ``expert-c-inf``, ``expert-c-learned``, ``expert-c-lpn``, ``expert-c-bel``,
``expert-c-opp``, ``expert-c-opp0``, ``expert-c-lpn0``, ``expert-c-lpv``, ``expert-c-lpv1``,
``expert-c-lpv8``, ``expert-c-lpvs`` and ``expert-c-ismcts`` are versions on trial at about the
expert's budget."""


class LevelBot(Bot):
    """A bot playing at a level: its bot, with the level's budget unless a limit is given."""

    def __init__(self, level: Level, bot: Bot) -> None:
        super().__init__(bot.seed)
        self.level = level
        self.bot = bot
        self.name = level.name

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        return self.bot.play(observation, limit if limit is not None else self.level.limit)

    def __repr__(self) -> str:
        return f"<LevelBot {self.level.name!r}: {self.bot!r} {self.level.limit}>"
