"""Matches between bots on mirrored deals, in parallel on the local cores.

**Mirroring.**  Deck ``i`` is shuffled from the seed ``arena_seed * 100_000 + i`` and dealt by
seat ``i % players``.  It is played once in each seating: with two sides, once with A on side 0
and B on side 1 and once the other way round, so both players get the same cards; with three
sides (the three-handed game) A takes each seat in turn against two copies of B.  Every
statistic treats the plays of one deck as one sample.

**Scores.**  A deal's score for a side is what a match counts: its points, or in per-deal games
(Rubicon and its family) the settlement payout.  The margin is A's score less the mean of B's
sides; the deal result is 1 when A scores more than B, 1/2 for a tie and 0 otherwise (with three
sides, the mean over the two B seats).

**Matches.**  Per-match results are *built from the same deals*, not played separately: in each
seating the decks are taken in order and added up as a match adds them up (the dealer passing
left deal by deal, as it does in a match) until a side reaches the target; the match winner is
then decided by the match rules (:class:`~bezique.core.match.Match`).  This is the same as
playing the matches, because no bot looks at the match score; the last, unfinished match of each
seating is dropped.  In per-deal games every deal is a match.

**The players** are named by spec strings (:mod:`bezique.bots.spec`); the JSON of a run records
each one's spec with every setting written out (``a_spec``, ``b_spec``), so the run can be
repeated whatever the defaults become.  **The oracles** (``oracle``, ``oracle-c`` in the
compiled engine, ``oracle-hand``) get the real deal through :meth:`OracleBot.play_with_deal
<bezique.bots.oracle.OracleBot.play_with_deal>`: :func:`decide` is the one place that does so.
"""

from __future__ import annotations

import importlib
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..bots import Bot, Limit, names
from ..bots.fastoracle import FastOracleBot
from ..bots.oracle import OracleBot
from ..bots.random_bot import RandomBot
from ..bots.registry import Resolved, build, resolve
from ..core.deal import Deal
from ..core.events import EventKind
from ..core.match import settle
from ..core.notation import Action
from ..core.rules import Rules
from ..core.scoring import target_winner
from .distributed import run_tasks
from .stats import Estimate, elo_interval, mean_interval, wilson_interval

OPENSPIEL_ISMCTS = "openspiel-ismcts"
"""OpenSpiel's IS-MCTS (:mod:`bezique.envs.openspiel_bot`), registered on first use."""

ORACLE = "oracle"
"""The name of the cheating player (measurement only)."""
ORACLE_C = "oracle-c"
"""The cheating player in the compiled engine (:mod:`bezique.bots.fastoracle`)."""
ORACLE_HAND = "oracle-hand"
"""A ``pimc-c`` search shown the other hands but not the stock, its settings those of
``pimc-c`` and ``shown`` (:class:`bezique.bots.fastoracle.HandOracleBot`)."""
ORACLES = (ORACLE, ORACLE_C, ORACLE_HAND)
"""Every cheating player: the arena's names, never bots (:func:`bezique.bots.make`) or levels."""


@dataclass(frozen=True)
class PlayerSpec:
    """A player in the arena: a spec string read by the registry (:mod:`bezique.bots.spec`),
    ``NAME`` or ``NAME:key=value,...`` with its settings and budget (``nodes``, ``iterations``,
    ``time``); the cheating players may be named here."""

    resolved: Resolved

    @property
    def name(self) -> str:
        """The name given: a level, a baseline, a family or an oracle."""
        return self.resolved.name

    @property
    def limit(self) -> Limit | None:
        """The budget given (a level's own where none is)."""
        return self.resolved.limit

    @classmethod
    def parse(cls, text: str) -> PlayerSpec:
        """Read ``pimc``, ``pimc:nodes=5000``, ``pimc-c:bar=2/1.5`` or
        ``oracle:iterations=20,time=0.5``; ValueError, one line, says what is wrong."""
        name = text.strip().partition(":")[0].strip().lower() if isinstance(text, str) else ""
        if name == OPENSPIEL_ISMCTS and name not in names():
            _register_openspiel()
        return cls(resolve(text, cheats=True))

    def __str__(self) -> str:
        return str(self.resolved)

    def full(self) -> str:
        """The spec of what plays with every setting written out (:meth:`Resolved.full
        <bezique.bots.registry.Resolved.full>`)."""
        return self.resolved.full()

    def build(self, seed: int) -> Bot | OracleBot:
        """A fresh player."""
        player: Bot | OracleBot = build(self.resolved, seed, cheats=True)
        return player


