"""The server under abuse (issue 16, items 1 to 7): rules out of range, replays of long games,
hints and connections that would starve everyone else, tables never freed, the match's end
across a crash, and the smaller points (broadcasts, names, headers, API pages, refusals)."""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's note about its httpx transport
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bezique import Rules
from bezique.core.match import Match
from bezique.core.records import record_match
from bezique.server import create_app
from bezique.server import replay as replay_module
from server_helpers import app_client


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as c:
        yield c


def played(rules: str, seed: int = 5) -> Match:
    """A whole match between random players."""
    match = Match(Rules.from_string(rules), seed=seed)
    rng = random.Random(seed)
    while match.winner is None:
        if match.deal.is_over:
            match.next_deal()
        else:
            match.deal.apply(rng.choice(match.deal.legal_actions()))
    return match


# --- 1: rule options out of range ------------------------------------------------------------------
def test_rules_out_of_range_are_refused_by_every_request(client: TestClient) -> None:
    """``/api/rules?rules=classic(wild_cards=100000000)`` took 1.7 GB and 1.2 s of the event
    loop; ``packs=30000`` kept ~90 MB a table.  Both are a clear 400 now, and nothing is made."""
    r = client.get("/api/rules", params={"rules": "classic(wild_cards=100000000)"})
    assert r.status_code == 400
    assert r.json()["detail"] == "bad rules: option wild_cards must be 0 to 8: got 100000000"
    r = client.post("/api/tables", json={"rules": "classic(packs=30000)", "level": "simple"})
    assert r.status_code == 400 and "packs must be 1 to 12" in r.json()["detail"]
    assert not client.app.state.lobby.tables


# --- 2: replays ------------------------------------------------------------------------------------
def laid_over(pages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every step's whole view, each step's changes laid over the view before (as the client
    does)."""
    out: list[dict[str, Any]] = []
    view: dict[str, Any] = {}
    for page in pages:
        for i, step in enumerate(page["steps"]):
            if i == 0:
                assert set(step["view"]) == set(replay_module.VIEW_KEYS)  # a page starts whole
            view = {**view, **step["view"]}
            out.append({**step, "view": view})
    return out


def all_pages(get: Any) -> list[dict[str, Any]]:
    pages = [get(0)]
    while pages[-1]["next_deal"] is not None:
        assert pages[-1]["next_deal"] == pages[-1]["steps"][-1]["deal"] + 1
        pages.append(get(pages[-1]["next_deal"]))
    return pages


def test_a_long_replay_comes_by_pages_of_changes(client: TestClient) -> None:
    """A 39 KiB record once gave a 2.3 MB answer (37 MB for the one the audit found): every
    step carried the whole trick history.  Now the answer grows with the game: each step holds
    what changed, by pages of whole deals, and laid over one another the steps are exactly
    the positions of the game."""
    record = record_match(played("classic(target=5000)"), players=["Ann", "Bob"])
    text = record.to_json()
    answers: list[int] = []

    def get(deal: int) -> dict[str, Any]:
        r = client.post(f"/api/replay?deal={deal}", content=text.encode())
        assert r.status_code == 200, r.text
        answers.append(len(r.content))
        page: dict[str, Any] = r.json()
        assert page["deals"] == len(record.deals) and page["first_deal"] == deal
        return page

    pages = all_pages(get)
    assert len(pages) >= 2
    assert all(len(p["steps"]) <= replay_module.PAGE_STEPS for p in pages)
    assert sum(answers) < 12 * len(text)  # was 60 times the record
    steps = laid_over(pages)
    states = list(record.states())
    assert len(steps) == len(states)
    for step, (i, ply, action, deal) in zip(steps, states, strict=True):
        assert (step["deal"], step["ply"], step["action"]) == (i, ply, action)
        v = step["view"]
        assert v["points"] == deal.points and v["trick"] == [list(t) for t in deal.trick]
        for seat in range(2):
            assert sorted(v["hands"][seat] + v["tables"][seat]) == sorted(deal.hand(seat))
            assert v["tables"][seat] == deal.table(seat)
    assert client.post("/api/replay?deal=999", content=text.encode()).status_code == 400


def test_a_record_too_long_to_replay_is_refused_before_it_is_read(client: TestClient) -> None:
    data = json.loads(record_match(played("classic(target=200)")).to_json())
    data["deals"] = data["deals"][:1]
    data["deals"][0]["actions"] = ["pass"] * (replay_module.MAX_ACTIONS + 1)
    r = client.post("/api/replay", content=json.dumps(data).encode())
    assert r.status_code == 400
    assert r.json()["detail"].startswith(f"this game has {replay_module.MAX_ACTIONS + 1} actions")


def test_rules_pages_and_replays_are_rate_limited(tmp_path: Path) -> None:
    """``GET /api/rules`` and ``GET /api/tables/{code}/replay`` build a rule set or replay a
    whole game: they share the per-address bucket of the requests that make things."""
    app = create_app(tmp_path, bot_delay=0, http_rate=0.01, http_burst=3)
    with TestClient(app) as c:
        got = [c.get("/api/rules", params={"rules": "classic"}).status_code for _ in range(3)]
        assert got == [200, 200, 200]
        r = c.get("/api/rules", params={"rules": "classic"})
        assert r.status_code == 429 and "Retry-After" in r.headers
        assert c.get("/api/tables/abcdefgh/replay").status_code == 429
        assert c.get("/api/info").status_code == 200  # other reading is not limited
