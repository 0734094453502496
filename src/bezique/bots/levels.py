"""Levels for people: a player spec each, from beginner to expert.

=========  =====================================================================================
level      spec
=========  =====================================================================================
beginner   ``random``: any legal action
easy       ``careless``: the simple rules of thumb, about one move in three at random
medium     ``heuristic``: the club player's heuristic, exact once every card is known
hard       ``pimc-c:iterations=300,cpu_budget=0.1``: PIMC in the compiled engine, 300 rollouts
           a move, within 0.1 s of CPU
expert     ``pimc-c:prior=learned,playout=learned,learned_explore=0,learned_bar=2/1.5,``
           ``iterations=4000,cpu_budget=0.3``: more rollouts, starting from the learned policy's
           choice and played out by it without random moves, a lower bar to overrule it (on the
           classic rules, which have learned weights; elsewhere the plain ``pimc-c`` search)
=========  =====================================================================================

:data:`LEVELS` is the one table of levels: the registry (:mod:`.registry`), the terminal game
and the server read it.  The search levels count rollouts, so a level plays the same way on a
fast or a slow machine and its choices can be reproduced; a CPU budget caps a move on any rules
(on the classic rules the rollouts end well before it).  ``benchmarks/bots.py`` measures the
seconds a move takes and ``docs/strength.md`` gives the levels' measured strength.  Where the compiled engine is not built or
does not play the rules, ``pimc-c`` hands the decision to the reference-core ``pimc`` with its
own budget in engine steps (its ``fallback_nodes`` setting).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.observation import Observation
from .base import Bot, Limit, PlayResult

HARD_ROLLOUTS = 300
"""Rollouts a move for ``hard`` (at most 0.1 s a move, median)."""
EXPERT_ROLLOUTS = 4_000
"""Rollouts a move for ``expert`` (at most 0.3 s a move, median)."""
HARD_CPU = 0.1
"""CPU seconds a move for ``hard`` on any rules: its search stops there and plays the best so far
(on the classic rules its rollouts end well before it, so it plays as its rollout count says)."""
EXPERT_CPU = 0.3
"""CPU seconds a move for ``expert`` on any rules (as :data:`HARD_CPU`)."""


@dataclass(frozen=True)
class Level:
    """A level of play: the spec of the player it is (:mod:`.spec`)."""

    name: str
    spec: str
    about: str


def _by_name(*levels: Level) -> dict[str, Level]:
    return {lv.name: lv for lv in levels}


LEVELS: dict[str, Level] = _by_name(
    Level("beginner", "random", "any legal card, at random"),
    Level("easy", "careless", "simple rules of thumb, with slips"),
    Level("medium", "heuristic", "a club player's heuristic"),
    Level(
        "hard",
        f"pimc-c:iterations={HARD_ROLLOUTS},cpu_budget={HARD_CPU}",
        "searches sampled deals (at most 0.1 s a move)",
    ),
    Level(
        "expert",
        "pimc-c:prior=learned,playout=learned,learned_explore=0,learned_bar=2/1.5,"
        f"iterations={EXPERT_ROLLOUTS},cpu_budget={EXPERT_CPU}",
        "searches more sampled deals from a learned policy (at most 0.3 s a move)",
    ),
)
"""The levels, weakest first."""


class LevelBot(Bot):
    """A bot playing at a level: the player of the level's spec, under the level's name."""

    def __init__(self, level: Level, bot: Bot) -> None:
        super().__init__(bot.seed)
        self.level = level
        self.bot = bot
        self.name = level.name

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        return self.bot.play(observation, limit)

    def close(self) -> None:
        self.bot.close()

    def __repr__(self) -> str:
        return f"<LevelBot {self.level.name!r}: {self.bot!r}>"
