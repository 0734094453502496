"""Types of the compiled engine (the C extension ``bezique.fast._engine``, built from pymod.c and
its neighbours); the Python wrappers in :mod:`bezique.fast` are the public surface."""

from collections.abc import Sequence
from typing import Any, TypedDict, overload

from ..core.notation import Action

MAX_CARDS: int

class Info(TypedDict):
    """``Core.info()``: the small state values."""

    to_move: int
    phase: int
    stage: int
    trump: int
    leader: int
    stock: int
    turn_up: int
    tricks: int
    last_winner: int
    declared: int
    trick: list[tuple[int, str]]

class Config:
    """The rules of a deal, compiled (built by ``bezique.fast._config``)."""

    def __init__(
        self,
        fields: dict[str, int | tuple[int, ...]],
        kinds: bytes,
        scores: Sequence[int],
        plans: tuple[tuple[Any, ...], ...],
    ) -> None: ...
    @property
    def policy_ready(self) -> bool: ...
    @property
    def encoding_ready(self) -> bool: ...
    def set_ids(
        self,
        pass_id: int,
        exchange_id: int,
        partner_id: int,
        play_offset: Sequence[int],
        meld_keys: list[tuple[bytes, int]],
        alt_base: int,
        num_actions: int,
        /,
    ) -> None: ...
    def set_policy(self, table: Sequence[float], /) -> None: ...
    def set_trump_sets(self, members: Sequence[int], points: Sequence[int], /) -> None: ...
    def set_encoding(
        self,
        size: int,
        offsets: Sequence[int],
        kinds: Sequence[int],
        columns: Sequence[int],
        classes: Sequence[int],
        /,
    ) -> None: ...

class Core:
    """One deal in the compiled engine: ``Core(config, dealer, seed)`` shuffles one."""

    def __init__(self, config: Config, dealer: int, seed: int, /) -> None: ...
    @classmethod
    def load(
        cls,
        config: Config,
        dealer: int,
        hands: Any,
        turn_up: int,
        stock: Any,
        fields: dict[str, Any],
        /,
    ) -> Core: ...
    @property
    def ids_ready(self) -> bool: ...
    @property
    def to_move(self) -> int | None: ...
    @property
    def phase(self) -> str: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def trump(self) -> str | None: ...
    @property
    def stock_size(self) -> int: ...
    @property
    def history_len(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    def clone(self) -> Core: ...
    def legal_texts(self) -> list[str]: ...
    def legal_actions(self) -> list[Action]: ...
    def legal_ids(self) -> list[int]: ...
    def apply_index(self, index: int, /) -> None: ...
    def apply_id(self, action_id: int, /) -> None: ...
    def legal_pairs(self) -> list[tuple[int, Action]]: ...
    def legal_id_texts(self) -> list[tuple[int, str]]: ...
    def cards(self, seat: int, which: int, /) -> list[str]: ...
    def points(self) -> list[int]: ...
    def parts(self) -> list[tuple[int, int, int, int]]: ...
    def info(self) -> Info: ...
    def replay(self, origin: Core, /) -> list[str]: ...
    def hidden(self) -> tuple[list[list[str]], list[str]]: ...
    def playout(self, policy: str, seed: int, /) -> list[int]: ...
    def rollout(
        self,
        side: int,
        seed: int,
        params: tuple[float, ...] | None = ...,
        max_nodes: int = ...,
        seat: int = ...,
        /,
    ) -> float: ...
    def solve(self, side: int, max_nodes: int, /) -> dict[str, float] | None: ...
    def policy_pick(self, policy: str, seed: int, /) -> int: ...
    def determinize(
        self, seat: int, seed: int, bias: tuple[float, ...] | None = ..., /
    ) -> Core: ...
    def pimc(
        self,
        seat: int,
        side: int,
        moves: list[int],
        first: int,
        worlds: int,
        seed: int,
        explore: float,
        max_nodes: int,
        style: int = ...,
        params: Sequence[float] | None = ...,
        bias: Sequence[float] | None = ...,
        other_params: Sequence[float] | None = ...,
        cut: tuple[int, int, bytes] | None = ...,
        deadline: float = ...,
        /,
    ) -> tuple[list[float], int, int]: ...
    def pimc_hidden(
        self,
        seat: int,
        first: int,
        worlds: int,
        seed: int,
        bias: tuple[float, ...] | None = ...,
        /,
    ) -> list[list[list[str]]]: ...
    def smart_features(
        self, params: tuple[float, ...] | None, /
    ) -> tuple[list[float], list[list[float]]] | None: ...
    def ismcts(
        self,
        seat: int,
        prior: int,
        iterations: int,
        seed: int,
        prior_weight: float,
        c_puct: float,
        scale: float,
        fpu: float,
        explore: float,
        solver_nodes: int,
        style: int,
        max_tree_nodes: int,
        stop_early: bool,
        seconds: float,
        deadline: float = ...,
        /,
    ) -> tuple[list[int], list[float | None], list[float | None], int, int, int, int]: ...
    @overload
    def value(self, seat: int, /) -> list[float]: ...
    @overload
    def value(self, seat: int, packed: bytes, /) -> float: ...
    def encode(self, seat: int, out: Any, /) -> None: ...

def set_types(action: type, illegal: type, /) -> None: ...
def simulate(config: Config, n: int, seed: int, policy: str, /) -> bytes: ...
def duel(
    config: Config,
    decks: int,
    seed: int,
    a: tuple[float, ...],
    b: tuple[float, ...],
    max_nodes: int,
    /,
) -> bytes: ...
