"""A deal's state machine: dealing, the stage-1 and stage-2 tricks, declarations, draws, scoring."""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Self

from .brisques import majority_adjustments
from .cards import (
    CODES,
    COURT_RANKS,
    SEVEN,
    SUITS,
    WILD,
    code,
    sort_key,
    suit_of,
)
from .cards import (
    kind as make_kind,
)
from .dealing import active_order, check_carry, kinds_of, shuffled, stacked
from .events import EventKind, ScoreEvent
from .idtables import deal_tables
from .melds import (
    GHOST,
    MELDS,
    ROYAL_MARRIAGE,
    TRIPLE_BEZIQUE,
    TRUMP_FIXING,
)
from .resolve import Resolver
from .rules import Rules
from .scoring import meld_points, trick_sevens, turn_up_bonus
from .slots import DECLARE, OVER, PART_BONUS, PART_LAST, PART_MELDS, PART_TRICKS, PLAY, Move

_PLAY_TEXTS = tuple("play " + c for c in CODES)
"""The notation of playing a concealed card, by card kind."""
_BLANCHE = {k.value: k for k in (EventKind.CARTE_BLANCHE, EventKind.CARTE_BLANCHE_ENDS)}
_TARGET_REACHED = EventKind.TARGET_REACHED.value


@dataclass(frozen=True)
class SideResult:
    """How a side's points in a deal were made."""

    melds: int
    """Declarations, the seven of trumps included."""
    tricks: int
    """Brisques, card points or per-trick points."""
    last_trick: int
    bonuses: int
    """Turn-up bonuses (may be negative)."""
    brisques: int = 0
    """Brisques that count only to settle a per-deal game (Rubicon), not in the total."""

    @property
    def total(self) -> int:
        """The side's points for the deal (what :attr:`Deal.points` says at the end)."""
        return self.melds + self.tricks + self.last_trick + self.bonuses


def _check_flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"game_bezique must be True or False: got {value!r}")
    return value


