"""What a deal's transitions read on every card, worked out once per rule set.

Random play and the search players apply tens of thousands of actions a second, and most rule
options only pick which branch a transition takes.  :class:`DealTables` answers those
questions once, when a rule set's first deal is made: which seven-of-trumps scoring applies,
whether the target ends a deal at once, who draws first, each seat's side, what each card kind
adds to a trick, the other copies of each card.  It extends the play-id tables
(:class:`~bezique.core.ids.PlayIds`) that a deal holds anyway, so a deal reaches both through
one attribute.  The rules themselves stay where they are written (:mod:`bezique.core.scoring`,
:mod:`bezique.core.dealing`, the options); this module only reads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import NINE, SEVEN
from .dealing import active_order, kinds_of
from .ids import PlayIds
from .percache import per_rules
from .scoring import kind_values, trick_values
from .tricks import beats_table

if TYPE_CHECKING:
    from .rules import Rules


class DealTables(PlayIds):
    """The play-id tables of a rule set and the answers its options give a deal's transitions
    (get it with :func:`deal_tables`; read-only but for the memos)."""

    __slots__ = (
        "beats",
        "exchange_rank",
        "kind_value",
        "like",
        "meld_plans",
        "next_seat",
        "orders",
        "seven_any",
        "seven_play",
        "seven_win",
        "side",
        "target_now",
        "trick_bonus",
        "trick_size",
        "winner_draws_first",
    )

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        kinds = kinds_of(rules)
        copies: dict[int, list[int]] = {}
        for cid, k in enumerate(kinds):
            copies.setdefault(k, []).append(cid)
        self.like: tuple[tuple[int, ...], ...] = tuple(
            tuple(c for c in copies[k] if c != cid) for cid, k in enumerate(kinds)
        )
        """Per card id, the ids of the other copies of its kind, ascending (hands are sorted
        by id, so this is the order they come in a hand)."""
        self.side: tuple[int, ...] = tuple(rules.side_of(s) for s in range(rules.players))
        """Per seat, its scoring side."""
        self.kind_value: tuple[int, ...] = kind_values(rules)
        """Per card kind, what it adds to the trick that holds it."""
        self.trick_bonus: int = trick_values(rules)[1]
        """What every trick is worth besides its cards."""
        self.trick_size: int = rules.players - rules.dealer_sits_out
        """Cards in a trick."""
        n = rules.players
        self.next_seat: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                (s + 2) % n if (s + 1) % n == dealer and rules.dealer_sits_out else (s + 1) % n
                for s in range(n)
            )
            for dealer in range(n)
        )
        """Per dealer and seat, the seat that plays after it to a trick (the dealer sits out
        where ``dealer_sits_out``)."""
        self.beats: dict[int | None, bytes] = {
            trump: beats_table(trump, rules.wild_card_lead_wins) for trump in (None, 0, 1, 2, 3)
        }
        """Per trump suit (None: none yet), :func:`~bezique.core.tricks.beats` as a table:
        ``beats[trump][k << 6 | best]``."""
        sevens = bool(rules.seven_of_trumps)
        self.seven_play: bool = sevens and rules.second_seven_scores == "play"
        """A concealed seven of trumps scores when played in stage 1."""
        self.seven_win: bool = sevens and rules.second_seven_scores == "win-trick"
        """A seven of trumps scores for the seat whose stage-1 trick it wins."""
        self.seven_any: bool = sevens and rules.second_seven_scores in ("play-always", "capture")
        """Every seven of trumps in a trick scores (``play-always`` / ``capture``)."""
        self.target_now: bool = rules.target_check == "immediate"
        """A side that reaches the target ends the deal at once."""
        rank = {"seven": SEVEN, "nine": NINE}.get(rules.turn_up_exchange)
        self.exchange_rank: int | None = (
            None if rank == SEVEN and not rules.seven_of_trumps else rank
        )
        """The rank of trumps that may be exchanged for the turn-up (``turn_up_exchange``;
        the seven only where it scores), None where none may."""
        self.meld_plans: dict[int | None, list[Any]] = {}
        """The :func:`~bezique.core.movegen.meld_plan` of each trump met so far (a memo the
        move generator fills)."""
        self.winner_draws_first: bool = rules.draw_order == "winner-first"
        """The trick's winner draws first (else its leader: ``draw_order``)."""
        self.orders: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(tuple(active_order(rules, dealer, first)) for first in range(rules.players))
            for dealer in range(rules.players)
        )
        """Per dealer and first seat, the seats that take part in the deal in turn from it
        (:func:`~bezique.core.dealing.active_order`)."""


@per_rules
def deal_tables(rules: Rules) -> DealTables:
    """The :class:`DealTables` of a rule set (built once per rule set)."""
    return DealTables(rules)


__all__ = ["DealTables", "deal_tables"]
