"""Game records: a whole deal or match as JSON, read back by replaying every action.

A record holds what is needed to play the game again from its start: the rules, the players'
names, how each deal was dealt (a shuffle seed, or the cards of a stacked deal) and every action
in notation.  The results it carries (points per deal, match scores, the winner) are checks:
reading a record replays it through the engine and refuses it if they disagree.  An unfinished
game is a valid record, so a saved game can be resumed::

    >>> import random
    >>> from bezique import Deal, Rules
    >>> deal = Deal.new(Rules.preset("classic"), seed=7, dealer=0)
    >>> rng = random.Random(7)
    >>> while not deal.is_over:
    ...     deal.apply(rng.choice(deal.legal_actions()))
    >>> record = record_deal(deal, players=["Ann", "Bob"])
    >>> GameRecord.from_json(record.to_json()) == record
    True
    >>> record.replay() == deal
    True

Every problem found while reading raises :class:`RecordError`, whose message starts with where
the problem is (``deals[1].actions[14]: ...``).
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from .cards import SHOWN, code, parse_card, shown
from .deal import Deal
from .match import Match
from .notation import Action, IllegalAction
from .rules import Rules

FORMAT = "bezique-record/1"
"""The format name and version written in every record's ``"format"`` field."""

KINDS = ("deal", "match")

_TOP_KEYS = (
    "format",
    "rules",
    "players",
    "kind",
    "seed",
    "deals",
    "scores",
    "winner",
    "meta",
    "handicap",
)
_DEAL_KEYS = ("dealer", "seed", "cards", "actions", "points")
_CARDS_KEYS = ("hands", "turn_up", "stock")
_WIDTH = 100  # lines of the pretty JSON are wrapped at this width where they can be


class RecordError(ValueError):
    """A record that cannot be read: bad JSON, a bad field, an illegal action, a wrong result.

    The message starts with where the problem is: a field path such as ``deals[0].points``, or
    ``line 3, column 5`` for malformed JSON, preceded by the file's path when reading a file.
    """


@dataclass(frozen=True)
class DealRecord:
    """One deal of a record."""

    dealer: int
    """The dealing seat."""
    seed: int | None = None
    """The shuffle seed (``Deal.new(rules, seed, dealer)``), or None for a stacked deal."""
    cards: dict[str, Any] | None = None
    """A stacked deal's cards as dealt: ``{"hands": [[code, ...], ...], "turn_up": code or
    None, "stock": [code, ...]}`` with ``stock[0]`` drawn first; None when ``seed`` is given."""
    actions: tuple[str, ...] = ()
    """Every action of the deal so far, in notation."""
    points: tuple[int, ...] | None = None
    """Final points per side once the deal is over; None while it is unfinished."""