def decide(player: Bot | OracleBot, deal: Any, limit: Limit | None) -> Action:
    """The player's action for the seat to move of a :class:`Deal` (or a
    :class:`bezique.fast.FastDeal`): an honest bot gets that seat's observation; the oracle,
    and only the oracle, gets a copy of the real deal (the compiled oracle, the compiled deal)."""
    if isinstance(player, FastOracleBot):
        return player.play_with_deal(deal.clone(), limit).action
    if isinstance(player, OracleBot):
        real = deal.clone() if isinstance(deal, Deal) else deal.to_deal()
        return player.play_with_deal(real, limit).action
    seat = deal.to_move
    assert seat is not None
    return player.play(deal.observation(seat), limit).action


class _FastTable:
    """A deal played in the compiled engine (:mod:`bezique.fast`) for :func:`play_deck`: the
    random bot chooses without an observation (:meth:`RandomBot.index_on`, the same choice);
    every other player goes through :func:`decide`, whose observation the engine's reference
    twin makes (it replays only the actions it has not seen yet)."""

    def __init__(self, fast: Any) -> None:
        self.fast = fast
        self.history: list[str] = []

    def step(self, player: Bot | OracleBot, limit: Limit | None) -> None:
        f = self.fast
        if type(player) is RandomBot:
            texts = f.legal_texts()
            i = player.index_on(f, self.history)
            f.apply_index(i)
            self.history.append(texts[i])
            return
        action = decide(player, f, limit)
        f.apply(action)
        self.history.append(str(action))


def _table(rules: Rules, seed: int, dealer: int) -> Deal | _FastTable:
    """The deck dealt: in the compiled engine when it is built and plays these rules (fewer
    observations to build for random players), else in the reference core."""
    deal = Deal.new(rules, seed=seed, dealer=dealer)
    from .. import fast

    if fast.available():
        try:
            return _FastTable(fast.FastDeal.from_deal(deal))
        except fast.UnsupportedRules:
            pass  # an option the compiled engine does not play: the reference core plays it
    return deal


@dataclass
class Play:
    """One deal played in one seating."""

    deck: int
    """The deck's index in the arena (0, 1, ...)."""
    seed: int
    """The seed the deck was shuffled from."""
    seating: int
    """A's side (with three sides, A's seat)."""
    dealer: int
    scores: list[float]
    """Per side, the deal's score as a match counts it."""
    margin: float
    """A's score less the mean score of B's sides."""
    result: float
    """1 if A scored more than B, 0.5 for a tie, 0 otherwise (mean over B's sides)."""
    recent_sides: list[int]
    """Sides in the order they last took a trick, the taker of the last trick first."""
    wins_game: int | None
    """A side that won the match outright in this deal (a triple bezique where that rule is on)."""
    a_moves: int = 0
    b_moves: int = 0
    a_seconds: list[float] = field(default_factory=list)
    """CPU seconds of each of A's decisions."""
    b_seconds: list[float] = field(default_factory=list)


def seatings(rules: Rules) -> list[list[bool]]:
    """For each seating, which seats A holds (the others are B's)."""
    n = rules.players
    if rules.sides == 2:
        return [[rules.side_of(s) == side for s in range(n)] for side in (0, 1)]
    return [[s == a for s in range(n)] for a in range(n)]


def deck_seed(arena_seed: int, deck: int) -> int:
    """The shuffle seed of a deck."""
    return arena_seed * 100_000 + deck


