"""The compiled twin of the rules core: the same deals, played in C.

The Python core (:mod:`bezique.core`) stays the reference that defines the rules; this package
plays the same state machine in a C extension for batch simulation and search, and is tested
in lockstep against the reference (``tests/test_fast.py``, ``scripts/fast_differential.py``).

>>> from bezique import Deal, Rules
>>> from bezique import fast
>>> if fast.available():
...     f = fast.FastDeal.from_deal(Deal.new(Rules.preset("classic"), seed=7))
...     f.stock_size
47

It plays every rule option of the core, wild cards included, so every preset (packs of more than
320 cards and hands over 38 apart); :class:`UnsupportedRules` names the option it cannot play,
so a caller can fall
back to the reference core.  Without a C compiler at install time the extension is missing,
:func:`available` is False and everything runs on the reference core.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..core.deal import Deal, SideResult
from ..core.events import ScoreEvent
from ..core.notation import Action, IllegalAction
from ..core.observation import Observation
from ..core.rules import Rules
from ._config import UnsupportedRules, check_supported, config, id_table
from ._convert import load_args
from .dealike import DealLike
from .smart import check_params

if TYPE_CHECKING:
    from ._engine import Config, Core

try:
    from . import _engine
except ImportError:  # built without a C compiler
    _engine = None  # type: ignore[assignment]
else:
    _engine.set_types(Action, IllegalAction)

RngLike = random.Random | int | None
"""What :meth:`FastDeal.resample` draws from: a seed, a generator, or None (a fresh seed)."""

_PHASES = ("play", "declare", "over")


def available() -> bool:
    """True when the compiled engine is built and importable."""
    return _engine is not None


def supports(rules: Rules) -> bool:
    """True when the compiled engine is available and plays these rules."""
    if _engine is None:
        return False
    try:
        check_supported(rules)
    except UnsupportedRules:
        return False
    return True


def _need_engine() -> Any:
    if _engine is None:
        raise RuntimeError(
            "the compiled engine is not built (no C compiler at install time): "
            "use the reference core, bezique.Deal"
        )
    return _engine


def _config(rules: Rules) -> Config:
    compiled: Config = config(rules, _need_engine())
    return compiled


def _install_ids(rules: Rules) -> None:
    """Give the compiled rules the action-id table (once; it may take a moment to build)."""
    _config(rules).set_ids(*id_table(rules))


class FastDeal:
    """One deal in the compiled engine, with the surface of :class:`bezique.core.Deal`.

    Build it with :meth:`from_deal` (or :meth:`new`).  Reading the state, the legal actions,
    their ids and applying actions run in C; :meth:`observation`, :meth:`position`,
    :attr:`history` and the text of an illegal action's error are produced by the reference
    core, replaying this deal's actions on a reference copy (slower, exact by construction).
    """

    __slots__ = ("_c", "_origin", "_origin_core", "_ref", "_sync", "dealer", "rules")

    rules: Rules
    dealer: int
    _c: Core
    _origin: str | Callable[[], str]
    _origin_core: Core
    _ref: Deal | None
    _sync: Any

    def __init__(self) -> None:
        raise TypeError("build a FastDeal with FastDeal.from_deal(deal) or FastDeal.new(rules)")

    # --- construction ------------------------------------------------------------------------
    @classmethod
    def from_deal(cls, deal: Deal) -> FastDeal:
        """A fast copy of a reference deal, in any state (through its full position string).

        Raises :class:`UnsupportedRules` for rules the engine does not play."""
        rules = deal.rules
        cfg = _config(rules)
        position = deal.position()
        dealer, hands, turn_up, stock, fields = load_args(rules, position)
        core = _engine.Core.load(cfg, dealer, hands, turn_up, stock, fields)
        return cls._wrap(rules, dealer, core, position, core.clone())

    @classmethod
    def from_position(cls, text: str) -> FastDeal:
        """A fast deal from a full position string (as :meth:`Deal.from_position`)."""
        return cls.from_deal(Deal.from_position(text))

    @classmethod
    def new(cls, rules: Rules, seed: int | None = None, dealer: int = 0) -> FastDeal:
        """The deal ``Deal.new(rules, seed, dealer)`` deals, in the compiled engine."""
        return cls.from_deal(Deal.new(rules, seed=seed, dealer=dealer))

    @classmethod
    def _wrap(
        cls, rules: Rules, dealer: int, core: Any, origin: str | Callable[[], str], origin_core: Any
    ) -> FastDeal:
        f = object.__new__(cls)
        f.rules = rules
        f.dealer = dealer
        f._c = core
        f._origin = origin
        f._origin_core = origin_core
        f._ref = None
        f._sync = None
        return f

    def clone(self) -> FastDeal:
        """An independent copy."""
        return self._wrap(self.rules, self.dealer, self._c.clone(), self._origin, self._origin_core)

    __copy__ = clone

    def __deepcopy__(self, memo: dict[int, Any]) -> FastDeal:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its full position string, which holds the whole state and its history
        return (_from_position, (self.position(),))

    def __repr__(self) -> str:
        info = self._c.info()
        return f"<FastDeal {self.rules} trick {info['tricks'] + 1} {self.phase} to {self.to_move}>"

    # --- the reference twin, for the slow paths ----------------------------------------------
    def to_deal(self) -> Deal:
        """A reference :class:`Deal` in the same state (rebuilt from the position this deal
        started from, with every action since replayed)."""
        return self._reference().clone()

    def _reference(self) -> Deal:
        if self._ref is None:
            if not isinstance(self._origin, str):
                self._origin = self._origin()
            self._ref = Deal.from_position(self._origin)
            self._sync = self._origin_core
        ref = self._ref
        for text in self._c.replay(self._sync):
            ref.apply(text)
        self._sync = self._c.clone()
        return ref

    # --- state ---------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        """Seat whose decision it is; None once the deal is over."""
        return self._c.to_move

    @property
    def phase(self) -> str:
        """'play', 'declare' or 'over'."""
        return self._c.phase

    @property
    def is_over(self) -> bool:
        """True once every trick has been played and the points are final."""
        return self._c.is_over

    @property
    def trump(self) -> str | None:
        """Trump suit letter, or None while not fixed."""
        return self._c.trump

    @property
    def stock_size(self) -> int:
        """Face-down cards left to draw (the turn-up not counted)."""
        return self._c.stock_size

    @property
    def points(self) -> list[int]:
        """Points per side so far, as :attr:`Deal.points`."""
        return self._c.points()

    @property
    def result(self) -> list[SideResult] | None:
        """Per side, the breakdown of the points; None until the deal is over."""
        if not self._c.is_over:
            return None
        parts = self._c.parts()
        if self.rules.brisques_only_to_settle:
            return [SideResult(m, 0, lt, b, t) for m, t, lt, b in parts]
        return [SideResult(m, t, lt, b) for m, t, lt, b in parts]

    @property
    def stage(self) -> int:
        """1 while the stock lasts, 2 for the last tricks."""
        return self._c.info()["stage"]

    @property
    def leader(self) -> int:
        """Seat that led (or is to lead) the current trick."""
        return self._c.info()["leader"]

    @property
    def turn_up(self) -> str | None:
        """The face-up trump card under the stock (None once taken, or without one)."""
        k = self._c.info()["turn_up"]
        return None if k < 0 else _CODES[k]

    @property
    def trick(self) -> list[tuple[int, str]]:
        """The trick in progress: (seat, card) in play order."""
        return self._c.info()["trick"]

    @property
    def tricks_played(self) -> int:
        """Completed tricks."""
        return self._c.info()["tricks"]

    @property
    def last_trick_winner(self) -> int | None:
        """Seat that won the most recent trick."""
        w = self._c.info()["last_winner"]
        return None if w < 0 else w

    @property
    def history(self) -> list[str]:
        """Every action applied so far, in notation (from the reference twin)."""
        return self._reference().history

    @property
    def events(self) -> list[ScoreEvent]:
        """Scoring events (from the reference twin)."""
        return self._reference().events

    def hand(self, seat: int) -> list[str]:
        """Every card the seat holds, concealed and declared, as sorted codes."""
        return self._c.cards(seat, 0)

    def table(self, seat: int) -> list[str]:
        """The seat's declared cards on the table, as sorted codes."""
        return self._c.cards(seat, 1)

    def known(self, seat: int) -> list[str]:
        """The seat's concealed cards that every player knows it holds, as sorted codes."""
        return self._c.cards(seat, 2)

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat."""
        return self.rules.side_of(seat)

    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may know (None: the public view); made by the reference twin."""
        return self._reference().observation(seat)

    def position(self) -> str:
        """The full one-line position string (made by the reference twin)."""
        return self._reference().position()

    # --- actions -------------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every distinct legal action, in the reference core's order."""
        return self._c.legal_actions()

    def legal_ids(self) -> list[int]:
        """The legal actions as ids of the rules' action-id space, ascending."""
        if not self._c.ids_ready:
            _install_ids(self.rules)
        return self._c.legal_ids()

    def listed_ids(self) -> list[int]:
        """The ids of the legal actions in the order :meth:`legal_actions` lists them (the
        order of an observation's ``legal_ids``)."""
        by_action = {a: i for i, a in self.legal_id_actions()}
        return [by_action[a] for a in self.legal_actions()]

    def legal_id_actions(self) -> list[tuple[int, Action]]:
        """The legal actions with their ids, ascending by id."""
        if not self._c.ids_ready:
            _install_ids(self.rules)
        return self._c.legal_pairs()

    def apply_id(self, action_id: int) -> None:
        """Apply the legal action with this id; :class:`IllegalAction` with the reference
        core's message (the deal unchanged) if it is not one."""
        if not self._c.ids_ready:
            _install_ids(self.rules)
        try:
            self._c.apply_id(action_id)
        except IllegalAction:
            self._reference().id_action(action_id)  # raises with the reference's words
            raise

    def id_action(self, action_id: int) -> Action:
        """The legal action with this id here; :class:`IllegalAction` if there is none."""
        for i, a in self.legal_id_actions():
            if i == action_id and type(action_id) is not bool:
                return a
        return self._reference().id_action(action_id)  # raises with the reference's words

    def action_id(self, action: Action | str) -> int:
        """The id of a legal action (or its notation) here; :class:`IllegalAction` if it is
        not legal."""
        if isinstance(action, str):
            action = Action.parse(action)
        for i, a in self.legal_id_actions():
            if a == action:
                return i
        return self._reference().action_id(action)  # loose notation, or the reference's error

    def apply(self, action: Action | str) -> None:
        """Apply an action (or its notation) for the seat to move.

        Raises :class:`IllegalAction` with the reference core's message, and leaves the deal
        unchanged, if it is not legal."""
        if self._c.is_over:
            raise IllegalAction("the deal is over: no more actions")
        if isinstance(action, str):
            text = str(Action.parse(action))
        elif isinstance(action, Action):
            text = str(action)
        else:
            raise IllegalAction(f"not an action: {action!r}")
        texts = self._c.legal_texts()
        if text not in texts:
            # written loosely, or illegal: the reference decides, and words the error
            probe = self._reference().clone()
            probe.apply(action)
            text = probe.history[-1]
            if text not in texts:
                raise RuntimeError(
                    f"the compiled engine disagrees with the reference core on {text!r}; "
                    f"please report it with the position {self.position()}"
                )
        self._c.apply_index(texts.index(text))

    # --- for the environments (bezique.envs) ---------------------------------------------------
    def legal_texts(self) -> list[str]:
        """The legal actions in notation, in the reference core's order."""
        return self._c.legal_texts()

    def legal_id_texts(self) -> list[tuple[int, str]]:
        """The legal actions in notation with their ids, ascending by id."""
        if not self._c.ids_ready:
            _install_ids(self.rules)
        return self._c.legal_id_texts()

    def apply_index(self, index: int) -> None:
        """Apply the ``index``-th action of :meth:`legal_texts` (``IndexError`` if none)."""
        self._c.apply_index(index)

    def concealed(self, seat: int) -> list[str]:
        """The seat's concealed cards (its hand less its table), as sorted codes."""
        return self._c.cards(seat, 3)

    def encode(self, seat: int, out: Any, encoding: Any) -> Any:
        """Fill ``out`` (a ``float32`` vector) with ``encoding.encode(self.observation(seat))``
        for a :class:`bezique.envs.encoding.Encoding` of these rules, written in C without
        building the observation; returns ``out``."""
        cfg = _config(self.rules)
        if not cfg.encoding_ready:
            cfg.set_encoding(*_layout(encoding))
        self._c.encode(seat, out)
        return out

    # --- search ---------------------------------------------------------------------------------
    def playout(self, policy: str = "random", seed: int = 0) -> list[int]:
        """Points per side at the end of the deal played on from here inside C with a named
        default policy, this deal left as it is: ``'random'`` (uniform among the legal
        actions), ``'heuristic'`` (the search players' rules of thumb,
        :func:`bezique.bots.playout.playout_action`, ported) or ``'meld'`` (the same, but a
        stage-1 trick is worth half the best declaration its winner could then make, as the
        ``heuristic`` player counts it, instead of a flat 8 points), ``'smart'`` (the
        ``heuristic`` player's stage-1 rules of thumb in two-handed games: its keep values,
        trumps and aces kept for the end of the stock, safe leads to a wanted trick); the
        ``'-exact'`` forms leave out the randomness."""
        return self._c.playout(policy, seed & ((1 << 64) - 1))

    def rollout(
        self,
        side: int,
        seed: int = 0,
        smart_params: Sequence[float] | None = None,
        solver_nodes: int = 20_000,
        seat: int | None = None,
    ) -> float:
        """The margin for ``side`` of one playout from here (given ``seat``, from a world dealt
        again for that seat as :meth:`resample` deals it, from the same ``seed``) as the
        search players make theirs (this deal left as it is): the ``'smart'`` policy with ``smart_params`` (None: the
        heuristic player's rules of thumb; :func:`bezique.bots.learned.learned_params` for the
        ``expert`` level's) for every seat, no uniform move, the exact stage-2 solver from the
        first trick of stage 2 while it needs at most ``solver_nodes`` nodes (0: never).  From a
        seat's worlds, the mean of many is the value the search's playouts give the seat's
        position: a target for a value model of the search's own playouts.  The worlds start
        from this state's arrangement of the unseen cards, so for values that read only the
        seat's view build this deal from its observation (``Deal.from_observation``), as the
        search players build theirs."""
        return self._c.rollout(
            side,
            seed & ((1 << 64) - 1),
            None if smart_params is None else check_params(smart_params),
            solver_nodes,
            -1 if seat is None else seat,
        )

    def resample(
        self, seat: int, rng: RngLike = None, bias: Sequence[float] | None = None
    ) -> FastDeal:
        """A deal ``seat`` cannot tell from this one (:meth:`Deal.resample`, in C): every card it
        has not seen (the other seats' concealed cards that nobody knows, and the stock) is dealt
        again at random among the places it could be; everything else is unchanged.  ``rng``: a
        seed (an int, the same world each time), a ``random.Random`` to draw one from, or None
        (a fresh one).  ``bias`` (see :func:`check_bias`; None: uniform) weighs the other seats'
        places: each of their unseen cards is drawn from the pool with chance proportional to
        its kind's weight, one after another, and the stock takes the rest (made for two hands:
        with more, the seats' places are filled in seat order, the first taking the heavy kinds
        first).

        Its reference twin (for :meth:`observation` and the other slow paths) is this deal's
        position with the hidden cards replaced, built only if asked for."""
        if isinstance(rng, bool) or not isinstance(rng, int | random.Random | None):
            raise TypeError(f"rng must be a seed, a random.Random or None, not {rng!r}")
        seed = rng if isinstance(rng, int) else (rng or random.Random()).getrandbits(64)
        core = self._c.determinize(seat, seed & ((1 << 64) - 1), check_bias(bias))
        parent = self.clone()

        def origin() -> str:
            hands, deck = core_at_start.hidden()
            fields = parent.position().split("|")
            for i, part in enumerate(fields):
                if part.startswith("hands="):
                    fields[i] = "hands=" + "/".join(",".join(h) for h in hands)
                elif part.startswith("deck="):
                    fields[i] = "deck=" + ",".join(deck)
            return "|".join(fields)

        core_at_start = core.clone()
        return self._wrap(self.rules, self.dealer, core, origin, core_at_start)

    def solve(self, side: int, max_nodes: int | None = None) -> dict[str, float] | None:
        """The exact stage-2 solver (:class:`bezique.bots.solver.Endgame`, in C): per card the
        seat to move may play, the margin for ``side`` of the tricks left against best play,
        every hand known.  None if more than ``max_nodes`` nodes would be needed;
        ``ValueError`` before stage 2."""
        return self._c.solve(side, max_nodes or 0)

    def value_features(self, seat: int) -> list[float]:
        """The learned evaluation's inputs (:func:`bezique.bots.value.features`) read from
        ``seat``'s view of this state in C; ``ValueError`` on rules where tricks score other
        than by aces and tens."""
        return self._c.value(seat)

    def value(self, seat: int, packed: bytes) -> float:
        """The value model ``packed`` (:meth:`bezique.bots.value.ValueModel.packed`) of
        :meth:`value_features`: the expected final margin of ``seat``'s side."""
        return self._c.value(seat, packed)

    def smart_features(
        self, smart_params: Sequence[float] | None = None
    ) -> tuple[list[float], list[list[float]]] | None:
        """The ``'smart'`` policy's view of the card to play, for fitting its learned terms:
        for each of :meth:`legal_actions`, its value with ``smart_params`` (None: the heuristic
        player's; the policy plays the first of the highest) and its
        :data:`~bezique.fast.smart.LEARNED_FEATURES`.  None where the smart rules do not choose
        (a declaration, stage 2, other than two hands, a wild card).  Both read only what the
        seat to move sees."""
        params = None if smart_params is None else check_params(smart_params)
        return self._c.smart_features(params)


