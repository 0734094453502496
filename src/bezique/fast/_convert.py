"""A reference deal's full position string turned into the C engine's state fields.

Only the documented position string (``Deal.position()``, format ``bezique1``) is read, never a
``Deal``'s private attributes.  Card ids are given in the order ``Deal.from_position`` gives
them (tables, known cards, the trick, the tricks, the turn-up, the concealed hands, the stock),
so a :class:`~bezique.fast.FastDeal` and the reference deal rebuilt from the same string name
the same physical copies alike, down to which copy of a card is played.
"""

from __future__ import annotations

from typing import Any

from ..core.brisques import majority_adjustments
from ..core.cards import SUITS, parse_card
from ..core.events import EventKind, ScoreEvent
from ..core.melds import MELD_BY_NAME, profile_mask
from ..core.rules import Rules
from ..core.scoring import kind_values, trick_values
from ..core.slots import PART_BONUS, PART_LAST, PART_MELDS, PART_TRICKS

_PHASES = {"play": 0, "declare": 1, "over": 2}
_DOUBLING = ("royal-marriage", "bezique", "trump-sequence")  # repeat_doubles, in C's order


def split_position(text: str) -> dict[str, str]:
    """The ``key=value`` fields of a position string."""
    if not isinstance(text, str) or not text.startswith("bezique1|"):
        raise ValueError("not a full position string (it must start with 'bezique1|')")
    out = {}
    for part in text.strip().split("|")[1:]:
        key, _, value = part.partition("=")
        out[key] = value
    if "hands" not in out or "deck" not in out:
        raise ValueError("a one-seat view has no hidden cards: a whole deal is needed")
    return out


def _cards(v: str) -> list[int]:
    return [parse_card(c) for c in v.split(",") if c]


def _ref(ref: str) -> tuple[int, int]:
    card, _, where = ref.partition("@")
    return parse_card(card), profile_mask(where.split("+"))


def settle_tricks(
    rules: Rules, points: list[list[int]], carry: list[int], ended_early: bool
) -> None:
    """The trick points of a finished deal, in place, as ``Deal._settle_tricks`` leaves them:
    none when it ended early (unless they count at once), else the brisque majority."""
    if ended_early and not (
        rules.brisque_timing == "immediate" or rules.trick_scoring == "greek-per-trick"
    ):
        for p in points:
            p[PART_TRICKS] = 0
    elif rules.trick_scoring == "brisque-majority":
        scores = [
            c + p[PART_MELDS] + p[PART_LAST] + p[PART_BONUS]
            for c, p in zip(carry, points, strict=True)
        ]
        adjust = majority_adjustments(rules, [p[PART_TRICKS] for p in points], scores)
        for p, a in zip(points, adjust, strict=True):
            p[PART_TRICKS] = a