def play_deck(
    rules: Rules, a: PlayerSpec, b: PlayerSpec, arena_seed: int, deck: int, engine: str = "auto"
) -> list[Play]:
    """Every seating of one deck; ``engine="reference"`` plays it in the reference core even
    where the compiled engine would (the plays are the same)."""
    seed = deck_seed(arena_seed, deck)
    dealer = deck % rules.players
    out = []
    for seating, a_seats in enumerate(seatings(rules)):
        table = (
            _table(rules, seed, dealer)
            if engine == "auto"
            else Deal.new(rules, seed=seed, dealer=dealer)
        )
        players: list[Bot | OracleBot] = []
        for s, is_a in enumerate(a_seats):
            spec = a if is_a else b
            tag = f"{arena_seed}:{deck}:{seating}:{s}:{'A' if is_a else 'B'}"
            players.append(spec.build(zlib.crc32(tag.encode())))
        limits = [a.limit if is_a else b.limit for is_a in a_seats]
        a_time: list[float] = []
        b_time: list[float] = []
        if isinstance(table, _FastTable):
            fast = table.fast
            while not fast.is_over:
                seat = fast.to_move
                start = time.process_time()
                table.step(players[seat], limits[seat])
                (a_time if a_seats[seat] else b_time).append(time.process_time() - start)
            deal = fast.to_deal()
        else:
            deal = table
            while not deal.is_over:
                seat = deal.to_move
                assert seat is not None
                start = time.process_time()
                action = decide(players[seat], deal, limits[seat])
                (a_time if a_seats[seat] else b_time).append(time.process_time() - start)
                deal.apply(action)
        scores = _scores(deal)
        a_side = rules.side_of(a_seats.index(True))
        b_sides = sorted({rules.side_of(s) for s, is_a in enumerate(a_seats) if not is_a})
        mine = scores[a_side]
        margin = mine - sum(scores[s] for s in b_sides) / len(b_sides)
        result = sum(
            1.0 if mine > scores[s] else 0.5 if mine == scores[s] else 0.0 for s in b_sides
        )
        recent: list[int] = []
        for w in reversed(deal.trick_winners):
            side = rules.side_of(w)
            if side not in recent:
                recent.append(side)
        wins = next(
            (rules.side_of(e.seat) for e in deal.events if e.kind is EventKind.WINS_GAME), None
        )
        out.append(
            Play(
                deck=deck,
                seed=seed,
                seating=seating if rules.sides == 2 else a_side,
                dealer=dealer,
                scores=scores,
                margin=margin,
                result=result / len(b_sides),
                recent_sides=recent,
                wins_game=wins,
                a_moves=len(a_time),
                b_moves=len(b_time),
                a_seconds=[round(t, 5) for t in a_time],
                b_seconds=[round(t, 5) for t in b_time],
            )
        )
    return out


def _scores(deal: Deal) -> list[float]:
    if deal.rules.deal_scoring == "per-deal":
        return [float(p) for p in settle(deal).payout]
    return [float(p) for p in deal.points]


def _work(job: tuple[str, str, str, int, int]) -> list[Play]:
    rules_text, a, b, arena_seed, deck = job
    return play_deck(
        Rules.from_string(rules_text), PlayerSpec.parse(a), PlayerSpec.parse(b), arena_seed, deck
    )


def _register_openspiel() -> None:
    # bezique.envs registers the bot on import; it needs the rl extra (numpy, OpenSpiel)
    try:
        importlib.import_module("bezique.envs")
    except ImportError as e:
        raise ValueError(
            f"{OPENSPIEL_ISMCTS} needs the rl extra (pip install 'bezique[rl]'): {e}"
        ) from None