@dataclass(frozen=True)
class GameRecord:
    """A single deal (``kind == "deal"``) or a match (``kind == "match"``), finished or not."""

    rules: Rules
    players: tuple[str, ...]
    """A name per seat."""
    kind: str
    """``"deal"`` or ``"match"``."""
    seed: int | None
    """The match seed (``Match(rules, seed)``); None for a single deal."""
    deals: tuple[DealRecord, ...]
    scores: tuple[int, ...]
    """Match totals per side; for a single deal, its points so far."""
    winner: int | None
    """The side that won the match, once decided; always None for a single deal."""
    meta: dict[str, str] = field(default_factory=dict)
    """Free text: date, event, place, notes..."""
    handicap: tuple[int, ...] = ()
    """A match's starting score per side (``Match(rules, seed, handicap)``: cent points);
    empty when every side starts on 0, and then not written."""

    # --- writing -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON values, keys in the order of the format."""
        return {
            "format": FORMAT,
            "rules": str(self.rules),
            "players": _plain(self.players),
            "kind": self.kind,
            "seed": self.seed,
            "deals": [
                {
                    "dealer": d.dealer,
                    "seed": d.seed,
                    "cards": _plain(d.cards),
                    "actions": _plain(d.actions),
                    "points": _plain(d.points),
                }
                for d in self.deals
            ],
            "scores": _plain(self.scores),
            "winner": self.winner,
            "meta": {k: self.meta[k] for k in sorted(self.meta)},
            **({"handicap": _plain(self.handicap)} if self.handicap else {}),
        }

    def to_json(self) -> str:
        """Pretty JSON (UTF-8 text, stable key order, short lists on one line), newline-ended."""
        return _pretty(self.to_dict(), 0) + "\n"

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the record to a file as :meth:`to_json`.

        The file is written beside the target and then renamed over it, so an interrupted save
        never leaves half a record.  Raises ``OSError`` if the file cannot be written.
        """
        target = os.fspath(path)
        temp = target + ".part"
        with open(temp, "w", encoding="utf-8", newline="\n") as f:
            f.write(self.to_json())
        os.replace(temp, target)

    # --- reading -------------------------------------------------------------------------------
    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read and check a record: the JSON, every field, the rules, and a replay of every
        action that must give the recorded points, scores and winner.

        Actions may be written loosely (``PLAY qs``); the record returned holds them in
        standard notation.  Raises :class:`RecordError` naming where the problem is.
        """
        try:
            data = json.loads(text, object_pairs_hook=_JSONObject.build)
        except json.JSONDecodeError as e:
            # json's message may end where its position was ("... starting at"): the position
            # goes first, and a text that stops early is said to be cut short
            end = e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated")
            what = e.msg[: -len(" at")] + " there" if e.msg.endswith(" at") else e.msg
            raise RecordError(
                f"line {e.lineno}, column {e.colno}: not valid JSON: {what}"
                + (" (the text ends early: is the file cut short?)" if end else "")
            ) from None
        except RecursionError:
            raise RecordError("not valid JSON: nested too deeply") from None
        except (UnicodeDecodeError, ValueError) as e:
            raise RecordError(_cut(f"not valid JSON: {e}", SHOWN_MESSAGE)) from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """As :meth:`from_json`, from JSON values already parsed."""
        record, given = _parse(data)
        return _check(record, given)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> GameRecord:
        """Read and check a record file; any problem, a missing file included, raises
        :class:`RecordError` whose message starts with the path."""
        name = os.fspath(path)
        try:
            with open(name, encoding="utf-8") as f:
                text = f.read()
        except FileNotFoundError:
            raise RecordError(f"{name}: no such file") from None
        except IsADirectoryError:
            raise RecordError(f"{name}: is a directory, not a record file") from None
        except UnicodeDecodeError:
            raise RecordError(f"{name}: not UTF-8 text, so not a record file") from None
        except OSError as e:
            raise RecordError(f"{name}: cannot read: {e.strerror or e}") from None
        try:
            return cls.from_json(text)
        except RecordError as e:
            raise RecordError(f"{name}: {e}") from None

    def validate(self) -> GameRecord:
        """Check a record built in Python as :meth:`from_json` checks a file; returns it with
        the actions in standard notation.  Raises :class:`RecordError`."""
        return GameRecord.from_dict(self.to_dict())

    # --- replaying -----------------------------------------------------------------------------
    def replay(self) -> Match | Deal:
        """The game as it stands at the end of the record: a :class:`Match` for a match record
        (play on with ``match.next_deal()`` or ``match.deal.apply(...)``), a :class:`Deal` for a
        single deal.  Raises :class:`RecordError` if an action is illegal."""
        r = _Replay(self)
        for _ in r.steps():
            pass
        return r.final()

    def states(self) -> Iterator[tuple[int, int, str | None, Deal]]:
        """Step through the game: ``(deal index, ply, action, deal)`` for the start of each deal
        (ply 0, action None) and after each action (``ply == j + 1`` after ``actions[j]``, the
        action in standard notation).  Each deal yielded is a clone, free to keep or change.
        Raises :class:`RecordError` on reaching an illegal action."""
        for i, ply, action, deal in _Replay(self).steps():
            yield i, ply, action, deal.clone()


