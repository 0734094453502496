"""What one seat may know about a deal, as an immutable value.

An :class:`Observation` is built only by :meth:`bezique.core.deal.Deal.observation`.  It holds the
seat's own concealed cards, every declared card on the table (with the melds it has scored in),
the cards each seat is publicly known to hold (a turn-up taken, melds returned to the hand), all
cards played, the scoring events and the legal actions, and nothing else: no other seat's
concealed cards and no stock order.  ``seat=None`` is the public view a spectator gets.

Its one-line text form (:meth:`Observation.to_string`, :meth:`Observation.from_string`) is the
position string of a deal as that seat sees it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .cards import SUITS, code, parse_card
from .events import ScoreEvent
from .notation import Action, IllegalAction, parse_ref
from .rules import Rules
from .worlds import Worlds

FORMAT = "bezique1"


@dataclass(frozen=True)
class Observation:
    """A seat's view of a deal.  Card lists are sorted codes; tables carry ``CODE@melds``."""

    rules: Rules
    seat: int | None
    """The observing seat; None for the public (spectator) view."""
    dealer: int
    phase: str
    """'play', 'declare' or 'over'."""
    to_move: int | None
    stage: int
    """1 while the stock lasts, 2 for the last tricks."""
    leader: int
    """Seat that led (or leads) the current trick."""
    trump: str | None
    turn_up: str | None
    stock_size: int
    """Face-down cards left to draw (the turn-up not counted)."""
    hand: tuple[str, ...]
    """The seat's own concealed cards (empty for the public view)."""
    hand_sizes: tuple[int, ...]
    tables: tuple[tuple[str, ...], ...]
    """Per seat, its declared cards as ``CODE@meld+meld``."""
    known: tuple[tuple[str, ...], ...]
    """Per seat, concealed cards that every player knows it holds."""
    trick: tuple[tuple[int, str], ...]
    """The trick in progress: (seat, card) in play order."""
    tricks: tuple[tuple[int, tuple[str, ...], int], ...]
    """Completed tricks: (leader, cards in play order, winner)."""
    events: tuple[ScoreEvent, ...]
    """Scoring events (:class:`~bezique.core.events.ScoreEvent`): (tricks completed before it,
    seat, what, points)."""
    points: tuple[int, ...]
    """Points per side so far, as :attr:`Deal.points`."""
    declared_this_trick: int
    exchanged_this_trick: bool
    history: tuple[str, ...]
    """Every action of the deal so far, in notation."""
    legal: tuple[str, ...]
    """The legal actions in notation when this seat is to move, else empty."""
    live_melds: tuple[tuple[int, str, tuple[str, ...]], ...] = ()
    """With meld re-forming (or a sequence that must join a marriage): the melds on the table
    none of whose cards has been played, as (seat, meld, cards)."""
    carry: tuple[int, ...] = ()
    """Each side's game score coming into the deal; empty when all are 0."""
    game_bezique: bool = False
    """A bezique was declared in an earlier deal of this game (``first_bezique`` is spent)."""
    legal_ids: tuple[int, ...] = ()
    """The action id of each of :attr:`legal`, in the same order (:mod:`bezique.core.ids`)."""

    @property
    def is_over(self) -> bool:
        """True once the deal is over."""
        return self.phase == "over"

    @property
    def my_turn(self) -> bool:
        """True when the observing seat is to move."""
        return self.seat is not None and self.to_move == self.seat

    def to_string(self) -> str:
        """The one-line position string of this view; :meth:`from_string` reads it back."""
        return encode(self)

    @classmethod
    def from_string(cls, text: str) -> Observation:
        """Read a seat's position string; raises ``ValueError`` saying what is wrong."""
        fields_, hidden = decode_fields(text)
        if hidden:
            raise ValueError("this is a full position string: read it with Deal.from_position")
        obs = observation_from_fields(fields_)
        if obs.seat is not None and obs.to_move == obs.seat and obs.phase != "over":
            # the legal actions (and their ids) are the engine's, in any consistent world
            world = Worlds.from_observation(obs, 0)
            actions = world.legal_actions()
            id_of = {a: i for i, a in world.legal_id_actions()}
            obs = dataclasses.replace(
                obs,
                legal=tuple(str(a) for a in actions),
                legal_ids=tuple(id_of[a] for a in actions),
            )
        return obs


