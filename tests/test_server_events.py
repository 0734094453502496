"""The scoring events a view sends with named fields (``scoring``, docs/protocol.md): the same
events as the text form ``events``, in the same order, each field agreeing with the words;
they name no card the seat has not seen; and the messages carrying them match the schema."""

from __future__ import annotations

import random
from typing import Any

import jsonschema
import pytest

from bezique import Deal, Rules
from bezique.core.events import EventKind, ScoreEvent
from bezique.core.match import Match
from bezique.core.observation import Observation
from bezique.core.presets import PRESETS
from bezique.server.protocol import match_info, message, scoring_event, view
from server_helpers import check_server

# the kinds whose words carry a card, and every kind the schema lists
WITH_CARDS = {EventKind.MELD, EventKind.EXCHANGE, EventKind.TURN_UP, EventKind.SEVEN}

# every preset, then rules and seeds that make the rarer events: a turn-up bonus (greek, seed 4
# turns up a seven), a side reaching the target mid-deal (carried in 10 points short of it)
CASES: list[tuple[str, tuple[int, ...], int, set[str]]] = [
    *((name, (1, 2), 0, {"meld"}) for name in sorted(PRESETS)),
    ("greek", (4,), 0, {"turn-up", "seven"}),
    ("classic(target_check=immediate)", (1, 2), 10, {"target reached"}),
]


def words(item: dict[str, Any]) -> str:
    """An event's text form written back from its named fields alone."""
    return " ".join(w for w in (item["kind"], item["meld"], item["how"], *item["cards"]) if w)


def seen_now(obs: Observation) -> set[str]:
    """The cards an observation shows the seat, leaving out the events themselves."""
    cards = set(obs.hand)
    cards.update(ref.split("@")[0] for table in obs.tables for ref in table)
    cards.update(c for known in obs.known for c in known)
    cards.update(c for _, c in obs.trick)
    cards.update(c for _, played, _ in obs.tricks for c in played)
    if obs.turn_up is not None:
        cards.add(obs.turn_up)
    return cards


def play(rules: Rules, seed: int, short: int = 0) -> list[Deal]:
    """A deal played by a random player that declares whenever it can (to make many events),
    every position of it kept; ``short``: side 0 comes in that many points short of the
    target (0: no carry)."""
    rng = random.Random(seed)
    carry = [rules.target - short, *[0] * (rules.sides - 1)] if short else None
    deal = Deal.new(rules, seed=seed, carry=carry)
    out = [deal.clone()]
    while not deal.is_over:
        actions = deal.legal_actions()
        melds = [a for a in actions if a.verb in ("meld", "exchange")]
        deal.apply(rng.choice(melds or actions))
        out.append(deal.clone())
    return out


@pytest.mark.parametrize("text, seeds, short, expected", CASES)
def test_scoring_events_agree_with_their_words_and_show_only_seen_cards(
    text: str, seeds: tuple[int, ...], short: int, expected: set[str]
) -> None:
    rules = Rules.from_string(text)
    kinds: set[str] = set()
    checked = 0
    for seed in seeds:
        positions = play(rules, seed, short)
        for seat in [*range(rules.players), None]:
            seen: set[str] = set()
            for deal in positions:
                obs = deal.observation(seat)
                seen |= seen_now(obs)
                v = view(obs)
                assert len(v["scoring"]) == len(v["events"]) == len(obs.events)
                for item, (trick, who, what, points) in zip(v["scoring"], v["events"], strict=True):
                    assert (item["trick"], item["seat"], item["points"]) == (trick, who, points)
                    assert item["side"] == rules.side_of(who)
                    assert words(item) == what, (item, what)
                    assert bool(item["cards"]) == (EventKind(item["kind"]) in WITH_CARDS)
                    # hidden information: an event names only cards the seat has seen
                    assert set(item["cards"]) <= seen, (seat, item, sorted(seen))
                    kinds.add(item["kind"])
                    checked += 1
    assert checked > 0 and expected <= kinds, kinds


def test_a_view_with_scoring_events_matches_the_schema() -> None:
    """The schema checks each event object: its kind, its fields, no field more."""
    rules = Rules.preset("classic")
    positions = play(rules, 3)
    for deal in positions[::20]:
        state = view(deal.observation(0))
        check_server(message("state", move=len(deal.history), view=state, match=_match(rules)))
    last = view(positions[-1].observation(0))
    assert any(e["kind"] == "meld" for e in last["scoring"])
    bad = {**last, "scoring": [{**last["scoring"][0], "text": "meld bezique QS JD"}]}
    with pytest.raises(jsonschema.ValidationError):
        check_server(message("state", move=0, view=bad, match=_match(rules)))
    # a view from a server before ``scoring`` still matches (the field is optional)
    old = {k: val for k, val in last.items() if k != "scoring"}
    check_server(message("state", move=0, view=old, match=_match(rules)))


def _match(rules: Rules) -> dict[str, Any]:
    return match_info(Match(rules, seed=1), 0, [False] * rules.players)


def test_an_event_object_names_the_side_how_and_the_card() -> None:
    """Built from the typed event: a seven of trumps keeps how it scored and which card, a
    partner's event names the side it scores for, a bonus names no card."""
    rules = Rules.preset("four")  # partners: seat 3 scores for side 1
    seven = scoring_event(ScoreEvent.of(4, 3, EventKind.SEVEN, 10, "won", "7C"), rules)
    assert seven == {
        "trick": 4,
        "seat": 3,
        "side": 1,
        "kind": "seven",
        "points": 10,
        "meld": "",
        "cards": ["7C"],
        "how": "won",
    }
    last = scoring_event(ScoreEvent.of(16, 2, EventKind.LAST_TRICK, 10), rules)
    assert (last["kind"], last["side"], last["cards"], last["meld"]) == ("last trick", 0, [], "")
