"""What one seat may know about a deal, as an immutable value.

An :class:`Observation` is built only by :meth:`bezique.core.deal.Deal.observation`.  It holds the
seat's own concealed cards, every declared card on the table (with the melds it has scored in),
the cards each seat is publicly known to hold (a turn-up taken, melds returned to the hand), all
cards played, the scoring events and the legal actions, and nothing else: no other seat's
concealed cards and no stock order.  ``seat=None`` is the public view a spectator gets.

Its one-line text form (:meth:`Observation.to_string`, :meth:`Observation.from_string`) is the
position string of a deal as that seat sees it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Rules

FORMAT = "bezique1"


@dataclass(frozen=True)
class Observation:
    """A seat's view of a deal.  Card lists are sorted codes; tables carry ``CODE@melds``."""

    rules: Rules
    seat: int | None
    """The observing seat; None for the public (spectator) view."""
    dealer: int
    phase: str
    """'play', 'declare' or 'over'."""
    to_move: int | None
    stage: int
    """1 while the stock lasts, 2 for the last tricks."""
    leader: int
    """Seat that led (or leads) the current trick."""
    trump: str | None
    turn_up: str | None
    stock_size: int
    """Face-down cards left to draw (the turn-up not counted)."""
    hand: tuple[str, ...]
    """The seat's own concealed cards (empty for the public view)."""
    hand_sizes: tuple[int, ...]
    tables: tuple[tuple[str, ...], ...]
    """Per seat, its declared cards as ``CODE@meld+meld``."""
    known: tuple[tuple[str, ...], ...]
    """Per seat, concealed cards that every player knows it holds."""
    trick: tuple[tuple[int, str], ...]
    """The trick in progress: (seat, card) in play order."""
    tricks: tuple[tuple[int, tuple[str, ...], int], ...]
    """Completed tricks: (leader, cards in play order, winner)."""
    events: tuple[tuple[int, int, str, int], ...]
    """Scoring events: (tricks completed before it, seat, what, points)."""
    points: tuple[int, ...]
    """Points per side so far, as :attr:`Deal.points`."""
    declared_this_trick: int
    exchanged_this_trick: bool
    history: tuple[str, ...]
    """Every action of the deal so far, in notation."""
    legal: tuple[str, ...]
    """The legal actions in notation when this seat is to move, else empty."""
    live_melds: tuple[tuple[int, str, tuple[str, ...]], ...] = ()
    """With meld re-forming: the melds on the table none of whose cards has been played,
    as (seat, meld, cards)."""
    legal_ids: tuple[int, ...] = ()
    """The action id of each of :attr:`legal`, in the same order (:mod:`bezique.core.ids`)."""

    @property
    def is_over(self) -> bool:
        """True once the deal is over."""
        return self.phase == "over"

    @property
    def my_turn(self) -> bool:
        """True when the observing seat is to move."""
        return self.seat is not None and self.to_move == self.seat

    def to_string(self) -> str:
        """The one-line position string of this view; :meth:`from_string` reads it back."""
        return _encode(self)

    @classmethod
    def from_string(cls, text: str) -> Observation:
        """Read a seat's position string; raises ``ValueError`` saying what is wrong."""
        from .deal import Deal  # the legal actions are worked out by the engine

        fields_, hidden = _decode(text)
        if hidden:
            raise ValueError("this is a full position string: read it with Deal.from_position")
        return Deal._observation_from_fields(fields_)


def _join(items: tuple[str, ...] | list[str], sep: str = ",") -> str:
    return sep.join(items)


def _encode(o: Observation, extra: dict[str, str] | None = None) -> str:
    parts = {
        "rules": str(o.rules),
        "seat": "*" if o.seat is None else str(o.seat),
        "dealer": str(o.dealer),
        "phase": o.phase,
        "to": "-" if o.to_move is None else str(o.to_move),
        "stage": str(o.stage),
        "lead": str(o.leader),
        "trump": o.trump or "-",
        "up": o.turn_up or "-",
        "stock": str(o.stock_size),
        "hand": _join(o.hand),
        "sizes": _join([str(n) for n in o.hand_sizes]),
        "tables": "/".join(_join(t) for t in o.tables),
        "known": "/".join(_join(k) for k in o.known),
        "trick": _join([f"{s}:{c}" for s, c in o.trick]),
        "tricks": _join([f"{ld}:{'.'.join(cs)}:{w}" for ld, cs, w in o.tricks]),
        "events": ";".join(f"{t}:{s}:{what}:{p}" for t, s, what, p in o.events),
        "points": _join([str(p) for p in o.points]),
        "declared": str(o.declared_this_trick),
        "exchanged": "1" if o.exchanged_this_trick else "0",
        "history": _join(list(o.history)),
        "melds": ";".join(f"{s}:{m}:{'.'.join(cs)}" for s, m, cs in o.live_melds),
    }
    if extra:
        parts.update(extra)
    return FORMAT + "|" + "|".join(f"{k}={v}" for k, v in parts.items())


_FIELDS = [
    "rules",
    "seat",
    "dealer",
    "phase",
    "to",
    "stage",
    "lead",
    "trump",
    "up",
    "stock",
    "hand",
    "sizes",
    "tables",
    "known",
    "trick",
    "tricks",
    "events",
    "points",
    "declared",
    "exchanged",
    "history",
    "melds",
]


def _decode(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """Split a position string into its observation fields and its hidden part."""
    if not isinstance(text, str) or not text.startswith(FORMAT + "|"):
        raise ValueError(f"not a position string: it must start with '{FORMAT}|'")
    out: dict[str, str] = {}
    for part in text.strip().split("|")[1:]:
        key, eq, value = part.partition("=")
        if not eq:
            raise ValueError(f"bad field {part!r} in position string: expected key=value")
        if key in out:
            raise ValueError(f"field {key!r} appears twice in position string")
        out[key] = value
    missing = [k for k in _FIELDS if k not in out]
    if missing:
        raise ValueError(f"position string lacks field(s): {', '.join(missing)}")
    hidden: dict[str, str] = {k: out.pop(k) for k in ("hands", "deck") if k in out}
    unknown = [k for k in out if k not in _FIELDS]
    if unknown:
        raise ValueError(f"unknown field(s) in position string: {', '.join(unknown)}")
    return out, hidden
