"""The registry of bots by name: :func:`make`, :func:`names`, :func:`about`, :func:`register`.

Bots that need an extra (``openspiel-ismcts`` needs OpenSpiel) are found through the
``bezique.bots`` entry-point group: each entry names a function that registers its bots, and
it is called the first time a name is asked for that is not registered yet.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points

from .base import Bot
from .fastismcts import FastIsmctsBot
from .fastpimc import (
    FastPimcBeliefBot,
    FastPimcBot,
    FastPimcInferenceBot,
    FastPimcLateBot,
    FastPimcLearnedBot,
    FastPimcLearnedNetBot,
    FastPimcLearnedPlayoutsBot,
    FastPimcModelBot,
    FastPimcNetSteadyBot,
    FastPimcOpponentBot,
    FastPimcSearchValueBot,
    FastPimcSmartBot,
    FastPimcSteadyBot,
    FastPimcSteadyOpponentBot,
    FastPimcV1Bot,
    FastPimcValueBot,
    FastPimcValueLongBot,
    FastPimcValueShortBot,
)
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot
from .learned import LearnedBot, LearnedNetBot
from .levels import CANDIDATES, FORMER, LEVELS, Level, LevelBot
from .random_bot import RandomBot
from .search import PimcBot
from .simple import CarelessBot, SimpleBot

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


_PLUGINS_LOADED: list[bool] = []


def _load_plugins() -> None:
    """Call each ``bezique.bots`` entry point once (an extra not installed is skipped)."""
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED.append(True)
    for entry in entry_points(group="bezique.bots"):
        try:
            entry.load()()
        except ImportError:  # the extra it needs is not installed
            continue


def names() -> list[str]:
    """The names :func:`make` knows, in the order they were registered (bots from installed
    extras included)."""
    _load_plugins()
    return list(_REGISTRY)


def about(name: str) -> str:
    """One line describing a bot."""
    return _ABOUT[_key(name)]


def _key(name: str) -> str:
    key = name.strip().lower() if isinstance(name, str) else ""
    if key not in _REGISTRY:
        _load_plugins()
    if key not in _REGISTRY:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(names())}")
    return key


def make(name: str, seed: int | None = None) -> Bot:
    """Build a bot by name; equal seeds give bots that choose alike."""
    return _REGISTRY[_key(name)](seed)


register("random", RandomBot, "plays any legal action, uniformly at random")
register("simple", SimpleBot, "a quick club player's rules of thumb: melds, brisques, cheap cards")
register(
    "careless", CarelessBot, "the simple rules of thumb, but about one move in three at random"
)
register(
    "heuristic",
    HeuristicBot,
    "a stronger club player's heuristic: meld timing, the end of the stock, exact last tricks",
)
register(
    "learned",
    LearnedBot,
    "the heuristic's rules of thumb with corrections learned from the search (on trial)",
)
register(
    "learned-net",
    LearnedNetBot,
    "the learned policy with a network on top, no search (on trial)",
)
register("pimc", PimcBot, "searches sampled deals, each with every card shown (PIMC)")
register("ismcts", IsmctsBot, "information-set Monte Carlo tree search over sampled deals")
register(
    "pimc-c",
    FastPimcBot,
    "PIMC in the compiled engine: candidates compared on the same worlds, exact stage 2",
)
register(
    "pimc-c-smart",
    FastPimcSmartBot,
    "pimc-c with playouts by the heuristic's rules of thumb and coupled draws (on trial)",
)
register(
    "pimc-c-late",
    FastPimcLateBot,
    "pimc-c-smart with a lower bar to overrule the heuristic late in the stock (on trial)",
)
register(
    "pimc-c-model",
    FastPimcModelBot,
    "pimc-c-late with playouts that make no random moves: a model of the heuristic (on trial)",
)
register(
    "pimc-c-inf",
    FastPimcInferenceBot,
    "pimc-c whose worlds count by how likely the opponent's past plays make them (on trial)",
)
register(
    "pimc-c-learned",
    FastPimcLearnedBot,
    "pimc-c starting from the learned policy's choice instead of the heuristic's (on trial)",
)
register(
    "pimc-c-lp",
    FastPimcLearnedPlayoutsBot,
    "pimc-c from the learned policy's choice, played out by it, a lower bar (expert 11-17)",
)
register(
    "pimc-c-lpn",
    FastPimcLearnedNetBot,
    "pimc-c-lp on the learned weights with a network on top (on trial)",
)
register(
    "pimc-c-bel",
    FastPimcBeliefBot,
    "pimc-c-lp whose worlds are dealt by the belief model of the other hand (on trial)",
)
register(
    "pimc-c-opp",
    FastPimcOpponentBot,
    "pimc-c-lp whose playouts play the opponent by the heuristic's rules (on trial)",
)
register(
    "pimc-c-lp0",
    FastPimcSteadyBot,
    "pimc-c-lp whose playouts make no random moves (the expert level's bot)",
)
register(
    "pimc-c-lpn0",
    FastPimcNetSteadyBot,
    "pimc-c-lp0 on the learned weights with a network on top (on trial)",
)
register(
    "pimc-c-opp0",
    FastPimcSteadyOpponentBot,
    "pimc-c-opp whose playouts make no random moves (on trial)",
)
register(
    "pimc-c-lpv",
    FastPimcValueBot,
    "pimc-c-lp0, playouts cut four tricks on and scored by the learned evaluation (on trial)",
)
register(
    "pimc-c-lpv1",
    FastPimcValueShortBot,
    "pimc-c-lp0, playouts cut one trick on and scored by the learned evaluation (on trial)",
)
register(
    "pimc-c-lpv8",
    FastPimcValueLongBot,
    "pimc-c-lp0, playouts cut eight tricks on and scored by the learned evaluation (on trial)",
)
register(
    "pimc-c-lpvs",
    FastPimcSearchValueBot,
    "pimc-c-lpv8 scored by a value model fit to the search's own playouts (on trial)",
)
register(
    "ismcts-c",
    FastIsmctsBot,
    "IS-MCTS in the compiled engine, the heuristic's move as a PUCT prior (on trial)",
)
register(
    "pimc-c-v1",
    FastPimcV1Bot,
    "the first pimc-c (best mean, no confidence bar), kept for comparison",
)


def _level_factory(level: Level) -> BotFactory:
    def build(seed: int | None) -> Bot:
        return LevelBot(level, make(level.bot, seed))

    return build


for _level in LEVELS.values():
    register(_level.name, _level_factory(_level), f"level: {_level.about} ({_level.bot})")
for _level in CANDIDATES.values():
    register(_level.name, _level_factory(_level), f"{_level.about} ({_level.bot})")
for _level in FORMER.values():
    register(_level.name, _level_factory(_level), f"{_level.about}, kept for comparison")


def levels() -> list[str]:
    """The levels for people, weakest first."""
    return list(LEVELS)
