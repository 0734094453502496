"""The browser client, driven by Playwright in headless Debian chromium against a real
``bezique serve`` on 127.0.0.1: a deal against the computer by clicking and by keyboard, a
declaration, a reload in the middle of the deal, a table between two browsers, languages."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fastapi  # noqa: F401  (installed by the dev extra; missing it fails)
import pytest
from playwright import sync_api  # the dev extra installs it; a missing one fails

from bezique import Rules
from test_server_restart import free_port, start
from test_web_i18n import strings

CHROMIUM = os.environ.get("BEZIQUE_CHROMIUM", "/usr/bin/chromium")
if not shutil.which(CHROMIUM):
    pytest.fail(f"no chromium at {CHROMIUM}: `make test` installs Debian's chromium", pytrace=False)

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WAIT = 15_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    proc = start(port, tmp_path_factory.mktemp("web"), bot_delay="0.02")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def new_page(browser: Any, **kw: Any) -> Any:
    ctx = browser.new_context(locale="en-GB", **kw)
    page = ctx.new_page()
    page.set_default_timeout(WAIT)
    return page


NEXT = "#hand .playable, .declared .playable, #declare .decl, #next-deal, #match-result"


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
        page.locator("#hand .playable, .declared .playable").first.focus()
        page.keyboard.press("Enter")
    else:
        page.locator("#hand .playable, .declared .playable").first.click()
    return "play"


def test_a_deal_against_the_computer(server: str, browser: Any) -> None:
    page = new_page(browser, viewport={"width": 390, "height": 844})  # a phone
    page.goto(server + "/")
    page.select_option("#vs select[name=preset]", "classic")
    page.select_option("#vs select[name=level]", "beginner")
    page.fill("#vs input[name=name]", "Tess")
    page.click("#play-computer")
    page.wait_for_selector("#hand")
    assert "/#/t/" in page.url
    done: list[str] = []
    reloaded = False
    deals = 1
    while True:
        what = step(page, keyboard=len(done) % 3 == 1)
        if what == "end":
            # the end-of-deal summary
            assert page.locator("#sum-title").is_visible()
            assert page.locator(".summary tr.total").count() >= 2
            assert "won the trick" in page.locator("#log").inner_text()
            if "meld" in done or deals == 3:
                break
            page.click("#next-deal")  # no declaration came up: another deal
            deals += 1
            page.wait_for_selector("#hand .card")
            continue
        done.append(what)
        if len(done) == 12 and not reloaded:
            hand_before = page.locator("#hand .card").count()
            page.reload()
            page.wait_for_selector("#hand .card")
            assert page.locator("#hand .card").count() >= hand_before - 1
            reloaded = True
        assert len(done) < 1000
    assert reloaded and done.count("play") > 20
    assert "meld" in done, "no declaration was offered in three deals"
    page.click("#next-deal")
    page.wait_for_selector("#hand .card")
    page.context.close()


def test_two_browsers_at_a_table(server: str, browser: Any) -> None:
    ann = new_page(browser)
    ann.goto(server + "/")
    ann.fill("#friends input[name=name]", "Ann")
    ann.select_option("#friends select[name=preset]", "classic")
    ann.click("#create-table")
    code = ann.locator("#table-code").inner_text()
    assert ann.locator("text=Waiting for players").is_visible()
    bob = new_page(browser)
    bob.goto(f"{server}/#/join/{code}")
    bob.fill("#joinform input[name=name]", "Bob")
    bob.click("#take-seat")
    for p in (ann, bob):
        p.wait_for_selector("#hand .card")
    moves = 0
    while moves < 16:
        for p in (ann, bob):
            if p.locator("#hand .playable, .declared .playable, #declare .decl").count():
                step(p, meld=False)
                moves += 1
        ann.wait_for_timeout(50)
    # both see the same public facts once the last move has reached them
    same = "document.querySelector('#stock') && document.querySelector('#stock').textContent"
    for _ in range(100):
        if ann.evaluate(same) == bob.evaluate(same):
            break
        ann.wait_for_timeout(50)
    assert ann.evaluate(same) == bob.evaluate(same)
    assert "Bob" in ann.locator(".others").inner_text()
    assert "Ann" in bob.locator(".others").inner_text()
    # a spectator sees no hand
    watcher = new_page(browser)
    watcher.goto(f"{server}/#/t/{code}")
    watcher.wait_for_selector(".others")
    assert watcher.locator("#hand").count() == 0
    for p in (ann, bob, watcher):
        p.context.close()


def test_switching_language(server: str, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#play-computer")
    for lang, word in [
        ("fr", "Jouer"),
        ("ru", "Играть"),
        ("el", "Παίξτε"),
        ("kk", "Ойнау"),
        ("bs", "Igraj"),
    ]:
        page.select_option("#lang", lang)
        page.wait_for_function(
            "w => document.querySelector('#play-computer').textContent === w", arg=word
        )
    page.reload()
    page.wait_for_selector("#play-computer")
    assert page.locator("#play-computer").inner_text() == "Igraj"
    assert page.evaluate("document.documentElement.lang") == "bs"
    page.goto(server + "/#/rules/rubicon")
    page.wait_for_selector("table.melds")
    assert "Pravila" in page.locator("h1").inner_text()
    bs = strings("bs")
    assert bs["meld.double-bezique"] in page.locator("table.melds").inner_text()
    options = page.locator("table.options").text_content() or ""  # inside a closed <details>
    assert bs["option.target"] in options and Rules.option_docs()["target"] not in options
    page.context.close()


def test_replay_of_a_record_file(server: str, browser: Any, tmp_path: Path) -> None:
    import random

    from bezique import Deal, Rules
    from bezique.core.records import record_deal

    deal = Deal.new(Rules.preset("classic"), seed=5, dealer=0)
    rng = random.Random(5)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    path = tmp_path / "deal.json"
    record_deal(deal, players=["Ann", "Bob"]).write(path)
    page = new_page(browser)
    page.goto(server + "/#/replay")
    page.set_input_files("#rfile", str(path))
    page.wait_for_selector("#r-next")
    start = page.locator("#r-pos").inner_text()
    assert "Ann" in page.locator(".replay").inner_text()
    page.click("#r-next")
    page.keyboard.press("ArrowRight")
    assert page.locator("#r-pos").inner_text() != start
    assert page.locator("#r-action").inner_text().startswith(("Ann", "Bob"))
    assert page.locator(".replay .player .card").count() == 14  # two cards played
    page.click("#r-last")
    assert page.locator("#r-pos").inner_text() == f"Deal 1, move {len(deal.history)}"
    page.context.close()
