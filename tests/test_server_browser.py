"""The browser client, driven by Playwright in headless Debian chromium against a real
``bezique serve`` on 127.0.0.1: a deal against the computer by clicking and by keyboard, a
declaration, a reload in the middle of the deal, a table between two browsers, languages, the
replay of a record file, the table fitting one screen at each size (screenshots to
``BEZIQUE_TEST_OUTPUT``, else ``test-output/``), a table that does not exist, the computer
taking over, card movement and reduced motion, the review, sound, a whole Haitian match, the
Haitian rules page and jokers drawn as cards."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import fastapi  # noqa: F401  (installed by the dev extra; missing it fails)
import pytest

from bezique import Rules
from browser_helpers import NEXT, OPEN_TABLE, OUTPUT, PLAYABLE, WAIT, new_page, step
from helpers import strings

# One browser at a time: these tests share a worker under pytest-xdist.
pytestmark = pytest.mark.xdist_group("browser")


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
            page.keyboard.press("Escape")  # the summary closes; the deal's log opens
            page.click("#log-btn")
            assert "won the trick" in page.locator("#log").inner_text()
            page.click("#log-btn")
            page.click("#show-summary")
            if "meld" in done or deals == 6:
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
    assert "meld" in done, "no declaration was offered in six deals"
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
            if p.locator(f"{PLAYABLE}, #declare .decl").count():
                step(p, meld=False)
                moves += 1
        ann.wait_for_timeout(50)
    # both see the same public facts once the last move has reached them
    same = "document.querySelector('#stock') && document.querySelector('#stock').textContent"
    for _ in range(400):  # up to 20 s: a loaded machine delivers the last update late
        if ann.evaluate(same) == bob.evaluate(same):
            break
        ann.wait_for_timeout(50)
    assert ann.evaluate(same) == bob.evaluate(same)
    assert "Bob" in ann.get_by_test_id("seat-1").inner_text()
    assert "Ann" in bob.get_by_test_id("seat-0").inner_text()
    # a spectator sees no hand
    watcher = new_page(browser)
    watcher.goto(f"{server}/#/t/{code}")
    watcher.wait_for_selector("[data-testid=seat-1]")
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
    # the trick just completed, and who won it
    winner = ["Ann", "Bob"][deal.trick_winners[0]]
    assert f"won by {winner}" in page.locator(".rtrick").inner_text()
    assert page.locator(".rtrick .card").count() == 2
    page.click("#r-last")
    assert page.locator("#r-pos").inner_text() == f"Deal 1, move {len(deal.history)}"
    # every declaration, labelled with its points; a jump to any deal
    melds = [e for e in deal.events if e[2].startswith("meld ")]
    assert page.locator(".replay .meld").count() == len(melds)
    if melds:
        assert str(melds[0][3]) in page.locator(".replay .meld").first.inner_text()
    assert page.locator("#r-deal option").count() == 1
    page.context.close()


# --- the card table -------------------------------------------------------------------------------
SIZES = [(1366, 768), (1920, 1080), (390, 844), (844, 390)]


def watched_page(browser: Any, width: int, height: int) -> tuple[Any, list[str]]:
    """A page of the given size, and the list its console errors and uncaught exceptions go
    to."""
    page = new_page(browser, viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def vs_computer(page: Any, server: str, preset: str = "classic") -> None:
    page.goto(server + "/")
    page.select_option("#vs select[name=preset]", preset)
    page.select_option("#vs select[name=level]", "beginner")
    page.fill("#vs input[name=name]", "Tess")
    page.click("#play-computer")
    page.wait_for_selector("#hand .card")


OUTSIDE = """sels => {
  const out = [];
  for (const sel of sels) {
    const els = [...document.querySelectorAll(sel)];
    if (!els.length) out.push(`nothing matches ${sel}`);
    els.forEach((el, i) => {
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) out.push(`${sel} #${i} is not shown`);
      else if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
        out.push(`${sel} #${i} at ${r.left|0},${r.top|0} ${r.width|0}x${r.height|0} in ${innerWidth}x${innerHeight}`);
    });
  }
  const root = document.documentElement;
  if (root.scrollWidth > innerWidth || root.scrollHeight > innerHeight)
    out.push(`the page scrolls: ${root.scrollWidth}x${root.scrollHeight}`);
  return out;
}"""
"""The elements of each selector that are missing or not wholly inside the viewport, and
whether the page scrolls (measured at one moment: the page redraws as the computer plays)."""


def check_fits(page: Any, players: int) -> None:
    """The hand (every card of it), the trick, the stock, the scores, the status and every
    seat lie inside the viewport, and the page does not scroll."""
    sels = ["[data-testid=hand]", "[data-testid=hand] .card", "[data-testid=trick]"]
    sels += ["[data-testid=stock]", "[data-testid=scores]", "[data-testid=status]"]
    sels += [f"[data-testid=seat-{seat}]" for seat in range(players)]
    page.wait_for_function("() => !document.getAnimations().some(a => a.playState === 'running')")
    bad = page.evaluate(OUTSIDE, sels)
    assert not bad, bad
    assert page.locator("[data-testid^=seat-]").count() == players


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("preset", ["classic", "four", "haitian", "chinese"])
def test_the_table_fits_one_screen(
    server: str, browser: Any, size: tuple[int, int], preset: str
) -> None:
    """At a laptop's, a desktop's and a phone's size (upright and on its side), two
    and four players, eight to twelve cards in hand: everything of the table is in sight
    without scrolling after every one of the first nine decisions (the player's turn or not,
    cards playable or not), and mid-deal with a trick on the table; a screenshot of each is
    kept under the test output."""
    page, errors = watched_page(browser, *size)
    vs_computer(page, server, preset)
    players = 4 if preset == "four" else 2
    for _ in range(9):  # into the deal: tricks won, melds declared
        page.wait_for_selector(NEXT, state="visible")
        check_fits(page, players)
        step(page)
    page.wait_for_selector("[data-testid=trick] .card")
    check_fits(page, players)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"table-{preset}-{size[0]}x{size[1]}.png"))
    assert not errors, errors
    page.context.close()


def test_a_whole_classic_deal_by_clicking(server: str, browser: Any) -> None:
    """The goal: a whole classic deal against the computer, played by clicking at
    1366x768, never scrolling and with no console error; the stable test ids are there."""
    page, errors = watched_page(browser, 1366, 768)
    vs_computer(page, server)
    for testid in ["hand", "seat-0", "seat-1", "trick", "stock", "scores", "status"]:
        assert page.get_by_test_id(testid).count() == 1, testid
    moves = melds = 0
    stage2_checked = False
    while True:
        what = step(page)
        if what == "end":
            break
        moves += 1
        melds += what == "meld"
        if not stage2_checked and page.locator("#stock").count() == 0:
            # stage 2: the cards that may not be played are marked so
            live = page.locator("[data-testid=hand].live")
            if live.count() and page.locator("#hand .card:not(.playable)").count():
                stage2_checked = True
        # (not once the last card is gone: two cards left, even on a page not yet redrawn
        # after this move, leave at least one when it is)
        if moves % 8 == 0 and page.locator("#hand .card").count() >= 2:
            check_fits(page, 2)
        assert moves < 200
    assert page.locator("#sum-title").is_visible()
    if melds:
        shown = page.locator("[data-testid=meld]")
        assert shown.count() >= 1 and any(ch.isdigit() for ch in shown.first.inner_text())
    assert moves >= 16  # every trick of the deal was played through the page
    assert not errors, errors
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / "table-classic-end-of-deal.png"))
    page.context.close()


def test_a_table_that_does_not_exist(server: str, browser: Any) -> None:
    """A link to a table that does not exist shows a 'no such table' screen, and
    the page does not keep reconnecting (it looped on 'Connecting…' before)."""
    page, _ = watched_page(browser, 1366, 768)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    en = strings("en")
    for link in ["/#/t/nosuchtable", "/#/join/nosuchtable"]:
        page.goto(server + link)
        page.wait_for_selector("#no-table")
        assert en["notable.title"] in page.locator("#no-table").inner_text()
        assert "nosuchtable" in page.locator("#no-table").inner_text()
        page.wait_for_timeout(1500)
        assert page.locator("#no-table").is_visible()
    assert len(sockets) <= 1, sockets
    page.context.close()


def test_the_others_see_when_the_computer_takes_over(server: str, browser: Any) -> None:
    """When a friend leaves, the others see a countdown to the computer taking the
    seat (the server's takeover time is 600 s in these tests)."""
    ann = new_page(browser)
    ann.goto(server + "/")
    ann.fill("#friends input[name=name]", "Ann")
    ann.click("#create-table")
    code = ann.locator("#table-code").inner_text()
    bob = new_page(browser)
    bob.goto(f"{server}/#/join/{code}")
    bob.fill("#joinform input[name=name]", "Bob")
    bob.click("#take-seat")
    ann.wait_for_selector("#hand .card")
    bob.wait_for_selector("#hand .card")
    # once Bob's page is connected nobody is away (his seat's clock ran from the join till then)
    ann.wait_for_selector(".awaynote", state="detached")
    bob.context.close()
    note = ann.locator(".awaynote")
    note.wait_for()
    ann.wait_for_function(
        "() => /\\d+:\\d\\d/.test(document.querySelector('.awaynote').textContent)"
    )
    assert "Bob" in note.inner_text()
    assert "computer" in ann.get_by_test_id("seat-1").inner_text()
    ann.context.close()


def test_names_ranks_and_log_follow_the_language(server: str, browser: Any) -> None:
    """Computers have distinct translated names; after a switch to Russian the log
    and the card names speak Russian (К Д В Т for the ranks)."""
    page, errors = watched_page(browser, 1366, 768)
    vs_computer(page, server, "four")
    en, ru = strings("en"), strings("ru")
    names = [page.get_by_test_id(f"seat-{s}").locator(".pname").inner_text() for s in range(4)]
    assert names[0] == "Tess" and names[1:] == [en["bot.1"], en["bot.2"], en["bot.3"]]
    assert en["badge.partner"] in page.get_by_test_id("seat-2").inner_text()
    for _ in range(6):
        step(page)
    page.click("#log-btn")
    assert "won the trick" in page.locator("#log").inner_text()
    # at the table the language is chosen in the settings (the site's header gives way to the
    # table's one bar)
    page.click("#settings-btn")
    page.select_option("#set-lang", "ru")
    page.click("#log-btn")
    page.wait_for_function(
        "w => document.querySelector('#log') && document.querySelector('#log').textContent"
        ".includes(w)",
        arg=ru["msg.won"].split("}")[1].split("(")[0].strip(),
    )
    assert page.get_by_test_id("seat-1").locator(".pname").inner_text() == ru["bot.1"]
    hand = page.locator("#hand .card")
    codes = hand.evaluate_all("els => els.map(e => e.dataset.card)")
    labels = " ".join(hand.evaluate_all("els => els.map(e => e.ariaLabel)"))
    assert not re.search("[AKQJ][♠♥♦♣]", labels), labels
    if any(c[0] in "AKQJ" for c in codes):
        assert re.search("[ТКДВ][♠♥♦♣]", labels), labels
    assert not errors, errors
    page.context.close()


COUNT_ANIMATIONS = """
window.__glides = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.__glides += 1; return animate.apply(this, args); };
"""


@pytest.mark.parametrize("motion", ["normal", "reduce", "speed-off"])
def test_cards_move_unless_motion_is_off(server: str, browser: Any, motion: str) -> None:
    """Cards glide (dealt, drawn, played to the trick, the trick to its winner),
    but not at all when the system asks for reduced motion or the speed setting is off."""
    ctx = browser.new_context(
        locale="en-GB",
        viewport={"width": 1366, "height": 768},
        reduced_motion="reduce" if motion == "reduce" else "no-preference",
    )
    ctx.add_init_script(COUNT_ANIMATIONS)
    if motion == "speed-off":
        ctx.add_init_script("localStorage.setItem('bezique.settings', '{\"speed\": 0}')")
    page = ctx.new_page()
    page.set_default_timeout(WAIT)
    vs_computer(page, server)
    for _ in range(4):
        step(page)
    page.wait_for_timeout(300)
    glides = page.evaluate("window.__glides")
    if motion == "normal":
        assert glides > 4
    else:
        assert glides == 0
    ctx.close()


def play_deal(page: Any) -> int:
    """Play on until the end-of-deal summary; returns the decisions made."""
    moves = 0
    while step(page) != "end":
        moves += 1
        assert moves < 400
    return moves


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)], ids=["1366x768", "390x844"])
def test_a_review_item_opens_its_position(server: str, browser: Any, size: tuple[int, int]) -> None:
    """A review item of the deal summary opens the position it speaks of, the
    reviewing seat's hand then, the trick, the scores, with the card played and the card
    suggested marked (the server test checks it is only that seat's own view)."""
    page, errors = watched_page(browser, *size)
    vs_computer(page, server)
    play_deal(page)
    page.click("#review-btn")
    page.wait_for_selector("[data-review-ply], .summary p:has-text('just as you did')")
    items = page.locator("[data-review-ply]")
    assert items.count(), "the computer agreed with every move of a first-card player"
    # an item about playing a card (not a declaration), opened
    texts = items.all_inner_texts()
    k = next((i for i, x in enumerate(texts) if re.search(r"you played \S+[♠♥♦♣];", x)), 0)
    items.nth(k).click()
    pos = page.locator(".reviewpos")
    pos.wait_for()
    assert items.nth(k).get_attribute("aria-expanded") == "true"
    hand = pos.locator(".rhand .card")
    assert 1 <= hand.count() <= 8
    assert "Trump" in pos.inner_text() and "Tess" in pos.inner_text()
    marked = pos.locator("figure.played, figure.suggested").count()
    assert marked >= 1
    OUTPUT.mkdir(parents=True, exist_ok=True)
    # in one go: the summary may be drawn again (a message from the table) between two calls
    page.evaluate(
        "k => document.querySelectorAll('[data-review-ply]')[k]?.scrollIntoView({block: 'nearest'})",
        k,
    )
    page.screenshot(path=str(OUTPUT / f"review-position-{size[0]}x{size[1]}.png"))
    # the dialog is as wide as the screen at most: nothing of the position sticks out
    box = pos.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0]
    items.nth(k).click()  # and closed again (waited for: on a loaded machine it takes a moment)
    page.locator(".reviewpos").wait_for(state="detached", timeout=10_000)
    assert page.locator(".reviewpos").count() == 0
    assert not errors, errors
    page.context.close()


