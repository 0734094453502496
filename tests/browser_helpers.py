"""Helpers for the browser tests (Playwright in headless Debian chromium): the chromium and its
flags (:func:`launch`; ``BEZIQUE_CHROMIUM`` names another), a page with the tests' locale and
time limit (:func:`new_page`), one decision made on a table as a player would
(:func:`step`, :func:`click_visible`), a table against the computer opened from the page's
own script (:data:`OPEN_TABLE`), and the folder screenshots go to (:data:`OUTPUT`).

The ``browser`` and ``server`` fixtures are in conftest.py.  A missing chromium fails the test
that launches it (nothing is skipped); playwright itself is imported by the caller."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("BEZIQUE_CHROMIUM", "/usr/bin/chromium")
"""The browser: Debian's chromium, which `make test` installs."""

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""The flags chromium is started with."""

WAIT = 15_000
"""How long (ms) a page waits for what a test looks for."""

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = Path(os.environ.get("BEZIQUE_TEST_OUTPUT", ROOT / "test-output"))
"""Screenshots land here (git ignores it)."""


def launch(playwright: Any) -> Any:
    """The chromium of :data:`CHROMIUM`, headless with :data:`ARGS`, started by a running
    Playwright (``sync_api.sync_playwright()``); close it when done."""
    if not shutil.which(CHROMIUM):
        pytest.fail(
            f"no chromium at {CHROMIUM}: `make test` installs Debian's chromium", pytrace=False
        )
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)


def new_page(browser: Any, **kw: Any) -> Any:
    """A page in a new context (British English, and ``kw`` such as ``viewport``) that waits
    :data:`WAIT` for what it is asked to find."""
    ctx = browser.new_context(locale="en-GB", **kw)
    page = ctx.new_page()
    page.set_default_timeout(WAIT)
    return page


NEXT = "#hand .playable, .mine .playable, #declare .decl, #next-deal, #match-result"
"""What a player may do next on a table: a card, a declaration, the next deal, or nothing (the
match's result)."""
PLAYABLE = "#hand .playable, .mine .playable"
"""The cards that may be played now."""


def step(page: Any, *, meld: bool = True, keyboard: bool = False) -> str:
    """Make one decision on the page; returns what was done ('play', 'meld', 'pass', 'end')."""
    page.wait_for_selector(NEXT, state="visible")
    if page.locator("#next-deal, #match-result").count():
        return "end"
    melds = page.locator("#declare .decl:not(.pass)")
    if page.locator("#declare").count():
        if meld and melds.count():
            if keyboard:
                page.keyboard.press("1")
            else:
                melds.first.click()
            return "meld"
        page.keyboard.press("p") if keyboard else page.locator("#pass").click()
        return "pass"
    if keyboard:
        page.locator(PLAYABLE).first.focus()
        page.keyboard.press("Enter")
    else:
        click_visible(page, PLAYABLE)
    return "play"


VISIBLE_POINT = """sel => {
  const el = document.querySelector(sel);
  if (!el) return null;
  el.scrollIntoView({ block: "nearest", inline: "nearest" });
  const r = el.getBoundingClientRect();
  for (let y = r.top + r.height * .3; y < r.bottom; y += 4)
    for (let x = r.left + 2; x < r.right; x += 3) {
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) return [x, y];
    }
  return null;
}"""
"""A point where a click lands on the first element of the selector itself (a card of a
crowded hand shows only a strip beside the next one), or null when nothing of it can be
clicked."""


def click_visible(page: Any, selector: str) -> None:
    """Click the first element of the selector where it can be seen, as a player would: its
    middle may lie under the next card of a fanned hand, and a card still sliding into place
    or a passing message may cover it for a moment (the page redraws as the computer plays,
    so the element is looked up afresh each try)."""
    page.wait_for_selector(selector, state="visible")
    for _ in range(50):
        point = page.evaluate(VISIBLE_POINT, selector)
        if point is not None:
            page.mouse.click(*point)
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"for five seconds no part of {selector} could be clicked")


OPEN_TABLE = """async (rules) => {
  const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ rules, level: "beginner", name: "Tess" }) });
  const t = await r.json();
  localStorage.setItem("bezique.seat." + t.code, t.token);
  location.hash = "#/t/" + t.code;
  return t.code;
}"""
"""Run in a page with a rules string: a table of those rules against the computer (beginner),
made through the API, its seat token stored as the client stores it and the page sent to it;
returns the table's code."""
