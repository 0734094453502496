"""A single-agent Gymnasium environment: you play one seat, :mod:`bezique.bots` play the others.

::

    >>> from bezique.envs.gymnasium_env import BeziqueEnv
    >>> env = BeziqueEnv("classic", opponents="simple")
    >>> obs, info = env.reset(seed=1)
    >>> sorted(obs)
    ['action_mask', 'observation']
    >>> action = int(obs["action_mask"].nonzero()[0][0])
    >>> obs, reward, terminated, truncated, info = env.step(action)

*Observation*: a dict with ``observation`` (the ``float32`` tensor of
:class:`~bezique.envs.encoding.Encoding`) and ``action_mask`` (``int8``, 1 for the legal action
ids).  *Action*: an action id (``Discrete(num_actions)``).  *Info*: ``action_mask`` (a copy),
``legal`` (the legal actions in notation, with their ids), ``scores`` (per side: the deal's
points, or the match scores), ``deals_finished`` and, once over, ``result``.

An action id that is not legal raises :class:`~bezique.core.notation.IllegalAction` (a
``ValueError``); nothing is ever substituted.  Wrap the env in :class:`TerminateIllegal` to
end the episode with a penalty instead (what RL libraries that sample unmasked actions need,
and what ``gymnasium.utils.env_checker.check_env`` needs, since it steps random ids).

Rewards are those of :mod:`bezique.envs.common` (``reward="points"`` or ``"result"``) for the
agent's side; ``episode="deal"`` or ``"match"``.  A seeded ``reset`` deals from that seed and
builds named opponents from it, and keeps every setting given to the constructor.

Version history: 1 -- first version (encoding version 1); encoding version 2 since 2026-12-04
(a larger alternate block: ``action_space.n`` grew, every id keeps its meaning).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot
from ..core.rules import Rules
from .common import (
    ENGINES,
    EPISODES,
    REWARDS,
    Episode,
    as_rules,
    check_choice,
    make_bots,
    make_episode,
    render_text,
    started,
)
from .encoding import ENCODING_VERSION, Encoding

ENV_ID = "bezique/Bezique-v1"
"""The Gymnasium id: ``gymnasium.make("bezique/Bezique-v1", rules="rubicon")``."""

ObsDict = dict[str, Any]
ActType = int | np.integer[Any]


class BeziqueEnv(gymnasium.Env[ObsDict, ActType]):
    """One seat of a deal (or a match) of bezique against bots (see the module docstring).

    Arguments:
        rules: a :class:`Rules` value or a rules string (``"rubicon"``, ``"classic(target=1500)"``).
        seat: the seat the agent plays.
        opponents: a bot name from :func:`bezique.bots.names`, a :class:`~bezique.bots.Bot`, or
            one of those per other seat (in seat order, the agent's seat left out).  Named bots
            are rebuilt at every reset with seeds drawn from the reset's seed.
        reward: ``"points"`` (the change in the side's margin, every step) or ``"result"``.
        episode: ``"deal"`` or ``"match"``.
        dealer: the dealer of each deal episode; None draws it from the seed.
        render_mode: None or ``"ansi"``.
        engine: ``"auto"`` plays deal episodes in the compiled engine (:mod:`bezique.fast`)
            when it is built and plays the rules, else in the reference core; ``"reference"``
            always uses the reference core.  Both give the same observations and rewards.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": ENV_ID}  # noqa: RUF012
    version = 1
    """Changes when the environment's behaviour, parameters or API change."""
    encoding_version = ENCODING_VERSION

    def __init__(
        self,
        rules: Rules | str = "classic",
        *,
        seat: int = 0,
        opponents: str | Bot | Sequence[str | Bot] = "random",
        reward: str = "points",
        episode: str = "deal",
        dealer: int | None = None,
        render_mode: str | None = None,
        engine: str = "auto",
    ) -> None:
        self.rules = as_rules(rules)
        n = self.rules.players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1}: got {seat}")
        if dealer is not None and not 0 <= dealer < n:
            raise ValueError(f"dealer must be 0 to {n - 1}: got {dealer}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi': got {render_mode!r}")
        self.seat = seat
        self.opponents = opponents
        self.reward_kind = check_choice("reward", reward, REWARDS)
        self.episode_kind = check_choice("episode", episode, EPISODES)
        self.dealer = dealer
        self.render_mode = render_mode
        self.engine = check_choice("engine", engine, ENGINES)
        make_bots(opponents, n - 1, [0] * (n - 1))  # fail early on a bad opponent spec
        self.encoding = Encoding.for_rules(self.rules)
        enc = self.encoding
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(enc.low, enc.high, (enc.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (enc.num_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(enc.num_actions)
        self._episode: Episode | None = None
        self._bots: dict[int, Bot] = {}
        self._value = 0.0

    # --- the Gymnasium API ---------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        n = self.rules.players
        deal_seed = int(rng.integers(2**62))
        dealer = self.dealer if self.dealer is not None else int(rng.integers(n))
        bot_seeds = [int(rng.integers(2**31)) for _ in range(n - 1)]
        others = [s for s in range(n) if s != self.seat]
        self._bots = dict(zip(others, make_bots(self.opponents, n - 1, bot_seeds), strict=True))
        self._episode = make_episode(self.rules, self.episode_kind, deal_seed, dealer, self.engine)
        self._play_bots()
        self._value = 0.0  # points scored before the agent's first move count in its first reward
        return self._observe()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        ep = self._episode
        if ep is None:
            raise RuntimeError("call reset() before step()")
        if ep.is_over:
            raise RuntimeError("the episode is over: call reset()")
        ep.apply_id(self.seat, self.encoding, int(action))
        self._play_bots()
        value = self._side_value()
        reward, self._value = value - self._value, value
        out, info = self._observe()
        return out, reward, ep.is_over, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._episode is None:
            return None
        return render_text(self._episode.observation(self.seat))

    def close(self) -> None:
        for bot in self._bots.values():
            bot.close()
        self._bots = {}

    # --- helpers -----------------------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """The legal-action mask of the current position (the name sb3-contrib's maskable
        algorithms look for)."""
        if self._episode is None:
            return np.zeros(self.encoding.num_actions, np.int8)
        return self._episode.legal_mask(self.seat, self.encoding)

    @property
    def episode(self) -> Episode:
        """The episode being played (its ``deal``, ``match`` and scores)."""
        return started(self._episode)

    def _side_value(self) -> float:
        assert self._episode is not None
        return self._episode.value(self.reward_kind)[self.rules.side_of(self.seat)]

    def _play_bots(self) -> None:
        ep = self._episode
        assert ep is not None
        while not ep.is_over and ep.to_move != self.seat:
            seat = ep.to_move
            assert seat is not None
            ep.bot_move(self._bots[seat])

    def _observe(self) -> tuple[ObsDict, dict[str, Any]]:
        ep = self._episode
        assert ep is not None
        enc = self.encoding
        legal = ep.legal_id_texts(self.seat, enc)
        mask = ep.legal_mask(self.seat, enc)
        info: dict[str, Any] = {
            "action_mask": mask.copy(),
            "legal": {i: text for i, text in legal},
            "scores": ep.scores(),
            "deals_finished": ep.deals_finished,
        }
        if ep.is_over:
            info["result"] = ep.result()
        return {"observation": ep.encode(self.seat, enc), "action_mask": mask}, info


class TerminateIllegal(gymnasium.Wrapper[ObsDict, ActType, ObsDict, ActType]):
    """Ends the episode with ``penalty`` when the agent picks an action that is not legal,
    instead of raising; the position is left as it was and ``info["illegal_action"]`` is True.

    This is a choice for training loops that sample unmasked actions; the wrapped env itself
    never accepts an illegal action.
    """

    def __init__(self, env: gymnasium.Env[ObsDict, ActType], penalty: float = -1.0) -> None:
        super().__init__(env)
        self.penalty = float(penalty)
        self._last: tuple[ObsDict, dict[str, Any]] | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._last = (obs, info)
        return obs, info

    def step(self, action: ActType) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._last is None:
            raise RuntimeError("call reset() before step()")
        obs, info = self._last
        a = int(action)
        if not 0 <= a < len(obs["action_mask"]) or not obs["action_mask"][a]:
            same = {k: v.copy() for k, v in obs.items()}
            return same, self.penalty, True, False, {**copy.deepcopy(info), "illegal_action": True}
        out = self.env.step(action)
        self._last = (out[0], out[4])
        return out


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (done when this module is imported)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:BeziqueEnv")


register()

__all__ = ["ENV_ID", "BeziqueEnv", "TerminateIllegal", "register"]
