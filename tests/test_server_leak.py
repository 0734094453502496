"""No hidden card reaches a client: many games are played through the server, and every
message each connection received is scanned for any card its seat had not seen in its own
observations up to then.  Each view sent must also be exactly that seat's observation."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fastapi  # noqa: F401  (installed by the dev extra; missing it fails)
import jsonschema  # noqa: F401  (installed by the dev extra; missing it fails)
import pytest

with warnings.catch_warnings():  # starlette's note about its httpx transport
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bezique import Deal
from bezique.core.match import Match
from bezique.server import create_app
from bezique.server.protocol import view
from server_helpers import Player, close_all, play_people, play_vs_computer

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[ATKQJ987][SHDC]|XX)(?![A-Za-z0-9])")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        tmp_path, bot_delay=0, rate=10_000, burst=10_000, hint_level="medium", review_level="medium"
    )
    with TestClient(app) as c:
        try:
            yield c
        finally:
            close_all()


Point = tuple[int, int]  # (deal index, actions played in the match)


def timeline(match: Match, seat: int | None) -> list[tuple[Point, Any]]:
    """Every observation the seat had, at every point of the match, in order."""
    out = []
    before = 0
    for i, played in enumerate(match.deals):
        deal = Deal.new(match.rules, seed=match.deal_seeds[i], dealer=played.dealer)
        out.append(((i, before), deal.observation(seat)))
        for ply, action in enumerate(played.history):
            deal.apply(action)
            out.append(((i, before + ply + 1), deal.observation(seat)))
        before += len(played.history)
    return out


def check_connection(match: Match, player: Player) -> int:
    """Scan one connection's messages; returns how many card mentions were checked."""
    seat = player.seat
    points = timeline(match, seat)
    observations = dict(points)
    seen: set[str] = set()
    upto = -1
    point: Point = (0, 0)
    checked = 0
    for msg in player.received:
        if msg.get("match") is not None:
            point = (msg["match"]["deal"], msg["move"])
        while upto + 1 < len(points) and points[upto + 1][0] <= point:
            upto += 1
            seen.update(CARD.findall(points[upto][1].to_string()))
        if msg.get("view") is not None:
            assert msg["view"] == view(observations[point]), (seat, point)
        mentioned = CARD.findall(json.dumps(msg))
        leaked = set(mentioned) - seen
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} unseen, at {point}: {msg}"
        checked += len(mentioned)
    return checked


def friends(client: TestClient, rules: str, n: int) -> list[dict[str, Any]]:
    host = client.post(
        "/api/tables",
        json={"rules": rules, "seats": [{"kind": "me"}] + [{"kind": "open"}] * (n - 1)},
    ).json()
    return [host] + [
        client.post(f"/api/tables/{host['code']}/join", json={}).json() for _ in range(n - 1)
    ]


@pytest.mark.parametrize(
    "rules, n",
    [("classic(target=400)", 2), ("three(target=300)", 3), ("rubicon", 2), ("four(target=300)", 4)],
)
def test_people_and_a_spectator_see_nothing_hidden(client: TestClient, rules: str, n: int) -> None:
    seats = friends(client, rules, n)
    players = [Player(client, s["code"], s["token"], seed=i + 10) for i, s in enumerate(seats)]
    watcher = Player(client, seats[0]["code"], None)
    play_people(players, [watcher])
    match = client.app.state.lobby.get(seats[0]["code"]).match  # type: ignore[attr-defined]
    assert match.winner is not None
    total = sum(check_connection(match, p) for p in [*players, watcher])
    assert total > 1000


@pytest.mark.parametrize(
    "rules", ["classic(target=300)", "no-trump(players=3,target=300)", "chinese"]
)
def test_against_the_computer_with_hints_and_review(client: TestClient, rules: str) -> None:
    t = client.post("/api/tables", json={"rules": rules, "level": "medium"}).json()
    p = Player(client, t["code"], t["token"], seed=7)
    watcher = Player(client, t["code"], None)
    play_vs_computer(p, hints_every=3, deals=2)
    p.send(type="review", deal=0)
    p.until(lambda m: m["type"] == "review")
    match = client.app.state.lobby.get(t["code"]).match  # type: ignore[attr-defined]
    moves = sum(len(d.history) for d in match.deals)
    watcher.until(lambda m: m["type"] == "update" and m["index"] == moves - 1)
    assert [m for m in p.received if m["type"] == "hint"]
    assert check_connection(match, p) > 500
    assert check_connection(match, watcher) > 500


def test_the_scan_finds_a_planted_card() -> None:
    """The check itself: a view showing the other seat's hand is caught."""
    import random

    from bezique import Rules
    from bezique.server.protocol import match_info, message

    match = Match(Rules.preset("classic"), seed=11)
    deal = match.deal
    rng = random.Random(0)
    fake = Player.__new__(Player)
    seat = deal.to_move
    assert seat is not None
    fake.seat = seat
    fake.received = []
    for _ in range(6):
        deal.apply(rng.choice(deal.legal_actions()))
        moves = len(deal.history)
        fake.received.append(
            message(
                "state",
                move=moves,
                view=view(deal.observation(fake.seat)),
                match=match_info(match, moves, [False, False]),
            )
        )
    assert check_connection(match, fake) > 0
    other = 1 - seat
    unseen = set(deal.observation(other).hand) - set(
        CARD.findall(" ".join(m["view"].__repr__() for m in fake.received))
    )
    assert unseen
    fake.received[-1]["note"] = f"their hand: {' '.join(sorted(unseen))}"
    with pytest.raises(AssertionError, match="unseen"):
        check_connection(match, fake)


@pytest.mark.parametrize("rules", ["classic(target=300)", "haitian(target=300)"])
def test_review_positions_are_the_seats_own_views(client: TestClient, rules: str) -> None:
    """Each review item carries the position it speaks of: exactly the reviewing seat's own
    view at that moment (its hand then, the melds, the trick, the scores), so the opponent's
    concealed cards of that moment never appear in it."""
    t = client.post("/api/tables", json={"rules": rules, "level": "beginner"}).json()
    p = Player(client, t["code"], t["token"], seed=3)
    play_vs_computer(p)
    match = client.app.state.lobby.get(t["code"]).match  # type: ignore[attr-defined]
    last = len(match.deals) - 1  # a later deal: it began on the game's scores so far
    p.send(type="review", deal=last)
    review = p.until(lambda m: m["type"] in ("review", "error"))
    assert review["type"] == "review" and review["items"]
    played = match.deals[last]
    deal = Deal.new(match.rules, match.deal_seeds[last], played.dealer, played.carry)
    items = {item["ply"]: item for item in review["items"]}
    hidden_checked = 0
    for ply, action in enumerate(played.history):
        if ply in items:
            item = items[ply]
            mine = deal.observation(p.seat)
            assert item["view"] == view(mine), ply
            assert item["view"]["hand"] == list(mine.hand) and item["view"]["to_move"] == p.seat
            # the other seat's cards in hand at that moment, less any the seat could know of
            assert p.seat is not None
            theirs = set(deal.observation(1 - p.seat).hand)
            unseen = theirs - set(CARD.findall(mine.to_string()))
            assert not unseen & set(CARD.findall(json.dumps(item))), ply
            hidden_checked += len(unseen)
        deal.apply(action)
    assert hidden_checked > 0
