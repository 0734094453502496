"""bezique: the card game Bezique, every variant, by the rules.

>>> from bezique import Rules, Deal
>>> deal = Deal.new(Rules.preset("classic"), seed=7, dealer=0)
>>> deal.to_move, deal.phase, deal.stock_size
(1, 'play', 47)
"""

from .core import Action, Deal, IllegalAction, Match, Observation, Rules, SideResult

__all__ = ["Action", "Deal", "IllegalAction", "Match", "Observation", "Rules", "SideResult"]
__version__ = "0.9.0"