def load_args(
    rules: Rules, text: str
) -> tuple[int, list[list[int]], int, list[int], dict[str, Any]]:
    """(dealer, hands, turn-up id, stock in draw order, fields) for ``Core.load``."""
    f = split_position(text)
    n = rules.players
    counts = [0] * 33
    for k in rules.pack_kinds:
        counts[k] += 1
    offset, total = [0] * 33, 0
    for k in range(33):
        offset[k], total = total, total + counts[k]
    used = [0] * 33

    def take(k: int) -> int:
        if used[k] >= counts[k]:
            raise ValueError(f"inconsistent position: too many {k}")
        used[k] += 1
        return offset[k] + used[k] - 1

    hands: list[list[int]] = [[] for _ in range(n)]
    masks: list[tuple[int, int, int]] = []
    mask_of: dict[int, int] = {}
    for seat, part in enumerate(f["tables"].split("/")):
        for ref in filter(None, part.split(",")):
            k, m = _ref(ref)
            c = take(k)
            mask_of[c] = m
            masks.append((c, m & ((1 << 64) - 1), m >> 64))
            hands[seat].append(c)
    known: list[int] = []
    for seat, part in enumerate(f["known"].split("/")):
        for k in _cards(part):
            c = take(k)
            known.append(c)
            hands[seat].append(c)
    trick = []
    for item in filter(None, f["trick"].split(",")):
        s, card = item.split(":")
        trick.append((int(s), take(parse_card(card))))
    per_kind, per_trick = kind_values(rules), trick_values(rules)[1]  # a wild card worth 0
    sides = rules.sides
    points = [[0, 0, 0, 0] for _ in range(sides)]  # by PART_MELDS, ..., PART_BONUS
    won = [0] * n
    played = [0] * 33
    last_winner = last_leader = -1
    tricks = [t for t in f["tricks"].split(",") if t]
    for item in tricks:
        _, cs, w = item.split(":")
        winner = int(w)
        value = per_trick
        for k in _cards(cs.replace(".", ",")):
            take(k)
            played[k] += 1
            value += per_kind[k]
        won[winner] += 1
        last_winner = winner
        last_leader = int(item.split(":")[0])
        points[rules.side_of(winner)][PART_TRICKS] += value
    turn_up = -1 if f["up"] == "-" else take(parse_card(f["up"]))
    for seat, part in enumerate(f["hands"].split("/")):
        hands[seat].extend(take(k) for k in _cards(part))
    stock = [take(k) for k in _cards(f["deck"])]
    for h in hands:
        h.sort()
    cb_any = 0
    ended_early = False
    cb_state = [0] * n
    doubled = [0] * (3 * n)
    melds_scored = [0] * (64 * n)  # the observation tensor's counts (envs.encoding)
    exchanges = [0] * n
    cb_count = [0] * n
    for item in filter(None, f["events"].split(";")):
        event = ScoreEvent.parse(item)
        seat, kind = event.seat, event.kind
        points[rules.side_of(seat)][event.part] += event.points
        if kind is EventKind.CARTE_BLANCHE:
            cb_any, cb_state[seat] = 1, 1
            cb_count[seat] += 1
        elif kind is EventKind.TARGET_REACHED:
            ended_early = True
        elif kind is EventKind.CARTE_BLANCHE_ENDS:
            cb_state[seat] = 2
        elif kind is EventKind.EXCHANGE:
            exchanges[seat] += 1
        elif kind is EventKind.MELD and event.meld:
            melds_scored[64 * seat + MELD_BY_NAME[event.meld].id] += 1
            if event.meld in _DOUBLING:
                doubled[3 * seat + _DOUBLING.index(event.meld)] += 1
    carry = [int(x) for x in f["carry"].split(",")] if f.get("carry") else [0] * sides
    if f["phase"] == "over":  # the trick points as the finished deal settled them
        settle_tricks(rules, points, carry, ended_early)
    instances = []
    for item in filter(None, f["melds"].split(";")):
        who, name, refs = item.split(":")
        seat = int(who)
        ids: list[int] = []
        for r in refs.split("."):
            k, m = _ref(r)
            found = next(
                c
                for c in hands[seat]
                if offset[k] <= c < offset[k] + counts[k]
                and mask_of.get(c, 0) == m
                and c not in ids
            )
            ids.append(found)
        instances.append((seat, MELD_BY_NAME[name].id, ids))
    trump = f["trump"]
    fields = {
        "leader": int(f["lead"]),
        "to_move": -1 if f["to"] == "-" else int(f["to"]),
        "phase": _PHASES[f["phase"]],
        "stage": int(f["stage"]),
        "trump": -1 if trump == "-" else SUITS.index(trump),
        "declared": int(f["declared"]),
        "exchanged": int(f["exchanged"] == "1"),
        "tricks": len(tricks),
        "last_winner": last_winner,
        "last_leader": last_leader,  # draw_order=leader-first: who draws first
        "cb_any": cb_any,
        "won": won,
        "cb_state": cb_state,
        "doubled": doubled,
        "melds_scored": melds_scored,
        "exchanges": exchanges,
        "cb_count": cb_count,
        "carry": carry,
        # a bezique in an earlier deal of the game: first_bezique is spent (HAITIAN.md H07)
        "game_bezique": int(f.get("gamebezique") == "1"),
        "points": [p for side in points for p in side],
        "played": played,
        "known": known,
        "masks": masks,
        "trick": trick,
        "instances": instances,
    }
    return int(f["dealer"]), hands, turn_up, stock, fields