_CODES = [*(r + s for s in "SHDC" for r in "ATKQJ987"), "XX"]
_BLOCKS = [
    "hand",
    "table",
    "table_class",
    "known",
    "played",
    "trick",
    "leader",
    "melds_scored",
    "exchanges",
    "live_melds",
    "carte_blanche",
    "trump",
    "turn_up",
    "stock",
    "hand_sizes",
    "points",
    "phase",
    "stage",
    "to_move",
    "dealer",
    "declared",
    "exchanged",
    "tricks_won",
]  # in the order of encode.c's EB_ values


def _from_position(text: str) -> FastDeal:
    """A :class:`FastDeal` from a full position string (unpickling)."""
    return FastDeal.from_position(text)


def _layout(encoding: Any) -> tuple[int, list[int], list[int], list[int], list[int]]:
    """The observation layout of an Encoding as ``Config.set_encoding`` takes it."""
    from ..core.melds import MELD_CLASSES as classes
    from ..core.melds import MELDS

    blocks = encoding.block
    offsets = [blocks[b].offset if b in blocks else -1 for b in _BLOCKS]
    kind = [-1] * 33
    for i, k in enumerate(encoding.kind_ids):
        kind[k] = i
    names = list(encoding.meld_names)
    col, klass = [-1] * 64, [-1] * 64
    for m in MELDS:
        col[m.id] = names.index(m.name) if m.name in names else -1
        klass[m.id] = classes.index(m.klass) if m.klass in classes else -1
    return encoding.size, offsets, kind, col, klass


