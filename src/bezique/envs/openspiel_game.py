"""The game as an OpenSpiel Python game, ``python_bezique``: one deal, every variant.

::

    >>> import pyspiel
    >>> import bezique.envs.openspiel_game  # registers python_bezique
    >>> game = pyspiel.load_game("python_bezique(preset=rubicon)")
    >>> game.num_players(), game.num_distinct_actions() > 0
    (2, True)

Parameters
----------

``preset`` (a preset name, default ``classic``), ``dealer`` (default 0), ``utility``
(``points``, the default: each player's return is its side's deal-point margin, its points less
the mean of the other sides'; or ``result``: the winner +1 and each loser ``-1/(sides-1)``, as in
:mod:`bezique.envs.common`), ``engine`` (``auto``, the default: the deal runs in the compiled
engine, :mod:`bezique.fast`, when it is built and plays the rules, else in the reference core;
``reference``: always the reference core; the numbers are the same), and every option of :class:`~bezique.core.rules.Rules` by name.  An
option left at its sentinel (``-1`` for numbers and for true/false options, ``""`` for words)
takes the preset's value; true/false options are given as ``1``/``0``, and ``deal_packets`` as
its digits (``323`` for packets of 3, 2 and 3).  ``python_bezique(preset=classic,target=1500,double_marriage...)``: see
:func:`game_string`, which writes the string for any :class:`Rules` value.

Chance
------

The shuffle is explicit: the game starts with one chance node per card of the pack, each dealing
the next card from what is left, with probability proportional to the copies left of each kind
(outcome ``i`` is the ``i``-th kind of the kind axis of :class:`~bezique.envs.encoding.Encoding`).
The cards go, in this order, to seat 0's hand, seat 1's hand, ..., the turn-up (where the rules
have one; never a wild card, as when dealing by hand) and the stock, first card drawn first.
This is the same distribution as :meth:`Deal.new <bezique.core.deal.Deal.new>`.  After the deal
the game is deterministic (draws come from the stock dealt at the start).

Observations
------------

The observation tensor is :class:`~bezique.envs.encoding.Encoding`'s; the information-state
tensor adds, for perfect recall, the card(s) the seat received at each draw, the cards of every
completed trick (by relative seat) with its winner, and the declarations after each trick:

==============  ===========  ==================================================================
block           shape        meaning
==============  ===========  ==================================================================
(observation)   see encoding the observation tensor
drawn           R x K        card(s) the seat received at draw round ``r`` (R = stage-1 tricks)
trick_cards     T x n x K    card each seat played to trick ``t`` (T = tricks of a deal)
trick_winner    T x n        one-hot winner of trick ``t``
declarations    R x (M + 1)  melds (by meld kind) and exchanges (last column) after trick ``t``
==============  ===========  ==================================================================

The observation string is the seat's position string
(:meth:`Observation.to_string <bezique.core.observation.Observation.to_string>`) without the
history field; the information-state string is the whole position string followed by
``|drawn=`` and the seat's draws.  The public observer (``private_info=NONE``) uses the
spectator's view.  :meth:`BeziqueState.resample_from_infostate` deals the unseen cards again
with :meth:`Deal.from_observation <bezique.core.deal.Deal.from_observation>`, so OpenSpiel's
IS-MCTS (``open_spiel.python.algorithms.ismcts``) runs on the game; a resampled state is a
determinization with no chance history of its own (other seats' draws are unknown to it).

Version history: 1 -- first version (encoding version 1); 2 -- the ``engine`` parameter;
encoding version 2 since 2026-12-04 (a larger alternate block: ``num_distinct_actions`` grew,
every id keeps its meaning).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from ..bots import Bot
from ..core.deal import Deal
from ..core.events import EventKind
from ..core.notation import Action
from ..core.observation import Observation
from ..core.rules import Rules
from ..fast import FastDeal, available, supports
from .common import ENGINES, check_choice, deal_winners
from .encoding import Block, Encoding, max_points, outcome, relative_points

SHORT_NAME = "python_bezique"
VERSION = 2
"""Changes when the game's behaviour, parameters or API change."""
UTILITIES = ("points", "result")

_OPTION_FIELDS = {f.name: f for f in dataclasses.fields(Rules) if f.name != "name"}


def _sentinel(default: Any) -> Any:
    if isinstance(default, bool | int | tuple):
        return -1
    return ""


