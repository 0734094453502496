"""Hostile requests against the server: a small, seeded fuzzer of rules strings, table bodies
and game records, each request at most 1 MB, sent over HTTP to the real application running
under uvicorn on 127.0.0.1 in a thread of this process.

    python benchmarks/fuzz_requests.py [--seed 1] [--cases 300] [--json PATH]

Three kinds of request are made, in turn:

* ``rules``: ``GET /api/rules?rules=...``: nesting, huge and odd numbers, long and unknown
  and repeated options, Unicode, lone surrogates and NUL, a query string of many parameters;
* ``tables``: ``POST /api/tables`` bodies: the same rules, odd seats and names, deep or cut
  JSON, lists and numbers where objects belong, bodies past the size limit;
* ``records``: ``POST /api/replay`` bodies: finished records whose actions, seeds, rules,
  players or results are changed, records of 20,000 actions, deep JSON, numbers with thousands
  of digits, bodies sent in chunks past the size limit, and odd ``?deal=`` pages.

Each request is measured twice, on two copies of the application (so neither answers from what
the other remembers).  First for the event loop: a probe on the loop sleeps 1 ms at a time, and
the longest it wakes late while the request is served is the *loop* figure (wall-clock time:
the loop busy, waiting for the GIL, or not given a processor at all), the most processor time
the loop's thread used in one such stretch the *busy* figure (the work alone).  Then under
``tracemalloc``, for the peak of memory allocated while the request is served (in every thread:
the loop, the worker threads that read rules and records, and this client reading the answer).
A case whose loop figure passes the limit is sent again, up to five times in all, its body
changed in white space so no cache answers it, and the smallest figure kept: a busy machine can
pause any thread for a while, and a real block repeats.  Printed too: how late the probe is with
no request at all (on a loaded machine that, not the request, is most of the loop figure), and
the full garbage collections outside the memory measures, which hold every thread while they
run, the loop's among them: a collection's length grows with everything the process holds (its
tables, rule sets and caches), not with the request it falls in, so the table gives the worst
loop figures also among the cases served without one.

A case fails when it is answered 500 or not at all, blocks the loop for more than 50 ms, peaks
above 50 MiB, or is refused (4xx) with an answer that is not short lines of text or that quotes
a long run of the input.  The table printed has, per kind: cases, the worst loop and busy
figures (of all cases, and of those without a full collection), the worst peak of memory, the
failures and the statuses seen, with the input behind each worst figure.
The exit status is 1 when any case fails, so the fuzzer serves as a check.

A request line of more than about 64 KB (a long query string) is refused by uvicorn's HTTP
parser itself, before the application, with a 400 of one line of plain text.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import json
import logging
import math
import random
import socket
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote_from_bytes

import uvicorn

from bezique import Rules
from bezique.core import rules as rules_module
from bezique.core.match import Match
from bezique.core.records import record_deal, record_match
from bezique.server import create_app, serving
from bezique.server.app import MAX_BODY
from bezique.server.replay import MAX_ACTIONS
from bezique.server.tables import levels

MAX_REQUEST = 1_000_000
"""The largest request sent, request line, headers and body together (1 MB)."""
LOOP_LIMIT_MS = 50.0
"""The most event-loop time one request may take."""
MEMORY_LIMIT_MIB = 50.0
"""The most memory one request may allocate at its peak."""
MESSAGE_MOST = 400
"""Characters a refusal's message may have (a record's says where, in at most 80, and what, in
at most 300)."""
ANSWER_MOST = 4096
"""Bytes a refusal's whole answer may have."""
ECHO_RUN = 64
"""A run of this many characters of the input found in a refusal is an echo of the input."""
CATEGORIES = ("rules", "tables", "records")
TRIES = 5
"""Times a case is sent at most while its loop figure passes the limit (the smallest counts)."""
IDLE_SECONDS = 5.0
"""How long the loop is watched with no request, for the figure a busy machine alone gives."""


