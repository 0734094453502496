"""Hints in plain words: the expert's suggestion said as a player would say it.

``play 7♣: keeps your marriage (K♥ Q♥) and loses nothing`` rather than the search's values.
The words are worked out from the seat's own observation only (its hand, its table, the trick
and the completed tricks), so a hint can say nothing a player could not see; the values the
search compared are shown only when asked for (:func:`figures_text`, ``hint more``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text

from ..core.cards import SUITS, code, is_brisque, parse_card, rank_of, suit_of
from ..core.melds import (
    BEZIQUE,
    FOUR_ACES,
    FOUR_JACKS,
    FOUR_KINGS,
    FOUR_QUEENS,
    MARRIAGE,
    ROYAL_MARRIAGE,
    TRUMP_SEQUENCE,
    active_melds,
    bezique_kinds,
)
from ..core.notation import Action
from ..core.observation import Observation
from ..core.scoring import declaration_points
from ..core.tricks import trick_winner
from .render import card_label, notation_text

_RANK_NAMES = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks"}
_QUARTETS = {"A": FOUR_ACES, "K": FOUR_KINGS, "Q": FOUR_QUEENS, "J": FOUR_JACKS}


def _plain(card: str) -> str:
    return card.partition("@")[0]


def _labels(cards: Sequence[str]) -> str:
    return " ".join(card_label(c) for c in cards)


def meld_groups(obs: Observation) -> list[tuple[str, tuple[str, ...]]]:
    """The melds (or most of a quartet or sequence) the seat holds in its hand and on its
    table and could still declare in stage 1, as (words, cards): ``("marriage", ("KH", "QH"))``."""
    rules = obs.rules
    if obs.stage != 1 or obs.seat is None:
        return []
    own = [_plain(c) for c in obs.hand] + [_plain(c) for c in obs.tables[obs.seat]]
    have = set(own)
    scored = set(active_melds(rules))
    trump = obs.trump
    out: list[tuple[str, tuple[str, ...]]] = []
    if MARRIAGE in scored or ROYAL_MARRIAGE in scored:
        for suit in SUITS:
            pair = ("K" + suit, "Q" + suit)
            if all(c in have for c in pair):
                royal = trump == suit
                out.append(("royal marriage" if royal else "marriage", pair))
    bez = bezique_kinds(rules, None if trump is None else SUITS.index(trump))
    if bez is not None and BEZIQUE in scored:
        pair = (code(bez[0]), code(bez[1]))
        if all(c in have for c in pair):
            out.append(("bezique", pair))
    if trump is not None and TRUMP_SEQUENCE in scored:
        seq = tuple(r + trump for r in "ATKQJ" if r + trump in have)
        if len(seq) >= 4:
            out.append(("trump sequence" if len(seq) == 5 else "cards for the trump sequence", seq))
    for rank, meld in _QUARTETS.items():
        if meld not in scored:
            continue
        cards = tuple(c for c in own if c[0] == rank)
        if len(cards) >= 3:
            what = f"{'four' if len(cards) >= 4 else 'three'} {_RANK_NAMES[rank]}"
            out.append((what, cards[:4]))
    return out


def _play_reasons(obs: Observation, card: str) -> list[str]:
    rules = obs.rules
    k = parse_card(card)
    trump = None if obs.trump is None else SUITS.index(obs.trump)
    brisque = is_brisque(card)
    is_trump = trump is not None and k < 32 and suit_of(k) == trump
    reasons: list[str] = []
    groups = meld_groups(obs)
    breaks = [g for g in groups if card in g[1]]
    keeps = [g for g in groups if card not in g[1]]
    if breaks:
        words, cards = breaks[0]
        reasons.append(f"gives up a card of your {words} ({_labels(cards)})")
    elif keeps:
        words, cards = keeps[0]
        reasons.append(f"keeps your {words} ({_labels(cards)})")
    if obs.trick:
        kinds = [parse_card(c) for _, c in obs.trick] + [k]
        wins = trick_winner(kinds, trump, rules.wild_card_lead_wins) == len(kinds) - 1
        last = len(obs.trick) == rules.players - 1
        taken = sum(1 for _, c in obs.trick if is_brisque(c)) + (1 if brisque else 0)
        if wins:
            verb = "wins the trick" if last else "heads the trick so far"
            if taken:
                verb += f" with {taken} brisque{'s' if taken > 1 else ''} in it"
            if is_trump and rank_of(k) != 0 and obs.trick and not _trump_led(obs, trump):
                verb += ", spending a trump"
            reasons.append(verb)
        elif brisque:
            reasons.append("lets the trick go but gives away a brisque")
        else:
            reasons.append("lets the trick go, losing nothing")
    else:
        if brisque:
            reasons.append("leads a brisque, which the opponent may take")
        elif is_trump:
            reasons.append("leads a trump")
        else:
            reasons.append("loses nothing")
    if breaks:  # "loses nothing" would contradict giving up a meld's card
        reasons = [r.replace(", losing nothing", "") for r in reasons if r != "loses nothing"]
    return reasons


def _trump_led(obs: Observation, trump: int | None) -> bool:
    led = obs.trick[0][1]
    return trump is not None and parse_card(led) < 32 and suit_of(parse_card(led)) == trump


def reasons(obs: Observation, action: str) -> list[str]:
    """Why ``action`` is good, in a few plain phrases (from this seat's view only)."""
    a = Action.parse(action)
    if a.verb == "play":
        return _play_reasons(obs, _plain(str(a).split()[1]))
    points = declaration_points(obs, action)
    if a.verb == "exchange":
        what = f"takes the {card_label(obs.turn_up)} turned up" if obs.turn_up else ""
        return [f"scores +{points or 0}" + (f" and {what}" if what else "")]
    if a.verb == "meld":
        out = [f"scores +{points} now" if points else "scores now"]
        others = [x for x in obs.legal if x != action and x.startswith("meld ")]
        if others:
            out.append("the best of the declarations open to you")
        return out
    if a.verb == "partner":
        return ["your partner holds a better declaration"]
    if any(x.startswith(("meld ", "exchange ")) for x in obs.legal):
        return ["keeps your cards hidden for a bigger declaration later"]
    return ["there is nothing to declare"]


def hint_words(obs: Observation, action: str, level: str = "expert") -> Text:
    """``Hint (expert): play 7♣: keeps your marriage (K♥ Q♥) and loses nothing``."""
    why = reasons(obs, action)
    text = why[0] if len(why) == 1 else ", ".join(why[:-1]) + " and " + why[-1]
    out = Text(f"Hint ({level}): ", style="bold cyan")
    out.append_text(notation_text(action))
    out.append(": " + text, style="cyan")
    return out


def figures_text(values: Mapping[str, float], reason: str = "", top: int = 4) -> Text:
    """The values the search compared, best first, with each card in the screen's symbols."""
    ranked = sorted(values.items(), key=lambda item: -item[1])[:top]
    out = Text("The search compared (higher is better for you):", style="dim")
    if not ranked:
        return out
    best = ranked[0][1]
    width = max(len(notation_text(a).plain) for a, _ in ranked) + 2
    for action, value in ranked:
        label = notation_text(action)
        out.append("\n  ")
        out.append_text(label)
        out.append(" " * (width - len(label.plain)))
        out.append(f"{value:8.1f}" + ("" if value == best else f"  ({value - best:+.1f})"))
    if reason:
        out.append("\n  " + reason, style="dim")
    return out


__all__ = ["figures_text", "hint_words", "meld_groups", "reasons"]
