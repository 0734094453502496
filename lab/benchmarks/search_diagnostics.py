"""Diagnostics of the compiled search (``pimc-c``) on concrete positions; they print, never fail.

``noise``: stage-1 decisions of heuristic self-play; every candidate played out in the same
worlds (``FastDeal.pimc``) with a playout policy (``--playouts``, the plain one by default) at
several chances of a uniform move (``--explore``, 0.1 and 1 by default): the spread of
the paired difference against the heuristic's choice, how often the best mean is that choice,
and how often some candidate clears the bar ``pimc-c`` uses (5 points and 2.5 standard errors).
``--learned`` plays the smart playouts on the learned weights (as the ``expert`` level does);
``--cut N ...`` also cuts them N tricks on, scored by the value model (``bezique.fast.search.pimc(...,
cut=...)``, while the stock holds more than 8 cards; 0: whole playouts), and says how often the
best mean is the first setup's.

``policy``: a C default policy plays stage 1 against the heuristic player (the heuristic plays
stage 2 for both, exactly), on mirrored decks: the margin a deal with its 95% interval.

``deviation``: in heuristic self-play, wherever a bot chooses otherwise than the heuristic, its
move and the heuristic's are each played on the real deal (the hands as they are, the stock
reshuffled ``--shuffles`` times: neither player sees it), the heuristic playing both seats on
and stage 2 solved exactly in C; the mean gain of the bot's moves, with its standard error.

    python lab/benchmarks/search_diagnostics.py noise --deals 5 --seed 1900
    python lab/benchmarks/search_diagnostics.py noise --deals 3 --playouts smart --explore 0 0.03 0.1
    python lab/benchmarks/search_diagnostics.py noise --deals 6 --playouts smart --learned --couple \\
        --explore 0 --cut 0 8 4 1
    python lab/benchmarks/search_diagnostics.py policy --decks 60 --seed 7000 --policy meld-exact
    python lab/benchmarks/search_diagnostics.py deviation --bot pimc-c --deals 10 --seed 600
    python lab/benchmarks/search_diagnostics.py compare --a expert-c --b expert-c-smart \\
        --b-set overrule_z=1.5 --deals 10 --seed 2100
    python lab/benchmarks/search_diagnostics.py seven --bot learned --deals 4000 --worlds 400

``seven``: the race for the turn-up. In deals of heuristic self-play where the seat that follows
to the first trick holds the seven of trumps, the turn-up is not a seven and a card of the seat's
can win the trick (winning lets it exchange the seven first), how often the heuristic and
``--bot`` (``learned`` by default) win it; where the two choose differently, both moves are
played out in ``--worlds`` worlds of the seat's view (``FastDeal.pimc``, stage 2 solved), once
with the learned policy playing on and once with the heuristic's rules (the smart policy): the
heuristic's move less the bot's, a mean over the positions with its standard error.

``compare``: two bots (``NAME`` or ``NAME:iterations=N``, attributes of the search bot set with
``--a-set``/``--b-set KEY=VALUE``) asked at every stage-1 decision of heuristic self-play;
wherever they choose differently, both moves (and the heuristic's) are played on the real deal
as in ``deviation``, with the same reshuffled stocks: A's gain over B a deal with its standard
error (paired: the decisions where they agree count zero), each one's gain over the heuristic,
and each one's CPU seconds a decision.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Iterator

from bezique import Deal, Observation, Rules, fast
from bezique.arena.runner import PlayerSpec
from bezique.bots import Bot, make
from bezique.core.cards import SUITS, parse_card
from bezique.core.notation import Action
from bezique.core.tricks import beats
from bezique.fast.search import PimcSettings, pimc

RULES = Rules.preset("classic")


def _heuristic_turns(deal: Deal) -> Iterator[tuple[int, Observation, Action]]:
    """Each turn of heuristic self-play on ``deal``: the seat, its observation and the
    heuristic's choice, which is played once the caller has looked at the turn."""
    heuristic = make("heuristic", 1)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        choice = heuristic.choose(obs)
        yield seat, obs, choice
        deal.apply(choice)


def _stock_shuffled(deal: Deal, rng: random.Random) -> Deal:
    """A copy of ``deal`` with its stock alone reshuffled: both players are blind to it."""
    world = deal.clone()
    rng.shuffle(world._stock)
    world._legal = None
    return world


