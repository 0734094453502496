"""Levels for people: a named bot and a budget each, from beginner to expert.

=========  ===========  =====================================================================
level      bot          budget
=========  ===========  =====================================================================
beginner   random       none: any legal action
easy       simple       none: the simple rules of thumb
medium     heuristic    none: the club player's heuristic, exact once every card is known
hard       pimc         ``Limit(nodes=HARD_NODES)``: sampled deals, anchored to the heuristic
expert     ismcts       ``Limit(nodes=EXPERT_NODES)``: IS-MCTS anchored to the heuristic
=========  ===========  =====================================================================

The search levels count engine steps, not seconds, so a level plays the same way on a fast or a
slow machine and its choices can be reproduced; ``benchmarks/bots.py`` measures the seconds a
move takes, and ``docs/strength.md`` records what was measured.

The compiled search (``pimc-c``, PIMC in the compiled engine, :mod:`.fastpimc`) is offered as the
named bots ``hard-c`` and ``expert-c`` (:data:`CANDIDATES`), not yet as levels: its first
version lost to the heuristic on 20 decks, and the present one (which overrules the heuristic
only on a clear gain) is not yet measured at a size that shows it stronger, so the levels keep
the players they had until an arena does.  Its budgets are upper bounds: the search stops as
soon as no candidate can still clear the bar, which early in stage 1 is after a few hundred
rollouts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.observation import Observation
from .base import Bot, Limit, PlayResult

HARD_NODES = 6_000
"""The ``hard`` level's budget, engine steps."""
EXPERT_NODES = 20_000
"""The ``expert`` level's budget, engine steps."""
HARD_ROLLOUTS = 1_200
"""Most rollouts a move for ``hard-c`` (at most 0.1 s a move, median)."""
EXPERT_ROLLOUTS = 4_000
"""Most rollouts a move for ``expert-c`` (at most 0.3 s a move, median)."""
EXPERT_LATE_ROLLOUTS = 8_000
"""Most rollouts a move for ``expert-c-late`` (the version on trial; at most 0.3 s a move,
median: early in the stock its searches stop long before it)."""

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


LEVELS: dict[str, Level] = {
    lv.name: lv
    for lv in (
        Level("beginner", "random", Limit(), "any legal card, at random"),
        Level("easy", "simple", Limit(), "simple rules of thumb"),
        Level("medium", "heuristic", Limit(), "a club player's heuristic"),
        Level("hard", "pimc", Limit(nodes=HARD_NODES), "searches sampled deals"),
        Level("expert", "ismcts", Limit(nodes=EXPERT_NODES), "searches a tree of sampled deals"),
    )
}
"""The levels, weakest first."""

CANDIDATES: dict[str, Level] = {
    lv.name: lv
    for lv in (
        Level(
            "hard-c",
            "pimc-c",
            Limit(iterations=HARD_ROLLOUTS),
            "searches sampled deals in the compiled engine (<= 0.1 s a move)",
        ),
        Level(
            "expert-c",
            "pimc-c",
            Limit(iterations=EXPERT_ROLLOUTS),
            "searches more sampled deals in the compiled engine (<= 0.3 s a move)",
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
            "expert-c-ismcts",
            "ismcts-c",
            Limit(iterations=EXPERT_ISMCTS_ITERATIONS),
            "ismcts-c (IS-MCTS in C, the heuristic as a PUCT prior) at expert-c's CPU budget",
        ),
    )
}
"""The compiled search at the budgets meant for ``hard`` and ``expert``, playable by name for
measurement (``expert-c-smart``, ``expert-c-late``, ``expert-c-model`` and ``expert-c-ismcts``: versions
on trial); they
become the levels once an arena at size shows them stronger."""


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