PARAMETERS: dict[str, Any] = {
    "preset": "classic",
    "dealer": 0,
    "utility": "points",
    "engine": "auto",
    **{name: _sentinel(f.default) for name, f in _OPTION_FIELDS.items()},
}
"""OpenSpiel parameter specification: name -> default (sentinels for the rules options)."""


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The :class:`Rules` an OpenSpiel parameter dict describes."""
    options: dict[str, Any] = {}
    for name, value in params.items():
        f = _OPTION_FIELDS.get(name)
        if f is None or value == _sentinel(f.default):
            continue
        if isinstance(f.default, bool):
            if value not in (0, 1):
                raise ValueError(f"option {name} is true/false: give 1 or 0, got {value!r}")
            value = bool(value)
        elif isinstance(f.default, tuple):
            if not isinstance(value, int) or value <= 0 or "0" in str(value):
                raise ValueError(f"option {name} is written as digits, e.g. 323: got {value!r}")
            value = tuple(int(v) for v in str(value))
        options[name] = value
    return Rules.preset(str(params.get("preset", "classic")), **options)


def params_for_rules(rules: Rules, **extra: Any) -> dict[str, Any]:
    """OpenSpiel parameters that load these rules (plus ``dealer``/``utility`` if given)."""
    out: dict[str, Any] = {"preset": rules.name, **extra}
    for name, value in rules.differences().items():
        if isinstance(value, bool):
            out[name] = int(value)
        elif isinstance(value, tuple):
            if any(not 1 <= v <= 9 for v in value):
                raise ValueError(f"{name}={value} cannot be an OpenSpiel parameter (digits 1-9)")
            out[name] = int("".join(str(v) for v in value))
        else:
            out[name] = value
    return out


def game_string(rules: Rules, **extra: Any) -> str:
    """The ``load_game`` string of these rules: ``python_bezique(preset=rubicon,target=2000)``."""
    params = params_for_rules(rules, **extra)
    return f"{SHORT_NAME}({','.join(f'{k}={v}' for k, v in params.items())})"


def load(rules: Rules | None = None, **extra: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` of these rules (classic when None), cached per rule set."""
    return _load(game_string(rules if rules is not None else Rules.preset("classic"), **extra))


@cache
def _load(text: str) -> pyspiel.Game:
    # keyed by the game string, so equal rules built apart share one game
    return pyspiel.load_game(text)


GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Bezique (Python, bezique package)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


class _Shared:
    """What every state of a game shares (never copied by ``clone``; pickled by its rules)."""

    def __init__(self, rules: Rules, dealer: int, utility: str, engine: str = "auto") -> None:
        self.rules = rules
        self.dealer = dealer
        self.utility = utility
        self.engine = engine
        self.fast = engine == "auto" and available() and supports(rules)
        """Whether deals run in the compiled engine (a :class:`FastDeal` in the state)."""
        self.encoding = Encoding.for_rules(rules)
        counts = [0] * len(self.encoding.kind_ids)
        for k in rules.pack_kinds:
            counts[self.encoding.kind_ids.index(k)] += 1
        self.counts = tuple(counts)
        self.wild = self.encoding.kinds.index("XX") if "XX" in self.encoding.kinds else -1
        self.turn_up_at = rules.players * rules.hand_size if rules.turn_up else -1

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_shared, (str(self.rules), self.dealer, self.utility, self.engine))

    def start(self, deal: Deal) -> Deal | FastDeal:
        """The deal a state plays: a compiled copy of ``deal`` where the engine is used, else a
        copy through its position string.  Both engines then number the copies of a kind alike
        (``Deal.from_cards`` and ``Deal.from_observation`` may number them otherwise, and an
        action such as ``play 9C`` with one known and one concealed 9C in hand would then play
        a different copy, so that what is known of the hand would differ)."""
        return FastDeal.from_deal(deal) if self.fast else Deal.from_position(deal.position())


@cache
def _shared(rules_text: str, dealer: int, utility: str, engine: str = "auto") -> _Shared:
    return _Shared(Rules.from_string(rules_text), dealer, utility, engine)


class _Cache:
    """Per-state memo of observations (dropped on copy)."""

    def __init__(self) -> None:
        self.obs: dict[int | None, Observation] = {}
        self.legal: list[int] | None = None
        self.text: dict[tuple[bool, bool, int], str] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cache:
        return _Cache()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Cache, ())