FAKE_AUDIO = """
window.__tones = 0;
class FakeParam { setValueAtTime() {} exponentialRampToValueAtTime() {} }
class FakeAudio {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  createOscillator() { return { frequency: new FakeParam(), connect: (x) => x, start: () => { window.__tones += 1; }, stop() {} }; }
  createGain() { return { gain: new FakeParam(), connect: (x) => x }; }
  resume() { return Promise.resolve(); }
}
window.AudioContext = FakeAudio;
"""


def test_sound_is_off_until_turned_on_and_remembered(server: str, browser: Any) -> None:
    """Optional sound, made in the page (no sound file is fetched): off by default,
    on with the speaker button, remembered after a reload, off again with M."""
    ctx = browser.new_context(locale="en-GB", viewport={"width": 1366, "height": 768})
    ctx.add_init_script(FAKE_AUDIO)
    page = ctx.new_page()
    page.set_default_timeout(WAIT)
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    vs_computer(page, server)
    for _ in range(3):
        step(page)
    assert page.evaluate("window.__tones") == 0
    assert page.locator("#sound-btn").get_attribute("aria-pressed") == "false"
    page.click("#sound-btn")
    assert page.locator("#sound-btn").get_attribute("aria-pressed") == "true"
    for _ in range(3):
        step(page)
    page.wait_for_function("() => window.__tones > 0")
    page.reload()
    page.wait_for_selector("#hand .card")
    assert page.locator("#sound-btn").get_attribute("aria-pressed") == "true"
    page.locator("body").press("m")
    assert page.locator("#sound-btn").get_attribute("aria-pressed") == "false"
    heard = page.evaluate("window.__tones")
    for _ in range(3):
        step(page)
    page.wait_for_timeout(200)
    assert page.evaluate("window.__tones") == heard
    assert not [u for u in fetched if re.search(r"\.(mp3|ogg|wav|m4a|webm)$", u)]
    ctx.close()
    # and the real Web Audio of chromium takes the tones without an error
    page, errors = watched_page(browser, 1366, 768)
    page.context.add_init_script("localStorage.setItem('bezique.settings', '{\"sound\": true}')")
    vs_computer(page, server)
    for _ in range(4):
        step(page)
    page.wait_for_timeout(300)
    assert not errors, errors
    page.context.close()