# --- making records ------------------------------------------------------------------------------
def record_deal(
    deal: Deal, players: Sequence[str] | None = None, meta: Mapping[str, str] | None = None
) -> GameRecord:
    """A record of one deal as it stands (over or not).

    A deal shuffled from a seed is recorded by its seed; any other (a stacked deal, or one
    shuffled without a seed) by its cards as dealt.
    """
    if deal.initial is None:
        raise ValueError(
            "this deal was rebuilt from a position, so how it was dealt is unknown: only a deal "
            "made with Deal.new or Deal.from_cards can be recorded"
        )
    rules = deal.rules
    cards: dict[str, Any] | None = None
    if deal.seed is None:
        hands, turn_up, stock = deal.initial
        cards = {"hands": [list(h) for h in hands], "turn_up": turn_up, "stock": list(stock)}
    return GameRecord(
        rules=rules,
        players=_players(rules, players),
        kind="deal",
        seed=None,
        deals=(_deal_record(deal, deal.seed, cards),),
        scores=tuple(deal.points),
        winner=None,
        meta=_meta(meta),
    )


def record_match(
    match: Match, players: Sequence[str] | None = None, meta: Mapping[str, str] | None = None
) -> GameRecord:
    """A record of a match as it stands: every deal so far, the current one finished or not.

    The match must have been started with a seed (``Match(rules, seed=...)``): the seed fixes
    the cut for the first dealer and every shuffle, and the record replays from it.
    """
    if match.seed is None:
        raise ValueError(
            "a match started without a seed cannot be recorded: its cut and shuffles cannot be "
            "made again; start it with Match(rules, seed=...)"
        )
    finished = match.finished  # read as kept: no finished deal is replayed for its record
    return GameRecord(
        rules=match.rules,
        players=_players(match.rules, players),
        kind="match",
        seed=match.seed,
        deals=tuple(DealRecord(p.dealer, p.seed, None, p.actions, p.points) for p in finished)
        + (
            (_deal_record(match.deal, match.deal_seeds[-1], None),)
            if not match.deal.is_over
            else ()
        ),
        scores=tuple(match.scores),
        winner=match.winner,
        meta=_meta(meta),
        handicap=match.handicap if any(match.handicap) else (),
    )


def _deal_record(deal: Deal, seed: int | None, cards: dict[str, Any] | None) -> DealRecord:
    return DealRecord(
        dealer=deal.dealer,
        seed=seed,
        cards=cards,
        actions=tuple(deal.history),
        points=tuple(deal.points) if deal.is_over else None,
    )


def _players(rules: Rules, players: Sequence[str] | None) -> tuple[str, ...]:
    if players is None:
        return tuple(f"seat {i}" for i in range(rules.players))
    names = tuple(players)
    if isinstance(players, str) or not all(isinstance(p, str) for p in names):
        raise ValueError("players must be a name (text) per seat")
    if len(names) != rules.players:
        raise ValueError(f"{len(names)} player names for {rules.players} seats")
    return names


def _meta(meta: Mapping[str, str] | None) -> dict[str, str]:
    out = dict(meta or {})
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in out.items()):
        raise ValueError("meta must map text to text")
    return out