@dataclass(frozen=True)
class Case:
    """One request: its kind, a few words on what it is, and what is sent."""

    category: str
    what: str
    method: str
    target: str
    """The path and query, percent-encoded."""
    body: bytes | None = None
    content_type: str | None = "application/json"
    chunked: bool = False
    """The body sent in chunks, without ``Content-Length``."""
    payload: str = ""
    """The hostile text itself (the query value, or the body as text): a refusal may not
    quote a long run of it."""

    def request(self) -> bytes:
        """The whole HTTP/1.1 request, asking the server to close the connection after it."""
        head = [f"{self.method} {self.target} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
        body = b""
        if self.body is not None:
            if self.content_type is not None:
                head.append(f"Content-Type: {self.content_type}")
            if self.chunked:
                head.append("Transfer-Encoding: chunked")
                step = 64 * 1024
                parts = [
                    f"{len(self.body[i : i + step]):x}\r\n".encode()
                    + self.body[i : i + step]
                    + b"\r\n"
                    for i in range(0, len(self.body), step)
                ]
                body = b"".join(parts) + b"0\r\n\r\n"
            else:
                head.append(f"Content-Length: {len(self.body)}")
                body = self.body
        return ("\r\n".join(head) + "\r\n\r\n").encode("ascii") + body

    def size(self) -> int:
        return len(self.request())

    def described(self) -> str:
        """``what`` and the request's size, for the table."""
        n = self.size()
        size = (
            f"{n / 1e6:.2f} MB" if n >= 100_000 else f"{n / 1e3:.1f} KB" if n >= 1000 else f"{n} B"
        )
        return f"{self.what} ({size})"

    def resent(self, k: int) -> Case:
        """The same case with its body changed in white space only (JSON allows it), so that
        no cache of bodies answers it; a request without a body is the same request."""
        if self.body is None or len(self.body) + k > MAX_REQUEST - 400:
            return self
        return replace(self, body=self.body + b" " * k)


# --- the cases ---------------------------------------------------------------------------------
class Cases:
    """The cases of one seed: each kind's mutations taken in turn (so the first cases of a kind
    try each mutation once), their details drawn from the seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.presets = Rules.presets()
        self.levels = levels()
        self._records: dict[str, dict[str, Any]] = {}
        self.rules_mutations: list[Callable[[], tuple[str, str]]] = [
            self.r_preset,
            self.r_options,
            self.r_nested,
            self.r_unbalanced,
            self.r_number,
            self.r_long_name,
            self.r_unknown,
            self.r_repeated,
            self.r_unicode,
            self.r_packets,
            self.r_blank,
            self.r_full,
        ]
        self.table_mutations: list[Callable[[], Case]] = [
            self.t_valid,
            self.t_rules,
            self.t_seat,
            self.t_seats,
            self.t_name,
            self.t_level,
            self.t_flags,
            self.t_deep,
            self.t_cut,
            self.t_not_object,
            self.t_duplicates,
            self.t_unknown_keys,
            self.t_digits,
            self.t_too_large,
            self.t_content_type,
        ]
        self.record_mutations: list[Callable[[], Case]] = [
            self.m_valid,
            self.m_action,
            self.m_long_action,
            self.m_cut_moves,
            self.m_rules,
            self.m_seed,
            self.m_dealer,
            self.m_results,
            self.m_players,
            self.m_kind,
            self.m_deals,
            self.m_many_actions,
            self.m_long_game,
            self.m_deep,
            self.m_deep_field,
            self.m_cut,
            self.m_digits,
            self.m_meta,
            self.m_duplicates,
            self.m_bytes,
            self.m_chunked,
            self.m_too_large,
            self.m_page,
        ]

    def cases(self, n: int) -> list[Case]:
        """``n`` cases, the kinds in turn."""
        out: list[Case] = []
        made = dict.fromkeys(CATEGORIES, 0)
        for i in range(n):
            category = CATEGORIES[i % len(CATEGORIES)]
            k = made[category]
            made[category] += 1
            for _ in range(50):  # details drawn again while the request is over 1 MB
                if category == "rules":
                    fn = self.rules_mutations[k % len(self.rules_mutations)]
                    case = self.rules_case(*fn())
                elif category == "tables":
                    case = self.table_mutations[k % len(self.table_mutations)]()
                else:
                    case = self.record_mutations[k % len(self.record_mutations)]()
                if case.size() <= MAX_REQUEST:
                    break
            else:
                raise AssertionError(f"no case under 1 MB from {case.what}")
            out.append(case)
        return out

    def first_of_each(self) -> list[Case]:
        """Enough cases for every mutation of every kind to be tried once."""
        most = max(len(self.rules_mutations), len(self.table_mutations), len(self.record_mutations))
        return self.cases(len(CATEGORIES) * most)

    # --- hostile text ---------------------------------------------------------------------------
    def _budget(self, most: int = MAX_REQUEST - 400) -> int:
        """A length up to ``most``, small lengths as likely as large ones (a log scale)."""
        return min(most, int(10 ** self.rng.uniform(1, math.log10(most))))

    def _number(self) -> str:
        return self.rng.choice(
            [
                "1000000000000",
                "1" + "0" * 300,
                "-" + "9" * 300,
                "9" * 4000,
                "9" * 5000,
                "-1",
                "1.5",
                "1e300",
                "nan",
                "NaN",
                "inf",
                "-0",
                "0x10",
                "1_000",
                "１２３",
                "",
            ]
        )

    def _unicode(self, n: int) -> str:
        pool = [
            "\x00",
            "\ud800",
            "\udfff",
            "\u202e",
            "\u200b",
            "\ufeff",
            "é",
            "ß",
            "\U0001f0a1",
            "\n",
            '"',
            "\\",
            "%",
            "&",
        ]
        return "".join(self.rng.choice(pool) for _ in range(n))

    def _option(self) -> tuple[str, int]:
        name = self.rng.choice(list(Rules.option_docs()))
        span = Rules.option_range(name)
        return name, (self.rng.randint(*span) if span else 0)

    # --- rules strings (each gives the words and the text) ---------------------------------------
    def r_preset(self) -> tuple[str, str]:
        return "a preset", self.rng.choice(self.presets)

    def r_options(self) -> tuple[str, str]:
        parts = []
        for _ in range(self.rng.randint(1, 6)):
            name, value = self._option()
            parts.append(f"{name}={value}")
        return "options in range", f"{self.rng.choice(self.presets)}({','.join(parts)})"

    def r_nested(self) -> tuple[str, str]:
        depth = self.rng.choice([16, 17, 400, 2000, 100_000, 300_000])
        text = "classic(deal_packets=" + "(" * depth + "3" + ")" * depth + ")"
        return f"parentheses {depth} deep", text

    def r_unbalanced(self) -> tuple[str, str]:
        n = self._budget(MAX_REQUEST - 400)
        return f"{n} open parentheses", "classic" + "(" * n

    def r_number(self) -> tuple[str, str]:
        name = self.rng.choice(["target", "players", "packs", "wild_cards", "hand_size"])
        value = self._number()
        return f"{name}={value[:12]}{'...' if len(value) > 12 else ''}", f"classic({name}={value})"

    def r_long_name(self) -> tuple[str, str]:
        n = self._budget(MAX_REQUEST - 400)
        if self.rng.random() < 0.5:
            return f"an option name of {n} letters", "classic(" + "x" * n + "=1)"
        return f"a preset name of {n} letters", "c" * n

    def r_unknown(self) -> tuple[str, str]:
        n = self.rng.randint(1, 2000)
        parts = ",".join(f"opt{self.rng.randrange(10**6)}=1" for _ in range(n))
        return f"{n} unknown options", f"classic({parts})"

    def r_repeated(self) -> tuple[str, str]:
        name, value = self._option()
        n = self.rng.randint(2, 60_000)
        return f"{name} given {n} times", "classic(" + ",".join([f"{name}={value}"] * n) + ")"

    def r_unicode(self) -> tuple[str, str]:
        n = self._budget(100_000)
        where = self.rng.choice(["name", "value", "option"])
        junk = self._unicode(n)
        text = {
            "name": junk,
            "value": f"classic(target={junk})",
            "option": f"classic({junk}=1)",
        }[where]
        return f"{n} odd characters (surrogates, NUL) as the {where}", text

    def r_packets(self) -> tuple[str, str]:
        packets = self.rng.choice(
            [
                "(3,2,3)",
                "(" + ",".join(["1"] * 24) + ")",
                "(" + ",".join(["1"] * 25) + ")",
                "(" + ",".join(["3"] * 1000) + ")",
                "(1" + "0" * 300 + ")",
                "((3))",
                "()",
                "(,,,,)",
                "(" * 16 + ")" * 16,
                "(true,false)",
            ]
        )
        return f"deal_packets={packets[:16]}", f"classic(deal_packets={packets})"

    def r_blank(self) -> tuple[str, str]:
        text = self.rng.choice(["", " ", "classic()", "classic(,,,,)", "classic(=)", "()", ")("])
        return f"the text {text!r}", text

    def r_full(self) -> tuple[str, str]:
        parts: list[str] = []
        while len(",".join(parts)) < rules_module.MAX_RULES_TEXT:
            name, value = self._option()
            parts.append(f"{name}={value}")
        text = "classic(" + ",".join(parts) + ")"
        cut = self.rng.choice([rules_module.MAX_RULES_TEXT, rules_module.MAX_RULES_TEXT + 1])
        return f"{len(parts)} options cut at {cut}", text[: cut - 1] + ")"

    def rules_case(self, what: str, text: str) -> Case:
        """``GET /api/rules`` with ``text`` as its rules; now and then the query has many other
        parameters too, or names the rules many times over."""
        value = quote_from_bytes(text.encode("utf-8", "surrogatepass"), safe="()=,_-.")
        query = f"rules={value}"
        extra = self.rng.random()
        room = MAX_REQUEST - 200 - len(query)
        if extra < 0.1 and room > 100:
            n = room // len("&rules=classic")
            query = "&".join([query] + ["rules=classic"] * self._budget(n))
            what += f", rules named {query.count('rules=')} times"
        elif extra < 0.2 and room > 100:
            n = room // len("&x=1")
            query = "&".join([query] + ["x=1"] * self._budget(n))
            what += f", {query.count('&')} other parameters"
        case = Case("rules", what, "GET", f"/api/rules?{query}", body=None, payload=text)
        if case.size() > MAX_REQUEST:  # percent-encoding made it too long: the text cut
            return self.rules_case(what + ", cut", text[: len(text) // 3])
        return case

    # --- table bodies ---------------------------------------------------------------------------
    def _table(self, what: str, data: Any, *, text: str | None = None) -> Case:
        body = text if text is not None else json.dumps(data)
        raw = body.encode("utf-8", "surrogatepass")
        return Case("tables", what, "POST", "/api/tables", raw, payload=body)

    def t_valid(self) -> Case:
        preset = self.rng.choice(self.presets)
        level = self.rng.choice(self.levels)
        seat = self.rng.randint(0, 3)
        body = {"rules": preset, "level": level, "name": "Ann", "seat": seat}
        return self._table(f"{preset} against {level}, seat {seat}", body)

    def t_rules(self) -> Case:
        fn = self.rng.choice(self.rules_mutations)
        what, text = fn()
        return self._table(f"rules: {what}", {"rules": text, "level": "easy"})

    def t_seat(self) -> Case:
        value = self.rng.choice(
            ["1" + "0" * 300, "-1", "3", "4", "1.5", '"1"', "NaN", "1e400", "-Infinity", "null"]
        )
        text = '{"rules": "classic", "level": "easy", "seat": ' + value + "}"
        return self._table(f"seat {value[:12]}", None, text=text)

    def t_seats(self) -> Case:
        n = self.rng.choice([0, 3, 4, 5, 1000, 15_000])
        kinds = ["me", "open", "bot", "robot", "", "x" * 40]
        seats = [
            {"kind": self.rng.choice(kinds), "level": self.rng.choice([None, "easy", "x" * 100])}
            for _ in range(n)
        ]
        return self._table(f"{n} seats of any kind", {"rules": "four", "seats": seats})

    def t_name(self) -> Case:
        n = self._budget(MAX_REQUEST - 500)
        name = self._unicode(n) if self.rng.random() < 0.5 else "N" * n
        body = {"rules": "classic", "level": "easy", "name": name}
        return self._table(f"a name of {n} characters", body)

    def t_level(self) -> Case:
        level = self.rng.choice(["", "grandmaster", "random", "x" * 32, "x" * 10_000, "\ud800"])
        body = {"rules": "classic", "level": level}
        return self._table(f"level {level[:12]!r} ({len(level)} characters)", body)

    def t_flags(self) -> Case:
        value = self.rng.choice(['"yes"', "2", "null", "[]", "{}", "true"])
        flag = self.rng.choice(["hints", "public", "rated"])
        key = self.rng.choice(["", ', "key": "' + "k" * 199 + '"', ', "key": "' + "k" * 5000 + '"'])
        text = '{"rules": "classic", "level": "easy", "' + flag + '": ' + value + key + "}"
        return self._table(f"{flag}={value}{' with a key' if key else ''}", None, text=text)

    def t_deep(self) -> Case:
        depth = self.rng.choice([1000, 100_000, 400_000])
        shape = self.rng.choice(["list", "object", "seats"])
        text = {
            "list": "[" * depth + "]" * depth,
            "object": '{"a":' * depth + "1" + "}" * depth,
            "seats": '{"seats":' + "[" * depth + "]" * depth + "}",
        }[shape]
        return self._table(f"JSON {depth} deep ({shape})", None, text=text)

    def t_cut(self) -> Case:
        text = json.dumps({"rules": "classic", "level": "easy", "name": "Ann", "seat": 1})
        at = self.rng.randrange(len(text))
        return self._table(f"JSON cut at {at}", None, text=text[:at])

    def t_not_object(self) -> Case:
        text = self.rng.choice(
            ["[]", "1", '"classic"', "null", "true", "[" + "1," * 200_000 + "1]"]
        )
        return self._table(f"a body of {text[:8]!r}", None, text=text)

    def t_duplicates(self) -> Case:
        n = self.rng.choice([2, 1000, 40_000])
        text = "{" + ", ".join(['"rules": "classic"'] * n) + ', "level": "easy"}'
        return self._table(f"rules given {n} times", None, text=text)

    def t_unknown_keys(self) -> Case:
        n = self.rng.choice([10, 10_000, 50_000])
        body = {f"k{i}": i for i in range(n)} | {"rules": "classic", "level": "easy"}
        return self._table(f"{n} unknown keys", body)

    def t_digits(self) -> Case:
        n = self.rng.choice([4000, 5000, 100_000, 500_000])
        text = '{"rules": "classic", "level": "easy", "seat": ' + "7" * n + "}"
        return self._table(f"a seat of {n} digits", None, text=text)

    def t_too_large(self) -> Case:
        n = self.rng.randint(MAX_BODY + 1, MAX_REQUEST - 500)
        body = json.dumps({"rules": "classic", "name": "x" * (n - 40)})
        case = self._table(f"a body past {MAX_BODY // 1024} KiB", None, text=body)
        return replace(case, chunked=self.rng.random() < 0.5)

    def t_content_type(self) -> Case:
        kind = self.rng.choice(["text/plain", "application/x-www-form-urlencoded", None])
        case = self._table(f"content type {kind}", {"rules": "classic", "level": "easy"})
        return replace(case, content_type=kind)

    # --- records ----------------------------------------------------------------------------------
    def record(self, which: str = "match") -> dict[str, Any]:
        """A finished record, played at random from the seed: a short match, a single deal, or
        a long match just under the length the server replays (:data:`MAX_ACTIONS`)."""
        if which not in self._records:
            play = random.Random(self.seed)
            if which == "deal":
                deal = Match(Rules.preset("four"), seed=self.seed).deal
                while not deal.is_over:
                    deal.apply(play.choice(deal.legal_actions()))
                rec = record_deal(deal, players=["Ann", "Bob", "Cy", "Di"])
            else:
                target = 200 if which == "match" else 30_000  # some 18,000 actions
                while True:
                    match, actions = (
                        Match(Rules.preset("classic", target=target), seed=self.seed),
                        0,
                    )
                    while match.winner is None:
                        if match.deal.is_over:
                            match.next_deal()
                        else:
                            match.deal.apply(play.choice(match.deal.legal_actions()))
                            actions += 1
                    if actions <= MAX_ACTIONS:
                        break
                    target -= 2000
                rec = record_match(match, players=["Ann", "Bob"])
            self._records[which] = json.loads(rec.to_json())
        copy: dict[str, Any] = json.loads(json.dumps(self._records[which]))  # to change
        return copy

    def _upload(self, what: str, data: Any, *, text: str | None = None, deal: int = 0) -> Case:
        body = text if text is not None else json.dumps(data)
        raw = body.encode("utf-8", "surrogatepass")
        target = "/api/replay" + (f"?deal={deal}" if deal else "")
        return Case("records", what, "POST", target, raw, payload=body)

    def m_valid(self) -> Case:
        which = self.rng.choice(["match", "deal"])
        return self._upload(f"a finished {which}, as recorded", self.record(which))

    def m_action(self) -> Case:
        rec = self.record()
        deal = self.rng.choice(rec["deals"])
        j = self.rng.randrange(len(deal["actions"]))
        new = self.rng.choice(
            ["play AS", "PLAY qs", "pass", "meld bezique QS JD", "", "play", "play ZZ", 7, None]
        )
        deal["actions"][j] = new
        return self._upload(f"action {j} made {new!r}", rec)

    def m_long_action(self) -> Case:
        rec = self.record()
        n = self._budget(MAX_BODY - 3000)
        text = self.rng.choice(["play " + "Q" * n, "meld " + "QS " * (n // 3), self._unicode(n)])
        rec["deals"][0]["actions"][0] = text
        return self._upload(f"an action of {n} characters", rec)

    def m_cut_moves(self) -> Case:
        rec = self.record()
        rec["deals"][-1]["actions"] = rec["deals"][-1]["actions"][:-3]
        rec.pop("winner", None)
        rec.pop("scores", None)
        rec["deals"][-1].pop("points", None)
        return self._upload("the last three actions left out", rec)

    def m_rules(self) -> Case:
        rec = self.record()
        if self.rng.random() < 0.5:
            what, rec["rules"] = self.rng.choice(self.rules_mutations)()
        else:
            rec["rules"] = self.rng.choice(["classic(target=201)", "rubicon", "classic(packs=4)"])
            what = rec["rules"]
        return self._upload(f"rules: {what}", rec)

    def m_seed(self) -> Case:
        rec = self.record()
        value = self.rng.choice([rec["seed"] + 1, -1, 10**300, 2**64, 2**63, "7", 1.5, None])
        rec["seed"] = value
        return self._upload(f"match seed {str(value)[:12]}", rec)

    def m_dealer(self) -> Case:
        rec = self.record()
        value = self.rng.choice([1, -1, 2, 10**12, True, "0"])
        rec["deals"][0]["dealer"] = value
        return self._upload(f"dealer {value!r}", rec)

    def m_results(self) -> Case:
        rec = self.record()
        field_, value = self.rng.choice(
            [
                ("winner", 1 - rec["winner"]),
                ("winner", 10**300),
                ("winner", None),
                ("scores", [10**300, -1]),
                ("scores", [0]),
                ("handicap", [-5, 10**12]),
            ]
        )
        rec[field_] = value
        return self._upload(f"{field_} made {str(value)[:16]}", rec)

    def m_players(self) -> Case:
        rec = self.record()
        n = self._budget(MAX_BODY - 4000)
        value = self.rng.choice(
            [["N" * n, "Bob"], [self._unicode(n), "Bob"], ["Ann"] * 3, [1, 2], [], "Ann"]
        )
        rec["players"] = value
        return self._upload(f"players of {len(json.dumps(value))} characters", rec)

    def m_kind(self) -> Case:
        rec = self.record()
        rec["kind"] = self.rng.choice(["deal", "game", "", 1, None])
        return self._upload(f"kind {rec['kind']!r}", rec)

    def m_deals(self) -> Case:
        rec = self.record()
        n = self.rng.choice([0, 2, 50, 2000])
        rec["deals"] = (rec["deals"] * (n // len(rec["deals"]) + 1))[:n]
        return self._upload(f"{n} deals", rec)

    def m_many_actions(self) -> Case:
        rec = self.record()
        n = self.rng.choice([MAX_ACTIONS, MAX_ACTIONS + 1, 60_000])
        rec["deals"][0]["actions"] = ["pass"] * n
        return self._upload(f"{n} actions of 'pass'", rec)

    def m_long_game(self) -> Case:
        rec = self.record("long")
        actions = sum(len(d["actions"]) for d in rec["deals"])
        deal = self.rng.choice([0, len(rec["deals"]) // 2])
        return self._upload(f"a finished match of {actions} actions, page {deal}", rec, deal=deal)

    def m_deep(self) -> Case:
        depth = self.rng.choice([1000, 100_000, 500_000])
        shape = self.rng.choice(["[", '{"deals":', '{"a":'])
        close = "]" if shape == "[" else "}"
        text = shape * depth + "1" + close * depth
        return self._upload(f"JSON {depth} deep", None, text=text)

    def m_deep_field(self) -> Case:
        rec = self.record()
        depth = self.rng.choice([100, 1000, 100_000])
        where = self.rng.choice(["deals", "players", "meta", "seed", "format"])
        marker = "\x00DEEP\x00"
        rec[where] = marker
        text = json.dumps(rec).replace(json.dumps(marker), "[" * depth + "]" * depth)
        return self._upload(f"{where} a list {depth} deep", None, text=text)

    def m_cut(self) -> Case:
        text = json.dumps(self.record())
        at = self.rng.randrange(len(text))
        return self._upload(f"a record cut at {at} of {len(text)}", None, text=text[:at])

    def m_digits(self) -> Case:
        rec = self.record()
        n = self.rng.choice([4000, 4301, 100_000, 500_000])
        marker = 123456789123456789
        rec["seed"] = marker
        text = json.dumps(rec).replace(str(marker), "9" * n)
        return self._upload(f"a seed of {n} digits", None, text=text)

    def m_meta(self) -> Case:
        rec = self.record()
        n = self.rng.choice([10, 10_000, 40_000])
        rec["meta"] = {f"k{i}": "v" * self.rng.randint(0, 8) for i in range(n)}
        return self._upload(f"meta with {n} keys", rec)

    def m_duplicates(self) -> Case:
        rec = self.record()
        n = self.rng.choice([2, 1000, 20_000])
        text = json.dumps(rec)
        text = text[:-1] + ', "kind": "match"' * n + "}"
        return self._upload(f"kind given {n + 1} times", None, text=text)

    def m_bytes(self) -> Case:
        text = json.dumps(self.record())
        kind = self.rng.choice(["utf-16", "latin-1 junk", "BOM", "NUL"])
        if kind == "utf-16":
            raw = text.encode("utf-16")
        elif kind == "latin-1 junk":
            raw = text.encode()[:100] + bytes(self.rng.randrange(128, 256) for _ in range(1000))
        elif kind == "BOM":
            raw = b"\xef\xbb\xbf" + text.encode()
        else:
            raw = text.encode().replace(b'"Ann"', b'"A\x00n"')
        payload = raw.decode("utf-8", "replace")
        return Case("records", f"a record in {kind}", "POST", "/api/replay", raw, payload=payload)

    def m_chunked(self) -> Case:
        rec = self.record()
        n = self.rng.choice([1000, MAX_BODY - 8000, MAX_BODY + 100_000])
        rec["meta"] = {"pad": "p" * n}
        case = self._upload(f"a record with {n} bytes of meta, in chunks", rec)
        return replace(case, chunked=True)

    def m_too_large(self) -> Case:
        n = self.rng.randint(MAX_BODY + 1, MAX_REQUEST - 500)
        case = self._upload(
            f"a body past {MAX_BODY // 1024} KiB", None, text="[" + " " * (n - 2) + "]"
        )
        return case

    def m_page(self) -> Case:
        value = self.rng.choice(["-1", "999", "1" + "0" * 300, "9" * 5000, "abc", "1.5", ""])
        case = self._upload(f"page deal={value[:10]}", self.record())
        query = "?deal=" + quote_from_bytes(value.encode())
        return replace(case, target="/api/replay" + query)


WARM_UP = [
    Case("rules", "warm-up", "GET", "/api/rules?rules=classic"),
    Case("tables", "warm-up", "POST", "/api/tables", b'{"rules": "classic", "level": "easy"}'),
]


# --- the server and the measures --------------------------------------------------------------
@dataclass
class Measure:
    """What one case did."""

    case: Case
    status: int | None = None
    answer: bytes = b""
    loop_ms: float | None = None
    """The longest the event loop could not run while the case was served (wall clock)."""
    busy_ms: float | None = None
    """The most processor time the loop's thread spent in one such stretch: the work itself,
    without the time the machine gave other processes."""
    gc_ms: float | None = None
    """The longest full garbage collection while the case was served (0: none)."""
    peak_mib: float | None = None
    problems: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "category": self.case.category,
            "what": self.case.what,
            "bytes": self.case.size(),
            "status": self.status,
            "loop_ms": self.loop_ms,
            "busy_ms": self.busy_ms,
            "gc_ms": self.gc_ms,
            "peak_mib": self.peak_mib,
            "problems": self.problems,
        }


class Servers:
    """Two copies of the application (``bezique serve``'s uvicorn settings, the rate limits
    lifted) on one event loop in a thread, and a probe on that loop measuring how long it is
    kept from running."""

    def __init__(self, data: Path, *, timed: bool = True, warm_up: list[Case] = WARM_UP) -> None:
        """Start the servers, storing in ``data``, and send each of them ``warm_up`` (what
        the first request of each kind loads is not counted); ``timed``: the copy measured
        for loop time too."""
        self.timed = timed
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.gaps: collections.deque[tuple[float, float, float]] = collections.deque(maxlen=500_000)
        """(when the probe woke, how late it was, the loop thread's processor time since it
        last woke), in seconds."""
        self.last_tick = 0.0
        self.stopping = False
        self.collections: list[tuple[float, float]] = []
        """When each full garbage collection outside the memory measures began and how long it
        took (s): the collector holds every thread, the loop's among them, while it runs."""
        self._collecting = 0.0
        gc.callbacks.append(self._collected)
        self.servers: list[uvicorn.Server] = []
        self.ports: list[int] = []
        self.tasks: list[Any] = []
        self.thread.start()
        for name in ("timed", "traced") if timed else ("traced",):
            app = create_app(
                data / name,
                bot_delay=0,
                http_rate=1e9,
                http_burst=1e9,
                lookup_rate=1e9,
                lookup_burst=1e9,
            )
            sock = socket.socket()
            sock.bind(("127.0.0.1", 0))
            server = uvicorn.Server(serving.config(app, "127.0.0.1", sock.getsockname()[1]))
            self.servers.append(server)
            self.ports.append(sock.getsockname()[1])
            self.tasks.append(asyncio.run_coroutine_threadsafe(server.serve([sock]), self.loop))
        self.tasks.append(asyncio.run_coroutine_threadsafe(self._probe(), self.loop))
        deadline = time.monotonic() + 30
        while not all(s.started for s in self.servers):
            if time.monotonic() > deadline or any(t.done() for t in self.tasks):
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        # uvicorn's own refusals (a request line over about 64 KB) are warnings, one a case
        logging.getLogger("uvicorn.error").setLevel(logging.ERROR)
        for case in warm_up:
            for port in self.ports:
                send(port, case.request())

    async def _probe(self) -> None:
        """Sleep 1 ms at a time and note how late each wake-up is (the loop was busy, waiting
        for the GIL or not given the processor for that long) and the processor time its thread
        used meanwhile."""
        last, last_cpu = time.perf_counter(), time.thread_time()
        while not self.stopping:
            await asyncio.sleep(0.001)
            now, cpu = time.perf_counter(), time.thread_time()
            self.gaps.append((now, max(0.0, now - last - 0.001), cpu - last_cpu))
            self.last_tick, last, last_cpu = now, now, cpu

    def _collected(self, phase: str, info: dict[str, int]) -> None:
        # not under tracemalloc, which slows the collector down several times over
        if info["generation"] == 2 and not tracemalloc.is_tracing():
            if phase == "start":
                self._collecting = time.perf_counter()
            elif self._collecting:
                took = time.perf_counter() - self._collecting
                self.collections.append((self._collecting, took))
                self._collecting = 0.0

    def close(self) -> None:
        gc.callbacks.remove(self._collected)
        for server in self.servers:
            server.should_exit = True
        self.stopping = True
        for task in self.tasks:
            with contextlib.suppress(Exception):
                task.result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)

    def __enter__(self) -> Servers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def blocked(self, start: float, end: float) -> tuple[float, float]:
        """The longest the loop was kept from running between ``start`` and ``end``, and the
        most processor time its thread used in one stretch (ms)."""
        while self.last_tick <= end:  # a gap still open ends at the probe's next wake-up
            time.sleep(0.001)
        late_most = cpu_most = 0.0
        for woke, late, cpu in reversed(self.gaps):
            if woke < start:
                break
            if woke - late - 0.001 <= end:
                late_most, cpu_most = max(late_most, late), max(cpu_most, cpu)
        return late_most * 1000, cpu_most * 1000

    def collected(self, start: float, end: float) -> float:
        """The longest full garbage collection between ``start`` and ``end`` (ms; 0: none)."""
        return 1000 * max(
            (took for began, took in self.collections if began < end and began + took > start),
            default=0.0,
        )

    def measure(self, case: Case) -> Measure:
        """Send the case to each copy: the loop's figures from the first (the try with the
        smallest, of up to :data:`TRIES` while they pass the limit), the peak of memory from
        the second, then the checks."""
        m = Measure(case)
        if self.timed:
            tries = []
            for k in range(TRIES):
                if k:
                    time.sleep(0.1)  # a stall of the machine passes before the next try
                raw = case.resent(k).request()
                rules_module._PARSED.clear()  # each try reads the rules afresh
                start = time.perf_counter()
                send(self.ports[0], raw)
                end = time.perf_counter()
                tries.append((*self.blocked(start, end), self.collected(start, end)))
                if tries[-1][0] <= LOOP_LIMIT_MS:
                    break
            loop_ms, busy_ms, gc_ms = min(tries)
            m.loop_ms, m.busy_ms, m.gc_ms = round(loop_ms, 2), round(busy_ms, 2), round(gc_ms, 1)
        rules_module._PARSED.clear()
        raw = case.request()
        tracemalloc.start()
        try:
            m.status, m.answer = send(self.ports[-1], raw)
            m.peak_mib = round(tracemalloc.get_traced_memory()[1] / 2**20, 2)
        finally:
            tracemalloc.stop()
        rules_module._PARSED.clear()
        m.problems = problems(m)
        return m


