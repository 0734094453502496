"""Computer players.

A bot is an object with ``choose(observation, limit) -> Action`` (and ``play``, which adds
what the bot has to say about its choice); it sees only the observation of its seat::

    >>> from bezique import Deal, Rules
    >>> from bezique.bots import make
    >>> deal = Deal.new(Rules.preset("classic"), seed=7)
    >>> bot = make("simple", seed=1)
    >>> action = bot.choose(deal.observation(deal.to_move))
    >>> str(action) in deal.observation(deal.to_move).legal
    True

:func:`make` builds a bot by name and :func:`names` lists the names; :func:`register` adds a
new kind of bot.

=========  ============================================================================
name       player
=========  ============================================================================
random     a uniformly random legal action
simple     quick rules of thumb (:mod:`.simple`)
heuristic  a club player's heuristic, exact stage 2 when every card is known
pimc       perfect-information Monte Carlo over sampled worlds (:mod:`.search`)
ismcts     single-observer information-set MCTS (:mod:`.ismcts`)
beginner, easy, medium, hard, expert: the levels for people (:mod:`.levels`)
=========  ============================================================================

:func:`hint` gives the expert's choice with the value of every legal action.  The ``oracle``
(:mod:`.oracle`) cheats and is for measurement in the arena only: it is not in this registry.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, InfoDict, Limit, PlayResult, legal_actions
from .heuristic import HeuristicBot
from .hint import Hint, hint
from .ismcts import IsmctsBot
from .levels import LEVELS, Level, LevelBot
from .random_bot import RandomBot
from .search import PimcBot
from .simple import SimpleBot

BotFactory = Callable[[int | None], Bot]
"""Builds a bot from a seed."""

_REGISTRY: dict[str, BotFactory] = {}
_ABOUT: dict[str, str] = {}


def register(name: str, factory: BotFactory, about: str = "") -> None:
    """Make a kind of bot available to :func:`make` under ``name`` (lowercase, no spaces)."""
    key = name.strip().lower()
    if not key or any(ch.isspace() for ch in key):
        raise ValueError(f"a bot name is one lowercase word: got {name!r}")
    _REGISTRY[key] = factory
    _ABOUT[key] = about


def names() -> list[str]:
    """The names :func:`make` knows, in the order they were registered."""
    return list(_REGISTRY)


def about(name: str) -> str:
    """One line describing a bot."""
    return _ABOUT[_key(name)]


def _key(name: str) -> str:
    key = name.strip().lower() if isinstance(name, str) else ""
    if key not in _REGISTRY:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(names())}")
    return key


def make(name: str, seed: int | None = None) -> Bot:
    """Build a bot by name; equal seeds give bots that choose alike."""
    return _REGISTRY[_key(name)](seed)


register("random", RandomBot, "plays any legal action, uniformly at random")
register("simple", SimpleBot, "a quick club player's rules of thumb: melds, brisques, cheap cards")
register(
    "heuristic",
    HeuristicBot,
    "a stronger club player's heuristic: meld timing, the end of the stock, exact last tricks",
)
register("pimc", PimcBot, "searches sampled deals, each with every card shown (PIMC)")
register("ismcts", IsmctsBot, "information-set Monte Carlo tree search over sampled deals")


def _level_factory(level: Level) -> BotFactory:
    def build(seed: int | None) -> Bot:
        return LevelBot(level, make(level.bot, seed))

    return build


for _level in LEVELS.values():
    register(_level.name, _level_factory(_level), f"level: {_level.about} ({_level.bot})")


def levels() -> list[str]:
    """The levels for people, weakest first."""
    return list(LEVELS)


__all__ = [
    "LEVELS",
    "Bot",
    "BotFactory",
    "HeuristicBot",
    "Hint",
    "InfoDict",
    "IsmctsBot",
    "Level",
    "LevelBot",
    "Limit",
    "PimcBot",
    "PlayResult",
    "RandomBot",
    "SimpleBot",
    "about",
    "hint",
    "legal_actions",
    "levels",
    "make",
    "names",
    "register",
]