# --- replaying -----------------------------------------------------------------------------------
class _Replay:
    """Plays a record through the engine, raising RecordError at the first thing that is wrong
    with how a deal is dealt or with an action."""

    def __init__(self, record: GameRecord, given: _Given | None = None) -> None:
        self.record = record
        self.given = given
        self.match: Match | None = None
        self.deal: Deal | None = None

    def final(self) -> Match | Deal:
        if self.match is not None:
            return self.match
        assert self.deal is not None
        return self.deal

    def steps(self) -> Iterator[tuple[int, int, str | None, Deal]]:
        rec = self.record
        if rec.kind not in KINDS:
            _fail("kind", f"must be 'deal' or 'match': got {shown(rec.kind)}")
        if not rec.deals:
            _fail("deals", "a record holds at least one deal")
        if rec.kind == "deal" and len(rec.deals) != 1:
            _fail("deals", f"a single-deal record holds exactly one deal: got {len(rec.deals)}")
        for i, drec in enumerate(rec.deals):
            where = f"deals[{i}]"
            deal = self._start(i, drec, where)
            self.deal = deal
            yield i, 0, None, deal
            for j, text in enumerate(drec.actions):
                at = f"{where}.actions[{j}]"
                if not isinstance(text, str):
                    _fail(at, f"an action is text such as 'play QS': got {shown(text)}")
                try:
                    action = Action.parse(text)
                except IllegalAction as e:
                    _fail(at, f"{shown(text)} is not an action: {e}")
                try:
                    deal.apply(action)
                except IllegalAction as e:
                    _fail(at, f"{shown(text)} is illegal: {e}")
                yield i, j + 1, deal.history[-1], deal

    def _start(self, i: int, drec: DealRecord, where: str) -> Deal:
        rules = self.record.rules
        if not isinstance(drec.dealer, int) or not 0 <= drec.dealer < rules.players:
            _fail(
                f"{where}.dealer",
                f"must be a seat from 0 to {rules.players - 1}: got {shown(drec.dealer)}",
            )
        if self.record.kind == "deal":
            if drec.seed is not None:
                deal = Deal.new(rules, seed=drec.seed, dealer=drec.dealer)
            elif drec.cards is not None:
                try:
                    deal = Deal.from_cards(
                        rules,
                        hands=drec.cards["hands"],
                        turn_up=drec.cards["turn_up"],
                        stock=drec.cards["stock"],
                        dealer=drec.dealer,
                    )
                except (ValueError, KeyError, TypeError) as e:
                    _fail(f"{where}.cards", f"not a deal by these rules: {e}")
            else:
                _fail(where, "give the shuffle seed or the cards as dealt")
        else:
            deal = self._match_deal(i, where)
            given = self.given
            if (given is None or given.deal_seeds[i]) and drec.seed != self.match_seed(i):
                _fail(
                    f"{where}.seed",
                    f"the match seed {shown(self.record.seed)} deals deal {i} with seed "
                    f"{self.match_seed(i)}, but the record says {shown(drec.seed)}",
                )
            if (given is None or given.dealers[i]) and drec.dealer != deal.dealer:
                _fail(
                    f"{where}.dealer",
                    f"in this match seat {deal.dealer} deals deal {i}, but the record says "
                    f"{drec.dealer}",
                )
        if drec.cards is not None and deal.seed is not None:
            assert deal.initial is not None
            hands, turn_up, stock = deal.initial
            dealt = {"hands": [list(h) for h in hands], "turn_up": turn_up, "stock": list(stock)}
            if _plain(drec.cards) != dealt:
                _fail(f"{where}.cards", f"differ from the cards that seed {shown(deal.seed)} deals")
        return deal

    def match_seed(self, i: int) -> int:
        assert self.match is not None
        return self.match.deal_seeds[i]

    def _match_deal(self, i: int, where: str) -> Deal:
        rec = self.record
        if i == 0:
            if not isinstance(rec.seed, int) or isinstance(rec.seed, bool):
                _fail(
                    "seed",
                    f"a match record needs the match seed (a whole number): got {shown(rec.seed)}",
                )
            self.match = Match(rec.rules, seed=rec.seed, handicap=rec.handicap or None)
            return self.match.deal
        match = self.match
        assert match is not None
        if not match.deal.is_over:
            _fail(where, f"deals[{i - 1}] is not finished, so no deal can follow it")
        if match.winner is not None:
            _fail(
                where, f"the match was won by side {match.winner} in deals[{i - 1}]: no more deals"
            )
        return match.next_deal()