HAITIAN_SHORT = "haitian(target=60,match_games=3,double_game_below=30,cent_points_handicap=20)"
"""A Haitian match cut short (a game to 60, three games to win, en bas table under 30, the
next match's loser starting on 20): at least two games, and few enough moves for a test."""

DRIVE = """async (most) => {
  // clicks in the page itself, as fast as the table answers: the first meld offered, else the
  // first card that may be played; at the end of a deal the next one, until the match is won
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const out = { moves: 0, deals: 1, games: [], counters: [], jokers: 0, jokerCaps: [] };
  let lastDeal = "";
  for (let i = 0; i < 20000 && out.moves < most; i++) {
    for (const j of document.querySelectorAll("[data-card^=XX]")) {
      out.jokers += 1; out.jokerCaps.push(j.querySelectorAll("svg .jcap").length);
    }
    if (document.querySelector("#match-result")) { out.done = true; break; }
    const next = document.querySelector("#next-deal:not([disabled])");
    if (next) {
      const title = document.querySelector("#sum-title").textContent;
      if (title !== lastDeal) {
        lastDeal = title;
        const g = document.querySelector("#game-result");
        if (g) out.games.push(g.textContent);
        out.counters.push(document.querySelector("#match-counter").textContent.replace(/\\s+/g, ""));
      }
      next.click(); out.deals += 1; await sleep(30); continue;
    }
    const el = document.querySelector("#declare .decl:not(.pass)") || document.querySelector("#hand .playable, .mine .playable");
    if (el) { el.click(); out.moves += 1; }
    await sleep(10);
  }
  return out;
}"""


