"""Self-play positions for a learned evaluation: seeded deals played by one bot in every seat.

::

    >>> from bezique.arena.selfplay import generate
    >>> positions = generate("simple", "classic", deals=2, seed=1)
    >>> positions.x.shape[0] == positions.margin.shape[0] == len(positions.deal)
    True

Deal ``i`` is shuffled from ``seed * 1_000_000_000 + i`` and dealt by seat ``i % players``; the
bot in each seat is seeded from the run's seed, the deal and the seat, so a run depends on its
seed alone, not on where its deals were played (:func:`~.distributed.run_tasks`: here, in
worker processes or on Ray).

Every decision of the deal is one position:

==========  =========  ==========================================================================
array       shape      meaning
==========  =========  ==========================================================================
``x``       N x F      the observation of the seat to move, as :mod:`bezique.envs.encoding`
                       encodes it (float32; F is ``Encoding.for_rules(rules).size``)
``margin``  N          the final margin of that seat's side: its deal points (brisques and the
                       last trick included) less the mean of the other sides' (float32)
``deal``    N          the deal's index in the run (int32)
``seat``    N          the seat to move (int8)
``ply``     N          how many actions of the deal came before (int16)
==========  =========  ==========================================================================

Positions are in deal order, and in play order within a deal.  The features come from the
seat's observation only (never a card it has not seen); the margin is known only at the end and
is the regression target.  :meth:`Positions.save` writes them to a ``.npz`` file with the run's
set-up (rules, bot, seed, deals, encoding version); :meth:`Positions.load` reads it back.  Needs
numpy (the ``cluster`` or ``rl`` extra).
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.deal import Deal
from ..core.rules import Rules
from ..envs.encoding import ENCODING_VERSION, Encoding, relative_points
from .distributed import run_tasks
from .runner import PlayerSpec, decide

DEAL_STRIDE = 1_000_000_000
"""Deal seeds of one run are ``seed * DEAL_STRIDE + i``: distinct for up to this many deals."""


@dataclass
class Positions:
    """The positions of a self-play run (see the module docstring)."""

    x: np.ndarray
    margin: np.ndarray
    deal: np.ndarray
    seat: np.ndarray
    ply: np.ndarray
    rules: str
    bot: str
    seed: int
    deals: int
    seconds: float = 0.0
    """Wall-clock seconds the run took (not saved: it is not part of the result)."""

    def __len__(self) -> int:
        return int(self.margin.shape[0])

    def save(self, path: str | Path) -> None:
        """Write the arrays and the set-up to an ``.npz`` file."""
        np.savez_compressed(
            path,
            x=self.x,
            margin=self.margin,
            deal=self.deal,
            seat=self.seat,
            ply=self.ply,
            rules=np.array(self.rules),
            bot=np.array(self.bot),
            seed=np.array(self.seed),
            deals=np.array(self.deals),
            encoding_version=np.array(ENCODING_VERSION),
        )

    @classmethod
    def load(cls, path: str | Path) -> Positions:
        """Read what :meth:`save` wrote; ValueError says what is wrong with anything else."""
        try:
            with np.load(path, allow_pickle=False) as f:
                if int(f["encoding_version"]) != ENCODING_VERSION:
                    raise ValueError(
                        f"{path}: features of encoding version {int(f['encoding_version'])}; "
                        f"this bezique encodes version {ENCODING_VERSION}"
                    )
                return cls(
                    f["x"],
                    f["margin"],
                    f["deal"],
                    f["seat"],
                    f["ply"],
                    str(f["rules"]),
                    str(f["bot"]),
                    int(f["seed"]),
                    int(f["deals"]),
                )
        except KeyError as e:
            raise ValueError(f"{path}: not a self-play file: no {e}") from None


def play_deal(job: tuple[str, str, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One deal of a run: ``(rules string, bot spec, run seed, deal index)`` to the features,
    the seat and the ply of each decision, in play order (the margins follow from the seats)."""
    rules_text, bot_text, seed, index = job
    rules = Rules.from_string(rules_text)
    spec = PlayerSpec.parse(bot_text)
    encoding = Encoding.for_rules(rules)
    deal = Deal.new(rules, seed=seed * DEAL_STRIDE + index, dealer=index % rules.players)
    players = [
        spec.build(zlib.crc32(f"selfplay:{seed}:{index}:{s}".encode()))
        for s in range(rules.players)
    ]
    rows: list[np.ndarray] = []
    seats: list[int] = []
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        rows.append(encoding.encode(deal.observation(seat)))
        seats.append(seat)
        deal.apply(decide(players[seat], deal, spec.limit))
    margins = relative_points(deal.points)
    seat_array = np.array(seats, np.int8)
    margin = np.array([margins[rules.side_of(s)] for s in seats], np.float32)
    return np.stack(rows), margin, seat_array


def generate(
    bot: str,
    rules: Rules | str = "classic",
    *,
    deals: int = 100,
    seed: int = 1,
    jobs: int | None = None,
    ray: str | None = None,
    batch: int = 4,
    progress: Callable[[int, int], None] | None = None,
) -> Positions:
    """Play ``deals`` seeded deals with ``bot`` (a bot or level name, a budget may follow:
    ``pimc:nodes=2000``) in every seat and collect their positions.  ``jobs``, ``ray`` and
    ``batch`` say where the deals are played (:func:`~.distributed.run_tasks`); the positions do
    not depend on them.  ``progress(done, total)`` counts deals."""
    spec = PlayerSpec.parse(bot)
    rules = rules if isinstance(rules, Rules) else Rules.from_string(rules)
    if deals < 1:
        raise ValueError(f"deals must be at least 1: got {deals}")
    if seed < 0:
        raise ValueError(f"seed must not be negative: got {seed}")
    start = time.perf_counter()
    work = [(str(rules), str(spec), seed, i) for i in range(deals)]
    per_deal = run_tasks(play_deal, work, jobs=jobs, ray=ray, batch=batch, progress=progress)
    sizes = [len(seats) for _, _, seats in per_deal]
    return Positions(
        x=np.concatenate([x for x, _, _ in per_deal]),
        margin=np.concatenate([m for _, m, _ in per_deal]),
        deal=np.repeat(np.arange(deals, dtype=np.int32), sizes),
        seat=np.concatenate([s for _, _, s in per_deal]),
        ply=np.concatenate([np.arange(n, dtype=np.int16) for n in sizes]),
        rules=str(rules),
        bot=str(spec),
        seed=seed,
        deals=deals,
        seconds=time.perf_counter() - start,
    )


def describe(positions: Positions) -> dict[str, Any]:
    """A few numbers about a run, for people: positions, features, the margins' spread."""
    m = positions.margin
    return {
        "positions": len(positions),
        "features": int(positions.x.shape[1]),
        "deals": positions.deals,
        "margin_mean": float(m.mean()),
        "margin_sd": float(m.std()),
    }
