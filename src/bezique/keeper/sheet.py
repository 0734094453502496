"""The score sheet of a deal, the journal's line format, and the helpers of the keeper."""

from __future__ import annotations

import difflib
import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import cards as _cards
from ..core.cards import (
    code,
    parse_card,
)
from ..core.games import GameResult
from ..core.match import Settlement
from ..core.melds import (
    MELD_BY_NAME,
    MELDS,
)
from ..core.penalties import schemes as penalty_schemes
from ..core.rules import Rules

JOURNAL_FORMAT = "bezique-keeper"
JOURNAL_VERSION = 1

_WILD: int | None = getattr(_cards, "WILD", None)
"""The kind of a wild card, where the rules have them (old Russian)."""

OFFENCES: dict[str, dict[str, tuple[int | None, str]]] = penalty_schemes()
"""The penalties of each ``penalty_scheme`` (RULES.md 2.1.4), as the core writes them
(:func:`bezique.core.penalties.offences`): name -> (points, meaning).  Russian points are taken
from the offender; Victorian points are given to the offender's opponents; under
``no-further-points`` the offender's side scores nothing more in the game.  ``None``: a reset to
0 (Russian) or points entered with the penalty (Victorian revoke).  The Russian extra card costs
the rules' ``extra_card_penalty`` (:meth:`Keeper.offences`)."""

_ALIASES = {
    "sequence": "trump-sequence",
    "royal": "royal-marriage",
    "double-royal": "double-royal-marriage",
    "common-marriage": "marriage",
    "seven-of-trumps": "seven",
    "blanche": "carte-blanche",
}


@dataclass
class Declaration:
    """One scored declaration of a deal."""

    seat: int
    meld: str
    """The meld name, or ``exchange`` for the seven of trumps exchanged for the turn-up."""
    cards: tuple[str, ...]
    points: int


@dataclass
class DealSheet:
    """The score sheet of one deal: per side, where its points came from."""

    number: int
    dealer: int
    turn_up: str | None
    """The card turned up at the deal (None in games without a turn-up)."""
    trump: str | None
    """The trump suit letter, or None while no declaration has fixed it."""
    melds: list[int]
    tricks: list[int]
    """Brisques, card points or per-trick points that count in the total."""
    brisques: list[int]
    """Brisques that count only to settle a per-deal game (Rubicon)."""
    last_trick: list[int]
    bonuses: list[int]
    """Turn-up bonuses (Greek club bonuses may be negative)."""
    penalties: list[int]
    declarations: list[Declaration] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    """What was entered, in words."""
    last_trick_seat: int | None = None
    over: bool = False
    settlement: Settlement | None = None
    """How the deal was paid out, for per-deal games (Rubicon, Chinese, eight-pack)."""
    wins_game: int | None = None
    """The side that won the match outright with this deal (triple bezique option)."""
    # what the keeper knows of the cards: per seat, each declared card as [kind, melds mask]
    tables: list[list[list[int]]] = field(default_factory=list)
    used: dict[int, int] = field(default_factory=dict)
    """Per card kind, the copies declared from a hand this deal."""
    turn_up_now: int | None = None
    """Kind of the card under the stock now (the seven after an exchange)."""
    exchanged: bool = False
    carry: list[int] = field(default_factory=list)
    """Each side's game score when the deal began (the earlier deals of its game)."""
    game: GameResult | None = None
    """In a match of games (``match_games``): the game this deal won, else None."""
    ended_early: bool = False
    """The deal ended at once when a side reached the target (``target_check=immediate``)."""
    caps: list[int | None] = field(default_factory=list)
    """Per side, the most its points for the deal may reach (None: no limit): the penalty
    scheme ``no-further-points`` stops an offender's side from scoring more in the game."""

    @property
    def totals(self) -> list[int]:
        """Each side's points for the deal (settle-only brisques left out)."""
        out = [
            m + t + lt + b + p
            for m, t, lt, b, p in zip(
                self.melds,
                self.tricks,
                self.last_trick,
                self.bonuses,
                self.penalties,
                strict=True,
            )
        ]
        for side, cap in enumerate(self.caps):
            if cap is not None:
                out[side] = min(out[side], cap)
        return out


@dataclass
class _State:
    deals: list[DealSheet] = field(default_factory=list)
    winner: int | None = None


