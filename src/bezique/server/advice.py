"""The computer's advice: a hint for the move at hand, and the review of a finished deal.

Both ask a bot about one seat's observation only, so advice never knows more than the seat.
The advisor is ``bezique.bots.hint`` (a level's choice, the expert's by default) where the bots
package has it, else the 'simple' bot's choice; :func:`set_advisor` plugs in another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import bots
from ..bots.base import Limit
from ..core.deal import Deal
from ..core.match import Match
from ..core.observation import Observation
from .protocol import view

Advisor = Callable[[Observation, str | None, float | None], tuple[str, str]]
"""(observation, level, seconds) -> the action it would play (notation) and a short reason."""

_advisor: Advisor | None = None


def best_level(*wanted: str) -> str | None:
    """The first of ``wanted`` that the bots package offers, else None."""
    names = bots.names()
    return next((w for w in wanted if w in names), None)


def default_advisor(obs: Observation, level: str | None, seconds: float | None) -> tuple[str, str]:
    """``bezique.bots.hint`` at ``level`` if it exists, else the simple bot."""
    hint = getattr(bots, "hint", None)
    limit = Limit(time=seconds) if seconds else None
    if callable(hint) and level is not None and level in bots.names():
        result: Any = hint(obs, limit, level=level)
    else:
        result = bots.make("simple", seed=0).play(obs, limit)
    reason = getattr(result, "reason", "") or getattr(result, "info", {}).get("reason", "")
    return str(result.action), str(reason)


def set_advisor(advisor: Advisor | None) -> None:
    """Use another advisor (None: back to the default)."""
    global _advisor
    _advisor = advisor


def suggest(
    obs: Observation, level: str | None = None, seconds: float | None = None
) -> tuple[str, str]:
    """What the advisor would play for the observing seat (which must be to move)."""
    return (_advisor or default_advisor)(obs, level, seconds)


def review(
    match: Match, deal_index: int, seat: int, level: str | None = None
) -> list[dict[str, Any]]:
    """Each decision of ``seat`` in a finished deal where the advisor would have chosen
    differently: ``{"move", "ply", "played", "suggested", "reason", "view"}`` (``move`` counts
    the actions of the whole match, ``ply`` those of the deal; ``view`` is the seat's own view
    of the deal at that moment, the hand it held, the melds, the trick and the scores, so the
    client can show the position: only what the seat saw then, as every view sent)."""
    finished = match.finished  # as kept: the deal is replayed below, the others not at all
    if not 0 <= deal_index < len(finished):
        raise ValueError("the deal is not over yet")
    deal = finished[deal_index]
    before = sum(len(d.actions) for d in finished[:deal_index])
    # the game scores the deal began on too: the advice (and a Haitian deal's end) needs them
    replay = Deal.new(
        match.rules,
        seed=deal.seed,
        dealer=deal.dealer,
        carry=deal.carry,
        game_bezique=deal.game_bezique,
    )
    out = []
    for ply, played in enumerate(deal.actions):
        if replay.to_move == seat:
            obs = replay.observation(seat)
            if len(obs.legal) > 1:
                suggested, reason = suggest(obs, level)
                if suggested != played:
                    out.append(
                        {
                            "move": before + ply,
                            "ply": ply,
                            "played": played,
                            "suggested": suggested,
                            "reason": reason,
                            "view": view(obs),
                        }
                    )
        replay.apply(played)
    return out


__all__ = ["Advisor", "best_level", "default_advisor", "review", "set_advisor", "suggest"]