class DealState(Resolver):
    """A deal's construction and transitions: dealing, playing, declaring, drawing, scoring."""

    __slots__ = ()

    @classmethod
    def new(
        cls,
        rules: Rules,
        seed: int | None = None,
        dealer: int = 0,
        carry: Sequence[int] | None = None,
        game_bezique: bool = False,
    ) -> Self:
        """A deal shuffled from ``seed`` (a fresh random one when None).  ``carry`` is each
        side's game score coming into the deal, where a rule needs it (the target checked at
        once, brisque-majority scoring); 0 by default.  ``game_bezique``: a bezique was
        declared in an earlier deal of the same game, so ``first_bezique`` is spent."""
        d = cls._start(rules, dealer, kinds_of(rules), *shuffled(rules, seed, dealer), carry)
        d._game_bezique = _check_flag(game_bezique)
        d.seed = seed
        return d

    @classmethod
    def from_cards(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[str]],
        turn_up: str | None = None,
        stock: Iterable[str] = (),
        dealer: int = 0,
        carry: Sequence[int] | None = None,
        game_bezique: bool = False,
    ) -> Self:
        """A stacked deal: each seat's cards, the turn-up and the stock (``stock[0]`` is drawn
        first).  The cards must make up the whole pack exactly.  ``carry`` and
        ``game_bezique`` as for :meth:`new`."""
        d = cls._start(
            rules, dealer, kinds_of(rules), *stacked(rules, hands, turn_up, stock, dealer), carry
        )
        d._game_bezique = _check_flag(game_bezique)
        return d

    @classmethod
    def _blank(cls, rules: Rules, dealer: int, kinds: tuple[int, ...]) -> Self:
        d = cls.__new__(cls)
        d.rules = rules
        d.dealer = dealer
        d._kinds = kinds
        d._mask = [0] * len(kinds)
        d._known = [False] * len(kinds)
        d._trick = []
        d._tricks = []
        d._events = []
        d._history = []
        d._instances = []
        d._pts = [[0, 0, 0, 0] for _ in range(rules.sides)]  # by PART_MELDS, ..., PART_BONUS
        d._decl_count = 0
        d._exchanged = False
        d._legal = None
        d._idt = deal_tables(rules)
        d._names = d._idt.names
        d._shuffle_plan = None
        d._stage = 1
        d._carry = (0,) * rules.sides
        d._game_bezique = False
        d.seed = None
        d.initial = None
        return d

    @classmethod
    def _start(
        cls,
        rules: Rules,
        dealer: int,
        kinds: tuple[int, ...],
        hands: list[list[int]],
        turn_up: int | None,
        stock: list[int],
        carry: Sequence[int] | None = None,
    ) -> Self:
        d = cls._blank(rules, dealer, kinds)
        if carry is not None:
            d._carry = check_carry(rules, carry)
        n = rules.players
        d._hands = [sorted(h) for h in hands]
        code_of = CODES.__getitem__  # map over builtins: no Python frame a card
        d.initial = (
            tuple(tuple(map(code_of, map(kinds.__getitem__, h))) for h in hands),
            None if turn_up is None else CODES[kinds[turn_up]],
            tuple(map(code_of, map(kinds.__getitem__, stock))),
        )
        d._stock = stock[::-1]  # drawn from the end
        d._turn_up = turn_up
        d._trump = suit_of(kinds[turn_up]) if turn_up is not None else None
        d._leader = (dealer + 1) % n if rules.first_lead_seat == "left" else (dealer - 1) % n
        d._to_move = d._leader
        d._phase = PLAY
        if turn_up is not None:
            d._turn_up_bonus(kinds[turn_up])
        if rules.carte_blanche:
            d._carte_blanche(active_order(rules, dealer, d._leader), None)
        return d

    def _turn_up_bonus(self, k: int) -> None:
        what = f"turn-up {code(k)}"
        for seat, points in turn_up_bonus(self.rules, k, self.dealer):
            self._score(seat, PART_BONUS, points, what)

    @property
    def to_move(self) -> int | None:
        """Seat whose decision it is; None once the deal is over."""
        return self._to_move

    @property
    def phase(self) -> str:
        """'play', 'declare' or 'over'."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """True once every trick has been played and the points are final."""
        return self._phase == OVER

    @property
    def stage(self) -> int:
        """1 while the stock lasts, 2 for the last tricks."""
        return self._stage

    @property
    def trump(self) -> str | None:
        """Trump suit letter, or None while not fixed."""
        return None if self._trump is None else SUITS[self._trump]

    @property
    def turn_up(self) -> str | None:
        """The face-up trump card under the stock (None once taken, or in games without one)."""
        return None if self._turn_up is None else CODES[self._kinds[self._turn_up]]

    @property
    def carry(self) -> tuple[int, ...]:
        """Each side's game score coming into this deal (0 unless a match passed it in)."""
        return self._carry

    @property
    def game_bezique(self) -> bool:
        """A bezique was declared in an earlier deal of this game (a match passes it in):
        ``first_bezique`` then pays only for the first of the game, not of each deal."""
        return self._game_bezique

    @property
    def ended_early(self) -> bool:
        """True when a side reached the target during the deal and so ended it at once."""
        # the kind's words are the whole text of its events: compared as they are (every
        # deal's end asks), not by working out every event's kind
        return any(e.what == _TARGET_REACHED for e in self._events)

    @property
    def stock_size(self) -> int:
        """Face-down cards left to draw (the turn-up not counted)."""
        return len(self._stock)

    @property
    def leader(self) -> int:
        """Seat that led (or is to lead) the current trick."""
        return self._leader

    @property
    def trick(self) -> list[tuple[int, str]]:
        """The trick in progress: (seat, card) in play order."""
        return [(s, CODES[self._kinds[c]]) for s, c in self._trick]

    @property
    def tricks_played(self) -> int:
        """Completed tricks."""
        return len(self._tricks)

    @property
    def history(self) -> list[str]:
        """Every action applied so far, in notation."""
        return list(self._history)

    @property
    def points(self) -> list[int]:
        """Points per side so far; brisques counted at the end of the hand are added then."""
        if self.rules.brisques_only_to_settle:  # the match uses them to settle the game
            return [p[PART_MELDS] + p[PART_LAST] + p[PART_BONUS] for p in self._pts]
        count_tricks = self._phase == OVER or self._tricks_immediate()
        return [
            p[PART_MELDS] + p[PART_LAST] + p[PART_BONUS] + (p[PART_TRICKS] if count_tricks else 0)
            for p in self._pts
        ]

    @property
    def result(self) -> list[SideResult] | None:
        """Per side, the breakdown of the points; None until the deal is over."""
        if self._phase != OVER:
            return None
        apart = self.rules.brisques_only_to_settle  # the brisques only settle the game
        return [
            SideResult(
                melds=p[PART_MELDS],
                tricks=0 if apart else p[PART_TRICKS],
                last_trick=p[PART_LAST],
                bonuses=p[PART_BONUS],
                brisques=p[PART_TRICKS] if apart else 0,
            )
            for p in self._pts
        ]

    @property
    def last_trick_winner(self) -> int | None:
        """Seat that won the most recent trick (the last one once the deal is over)."""
        return self._tricks[-1][2] if self._tricks else None

    @property
    def trick_winners(self) -> list[int]:
        """Winner of each completed trick, in order."""
        return [w for _, _, w in self._tricks]

    @property
    def events(self) -> list[ScoreEvent]:
        """Scoring events (:class:`~bezique.core.events.ScoreEvent`): (tricks completed before
        it, seat, what, points)."""
        return list(self._events)

    def hand(self, seat: int) -> list[str]:
        """Every card the seat holds, concealed and declared, as sorted codes."""
        return [CODES[k] for k in sorted((self._kinds[c] for c in self._hands[seat]), key=sort_key)]

    def table(self, seat: int) -> list[str]:
        """The seat's declared cards on the table, as sorted codes."""
        ks = [self._kinds[c] for c in self._hands[seat] if self._mask[c]]
        return [CODES[k] for k in sorted(ks, key=sort_key)]

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat."""
        return self.rules.side_of(seat)

    def _tricks_immediate(self) -> bool:
        return (
            self.rules.brisque_timing == "immediate"
            or self.rules.trick_scoring == "greek-per-trick"
        )

    def clone(self) -> Self:
        """An independent copy (cheap: the search players call it constantly)."""
        return self._copy(list(map(list.copy, self._hands)), self._stock[:])

    def _copy(self, hands: list[list[int]], stock: list[int]) -> Self:
        """A copy with these hands and stock (new lists, the copy's own), all else copied:
        :meth:`clone` with the deal's own hands and stock, and the resample with new ones
        (tests/test_worlds.py checks that every slot is set)."""
        d = self.__class__.__new__(self.__class__)
        d.rules = self.rules
        d.dealer = self.dealer
        d.seed = self.seed
        d.initial = self.initial
        d._kinds = self._kinds
        d._hands = hands
        d._mask = self._mask[:]
        d._known = self._known[:]
        d._stock = stock
        d._turn_up = self._turn_up
        d._trump = self._trump
        d._trick = self._trick[:]
        d._tricks = self._tricks[:]
        d._events = self._events[:]
        d._history = self._history[:]
        d._instances = self._instances[:]
        d._pts = list(map(list.copy, self._pts))
        d._leader = self._leader
        d._to_move = self._to_move
        d._phase = self._phase
        d._stage = self._stage
        d._decl_count = self._decl_count
        d._exchanged = self._exchanged
        d._legal = self._legal  # neither table is changed once made: shared
        d._names = self._names
        d._idt = self._idt
        d._shuffle_plan = None
        d._carry = self._carry
        d._game_bezique = self._game_bezique
        return d

    def _step(self, action_id: int, move: Move) -> None:
        """Make the legal move ``move`` whose id is ``action_id`` (``apply`` and ``apply_id``
        have found both in ``_legal``)."""
        names = self._names
        self._legal = None
        # the history is kept in notation, written here once; a concealed card's play (most
        # actions) reads its words from a table by card kind rather than joining them
        if isinstance(move, int):
            self._history.append(
                str(names[action_id]) if self._mask[move] else _PLAY_TEXTS[self._kinds[move]]
            )
            self._play(move)
            return
        self._history.append("pass" if not action_id else str(names[action_id]))
        verb = move[0]
        if verb == "meld":
            self._meld(move[1], move[2])
        elif verb == "exchange":
            self._exchange(move[1])
        elif verb == "partner":
            self._to_move = (self._leader + 2) % self.rules.players
            self._continue_declaring()
        else:
            self._draw()

    def _carte_blanche(self, order: Sequence[int], drawn: list[int] | None) -> None:
        """Score carte blanche where it is due (RULES.md 2.1, 2.5): after the deal (``drawn``
        None) or after a round of draws (``drawn[seat]`` the card each seat drew)."""
        rules, K = self.rules, self._kinds

        def blank(seat: int) -> bool:
            return not any(K[c] & 7 in COURT_RANKS for c in self._hands[seat])

        def show(seat: int) -> None:
            for c in self._hands[seat]:
                if not self._mask[c]:
                    self._known[c] = True
            self._score(seat, PART_MELDS, rules.carte_blanche, "carte blanche")

        # called after every draw: the events' words are compared with the two kinds' own
        # (whole-word kinds), which costs less than working out every event's kind
        events = [(e.seat, _BLANCHE[e.what]) for e in self._events if e.what in _BLANCHE]
        if not rules.carte_blanche_repeat:
            if not events:
                for seat in order:
                    if blank(seat):
                        show(seat)
                        break
            return
        for seat in order:
            if drawn is None:
                if blank(seat):
                    show(seat)
                continue
            mine = [kind for s, kind in events if s == seat]
            if mine and mine[-1] is EventKind.CARTE_BLANCHE:
                c = drawn[seat]
                if K[c] & 7 in COURT_RANKS:
                    ends = EventKind.CARTE_BLANCHE_ENDS
                    self._events.append(ScoreEvent.of(len(self._tricks), seat, ends, 0))
                else:
                    self._known[c] = True
                    self._score(seat, PART_MELDS, rules.carte_blanche, "carte blanche")

    def _forget_like_copy(self, seat: int, cid: int, leaving: tuple[int, ...]) -> None:
        """A concealed card ``cid`` leaves ``seat``'s hidden cards (played, shown in a meld,
        exchanged).  If it was not known but a like copy in the hand was, the other seats
        cannot tell which copy went, so that copy stops being known: otherwise their view
        would show that the seat holds a second one.  ``leaving``: the other cards going
        with it (a meld's), which keep their own marks."""
        known = self._known
        if known[cid]:
            return
        M, hand = self._mask, self._hands[seat]
        # the like copies in ascending id order, the order they come in the (sorted) hand
        for c in self._idt.like[cid]:
            if known[c] and not M[c] and c not in leaving and c in hand:
                known[c] = False
                return

    def _score(self, seat: int, part: int, points: int, what: str) -> None:
        self._pts[self._idt.side[seat]][part] += points
        self._events.append(ScoreEvent(len(self._tricks), seat, what, points))

    def _play(self, cid: int) -> None:
        seat = self._to_move
        assert seat is not None
        rules = self.rules
        t = self._idt  # the options' answers, worked out once per rule set
        self._hands[seat].remove(cid)
        K, M, known = self._kinds, self._mask, self._known
        if not M[cid]:
            if not known[cid]:
                for c in t.like[cid]:
                    if known[c]:  # only then may a like copy stop being known
                        self._forget_like_copy(seat, cid, ())
                        break
            if (
                t.seven_play
                and K[cid] & 7 == SEVEN
                and self._stage == 1
                and self._trump is not None
                and K[cid] == make_kind(self._trump, SEVEN)
            ):
                seven = CODES[K[cid]]
                self._score(seat, PART_MELDS, rules.seven_of_trumps, f"seven played {seven}")
        else:
            if rules.meld_reforming:
                self._break_melds(cid)
            elif self._instances:  # a marriage a sequence must join is broken
                self._instances = [inst for inst in self._instances if cid not in inst[2]]
            M[cid] = 0
        known[cid] = False
        trick = self._trick
        trick.append((seat, cid))
        if len(trick) < t.trick_size:
            self._to_move = t.next_seat[self.dealer][seat]
            return
        # resolve the trick (tricks.beats, as a table): the highest trump, else the highest
        # card of the suit led; of two equal cards the first played wins
        win_seat, win_card = trick[0]
        best = K[win_card]
        trump = self._trump
        beaten = t.beats[trump]
        for i in range(1, len(trick)):
            s, c = trick[i]
            if beaten[K[c] << 6 | best]:
                best, win_seat, win_card = K[c], s, c
        self._tricks.append((self._leader, tuple([c for _, c in trick]), win_seat))
        self._trick = []
        if (
            t.seven_win
            and best & 7 == SEVEN
            and self._stage == 1
            and trump is not None
            and best == make_kind(trump, SEVEN)
        ):
            self._score(win_seat, PART_MELDS, rules.seven_of_trumps, f"seven won {CODES[best]}")
        if t.seven_any and trump is not None:
            self._score_sevens(trick, win_seat)
        per_kind = t.kind_value  # a wild card is worth nothing
        value = t.trick_bonus
        for _, c in trick:
            value += per_kind[K[c]]
        if value:
            self._pts[t.side[win_seat]][PART_TRICKS] += value
        led_by = self._leader
        self._leader = win_seat
        self._to_move = win_seat
        if t.target_now and self._target_reached():
            return
        if self._stage == 1:
            self._decl_count = 0
            self._exchanged = False
            if (win_seat != led_by or not rules.declare_only_after_beating) and (
                not rules.min_tricks_before_declaring
                or rules.exchange_before_min_tricks
                or self._won_enough(win_seat)
            ):
                legal = self._declare_actions(win_seat)
                if legal:
                    self._phase = DECLARE
                    self._legal = legal
                    return
            self._draw()
        elif not self._hands[win_seat]:
            if rules.last_trick_bonus:
                self._score(win_seat, PART_LAST, rules.last_trick_bonus, "last trick")
            self._finish()

    def _score_sevens(self, trick: list[tuple[int, int]], win_seat: int) -> None:
        """``second_seven_scores`` play-always / capture (HAITIAN.md section 4): each seven of
        trumps in a trick scores for the player who played it, or for the trick's taker."""
        assert self._trump is not None
        seven = CODES[make_kind(self._trump, SEVEN)]
        kinds = [(s, self._kinds[c]) for s, c in trick]
        for seat, points, captured in trick_sevens(self.rules, self._trump, kinds, win_seat):
            self._score(
                seat, PART_MELDS, points, f"seven {'captured' if captured else 'played'} {seven}"
            )

    def _target_reached(self) -> bool:
        """With ``target_check=immediate``: a side whose game score reaches the target ends
        the deal at once, with no last trick and no brisques (HAITIAN.md section 6)."""
        rules = self.rules
        if rules.target_check != "immediate" or self._phase == OVER:
            return False
        points = self.points
        reached = [s for s in range(rules.sides) if self._carry[s] + points[s] >= rules.target]
        if not reached:
            return False
        seat = self._events[-1][1] if self._events else self._leader
        self._events.append(ScoreEvent.of(len(self._tricks), seat, EventKind.TARGET_REACHED, 0))
        self._finish()
        return True

    def _finish(self) -> None:
        """End the deal; settle what counts only at the end (brisque majority)."""
        self._phase = OVER
        self._to_move = None
        self._legal = None
        self._settle_tricks()

    def _settle_tricks(self) -> None:
        """The trick points of a finished deal: none when it ended early (the target reached);
        under brisque-majority, the majority adjustment in place of the brisques' count."""
        rules, pts = self.rules, self._pts
        if self.ended_early and not self._tricks_immediate():
            for p in pts:
                p[PART_TRICKS] = 0
        elif rules.trick_scoring == "brisque-majority":
            scores = [
                c + p[PART_MELDS] + p[PART_LAST] + p[PART_BONUS]
                for c, p in zip(self._carry, pts, strict=True)
            ]
            adjust = majority_adjustments(rules, [p[PART_TRICKS] for p in pts], scores)
            for p, a in zip(pts, adjust, strict=True):
                p[PART_TRICKS] = a

    def _break_melds(self, cid: int) -> None:
        """Re-forming (Rubicon): a meld one of whose cards is played no longer holds its other
        cards, which may score in that meld again with a like card added."""
        broken = [inst for inst in self._instances if cid in inst[2]]
        self._instances = [inst for inst in self._instances if cid not in inst[2]]
        M = self._mask
        for _, meld, ids in broken:
            for c in ids:
                if c != cid:
                    live = any(c in others and m == meld for _, m, others in self._instances)
                    if not live:  # the meld's bit becomes its broken ("ghost") bit
                        M[c] = (M[c] & ~(1 << meld)) | (1 << (GHOST + meld))

    def _meld(self, meld: int, ids: tuple[int, ...]) -> None:
        seat = self._to_move
        assert seat is not None
        rules = self.rules
        bit = 1 << meld
        M = self._mask
        fixes_trump = self._trump is None and meld in TRUMP_FIXING
        repeats = beziques = 0
        if rules.repeat_doubles or rules.first_bezique:  # only then do earlier melds count
            name = MELDS[meld].name
            for e in self._events:
                if e.kind is EventKind.MELD:
                    repeats += e.seat == seat and e.meld == name
                    beziques += e.meld == "bezique"
            # first_bezique: one of the game's beziques came in an earlier deal (HAITIAN.md H07)
            beziques += self._game_bezique
        points = meld_points(
            rules,
            meld,
            [M[c] for c in ids],  # the cards' melds before this one (trump_set_scoring)
            fixes_trump=fixes_trump,
            repeats=repeats,
            beziques_before=beziques,
        )
        for c in ids:
            if not M[c]:
                self._forget_like_copy(seat, c, ids)
            M[c] |= bit
        if fixes_trump:
            # the suit of the marriage's real cards: a wild card standing in for the king
            # (wild_card_melds any or all-but-sequence) has none
            self._trump = next(self._kinds[c] for c in ids if self._kinds[c] != WILD) >> 3
        if rules.meld_reforming or (meld == ROYAL_MARRIAGE and rules.sequence_needs_marriage):
            self._instances.append((seat, meld, ids))
        cards = " ".join(CODES[self._kinds[c]] for c in ids)
        self._score(seat, PART_MELDS, points, f"meld {MELDS[meld].name} {cards}")
        self._decl_count += 1
        if meld == TRIPLE_BEZIQUE and rules.triple_bezique_wins_game:
            self._events.append(ScoreEvent.of(len(self._tricks), seat, EventKind.WINS_GAME, 0))
        if not self._target_reached():
            self._continue_declaring()

    @property
    def bezique_in_game(self) -> bool:
        """A bezique has been declared in this game so far: in an earlier deal, or in this one
        by anyone (``first_bezique`` pays only the first of a game, HAITIAN.md H07)."""
        return self._game_bezique or any(
            e.kind is EventKind.MELD and e.meld == "bezique" for e in self._events
        )

    def _exchange(self, cid: int) -> None:
        seat = self._to_move
        assert seat is not None and self._turn_up is not None
        rules = self.rules
        hand = self._hands[seat]
        hand.remove(cid)
        self._forget_like_copy(seat, cid, ())
        up = self._turn_up
        insort(hand, up)
        self._known[up] = True
        self._turn_up = cid
        self._exchanged = True
        if rules.seven_exchange_counts_as_meld:
            self._decl_count += 1
        points = rules.seven_of_trumps if self._kinds[cid] & 7 == SEVEN else 0
        self._score(seat, PART_MELDS, points, f"exchange {CODES[self._kinds[cid]]}")
        self._continue_declaring()

    def _continue_declaring(self) -> None:
        legal = self._declare_actions(self._to_move)  # type: ignore[arg-type]
        if legal:
            self._legal = legal
        else:
            self._draw()

    def _draw(self) -> None:
        winner = self._leader
        t = self._idt
        stock = self._stock
        drawn = [0] * self.rules.players
        # the trick's winner draws first, or (draw_order=leader-first, seed 001) its leader
        first = winner if t.winner_draws_first else self._tricks[-1][0]
        order = t.orders[self.dealer][first]
        for i, seat in enumerate(order):
            if stock:
                c = stock.pop()
                if (
                    not stock
                    and self._turn_up is not None
                    and i == 0
                    and self.rules.reveal_last_draw
                ):
                    self._known[c] = True
            elif self._turn_up is not None:
                c = self._turn_up
                self._turn_up = None
                self._known[c] = True
            else:  # a short last round: the stock ran out (hands not played out)
                break
            insort(self._hands[seat], c)
            drawn[seat] = c
        self._phase = PLAY
        self._to_move = winner
        self._decl_count = 0
        self._exchanged = False
        if self.rules.carte_blanche and (stock or self._turn_up is not None):
            self._carte_blanche(order, drawn)
        if not stock and self._turn_up is None and not self.rules.play_out_hand:
            # the hand ends when the stock is drawn (decision 11)
            if self.rules.last_trick_bonus:
                self._score(winner, PART_LAST, self.rules.last_trick_bonus, "last trick")
            self._finish()
        elif not stock and self._turn_up is None:
            # stage 2: declared cards go back into the hands, still known to everyone
            self._stage = 2
            self._instances = []
            M, known = self._mask, self._known
            for h in self._hands:
                for c in h:
                    if M[c]:
                        M[c] = 0
                        known[c] = True
