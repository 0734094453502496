"""A deal's legal actions as integer ids, and applying an id (the layout: :mod:`bezique.core.ids`)."""

from __future__ import annotations

import operator

from .base import OVER, PLAY
from .ids import action_ids
from .notation import Action, IllegalAction
from .state import DealState


class DealIds(DealState):
    """Integer action ids of a deal's legal actions (:mod:`bezique.core.ids`)."""

    __slots__ = ()

    def legal_ids(self) -> list[int]:
        """The ids of the legal actions, ascending (see :mod:`bezique.core.ids`)."""
        return list(self._ids())

    def legal_id_actions(self) -> list[tuple[int, Action]]:
        """The legal actions with their ids, ascending by id."""
        return list(self._ids().items())

    def apply_id(self, action_id: int) -> None:
        """Apply the legal action with this id; :class:`IllegalAction` (the deal unchanged)
        if it is not one."""
        if type(action_id) is int:  # the common case; a bool is refused below
            action = self._ids().get(action_id)
            if action is not None:
                self.apply(action)
                return
        if self._phase == OVER:
            raise IllegalAction("the deal is over: no more actions")
        self.apply(self.id_action(action_id))

    def _ids(self) -> dict[int, Action]:
        """The legal actions by id, ascending: worked out once per position (a copy made by
        :meth:`clone` shares them while its legal actions are the same table)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        table = self._id_table
        if table is not None and table[0] is legal:
            return table[1]
        by_id = (
            self._play_ids(legal)  # type: ignore[arg-type]
            if self._phase == PLAY
            else dict(self._id_pairs())
        )
        self._id_table = (legal, by_id)
        return by_id

    def _play_ids(self, legal: dict[Action, int]) -> dict[int, Action]:
        """:meth:`_ids` of a play: the legal plays come in the order of their ids already
        (card kind, then history: concealed first, then declared copies by meld bit mask)."""
        K, M = self._kinds, self._mask
        offset = action_ids(self.rules).play_offset
        for c in legal.values():
            if M[c]:
                break
        else:  # concealed cards only (most positions): one id per card kind
            return {offset[K[c]]: a for a, c in legal.items()}
        histories: dict[int, set[int]] = {}
        for c in self._hands[self._to_move]:  # type: ignore[index]
            if M[c]:
                histories.setdefault(K[c], set()).add(M[c])
        order = {k: sorted(masks) for k, masks in histories.items()}
        return {
            offset[K[c]] + (1 + order[K[c]].index(M[c]) if M[c] else 0): a for a, c in legal.items()
        }

    def id_action(self, action_id: int) -> Action:
        """The legal action with this id here; :class:`IllegalAction` if there is none."""
        if not isinstance(action_id, int) or isinstance(action_id, bool):
            try:  # numpy integers and the like
                if isinstance(action_id, bool):
                    raise TypeError
                action_id = operator.index(action_id)
            except TypeError:
                raise IllegalAction(f"an action id is an int: got {action_id!r}") from None
        action = self._ids().get(action_id)
        if action is not None:
            return action
        ids = action_ids(self.rules)
        if not 0 <= action_id < ids.num_actions:
            raise IllegalAction(
                f"no action id {action_id}: ids run from 0 to {ids.num_actions - 1}"
            )
        if self._phase == OVER:
            raise IllegalAction("the deal is over: no more actions")
        legal_ids = ", ".join(str(i) for i in self._ids())
        raise IllegalAction(
            f"action id {action_id} ({ids.describe(action_id)}) is not legal now; "
            f"legal ids: {legal_ids}"
        )

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
        if action not in legal:
            action = Action.parse(str(action))
            if action not in legal:
                action = self._resolve(action, legal)[0]
        for i, a in self._ids().items():
            if a == action:
                return i
        raise AssertionError(f"{action} is legal but has no id")  # pragma: no cover

    def _id_pairs(self) -> list[tuple[int, Action]]:
        """``(id, action)`` for every legal action, sorted by id."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if not legal:
            return []
        ids = action_ids(self.rules)
        K, M = self._kinds, self._mask
        offset = ids.play_offset
        simple: list[tuple[int, Action]] = []
        melds: dict[int, list[Action]] = {}
        histories: dict[int, list[int]] | None = None
        for action, move in legal.items():
            if isinstance(move, int):
                k = K[move]
                m = M[move]
                if not m:
                    simple.append((offset[k], action))
                    continue
                if histories is None:
                    histories = {}
                    for c in self._hands[self._to_move]:  # type: ignore[index]
                        if M[c]:
                            histories.setdefault(K[c], []).append(M[c])
                    for masks in histories.values():
                        masks[:] = sorted(set(masks))
                simple.append((offset[k] + 1 + histories[k].index(m), action))
                continue
            verb = move[0]
            if verb == "meld":
                need: dict[int, int] = {}
                declared: dict[int, int] = {}
                for c in move[2]:
                    k = K[c]
                    need[k] = need.get(k, 0) + 1
                    if M[c]:
                        declared[k] = declared.get(k, 0) + 1
                key = (move[1], tuple((k, need[k], declared.get(k, 0)) for k in sorted(need)))
                mid = ids.meld_key.get(key)
                if mid is None:
                    raise KeyError(f"'{action}' has no id in the action table of {self.rules}")
                melds.setdefault(mid, []).append(action)
            else:
                simple.append((ids.simple_id(verb), action))
        return ids.assign(simple, melds)