# --- helpers ---------------------------------------------------------------------------------------
def parse_declaration(
    text: str, scoring: Sequence[str] | None = None
) -> tuple[str, list[tuple[int, bool]]]:
    """Read ``[meld] NAME CARD ...`` into the meld name (``exchange`` and ``carte-blanche``
    included) and the cards as (kind, from the table).  ``scoring``: the declarations of the
    game, among which an unknown name's suggestion is looked for."""
    words = text.split()
    if words and words[0].lower() in ("meld", "declare"):
        words = words[1:]
    if not words:
        raise ValueError("say what is declared, e.g. bezique QS JD")
    names = {*MELD_BY_NAME, "exchange"}
    name = None
    for i in range(len(words), 0, -1):
        guess = "-".join(w.lower() for w in words[:i])
        guess = _ALIASES.get(guess, guess)
        if guess in names:
            name, rest = guess, words[i:]
            break
    if name is None:
        # the longest run of words that are not cards is the name
        i = 0
        while i < len(words) and not _is_card(words[i]):
            i += 1
        guess = "-".join(w.lower() for w in words[: max(i, 1)])
        offered = sorted({n.partition(" ")[0] for n in scoring} & names) if scoring else []
        hint = difflib.get_close_matches(guess, offered or sorted(names), 1)
        raise ValueError(
            f"unknown meld {guess!r}"
            + (f" (did you mean {hint[0]!r}?)" if hint else "")
            + "; `melds` lists those of this game"
        )
    refs = []
    for w in rest:
        card, at, where = w.partition("@")
        if at and where.lower() != "table":
            raise ValueError(f"{w!r}: write a card already on the table as {card}@table")
        try:
            k = parse_card(card)
        except ValueError as e:
            raise ValueError(str(e)) from None
        refs.append((k, bool(at)))
    if name not in ("carte-blanche",) and not refs:
        raise ValueError(f"name the cards of the {name}, e.g. {_example(name)}")
    return name, refs


def describe(entry: dict[str, Any], players: Sequence[str]) -> str:
    """A journal entry in words."""

    def who() -> str:
        seat = entry.get("seat")
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"

    t = entry.get("type")
    if t == "deal":
        up = entry.get("turn_up")
        return "new deal" + (f", turn-up {up}" if up else "")
    if t == "declare":
        return f"{who()} declares {entry.get('text')}"
    if t == "tricks":
        if "brisques" in entry:
            return f"{who()} tricks: {entry['brisques']} brisques"
        return f"{who()} tricks: {entry.get('points')} points"
    if t == "last-trick":
        return f"{who()} took the last trick"
    if t == "penalty":
        return f"{who()} penalty {entry.get('offence')}"
    if t == "end":
        return "end of the deal"
    return str(t)


def _does(name: str, verb: str) -> str:
    """``'Ann wins'``, ``'Ann & Cat win'``."""
    return f"{name} {verb}" if " & " in name else f"{name} {verb}s"


def _is_card(word: str) -> bool:
    try:
        parse_card(word.partition("@")[0])
    except ValueError:
        return False
    return True


def _example(name: str) -> str:
    return {
        "bezique": "bezique QS JD",
        "marriage": "marriage KH QH",
        "royal-marriage": "royal-marriage KS QS",
        "exchange": "exchange 7H",
        "seven": "seven 7H",
    }.get(name, f"{name} followed by its cards")


def _ref_text(k: int, on_table: bool) -> str:
    return code(k) + ("@table" if on_table else "")


def _mask_names(mask: int) -> str:
    names = [m.name for m in MELDS if mask >> m.id & 1]
    return " and ".join(names) if names else "nothing"


def _reuse_rule(rules: Rules) -> str:
    if rules.meld_reuse == "once-per-kind":
        return (
            "a card scores once in each kind of meld (marriage, bezique, sequence, and the "
            "quartets of its rank); a joker scores in one meld a deal"
        )
    if rules.meld_reuse == "by-class":
        return (
            "a declared card may score again only in a meld of another class (marriages and "
            "sequences; beziques; quartets), or in a higher meld of its own class"
        )
    return "a declared card may score again only in a meld of another kind that scores more"


def _match_slots(
    ways: list[list[tuple[tuple[int, ...], int]]], kinds: list[int], wilds: int
) -> list[tuple[tuple[int, ...], int]] | None:
    """The way of forming the meld that the cards fill exactly (a wild card fills a gap)."""
    real = Counter(k for k in kinds if k != _WILD)
    for req in ways:
        left = Counter(real)
        gaps = 0
        ok = True
        for group, n in req:
            have = sum(left[k] for k in group)
            if have > n:
                ok = False
                break
            for k in group:
                left[k] = 0
            gaps += n - have
        if ok and not +left and gaps == wilds:
            return req
    return None


def _describe_ways(ways: list[list[tuple[tuple[int, ...], int]]]) -> str:
    def one(req: list[tuple[tuple[int, ...], int]]) -> str:
        parts = []
        for group, n in req:
            if len(group) == 1:
                parts.append(" ".join([code(group[0])] * n))
            else:
                parts.append(f"any {n} of " + "/".join(code(k) for k in group))
        return " ".join(parts)

    texts = [one(req) for req in ways]
    if len(texts) == 1:
        return texts[0]
    return "one of: " + ", ".join(texts)


def _write_line(f: Any, record: dict[str, Any]) -> None:
    f.write(json.dumps(record, ensure_ascii=False) + "\n")
    f.flush()
    os.fsync(f.fileno())


def _parse_line(line: bytes) -> dict[str, Any] | None:
    try:
        rec = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return rec if isinstance(rec, dict) else None


def _clip(line: bytes, limit: int = 60) -> str:
    text = line.decode("utf-8", "replace")
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = [
    "JOURNAL_FORMAT",
    "JOURNAL_VERSION",
    "OFFENCES",
    "DealSheet",
    "Declaration",
    "describe",
    "parse_declaration",
]