def send(port: int, raw: bytes, timeout: float = 60.0) -> tuple[int | None, bytes]:
    """Send one request on a new connection and read the answer to its end: the status (None:
    no answer) and the body."""
    got = bytearray()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            s.sendall(raw)  # a refused body may be cut off: the answer is still read
        with contextlib.suppress(ConnectionResetError):
            while chunk := s.recv(1 << 16):
                got += chunk
    head, _, body = bytes(got).partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 "):
        return None, b""
    status = int(head.split()[1])
    if b"transfer-encoding: chunked" in head.lower():
        body = _dechunked(body)
    return status, body


def _dechunked(body: bytes) -> bytes:
    out, i = bytearray(), 0
    while True:
        end = body.index(b"\r\n", i)
        n = int(body[i:end].split(b";")[0], 16)
        if n == 0:
            return bytes(out)
        out += body[end + 2 : end + 2 + n]
        i = end + 2 + n + 2


# --- the checks ---------------------------------------------------------------------------------
def messages(answer: bytes) -> list[str] | None:
    """The messages of a refusal (``detail``: a text, or a list whose items have ``msg``; or
    uvicorn's own answer to a request it cannot take, one line of plain text); None when the
    answer is neither."""
    try:
        detail = json.loads(answer)["detail"]
    except (ValueError, KeyError, TypeError):
        text = answer.decode("utf-8", "replace")
        return [text] if text and not text.startswith(("{", "[")) else None
    if isinstance(detail, str):
        return [detail]
    if isinstance(detail, list) and all(isinstance(e, dict) for e in detail):
        return [str(e.get("msg")) for e in detail]
    return None


