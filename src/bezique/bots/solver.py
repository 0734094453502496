"""The exact stage-2 solver: alpha-beta over the tricks left once the stock is empty.

In stage 2 there are no more declarations and no more draws, so a world (every hand known) is a
plain trick-taking position.  :class:`Endgame` holds it compactly (hands as sorted card kinds) and
:meth:`Endgame.solve` searches every line of play, with the stage-2 duties of the rules (follow
suit, head the trick, trump), to give the best point margin for one side against best defence:
the points of the remaining tricks (what the rules count for a trick, the last-trick bonus) that
side wins, less the mean of what each other side wins.  With three sides the others are assumed
to play together against it ("paranoid" search); partnerships are simply two sides.

Positions at the start of a trick are remembered in a transposition table with bounds, so the
two-handed endgame (at most 8 tricks) is solved in milliseconds.  A node limit stops searches
that would take too long (three and four hands early in stage 2): :class:`SolverLimit` is raised
and the caller falls back to playouts.

In the two-handed game every card is known once the stock is empty, so the solver plays stage 2
perfectly from the observation alone; with three or four hands the search players use it inside
their determinized worlds.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cards import ALL_KINDS, SUITS, WILD, parse_card
from ..core.deal import Deal
from ..core.ids import play_ids
from ..core.notation import Action
from ..core.observation import Observation
from ..core.rules import Rules
from ..core.scoring import seven_capture_points, trick_sevens, valued_kind_values
from ..core.tricks import beats, follow_duty
from .playout import action_kind, rank_points, utility

INF = float("inf")
_KINDS = range(ALL_KINDS)
"""The solver's cards are kinds already: each is its own kind (for :func:`follow_duty`)."""


class SolverLimit(Exception):
    """The search needed more nodes than it was allowed."""


@dataclass
class Solution:
    """What the solver found: the value of each card the seat to move may play (the margin of
    the tricks left for ``side``, best play on both sides), the best one, and the line."""

    side: int
    values: dict[int, float]
    """Per card kind playable now, the exact value after playing it."""
    best: int
    value: float
    pv: list[tuple[int, int]]
    """Principal variation: (seat, card kind) to the end of the deal."""
    nodes: int


