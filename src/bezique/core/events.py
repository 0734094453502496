"""Scoring events: what scored during a deal, as a typed value.

A deal keeps a list of :class:`ScoreEvent` (``Deal.events``, ``Observation.events``): the
number of tricks completed before it, the seat it is credited to, what happened in words, and
the points.  The words (``what``) are the text form that records, position strings and the
browser's JSON carry, unchanged; the code reads the typed parts instead - :attr:`ScoreEvent.kind`
(an :class:`EventKind`), :attr:`ScoreEvent.meld`, :attr:`ScoreEvent.cards`,
:attr:`ScoreEvent.part` - so no module matches the words itself.

>>> e = ScoreEvent(3, 1, "meld bezique QS JD", 40)
>>> e.kind, e.meld, e.cards, e.part
(<EventKind.MELD: 'meld'>, 'bezique', ('QS', 'JD'), 0)
>>> t, seat, what, points = e          # still a 4-tuple, as before
>>> e.text(), ScoreEvent.parse(e.text()) == e
('3:1:meld bezique QS JD:40', True)
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .slots import PART_BONUS, PART_LAST, PART_MELDS


class EventKind(StrEnum):
    """The kinds of scoring event (their values name them in words)."""

    TURN_UP = "turn-up"
    """The card turned up at the deal scored (``turn_up_bonus``); ``cards``: that card."""
    MELD = "meld"
    """A declaration; ``meld``: its name, ``cards``: the cards shown."""
    EXCHANGE = "exchange"
    """The exchange for the turn-up; ``cards``: the card given."""
    SEVEN = "seven"
    """A seven of trumps scored in play (``second_seven_scores``); ``how``: played, won or
    captured."""
    CARTE_BLANCHE = "carte blanche"
    """A hand without a court card shown (``carte_blanche``)."""
    CARTE_BLANCHE_ENDS = "carte blanche ends"
    """A court card drawn ends a repeated carte blanche (``carte_blanche_repeat``); 0 points."""
    LAST_TRICK = "last trick"
    """The last trick's bonus."""
    TARGET_REACHED = "target reached"
    """A side reached the target and the deal ended at once (``target_check``); 0 points."""
    WINS_GAME = "wins the game"
    """A meld that wins the game outright (``triple_bezique_wins_game``); 0 points."""


_WHOLE = {k.value: k for k in EventKind}
_HEAD = {"turn-up": EventKind.TURN_UP, "meld": EventKind.MELD, "exchange": EventKind.EXCHANGE}
_HEAD["seven"] = EventKind.SEVEN


class ScoreEvent(NamedTuple):
    """One scoring event: ``(trick, seat, what, points)`` (see the module docstring)."""

    trick: int
    """Tricks completed before it."""
    seat: int
    """The seat it is credited to (its side: ``rules.side_of(seat)``)."""
    what: str
    """What happened, in the words records and position strings use."""
    points: int

    @classmethod
    def of(cls, trick: int, seat: int, kind: EventKind, points: int, *words: str) -> ScoreEvent:
        """The event of this kind with these words after its name: ``(meld name and) cards``
        for a meld, the card for a turn-up or exchange, ``how`` and the card for a seven."""
        return cls(trick, seat, " ".join((kind.value, *words)), points)

    @property
    def kind(self) -> EventKind:
        """What kind of event it is."""
        kind = _WHOLE.get(self.what)
        if kind is None:
            kind = _HEAD.get(self.what.partition(" ")[0])
            if kind is None:
                raise ValueError(f"unknown scoring event {self.what!r}")
        return kind

    @property
    def meld(self) -> str:
        """The meld's name for a declaration; ``''`` for every other kind."""
        if not self.what.startswith("meld "):
            return ""
        return self.what.split(" ", 2)[1]

    @property
    def how(self) -> str:
        """For a seven of trumps scored in play: ``'played'``, ``'won'`` or ``'captured'``."""
        return self.what.split(" ", 2)[1] if self.what.startswith("seven ") else ""

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards the event names (in notation), if any."""
        kind = self.kind
        words = self.what.split()
        if kind in (EventKind.MELD, EventKind.SEVEN):
            return tuple(words[2:])
        if kind in (EventKind.TURN_UP, EventKind.EXCHANGE):
            return tuple(words[1:])
        return ()

    @property
    def part(self) -> int:
        """Which part of a side's deal score it adds to (an index of ``Deal._pts[side]``):
        ``PART_BONUS`` the turn-up, ``PART_LAST`` the last trick, ``PART_MELDS`` declarations
        and every other bonus (``PART_TRICKS``, the tricks, has no events)."""
        if self.what == "last trick":
            return PART_LAST
        return PART_BONUS if self.what.startswith("turn-up ") else PART_MELDS

    def text(self) -> str:
        """The event in a position string: ``trick:seat:what:points``."""
        return f"{self.trick}:{self.seat}:{self.what}:{self.points}"

    @classmethod
    def parse(cls, text: str) -> ScoreEvent:
        """Read :meth:`text` back (``ValueError`` when it is not an event)."""
        t, s, what, p = text.split(":")
        event = cls(int(t), int(s), what, int(p))
        event.kind  # noqa: B018 - refuses words that name no event
        return event


__all__ = ["EventKind", "ScoreEvent"]
