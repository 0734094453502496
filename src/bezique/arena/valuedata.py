"""Positions for the learned evaluation and the inference model, with the compiled engine.

::

    >>> from bezique.arena.valuedata import play_deal
    >>> rows = play_deal(("classic", 1, 0, 0.0, 0, 1))
    >>> rows[0].seat, len(rows[0].hidden[0]), rows[0].hidden[1]  # seat 0's 8 cards unseen
    (1, 8, [])

Deal ``i`` of a run is shuffled from ``seed * 1_000_000_000 + i`` (as in :mod:`.selfplay`)
and played by the heuristic bot in every seat, each decision a uniform legal action with
chance ``explore`` (so the positions are not all on one narrow path).  Every ``every``-th
decision is kept as a :class:`Row`:

* ``observation``: the position string of the seat to move (what it may know, nothing more);
* ``margin``: the final margin of that seat's side in the deal as played (the side's points,
  brisques and the last trick included, less the mean of the other sides');
* ``rollout``: the mean margin of ``rollouts`` playouts of the rest of the deal from the true
  state, inside the compiled engine (``FastDeal.playout`` with the heuristic policy): a less
  noisy target with the same expectation under that policy (None when ``rollouts`` is 0 or
  the compiled engine does not play the rules).  With ``target="search"`` instead the mean of
  ``rollouts`` playouts as the ``expert`` level's search makes them (``FastDeal.rollout``: the
  learned policy for every seat, stage 2 solved), each from a world dealt for the seat from
  its observation: the value the search's own playouts give the seat's position;
* ``hidden``: per seat, the concealed cards the observing seat has not seen (the ground truth
  for measuring inference; empty for the observer).

The features and the targets are kept apart: :mod:`bezique.bots.value` turns the observation
into features, so a run's rows serve any feature set.  The observation never holds a card the
seat has not seen; ``hidden`` is the answer key, read only by training and measurement code.
"""

from __future__ import annotations

import gzip
import json
import random
import zlib
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from ..core.deal import Deal
from ..core.observation import Observation, decode_fields, observation_from_fields
from ..core.rules import Rules
from ..envs.encoding import relative_points
from .distributed import run_tasks

DEAL_STRIDE = 1_000_000_000


@dataclass
class Row:
    """One kept decision of a self-play deal (see the module docstring)."""

    deal: int
    seat: int
    ply: int
    observation: str
    margin: float
    rollout: float | None
    hidden: list[list[str]]

    def obs(self, legal: bool = False) -> Observation:
        """The observation, read back from its position string; its legal actions are
        worked out only if ``legal`` (evaluation and inference do not read them)."""
        if legal:
            return Observation.from_string(self.observation)
        return observation_from_fields(decode_fields(self.observation)[0])


def hidden_cards(deal: Deal, seat: int, obs: Observation) -> list[list[str]]:
    """Per seat, the concealed cards ``seat`` has not seen (its own list is empty): the answer
    key for inference, taken from the real deal (``obs``: the seat's observation)."""
    out: list[list[str]] = []
    for s in range(deal.rules.players):
        if s == seat:
            out.append([])
            continue
        rest = list(deal.hand(s))
        for c in [*(ref.split("@")[0] for ref in obs.tables[s]), *obs.known[s]]:
            rest.remove(c)
        out.append(sorted(rest))
    return out


TARGETS = ("heuristic", "search")
"""What ``rollout`` averages (see the module docstring)."""


def play_deal(
    job: tuple[str, int, int, float, int, int] | tuple[str, int, int, float, int, int, str],
) -> list[Row]:
    """One deal: ``(rules, run seed, deal index, explore, rollouts, every[, target])`` to its
    rows (``target`` one of :data:`TARGETS`, ``"heuristic"`` where not given)."""
    from .. import fast
    from ..bots.heuristic import HeuristicBot
    from ..bots.learned import learned_params

    rules_text, seed, index, explore, rollouts, every = job[:6]
    target = job[6] if len(job) > 6 else "heuristic"
    rules = Rules.from_string(rules_text)
    params = learned_params(rules) if target == "search" else None
    deal = Deal.new(rules, seed=seed * DEAL_STRIDE + index, dealer=index % rules.players)
    bots = [
        HeuristicBot(zlib.crc32(f"valuedata:{seed}:{index}:{s}".encode()))
        for s in range(rules.players)
    ]
    rng = random.Random(zlib.crc32(f"explore:{seed}:{index}".encode()))
    use_fast = rollouts > 0 and fast.supports(rules)
    kept: list[tuple[int, int, str, float | None, list[list[str]]]] = []
    ply = 0
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        if ply % every == 0:
            mean: float | None = None
            if use_fast:
                side = rules.side_of(seat)
                total = 0.0
                if target == "search":  # worlds of the seat's view only, as the search's
                    view = fast.FastDeal.from_deal(Deal.from_observation(obs, random.Random(1)))
                    for k in range(rollouts):
                        key = zlib.crc32(f"search:{seed}:{index}:{ply}:{k}".encode())
                        total += view.rollout(side, key, params, seat=seat)
                else:
                    f = fast.FastDeal.from_deal(deal)
                    for k in range(rollouts):
                        key = zlib.crc32(f"{seed}:{index}:{ply}:{k}".encode())
                        total += relative_points(f.playout("heuristic", key))[side]
                mean = total / rollouts
            kept.append((seat, ply, obs.to_string(), mean, hidden_cards(deal, seat, obs)))
        if len(obs.legal) > 1 and rng.random() < explore:
            deal.apply(obs.legal[rng.randrange(len(obs.legal))])
        else:
            deal.apply(bots[seat].choose(obs))
        ply += 1
    margins = relative_points(deal.points)
    return [
        Row(index, seat, p, text, margins[rules.side_of(seat)], mean, hidden)
        for seat, p, text, mean, hidden in kept
    ]


def generate(
    rules: Rules | str = "classic",
    *,
    deals: int,
    seed: int,
    first: int = 0,
    explore: float = 0.05,
    rollouts: int = 16,
    every: int = 2,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    target: str = "heuristic",
) -> list[Row]:
    """The rows of the seeded deals ``first`` .. ``first + deals - 1`` (see the module
    docstring), played in ``jobs`` processes."""
    rules = rules if isinstance(rules, Rules) else Rules.from_string(rules)
    if deals < 1 or every < 1 or rollouts < 0 or not 0.0 <= explore <= 1.0:
        raise ValueError("deals and every must be at least 1, rollouts >= 0, explore in [0, 1]")
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}: one of {', '.join(TARGETS)}")
    work = [
        (str(rules), seed, i, explore, rollouts, every, target) for i in range(first, first + deals)
    ]
    per_deal = run_tasks(play_deal, work, jobs=jobs, batch=2, progress=progress)
    return [r for rows in per_deal for r in rows]


def save(rows: Iterable[Row], path: str | Path) -> None:
    """Write rows as gzipped JSON lines."""
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(asdict(r)) + "\n")


def load(path: str | Path) -> list[Row]:
    """Read what :func:`save` wrote."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [Row(**json.loads(line)) for line in f if line.strip()]


__all__ = ["Row", "generate", "hidden_cards", "load", "play_deal", "save"]
