"""The terminal face of bezique: pictures of a view (:mod:`.render`), the rules in words
(:mod:`.rules_text`), a match against the computer (:mod:`.game`) and record replays
(:mod:`.replay`).  Only :mod:`.render` and :mod:`.rules_text` draw; the loops only read input
and call them.
"""

from .render import render_deal_end, render_observation, text
from .rules_text import render_options, render_rules

__all__ = ["render_deal_end", "render_observation", "render_options", "render_rules", "text"]
