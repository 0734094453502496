"""The browser client survives its node's death: a game against the computer in Debian's
chromium through ``bezique serve --nodes 2``; the node holding the table is killed with SIGKILL
in the middle of the deal; the page connects again by itself (to the other node, which loads the
table from the log) and the match is played to its end.  The time from the kill to the page's
new ``welcome`` is printed."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import pytest

from browser_helpers import OPEN_TABLE, launch, new_page
from server_helpers import launched

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.xdist_group("browser"),
]

RULES = "classic(target=200)"

DRIVE = """async (most) => {
  // clicks in the page, as fast as the table answers: the first meld offered, else the first
  // card that may be played; the next deal when one ends; until the match is won
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const out = { moves: 0, done: false };
  for (let i = 0; i < 40000 && out.moves < most; i++) {
    if (document.querySelector("#match-result")) { out.done = true; break; }
    const next = document.querySelector("#next-deal:not([disabled])");
    if (next) { next.click(); await sleep(30); continue; }
    const el = document.querySelector("#declare .decl:not(.pass)")
      || document.querySelector("#hand .playable, .mine .playable");
    if (el) { el.click(); out.moves += 1; }
    await sleep(10);
  }
  return out;
}"""


def test_the_page_goes_on_after_its_node_is_killed() -> None:
    import psycopg
    from playwright import sync_api

    with launched(2, bot_delay="0.02") as cluster, sync_api.sync_playwright() as p:
        browser = launch(p)
        try:
            page = new_page(browser)
            sockets: list[Any] = []
            welcomed: list[float] = []

            def opened(ws: Any) -> None:
                sockets.append(ws)
                ws.on(
                    "framereceived",
                    lambda frame: (
                        welcomed.append(time.monotonic()) if '"welcome"' in str(frame) else None
                    ),
                )

            page.on("websocket", opened)
            page.context.add_init_script(
                "localStorage.setItem('bezique.settings', '{\"speed\": 0}')"
            )
            page.goto(cluster.base + "/")
            code = page.evaluate(OPEN_TABLE, RULES)
            page.wait_for_selector("#hand .card")
            before = page.evaluate(DRIVE, 12)
            assert before["moves"] == 12 and not before.get("done")
            dsn = cluster.state["database"].replace("postgresql+psycopg://", "postgresql://")
            with psycopg.connect(dsn) as c:
                row = c.execute("SELECT node FROM bz_leases WHERE code = %s", (code,)).fetchone()
            assert row is not None
            holder = next(n for n in cluster.state["nodes"] if n["name"] == row[0])
            welcomes = len(welcomed)
            os.kill(holder["pid"], signal.SIGKILL)
            killed_at = time.monotonic()
            deadline = killed_at + 30
            while len(welcomed) == welcomes:  # the page's own reconnection, nothing clicked
                assert time.monotonic() < deadline, "the page did not connect again"
                page.wait_for_timeout(50)
            back = welcomed[welcomes] - killed_at
            after = page.evaluate(DRIVE, 5000)
            assert after["done"], after
            with psycopg.connect(dsn) as c:
                status, node = c.execute(
                    "SELECT t.status, l.node FROM bz_tables t JOIN bz_leases l USING (code) "
                    "WHERE code = %s",
                    (code,),
                ).fetchone() or (None, None)
            assert status == "over"
            assert node != holder["name"]  # finished on the other node
            print(
                f"\nthe page was welcomed again {back:.2f} s after its node was killed; "
                f"{len(sockets)} WebSockets in all; {after['moves']} moves after the kill"
            )
        finally:
            browser.close()
