"""One surface for a deal, whichever engine plays it: the :class:`DealLike` protocol.

The reference core's :class:`bezique.Deal` and the compiled engine's
:class:`bezique.fast.FastDeal` both satisfy it (``tests/test_fast_boundary.py`` checks it,
structurally under mypy and by calling every member on both), so code written against it (a
search, a test, an environment) runs on either.
"""

from __future__ import annotations

import random
from typing import Protocol, Self, runtime_checkable

from ..core.deal import SideResult
from ..core.events import ScoreEvent
from ..core.notation import Action
from ..core.observation import Observation
from ..core.rules import Rules


@runtime_checkable
class DealLike(Protocol):
    """A deal in progress: its state, its legal actions (as :class:`Action` values and as ids
    of the rules' action-id space) and applying them, copies and resampled worlds."""

    rules: Rules
    dealer: int

    @property
    def to_move(self) -> int | None:
        """Seat whose decision it is; None once the deal is over."""

    @property
    def phase(self) -> str:
        """'play', 'declare' or 'over'."""

    @property
    def is_over(self) -> bool:
        """True once the points are final."""

    @property
    def trump(self) -> str | None:
        """Trump suit letter, or None while not fixed."""

    @property
    def stock_size(self) -> int:
        """Face-down cards left to draw."""

    @property
    def points(self) -> list[int]:
        """Points per side so far."""

    @property
    def result(self) -> list[SideResult] | None:
        """Per side, the breakdown of the points; None until the deal is over."""

    @property
    def stage(self) -> int:
        """1 while the stock lasts, 2 for the last tricks."""

    @property
    def leader(self) -> int:
        """Seat that led (or is to lead) the current trick."""

    @property
    def turn_up(self) -> str | None:
        """The face-up trump card under the stock, if any."""

    @property
    def trick(self) -> list[tuple[int, str]]:
        """The trick in progress: (seat, card) in play order."""

    @property
    def tricks_played(self) -> int:
        """Completed tricks."""

    @property
    def last_trick_winner(self) -> int | None:
        """Seat that won the most recent trick."""

    @property
    def history(self) -> list[str]:
        """Every action applied so far, in notation."""

    @property
    def events(self) -> list[ScoreEvent]:
        """Scoring events so far."""

    def hand(self, seat: int) -> list[str]:
        """Every card the seat holds, concealed and declared, as sorted codes."""

    def table(self, seat: int) -> list[str]:
        """The seat's declared cards on the table, as sorted codes."""

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat."""

    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may know (None: the public view)."""

    def position(self) -> str:
        """The full one-line position string."""

    def legal_actions(self) -> list[Action]:
        """Every distinct legal action, in the reference core's order."""

    def legal_ids(self) -> list[int]:
        """The legal actions as ids, ascending."""

    def legal_id_actions(self) -> list[tuple[int, Action]]:
        """The legal actions with their ids, ascending by id."""

    def listed_ids(self) -> list[int]:
        """The ids of the legal actions in the order :meth:`legal_actions` lists them."""

    def id_action(self, action_id: int) -> Action:
        """The legal action with this id (``IllegalAction`` if none)."""

    def action_id(self, action: Action | str) -> int:
        """The id of a legal action or its notation (``IllegalAction`` if not legal)."""

    def apply(self, action: Action | str) -> None:
        """Apply a legal action (``IllegalAction``, the deal unchanged, if it is not one)."""

    def apply_id(self, action_id: int) -> None:
        """Apply the legal action with this id."""

    def clone(self) -> Self:
        """An independent copy."""

    def resample(self, seat: int, rng: random.Random | int | None = None) -> Self:
        """A deal ``seat`` cannot tell from this one: every card it has not seen dealt again."""


__all__ = ["DealLike"]