def noise(
    deals: int,
    seed: int,
    worlds: int,
    pick_seed: int,
    playouts: str,
    explores: list[float],
    couple: bool = False,
    cuts: list[int] | None = None,
    learned: bool = False,
) -> None:
    """The spread of paired differences, policy by policy (see the module docstring)."""
    from bezique.bots.learned import learned_params
    from bezique.bots.value import shipped_model

    rng = random.Random(pick_seed)  # which decisions are looked at (one in five)
    packed = shipped_model().packed
    params = learned_params(RULES) if learned else None
    setups = [(e, c) for e in explores for c in (cuts or [0])]
    found: dict[tuple[float, int], dict[str, list[float]]] = {}
    for key in setups:
        found[key] = {"agree": [], "clear": [], "sd": [], "same_best": []}
    for d in range(deals):
        deal = Deal.new(RULES, seed=seed + d)
        for seat, obs, choice in _heuristic_turns(deal):
            if len(obs.legal) > 1 and deal.stage == 1 and rng.random() < 0.2:
                world = fast.FastDeal.from_deal(Deal.from_observation(obs, random.Random(1)))
                order = world.legal_actions()
                m, h = len(order), order.index(choice)
                first_best = None
                for (explore, cut), got in found.items():
                    side = RULES.side_of(seat)
                    values = pimc(
                        world,
                        seat,
                        side,
                        list(range(m)),
                        0,
                        worlds,
                        7,
                        PimcSettings(
                            policy=playouts,
                            explore=explore,
                            couple_draws=couple,
                            smart_params=params,
                            cut=(cut, 8, packed) if cut else None,
                        ),
                    )[0]
                    rows = [values[w * m : (w + 1) * m] for w in range(worlds)]
                    diffs = [[r[i] - r[h] for r in rows] for i in range(m)]
                    mus = [statistics.fmean(x) for x in diffs]
                    ses = [statistics.stdev(x) / math.sqrt(worlds) for x in diffs]
                    best = max(range(m), key=lambda i: mus[i])
                    first_best = best if first_best is None else first_best
                    got["agree"].append(best == h)
                    got["same_best"].append(best == first_best)
                    got["clear"].append(any(mus[i] > 5 + 2.5 * ses[i] for i in range(m) if i != h))
                    spread = [statistics.stdev(x) for i, x in enumerate(diffs) if i != h]
                    got["sd"].append(statistics.median(spread))
    for (explore, cut), got in found.items():
        cut_text = f", cut after {cut} tricks" if cut else ""
        print(
            f"explore {explore}{cut_text}: {len(got['sd'])} positions; best mean = the "
            f"heuristic's choice in {sum(got['agree']):.0f}, = the first setup's best in "
            f"{sum(got['same_best']):.0f}; some candidate clears the bar in "
            f"{sum(got['clear']):.0f}; median paired spread {statistics.median(got['sd']):.0f}"
        )


def policy(decks: int, seed: int, name: str) -> None:
    """A C policy against the heuristic in stage 1 (see the module docstring)."""
    margins = []
    for d in range(decks):
        per = []
        for mine in (0, 1):
            deal = Deal.new(RULES, seed=seed + d, dealer=0)
            bots = [make("heuristic", 1), make("heuristic", 2)]
            while not deal.is_over:
                s = deal.to_move
                assert s is not None
                obs = deal.observation(s)
                if s == mine and deal.stage == 1 and len(obs.legal) > 1:
                    # the policy reads only the seat's own hand and the trick: any world will do
                    f = fast.FastDeal.from_deal(Deal.from_observation(obs, random.Random(0)))
                    deal.apply(f.legal_actions()[f._c.policy_pick(name, 0)])
                else:
                    deal.apply(bots[s].choose(obs))
            per.append(deal.points[mine] - deal.points[1 - mine])
        margins.append(statistics.fmean(per))
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(len(margins))
    print(
        f"policy {name} - heuristic (stage 1), {decks} decks from seed {seed}: "
        f"{mean:.1f} [{mean - half:.1f}, {mean + half:.1f}] points a deal"
    )


