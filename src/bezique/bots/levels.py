"""Levels for people: a named bot and a budget each, from beginner to expert.

=========  ===========  =====================================================================
level      bot          budget
=========  ===========  =====================================================================
beginner   random       none: any legal action
easy       simple       none: the simple rules of thumb
medium     heuristic    none: the club player's heuristic, exact once every card is known
hard       pimc-c       ``Limit(iterations=HARD_ROLLOUTS)``: at most 0.1 s a move (median)
expert     pimc-c       ``Limit(iterations=EXPERT_ROLLOUTS)``: at most 0.3 s a move (median)
=========  ===========  =====================================================================

``pimc-c`` is PIMC in the compiled engine (:mod:`.fastpimc`); where the compiled engine does
not play the rules it falls back to the reference core's ``pimc``.  The search levels count
rollouts, not seconds, so a level plays the same way on a fast or a slow machine and its choices
can be reproduced; ``benchmarks/bots.py`` measures the seconds a move takes (median and 95th
percentile), and ``docs/strength.md`` records what was measured.

The levels as they were before the compiled search, kept as named bots for comparison
(:data:`FORMER`): ``expert-v1`` (``ismcts``, anchored to the heuristic, 20,000 engine steps) and
``hard-v1`` (``pimc``, 6,000 engine steps).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.observation import Observation
from .base import Bot, Limit, PlayResult

HARD_NODES = 6_000
"""The former ``hard`` level's budget (``hard-v1``), engine steps."""
EXPERT_NODES = 20_000
"""The former ``expert`` level's budget (``expert-v1``), engine steps."""
HARD_ROLLOUTS = 350
"""Rollouts a move for ``hard``."""
EXPERT_ROLLOUTS = 1_200
"""Rollouts a move for ``expert``."""


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
        Level(
            "hard",
            "pimc-c",
            Limit(iterations=HARD_ROLLOUTS),
            "searches sampled deals in the compiled engine (<= 0.1 s a move)",
        ),
        Level(
            "expert",
            "pimc-c",
            Limit(iterations=EXPERT_ROLLOUTS),
            "searches more sampled deals in the compiled engine (<= 0.3 s a move)",
        ),
    )
}
"""The levels, weakest first."""

FORMER: dict[str, Level] = {
    lv.name: lv
    for lv in (
        Level("hard-v1", "pimc", Limit(nodes=HARD_NODES), "the former hard level (pimc)"),
        Level("expert-v1", "ismcts", Limit(nodes=EXPERT_NODES), "the former expert (ismcts)"),
    )
}
"""The levels as they were before the compiled search, for comparison (not offered to people)."""


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
