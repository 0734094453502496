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
careless   the rules of thumb with a random move one time in three (the easy level)
heuristic  a club player's heuristic, exact stage 2 when every card is known
pimc       perfect-information Monte Carlo over sampled worlds (:mod:`.search`)
ismcts     single-observer information-set MCTS (:mod:`.ismcts`)
pimc-c     PIMC in the compiled engine, exact stage 2 in every world (:mod:`.fastpimc`)
pimc-c-v1  the first pimc-c, which played the best mean (kept for comparison)
pimc-c-lp  pimc-c from the learned policy's choice, played out by it (:mod:`.learned`)
beginner, easy, medium, hard, expert: the levels for people (:mod:`.levels`)
expert-c-lp0: the expert level (pimc-c-lp0) under the name measured; expert-c-lp: the expert
of sessions 11-17 (pimc-c-lp); expert-c: that of sessions 8-10 (pimc-c); hard-c: that at 1,200
rollouts
pimc-c-lpn, expert-c-lpn: pimc-c-lp on the learned weights with a network on top (on trial)
pimc-c-bel, expert-c-bel: pimc-c-lp, its worlds dealt by the belief model (:mod:`.belief`)
pimc-c-opp, expert-c-opp: pimc-c-lp, the opponent played out by the heuristic's rules
pimc-c-lp0: pimc-c-lp, its learned playouts without random moves (the expert level)
pimc-c-lpn0, expert-c-lpn0: pimc-c-lp0 on the network weights (on trial)
pimc-c-lpv, expert-c-lpv: pimc-c-lp0, playouts cut short and scored by the learned evaluation
pimc-c-lpv1, pimc-c-lpv8 (and expert-c-...): pimc-c-lpv cut one and eight tricks on (on trial)
pimc-c-lpvs, expert-c-lpvs: pimc-c-lpv8 scored by a value model of its own playouts (on trial)
pimc-c-opp0, expert-c-opp0: pimc-c-opp, its playouts without random moves
hard-old, expert-old: the levels before session 8 (pimc, ismcts), kept for comparison
pimc-c-smart, expert-c-smart: pimc-c with the heuristic's rules in its playouts (on trial)
pimc-c-late, expert-c-late: pimc-c-smart with a lower bar late in the stock (on trial)
pimc-c-model, expert-c-model: pimc-c-late, its playouts without random moves (on trial)
pimc-c-inf, expert-c-inf: pimc-c, its worlds weighed by the opponent's past plays (on trial)
ismcts-c, expert-c-ismcts: IS-MCTS in C, the heuristic's move as a PUCT prior (on trial)
=========  ============================================================================

:func:`hint` gives the expert's choice with the value of every legal action.  The ``oracle``
(:mod:`.oracle`) and ``oracle-c`` (:mod:`.fastoracle`, the compiled search on the true deal)
cheat and are for measurement in the arena only: they are not in this registry.
"""

from __future__ import annotations

from .base import Bot, InfoDict, Limit, PlayResult, legal_actions
from .heuristic import HeuristicBot
from .hint import Hint, hint
from .ismcts import IsmctsBot
from .levels import LEVELS, Level, LevelBot
from .random_bot import RandomBot
from .registry import BotFactory, about, levels, make, names, register
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
]