def echoes(payload: str, answer: str, run: int = ECHO_RUN) -> bool:
    """Whether ``answer`` holds ``run`` characters in a row of ``payload``.  Pieces of the
    answer ``run * 3 // 4`` long, starting every ``run // 4`` characters, are looked for: any
    common run of ``run`` characters holds one of them whole."""
    piece, step = run * 3 // 4, run // 4
    return any(
        answer[i : i + piece] in payload for i in range(0, max(1, len(answer) - piece + 1), step)
    )


def problems(m: Measure) -> list[str]:
    """What is wrong with how a case was answered (empty: nothing)."""
    out = []
    if m.status is None:
        out.append("no answer")
    elif m.status >= 500:
        out.append(f"answered {m.status}")
    elif m.status >= 400:
        texts = messages(m.answer)
        if texts is None:
            out.append(f"{m.status} without a detail")
        elif len(m.answer) > ANSWER_MOST:
            out.append(f"{m.status} answer of {len(m.answer)} bytes")
        elif any(len(t) >= MESSAGE_MOST or "\n" in t for t in texts):
            out.append(f"{m.status} message not one short line")
        if echoes(m.case.payload, m.answer.decode("utf-8", "replace")):
            out.append(f"{m.status} quotes the input")
    if m.loop_ms is not None and m.loop_ms > LOOP_LIMIT_MS:
        out.append(f"loop blocked {m.loop_ms:.0f} ms")
    if m.peak_mib is not None and m.peak_mib > MEMORY_LIMIT_MIB:
        out.append(f"peak {m.peak_mib:.0f} MiB")
    return out