def _join(items: tuple[str, ...] | list[str], sep: str = ",") -> str:
    return sep.join(items)


def encode(o: Observation, extra: dict[str, str] | None = None) -> str:
    """The position string of a view (``extra``: further fields, the hidden part of a deal)."""
    parts = {
        "rules": str(o.rules),
        "seat": "*" if o.seat is None else str(o.seat),
        "dealer": str(o.dealer),
        "phase": o.phase,
        "to": "-" if o.to_move is None else str(o.to_move),
        "stage": str(o.stage),
        "lead": str(o.leader),
        "trump": o.trump or "-",
        "up": o.turn_up or "-",
        "stock": str(o.stock_size),
        "hand": _join(o.hand),
        "sizes": _join([str(n) for n in o.hand_sizes]),
        "tables": "/".join(_join(t) for t in o.tables),
        "known": "/".join(_join(k) for k in o.known),
        "trick": _join([f"{s}:{c}" for s, c in o.trick]),
        "tricks": _join([f"{ld}:{'.'.join(cs)}:{w}" for ld, cs, w in o.tricks]),
        "events": ";".join(f"{t}:{s}:{what}:{p}" for t, s, what, p in o.events),
        "points": _join([str(p) for p in o.points]),
        "declared": str(o.declared_this_trick),
        "exchanged": "1" if o.exchanged_this_trick else "0",
        "history": _join(list(o.history)),
        "melds": ";".join(f"{s}:{m}:{'.'.join(cs)}" for s, m, cs in o.live_melds),
    }
    if o.carry:  # written only when a side brings a score in, so older strings stay the same
        parts["carry"] = _join([str(p) for p in o.carry])
    if o.game_bezique:  # likewise only when an earlier deal of the game had a bezique
        parts["gamebezique"] = "1"
    if extra:
        parts.update(extra)
    return FORMAT + "|" + "|".join(f"{k}={v}" for k, v in parts.items())


_FIELDS = [
    "rules",
    "seat",
    "dealer",
    "phase",
    "to",
    "stage",
    "lead",
    "trump",
    "up",
    "stock",
    "hand",
    "sizes",
    "tables",
    "known",
    "trick",
    "tricks",
    "events",
    "points",
    "declared",
    "exchanged",
    "history",
    "melds",
]


_OPTIONAL = ("carry", "gamebezique")


