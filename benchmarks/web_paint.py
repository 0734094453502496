"""First paint of a table in the browser: how long after a navigation the table (hand, seats,
trick, stock) has been drawn, in Debian's headless chromium against ``bezique serve`` on
127.0.0.1.

Run: ``python benchmarks/web_paint.py [--loads 20]``

A game against the computer is opened once; the page is then loaded again ``--loads`` times
(a reload of the table's link: the client script, the translations, the WebSocket hello and
the first view).  Printed: the median and the slowest time from the start of the navigation to
the client's ``bezique:table`` performance mark (set when the table is first drawn), and the
browser's first contentful paint.  Goal: a table drawn within 1 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from playwright import sync_api

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser_helpers import launch  # the chromium and flags the tests use
from helpers import free_port, start

GOAL_MS = 1000.0
MARK = "() => performance.getEntriesByName('bezique:table').map(e => e.startTime)[0] ?? null"
FCP = "() => performance.getEntriesByName('first-contentful-paint').map(e => e.startTime)[0]"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loads", type=int, default=20)
    args = ap.parse_args()
    port = free_port()
    proc = start(port, Path(tempfile.mkdtemp()), bot_delay="0.4")
    try:
        with sync_api.sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            page.goto(f"http://127.0.0.1:{port}/")
            page.click("#play-computer")
            page.wait_for_selector("#hand .card")
            table, paint = [], []
            for _ in range(args.loads):
                page.reload()
                page.wait_for_selector("[data-testid=hand] .card")
                page.wait_for_function(MARK)
                table.append(float(page.evaluate(MARK)))
                paint.append(float(page.evaluate(FCP)))
            browser.close()
    finally:
        proc.kill()
        proc.wait(10)
    med = statistics.median(table)
    print(
        f"table drawn after: median {med:.0f} ms, slowest {max(table):.0f} ms ({args.loads} loads)"
    )
    print(f"first contentful paint: median {statistics.median(paint):.0f} ms")
    print(
        f"goal {GOAL_MS:.0f} ms: {'met' if max(table) <= GOAL_MS else 'NOT met'} "
        f"(slowest / goal = {max(table) / GOAL_MS:.2f})"
    )


if __name__ == "__main__":
    main()