# --- the report ---------------------------------------------------------------------------------
@dataclass
class Run:
    """A run's measures, and what the process did around them."""

    results: list[Measure]
    idle_ms: float
    """How late the probe on the loop was with no request at all, for :data:`IDLE_SECONDS`."""
    collections: list[float]
    """How long each full garbage collection took (ms)."""


def run(seed: int, n: int, *, quiet: bool = False) -> Run:
    """Make ``n`` cases from ``seed`` and measure each."""
    cases = Cases(seed).cases(n)
    warm_up = [*WARM_UP, Cases(seed).m_valid()]
    out = []
    with (
        tempfile.TemporaryDirectory(prefix="bezique-fuzz-") as data,
        Servers(Path(data), warm_up=warm_up) as servers,
    ):
        start = time.perf_counter()
        time.sleep(IDLE_SECONDS)
        idle_ms = servers.blocked(start, time.perf_counter())[0]
        servers.collections.clear()
        for i, case in enumerate(cases):
            m = servers.measure(case)
            out.append(m)
            if not quiet and m.problems:
                print(f"case {i}: {case.category}: {case.described()}: {'; '.join(m.problems)}")
        collections = [round(1000 * took, 1) for _, took in servers.collections]
    return Run(out, idle_ms, collections)


def table(results: list[Measure]) -> list[dict[str, Any]]:
    """Per kind: cases, the worst figures and their inputs (the loop's also among the cases
    served without a full garbage collection), the statuses seen, the failures."""
    rows = []
    for category in CATEGORIES:
        mine = [m for m in results if m.case.category == category]
        if not mine:
            continue
        row: dict[str, Any] = {"category": category, "cases": len(mine)}
        quiet = [m for m in mine if not m.gc_ms]
        for name, among, key in [
            ("loop_ms", mine, "loop"),
            ("busy_ms", mine, "busy"),
            ("loop_ms", quiet, "quiet_loop"),
            ("busy_ms", quiet, "quiet_busy"),
            ("peak_mib", mine, "peak"),
        ]:
            worst = max(among, key=lambda m: getattr(m, name) or 0.0, default=None)
            row[key] = None if worst is None else getattr(worst, name)
            row[key + "_input"] = None if worst is None else worst.case.described()
            row[key + "_gc_ms"] = None if worst is None else worst.gc_ms
        statuses = collections.Counter(str(m.status) for m in mine)
        row["statuses"] = dict(sorted(statuses.items()))
        row["with_gc"] = len(mine) - len(quiet)
        row["failures"] = sum(1 for m in mine if m.problems)
        rows.append(row)
    return rows