class BeziqueGame(pyspiel.Game):  # type: ignore[misc]
    """``python_bezique``: one deal of bezique under any rules (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**PARAMETERS, **(params or {})}
        rules = rules_from_params(given)
        dealer = int(given["dealer"])
        if not 0 <= dealer < rules.players:
            raise ValueError(f"dealer must be 0 to {rules.players - 1}: got {dealer}")
        utility = check_choice("utility", str(given["utility"]), UTILITIES)
        engine = check_choice("engine", str(given["engine"]), ENGINES)
        enc = Encoding.for_rules(rules)
        bound = 1.0 if utility == "result" else 2.0 * max_points(rules) + 100.0
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.num_actions,
            max_chance_outcomes=len(enc.kind_ids),
            num_players=rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=rules.players * rules.tricks
            + rules.stage1_tricks * (rules.melds_scored_per_trick + 3),
        )
        super().__init__(GAME_TYPE, info, params or {})
        self.rules = rules
        """The rules of the game."""
        self.encoding = enc
        """Observation layout and action ids."""
        self.shared = _shared(str(rules), dealer, utility, engine)

    def new_initial_state(self) -> BeziqueState:
        """The start of a deal: chance nodes deal the cards."""
        return BeziqueState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> BeziqueObserver:
        """The observer OpenSpiel uses for observation and information-state tensors."""
        return BeziqueObserver(
            self.shared, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )

    def state_from_observation(
        self, obs: Observation, rng: random.Random | int | None = None
    ) -> BeziqueState:
        """A state consistent with a seat's observation (the unseen cards dealt at random):
        how a :mod:`bezique.bots` observation becomes an OpenSpiel state to search from."""
        state = BeziqueState(self)
        state._dealt = None
        state._deal = self.shared.start(Deal.from_observation(obs, rng))
        state._drawn = [None] * self.rules.players
        state._snap = [Counter(state._deal.hand(s)) for s in range(self.rules.players)]
        return state


class BeziqueState(pyspiel.State):  # type: ignore[misc]
    """A point in a deal: first the chance nodes of the shuffle, then the players' decisions."""

    def __init__(self, game: BeziqueGame) -> None:
        super().__init__(game)
        self._shared: _Shared = game.shared
        self._dealt: list[int] | None = []
        """Chance outcomes so far (kind-axis indices); None for a rebuilt state."""
        self._deal: Deal | FastDeal | None = None
        """The deal after the chance nodes: a :class:`FastDeal` on the compiled engine."""
        self._drawn: list[list[str] | None] = [[] for _ in range(game.rules.players)]
        """Per seat, the cards it received at each draw (None: unknown, in a rebuilt state)."""
        self._snap: list[Counter[str]] = []
        self._memo = _Cache()

    # --- the core's view ------------------------------------------------------------------------
    @property
    def deal(self) -> Deal | None:
        """The deal once the cards are dealt (None during the chance nodes); on the compiled
        engine a reference copy (changing it changes nothing here)."""
        deal = self._deal
        return deal.to_deal() if isinstance(deal, FastDeal) else deal

    @property
    def on_fast_engine(self) -> bool:
        """Whether this state's deal runs in the compiled engine (:mod:`bezique.fast`)."""
        return isinstance(self._deal, FastDeal)

    def observation_for(self, seat: int | None) -> Observation:
        """What ``seat`` sees (None: the spectator's view); only after the deal."""
        memo = self._memo.obs
        obs = memo.get(seat)
        if obs is None:
            if self._deal is None:
                raise ValueError("the cards are still being dealt")
            obs = memo[seat] = self._deal.observation(seat)
        return obs

    def drawn(self, seat: int) -> list[str] | None:
        """The cards ``seat`` received at each draw so far (codes joined per draw), or None
        where they are unknown (a resampled state, for other seats)."""
        log = self._drawn[seat]
        return None if log is None else list(log)

    # --- the OpenSpiel API ------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self._deal.to_move
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def is_terminal(self) -> bool:
        return self._deal is not None and self._deal.is_over

    def _legal_actions(self, player: int) -> list[int]:
        if self._deal is None or self._deal.to_move != player:
            return []
        memo = self._memo
        if memo.legal is None:
            memo.legal = self._deal.legal_ids()
        return list(memo.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = self._dealt
        if self._deal is not None or dealt is None:
            return []
        sh = self._shared
        left = list(sh.counts)
        for i in dealt:
            left[i] -= 1
        if len(dealt) == sh.turn_up_at and sh.wild >= 0:
            left[sh.wild] = 0  # a wild card is never the turn-up
        total = sum(left)
        return [(i, c / total) for i, c in enumerate(left) if c]

    def _apply_action(self, action: int) -> None:
        self._memo = _Cache()
        sh = self._shared
        if self._deal is None:
            assert self._dealt is not None
            self._dealt.append(int(action))
            if len(self._dealt) == sh.rules.cards:
                self._start()
            return
        deal = self._deal
        stock, up = deal.stock_size, deal.turn_up
        deal.apply_id(int(action))  # the core's own ids: no observation or notation on the way
        if deal.stock_size < stock or (up is not None and deal.turn_up is None):
            self._record_draws()

    def _start(self) -> None:
        sh, dealt = self._shared, self._dealt
        assert dealt is not None
        rules, kinds = sh.rules, sh.encoding.kinds
        codes = [kinds[i] for i in dealt]
        h, n = rules.hand_size, rules.players
        hands = [codes[s * h : (s + 1) * h] for s in range(n)]
        rest = codes[n * h :]
        turn_up = rest.pop(0) if rules.turn_up else None
        self._deal = sh.start(Deal.from_cards(rules, hands, turn_up, rest, sh.dealer))
        self._snap = [Counter(self._deal.hand(s)) for s in range(n)]

    def _record_draws(self) -> None:
        deal = self._deal
        assert deal is not None
        for s in range(self._shared.rules.players):
            now = Counter(deal.hand(s))
            got = now - self._snap[s]
            self._snap[s] = now
            log = self._drawn[s]
            if log is not None:
                log.append(".".join(sorted(got.elements())))

    def _action_to_string(self, player: int, action: int) -> str:
        sh = self._shared
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {sh.encoding.kinds[int(action)]}"
        if self._deal is not None and self._deal.to_move == player:
            for i, text in sh.encoding.legal_ids(self.observation_for(player)):
                if i == action:
                    return text
        return sh.encoding.describe(int(action))

    def returns(self) -> list[float]:
        deal = self._deal
        sh = self._shared
        n = sh.rules.players
        if deal is None or not deal.is_over:
            return [0.0] * n
        if sh.utility == "points":
            values = relative_points(deal.points)
        else:
            ref = deal.to_deal() if isinstance(deal, FastDeal) else deal
            values = outcome(deal_winners(ref), sh.rules.sides)
        return [values[sh.rules.side_of(p)] for p in range(n)]

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> BeziqueState:
        """A state ``player`` cannot tell from this one: same information state, the unseen
        cards dealt again (:meth:`Deal.from_observation`); ``probability_sampler()`` seeds it."""
        if self._deal is None:
            raise ValueError("no information state to resample from while dealing")
        seed = int(float(probability_sampler()) * 2.0**52)
        game: BeziqueGame = self.get_game()
        new = game.state_from_observation(self.observation_for(player), random.Random(seed))
        new._drawn = [self.drawn(s) if s == player else None for s in range(len(self._drawn))]
        return new

    def __str__(self) -> str:
        if self._deal is None:
            kinds = self._shared.encoding.kinds
            return "dealing: " + " ".join(kinds[i] for i in self._dealt or ())
        return self._deal.position()


class BeziqueObserver:
    """OpenSpiel's observer for ``python_bezique`` (see the module docstring for the layouts)."""

    def __init__(
        self, shared: _Shared, iig_obs_type: pyspiel.IIGObservationType, params: Any
    ) -> None:
        if params:
            raise ValueError(f"python_bezique observers take no parameters: got {params}")
        private = iig_obs_type.private_info
        if not iig_obs_type.public_info or private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "python_bezique observes public information with one player's private "
                "information (or none): other observation types are not provided"
            )
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.shared = shared
        enc = shared.encoding
        rules = shared.rules
        n, K, M = rules.players, len(enc.kind_ids), len(enc.meld_names)
        R, T = rules.stage1_tricks, rules.tricks
        blocks = list(enc.blocks)
        offset = enc.size
        if self.perfect_recall:
            for name, shape, doc in (
                ("drawn", (R, K), "cards received at each draw"),
                ("trick_cards", (T, n, K), "card each seat played to each trick"),
                ("trick_winner", (T, n), "winner of each trick"),
                ("declarations", (R, M + 1), "melds and exchanges after each trick"),
            ):
                b = Block(name, offset, shape, 1.0, doc)
                blocks.append(b)
                offset += b.size
        self.blocks = tuple(blocks)
        self.tensor = np.zeros(offset, np.float32)
        self.dict = {
            b.name: self.tensor[b.offset : b.offset + b.size].reshape(b.shape) for b in blocks
        }

    def _obs(self, state: BeziqueState, player: int) -> Observation:
        return state.observation_for(None if self.public_only else player)

    def set_from(self, state: BeziqueState, player: int) -> None:
        """Write ``player``'s view of ``state`` into :attr:`tensor`."""
        self.tensor.fill(0.0)
        deal = state._deal
        if deal is None:
            return
        enc = self.shared.encoding
        if isinstance(deal, FastDeal) and not self.public_only and not self.perfect_recall:
            deal.encode(player, self.tensor[: enc.size], enc)  # in C, no observation built
            return
        obs = self._obs(state, player)
        enc.encode(obs, self.tensor[: enc.size], seat=player)
        if not self.perfect_recall:
            return
        n = self.shared.rules.players
        ki = {c: i for i, c in enumerate(enc.kinds)}
        if not self.public_only:
            drawn = self.dict["drawn"]
            for r, cards in enumerate(state.drawn(player) or ()):
                for c in filter(None, cards.split(".")):
                    drawn[r, ki[c]] += 1
        cards_, winners = self.dict["trick_cards"], self.dict["trick_winner"]
        for t, (leader, cs, w) in enumerate(obs.tricks):
            for j, c in enumerate(cs):
                cards_[t, (leader + j - player) % n, ki[c]] = 1
            winners[t, (w - player) % n] = 1
        decl = self.dict["declarations"]
        col = {name: i for i, name in enumerate(enc.meld_names)}
        exch = len(enc.meld_names)
        for e in obs.events:
            t = e.trick
            if t < 1 or t > decl.shape[0]:
                continue
            if e.kind is EventKind.MELD:
                m = col.get(e.meld)
                if m is not None:
                    decl[t - 1, m] += 1
            elif e.kind is EventKind.EXCHANGE:
                decl[t - 1, exch] += 1

    def string_from(self, state: BeziqueState, player: int) -> str:
        """``player``'s view of ``state`` as text (see the module docstring)."""
        if state._deal is None:
            return f"seat {player}: {len(state._dealt or ())} cards dealt"
        key = (self.public_only, self.perfect_recall, player)
        memo = state._memo.text
        text = memo.get(key)
        if text is None:
            text = memo[key] = self._string(state, player)
        return text

    def _string(self, state: BeziqueState, player: int) -> str:
        text = self._obs(state, player).to_string()
        if not self.perfect_recall:
            return "|".join(p for p in text.split("|") if not p.startswith("history="))
        if self.public_only:
            return text
        log = state.drawn(player)
        return text + "|drawn=" + ("?" if log is None else ",".join(log))


