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

import numpy as np

from ..bots import Bot, make
from ..bots.random_bot import RandomBot
from ..core.deal import Deal
from ..core.match import Match, settle
from ..core.notation import Action, IllegalAction
from ..core.observation import Observation
from ..core.rules import Rules
from .encoding import Encoding, outcome, relative_points

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
    return _top(deal.points)


def _top(points: Sequence[int]) -> list[int]:
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
        self._advance()

    def _advance(self) -> None:
        """After an action: forget the old views; in a match, deal again when one ends undecided."""
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

    # --- what the adapters read: the same numbers however the deal is played ------------------
    def encode(self, seat: int, encoding: Encoding, out: np.ndarray | None = None) -> np.ndarray:
        """The observation tensor of ``seat`` (``encoding.encode`` of its observation)."""
        return encoding.encode(self.observation(seat), out)

    def legal_id_texts(self, seat: int, encoding: Encoding) -> list[tuple[int, str]]:
        """The seat's legal actions as ``(id, notation)``, ascending by id (empty unless it is
        to move)."""
        return encoding.legal_ids(self.observation(seat))

    def legal_mask(self, seat: int, encoding: Encoding) -> np.ndarray:
        """1 at the id of each of the seat's legal actions, else 0 (all 0 unless it is to move
        or once the episode is over): the environments' ``action_mask``."""
        mask = np.zeros(encoding.num_actions, np.int8)
        if not self.is_over:
            for i, _ in self.legal_id_texts(seat, encoding):
                mask[i] = 1
        return mask

    def apply_id(self, seat: int, encoding: Encoding, action_id: int) -> None:
        """Apply the seat's legal action with this id; :class:`IllegalAction` if there is none
        (the episode unchanged)."""
        try:
            if self._deal.to_move != seat or self.is_over:
                raise IllegalAction("not this seat's turn")
            self._deal.apply_id(action_id)  # by id: no notation read or written on the way
        except IllegalAction:
            raise IllegalAction(
                f"action id {action_id} ({encoding.describe(int(action_id))}) is not legal here"
            ) from None
        self._advance()

    def bot_move(self, bot: Bot) -> None:
        """Let ``bot`` play for the seat to move."""
        seat = self.to_move
        assert seat is not None
        self.apply(bot.choose(self.observation(seat)))


class FastEpisode(Episode):
    """A deal episode played by the compiled engine (:mod:`bezique.fast`): the same deal,
    observations, rewards and bot choices as :class:`Episode`, with the tensor, the legal
    actions and the random bot's choices worked out without building observations.
    :attr:`deal` and :meth:`observation` come from the engine's reference twin (slower)."""

    def __init__(self, rules: Rules, mode: str, seed: int, dealer: int | None = None) -> None:
        from ..fast import FastDeal

        if mode != "deal":
            raise ValueError("the compiled engine plays deal episodes only")
        self.rules = rules
        self.mode = mode
        self.match = None
        if dealer is None:
            dealer = seed % rules.players
        self._fast = FastDeal.from_deal(Deal.new(rules, seed=seed, dealer=dealer))
        self._history: list[str] = []
        self._legal: list[tuple[int, str]] | None = None
        self.deals_finished = 0
        self._seen = {}

    @property
    def deal(self) -> Deal:
        """A reference copy of the deal being played (changing it changes nothing here)."""
        return self._fast.to_deal()

    @property
    def is_over(self) -> bool:
        return self._fast.is_over

    @property
    def to_move(self) -> int | None:
        return self._fast.to_move

    def observation(self, seat: int) -> Observation:
        obs = self._seen.get(seat)
        if obs is None:
            obs = self._seen[seat] = self._fast.observation(seat)
        return obs

    def _applied(self, text: str) -> None:
        self._history.append(text)
        self._seen = {}
        self._legal = None
        if self._fast.is_over:
            self.deals_finished += 1

    def apply(self, action: Action | str) -> None:
        f = self._fast
        try:
            text = str(action) if isinstance(action, Action) else str(Action.parse(action))
        except ValueError:
            text = ""  # not notation: FastDeal.apply raises the reference core's error
        loose = text not in f.legal_texts()
        f.apply(action)
        self._applied(f.history[-1] if loose else text)

    def scores(self) -> list[int]:
        return list(self._fast.points)

    def result(self) -> list[float]:
        if not self.is_over:
            return [0.0] * self.rules.sides
        if self.rules.deal_scoring == "per-deal":
            return outcome(deal_winners(self.deal), self.rules.sides)
        return outcome(_top(self._fast.points), self.rules.sides)

    def encode(self, seat: int, encoding: Encoding, out: np.ndarray | None = None) -> np.ndarray:
        x = np.empty(encoding.size, np.float32) if out is None else out
        return self._fast.encode(seat, x, encoding)  # type: ignore[no-any-return]

    def legal_id_texts(self, seat: int, encoding: Encoding) -> list[tuple[int, str]]:
        if self._fast.to_move != seat:
            return []
        if self._legal is None:  # asked for twice a step (the mask, then the action)
            self._legal = self._fast.legal_id_texts()
        return list(self._legal)

    def apply_id(self, seat: int, encoding: Encoding, action_id: int) -> None:
        for i, text in self.legal_id_texts(seat, encoding):
            if i == action_id:
                self._fast.apply_id(i)
                self._applied(text)
                return
        raise IllegalAction(
            f"action id {action_id} ({encoding.describe(int(action_id))}) is not legal here"
        )

    def bot_move(self, bot: Bot) -> None:
        if type(bot) is not RandomBot:
            super().bot_move(bot)
            return
        f = self._fast
        texts = f.legal_texts()
        i = bot.index_on(f, self._history, len(texts))
        f.apply_index(i)
        self._applied(texts[i])


ENGINES = ("auto", "reference")


def started(episode: Episode | None) -> Episode:
    """The episode an environment is playing; ``RuntimeError`` before its first ``reset()``."""
    if episode is None:
        raise RuntimeError("call reset() first")
    return episode


def make_episode(
    rules: Rules, mode: str, seed: int, dealer: int | None = None, engine: str = "auto"
) -> Episode:
    """An :class:`Episode`; with ``engine="auto"`` a :class:`FastEpisode` when the compiled
    engine is built and plays these rules and the episode is one deal (the same numbers,
    faster), else the reference core's."""
    check_choice("engine", engine, ENGINES)
    if engine == "auto" and mode == "deal":
        from ..fast import UnsupportedRules, available

        if available():
            try:
                return FastEpisode(rules, mode, seed, dealer)
            except UnsupportedRules:
                pass  # an option the compiled engine does not play: the reference core plays it
    return Episode(rules, mode, seed, dealer)


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
    "ENGINES",
    "EPISODES",
    "REWARDS",
    "Episode",
    "FastEpisode",
    "as_rules",
    "check_choice",
    "deal_winners",
    "make_bots",
    "make_episode",
    "render_text",
]
