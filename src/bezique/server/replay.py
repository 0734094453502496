"""The replay view's answer: every position of a finished game, all hands shown, by page.

Each step carries only what the replay view draws (trump, turn-up, stock, points, each seat's
concealed and declared cards, the trick on the table, the winner of the last trick and the
melds declared in the deal, in words and with named fields), and only what changed since the
step before: the first step of a page is whole, the others are deltas that the client lays
over the position before.  An answer therefore grows with the game's length, never with its
square (a view with the whole trick history in every step made a 34 KiB record a 37 MB
answer).

The work is bounded too: a record longer than ``MAX_ACTIONS`` is not replayed here, and one
answer holds whole deals up to ``PAGE_STEPS`` steps (at least one deal); ``next_deal`` says
where the next page starts.
"""

from __future__ import annotations

import json
from typing import Any

from ..core.events import EventKind
from ..core.records import GameRecord
from .protocol import scoring_event

MAX_ACTIONS = 20_000
"""Actions a record may hold to be replayed by the server (a 1,000-point classic match has about
600; the rule ranges bound a single deal to under a thousand)."""
PAGE_STEPS = 2_000
"""Steps one answer holds at most, in whole deals (a single longer deal is sent whole)."""


VIEW_KEYS = (
    "trump",
    "turn_up",
    "stock_size",
    "points",
    "hands",
    "tables",
    "trick",
    "won",
    "melds",
    "scoring",
)
"""What a step's view holds (the first step of a page all of it, the others what changed)."""


class ReplayError(ValueError):
    """A replay that is not made: a page that does not exist, a record too long."""


def record_actions(text: str | bytes) -> int:
    """The actions a record's JSON holds, counted without replaying it; a record longer than
    the server replays raises :class:`ReplayError` (text that is no record counts 0: reading it
    says what is wrong)."""
    try:
        data = json.loads(text)
        deals = data["deals"] if isinstance(data, dict) else []
        count = sum(len(d["actions"]) for d in deals if isinstance(d, dict))
    except (ValueError, KeyError, TypeError, RecursionError):
        return 0  # reading it says what is wrong (deep nesting among it)
    return _short_enough(count)


def _short_enough(count: int) -> int:
    if count > MAX_ACTIONS:
        raise ReplayError(
            f"this game has {count} actions: the server replays games of at most "
            f"{MAX_ACTIONS} (`bezique replay FILE` shows any game)"
        )
    return count


def replay_steps(
    record: GameRecord, first_deal: int = 0, page_steps: int = PAGE_STEPS
) -> dict[str, Any]:
    """The steps of the deals from ``first_deal`` on, as many whole deals as fit in
    ``page_steps`` steps, each step's view holding what changed since the step before."""
    deals = len(record.deals)
    _short_enough(sum(len(d.actions) for d in record.deals))
    if not 0 <= first_deal < deals:
        raise ReplayError(f"no deal {first_deal}: the game has deals 0 to {deals - 1}")
    rules = record.rules
    players = rules.players
    show_stock = rules.show_stock_count
    steps: list[dict[str, Any]] = []
    before: dict[str, Any] = {}
    next_deal: int | None = None
    mover: int | None = None  # who was to move before each action
    for i, ply, action, deal in record.states():
        if i < first_deal:
            continue
        if ply == 0 and i > first_deal and len(steps) >= page_steps:
            next_deal = i
            break
        # read from the deal, not from a whole observation (which carries every trick so far)
        tables = [deal.table(seat) for seat in range(players)]
        hands = []
        for seat in range(players):
            hand = deal.hand(seat)
            for code in tables[seat]:
                hand.remove(code)
            hands.append(hand)
        now = {
            "trump": deal.trump,
            "turn_up": deal.turn_up,
            "stock_size": deal.stock_size if show_stock else None,
            "points": list(deal.points),
            "hands": hands,
            "tables": tables,
            "trick": [[s, c] for s, c in deal.trick],
            "won": deal.last_trick_winner,
            # each declaration: seat, "meld NAME CARDS" and its points (the text form, as
            # clients before ``scoring`` read it)
            "melds": [[e.seat, e.what, e.points] for e in deal.events if e.kind is EventKind.MELD],
            # the same declarations with named fields, as in a view's ``scoring`` (only the
            # declarations: they are all the replay draws, and each step that adds one sends
            # the list again)
            "scoring": [scoring_event(e, rules) for e in deal.events if e.kind is EventKind.MELD],
        }
        changed = {k: v for k, v in now.items() if k not in before or before[k] != v}
        before = now
        steps.append(
            {
                "deal": i,
                "ply": ply,
                "action": action,
                "seat": mover if ply else None,
                "view": changed,
            }
        )
        mover = deal.to_move
    return {
        "rules": str(record.rules),
        "players": list(record.players),
        "scores": list(record.scores),
        "winner": record.winner,
        "deals": deals,
        "first_deal": first_deal,
        "next_deal": next_deal,
        "steps": steps,
    }


__all__ = [
    "MAX_ACTIONS",
    "PAGE_STEPS",
    "VIEW_KEYS",
    "ReplayError",
    "record_actions",
    "replay_steps",
]
