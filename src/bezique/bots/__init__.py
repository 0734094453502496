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
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, InfoDict, Limit, PlayResult, legal_actions
from .random_bot import RandomBot
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

__all__ = [
    "Bot",
    "BotFactory",
    "InfoDict",
    "Limit",
    "PlayResult",
    "RandomBot",
    "SimpleBot",
    "about",
    "legal_actions",
    "make",
    "names",
    "register",
]