def test_a_haitian_match_to_its_end(server: str, browser: Any) -> None:
    """In the browser: a whole Haitian match against the computer, several games and
    the match counter on the table, played by clicks in the page to the match's result (the
    clicks made in the page itself, so it runs quickly); jokers are drawn as jester cards; the
    rules page tells the Haitian game in each of the six languages."""
    page, errors = watched_page(browser, 1366, 768)
    page.context.add_init_script("localStorage.setItem('bezique.settings', '{\"speed\": 0}')")
    page.goto(server + "/")
    code = page.evaluate(OPEN_TABLE, HAITIAN_SHORT)
    page.wait_for_selector("#hand .card")
    assert page.locator("#hand .card").count() == 9  # H02
    counter = page.locator("#match-counter")
    assert re.sub(r"\s+", "", counter.inner_text()) == "Games0–0/3"
    assert page.locator("#stock").inner_text() == "114"  # H02: no turn-up, 114 left
    run = page.evaluate(DRIVE, 3000)
    assert run.get("done"), run
    page.wait_for_selector("#match-result")
    # several games, each told at the end of its deal, the counter moving with them
    games = run["games"] + [page.locator("#game-result").inner_text()]
    assert len(games) >= 2, run
    won = re.compile(r"^(Tess|Bertie) wins game (\d)( en bas table: it counts 2)?\.$")
    matched = [won.match(g) for g in games]
    assert all(matched), games
    assert [int(m.group(2)) for m in matched if m] == list(range(1, len(games) + 1))
    counts = [int(x) for x in re.findall(r"\d+", counter.inner_text())[:2]]
    assert max(counts) >= 3 and min(counts) == 0, counts
    rows = page.locator(".summary tr.games-row td").all_inner_texts()
    assert [int(x) for x in rows] == counts
    assert all(n == 4 for n in run["jokerCaps"]), run["jokerCaps"]  # every joker a jester
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / "haitian-match-over-1366x768.png"))
    # the next match (H32): a new table, the counter back to 0-0, the loser's games from 20
    loser = 0 if counts[0] == 0 else 1
    page.click("#next-match")
    page.wait_for_function("c => !location.hash.endsWith(c)", arg=code)
    # a deal ended at once by the target leaves cards in the old hand, so the new table is
    # known by its counter: polled until it reads 0-0 (a timeout fails the test)
    page.wait_for_function(
        "() => document.querySelector('#match-counter')?.textContent.replace(/\\s+/g, '')"
        " === 'Games0–0/3'"
    )
    page.wait_for_selector("#hand .card")
    chips = page.locator(".score small").all_inner_texts()
    assert chips[loser] == "20/60" and chips[1 - loser] == "0/60", chips
    assert not errors, errors
    page.context.close()