def print_table(rows: list[dict[str, Any]]) -> None:
    """The table of :func:`table`, with the input behind each worst figure under its row."""
    print(
        f"{'':<8} {'':>5} {'all cases':^17} {'no full GC':^17}\n"
        f"{'kind':<8} {'cases':>5} {'loop ms':>8} {'busy ms':>8} {'loop ms':>8} {'busy ms':>8} "
        f"{'peak MiB':>9} {'fail':>4}  statuses"
    )

    def ms(v: float | None) -> str:
        return "-" if v is None else f"{v:.1f}"

    for r in rows:
        figures = " ".join(f"{ms(r[k]):>8}" for k in ("loop", "busy", "quiet_loop", "quiet_busy"))
        statuses = " ".join(f"{k}x{v}" for k, v in r["statuses"].items())
        print(
            f"{r['category']:<8} {r['cases']:>5} {figures} {r['peak']:>9.1f} {r['failures']:>4}"
            f"  {statuses}"
        )
        for key, words in [
            ("loop", "worst loop"),
            ("busy", "worst busy"),
            ("quiet_loop", "worst loop, no full GC"),
            ("peak", "worst memory"),
        ]:
            if r[key] is None:
                continue
            during = (
                f", during a full GC of {r[key + '_gc_ms']:.0f} ms" if r[key + "_gc_ms"] else ""
            )
            print(f"{'':<8} {words + ':':<24}{r[key + '_input']}{during}")


