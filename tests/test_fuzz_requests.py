"""Hostile requests from the fuzzer (``benchmarks/fuzz_requests.py``): rules strings, table
bodies and game records, each at most 1 MB, to the server under uvicorn on 127.0.0.1.  None is
answered 500 or not at all, none takes 50 MiB, and every refusal is short lines that quote no
long run of the input.  The time the event loop is held is the benchmark's to print, not
asserted here (a loaded machine makes any thread late)."""

from __future__ import annotations

import gc
import importlib.util
import json
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette's note about its httpx transport
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bezique.core.records import record_match
from bezique.server import app as app_module
from server_helpers import app_client, played


def _fuzzer() -> ModuleType:
    path = Path(__file__).parents[1] / "benchmarks" / "fuzz_requests.py"
    spec = importlib.util.spec_from_file_location("fuzz_requests", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


fuzz = _fuzzer()


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The application under uvicorn in a thread, measured for memory only."""
    data = tmp_path_factory.mktemp("fuzz")
    warm_up = [*fuzz.WARM_UP, fuzz.Cases(0).m_valid()]
    with fuzz.Servers(data, timed=False, warm_up=warm_up) as s:
        yield s


def test_every_kind_of_hostile_request_is_answered_within_the_limits(servers: Any) -> None:
    """Each mutation of each kind once, and as many again drawn at random: no 500, no request
    past 50 MiB, every refusal a short message that does not quote the input."""
    cases = fuzz.Cases(0).first_of_each() + fuzz.Cases(7).cases(60)
    assert {c.category for c in cases} == set(fuzz.CATEGORIES)
    failed = []
    for case in cases:
        m = servers.measure(case)
        assert m.peak_mib is not None and m.status is not None
        if m.problems:
            failed.append(f"{case.category}: {case.described()}: {'; '.join(m.problems)}")
    assert not failed, "\n".join(failed)


def test_a_500_and_an_echo_fail_the_check(servers: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check is no formality: a handler that fails, or a refusal that quotes its input,
    or a request past the memory limit, is a failure."""

    def broken(_rules: Any) -> Any:
        raise RuntimeError("broken")

    monkeypatch.setattr(app_module, "rules_facts", broken)
    m = servers.measure(fuzz.Case("rules", "a preset", "GET", "/api/rules?rules=classic"))
    assert m.status == 500 and "answered 500" in m.problems
    payload = "play " + "Q" * 500
    echo = fuzz.Measure(
        fuzz.Case("records", "x", "POST", "/api/replay", b"", payload=payload),
        status=400,
        answer=json.dumps({"detail": f"{payload[:200]!r} is not an action"}).encode(),
        peak_mib=60.0,
    )
    assert fuzz.problems(echo) == ["400 quotes the input", "peak 60 MiB"]
    assert not fuzz.echoes(payload, "deals[0].actions[0]: 'play QQQQQQQQQQQQQQQQQQQQQQQQQQ...")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as c:
        yield c


def _record(client: TestClient) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(fuzz.Cases(3).record()))
    assert client.post("/api/replay", content=json.dumps(data).encode()).status_code == 200
    return data


def test_refusals_quote_at_most_a_few_words_of_long_values(client: TestClient) -> None:
    """A number of 4,000 digits in the rules, a 300-digit score, a match seed of 4,000 digits,
    an action of 3,000 characters and a format that is a deep list were quoted back nearly
    whole (up to 4 KB).  A refusal quotes 40 characters of a value at most."""
    digits = "9" * 4000
    refusals = []
    r = client.get("/api/rules", params={"rules": f"classic(target={digits})"})
    refusals.append((r, digits))
    r = client.post("/api/tables", json={"rules": f"classic(packs={digits[:380]})"})
    refusals.append((r, digits))
    base = _record(client)
    for where, value in [
        ("scores", [10**300, 1]),
        ("seed", int(digits)),
        ("winner", 10**300),
        ("handicap", [-(10**300), 0]),
        ("format", [[[["x" * 500]]]]),
        ("kind", "k" * 500),
        ("meta", {"m" * 500: 5}),
        ("rules", f"classic(wild_cards={digits[:3000]})"),
    ]:
        data = json.loads(json.dumps(base))
        data[where] = value
        text = json.dumps(data)
        refusals.append((client.post("/api/replay", content=text.encode()), text))
    for action in ["meld " + "QS " * 1000, "play " + "Q" * 3000, "Q" * 3000, "pass " + "x" * 3000]:
        data = json.loads(json.dumps(base))
        data["deals"][0]["actions"][0] = action
        text = json.dumps(data)
        refusals.append((client.post("/api/replay", content=text.encode()), text))
    data = json.loads(json.dumps(base))
    data["deals"][0]["dealer"] = 10**300
    text = json.dumps(data)
    refusals.append((client.post("/api/replay", content=text.encode()), text))
    quoting = []
    for r, sent in refusals:
        assert r.status_code == 400, r.text[:200]
        detail = r.json()["detail"]
        assert isinstance(detail, str)
        if len(detail) >= fuzz.MESSAGE_MOST or fuzz.echoes(sent, detail):
            quoting.append(detail[:120])
    assert not quoting, "\n".join(quoting)


def test_replay_pages_are_kept_as_the_json_sent(client: TestClient) -> None:
    """The replay kept each page it had worked out as its values: some 13,000 Python objects
    and 1.5 MiB for a page of 2,000 steps, so 64 pages held 100 MiB and every full garbage
    collection (which stops every thread, the event loop's too) scanned 800,000 objects more,
    0.4 s.  A page is kept as the JSON sent: one object."""
    text = record_match(played("classic(target=3000)", seed=9)).to_json().encode()
    assert client.post("/api/replay", content=text).status_code == 200
    gc.collect()
    before = len(gc.get_objects())
    for k in range(1, 4):  # each a new upload (its digest differs): read, replayed and kept
        r = client.post("/api/replay", content=text + b" " * k)
        assert r.status_code == 200 and len(r.json()["steps"]) > 1000
    del r
    gc.collect()
    assert len(gc.get_objects()) - before < 3 * 1000  # a page's values: some 10,000
