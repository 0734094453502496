"""The lobby, quick match and ratings in the browser (Playwright, Debian's chromium, a real
``bezique serve`` on 127.0.0.1): two browsers meet through quick match and play a deal; a player
waiting for a match may take the computer instead; a public table shows in a third browser's
lobby within two seconds and leaves it when full; a rated deal moves both players' ratings on
the leaderboard; a player's identity is carried to another browser by its link, and a bad link
is refused."""

from __future__ import annotations

import time
from typing import Any

import pytest

from browser_helpers import PLAYABLE, new_page, step

pytestmark = pytest.mark.xdist_group("browser")

LOBBY_SECONDS = 2.0
"""How soon a public table must show in another browser's lobby."""


def play_deal(pages: list[Any], limit: int = 2000) -> None:
    """Both players play (no declarations) until the deal is over on every page."""
    end = "#next-deal, #match-result"
    for _ in range(limit):
        if all(p.locator(end).count() for p in pages):
            return
        moved = False
        for p in pages:
            if not p.locator(end).count() and p.locator(f"{PLAYABLE}, #declare .decl").count():
                step(p, meld=False)
                moved = True
        if not moved:
            pages[0].wait_for_timeout(50)
    raise AssertionError("the deal never ended")


def test_two_browsers_meet_through_quick_match(server: str, browser: Any) -> None:
    pages = []
    for name in ("Ann", "Bob"):
        p = new_page(browser)
        p.goto(server + "/")
        p.fill("#vs input[name=name]", name)
        p.select_option("#quick select[name=preset]", "classic")
        p.click("#quick-play")
        pages.append(p)
    ann, bob = pages
    for p in pages:
        p.wait_for_selector("#hand .card")
    assert ann.url.split("#/t/")[1] == bob.url.split("#/t/")[1]
    play_deal(pages)
    names = ann.get_by_test_id("seat-0").inner_text() + ann.get_by_test_id("seat-1").inner_text()
    assert "Ann" in names and "Bob" in names
    for p in pages:
        p.context.close()


def test_waiting_for_a_match_the_computer_may_step_in(server: str, browser: Any) -> None:
    p = new_page(browser)
    p.goto(server + "/")
    p.select_option("#quick select[name=preset]", "rubicon")
    p.click("#quick-play")
    p.wait_for_selector("#quick-computer")
    p.click("#quick-computer")
    p.wait_for_selector("#hand .card")
    assert "computer" in p.get_by_test_id("seat-1").inner_text().lower()
    p.context.close()


def test_a_public_table_shows_in_another_lobby_and_leaves_it_when_full(
    server: str,
    browser: Any,
) -> None:
    carl = new_page(browser)
    carl.goto(server + "/#/lobby")
    carl.wait_for_selector("#lobby-open")
    ann = new_page(browser)
    ann.goto(server + "/")
    ann.fill("#friends input[name=name]", "Ann")
    ann.select_option("#friends select[name=preset]", "classic")
    ann.check("#make-public")
    made = time.monotonic()  # from the click: the figure is an upper bound
    ann.click("#create-table")
    code = ann.locator("#table-code").inner_text()
    row = f"#lobby-open [data-code='{code}']"
    carl.wait_for_selector(row, timeout=LOBBY_SECONDS * 1000)
    print(f"public table in another lobby after {time.monotonic() - made:.2f} s")
    assert "Ann" in carl.locator(row).inner_text()
    private = new_page(browser)  # a table not made public is never listed
    private.goto(server + "/")
    private.click("#create-table")
    private_code = private.locator("#table-code").inner_text()
    bob = new_page(browser)
    bob.goto(f"{server}/#/lobby")
    bob.click(f"{row} a.button")
    bob.fill("#joinform input[name=name]", "Bob")
    full = time.monotonic()
    bob.click("#take-seat")
    bob.wait_for_selector("#hand .card")
    carl.wait_for_selector(row, state="detached", timeout=LOBBY_SECONDS * 1000)
    print(f"full table gone from the lobby after {time.monotonic() - full:.2f} s")
    watch = f"#lobby-playing [data-code='{code}'] a.button"
    carl.wait_for_selector(watch)
    assert carl.locator(f"[data-code='{private_code}']").count() == 0
    carl.click(watch)  # spectating from the lobby
    carl.wait_for_selector("[data-testid=seat-0]")
    assert carl.locator("#hand .playable").count() == 0
    for p in (carl, ann, bob, private):
        p.context.close()


def test_a_rated_deal_moves_both_ratings(server: str, browser: Any) -> None:
    ann = new_page(browser)
    ann.goto(server + "/")
    ann.fill("#friends input[name=name]", "Rhea")
    ann.select_option("#friends select[name=preset]", "classic")
    ann.fill("#friends input[name=target]", "100")  # one deal decides the match
    ann.check("#make-rated")
    ann.click("#create-table")
    code = ann.locator("#table-code").inner_text()
    bob = new_page(browser)
    bob.goto(f"{server}/#/join/{code}")
    bob.fill("#joinform input[name=name]", "Sven")
    bob.click("#take-seat")
    pages = [ann, bob]
    for p in pages:
        p.wait_for_selector("#hand .card")
    for _ in range(5):  # one deal almost always decides it; a tie at the target does not
        play_deal(pages)
        if ann.locator("#match-result").count():
            break
        for p in pages:
            p.click("#next-deal")
        for p in pages:
            p.wait_for_selector("#hand .card")
    ann.wait_for_selector("#match-result")
    ids = [p.evaluate("JSON.parse(localStorage.getItem('bezique.player')).id") for p in pages]
    ann.goto(server + "/#/leaders/classic%2F2")
    for pid in ids:  # the rating is settled beside the game: the board may need a reload
        for _ in range(20):
            if ann.locator(f"#leaderboard tr[data-player='{pid}']").count():
                break
            ann.wait_for_timeout(250)
            ann.reload()
        row = ann.locator(f"#leaderboard tr[data-player='{pid}']")
        # a first game's rating starts at 0.0 (25 - 3 x 25/3) and any result moves it
        assert row.locator("td.rating").inner_text() != "0.0"
        assert row.locator("td").nth(3).inner_text() == "1"
    text = ann.locator("#leaderboard").inner_text()
    assert "Rhea" in text and "Sven" in text
    for p in pages:
        p.context.close()


def test_an_identity_carried_to_another_browser(server: str, browser: Any) -> None:
    one = new_page(browser)
    one.goto(server + "/#/me")
    one.fill("#me-new input[name=name]", "Mira")
    one.click("#me-create")
    link = one.locator("#me-link").input_value()
    mine = one.evaluate("JSON.parse(localStorage.getItem('bezique.player'))")
    assert link.endswith(mine["key"]) and "#/key/" in link
    other = new_page(browser)
    other.goto(link)
    other.wait_for_selector("#me-link")
    assert "#/key/" not in other.url  # the key leaves the address bar
    theirs = other.evaluate("JSON.parse(localStorage.getItem('bezique.player'))")
    assert theirs["id"] == mine["id"] and "Mira" in other.locator("main").inner_text()
    bad = new_page(browser)
    bad.goto(server + "/#/key/not-a-key")
    bad.wait_for_selector(".error")
    assert bad.evaluate("localStorage.getItem('bezique.player')") is None
    for p in (one, other, bad):
        p.context.close()