@dataclass
class ArenaResult:
    """Every play of an arena run and what they add up to."""

    a: PlayerSpec
    b: PlayerSpec
    rules: Rules
    variant: str
    seed: int
    decks: int
    plays: list[Play]
    seconds: float = 0.0
    """Wall-clock seconds the run took."""
    runs: tuple[tuple[int, int], ...] = ()
    """For a result pooled from several runs (:func:`pool`), each run's (seed, decks), in
    order; its decks are numbered on from the previous run's.  Empty for a single run."""

    def _parts(self) -> list[tuple[int, int]]:
        """(first deck, decks) of each run in this result."""
        if not self.runs:
            return [(0, self.decks)]
        out, first = [], 0
        for _, n in self.runs:
            out.append((first, n))
            first += n
        return out

    # --- statistics ------------------------------------------------------------------------------
    def _per_deck(self, value: Callable[[Play], float]) -> list[float]:
        return [m for _, m in sorted(self._deck_means(value, lambda p: p.deck).items())]

    def _deck_means(
        self, value: Callable[[Play], float], key: Callable[[Play], int]
    ) -> dict[int, float]:
        """The mean of ``value`` over each deck's plays, by ``key`` (the deck's index or seed)."""
        by_deck: dict[int, list[float]] = {}
        for p in self.plays:
            by_deck.setdefault(key(p), []).append(value(p))
        return {k: sum(v) / len(v) for k, v in by_deck.items()}

    def deck_margins(self) -> dict[int, float]:
        """A's mean margin on each deck, by the deck's seed (its two plays, seats swapped)."""
        return self._deck_means(lambda p: p.margin, lambda p: p.seed)

    def deal_score(self) -> Estimate:
        """A's mean deal result (wins, ties as halves), per deck: the normal interval on the
        per-deck means, or the Wilson one on the decks where that collapses (every deck went
        the same way)."""
        per_deck = self._per_deck(lambda p: p.result)
        normal = mean_interval(per_deck)
        if normal.n >= 2 and normal.high > normal.low:
            return Estimate(normal.mean, max(0.0, normal.low), min(1.0, normal.high), normal.n)
        return wilson_interval(sum(per_deck), len(per_deck))

    def margin(self) -> Estimate:
        """A's mean margin, per deck."""
        return mean_interval(self._per_deck(lambda p: p.margin))

    def elo(self) -> Estimate:
        """A's Elo advantage from the per-deal score."""
        return elo_interval(self.deal_score())

    def matches(self) -> list[tuple[int, float]]:
        """(seating, A's result) of every match built from the deals (see the module
        docstring): 1 won, 0 lost."""
        rules = self.rules
        out: list[tuple[int, float]] = []
        seatings_ = sorted({p.seating for p in self.plays})
        for (first, n), seating in ((part, s) for part in self._parts() for s in seatings_):
            plays = sorted(
                (p for p in self.plays if p.seating == seating and first <= p.deck < first + n),
                key=lambda p: p.deck,
            )
            a_side = seating if rules.sides == 2 else rules.side_of(seating)
            totals = [0.0] * rules.sides
            for p in plays:
                winner: int | None
                if rules.deal_scoring == "per-deal":
                    top = max(p.scores)
                    leaders = [s for s, v in enumerate(p.scores) if v == top]
                    winner = leaders[0] if len(leaders) == 1 else None
                    if winner is None:
                        continue  # a drawn game: no match result
                    out.append((seating, 1.0 if winner == a_side else 0.0))
                    continue
                totals = [t + s for t, s in zip(totals, p.scores, strict=True)]
                winner = p.wins_game if p.wins_game is not None else _match_winner(rules, totals, p)
                if winner is not None:
                    out.append((seating, 1.0 if winner == a_side else 0.0))
                    totals = [0.0] * rules.sides
        return out

    def match_score(self) -> Estimate:
        """A's share of the matches won, with a Wilson interval."""
        results = [r for _, r in self.matches()]
        return wilson_interval(sum(results), len(results))

    def timing(self, who: str) -> dict[str, float]:
        """Median and 95th percentile CPU seconds per decision of ``'a'`` or ``'b'``."""
        times = sorted(t for p in self.plays for t in (p.a_seconds if who == "a" else p.b_seconds))
        if not times:
            return {"median": 0.0, "p95": 0.0, "moves": 0}
        return {
            "median": round(times[len(times) // 2], 5),
            "p95": round(times[min(len(times) - 1, int(0.95 * len(times)))], 5),
            "moves": len(times),
        }

    def summary(self) -> dict[str, Any]:
        """The figures as JSON values."""
        return {
            "deal_win_rate": self.deal_score().as_dict(),
            "margin": self.margin().as_dict(2),
            "match_win_rate": self.match_score().as_dict(),
            "matches": len(self.matches()),
            "elo": self.elo().as_dict(1),
            "a_seconds_per_move": self.timing("a"),
            "b_seconds_per_move": self.timing("b"),
        }

    def to_json(self) -> dict[str, Any]:
        """Everything, as JSON values: the set-up, the summary and every play."""
        return {
            "a": str(self.a),
            "b": str(self.b),
            "a_spec": self.a.full(),
            "b_spec": self.b.full(),
            "variant": self.variant,
            "rules": str(self.rules),
            "seed": self.seed,
            "decks": self.decks,
            "seatings": len(seatings(self.rules)),
            "mirrored": True,
            "matches_built_from_deals": True,
            "target": self.rules.target,
            "wall_seconds": round(self.seconds, 2),
            **({"runs": [{"seed": sd, "decks": n} for sd, n in self.runs]} if self.runs else {}),
            "summary": self.summary(),
            "plays": [asdict(p) for p in sorted(self.plays, key=lambda p: (p.deck, p.seating))],
        }

    def _seed_text(self) -> str:
        if not self.runs:
            return f"seed {self.seed}"
        return f"{len(self.runs)} runs pooled (seeds {', '.join(str(sd) for sd, _ in self.runs)})"

    @classmethod
    def from_json(cls, data: Any) -> ArenaResult:
        """Read back what :meth:`to_json` wrote (a ``--json`` file); ValueError says what is
        wrong with anything else."""
        if not isinstance(data, dict):
            raise ValueError("an arena result is a JSON object")
        missing = [k for k in ("a", "b", "rules", "seed", "decks", "plays") if k not in data]
        if missing:
            raise ValueError(f"not an arena result: no {', '.join(missing)}")
        try:
            a, b = PlayerSpec.parse(str(data["a"])), PlayerSpec.parse(str(data["b"]))
            rules = Rules.from_string(str(data["rules"]))
            plays = [Play(**p) for p in data["plays"]]
            runs = tuple((int(r["seed"]), int(r["decks"])) for r in data.get("runs", []))
            result = cls(
                a,
                b,
                rules,
                str(data.get("variant", data["rules"])),
                int(data["seed"]),
                int(data["decks"]),
                plays,
                float(data.get("wall_seconds", 0.0)),
                runs,
            )
        except (TypeError, KeyError, ValueError) as e:
            raise ValueError(f"not a valid arena result: {e}") from None
        for i, p in enumerate(plays):
            if not all(
                isinstance(v, int) and not isinstance(v, bool)
                for v in (p.deck, p.seed, p.seating, p.dealer)
            ) or not all(
                isinstance(v, (int, float))
                for v in (p.margin, p.result, *(p.scores if isinstance(p.scores, list) else [None]))
            ):
                raise ValueError(
                    f"not a valid arena result: plays[{i}] has a value of a wrong type"
                )
        if any(not 0 <= p.deck < result.decks for p in plays):
            raise ValueError(
                f"not a valid arena result: a play's deck is outside 0..{result.decks - 1}"
            )
        return result

    def text(self) -> str:
        """A short report for people."""
        ds, mg, ms, el = self.deal_score(), self.margin(), self.match_score(), self.elo()
        ta, tb = self.timing("a"), self.timing("b")
        n_seat = len(seatings(self.rules))
        target = (
            "each deal a game"
            if self.rules.deal_scoring == "per-deal"
            else f"to {self.rules.target}"
        )
        return "\n".join(
            [
                f"{self.a} (A) against {self.b} (B): {self.variant}, {self.decks} decks x "
                f"{n_seat} seatings = {len(self.plays)} deals, {self._seed_text()}, "
                f"{self.seconds:.0f} s",
                f"  deals    A scores {ds.text(1, 100, '%')} (wins, ties as halves)",
                f"  margin   A {mg.text(1)} points a deal (95% interval)",
                f"  matches  A wins {ms.text(1, 100, '%')} of {ms.n} matches {target} "
                "(built from the deals)",
                f"  Elo      A {el.text(0)} (from the deal score)",
                f"  time     A {ta['median']:.3f} s a move median, {ta['p95']:.3f} s p95; "
                f"B {tb['median']:.3f} s, {tb['p95']:.3f} s (CPU)",
            ]
        )


def _match_winner(rules: Rules, totals: list[float], play: Play) -> int | None:
    """The side that has won a match with these totals after ``play`` (as Match.winner)."""
    return target_winner(rules, totals, play.recent_sides)


def run_arena(
    a: PlayerSpec | str,
    b: PlayerSpec | str,
    rules: Rules | str = "classic",
    *,
    decks: int = 100,
    seed: int = 1,
    jobs: int | None = None,
    ray: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ArenaResult:
    """Play ``decks`` decks in every seating between A and B (see the module docstring).

    ``jobs`` worker processes share the decks (default 1: play here, no processes); with
    ``ray`` (an address, or :data:`~.distributed.LOCAL` for an instance started for the run,
    ``jobs`` CPUs) every deck is a Ray task (:func:`~.distributed.run_tasks`).  The results do
    not depend on either.
    ``progress(done, total)`` is called after each deck."""
    a = a if isinstance(a, PlayerSpec) else PlayerSpec.parse(a)
    b = b if isinstance(b, PlayerSpec) else PlayerSpec.parse(b)
    variant = rules if isinstance(rules, str) else str(rules)
    rules = rules if isinstance(rules, Rules) else Rules.from_string(rules)
    if decks < 1:
        raise ValueError(f"decks must be at least 1: got {decks}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1: got {jobs}")
    start = time.perf_counter()
    jobs_list = [(str(rules), str(a), str(b), seed, i) for i in range(decks)]
    per_deck = run_tasks(_work, jobs_list, jobs=jobs, ray=ray, progress=progress)
    plays = sorted((p for deck in per_deck for p in deck), key=lambda p: (p.deck, p.seating))
    return ArenaResult(a, b, rules, variant, seed, decks, plays, time.perf_counter() - start)


def pool(results: Iterable[ArenaResult]) -> ArenaResult:
    """One result from several runs of the same two players on the same rules with different
    seeds, as if they were one run: every statistic over all their decks, matches built within
    each run (so the pooled matches are exactly the runs' matches).  Runs on one machine or
    many add up this way."""
    parts = list(results)
    if not parts:
        raise ValueError("nothing to pool")
    first = parts[0]
    for r in parts[1:]:
        if (str(r.a), str(r.b)) != (str(first.a), str(first.b)):
            raise ValueError(f"cannot pool {r.a} against {r.b} with {first.a} against {first.b}")
        if r.rules != first.rules:
            raise ValueError(f"cannot pool runs with different rules: {r.rules} and {first.rules}")
    if len(parts) == 1:
        return parts[0]
    runs = [run for r in parts for run in (r.runs or ((r.seed, r.decks),))]
    seeds = [sd for sd, _ in runs]
    repeated = sorted({sd for sd in seeds if seeds.count(sd) > 1})
    if repeated:
        raise ValueError(f"seed {repeated[0]} is in two runs: they played the same decks")
    plays: list[Play] = []
    offset = 0
    for r in parts:
        plays += [replace(p, deck=p.deck + offset) for p in r.plays]
        offset += r.decks
    return ArenaResult(
        first.a,
        first.b,
        first.rules,
        first.variant,
        first.seed,
        offset,
        sorted(plays, key=lambda p: (p.deck, p.seating)),
        sum(r.seconds for r in parts),
        tuple(runs),
    )


def paired_margin(first: ArenaResult, second: ArenaResult) -> Estimate:
    """How much more ``first``'s A gained than ``second``'s on the decks both played (the same
    deck seeds, so the same cards), deck by deck: the mean of the differences of the per-deck
    margins with its 95% interval.  The same decks cancel most of the luck of the cards, so this
    separates two players measured against one opponent sooner than their two intervals do."""
    if first.rules != second.rules:
        raise ValueError(f"different rules: {first.rules} and {second.rules}")
    if str(first.b) != str(second.b):
        raise ValueError(f"different opponents: {first.b} and {second.b}")
    return paired_deck_margins(first.deck_margins(), second.deck_margins())


def paired_deck_margins(first: Mapping[int, float], second: Mapping[int, float]) -> Estimate:
    """:func:`paired_margin` from two players' per-deck margins by deck seed (as
    :meth:`ArenaResult.deck_margins` gives them, or as lab/records/strength-runs.jsonl.gz keeps them)."""
    common = sorted(set(first) & set(second))
    if not common:
        raise ValueError("the two results share no deck")
    return mean_interval([first[s] - second[s] for s in common])