class BotAgent(pyspiel.Bot):  # type: ignore[misc]
    """A :mod:`bezique.bots` player as an OpenSpiel bot (``pyspiel.Bot``) for one player."""

    def __init__(self, player: int, bot: Bot) -> None:
        pyspiel.Bot.__init__(self)
        self.player = player
        self.bot = bot

    def step(self, state: BeziqueState) -> int:
        obs = state.observation_for(state.current_player())
        return state._shared.encoding.action_id(obs, self.bot.choose(obs))

    def restart_at(self, state: BeziqueState) -> None:
        return None

    def inform_action(self, state: BeziqueState, player_id: int, action: int) -> None:
        return None

    def provides_policy(self) -> bool:
        return False


def action_for(state: BeziqueState, action_id: int) -> Action:
    """The core :class:`Action` of a legal action id in a state."""
    seat = state.current_player()
    return state._shared.encoding.action(state.observation_for(seat), action_id)


pyspiel.register_game(GAME_TYPE, BeziqueGame)

__all__ = [
    "GAME_TYPE",
    "PARAMETERS",
    "SHORT_NAME",
    "BeziqueGame",
    "BeziqueObserver",
    "BeziqueState",
    "BotAgent",
    "action_for",
    "game_string",
    "load",
    "params_for_rules",
    "rules_from_params",
]
