"""Hints: what the expert would play, and why.

:func:`hint` asks a level's bot (the expert by default) about an observation and returns a
:class:`Hint`: the action it chooses and the value it gave each legal action (the expected point
margin of the deal for the player's side, in the search levels), so a person can see how close
the alternatives were.  Like every bot it sees only the observation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.notation import Action
from ..core.observation import Observation
from .base import Limit
from .registry import make


@dataclass(frozen=True)
class Hint:
    """A suggested action with the values compared to choose it."""

    action: Action
    values: dict[str, float] = field(default_factory=dict)
    """Per legal action (notation), the bot's value; higher is better for the player."""
    reason: str = ""
    """How the values were found, in words."""
    level: str = "expert"

    def ranked(self) -> list[tuple[str, float]]:
        """The actions with their values, best first (ties in the order of the legal list)."""
        return sorted(self.values.items(), key=lambda item: -item[1])

    def text(self, top: int = 4) -> str:
        """A few lines for a person: the suggestion, the best alternatives, the reason."""
        lines = [f"Hint ({self.level}): {self.action}"]
        ranked = self.ranked()
        if len(ranked) > 1:
            best = ranked[0][1]
            for action, value in ranked[:top]:
                gap = "" if value == best else f"  ({value - best:+.1f})"
                lines.append(f"  {action:<34} {value:8.1f}{gap}")
        if self.reason:
            lines.append(f"  {self.reason}")
        return "\n".join(lines)


def hint(
    observation: Observation, limit: Limit | None = None, *, level: str = "expert", seed: int = 0
) -> Hint:
    """What the ``level`` player would do in this position, and the values it compared.

    The bot is seeded with ``seed``, so a hint for an observation is reproducible."""
    result = make(level, seed=seed).play(observation, limit)
    values = dict(result.info.get("scores", {}))
    if str(result.action) not in values:
        values[str(result.action)] = float(result.info.get("value", 0.0))
    return Hint(result.action, values, result.info.get("reason", ""), level)
