"""Identities and ratings: a rated game between people moves both ratings (openskill), a
computer's anchor rates a lone player, and nothing but a finished rated game recorded by the
server changes a rating (forgeries through the API fail)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bezique import Rules
from bezique.core.match import Match
from bezique.server.onlinedb import RatedSeat
from bezique.server.ratings import (
    ANCHORS,
    INITIAL,
    MODEL,
    rate,
    settle,
    side_ranks,
    variant_key,
)
from bezique.server.storage import default_url
from server_helpers import Player, app_client, new_table, play_people, play_vs_computer

SHORT = "classic(target=100)"
"""A match one deal decides (a deal scores far past 100): a rated game in a few seconds."""

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return default_url(tmp_path)
    url: str = request.getfixturevalue("pg_url")
    return url


def identity(client: Any, name: str) -> dict[str, Any]:
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def board(client: Any, variant: str = "classic/2") -> dict[str, dict[str, Any]]:
    r = client.get("/api/leaderboard", params={"variant": variant})
    assert r.status_code == 200, r.text
    return {p["player"]: p for p in r.json()["players"]}


def wait_settled(client: Any, code: str) -> None:
    """The settling runs as a task beside the game: wait for it (bounded by a count)."""
    import time

    db = client.app.state.online.db
    for _ in range(200):
        if db.settled(code):
            return
        time.sleep(0.05)
    raise AssertionError("the game was never rated")


tokens: dict[str, str] = {}
"""The maker's seat token at each rated game's table."""


def rated_game(client: Any, ann: dict[str, Any], bob: dict[str, Any]) -> str:
    """A rated two-handed match between two identities, played to its end; its code."""
    host = new_table(
        client,
        rules=SHORT,
        name="Ann",
        seats=[{"kind": "me"}, {"kind": "open"}],
        rated=True,
        public=True,
        key=ann["key"],
    )
    r = client.post(f"/api/tables/{host['code']}/join", json={"name": "Bob", "key": bob["key"]})
    assert r.status_code == 200, r.text
    players = [
        Player(client, host["code"], host["token"]),
        Player(client, host["code"], r.json()["token"]),
    ]
    play_people(players)
    assert players[0].latest is not None and players[0].latest["match"]["winner"] is not None
    wait_settled(client, host["code"])
    tokens[host["code"]] = host["token"]
    return str(host["code"])


def test_a_rated_game_between_people_moves_both_ratings(database: str) -> None:
    with app_client(database_url=database) as client:
        ann, bob = identity(client, "Ann"), identity(client, "Bob")
        assert board(client) == {}
        code = rated_game(client, ann, bob)
        top = board(client)
        assert set(top) == {ann["id"], bob["id"]}
        start = INITIAL[0] - 3 * INITIAL[1]
        assert all(p["games"] == 1 and p["rating"]["value"] != start for p in top.values())
        winner_seat = client.get(f"/api/tables/{code}").json()
        page = client.get(f"/api/players/{ann['id']}").json()
        game = page["games"][0]
        assert game["code"] == code and len(game["seats"]) == 2
        won = game["rank"] == 0
        assert (game["after"]["mu"] > game["before"]["mu"]) == won  # the winner goes up
        assert winner_seat["status"] == "over"
        assert page["ratings"][0]["variant"] == "classic/2"
        # the next match is rated and public too, its maker's identity kept
        r = client.post(f"/api/tables/{code}/next-match", json={"token": tokens[code]})
        assert r.status_code == 200, r.text
        db = client.app.state.online.db
        assert db.table_flags(r.json()["code"]) == (True, True, "classic/2")
        assert list(db.seat_players(r.json()["code"]).values()) == [ann["id"]]
        # the lobby shows a rated person's rating at a new public table
        t = new_table(
            client,
            rules="classic",
            seats=[{"kind": "me"}, {"kind": "open"}],
            public=True,
            key=ann["key"],
        )
        client.app.state.online._listing = None
        lobby = {x["code"]: x for x in client.get("/api/lobby").json()["tables"]}
        assert lobby[t["code"]]["seats"][0]["rating"] == top[ann["id"]]["rating"]
        assert "key" not in json.dumps(page) or ann["key"] not in json.dumps(page)


def test_a_lone_player_is_rated_against_a_computer_anchor(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        me = identity(client, "Solo")
        t = new_table(client, rules=SHORT, level="beginner", name="Solo", rated=True, key=me["key"])
        p = Player(client, t["code"], t["token"])
        play_vs_computer(p)
        wait_settled(client, t["code"])
        top = board(client)
        assert list(top) == [me["id"]]  # the computer is an anchor, never on the board
        page = client.get(f"/api/players/{me['id']}").json()
        bot = next(s for s in page["games"][0]["seats"] if s["player"] is None)
        assert bot["name"].startswith("Computer")
        rows = client.app.state.online.db
        assert rows.rating(me["id"], "classic/2") is not None


def test_ratings_cannot_be_forged(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        ann, bob = identity(client, "Ann"), identity(client, "Bob")
        db = client.app.state.online.db
        # no route writes a rating or a result
        for path in (
            "/api/ratings",
            "/api/leaderboard",
            f"/api/players/{ann['id']}",
            "/api/results",
        ):
            r = client.post(path, json={"player": ann["id"], "variant": "classic/2", "mu": 99})
            assert r.status_code in (404, 405), (path, r.status_code)
        r = client.put(f"/api/players/{ann['id']}", json={"mu": 99})
        assert r.status_code == 405
        # renaming through one's own key changes a name, never a rating
        r = client.post("/api/players/me", json={"key": ann["key"], "name": "Ann2", "mu": 99})
        assert r.status_code == 200 and r.json()["ratings"] == []
        # an unrated game, even between identities, rates nobody
        host = new_table(
            client, rules=SHORT, seats=[{"kind": "me"}, {"kind": "open"}], key=ann["key"]
        )
        j = client.post(f"/api/tables/{host['code']}/join", json={"key": bob["key"]}).json()
        players = [
            Player(client, host["code"], host["token"]),
            Player(client, host["code"], j["token"]),
        ]
        play_people(players)
        # a rated table unfinished rates nobody either
        rated = new_table(
            client,
            rules=SHORT,
            seats=[{"kind": "me"}, {"kind": "open"}],
            key=ann["key"],
            rated=True,
        )
        # a made-up finished game uploaded for replay is only replayed
        record = client.get(f"/api/tables/{host['code']}/record").text
        assert client.post("/api/replay", content=record).status_code == 200
        online = client.app.state.online
        online._listing = None
        assert (
            board(client) == {} and not db.settled(host["code"]) and not db.settled(rated["code"])
        )
        # joining a rated table needs an identity; a wrong key is refused
        assert client.post(f"/api/tables/{rated['code']}/join", json={}).status_code == 409
        bad = client.post(f"/api/tables/{rated['code']}/join", json={"key": "not-a-key"})
        assert bad.status_code == 403
        assert client.post("/api/tables", json={"rules": SHORT, "rated": True}).status_code == 400
        # nor may one identity take two seats of a rated table (playing against itself)
        twice = client.post(f"/api/tables/{rated['code']}/join", json={"key": ann["key"]})
        assert twice.status_code == 409 and "already" in twice.json()["detail"]
        # a finished rated game is settled once, however often the server is told
        code = rated_game(client, ann, bob)
        before = board(client)
        table = client.app.state.lobby.get(code)
        assert settle(db, code, table.rules, table.match, table.seats) is False  # told again
        client.app.state.lobby.forget(table)
        client.get(f"/api/tables/{code}")  # loaded again: over, so offered for rating again
        wait_settled(client, code)
        assert board(client) == before


def test_rate_uses_the_library_with_teams() -> None:
    """Four-handed partnership: the two seats of a side form one team (RULES.md: seats 0 and 2
    play against 1 and 3), and the result is openskill's own."""
    rules = Rules.preset("four")
    seats = [
        RatedSeat(0, "a", None, "A", 0, (25.0, 8.0)),
        RatedSeat(1, "b", None, "B", 1, (27.0, 7.0)),
        RatedSeat(2, "c", None, "C", 0, (20.0, 6.0)),
        RatedSeat(3, None, "expert", "Computer", 1, (ANCHORS["expert"], 1.0)),
    ]
    rate(rules, seats)
    want = MODEL.rate(
        [
            [MODEL.rating(mu=25.0, sigma=8.0), MODEL.rating(mu=20.0, sigma=6.0)],
            [MODEL.rating(mu=27.0, sigma=7.0), MODEL.rating(mu=ANCHORS["expert"], sigma=1.0)],
        ],
        ranks=[0.0, 1.0],
    )
    assert seats[0].after == pytest.approx((want[0][0].mu, want[0][0].sigma))
    assert seats[2].after == pytest.approx((want[0][1].mu, want[0][1].sigma))
    assert seats[1].after == pytest.approx((want[1][0].mu, want[1][0].sigma))
    assert seats[3].after == seats[3].before  # an anchor never moves
    assert seats[0].after[0] > 25.0 and seats[1].after[0] < 27.0
    assert variant_key(rules) == "four/4p" and variant_key(Rules.from_string(SHORT)) == "classic/2"


def test_side_ranks_of_a_decided_match() -> None:
    match = Match(Rules.from_string("three(target=100)"), seed=3)
    while match.winner is None:
        if match.deal.is_over:
            match.next_deal()
        else:
            match.deal.apply(match.deal.legal_actions()[0])
    ranks = side_ranks(match)
    assert ranks[match.winner] == 0 and sorted(ranks)[0] == 0 and max(ranks) <= 2
    scores = match.scores
    for a in range(3):
        for b in range(3):
            if a != match.winner and b != match.winner and scores[a] > scores[b]:
                assert ranks[a] < ranks[b]
