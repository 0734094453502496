"""The server's side of personal seat links, "your games" and the guided deal: a link only for
the seat's own token, stored hashed, renewed (the old one ending), taking the seat back (the
old device's token and connections ending); the games list answering only for valid tokens;
nothing of a link reaching other players or the log."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

with warnings.catch_warnings():  # starlette's note about its httpx transport
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bezique import Rules
from bezique.core.match import Match
from bezique.server.seatlinks import seat_links_t
from bezique.server.tutorial import TUTORIAL_SEED
from server_helpers import Player, app_client, friends_table, lobby


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as c:
        yield c


def link_for(client: Any, code: str, token: str) -> str:
    r = client.post(f"/api/tables/{code}/seat-link", json={"token": token})
    assert r.status_code == 200, r.text
    link: str = r.json()["link"]
    assert len(link) >= 32
    return link


def test_a_link_is_only_for_the_seats_own_token_and_stored_hashed(client: Any) -> None:
    ann, bob = friends_table(client)
    code = ann["code"]
    assert client.post(f"/api/tables/{code}/seat-link", json={"token": "nope"}).status_code == 403
    link = link_for(client, code, bob["token"])
    with lobby(client).store.engine.connect() as c:
        rows = c.execute(select(seat_links_t)).all()
    assert len(rows) == 1 and rows[0].seat == 1
    assert link not in str(tuple(rows[0])), "the secret itself is stored"


def test_claiming_gives_a_new_token_and_ends_the_old_device(client: Any) -> None:
    ann, bob = friends_table(client)
    code = ann["code"]
    link = link_for(client, code, bob["token"])
    old = Player(client, code, bob["token"])
    watcher = Player(client, code, ann["token"])
    assert old.seat == 1
    r = client.post(f"/api/tables/{code}/claim", json={"link": link})
    assert r.status_code == 200, r.text
    new_token = r.json()["token"]
    assert r.json()["seat"] == 1 and new_token != bob["token"]
    # the old device is told and closed; its token no longer seats anyone
    err = old.until(lambda m: m["type"] == "error")
    assert err["code"] == "auth"
    again = Player(client, code, bob["token"])
    assert again.welcome["type"] == "error" and again.welcome["code"] == "auth"
    fresh = Player(client, code, new_token)
    assert fresh.seat == 1
    # nothing Ann's connection received carries the link
    assert all(link not in str(m) for m in watcher.received)
    # the link still holds until renewed; renewed, the old one ends
    newer = link_for(client, code, new_token)
    assert client.post(f"/api/tables/{code}/claim", json={"link": link}).status_code == 403
    assert client.post(f"/api/tables/{code}/claim", json={"link": newer}).status_code == 200


def test_a_link_of_another_table_or_none_is_refused(client: Any) -> None:
    ann, bob = friends_table(client)
    other, _ = friends_table(client)
    link = link_for(client, ann["code"], bob["token"])
    assert client.post(f"/api/tables/{other['code']}/claim", json={"link": link}).status_code == 403
    assert client.post(f"/api/tables/{ann['code']}/claim", json={"link": ""}).status_code == 403
    assert client.post("/api/tables/nosuch/claim", json={"link": link}).status_code == 404


def test_the_secret_never_reaches_the_log(client: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    ann, bob = friends_table(client)
    link = link_for(client, ann["code"], bob["token"])
    client.post(f"/api/tables/{ann['code']}/claim", json={"link": link})
    assert link not in caplog.text


def test_your_games_answers_only_for_valid_tokens(client: Any) -> None:
    ann, bob = friends_table(client)
    mine = client.post("/api/tables", json={"rules": "classic", "level": "beginner", "name": "T"})
    t = mine.json()
    asked = [
        {"code": t["code"], "token": t["token"]},
        {"code": ann["code"], "token": "not a token"},
        {"code": "nosuch", "token": t["token"]},
        {"code": ann["code"], "token": bob["token"]},
    ]
    r = client.post("/api/my-games", json={"games": asked})
    assert r.status_code == 200, r.text
    games = r.json()["games"]
    assert [g["code"] for g in games] == [t["code"], ann["code"]]
    assert games[0]["seat"] == 0 and games[0]["status"] == "playing"
    assert games[1]["seat"] == 1 and [p["name"] for p in games[1]["players"]] == ["Ann", "Friend 1"]
    too_many = [{"code": t["code"], "token": t["token"]}] * 61
    assert client.post("/api/my-games", json={"games": too_many}).status_code == 422


def test_the_guided_deal_is_the_friendly_one(client: Any) -> None:
    r = client.post("/api/tutorial", json={"name": "Tess"})
    assert r.status_code == 200, r.text
    p = Player(client, r.json()["code"], r.json()["token"])
    view = p.welcome["view"]
    expected = Match(Rules.preset("classic"), TUTORIAL_SEED).deal.observation(0)
    assert sorted(view["hand"]) == sorted(expected.hand)
    # you lead, holding the seven of trumps, a bezique and a marriage
    trump = view["trump"]
    assert view["to_move"] == 0
    assert f"7{trump}" in view["hand"] and {"QS", "JD"} <= set(view["hand"])
    assert {"KS", "QS"} <= set(view["hand"])