def _exact_end(deal: Deal, side: int) -> float:
    """The margin for ``side`` once stage 2 starts: solved exactly in C (the heuristic plays it
    exactly too, every card being known)."""
    f = fast.FastDeal.from_deal(deal)
    seat = deal.to_move
    assert seat is not None
    n = len(f.legal_actions())
    values = pimc(
        f, seat, side, list(range(n)), 0, 1, 0, PimcSettings(explore=0.0, solver_nodes=10**7)
    )[0]
    return max(values) if RULES.side_of(seat) == side else min(values)


def _played_on(deal: Deal, action: Action, side: int) -> float:
    deal = deal.clone()
    deal.apply(action)
    bots = [make("heuristic", 11), make("heuristic", 12)]
    while not deal.is_over and deal.stage == 1:
        s = deal.to_move
        assert s is not None
        deal.apply(bots[s].choose(deal.observation(s)))
    if deal.is_over:
        return float(deal.points[side] - deal.points[1 - side])
    return _exact_end(deal, side)


def deviation(bot: str, deals: int, seed: int, shuffles: int) -> None:
    """The gain of a bot's departures from the heuristic (see the module docstring)."""
    gains: dict[str, list[float]] = {"early": [], "late": []}
    for d in range(deals):
        deal = Deal.new(RULES, seed=seed + d)
        for seat, obs, choice in _heuristic_turns(deal):
            if len(obs.legal) > 1 and deal.stage == 1:
                mine = make(bot, 1).choose(obs)
                if mine != choice:
                    side = RULES.side_of(seat)
                    rng = random.Random(seed * 7919 + d * 131 + obs.stock_size)
                    one = []
                    for _ in range(shuffles):
                        world = _stock_shuffled(deal, rng)
                        one.append(_played_on(world, mine, side) - _played_on(world, choice, side))
                    gains["late" if obs.stock_size <= 12 else "early"].append(statistics.fmean(one))
    every = gains["early"] + gains["late"]
    for name, got in (*gains.items(), ("all", every)):
        if len(got) > 1:
            se = statistics.stdev(got) / math.sqrt(len(got))
            print(
                f"{bot} {name}: {len(got)} departures, mean gain {statistics.fmean(got):.1f} "
                f"(standard error {se:.1f}), {sum(got) / deals:.1f} points a deal"
            )


def _wins(card: str, led: str, trump: str) -> bool:
    """Whether ``card`` beats ``led`` (codes such as ``TS``) with ``trump`` the trump suit, by
    the core's rule."""
    return beats(parse_card(card), parse_card(led), SUITS.index(trump))


def seven(bot: str, deals: int, worlds: int) -> None:
    """The race for the turn-up at the first trick (see the module docstring)."""
    from bezique.bots.compiled import compiled_world
    from bezique.bots.learned import learned_params

    heuristic, other = make("heuristic", 1), make(bot, 1)
    playout_params = (learned_params(RULES), None)  # learned playouts, then the heuristic's
    found = heuristic_wins = bot_wins = 0
    gains: dict[str, list[float]] = {"learned playouts": [], "heuristic's playouts": []}
    for seed in range(deals):
        deal = Deal.new(RULES, seed=seed, dealer=seed % 2)
        _, _, lead = next(_heuristic_turns(deal))
        deal.apply(lead)
        obs = deal.observation(deal.to_move)
        trump, led = obs.trump, obs.trick[0][1]
        if trump is None or obs.turn_up is None or obs.turn_up[0] == "7":
            continue
        if "7" + trump not in obs.hand:
            continue
        if not any(_wins(c, led, trump) for c in obs.hand):
            continue
        found += 1
        h, b = heuristic.choose(obs), other.play(obs, None).action
        heuristic_wins += _wins(str(h).split()[1], led, trump)
        bot_wins += _wins(str(b).split()[1], led, trump)
        if h == b:
            continue
        world, index, _, wseed = compiled_world(obs, [h, b], 7, heuristic=False)
        assert obs.seat is not None
        side = RULES.side_of(obs.seat)
        for values, params in zip(gains.values(), playout_params, strict=True):
            v, _, _ = pimc(
                world,
                obs.seat,
                side,
                index,
                0,
                worlds,
                wseed,
                PimcSettings(
                    policy="smart",
                    explore=0.0,
                    solver_nodes=20_000,
                    couple_draws=True,
                    endgame_stock=0,
                    smart_params=params,
                    bias=None,
                    other_params=None,
                    cut=None,
                ),
            )
            values.append(statistics.fmean(x - y for x, y in zip(v[0::2], v[1::2], strict=True)))
    print(
        f"{found} positions in {deals} deals: the heuristic wins the trick in {heuristic_wins},"
        f" {bot} in {bot_wins}; they differ in {len(gains['learned playouts'])}"
    )
    for name, values in gains.items():
        if len(values) >= 2:
            se = statistics.stdev(values) / math.sqrt(len(values))
            print(
                f"  {name}: the heuristic's move less {bot}'s {statistics.fmean(values):+.2f}"
                f" ({se:.2f}) points a deal, {worlds} worlds a position"
            )


