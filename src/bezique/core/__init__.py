"""The pure rules core of bezique: standard library only, no I/O, no global randomness."""

from .deal import Deal, SideResult
from .match import Match
from .notation import Action, IllegalAction
from .observation import Observation
from .rules import Rules

__all__ = ["Action", "Deal", "IllegalAction", "Match", "Observation", "Rules", "SideResult"]
