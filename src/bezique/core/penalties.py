"""Penalties for irregularities at a table of real cards, by ``penalty_scheme`` (RULES.md 2.1.4,
decisions D23-D26, facts C47-C49).

The engine never lets an irregularity happen (it refuses an illegal action); these are the
rules the score-keeper applies when people play with real cards and report one.  Each scheme
names its offences with the points they cost: taken from the offender (``russian``), given to
each of the offender's opponents (``victorian``), or the offender's side scoring nothing more
in the game (``no-further-points``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import Rules

Offence = tuple[int | None, str]
"""(points, meaning): ``None`` points for a reset to 0 (the Russian false declaration) or for
points entered with the penalty (the Victorian revoke)."""

_TABLES: dict[str, dict[str, Offence]] = {
    "russian": {
        "early-declaration": (-10, "declaring before winning a trick: -10"),
        "revoke": (-20, "not following suit or not trumping in the last tricks: -20"),
        "lead-before-drawing": (-30, "leading before drawing back to a full hand: -30"),
        "extra-card": (-50, "drawing an extra card: -50"),
        "nine-cards": (-120, "playing on to the end of the hand with a card too many: -120"),
        "false-declaration": (
            None,
            "declaring a combination one does not hold: the offender's whole score goes back to 0",
        ),
    },
    "victorian": {
        "too-many-cards": (100, "holding more cards than the hand size: each opponent +100"),
        "failed-to-draw": (10, "failing to draw in stage 1: each opponent +10"),
        "revoke": (
            None,
            "revoking, or failing to win when able, in the last tricks: each opponent scores "
            "the brisques still to be won (enter their points)",
        ),
    },
    "no-further-points": {
        "irregularity": (
            0,
            "any irregularity: the offender keeps the points he has but scores nothing more "
            "in this game (seed 000-C)",
        ),
    },
}


def offences(rules: Rules) -> dict[str, Offence]:
    """The offences of ``rules.penalty_scheme`` (empty for ``none``), name -> (points,
    meaning); the Russian extra card costs the option ``extra_card_penalty`` (50; 60 in seed
    000, fact C47).

    >>> from bezique.core.rules import Rules
    >>> offences(Rules.preset("russian", extra_card_penalty=60))["extra-card"]
    (-60, 'drawing an extra card: -60')
    """
    out = dict(_TABLES.get(rules.penalty_scheme, {}))
    if rules.penalty_scheme == "russian":
        cost = rules.extra_card_penalty
        out["extra-card"] = (-cost, f"drawing an extra card: -{cost}")
    return out


def schemes() -> dict[str, dict[str, Offence]]:
    """Every penalty scheme's offences under the default figures (``extra_card_penalty`` 50)."""
    return {scheme: dict(table) for scheme, table in _TABLES.items()}


__all__ = ["Offence", "offences", "schemes"]