def test_the_haitian_rules_page_in_six_languages(server: str, browser: Any) -> None:
    """The rules page of the Haitian preset tells its game (no turn-up, jokers, the
    brisques by majority, the match of games), and not the classic deal, in every language."""
    page, errors = watched_page(browser, 1366, 768)
    page.goto(server + "/")
    for lang in ["en", "fr", "ru", "el", "kk", "bs"]:
        tr = strings(lang)
        page.evaluate("l => localStorage.setItem('bezique.lang', l)", lang)
        page.goto(server + "/#/rules/haitian")
        page.reload()
        page.wait_for_selector(".rules p")
        text = page.locator(".rules").inner_text()
        keys = ["rules.deal.noturnup", "rules.declare.perkind", "rules.jokers", "rules.games"]
        for key in [*keys, "rules.score.majority", "rules.immediate", "rules.seven.play"]:
            part = max(re.split(r"\{\w+\}", tr[key]), key=len)[:40]
            assert part in text, (lang, key)
        assert tr["rules.deal"] not in text and tr["rules.seven"] not in text
        assert tr["rules.declare"] not in text
        if lang == "fr":
            page.screenshot(path=str(OUTPUT / "rules-haitian-fr-1366x768.png"))
    # the classic page keeps the classic text
    page.goto(server + "/#/rules/classic")
    page.wait_for_function("() => !location.hash.includes('haitian')")
    page.wait_for_selector(".rules p")
    page.wait_for_function(
        "t => document.querySelector('.rules').innerText.includes(t)", arg=tr["rules.seven"]
    )
    text = page.locator(".rules").inner_text()
    assert tr["rules.deal"] in text and tr["rules.declare"] in text
    assert tr["rules.jokers"].split("{")[0] not in text and tr["rules.games"][:20] not in text
    assert not errors, errors
    page.context.close()


def test_jokers_are_drawn_as_cards(server: str, browser: Any) -> None:
    """A joker (XX) is a card picture of its own, not a blank."""
    page, _ = watched_page(browser, 1366, 768)
    page.goto(server + "/")
    page.wait_for_selector("#vs")
    html = page.evaluate(
        "async () => { const m = await import('/static/cards.js'); return m.cardSVG('XX', {}); }"
    )
    assert "<svg" in html and html.count('class="jcap') == 4 and "JOKER" not in html
    assert "".join(re.findall(r"<tspan[^>]*>(\w)</tspan>", html)) == "JOKER"
    page.context.close()
