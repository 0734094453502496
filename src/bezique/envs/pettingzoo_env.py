"""A PettingZoo AEC environment over every seat of a deal (or a match), for every preset.

::

    >>> from bezique.envs.pettingzoo_env import env as bezique_env
    >>> e = bezique_env(rules="three")
    >>> e.reset(seed=1)
    >>> for agent in e.agent_iter():
    ...     obs, reward, terminated, truncated, info = e.last()
    ...     action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
    ...     e.step(action)

Agents are ``player_0`` ... ``player_{n-1}`` (seat numbers).  *Observation*: a dict with
``observation`` (the ``float32`` tensor of :class:`~bezique.envs.encoding.Encoding`, from the
agent's seat) and ``action_mask`` (``int8``; all 0 when it is not the agent's turn).  *Action*:
an action id (``Discrete(num_actions)``); an id that is not legal raises
:class:`~bezique.core.notation.IllegalAction` (wrap the env in PettingZoo's
``TerminateIllegalWrapper`` for a penalty instead).  *Info*: ``legal`` (id -> notation) for the
agent to move.  Rewards are those of :mod:`bezique.envs.common`, given to every agent after
every step.  :class:`BotPolicy` lets a :mod:`bezique.bots` player choose for an agent.

Version history: 1 -- first version (encoding version 1); encoding version 2 since 2026-12-04
(a larger alternate block: the action spaces grew, every id keeps its meaning).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..bots import Bot
from ..core.notation import Action, IllegalAction
from ..core.observation import Observation
from ..core.rules import Rules
from .common import (
    ENGINES,
    EPISODES,
    REWARDS,
    Episode,
    as_rules,
    check_choice,
    make_episode,
    render_text,
    started,
)
from .encoding import ENCODING_VERSION, Encoding

ObsDict = dict[str, np.ndarray]


class BeziqueAECEnv(AECEnv[str, ObsDict, int | None]):  # type: ignore[misc]
    """All seats of a deal (or a match) of bezique, turn by turn (see the module docstring).

    Arguments:
        rules: a :class:`Rules` value or a rules string.
        reward: ``"points"`` or ``"result"``.
        episode: ``"deal"`` or ``"match"``.
        dealer: the dealer of each deal episode; None draws it from the seed.
        render_mode: None or ``"ansi"``.
        engine: ``"auto"`` (deal episodes in the compiled engine when it plays the rules) or
            ``"reference"``; the numbers are the same.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "bezique_v1",
        "is_parallelizable": False,
    }
    version = 1
    encoding_version = ENCODING_VERSION

    def __init__(
        self,
        rules: Rules | str = "classic",
        *,
        reward: str = "points",
        episode: str = "deal",
        dealer: int | None = None,
        render_mode: str | None = None,
        engine: str = "auto",
    ) -> None:
        super().__init__()
        self.rules = as_rules(rules)
        n = self.rules.players
        if dealer is not None and not 0 <= dealer < n:
            raise ValueError(f"dealer must be 0 to {n - 1}: got {dealer}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi': got {render_mode!r}")
        self.reward_kind = check_choice("reward", reward, REWARDS)
        self.episode_kind = check_choice("episode", episode, EPISODES)
        self.dealer = dealer
        self.render_mode = render_mode
        self.engine = check_choice("engine", engine, ENGINES)
        self.encoding = Encoding.for_rules(self.rules)
        enc = self.encoding
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(enc.low, enc.high, (enc.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (enc.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(enc.num_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._episode: Episode | None = None
        self._values = [0.0] * self.rules.sides

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the AEC API -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        n = self.rules.players
        deal_seed = int(self._rng.integers(2**62))
        dealer = self.dealer if self.dealer is not None else int(self._rng.integers(n))
        self._episode = make_episode(self.rules, self.episode_kind, deal_seed, dealer, self.engine)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._values = [0.0] * self.rules.sides
        seat = self._episode.to_move
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._update_infos()

    def observe(self, agent: str) -> ObsDict:
        ep = self.episode
        seat = self._seat[agent]
        enc = self.encoding
        return {"observation": ep.encode(seat, enc), "action_mask": ep.legal_mask(seat, enc)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        ep = self.episode
        if action is None:
            raise IllegalAction(f"{agent} is to move: None is only for agents that are done")
        ep.apply_id(self._seat[agent], self.encoding, int(action))
        self._cumulative_rewards[agent] = 0.0
        values = ep.value(self.reward_kind)
        side_of = self.rules.side_of
        self.rewards = {
            a: values[side_of(self._seat[a])] - self._values[side_of(self._seat[a])]
            for a in self.agents
        }
        self._values = values
        if ep.is_over:
            self.terminations = {a: True for a in self.agents}
        else:
            seat = ep.to_move
            assert seat is not None
            self.agent_selection = self.possible_agents[seat]
        self._update_infos()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._episode is None:
            return None
        seat = self._episode.to_move
        return render_text(self._episode.observation(0 if seat is None else seat))

    def close(self) -> None:
        return None

    # --- helpers -----------------------------------------------------------------------------------
    @property
    def episode(self) -> Episode:
        """The episode being played (its ``deal``, ``match`` and scores)."""
        return started(self._episode)

    def core_observation(self, agent: str) -> Observation:
        """The agent's :class:`~bezique.core.observation.Observation` (what bots read)."""
        return self.episode.observation(self._seat[agent])

    def action_id(self, agent: str, action: Action | str) -> int:
        """The id of one of the agent's legal actions (``ValueError`` if it is not legal)."""
        return self.encoding.action_id(self.core_observation(agent), action)

    def _update_infos(self) -> None:
        ep = self.episode
        over = ep.is_over
        for a in self.agents:
            info: dict[str, Any] = {"scores": ep.scores(), "deals_finished": ep.deals_finished}
            if a == self.agent_selection and not over:
                info["legal"] = dict(ep.legal_id_texts(self._seat[a], self.encoding))
            if over:
                info["result"] = ep.result()
            self.infos[a] = info


class BotPolicy:
    """A :mod:`bezique.bots` player as a PettingZoo policy: ``BotPolicy(bot)(env, agent)`` is
    the action id the bot chooses for the agent to move."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def __call__(self, env: BeziqueAECEnv, agent: str) -> int:
        obs = env.core_observation(agent)
        return env.encoding.action_id(obs, self.bot.choose(obs))


def env(**kwargs: Any) -> BeziqueAECEnv:
    """Build the AEC environment (PettingZoo's usual entry point); see :class:`BeziqueAECEnv`."""
    return BeziqueAECEnv(**kwargs)


__all__ = ["BeziqueAECEnv", "BotPolicy", "env"]