def decode_fields(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """Split a position string into its observation fields and its hidden part."""
    if not isinstance(text, str) or not text.startswith(FORMAT + "|"):
        raise ValueError(f"not a position string: it must start with '{FORMAT}|'")
    out: dict[str, str] = {}
    for part in text.strip().split("|")[1:]:
        key, eq, value = part.partition("=")
        if not eq:
            raise ValueError(f"bad field {part!r} in position string: expected key=value")
        if key in out:
            raise ValueError(f"field {key!r} appears twice in position string")
        out[key] = value
    missing = [k for k in _FIELDS if k not in out]
    if missing:
        raise ValueError(f"position string lacks field(s): {', '.join(missing)}")
    hidden: dict[str, str] = {k: out.pop(k) for k in ("hands", "deck") if k in out}
    unknown = [k for k in out if k not in _FIELDS and k not in _OPTIONAL]
    if unknown:
        raise ValueError(f"unknown field(s) in position string: {', '.join(unknown)}")
    return out, hidden


def observation_from_fields(f: dict[str, str]) -> Observation:
    """An Observation from position-string fields, checking every value; its legal actions
    are left empty (:meth:`Observation.from_string` works them out)."""
    try:
        rules = Rules.from_string(f["rules"])
        n = rules.players

        def seat_or_none(v: str, none: str) -> int | None:
            if v == none:
                return None
            s = int(v)
            if not 0 <= s < n:
                raise ValueError(f"no seat {s}")
            return s

        def cards(v: str) -> tuple[str, ...]:
            return tuple(code(parse_card(c)) for c in v.split(",") if c)

        def refs(v: str) -> tuple[str, ...]:
            return tuple(parse_ref(c) for c in v.split(",") if c)

        def per_seat(v: str, fn: Any) -> tuple[Any, ...]:
            parts = v.split("/")
            if len(parts) != n:
                raise ValueError(f"expected {n} seats in {v!r}")
            return tuple(fn(p) for p in parts)

        def trick_item(t: str) -> tuple[int, tuple[str, ...], int]:
            ld, cs, w = t.split(":")
            return seat(ld), cards(cs.replace(".", ",")), seat(w)

        def event(t: str) -> ScoreEvent:
            e = ScoreEvent.parse(t)
            seat(e.seat)  # a seat of this game
            return e

        phase = f["phase"]
        if phase not in ("play", "declare", "over"):
            raise ValueError(f"bad phase {phase!r}")
        trump = None if f["trump"] == "-" else f["trump"]
        if trump is not None and (len(trump) != 1 or trump not in SUITS):
            raise ValueError(f"bad trump {trump!r}")

        def seat(v: str | int) -> int:
            s = int(v)
            if not 0 <= s < n:
                raise ValueError(f"no seat {s}")
            return s

        def counts(v: str, length: int, what: str) -> tuple[int, ...]:
            out = tuple(int(x) for x in v.split(","))
            if len(out) != length:
                raise ValueError(f"{what} needs {length} numbers, got {len(out)}")
            return out

        dealer = seat_or_none(f["dealer"], "")
        leader = seat_or_none(f["lead"], "")
        assert dealer is not None and leader is not None
        return Observation(
            rules=rules,
            seat=seat_or_none(f["seat"], "*"),
            dealer=dealer,
            phase=phase,
            to_move=seat_or_none(f["to"], "-"),
            stage=int(f["stage"]),
            leader=leader,
            trump=trump,
            turn_up=None if f["up"] == "-" else code(parse_card(f["up"])),
            stock_size=int(f["stock"]),
            hand=cards(f["hand"]),
            hand_sizes=counts(f["sizes"], n, "sizes"),
            tables=per_seat(f["tables"], refs),
            known=per_seat(f["known"], cards),
            trick=tuple(
                (seat(s), code(parse_card(c)))
                for s, c in (t.split(":") for t in f["trick"].split(",") if t)
            ),
            tricks=tuple(trick_item(t) for t in f["tricks"].split(",") if t),
            events=tuple(event(t) for t in f["events"].split(";") if t),
            points=counts(f["points"], rules.sides, "points"),
            declared_this_trick=int(f["declared"]),
            exchanged_this_trick=f["exchanged"] == "1",
            history=tuple(str(Action.parse(a)) for a in f["history"].split(",") if a),
            legal=(),
            live_melds=tuple(
                (seat(a), b, tuple(parse_ref(r) for r in c.split(".")))
                for a, b, c in (t.split(":") for t in f["melds"].split(";") if t)
            ),
            carry=counts(f["carry"], rules.sides, "carry") if "carry" in f else (),
            game_bezique=_flag(f.get("gamebezique", "0"), "gamebezique"),
        )
    except (ValueError, IllegalAction, AssertionError) as e:
        raise ValueError(f"bad position string: {e}") from None


def _flag(value: str, what: str) -> bool:
    if value not in ("0", "1"):
        raise ValueError(f"{what} must be 0 or 1: got {value!r}")
    return value == "1"