def _bot(spec: str, settings: list[str], seed: int) -> tuple[Bot, PlayerSpec]:
    """A bot from ``NAME[:budget]`` with attributes of its search set from ``KEY=VALUE``."""
    parsed = PlayerSpec.parse(spec)
    bot = make(parsed.name, seed)
    inner = getattr(bot, "bot", bot)  # a level wraps the search bot
    for item in settings:
        key, _, value = item.partition("=")
        if not hasattr(inner, key):
            raise SystemExit(f"{parsed.name} has no setting {key!r}")
        try:
            new = _setting(key, value, getattr(inner, key))
        except ValueError:
            raise SystemExit(f"not a value for {key!r}: {value!r}") from None
        setattr(inner, key, new)
    return bot, parsed


def _setting(key: str, value: str, old: object) -> object:
    """``value`` read as a value of the setting ``key``, whose present value is ``old``."""
    new: object
    if value == "None":
        new = None
    elif "," in value:  # a pair, such as learned_bar=2,1.5 or value_cut=8,8
        parts = [float(v) for v in value.split(",")]
        new = tuple(int(v) if key == "value_cut" else v for v in parts)
    elif isinstance(old, str):
        new = value
    elif isinstance(old, bool):
        new = value.lower() in ("1", "true", "yes")
    elif isinstance(old, int):
        new = int(value)
    else:
        new = float(value)
    return new


def compare(
    a: str,
    a_set: list[str],
    b: str,
    b_set: list[str],
    deals: int,
    seed: int,
    shuffles: int,
    max_stock: int = 1000,
) -> None:
    """Two bots' choices compared on the same decisions (see the module docstring)."""
    bot_a, spec_a = _bot(a, a_set, 1)
    bot_b, spec_b = _bot(b, b_set, 1)
    diff: dict[str, list[float]] = {"early": [], "late": []}
    over_h: dict[str, list[float]] = {"a": [], "b": []}
    cpu: dict[str, list[float]] = {"a": [], "b": []}
    per_deal = [0.0] * deals
    asked = 0
    for d in range(deals):
        deal = Deal.new(RULES, seed=seed + d)
        for seat, obs, choice in _heuristic_turns(deal):
            if len(obs.legal) > 1 and deal.stage == 1 and obs.stock_size <= max_stock:
                asked += 1
                t = time.process_time()
                got_a = bot_a.play(obs, spec_a.limit).action
                cpu["a"].append(time.process_time() - t)
                t = time.process_time()
                got_b = bot_b.play(obs, spec_b.limit).action
                cpu["b"].append(time.process_time() - t)
                if got_a != got_b or got_a != choice:
                    side = RULES.side_of(seat)
                    rng = random.Random(seed * 7919 + d * 131 + obs.stock_size)
                    moves = list(dict.fromkeys([choice, got_a, got_b]))
                    sums = dict.fromkeys(moves, 0.0)
                    for _ in range(shuffles):
                        world = _stock_shuffled(deal, rng)
                        for m in moves:
                            sums[m] += _played_on(world, m, side) / shuffles
                    if got_a != got_b:
                        gain = sums[got_a] - sums[got_b]
                        diff["late" if obs.stock_size <= 12 else "early"].append(gain)
                        per_deal[d] += gain
                    if got_a != choice:
                        over_h["a"].append(sums[got_a] - sums[choice])
                    if got_b != choice:
                        over_h["b"].append(sums[got_b] - sums[choice])
        print(f"deal {d}: A - B {per_deal[d]:+.1f}", flush=True)
    se_deal = statistics.stdev(per_deal) / math.sqrt(deals) if deals > 1 else math.nan
    print(f"A = {a} {' '.join(a_set)}; B = {b} {' '.join(b_set)}; {asked} decisions, {deals} deals")
    print(f"A - B: {statistics.fmean(per_deal):+.1f} points a deal (standard error {se_deal:.1f})")
    for name, got in (*diff.items(), ("all", diff["early"] + diff["late"])):
        if got:
            se = statistics.stdev(got) / math.sqrt(len(got)) if len(got) > 1 else math.nan
            print(
                f"  {name}: {len(got)} decisions differ, A's mean gain {statistics.fmean(got):+.1f} ({se:.1f})"
            )
    for who in ("a", "b"):
        got = over_h[who]
        se = statistics.stdev(got) / math.sqrt(len(got)) if len(got) > 1 else math.nan
        mean = statistics.fmean(got) if got else 0.0
        times = sorted(cpu[who])
        print(
            f"  {who.upper()} over the heuristic: {len(got)} departures, mean {mean:+.1f} ({se:.1f}), "
            f"{sum(got) / deals:+.1f} a deal; CPU s a decision median "
            f"{statistics.median(times):.3f}, p95 {times[int(0.95 * (len(times) - 1))]:.3f}, "
            f"mean {statistics.fmean(times):.3f}"
        )


