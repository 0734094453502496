"""The bot protocol, shaped like ``chess.engine``: a :class:`Limit` on the thinking, a
:class:`PlayResult` with the action and what the bot has to say about it, and :class:`Bot`.

A bot only ever sees an :class:`~bezique.core.observation.Observation`, never a
:class:`~bezique.core.deal.Deal`; it answers with one of ``observation.legal``.
"""

from __future__ import annotations

import random
import zlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from ..core.notation import Action
from ..core.observation import Observation


@dataclass(frozen=True)
class Limit:
    """How long a bot may think.  ``None`` everywhere means the bot's own default."""

    time: float | None = None
    """Seconds of thinking per decision."""
    iterations: int | None = None
    """Search iterations (playouts, nodes, determinizations: whatever the bot counts)."""
    nodes: int | None = None
    """Engine steps a search may take (actions applied in the worlds it searches): a budget
    that keeps choices reproducible yet follows how long the rest of the deal is."""
    cpu_budget: float | None = None
    """Seconds of CPU (of the thread that decides) a decision may take, on any rules: a search
    that respects it stops there and plays the best it has found; one that ends sooner plays as
    it would without it."""

    def __post_init__(self) -> None:
        if self.cpu_budget is not None and (
            isinstance(self.cpu_budget, bool)
            or not isinstance(self.cpu_budget, int | float)
            or not 0 <= self.cpu_budget < 1e9
        ):
            raise ValueError(
                f"Limit.cpu_budget must be a number of seconds, 0 or more: got {self.cpu_budget!r}"
            )
        if self.time is not None and not self.time > 0:
            raise ValueError(f"Limit.time must be a positive number of seconds: got {self.time!r}")
        if self.iterations is not None and (
            isinstance(self.iterations, bool)
            or not isinstance(self.iterations, int)
            or self.iterations < 1
        ):
            raise ValueError(
                f"Limit.iterations must be a positive whole number: got {self.iterations!r}"
            )
        if self.nodes is not None and (
            isinstance(self.nodes, bool) or not isinstance(self.nodes, int) or self.nodes < 1
        ):
            raise ValueError(f"Limit.nodes must be a positive whole number: got {self.nodes!r}")


class InfoDict(TypedDict, total=False):
    """What a bot may report about its choice; every key is optional."""

    value: float
    """The bot's estimate of the chosen action (in its own units)."""
    visits: int
    nodes: int
    """Engine steps the search took (actions applied in its worlds)."""
    nps: float
    """Nodes (or playouts) per second."""
    pv: list[str]
    """Principal variation, in notation."""
    scores: dict[str, float]
    """The bot's score of each legal action it considered, by notation."""
    reason: str
    """A short explanation in words."""


@dataclass(frozen=True)
class PlayResult:
    """A bot's answer: the action chosen and any extra information."""

    action: Action
    info: InfoDict = field(default_factory=lambda: InfoDict())


class Bot(ABC):
    """A computer player.  Subclasses implement :meth:`play`; :meth:`choose` is its action."""

    name: str = "bot"
    """The registry name of the bot (``'simple'``)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        """The seed the bot was built with; equal seeds and observations give equal choices."""

    @abstractmethod
    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        """Choose an action for the observing seat, which must be to move."""

    def choose(self, observation: Observation, limit: Limit | None = None) -> Action:
        """The action :meth:`play` chooses."""
        return self.play(observation, limit).action

    def close(self) -> None:
        """Release whatever the bot holds (nothing, for in-process bots)."""
        return None

    def __enter__(self) -> Bot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} seed={self.seed}>"


def salt_for(seed: int | None) -> int:
    """The number a bot draws its random choices from: its seed, or without one a number of
    its own drawn when it is built."""
    return seed if seed is not None else random.SystemRandom().getrandbits(32)


def only_action(action: Action) -> PlayResult:
    """A search player's answer where one action is legal: that action, searched not at all."""
    return PlayResult(action, {"reason": "the only legal action", "scores": {str(action): 0.0}})


def fallback_limit(limit: Limit | None, nodes: int) -> Limit:
    """The budget a compiled search hands to its reference-core twin where the compiled engine
    cannot play: a budget in nodes or seconds carries over; one in iterations (rollouts, as the
    levels give) would be far slower in Python, so the reference search gets ``nodes`` steps."""
    if limit is not None and (limit.nodes is not None or limit.time is not None):
        return limit
    return Limit(nodes=nodes, cpu_budget=None if limit is None else limit.cpu_budget)


def legal_actions(observation: Observation) -> list[Action]:
    """The observation's legal actions, parsed; ``ValueError`` when the seat is not to move."""
    if not observation.legal:
        who = "nobody" if observation.to_move is None else f"seat {observation.to_move}"
        raise ValueError(f"seat {observation.seat} has no decision to make here ({who} is to move)")
    return [Action.parse(text) for text in observation.legal]


def observation_rng_seed(seed: int | None, observation: Observation) -> int:
    """A number that depends only on a bot's seed and the observation (not on call order)."""
    o = observation
    return view_rng_seed(seed, o.rules, o.seat, o.dealer, o.turn_up, o.history, o.hand)


def view_rng_seed(
    seed: int | None,
    rules: object,
    seat: int | None,
    dealer: int,
    turn_up: str | None,
    history: Sequence[str],
    hand: Sequence[str],
) -> int:
    """:func:`observation_rng_seed` from the parts of the observation it reads (for callers
    that hold them without an :class:`Observation`, such as the compiled-engine episodes of
    :mod:`bezique.envs`)."""
    text = f"{seed}|{rules}|{seat}|{dealer}|{turn_up}|{','.join(history)}|" + ",".join(hand)
    return zlib.crc32(text.encode())