# --- checking ------------------------------------------------------------------------------------
@dataclass
class _Given:
    """Which derivable fields a record file spelt out (the rest are filled in by the replay)."""

    points: list[bool]
    deal_seeds: list[bool]
    dealers: list[bool]
    scores: bool = True
    winner: bool = True


def _check(record: GameRecord, given: _Given) -> GameRecord:
    """Replay a record, check its results and return it with standard notation and every
    result that was left out filled in."""
    replay = _Replay(record, given)
    actions: list[list[str]] = [[] for _ in record.deals]
    deals: list[Deal] = []
    for i, ply, action, deal in replay.steps():
        if ply == 0:
            deals.append(deal)
        else:
            assert action is not None
            actions[i].append(action)
    final = replay.final()
    out: list[DealRecord] = []
    for i, (d, deal) in enumerate(zip(record.deals, deals, strict=True)):
        points = tuple(deal.points) if deal.is_over else None
        if given.points[i] and d.points != points:
            _fail(f"deals[{i}].points", _differ(d.points, points, "the deal is not finished"))
        seed = final.deal_seeds[i] if isinstance(final, Match) else d.seed
        out.append(DealRecord(deal.dealer, seed, d.cards, tuple(actions[i]), points))
    if isinstance(final, Match):
        scores, winner = tuple(final.scores), final.winner
    else:
        scores, winner = tuple(final.points), None
    if given.scores and record.scores != scores:
        _fail("scores", _differ(record.scores, scores, ""))
    if given.winner and record.winner != winner:
        if record.kind == "deal":
            _fail(
                "winner",
                f"a single deal has no match winner: must be null, got {shown(record.winner)}",
            )
        _fail("winner", _differ(record.winner, winner, "the match is not decided"))
    return dataclasses.replace(record, deals=tuple(out), scores=scores, winner=winner)


def _differ(said: Any, replayed: Any, none_means: str) -> str:
    def show(v: Any) -> str:
        if v is None:
            return f"null ({none_means})" if none_means else "null"
        return shown(list(v) if isinstance(v, tuple) else v)

    return f"the record says {show(said)} but the replay gives {show(replayed)}"


# --- parsing -------------------------------------------------------------------------------------
class _JSONObject(dict[str, Any]):
    """A JSON object that remembers keys that appeared twice."""

    duplicates: tuple[str, ...] = ()

    @classmethod
    def build(cls, pairs: list[tuple[str, Any]]) -> _JSONObject:
        obj = cls(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            dups = []
            for k, _ in pairs:
                if k in seen:
                    dups.append(k)
                seen.add(k)
            obj.duplicates = tuple(dups)
        return obj


SHOWN_WHERE, SHOWN_MESSAGE = 80, 300
"""Characters of an error's place and message at most: a message may quote the record, which
may be anything (a 500 KB action), and an error never echoes it whole."""


def _fail(where: str, message: str) -> NoReturn:
    raise RecordError(f"{_cut(where, SHOWN_WHERE)}: {_cut(message, SHOWN_MESSAGE)}")


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 3] + "..."


def _kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"text {shown(value)}"
    if isinstance(value, int | float):
        return f"number {shown(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return shown(value)


def _object(
    value: Any, where: str, required: tuple[str, ...], allowed: tuple[str, ...] | None
) -> dict[str, Any]:
    """Check a JSON object: its keys (any, when ``allowed`` is None), each at most once."""
    if not isinstance(value, dict):
        _fail(where, f"must be a JSON object: got {_kind_of(value)}")
    dups = getattr(value, "duplicates", ())
    if dups:
        _fail(where, f"key {shown(dups[0])} appears twice")
    for key in value:
        if allowed is not None and key not in allowed:
            _fail(_join(where, key), f"unknown key; allowed: {', '.join(allowed)}")
    for key in required:
        if key not in value:
            _fail(_join(where, key), "missing")
    return value


def _join(where: str, key: str) -> str:
    key = _cut(key, SHOWN)  # a key may be any text: quoted short, as values are
    return key if where == "record" else f"{where}.{key}"


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(where, f"must be a whole number: got {_kind_of(value)}")
    return value