def main() -> None:
    """Parse the arguments and run one diagnostic."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["noise", "policy", "deviation", "compare", "seven"])
    parser.add_argument("--a", default="pimc-c:iterations=4000", help="compare: bot A (a spec)")
    parser.add_argument(
        "--b", default="pimc-c:playout=smart,couple=yes,iterations=4000", help="compare: bot B"
    )
    parser.add_argument(
        "--a-set",
        nargs="*",
        default=[],
        help="compare: A's KEY=VALUE (a pair as A,B: learned_bar=2,1.5)",
    )
    parser.add_argument("--b-set", nargs="*", default=[], help="compare: B's KEY=VALUE")
    parser.add_argument(
        "--max-stock",
        type=int,
        default=1000,
        help="compare: only decisions with this stock or less",
    )
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--decks", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1900)
    parser.add_argument("--worlds", type=int, default=240)
    parser.add_argument("--policy", default="heuristic-exact")
    parser.add_argument("--bot", help="deviation: the bot (pimc-c); seven: (learned)")
    parser.add_argument("--shuffles", type=int, default=8)
    parser.add_argument("--pick-seed", type=int, default=9)
    parser.add_argument("--playouts", default="heuristic", help="noise: the playout policy")
    parser.add_argument("--couple", action="store_true", help="noise: coupled draws")
    parser.add_argument(
        "--cut",
        type=int,
        nargs="+",
        default=[0],
        help="noise: playouts cut this many tricks on, scored by the value model (0: whole)",
    )
    parser.add_argument(
        "--learned", action="store_true", help="noise: the learned weights in smart playouts"
    )
    parser.add_argument(
        "--explore", type=float, nargs="+", default=[0.1, 1.0], help="noise: uniform-move chances"
    )
    args = parser.parse_args()
    try:  # a misspelt player: one line naming the players, not a trace
        for spec in (args.a, args.b, args.bot or "pimc-c"):
            PlayerSpec.parse(spec)
    except ValueError as err:
        parser.error(str(err))
    if args.what == "noise":
        noise(
            args.deals,
            args.seed,
            args.worlds,
            args.pick_seed,
            args.playouts,
            args.explore,
            args.couple,
            args.cut,
            args.learned,
        )
    elif args.what == "policy":
        policy(args.decks, args.seed, args.policy)
    elif args.what == "compare":
        compare(
            args.a,
            args.a_set,
            args.b,
            args.b_set,
            args.deals,
            args.seed,
            args.shuffles,
            args.max_stock,
        )
    elif args.what == "seven":
        seven(args.bot or "learned", args.deals, args.worlds)
    else:
        deviation(args.bot or "pimc-c", args.deals, args.seed, args.shuffles)


if __name__ == "__main__":
    main()
