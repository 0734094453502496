"""The simple bot: a club player's rules of thumb, read off the observation alone.

Every legal action gets a value in points and the best one is played.

* **Declaring.** A declaration is worth its points now plus half of what the cards left may
  still score (:meth:`View.meld_value`): so the bot takes the biggest meld, but declares a
  marriage before the sequence it may grow into, does not spoil a coming double bezique, and
  exchanges the seven of trumps when the turn-up is worth more to it than a small meld.
* **Stage 1.** A card's *keep value* is its trick-taking power plus the meld points the hand
  would lose without it.  Leading, the bot throws its cheapest card, and shies away from leading
  brisques.  Following, it wins a trick when the brisques in it (and the chance to declare that
  winning gives) are worth more than the card it spends, and otherwise throws its cheapest card.
* **Stage 2.** With the stock gone the meld values vanish and the cards left are known (in the
  two-handed game exactly): the bot leads the card whose trick comes out best against the reply
  the opponent is bound to make, and follows by heading as cheaply as it can or by throwing the
  card that gives away the fewest points.

Ties go to the action listed first in ``observation.legal``; a seed adds a tiny, reproducible
random nudge, so that differently seeded simple bots vary among equal choices.
"""

from __future__ import annotations

import random

from ..core.cards import ALL_KINDS, SEVEN, WILD, kind
from ..core.melds import MELD_BY_NAME, meld_score
from ..core.notation import Action
from ..core.observation import Observation
from ..core.tricks import beats, follow_duty
from .base import Bot, Limit, PlayResult, legal_actions, observation_rng_seed, salt_for
from .view import Holding, View, ref_card, trick_value

PLAIN_POWER = (7.0, 5.0, 3.0, 2.5, 2.0, 1.0, 0.5, 0.0)
"""Trick-taking worth of a plain-suit card, by rank number (A T K Q J 9 8 7)."""
TRUMP_POWER = 8.0
"""Extra worth of any trump on top of its place among the trumps."""
_KINDS = range(ALL_KINDS)
"""The bot's cards are kinds already: each is its own kind (for :func:`follow_duty`)."""


