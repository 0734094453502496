"""The computer's advice: a hint for the move at hand, and the review of a finished deal.

Both ask a bot about one seat's observation only, so advice never knows more than the seat.
The advisor is ``bezique.bots.hint`` when the bots package provides one, else the 'simple'
bot's choice; :func:`set_advisor` plugs in another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import bots
from ..core.deal import Deal
from ..core.match import Match
from ..core.observation import Observation

Advisor = Callable[[Observation], tuple[str, str]]
"""Returns the action it would play (notation) and a short reason."""

_advisor: Advisor | None = None


def _from_result(result: Any) -> tuple[str, str]:
    action = getattr(result, "action", result)
    info = getattr(result, "info", None) or {}
    reason = info.get("reason", "") if isinstance(info, dict) else ""
    return str(action), str(reason)


def default_advisor(obs: Observation) -> tuple[str, str]:
    """``bezique.bots.hint`` if it exists, else the simple bot."""
    hint = getattr(bots, "hint", None)
    if callable(hint):
        return _from_result(hint(obs))
    return _from_result(bots.make("simple", seed=0).play(obs))


def set_advisor(advisor: Advisor | None) -> None:
    """Use another advisor (None: back to the default)."""
    global _advisor
    _advisor = advisor


def suggest(obs: Observation) -> tuple[str, str]:
    """What the advisor would play for the observing seat (which must be to move)."""
    return (_advisor or default_advisor)(obs)


def review(match: Match, deal_index: int, seat: int) -> list[dict[str, Any]]:
    """Each decision of ``seat`` in a finished deal where the advisor would have chosen
    differently: ``{"move", "ply", "played", "suggested", "reason"}`` (``move`` counts the
    actions of the whole match, ``ply`` those of the deal)."""
    deal = match.deals[deal_index]
    if not deal.is_over:
        raise ValueError("the deal is not over yet")
    before = sum(len(d.history) for d in match.deals[:deal_index])
    replay = Deal.new(match.rules, seed=match.deal_seeds[deal_index], dealer=deal.dealer)
    out = []
    for ply, played in enumerate(deal.history):
        if replay.to_move == seat:
            obs = replay.observation(seat)
            if len(obs.legal) > 1:
                suggested, reason = suggest(obs)
                if suggested != played:
                    out.append(
                        {
                            "move": before + ply,
                            "ply": ply,
                            "played": played,
                            "suggested": suggested,
                            "reason": reason,
                        }
                    )
        replay.apply(played)
    return out


__all__ = ["Advisor", "default_advisor", "review", "set_advisor", "suggest"]