class Endgame:
    """A stage-2 position with every hand known (see the module docstring)."""

    def __init__(
        self,
        rules: Rules,
        hands: list[list[int]],
        leader: int,
        trick: list[tuple[int, int]],
        trump: int | None,
        dealer: int = 0,
    ) -> None:
        self.rules = rules
        self.n = rules.players
        self.active = rules.active_players
        """Cards in a complete trick (the dealer may sit the deal out)."""
        self.skip = dealer if rules.dealer_sits_out else -1
        self.hands = [sorted(h) for h in hands]
        self.leader = leader
        self.trick = list(trick)
        self.trump = -1 if trump is None else trump
        self.per_rank, self.per_trick = rank_points(rules)
        self.per_kind = valued_kind_values(rules)  # a wild card worth nothing
        self.lead_wins = rules.wild_card_lead_wins
        # sevens of trumps scored for the taker of their trick (the capture rule);
        # those scored for their player whoever wins change no choice
        self.seven_bonus = float(seven_capture_points(rules))
        self.last_bonus = float(rules.last_trick_bonus)
        self.sides = rules.sides
        self.side_of = [rules.side_of(s) for s in range(self.n)]
        self.nodes = 0
        self.max_nodes: int | None = None
        self._tt: dict[tuple[object, ...], tuple[float, float]] = {}

    @classmethod
    def from_deal(cls, deal: Deal) -> Endgame:
        """The position of a world in stage 2 (``ValueError`` before stage 2 or once over)."""
        if deal.stage != 2 or deal.is_over or deal.phase != "play":
            raise ValueError("the solver needs a deal in stage 2 with a card to play")
        hands = [[parse_card(c) for c in deal.hand(s)] for s in range(deal.rules.players)]
        trick = [(s, parse_card(c)) for s, c in deal.trick]
        trump = None if deal.trump is None else SUITS.index(deal.trump)
        return cls(deal.rules, hands, deal.leader, trick, trump, deal.dealer)

    @property
    def to_move(self) -> int:
        """Seat to play next."""
        if not self.trick:
            return self.leader
        nxt = (self.trick[-1][0] + 1) % self.n
        return (nxt + 1) % self.n if nxt == self.skip else nxt

    # --- rules -----------------------------------------------------------------------------------
    def playable(self, seat: int) -> list[int]:
        """The distinct card kinds ``seat`` may play now (stage-2 duties applied)."""
        trump = self.trump if self.trump >= 0 else None
        cands = follow_duty(self.hands[seat], _KINDS, self.trick, 2, trump, self.rules)
        out: list[int] = []
        prev = -1
        for c in cands:  # hands are sorted, so copies sit together
            if c != prev:
                out.append(c)
                prev = c
        return out

    def classes(self, seat: int, moves: list[int]) -> list[list[int]]:
        """The moves in classes of equivalent cards: cards of one suit worth the same points
        with no card between them in another hand or in the trick are interchangeable (any line
        with one is a line with the other), so the search tries one of each class."""
        if len(moves) < 2:
            return [moves]
        present = 0
        for s, h in enumerate(self.hands):
            if s != seat:
                for c in h:
                    present |= 1 << c
        for _, c in self.trick:
            present |= 1 << c
        per_rank = self.per_rank
        out = [[moves[0]]]
        prev = moves[0]
        for k in moves[1:]:
            if (
                k >> 3 == prev >> 3
                and k != WILD
                and per_rank[k & 7] == per_rank[prev & 7]
                and not (self.seven_bonus and k & 7 == 7)
                and not present & ((1 << k) - (1 << (prev + 1)))
            ):
                out[-1].append(k)
            else:
                out.append([k])
            prev = k
        return out

    def _trick_result(self) -> tuple[int, float]:
        """(winning seat, points) of the complete trick in ``self.trick``."""
        trick = self.trick
        win_seat, best = trick[0]
        per_kind = self.per_kind
        pts = self.per_trick + per_kind[best]
        for s, c in trick[1:]:
            pts += per_kind[c]
            if beats(c, best, self.trump, self.lead_wins):
                best, win_seat = c, s
        if self.seven_bonus:
            sevens = trick_sevens(self.rules, self.trump, trick, win_seat)
            pts += sum(points for _, points, captured in sevens if captured)
        return win_seat, pts

    # --- search ----------------------------------------------------------------------------------
    def solve(self, side: int, max_nodes: int | None = None) -> Solution:
        """Exact values of every playable card for ``side`` (see the module docstring).

        Raises :class:`SolverLimit` when more than ``max_nodes`` nodes would be needed."""
        self.max_nodes = max_nodes
        self.nodes = 0
        self._tt.clear()
        self._root_side = side
        self._other = 1.0 / (self.sides - 1)
        seat = self.to_move
        values: dict[int, float] = {}
        maximize = self.side_of[seat] == side
        groups = self.classes(seat, self.playable(seat))
        order = self._order(seat, [g[0] for g in groups], maximize)
        for k in order:
            values[k] = self._play(seat, k, -INF, INF)
        for g in groups:
            for k in g[1:]:
                values[k] = values[g[0]]
        pick = max if maximize else min
        best = pick(order, key=lambda k: values[k])
        pv = self.line(side, best)
        return Solution(side, values, best, values[best], pv, self.nodes)

    def value(self, side: int, max_nodes: int | None = None) -> float:
        """The exact value of the position for ``side`` (faster than :meth:`solve`)."""
        self.max_nodes = max_nodes
        self.nodes = 0
        self._tt.clear()
        self._root_side = side
        self._other = 1.0 / (self.sides - 1)
        return self._search(-INF, INF)

    def line(self, side: int, first: int) -> list[tuple[int, int]]:
        """The principal variation after ``first``, read from the table (best effort)."""
        pv = [(self.to_move, first)]
        saved = ([h[:] for h in self.hands], self.leader, self.trick[:])
        try:
            self._apply(pv[0][0], first)
            while any(self.hands):
                seat = self.to_move
                maximize = self.side_of[seat] == side
                best_k, best_v = -1, 0.0
                for k in self.playable(seat):
                    v = self._play(seat, k, -INF, INF)
                    if best_k < 0 or (v > best_v if maximize else v < best_v):
                        best_k, best_v = k, v
                pv.append((seat, best_k))
                self._apply(seat, best_k)
        finally:
            hands, self.leader, self.trick = saved
            self.hands = hands
        return pv

    def line_margin(self, side: int, plays: list[tuple[int, int]]) -> float:
        """The margin for ``side`` of the tricks won along a line of play from here."""
        saved = ([h[:] for h in self.hands], self.leader, self.trick[:])
        other = 1.0 / (self.sides - 1)
        total = 0.0
        try:
            for seat, k in plays:
                self.hands[seat].remove(k)
                self.trick.append((seat, k))
                if len(self.trick) == self.active:
                    winner, pts = self._trick_result()
                    if not self.hands[seat]:
                        pts += self.last_bonus
                    total += pts if self.side_of[winner] == side else -pts * other
                    self.leader = winner
                    self.trick = []
        finally:
            hands, self.leader, self.trick = saved
            self.hands = hands
        return total

    def _apply(self, seat: int, k: int) -> None:
        self.hands[seat].remove(k)
        self.trick.append((seat, k))
        if len(self.trick) == self.active:
            self.leader = self._trick_result()[0]
            self.trick = []

    def _order(self, seat: int, moves: list[int], maximize: bool) -> list[int]:
        """Try likely winners (high cards, trumps) first."""
        t = self.trump
        return sorted(moves, key=lambda k: (k >> 3 != t, k & 7))

    def _play(self, seat: int, k: int, alpha: float, beta: float) -> float:
        """The value after ``seat`` plays kind ``k``."""
        hand = self.hands[seat]
        hand.remove(k)
        trick = self.trick
        trick.append((seat, k))
        if len(trick) < self.active:
            v = self._search(alpha, beta)
            trick.pop()
        else:
            winner, pts = self._trick_result()
            if not hand:  # every hand is empty: the last trick
                pts += self.last_bonus
            delta = pts if self.side_of[winner] == self._root_side else -pts * self._other
            leader = self.leader
            self.leader = winner
            self.trick = []
            v = delta + self._search(alpha - delta, beta - delta) if hand else delta
            self.trick = trick
            self.leader = leader
            trick.pop()
        # put the card back where it was (hands stay sorted)
        i = 0
        while i < len(hand) and hand[i] < k:
            i += 1
        hand.insert(i, k)
        return v

    def _search(self, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SolverLimit(f"more than {self.max_nodes} nodes")
        key: tuple[object, ...] | None = None
        alpha0, beta0 = alpha, beta
        if not self.trick:
            key = (self.leader, *map(tuple, self.hands))
            entry = self._tt.get(key)
            if entry is not None:
                lo, hi = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                alpha = max(alpha, lo)
                beta = min(beta, hi)
        seat = self.to_move
        maximize = self.side_of[seat] == self._root_side
        moves = self.playable(seat)
        if len(moves) > 1:
            moves = self._order(seat, [g[0] for g in self.classes(seat, moves)], maximize)
        if maximize:
            best = -INF
            for k in moves:
                v = self._play(seat, k, alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = INF
            for k in moves:
                v = self._play(seat, k, alpha, beta)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if key is not None:
            lo, hi = self._tt.get(key, (-INF, INF))
            if best <= alpha0:
                hi = min(hi, best)
            elif best >= beta0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self._tt[key] = (lo, hi)
        return best


def world_is_known(obs: Observation) -> bool:
    """True when the observation pins down every card's place (stage 2 with at most one other
    seat holding cards this seat has not seen)."""
    if obs.stage != 2 or obs.phase != "play" or obs.stock_size or obs.turn_up is not None:
        return False
    hidden = [
        s
        for s in range(obs.rules.players)
        if s != obs.seat and obs.hand_sizes[s] > len(obs.known[s]) + len(obs.tables[s])
    ]
    return len(hidden) <= 1


def exact_values(world: Deal, side: int, max_nodes: int | None = None) -> tuple[Solution, float]:
    """Solve a stage-2 world for ``side``; the solution and the offset that turns its values
    (the margin of the tricks left) into the margin of the whole deal.

    The offset is measured with the engine itself: one line is played out on a copy of the
    world, and the solver's count of that line is taken from the deal's final margin."""
    eg = Endgame.from_deal(world)
    sol = eg.solve(side, max_nodes)
    copy = world.clone()
    play_kind = play_ids(world.rules).play_kind
    line: list[tuple[int, int]] = []
    while not copy.is_over:
        seat = copy.to_move
        assert seat is not None
        first = copy.legal_ids()[0]  # the first legal action: plays list by id
        line.append((seat, play_kind[first]))
        copy.apply_id(first)
    return sol, utility(copy, side) - eg.line_margin(side, line)


def exact_choice(
    world: Deal, actions: list[Action], max_nodes: int
) -> tuple[Action, dict[str, float]] | None:
    """The exact stage-2 choice for the seat to move in a world with every card known: the best
    of ``actions`` (the first of equals) and each one's value, the margin of the whole deal for
    the seat's side; None when solving would take more than ``max_nodes`` nodes."""
    seat = world.to_move
    if seat is None:
        raise ValueError("the deal is over: nobody is to move")
    try:
        sol, offset = exact_values(world, world.rules.side_of(seat), max_nodes=max_nodes)
    except SolverLimit:
        return None
    scores = {str(a): sol.values[action_kind(a)] + offset for a in actions}
    return max(actions, key=lambda a: scores[str(a)]), scores


def play_action(deal: Deal, kind: int) -> Action:
    """The legal action of ``deal`` that plays card kind ``kind`` (stage 2 has no declared
    cards, so there is exactly one)."""
    return deal.id_action(play_id(deal, kind))


def play_id(deal: Deal, kind: int) -> int:
    """The id of the legal action of ``deal`` that plays card kind ``kind`` (stage 2)."""
    play_kind = play_ids(deal.rules).play_kind
    for i in deal.legal_ids():
        if i < len(play_kind) and play_kind[i] == kind:
            return i
    raise ValueError(f"no legal play of kind {kind}")
