"""The WebSocket protocol: typed JSON messages, each with a literal ``type`` and the protocol
version ``v``; every message about a move carries its move number.

Every view of a deal sent to a client is built here from one
:meth:`bezique.core.deal.Deal.observation` (``None`` for a spectator), so a client learns only
what its seat may know.  ``docs/protocol.md`` describes the messages and ``protocol.schema.json``
beside this module gives their exact shapes.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any, Literal, TypedDict

from ..core.deal import SideResult
from ..core.events import ScoreEvent
from ..core.match import Match, PlayedDeal
from ..core.notation import Action, IllegalAction
from ..core.observation import Observation
from ..core.rules import Rules
from ..core.scoring import action_points, declaration_points

VERSION = 1
"""The protocol version, ``v`` in every message."""
MAX_MESSAGE = 2048
"""Largest client message accepted, in characters."""
MAX_ACTION = 1000
"""Longest action text accepted."""
MAX_NAME = 40
"""Longest player name kept."""

ErrorCode = Literal[
    "malformed",
    "too-large",
    "rate",
    "version",
    "unknown-type",
    "hello-first",
    "auth",
    "no-table",
    "spectator",
    "not-started",
    "over",
    "not-your-turn",
    "stale",
    "illegal",
    "not-allowed",
    "server",
]


class ProtocolError(Exception):
    """A client message that cannot be accepted; ``code`` says which kind of problem it is."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message


# --- client to server ---------------------------------------------------------------------------
class Hello(TypedDict):
    """The first message on a connection: a seat token, or none to watch."""

    type: Literal["hello"]
    v: int
    token: str | None


class ActionMsg(TypedDict):
    """Play an action; ``move`` is the number of actions the client has seen played."""

    type: Literal["action"]
    v: int
    move: int
    action: str


class Ready(TypedDict):
    """Ready for the next deal once deal ``deal`` is over."""

    type: Literal["ready"]
    v: int
    deal: int


class Start(TypedDict):
    """The host starts a waiting table, computer players taking the empty seats."""

    type: Literal["start"]
    v: int


class HintRequest(TypedDict):
    """Ask the computer what it would play now."""

    type: Literal["hint"]
    v: int
    move: int


class ReviewRequest(TypedDict):
    """Ask where the computer would have played differently in a finished deal."""

    type: Literal["review"]
    v: int
    deal: int


class Ping(TypedDict):
    type: Literal["ping"]
    v: int


ClientMessage = Hello | ActionMsg | Ready | Start | HintRequest | ReviewRequest | Ping

_CLIENT_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "hello": {"token": (str, type(None))},
    "action": {"move": (int,), "action": (str,)},
    "ready": {"deal": (int,)},
    "start": {},
    "hint": {"move": (int,)},
    "review": {"deal": (int,)},
    "ping": {},
}
_OPTIONAL = {"hello": {"token"}}


def parse_client(text: str | bytes | None) -> ClientMessage:
    """Check a client message and return it; raises :class:`ProtocolError` saying what is
    wrong.  Unknown keys, wrong types, a wrong version and oversized text are all refused."""
    if not isinstance(text, str):
        raise ProtocolError("malformed", "messages are JSON text frames")
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("too-large", f"a message may have at most {MAX_MESSAGE} characters")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message is a JSON object")
    if not plain_text(data):
        raise ProtocolError("malformed", "text must be valid Unicode (no lone surrogates)")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _CLIENT_FIELDS:
        raise ProtocolError(
            "unknown-type", f"unknown message type {kind!r}; types: {', '.join(_CLIENT_FIELDS)}"
        )
    if data.get("v") != VERSION or isinstance(data.get("v"), bool):
        raise ProtocolError("version", f"this server speaks protocol version {VERSION}")
    fields = _CLIENT_FIELDS[kind]
    optional = _OPTIONAL.get(kind, set())
    for key in data:
        if key not in ("type", "v") and key not in fields:
            raise ProtocolError("malformed", f"unknown key {key!r} in a {kind} message")
    for key, types in fields.items():
        if key not in data:
            if key in optional:
                data[key] = None
                continue
            raise ProtocolError("malformed", f"a {kind} message needs {key!r}")
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, types):
            raise ProtocolError("malformed", f"{key!r} has the wrong type")
        if isinstance(value, int) and not 0 <= value < 1 << 31:
            raise ProtocolError("malformed", f"{key!r} is out of range")
    if kind == "action" and len(data["action"]) > MAX_ACTION:
        raise ProtocolError("too-large", f"an action has at most {MAX_ACTION} characters")
    if kind == "hello" and data["token"] is not None and len(data["token"]) > 100:
        raise ProtocolError("malformed", "bad token")
    return data  # type: ignore[return-value]


def clean_name(name: str | None, fallback: str) -> str:
    """A name to show and store: control characters (NUL among them, which PostgreSQL's text
    refuses), format characters (bidirectional overrides, zero-width characters, which could
    disguise a name or turn the text around it) and lone surrogates dropped, white space collapsed, at most ``MAX_NAME`` long."""
    kept = "".join(
        ch
        for ch in str(name or "")
        if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cs", "Cf")
    )
    text = " ".join(kept.split())[:MAX_NAME]
    return text or fallback


