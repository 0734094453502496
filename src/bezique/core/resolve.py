"""From text to one legal move: actions written loosely, ambiguous ones, and why an action is illegal."""

from __future__ import annotations

from .cards import (
    CODES,
    SEVEN,
)
from .cards import (
    kind as make_kind,
)
from .movegen import MoveGen
from .notation import Action, IllegalAction, split_ref
from .slots import DECLARE, PLAY, Move


class Resolver(MoveGen):
    """Reading an action written loosely, and saying why an action is not legal."""

    __slots__ = ()

    def _resolve(self, action: Action, legal: dict[Action, Move]) -> tuple[Action, Move]:
        """Match an action written loosely (cards in another order, ``@table`` where a history
        was expected, ...) to exactly one legal action, or explain why it is not legal."""
        seat = self._to_move
        want = action.verb
        if self._phase == PLAY and want != "play":
            raise IllegalAction(f"seat {seat} must play a card now, not {action.verb}")
        if self._phase == DECLARE and want == "play":
            raise IllegalAction(
                f"seat {seat} won the trick and must declare or pass before anyone plays"
            )
        scored = [
            (loose, a, m)
            for a, m in legal.items()
            if a.verb == want
            and a.meld == action.meld
            and (loose := _refs_match(action.cards, a.cards)) is not None
        ]
        best = min((loose for loose, _, _ in scored), default=0)
        matches = [(a, m) for loose, a, m in scored if loose == best]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise IllegalAction(
                f"'{action}' is ambiguous: say which, one of: "
                + "; ".join(str(a) for a, _ in matches)
            )
        raise IllegalAction(self._why_illegal(action, legal))

    def _why_illegal(self, action: Action, legal: dict[Action, Move]) -> str:
        seat = self._to_move
        assert seat is not None
        held = [CODES[self._kinds[c]] for c in self._hands[seat]]
        for ref in action.cards:
            card, _ = split_ref(ref)
            if card not in held:
                return f"seat {seat} does not hold {card}"
        options = "; ".join(str(a) for a in legal)
        if action.verb == "play":
            card = split_ref(action.cards[0])[0]
            if self._stage == 2 or self.rules.stage1_must_follow_suit:
                return (
                    f"{card} may not be played now: the follower must "
                    + (
                        "follow suit, head the trick, or trump"
                        if self._stage == 2
                        else "follow suit"
                    )
                    + f"; legal: {options}"
                )
            return f"'{action}' is not legal now; legal: {options}"
        if action.verb == "exchange":
            if self._exchanged or (
                self._turn_up is not None
                and self._trump is not None
                and self._kinds[self._turn_up] == make_kind(self._trump, SEVEN)
            ):
                return "the seven of trumps has already been exchanged (only one exchange a hand)"
            return (
                f"'{action}' is not legal now: only a concealed seven of trumps may be exchanged, "
                f"once a trick is won, before drawing; legal: {options}"
            )
        if action.verb == "meld":
            if not self._won_enough(seat):
                need = self.rules.min_tricks_before_declaring
                return (
                    f"seat {seat} may not declare before winning {need} tricks "
                    f"(min_tricks_before_declaring); legal: {options}"
                )
            if self._decl_count >= self.rules.melds_scored_per_trick:
                return "no more declarations may score on this trick: pass"
            if self._exchanged and self.rules.seven_exchange_counts_as_meld:
                return "the exchange of the seven was this trick's declaration: pass"
            return (
                f"'{action}' does not score: a meld needs the right cards, at least one card "
                f"from the concealed hand, and cards that have not scored in that meld or a "
                f"higher one of its class; legal: {options}"
            )
        return f"'{action}' is not legal now; legal: {options}"


def _refs_match(given: tuple[str, ...], legal: tuple[str, ...]) -> int | None:
    """Can the references typed be read as the legal ones (in any order)?  ``QS@table`` takes
    any declared copy; a bare ``QS`` a concealed copy first, then a declared one.  None if
    not; else how many bare codes had to be read as declared copies."""
    if len(given) != len(legal):
        return None
    left = [split_ref(r) for r in legal]
    specific = [split_ref(g) for g in given if "@" in g]
    bare = [g for g in given if "@" not in g]
    for card, where in specific:
        i = next(
            (
                i
                for i, (lc, lw) in enumerate(left)
                if lc == card and (lw == where or (where == "table" and lw))
            ),
            None,
        )
        if i is None:
            return None
        del left[i]
    loose = 0
    for card in bare:
        i = next((i for i, (lc, lw) in enumerate(left) if lc == card and not lw), None)
        if i is None:
            loose += 1
            i = next((i for i, (lc, _) in enumerate(left) if lc == card), None)
        if i is None:
            return None
        del left[i]
    return loose
