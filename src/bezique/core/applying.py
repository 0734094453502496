"""Applying an action, by :class:`Action` (or its notation) or by integer id, and turning one
into the other (the id layout: :mod:`bezique.core.ids`).

Move generation (:mod:`bezique.core.movegen`) keys a position's legal moves by id, so both ways
of applying look the move up in the same table: by id directly, by action through the rules'
table of position-independent notations (a concealed card's play, pass, partner), or, for the
rest, through the position's own.
"""

from __future__ import annotations

import operator

from .ids import action_ids
from .notation import Action, IllegalAction
from .slots import OVER, PLAY, Move
from .transitions import _PLAY_TEXTS, DealState

_NO_KEY = -(1 << 40)
"""A key no legal move has (melds' provisional keys are small negative numbers)."""


class DealIds(DealState):
    """Applying actions and integer action ids (:mod:`bezique.core.ids`)."""

    __slots__ = ()

    def apply(self, action: Action | str) -> None:
        """Apply an action (or its notation) for the seat to move.

        Raises :class:`IllegalAction` saying why, and leaves the deal unchanged, if it is not legal.
        """
        if self._phase == OVER:
            raise IllegalAction("the deal is over: no more actions")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if type(action) is not Action:
            if isinstance(action, str):
                action = Action.parse(action)
            elif not isinstance(action, Action):
                raise IllegalAction(f"not an action: {action!r}")
        # the rules-wide id of the notation is right wherever that id is legal
        i = self._idt.static_ids.get(action, _NO_KEY)
        move = legal.get(i)
        if move is None:
            i, move = self._find(action, legal)
        elif type(move) is int and not self._mask[move]:  # a concealed card (most actions)
            self._legal = None
            self._history.append(_PLAY_TEXTS[self._kinds[move]])
            self._play(move)
            return
        self._step(i, move)

    def apply_id(self, action_id: int) -> None:
        """Apply the legal action with this id; :class:`IllegalAction` (the deal unchanged)
        if it is not one."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if type(action_id) is int:  # the common case; a bool is refused below
            move = legal.get(action_id)
            if move is not None:
                if type(move) is int and not self._mask[move]:  # as in apply
                    self._legal = None
                    self._history.append(_PLAY_TEXTS[self._kinds[move]])
                    self._play(move)
                    return
                self._step(action_id, move)
                return
        if self._phase == OVER:
            raise IllegalAction("the deal is over: no more actions")
        i = self._checked_id(action_id)
        self._step(i, self._by_id()[i])

    def legal_ids(self) -> list[int]:
        """The ids of the legal actions, ascending (see :mod:`bezique.core.ids`)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if self._phase == PLAY:  # a play's legal moves come in the order of their ids
            return list(legal)
        return sorted(self._by_id())

    def listed_ids(self) -> list[int]:
        """The ids of the legal actions in the order :meth:`legal_actions` lists them (the
        order of an observation's ``legal_ids``): for a search player that keeps its own
        choices in that order and applies them by id."""
        return list(self._by_id())

    def legal_id_actions(self) -> list[tuple[int, Action]]:
        """The legal actions with their ids, ascending by id."""
        ids = self.legal_ids()
        names = self._names  # read after the legal moves are worked out: set with them
        return [(i, names[i]) for i in ids]

    def id_action(self, action_id: int) -> Action:
        """The legal action with this id here; :class:`IllegalAction` if there is none."""
        i = self._checked_id(action_id)
        return self._names[i]

    def action_id(self, action: Action | str) -> int:
        """The id of a legal action (or its notation) here; :class:`IllegalAction` if it is
        not legal."""
        if self._phase == OVER:
            raise IllegalAction("the deal is over: no more actions")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if isinstance(action, str):
            action = Action.parse(action)
        elif not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        i = self._find(action, legal)[0]
        if i < 0:  # a meld's provisional key
            names = self._names
            action = names[i]
            for j in self._by_id():
                if self._names[j] == action:
                    return j
        return i

    def _find(self, action: Action, legal: dict[int, Move]) -> tuple[int, Move]:
        """The id and move of a legal action given other than by its rules-wide notation: a
        declared copy's play, a declaration, an action written loosely (resolved, or
        :class:`IllegalAction` saying why it is not legal)."""
        names = self._names
        for key in legal:  # an action as listed (the usual case): no table to build
            if names[key] == action:
                return key, legal[key]
        by_action: dict[Action, int] = {names[i]: i for i in legal}
        i = by_action.get(action)
        if i is None:
            action = Action.parse(str(action))  # refuses a malformed Action built by hand
            i = by_action.get(action)
            if i is None:
                action = self._resolve(action, {a: legal[j] for a, j in by_action.items()})[0]
                i = by_action[action]
        return i, legal[i]

    def _checked_id(self, action_id: object) -> int:
        """``action_id`` as an int that is legal here; :class:`IllegalAction` saying why
        not otherwise."""
        if not isinstance(action_id, int) or isinstance(action_id, bool):
            try:  # numpy integers and the like
                if isinstance(action_id, bool):
                    raise TypeError
                action_id = operator.index(action_id)  # type: ignore[arg-type]
            except TypeError:
                raise IllegalAction(f"an action id is an int: got {action_id!r}") from None
        assert isinstance(action_id, int)
        if action_id in self._by_id():
            return action_id
        ids = action_ids(self.rules)
        if not 0 <= action_id < ids.num_actions:
            raise IllegalAction(
                f"no action id {action_id}: ids run from 0 to {ids.num_actions - 1}"
            )
        if self._phase == OVER:
            raise IllegalAction("the deal is over: no more actions")
        legal_ids = ", ".join(str(i) for i in self.legal_ids())
        raise IllegalAction(
            f"action id {action_id} ({ids.describe(action_id)}) is not legal now; "
            f"legal ids: {legal_ids}"
        )