def _opt_int(value: Any, where: str) -> int | None:
    return None if value is None else _int(value, where)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        _fail(where, f"must be text: got {_kind_of(value)}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        _fail(where, f"must be a list: got {_kind_of(value)}")
    return value


def _ints(value: Any, where: str, count: int, what: str) -> tuple[int, ...]:
    items = _list(value, where)
    if len(items) != count:
        _fail(where, f"needs {count} numbers, one per {what}: got {len(items)}")
    return tuple(_int(v, f"{where}[{k}]") for k, v in enumerate(items))


def _card(value: Any, where: str) -> str:
    text = _text(value, where)
    try:
        return code(parse_card(text))
    except ValueError as e:
        _fail(where, str(e))


def _parse(data: Any) -> tuple[GameRecord, _Given]:
    """Check the shape and types of a record's JSON values and build the record from them."""
    if not isinstance(data, dict):
        _fail("record", f"a record is a JSON object: got {_kind_of(data)}")
    if "format" not in data:
        _fail("format", f"missing: this is not a bezique record (expected {FORMAT!r})")
    fmt = data["format"]
    if fmt != FORMAT:
        newer = isinstance(fmt, str) and fmt.startswith("bezique-record/")
        _fail(
            "format",
            f"expected {FORMAT!r}, got {shown(fmt)}"
            + (": a different version of the record format" if newer else ""),
        )
    top = _object(data, "record", ("format", "rules", "kind", "deals"), _TOP_KEYS)
    try:
        rules = Rules.from_string(_text(top["rules"], "rules"))
    except RecordError:
        raise
    except (ValueError, TypeError) as e:
        # TypeError: some malformed option values slip past the rules' own checks
        _fail("rules", f"bad rules {shown(top['rules'])}: {e}")
    kind = _text(top["kind"], "kind")
    if kind not in KINDS:
        _fail("kind", f"must be 'deal' or 'match': got {shown(kind)}")
    seed = _opt_int(top.get("seed"), "seed")
    if kind == "match" and seed is None:
        _fail("seed", "a match record needs the match seed (a whole number)")
    if kind == "deal" and seed is not None:
        _fail(
            "seed",
            "a single-deal record has no match seed (the deal's own seed goes in "
            "deals[0].seed): must be null",
        )
    if "players" in top:
        names = _list(top["players"], "players")
        if len(names) != rules.players:
            _fail("players", f"{len(names)} names for {rules.players} seats")
        players = tuple(_text(p, f"players[{k}]") for k, p in enumerate(names))
    else:
        players = tuple(f"seat {i}" for i in range(rules.players))
    raw_deals = _list(top["deals"], "deals")
    if not raw_deals:
        _fail("deals", "a record holds at least one deal")
    if kind == "deal" and len(raw_deals) != 1:
        _fail("deals", f"a single-deal record holds exactly one deal: got {len(raw_deals)}")
    given = _Given([], [], [])
    deals = []
    for i, raw in enumerate(raw_deals):
        where = f"deals[{i}]"
        required = ("actions",) if kind == "match" else ("dealer", "actions")
        d = _object(raw, where, required, _DEAL_KEYS)
        given.dealers.append("dealer" in d)
        given.deal_seeds.append("seed" in d)
        given.points.append("points" in d)
        dealer = _int(d.get("dealer", 0), f"{where}.dealer")
        if not 0 <= dealer < rules.players:
            _fail(
                f"{where}.dealer",
                f"must be a seat from 0 to {rules.players - 1}: got {shown(dealer)}",
            )
        deal_seed = _opt_int(d.get("seed"), f"{where}.seed")
        cards = None if d.get("cards") is None else _cards(d["cards"], f"{where}.cards", rules)
        if kind == "deal" and deal_seed is None and cards is None:
            _fail(where, "give the shuffle seed or the cards as dealt")
        actions = tuple(
            _text(a, f"{where}.actions[{j}]")
            for j, a in enumerate(_list(d["actions"], f"{where}.actions"))
        )
        points = d.get("points")
        if points is not None:
            points = _ints(points, f"{where}.points", rules.sides, "side")
        deals.append(DealRecord(dealer, deal_seed, cards, actions, points))
    scores: tuple[int, ...] = ()
    given.scores = "scores" in top
    if given.scores:
        scores = _ints(top["scores"], "scores", rules.sides, "side")
    given.winner = "winner" in top
    winner = _opt_int(top.get("winner"), "winner")
    if winner is not None and kind == "deal":
        _fail("winner", f"a single deal has no match winner: must be null, got {shown(winner)}")
    if winner is not None and not 0 <= winner < rules.sides:
        _fail("winner", f"must be a side from 0 to {rules.sides - 1}, or null: got {shown(winner)}")
    meta: dict[str, str] = {}
    if "meta" in top and top["meta"] is not None:
        m = _object(top["meta"], "meta", (), None)
        meta = {k: _text(v, _join("meta", k)) for k, v in m.items()}
    handicap: tuple[int, ...] = ()
    if top.get("handicap") is not None:
        if kind != "match":
            _fail("handicap", "only a match record has a handicap")
        handicap = _ints(top["handicap"], "handicap", rules.sides, "side")
        if any(h < 0 for h in handicap):
            _fail("handicap", f"a starting score cannot be negative: got {shown(list(handicap))}")
    record = GameRecord(rules, players, kind, seed, tuple(deals), scores, winner, meta, handicap)
    return record, given


def _cards(value: Any, where: str, rules: Rules) -> dict[str, Any]:
    c = _object(value, where, _CARDS_KEYS, _CARDS_KEYS)
    hands_raw = _list(c["hands"], f"{where}.hands")
    if len(hands_raw) != rules.players:
        _fail(f"{where}.hands", f"{len(hands_raw)} hands for {rules.players} seats")
    hands = [
        [
            _card(x, f"{where}.hands[{s}][{k}]")
            for k, x in enumerate(_list(h, f"{where}.hands[{s}]"))
        ]
        for s, h in enumerate(hands_raw)
    ]
    turn_up = None if c["turn_up"] is None else _card(c["turn_up"], f"{where}.turn_up")
    stock = [
        _card(x, f"{where}.stock[{k}]") for k, x in enumerate(_list(c["stock"], f"{where}.stock"))
    ]
    return {"hands": hands, "turn_up": turn_up, "stock": stock}


def _plain(value: Any) -> Any:
    """Tuples as lists, all the way down, for JSON."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


# --- pretty JSON ---------------------------------------------------------------------------------
def _pretty(value: Any, depth: int) -> str:
    """JSON with nested objects and lists on their own lines, and lists of plain values on one
    line, wrapped at the width."""
    pad = "  " * (depth + 1)
    end = "  " * depth
    if isinstance(value, dict) and value:
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {_pretty(v, depth + 1)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(value, list) and value:
        if any(isinstance(v, dict | list) for v in value):
            return "[\n" + ",\n".join(pad + _pretty(v, depth + 1) for v in value) + "\n" + end + "]"
        parts = [json.dumps(v, ensure_ascii=False) for v in value]
        one = "[" + ", ".join(parts) + "]"
        if len(pad) + len(one) <= _WIDTH:
            return one
        lines: list[str] = []
        line = ""
        for p in parts:
            if line and len(pad) + len(line) + len(p) + 2 > _WIDTH:
                lines.append(line)
                line = p
            else:
                line = f"{line}, {p}" if line else p
        lines.append(line)
        return "[\n" + ",\n".join(pad + ln for ln in lines) + "\n" + end + "]"
    return json.dumps(value, ensure_ascii=False)


__all__ = ["FORMAT", "DealRecord", "GameRecord", "RecordError", "record_deal", "record_match"]