def simulate(rules: Rules, n: int, seed: int = 0, policy: str = "random") -> Any:
    """Play ``n`` whole deals inside C (dealers taking turns, each deal shuffled from the seed
    and its number) and return the points per side per deal: a numpy ``int64`` array of shape
    ``(n, sides)`` when numpy is installed, else a list of lists.

    ``policy``: ``'random'`` (uniform among the legal actions), ``'heuristic'`` (the search
    players' default policy) or ``'meld'`` (the same with a stage-1 trick worth the declaration
    it opens), see :meth:`FastDeal.playout`."""
    engine = _need_engine()
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n must be a whole number of deals, at least 0: got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number: got {seed!r}")
    raw = engine.simulate(_config(rules), n, seed & ((1 << 64) - 1), policy)
    sides = rules.sides
    try:
        import numpy as np
    except ImportError:
        import array

        flat = array.array("q", raw).tolist()
        return [flat[i : i + sides] for i in range(0, len(flat), sides)]
    return np.frombuffer(raw, dtype=np.int64).reshape(n, sides).copy()


def duel(
    rules: Rules,
    decks: int,
    seed: int,
    a: Sequence[float],
    b: Sequence[float],
    solver_nodes: int = 20_000,
) -> list[tuple[float, float]]:
    """Weights ``a`` against weights ``b``, both playing the ``'smart'`` policy with no random
    move, on ``decks`` mirrored decks of these two-handed rules (each shuffled in C from
    ``seed`` and its number, the dealers taking turns): for each deck, A's margin (its points
    less B's) with A in seat 0 and then, the same cards dealt again, in seat 1.  From the first
    trick of stage 2 a deal's value is the exact solver's (both sides playing it perfectly, as
    every level does), while it needs at most ``solver_nodes`` nodes."""
    engine = _need_engine()
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 0:
        raise ValueError(f"decks must be a whole number, at least 0: got {decks!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number: got {seed!r}")
    if isinstance(solver_nodes, bool) or not isinstance(solver_nodes, int) or solver_nodes < 0:
        raise ValueError(f"solver_nodes must be a whole number, at least 0: got {solver_nodes!r}")
    if rules.players != 2:
        raise ValueError(f"a duel needs two-handed rules: these have {rules.players} hands")
    raw = engine.duel(
        _config(rules),
        decks,
        seed & ((1 << 64) - 1),
        check_params(a),
        check_params(b),
        solver_nodes,
    )
    import array

    flat = array.array("d", raw).tolist()
    return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]


def check_bias(bias: Sequence[float] | None) -> tuple[float, ...] | None:
    """A world bias (:meth:`FastDeal.resample`) as a tuple of floats, or ``ValueError``
    saying what is wrong with it: one weight for each card kind (``ALL_KINDS``, the wild card
    included), each above 0 and at most 1e12; what matters is how the weights compare, so
    ``exp`` of a log-odds each.  None stays None (uniform worlds)."""
    if bias is None:
        return None
    from ..core.cards import ALL_KINDS

    values = tuple(bias)
    if len(values) != ALL_KINDS:
        raise ValueError(f"the bias has one weight a card kind, {ALL_KINDS}: got {len(values)}")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int | float) or not 0 < v <= 1e12:
            raise ValueError(f"a bias weight must be a number above 0 and at most 1e12: got {v!r}")
    return tuple(float(v) for v in values)


__all__ = [
    "DealLike",
    "FastDeal",
    "UnsupportedRules",
    "available",
    "check_bias",
    "duel",
    "simulate",
    "supports",
]