class SimpleBot(Bot):
    """A sensible, quick heuristic opponent (see the module docstring)."""

    name = "simple"

    meld_weight = 0.6
    """How much of the meld points a card may still bring counts as keeping it."""
    future_weight = 0.5
    """How much the melds left for later count when choosing what to declare now."""
    declare_weight = 0.5
    """How much a declaration that winning the trick would allow counts towards winning it."""
    lead_risk = 0.3
    """Share of a led brisque's points the bot expects to lose."""
    opponent_declares = 4.0
    """What letting an opponent win a stage-1 trick (and declare) is guessed to cost."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)

    # --- protocol -------------------------------------------------------------------------------
    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        actions = legal_actions(observation)
        if len(actions) == 1:
            return PlayResult(actions[0], {"reason": "the only legal action"})
        view = View(observation)
        if any(a.verb != "play" for a in actions):
            values = [self._declare_value(view, a) for a in actions]
            reason = "declaration"
        elif observation.stage == 1:
            values = [self._stage1_value(view, a) for a in actions]
            reason = "stage 1 lead" if not observation.trick else "stage 1 follow"
        else:
            values = [self._stage2_value(view, a) for a in actions]
            reason = "stage 2 lead" if not observation.trick else "stage 2 follow"
        if self.seed is not None:
            rng = random.Random(observation_rng_seed(self.seed, observation))
            values = [v + rng.random() * 1e-6 for v in values]
        best = max(range(len(actions)), key=lambda i: (values[i], -i))
        return PlayResult(
            actions[best],
            {
                "value": round(values[best], 3),
                "scores": {str(a): round(v, 3) for a, v in zip(actions, values, strict=True)},
                "reason": reason,
            },
        )

    # --- card worth ---------------------------------------------------------------------------
    @staticmethod
    def power(view: View, k: int) -> float:
        """Trick-taking worth of a card kind."""
        rank = k & 7
        if view.trump is not None and k >> 3 == view.trump:
            return TRUMP_POWER + 7 - rank
        return PLAIN_POWER[rank]

    def keep_value(self, view: View, index: int) -> float:
        """What the seat loses by parting with its holding ``index``, in points."""
        k, mask = view.holdings[index]
        value = self.power(view, k)
        if view.obs.stage != 1:
            return value / 2
        rest = view.holdings[:index] + view.holdings[index + 1 :]
        touched = {k}
        loss = view.meld_value(view.holdings, touched) - view.meld_value(rest, touched)
        value += self.meld_weight * loss
        if self._can_exchange(view) and k == self._seven(view) and not mask:
            up = view.obs.turn_up
            assert up is not None
            value += self.meld_weight * self.power(view, ref_card(up))
        return value

    @staticmethod
    def _seven(view: View) -> int | None:
        return None if view.trump is None else kind(view.trump, SEVEN)

    def _can_exchange(self, view: View) -> bool:
        """Could this seat still exchange its seven of trumps for the turn-up?"""
        seven = self._seven(view)
        up = view.obs.turn_up
        return (
            bool(view.rules.seven_of_trumps)
            and seven is not None
            and up is not None
            and ref_card(up) != seven
            and seven in view.concealed
        )

    def _win_bonus(self, view: View, rest: list[Holding]) -> float:
        """What winning this stage-1 trick is worth beyond its cards: the right to declare."""
        best = view.declarable_now(rest)
        if self._can_exchange(view) and any(k == self._seven(view) and not m for k, m in rest):
            up = view.obs.turn_up
            assert up is not None
            best = max(best, view.rules.seven_of_trumps + self.power(view, ref_card(up)))
        return self.declare_weight * best + 1.0

    # --- declaring ------------------------------------------------------------------------------
    def _declare_value(self, view: View, action: Action) -> float:
        rules = view.rules
        holdings = list(view.holdings)
        now = 0.0
        if action.verb == "meld":
            meld = MELD_BY_NAME[action.meld]
            now = float(meld_score(rules, meld.id))
            for i in view.resolve(action.cards):
                k, m = holdings[i]
                holdings[i] = (k, m | 1 << meld.id)
        elif action.verb == "exchange":
            now = float(rules.seven_of_trumps)
            up = view.obs.turn_up
            if up is not None:
                i = view.resolve(action.cards)[0]
                seven = holdings.pop(i)[0]
                holdings.append((ref_card(up), 0))
                now += self.power(view, ref_card(up)) - self.power(view, seven) + 0.5
        return now + self.future_weight * view.meld_value(holdings)

    # --- stage 1 --------------------------------------------------------------------------------
    def _stage1_value(self, view: View, action: Action) -> float:
        index = view.resolve(action.cards)[0]
        k = view.holdings[index][0]
        keep = self.keep_value(view, index)
        rest = view.holdings[:index] + view.holdings[index + 1 :]
        bonus = self._seven_play_bonus(view, index)
        if not view.trick_kinds:
            # leading: the cheapest card, not a brisque, unless it may win a wanted trick
            risk = self.lead_risk * trick_value(view.rules, [k], whole=False)
            others = sum(view.obs.hand_sizes) - len(view.holdings)
            if view.unseen_total:
                safe = max(0.0, 1 - view.beaters_unseen(k) / view.unseen_total) ** others
            else:
                safe = 1.0
            wanted = self._win_bonus(view, rest) - 1.0
            return bonus - keep - risk * (1 - safe) + safe * wanted
        return bonus + self._follow_value(view, k, keep, self._win_bonus(view, rest))

    def _seven_play_bonus(self, view: View, index: int) -> float:
        k, mask = view.holdings[index]
        rules = view.rules
        if k != self._seven(view) or mask or not rules.seven_of_trumps:
            return 0.0
        if rules.second_seven_scores == "play":
            return float(rules.seven_of_trumps)
        if rules.second_seven_scores == "win-trick" and view.trick_kinds:
            best = view.winning()
            assert best is not None
            if beats(k, best[1], view.trump, rules.wild_card_lead_wins):
                return float(rules.seven_of_trumps)
        return 0.0

    def _follow_value(self, view: View, k: int, keep: float, win_bonus: float) -> float:
        """Value of playing kind ``k`` to the current trick (not first to play)."""
        trick = [*view.trick_kinds, (view.seat, k)]
        winner = view.winning(trick)
        assert winner is not None
        points = trick_value(view.rules, [c for _, c in trick])
        last = len(trick) == view.players
        if view.obs.stage == 2 and len(view.holdings) == 1:
            points += view.rules.last_trick_bonus
            lose_extra = 0.0
        else:
            lose_extra = self.opponent_declares if view.obs.stage == 1 else 0.0
        if view.side(winner[0]) == view.side(view.seat):
            held = 1.0 if last or view.beaters_unseen(winner[1]) == 0 else 0.5
        else:
            held = 0.0
        return held * (points + win_bonus) - (1 - held) * (points + lose_extra) - keep

    # --- stage 2 --------------------------------------------------------------------------------
    def _stage2_value(self, view: View, action: Action) -> float:
        index = view.resolve(action.cards)[0]
        k = view.holdings[index][0]
        keep = self.keep_value(view, index)
        if view.trick_kinds:
            return self._follow_value(view, k, keep, 0.0)
        last_bonus = view.rules.last_trick_bonus if len(view.holdings) == 1 else 0
        if view.players == 2:
            return self._lead_against_known(view, k, keep, last_bonus)
        points = trick_value(view.rules, [k]) + last_bonus
        if view.beaters_unseen(k) == 0:
            return points + 5.0 - keep
        return -points - keep

    def _lead_against_known(self, view: View, k: int, keep: float, last_bonus: int) -> float:
        """Two-handed stage 2: every unseen card is in the opponent's hand; play out its reply."""
        opp = 1 - view.seat
        cards = [c for c in range(len(view.unseen)) for _ in range(view.unseen[c])]
        cards += [ref_card(c) for c in view.obs.known[opp]]
        cards += [ref_card(c) for c in view.obs.tables[opp]]
        replies = self._replies(view, k, cards)
        if not replies:
            return trick_value(view.rules, [k]) + last_bonus - keep

        lead_wins = view.rules.wild_card_lead_wins

        def outcome(r: int) -> tuple[bool, float]:
            return beats(r, k, view.trump, lead_wins), trick_value(view.rules, [k, r]) + last_bonus

        # the opponent wins as cheaply as it can, or else gives away as little as it can
        def their_value(r: int) -> float:
            won, pts = outcome(r)
            return (pts if won else -pts) - self.power(view, r) / 2

        reply = max(replies, key=their_value)
        won, pts = outcome(reply)
        return (-pts if won else pts + 2.0) - keep + self.power(view, reply) / 2

    @staticmethod
    def _replies(view: View, led: int, cards: list[int]) -> list[int]:
        """The cards the follower may play to ``led`` in stage 2: the core's duties
        (:func:`~bezique.core.tricks.follow_duty`), which want wild cards last."""
        hand = [c for c in cards if c != WILD] + [c for c in cards if c == WILD]
        trick = [(view.seat, led)]
        return list(follow_duty(hand, _KINDS, trick, 2, view.trump, view.rules))


class CarelessBot(SimpleBot):
    """The ``easy`` level: the simple rules of thumb, but now and then a legal action at random.

    ``simple`` alone plays about as well as ``heuristic`` in points (docs/strength.md), so as the
    easy level it made the ladder of levels flat; a player who slips at a share :attr:`slip` of
    its decisions (about one in three) is one a beginner can beat.  The slip and the action are drawn from the seed
    and the observation, so the bot stays reproducible and sees nothing else."""

    name = "careless"
    slip = 0.3
    """Chance of a uniformly random legal action at a decision with more than one."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._salt = salt_for(seed)

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        actions = legal_actions(observation)
        # its own stream: the rules of thumb's tie-breaks draw from the same seed
        rng = random.Random(observation_rng_seed(self._salt, observation) ^ 0x51C5)
        if len(actions) > 1 and rng.random() < self.slip:
            action = actions[rng.randrange(len(actions))]
            return PlayResult(
                action, {"reason": f"a careless move: one of {len(actions)} at random"}
            )
        return super().play(observation, limit)
