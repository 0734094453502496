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

:func:`make` builds a player from its spec (:mod:`.spec`: ``NAME`` or ``NAME:key=value,...``)
and :func:`names` lists the names; :func:`register` and :func:`register_family` add players.

=================  ==============================================================================
name               player
=================  ==============================================================================
beginner .. expert the levels for people, each a spec in one table (:mod:`.levels`)
random             a uniformly random legal action
simple             quick rules of thumb (:mod:`.simple`)
careless           the rules of thumb with a random move one time in three (the easy level)
heuristic          a club player's heuristic, exact stage 2 when every card is known
learned            the heuristic with corrections learned from the search (:mod:`.learned`)
pimc               perfect-information Monte Carlo over sampled worlds, in Python (:mod:`.search`)
ismcts             single-observer information-set MCTS, in Python (:mod:`.ismcts`)
pimc-c             PIMC in the compiled engine, exact stage 2 in every world (:mod:`.fastpimc`)
ismcts-c           IS-MCTS in the compiled engine, the heuristic as a PUCT prior
                   (:mod:`.fastismcts`)
=================  ==============================================================================

A family's settings are one frozen dataclass (:class:`~.fastpimc.PimcSettings`,
:class:`~.fastismcts.IsmctsSettings`, ...); ``bezique bots`` lists them with their defaults and
ranges.  :func:`hint` gives the expert's choice with the value of every legal action.  The
``oracle`` (:mod:`.oracle`), ``oracle-c`` and ``oracle-hand`` (:mod:`.fastoracle`) cheat and are
for measurement in the arena only: :func:`make` and :func:`names` do not offer them.
"""

from __future__ import annotations

from .base import Bot, InfoDict, Limit, PlayResult, legal_actions
from .heuristic import HeuristicBot
from .hint import Hint, hint
from .ismcts import IsmctsBot
from .levels import LEVELS, Level, LevelBot
from .random_bot import RandomBot
from .registry import BotFactory, about, levels, make, names, register, register_family
from .search import PimcBot
from .simple import SimpleBot

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
    "register_family",
]