def main(argv: list[str] | None = None) -> int:
    """Run the fuzzer; 1 when a case failed."""
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=f"Limits: {LOOP_LIMIT_MS:g} ms of event loop and {MEMORY_LIMIT_MIB:g} MiB of "
        "memory a request, no 500, refusals short and not quoting the input; exit status 1 "
        "when a case passes one.",
    )
    parser.add_argument("--seed", type=int, default=1, help="the seed the cases come from")
    parser.add_argument("--cases", type=int, default=300, help="cases made (kinds in turn)")
    parser.add_argument("--json", type=Path, help="write every case's figures to this file")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    done = run(args.seed, args.cases)
    results = done.results
    rows = table(results)
    print(
        f"{len(results)} cases from seed {args.seed} in {time.perf_counter() - started:.0f} s "
        f"(limits: {LOOP_LIMIT_MS:g} ms of loop, {MEMORY_LIMIT_MIB:g} MiB a request)"
    )
    print_table(rows)
    print(f"the loop with no request for {IDLE_SECONDS:g} s: late by {done.idle_ms:.1f} ms at most")
    if done.collections:
        print(
            f"full garbage collections: {len(done.collections)}, the longest "
            f"{max(done.collections):.1f} ms (every thread waits for one)"
        )
    failed = [m for m in results if m.problems]
    if args.json is not None:
        args.json.write_text(
            json.dumps(
                {
                    "seed": args.seed,
                    "cases": len(results),
                    "limits": {"loop_ms": LOOP_LIMIT_MS, "peak_mib": MEMORY_LIMIT_MIB},
                    "idle_loop_ms": done.idle_ms,
                    "full_collections_ms": done.collections,
                    "kinds": rows,
                    "results": [m.as_json() for m in results],
                },
                indent=1,
            )
        )
    if failed:
        print(f"{len(failed)} cases failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