def plain_text(value: Any) -> bool:
    """Whether every string in JSON values (keys too) can be written as UTF-8: JSON's
    ``\\ud800`` escapes give lone surrogates, which no UTF-8 text (a reply, a log line, a
    database) can hold."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return True


def parse_action(text: str) -> Action:
    """An action in notation, or :class:`ProtocolError` ``malformed``."""
    try:
        return Action.parse(text)
    except IllegalAction as e:
        raise ProtocolError("malformed", str(e)) from None


# --- server to client ---------------------------------------------------------------------------
def scoring_event(event: ScoreEvent, rules: Rules) -> dict[str, Any]:
    """One scoring event with named fields, read from the core's typed value (never from its
    words): ``trick`` (tricks completed before it), ``seat``, ``side``, ``kind`` (an
    :class:`~bezique.core.events.EventKind` value), ``points``, ``meld`` (the meld's name, or
    ``""``), ``cards`` (the cards the event names: shown by a meld, an exchange, the turn-up or
    a seven, so public) and ``how`` (a seven of trumps: played, won or captured; else ``""``)."""
    return {
        "trick": event.trick,
        "seat": event.seat,
        "side": rules.side_of(event.seat),
        "kind": event.kind.value,
        "points": event.points,
        "meld": event.meld,
        "cards": list(event.cards),
        "how": event.how,
    }


def view(obs: Observation) -> dict[str, Any]:
    """A seat's view of the deal as JSON values: exactly the observation, with each legal
    action's points (a fact of the rules) beside it."""
    rules = obs.rules
    return {
        "seat": obs.seat,
        "dealer": obs.dealer,
        "phase": obs.phase,
        "to_move": obs.to_move,
        "stage": obs.stage,
        "leader": obs.leader,
        "trump": obs.trump,
        "turn_up": obs.turn_up,
        "stock_size": obs.stock_size if rules.show_stock_count else None,
        "hand": list(obs.hand),
        "hand_sizes": list(obs.hand_sizes),
        "tables": [list(t) for t in obs.tables],
        "known": [list(k) for k in obs.known],
        "trick": [[s, c] for s, c in obs.trick],
        "tricks": [[ld, list(cs), w] for ld, cs, w in obs.tricks],
        # the text form, as records write it (clients before ``scoring`` read these words)
        "events": [[e.trick, e.seat, e.what, e.points] for e in obs.events],
        "scoring": [scoring_event(e, rules) for e in obs.events],
        "points": list(obs.points),
        "history": list(obs.history),
        "legal": [{"action": a, "points": declaration_points(obs, a)} for a in obs.legal],
        "tricks_total": rules.tricks,
    }


def _result(r: SideResult) -> dict[str, int]:
    return {
        "melds": r.melds,
        "tricks": r.tricks,
        "last_trick": r.last_trick,
        "bonuses": r.bonuses,
        "brisques": r.brisques,
        "total": r.total,
    }


def deal_summary(rules: Rules, deal: PlayedDeal) -> dict[str, Any]:
    """A finished deal's points and how they were made (numbers only: nothing hidden)."""
    out: dict[str, Any] = {
        "points": list(deal.points),
        "result": [_result(r) for r in deal.result],
        "payout": None,
        "rubicon": False,
    }
    if rules.deal_scoring == "per-deal":
        s = deal.settlement(rules)
        out["payout"] = list(s.payout)
        out["rubicon"] = s.rubicon
    return out


def games_info(match: Match) -> dict[str, Any] | None:
    """A match of games (Haitian "cent points", ``match_games``): the games needed, each
    side's count, the handicap each side starts a game on, and every game finished (its
    deals, winner, final scores, and whether it was won en bas table, counting 2); None for
    a match that is one game."""
    rules = match.rules
    if not rules.match_games:
        return None
    games = match.games
    return {
        "needed": rules.match_games,
        "double_below": rules.double_game_below,
        "counts": list(match.match_counts),
        "handicap": list(match.handicap),
        "played": [
            {
                "first_deal": g.first_deal,
                "last_deal": g.last_deal,
                "winner": g.winner,
                "scores": list(g.scores),
                "double": g.double,
            }
            for g in games
        ],
    }


def match_info(match: Match, moves: int, ready: list[bool]) -> dict[str, Any]:
    """Where the match stands: deal number, totals (the current game's, in a match of games),
    the finished deals and games, who is ready."""
    return {
        "deal": len(match.deals) - 1,
        "moves": moves,
        "scores": list(match.scores),
        "winner": match.winner,
        "target": match.rules.target,
        "per_deal": match.rules.deal_scoring == "per-deal",
        "deals": [deal_summary(match.rules, d) for d in match.finished],
        "ready": list(ready),
        "games": games_info(match),
    }


def message(kind: str, **fields: Any) -> dict[str, Any]:
    """A server message: ``{"type": kind, "v": VERSION, ...}``."""
    return {"type": kind, "v": VERSION, **fields}


def error(code: ErrorCode, text: str, move: int | None = None) -> dict[str, Any]:
    """An error message; the client's message changed nothing."""
    out = message("error", code=code, message=text)
    if move is not None:
        out["move"] = move
    return out


def dumps(msg: dict[str, Any]) -> str:
    """Compact JSON of a message."""
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


__all__ = [
    "MAX_MESSAGE",
    "VERSION",
    "ClientMessage",
    "ProtocolError",
    "action_points",
    "clean_name",
    "deal_summary",
    "dumps",
    "error",
    "games_info",
    "match_info",
    "message",
    "parse_action",
    "parse_client",
    "plain_text",
    "scoring_event",
    "view",
]
