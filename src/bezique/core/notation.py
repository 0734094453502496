"""Action notation: the text form of every decision, parsed and printed so that they round-trip.

::

    play QS                 play a card (a concealed copy if the seat has one, else a declared one)
    play QS@table           play a declared copy
    play QS@bezique         play the declared copy that has scored in a bezique (and nothing else)
    meld bezique QS JD      declare: the meld kind, then the cards that form it
    exchange 7H             swap the seven of trumps for the turn-up
    pass                    make no declaration
    partner                 hand the declaration to the partner (partnership option)

Copies of a card are interchangeable while concealed, but a declared copy remembers the melds it
has scored in, and that decides where it may score again.  When the declared copies of one card
in a hand differ in that history, the notation names the history after ``@``: the meld names in
the order of :data:`bezique.core.melds.MELDS`, joined by ``+`` (``QS@bezique+four-queens``).
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import code, parse_card, shown
from .melds import MELD_BY_NAME, MELDS, profile_order

VERBS = ("play", "meld", "exchange", "pass", "partner")


class IllegalAction(ValueError):
    """An action that is malformed, or not legal in the position; the deal is left unchanged."""


class Action(NamedTuple):
    """One decision: ``verb`` is play, meld, exchange or pass; ``meld`` the meld kind for a
    declaration; ``cards`` the card references in notation (``'QS'``, ``'QS@table'``).

    ``str(action)`` is its notation and :meth:`parse` reads it back.
    """

    verb: str
    meld: str = ""
    cards: tuple[str, ...] = ()

    def __str__(self) -> str:
        verb, meld, cards = self
        if meld:
            return " ".join((verb, meld, *cards))
        if cards:  # play QS, exchange 7H: the common case, kept short (every apply writes it)
            return verb + " " + " ".join(cards)
        return verb

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read an action in notation; raises :class:`IllegalAction` saying what is wrong."""
        if not isinstance(text, str):
            raise IllegalAction(f"an action is text such as 'play QS': got {shown(text)}")
        words = text.split()
        if not words:
            raise IllegalAction(
                "empty action: expected e.g. 'play QS', 'meld bezique QS JD' or 'pass'"
            )
        verb = words[0].lower()
        if verb not in VERBS:
            raise IllegalAction(
                f"unknown action {shown(words[0])} in {shown(text)}: an action starts with "
                "play, meld, exchange, pass or partner"
            )
        if verb in ("pass", "partner"):
            if len(words) > 1:
                raise IllegalAction(f"'{verb}' takes nothing after it: got {shown(text)}")
            return PASS if verb == "pass" else PARTNER
        if verb == "meld":
            if len(words) < 2:
                raise IllegalAction(
                    f"'meld' needs a meld kind, e.g. 'meld bezique QS JD': got {shown(text)}"
                )
            meld = words[1].lower()
            if meld not in MELD_BY_NAME:
                raise IllegalAction(
                    f"unknown meld {shown(words[1])}; melds: {', '.join(m.name for m in MELDS)}"
                )
            cards = tuple(parse_ref(w) for w in words[2:])
            if not cards and meld != "carte-blanche":
                raise IllegalAction(f"{shown(text)}: name the cards of the {meld}")
            return cls("meld", meld, cards)
        if len(words) != 2:
            raise IllegalAction(
                f"'{verb}' takes exactly one card, e.g. '{verb} QS': got {shown(text)}"
            )
        return cls(verb, "", (parse_ref(words[1]),))

    @classmethod
    def play(cls, card: str) -> Action:
        """``play CARD``."""
        return cls("play", "", (parse_ref(card),))


PASS = Action("pass")
PARTNER = Action("partner")


def parse_ref(text: str) -> str:
    """Normalise one card reference (``qs`` -> ``QS``, ``Q♠@Table`` -> ``QS@table``)."""
    card, at, where = text.partition("@")
    try:
        c = code(parse_card(card))
    except ValueError as e:
        raise IllegalAction(str(e)) from None
    if not at:
        return c
    where = where.lower()
    if where == "table":
        return c + "@table"
    names = where.split("+")
    unknown = [n for n in names if n.removeprefix("broken-") not in MELD_BY_NAME]
    if unknown or not where:
        raise IllegalAction(
            f"bad card reference {shown(text)}: after @ comes 'table' or the melds the declared "
            "card has scored in, joined by +"
        )
    ordered = sorted(set(names), key=profile_order)
    return c + "@" + "+".join(ordered)


def split_ref(ref: str) -> tuple[str, str]:
    """``'QS@table'`` -> ``('QS', 'table')``; ``'QS'`` -> ``('QS', '')``."""
    card, _, where = ref.partition("@")
    return card, where
