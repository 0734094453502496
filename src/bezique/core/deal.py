"""One hand of bezique as a state machine: deal, stage 1 with declarations, stage 2, scoring.

:class:`Deal` is the public face; its behaviour comes in layers, one module each (see
:mod:`bezique.core.slots`).  This last layer gives the views of a deal: a seat's
:class:`~bezique.core.observation.Observation` and the full position string.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .cards import (
    CODES,
    parse_card,
    sort_key,
)
from .melds import (
    MELDS,
    profile_names,
)
from .observation import Observation, decode_fields, encode, observation_from_fields
from .slots import DECLARE, OVER, PLAY, DealBase
from .transitions import SideResult
from .worlds import Worlds


class Deal(Worlds):
    """One hand (deal) of bezique.  Build with :meth:`new` or :meth:`from_cards`."""

    __slots__ = ()

    __copy__ = Worlds.clone

    def __deepcopy__(self, memo: dict[int, Any]) -> Deal:
        return self.clone()

    def __getstate__(self) -> dict[str, Any]:
        return {"position": self.position()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        other = Deal.from_position(state["position"])
        for name in DealBase.__slots__:
            setattr(self, name, getattr(other, name))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self.position() == other.position()

    def __repr__(self) -> str:
        return f"<Deal {self.rules} trick {len(self._tricks) + 1} {self._phase} to {self._to_move}>"

    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may know (None: the public view a spectator gets)."""
        n = self.rules.players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"no seat {seat}: seats are 0 to {n - 1}")
        K, M, known = self._kinds, self._mask, self._known

        def codes(ids: Iterable[int]) -> tuple[str, ...]:
            return tuple(CODES[k] for k in sorted((K[c] for c in ids), key=sort_key))

        def ref(c: int) -> str:
            return CODES[K[c]] + "@" + "+".join(profile_names(M[c]))

        tables = []
        known_cards = []
        for h in self._hands:
            t = sorted((c for c in h if M[c]), key=lambda c: (sort_key(K[c]), M[c]))
            tables.append(tuple(CODES[K[c]] + "@" + "+".join(profile_names(M[c])) for c in t))
            known_cards.append(codes(c for c in h if not M[c] and known[c]))
        legal: tuple[str, ...] = ()
        legal_ids: tuple[int, ...] = ()
        if seat is not None and seat == self._to_move:
            actions = self.legal_actions()
            legal = tuple(str(a) for a in actions)
            legal_ids = tuple(self._by_id())  # in the same order
        return Observation(
            rules=self.rules,
            seat=seat,
            dealer=self.dealer,
            phase=self._phase,
            to_move=self._to_move,
            stage=self._stage,
            leader=self._leader,
            trump=self.trump,
            turn_up=self.turn_up,
            stock_size=len(self._stock),
            hand=() if seat is None else codes(c for c in self._hands[seat] if not M[c]),
            hand_sizes=tuple(len(h) for h in self._hands),
            tables=tuple(tables),
            known=tuple(known_cards),
            trick=tuple((s, CODES[K[c]]) for s, c in self._trick),
            tricks=tuple((ld, tuple(CODES[K[c]] for c in cs), w) for ld, cs, w in self._tricks),
            events=tuple(self._events),
            points=tuple(self.points),
            declared_this_trick=self._decl_count,
            exchanged_this_trick=self._exchanged,
            history=tuple(self._history),
            legal=legal,
            live_melds=tuple(
                sorted(
                    (s, MELDS[meld].name, tuple(sorted(ref(c) for c in ids)))
                    for s, meld, ids in self._instances
                )
            ),
            legal_ids=legal_ids,
            carry=self._carry if any(self._carry) else (),
            game_bezique=self._game_bezique,
        )

    def position(self) -> str:
        """The full one-line position string (every hand and the stock order included)."""
        obs = self.observation(None)
        K, M = self._kinds, self._mask
        hands = "/".join(
            ",".join(
                CODES[k]
                for k in sorted((K[c] for c in h if not M[c] and not self._known[c]), key=sort_key)
            )
            for h in self._hands
        )
        deck = ",".join(CODES[K[c]] for c in reversed(self._stock))
        return encode(obs, {"hands": hands, "deck": deck})

    @classmethod
    def from_position(cls, text: str) -> Deal:
        """Read a full position string written by :meth:`position`."""
        fields_, hidden = decode_fields(text)
        if set(hidden) != {"hands", "deck"}:
            raise ValueError(
                "this position string is one seat's view (no hands/deck): it cannot be "
                "turned back into a whole deal; use Deal.from_observation for a guess"
            )
        obs = observation_from_fields(fields_)
        try:
            hands = [
                [parse_card(c) for c in part.split(",") if c] for part in hidden["hands"].split("/")
            ]
            deck = [parse_card(c) for c in hidden["deck"].split(",") if c]
        except ValueError as e:
            raise ValueError(f"bad position string: {e}") from None
        if len(hands) != obs.rules.players:
            raise ValueError("bad position string: wrong number of hands")
        d = cls._rebuild(obs, random.Random(0), (hands, deck))
        if d.position() != text.strip():
            raise ValueError("bad position string: it is not self-consistent")
        return d


__all__ = ["DECLARE", "OVER", "PLAY", "Deal", "SideResult"]
