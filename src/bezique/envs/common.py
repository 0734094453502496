"""What the Gymnasium and PettingZoo adapters share: an episode (a deal or a match) played
through the public core API, its rewards, bots as players, and a plain-text rendering.

Rewards
-------

=========  ==================  ===================================================================
reward     episode             what a seat receives
=========  ==================  ===================================================================
points     deal                after every step, the change in its side's *margin*: the side's
                               deal points less the mean of the other sides' (two sides: the
                               difference), so the rewards of a deal add up to its final margin
points     match               the same with the match scores, which change when a deal ends
                               (per-deal games: the payout); they add up to the match margin
result     deal or match       at the end only: the winner +1, each loser ``-1/(sides-1)``
                               (tied winners share; a tie of all gives 0), so values sum to 0;
                               the deal's winner is the side with the most points (per-deal
                               games: the settlement's winner)
=========  ==================  ===================================================================

In a partnership game both partners get their side's reward.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..bots import Bot, make
from ..core.deal import Deal
from ..core.match import Match, settle
from ..core.notation import Action
from ..core.observation import Observation
from ..core.rules import Rules
from .encoding import outcome, relative_points

REWARDS = ("points", "result")
EPISODES = ("deal", "match")


def as_rules(rules: Rules | str) -> Rules:
    """A :class:`Rules` from a value or a rules string (``'rubicon(target=2000)'``)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.from_string(rules)
    raise TypeError(f"rules must be a Rules value or a rules string: got {rules!r}")


def check_choice(what: str, value: str, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``, else ``ValueError`` naming them."""
    if value not in choices:
        raise ValueError(f"{what} must be one of {', '.join(choices)}: got {value!r}")
    return value


def deal_winners(deal: Deal) -> list[int]:
    """The winning side(s) of a finished deal: the most points, or the settlement's winner in a
    per-deal game (empty for a settled tie)."""
    if deal.rules.deal_scoring == "per-deal":
        w = settle(deal).winner
        return [] if w is None else [w]
    points = deal.points
    top = max(points)
    return [s for s, p in enumerate(points) if p == top]


class Episode:
    """One episode: a single deal, or a whole match (the next deal starts as one ends)."""

    def __init__(self, rules: Rules, mode: str, seed: int, dealer: int | None = None) -> None:
        self.rules = rules
        self.mode = check_choice("episode", mode, EPISODES)
        self.match: Match | None = None
        if mode == "match":
            self.match = Match(rules, seed=seed)
            self._deal = self.match.deal
        else:
            if dealer is None:
                dealer = seed % rules.players
            self._deal = Deal.new(rules, seed=seed, dealer=dealer)
        self.deals_finished = 0
        """Deals finished so far in this episode."""
        self._seen: dict[int, Observation] = {}

    @property
    def deal(self) -> Deal:
        """The deal being played."""
        return self._deal

    @property
    def is_over(self) -> bool:
        """True once the deal (or the match) is decided."""
        if self.match is None:
            return self._deal.is_over
        return self._deal.is_over and self.match.winner is not None

    @property
    def to_move(self) -> int | None:
        """The seat to move; None once the episode is over."""
        return None if self.is_over else self._deal.to_move

    def observation(self, seat: int) -> Observation:
        """What ``seat`` sees of the current deal (built once per position)."""
        obs = self._seen.get(seat)
        if obs is None:
            obs = self._seen[seat] = self._deal.observation(seat)
        return obs

    def apply(self, action: Action | str) -> None:
        """Apply an action; in a match, start the next deal when one ends undecided."""
        self._deal.apply(action)
        self._seen = {}
        if self._deal.is_over:
            self.deals_finished += 1
            if self.match is not None and self.match.winner is None:
                self._deal = self.match.next_deal()

    def scores(self) -> list[int]:
        """Points per side: the deal's points, or the match scores."""
        if self.match is None:
            return list(self._deal.points)
        return list(self.match.scores)

    def margins(self) -> list[float]:
        """Each side's margin (:func:`~bezique.envs.encoding.relative_points` of the scores)."""
        return relative_points(self.scores())

    def result(self) -> list[float]:
        """Each side's result value once over (see the module docstring); zeros before."""
        if not self.is_over:
            return [0.0] * self.rules.sides
        if self.match is None:
            winners = deal_winners(self._deal)
        else:
            winners = [] if self.match.winner is None else [self.match.winner]
        return outcome(winners, self.rules.sides)

    def value(self, reward: str) -> list[float]:
        """Per side, the running total that the rewards of kind ``reward`` add up to."""
        return self.margins() if reward == "points" else self.result()


def make_bots(spec: str | Bot | Sequence[str | Bot], count: int, seeds: Sequence[int]) -> list[Bot]:
    """``count`` bots from a name, a bot, or one name or bot per seat; names are built with
    the given seeds."""
    items: list[str | Bot]
    if isinstance(spec, (str, Bot)):
        items = [spec] * count
    else:
        items = list(spec)
        if len(items) != count:
            raise ValueError(f"{count} opponents needed, got {len(items)}")
    return [
        make(b, seed=s) if isinstance(b, str) else b for b, s in zip(items, seeds, strict=False)
    ]


def render_text(obs: Observation) -> str:
    """A plain-text picture of a seat's view (pure function of the observation)."""
    lines = [f"{obs.rules}  phase {obs.phase}, stage {obs.stage}, to move: {obs.to_move}"]
    lines.append(
        f"trump {obs.trump or '-'}  turn-up {obs.turn_up or '-'}  stock {obs.stock_size}  "
        f"points {' '.join(str(p) for p in obs.points)}"
    )
    for seat, table in enumerate(obs.tables):
        mark = "*" if seat == obs.seat else " "
        held = " ".join(obs.hand) if seat == obs.seat else f"{obs.hand_sizes[seat]} cards"
        lines.append(f"{mark}seat {seat}: {held}  table: {' '.join(table) or '-'}")
    if obs.trick:
        lines.append("trick: " + " ".join(f"{s}:{c}" for s, c in obs.trick))
    if obs.legal:
        lines.append("legal: " + "; ".join(obs.legal))
    return "\n".join(lines)


__all__ = [
    "EPISODES",
    "REWARDS",
    "Episode",
    "as_rules",
    "check_choice",
    "deal_winners",
    "make_bots",
    "render_text",
]
