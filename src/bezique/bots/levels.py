"""Levels for people: a named bot and a budget each, from beginner to expert.

=========  ===========  =====================================================================
level      bot          budget
=========  ===========  =====================================================================
beginner   random       none: any legal action
easy       simple       none: the simple rules of thumb
medium     heuristic    none: the club player's heuristic, exact once every card is known
hard       pimc         ``Limit(nodes=HARD_NODES)``: about 0.3 s a move on one core
expert     ismcts       ``Limit(nodes=EXPERT_NODES)``: about 1 s a move on one core
=========  ===========  =====================================================================

The search levels count engine steps, not seconds, so a level plays the same way on a fast or a
slow machine and its choices can be reproduced; ``benchmarks/bots.py`` measures the seconds a
move takes (median and 95th percentile), and ``docs/strength.md`` records what was measured.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.observation import Observation
from .base import Bot, Limit, PlayResult

HARD_NODES = 6_000
EXPERT_NODES = 20_000


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
        Level("hard", "pimc", Limit(nodes=HARD_NODES), "searches sampled deals (~0.3 s a move)"),
        Level("expert", "ismcts", Limit(nodes=EXPERT_NODES), "tree search (~1 s a move)"),
    )
}
"""The levels, weakest first."""


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
