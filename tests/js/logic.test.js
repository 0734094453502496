// Unit tests of the client's logic (src/bezique/web/logic.js and cards.js): `make test` runs
// them with node:test.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cardSVG, label, PIPS, rankText, sortCards, suitClass } from "../../src/bezique/web/cards.js";
import { clock, duration, logLines, meldGroups, playAction, positions, seatName, sideNames, soundsFor } from "../../src/bezique/web/logic.js";

/** A view with only what a test sets; the rest empty. @param {object} o */
function view(o) {
  return {
    seat: 0, dealer: 1, phase: "play", to_move: 0, stage: 1, trump: "S", turn_up: "9S", stock_size: 10,
    hand: [], hand_sizes: [8, 8], tables: [[], []], known: [[], []], trick: [], tricks: [], events: [],
    scoring: [], points: [0, 0], legal: [], tricks_total: 16, ...o,
  };
}

/** A scoring event as the server's ``scoring`` carries it (two seats, each its own side).
 * @param {number} trick @param {number} seat @param {string} kind @param {number} points
 * @param {{ meld?: string, cards?: string[], how?: string }} [more] */
function ev(trick, seat, kind, points, more = {}) {
  return { trick, seat, side: seat, kind, points, meld: "", cards: [], how: "", ...more };
}
/** A declaration's event. @param {number} trick @param {number} seat @param {string} meld
 * @param {string} cards @param {number} points */
const meld = (trick, seat, meld, cards, points) => ev(trick, seat, "meld", points, { meld, cards: cards.split(" ") });
const t = (/** @type {string} */ key, /** @type {Record<string, any>} */ p = {}) => `${key}${JSON.stringify(p)}`;

test("seats sit around the table from the viewer's place, a partner opposite", () => {
  assert.deepEqual(positions(2, 0), ["bottom", "top"]);
  assert.deepEqual(positions(2, 1), ["top", "bottom"]);
  assert.deepEqual(positions(3, 1), ["right", "bottom", "left"]);
  assert.deepEqual(positions(4, 2), ["top", "right", "bottom", "left"]);
  assert.deepEqual(positions(4, null), ["bottom", "left", "top", "right"]); // a spectator
  assert.throws(() => positions(5, 0));
});

test("computers get distinct translated names, people their own", () => {
  const table = { partnerships: true, sides: 2, seats: [
    { seat: 0, name: "Ann", kind: "human" }, { seat: 1, name: "Computer (easy)", kind: "bot" },
    { seat: 2, name: "Seat 3", kind: "open" }, { seat: 3, name: "Computer (easy)", kind: "bot" }] };
  const names = [0, 1, 2, 3].map((s) => seatName(/** @type {any} */ (table), s, 0, t));
  assert.deepEqual(names, ["Ann", "bot.1{}", "table.open{}", "bot.3{}"]);
  assert.deepEqual(sideNames(/** @type {any} */ (table), names), ["Ann & table.open{}", "bot.1{} & bot.3{}"]);
});

test("each declared meld is one group with its points; a card used again is named, not drawn twice", () => {
  const v = view({
    tables: [["KS@marriage+four-kings", "QS@marriage+bezique", "JD@bezique", "KH@four-kings", "KC@four-kings", "KD@four-kings"], []],
    scoring: [meld(2, 0, "marriage", "KS QS", 20), meld(3, 1, "marriage", "KH QH", 20), meld(4, 0, "bezique", "QS JD", 40),
      meld(6, 0, "four-kings", "KS KH KC KD", 80)],
  });
  const groups = meldGroups(/** @type {any} */ (v), 0);
  assert.deepEqual(groups.map((g) => [g.name, g.points]), [["marriage", 20], ["bezique", 40], ["four-kings", 80]]);
  assert.deepEqual(groups[0].cards.map((c) => [c.code, c.again]), [["KS", false], ["QS", false]]);
  assert.deepEqual(groups[1].cards.map((c) => [c.code, c.again]), [["QS", true], ["JD", false]]);
  assert.deepEqual(groups[2].cards.map((c) => [c.code, c.again]), [["KS", true], ["KH", false], ["KC", false], ["KD", false]]);
});

test("a double bezique says so; cards played since a meld leave its group", () => {
  const v = view({
    tables: [["QS@bezique+double-bezique", "JD@bezique+double-bezique", "JD@double-bezique"], []],
    scoring: [meld(1, 0, "bezique", "QS JD", 40), meld(5, 0, "double-bezique", "QS JD QS JD", 500)],
  });
  const groups = meldGroups(/** @type {any} */ (v), 0);
  assert.equal(groups[1].name, "double-bezique");
  assert.equal(groups[1].points, 500);
  // one queen of spades was played: the double bezique shows the cards still on the table
  assert.deepEqual(groups[1].cards.map((c) => c.code + (c.again ? "*" : "")), ["QS*", "JD", "JD*"]);
});

test("only legal cards are playable, from the hand or from the table", () => {
  const v = view({ hand: ["AS", "7H"], tables: [["KS@marriage"], []], legal: [{ action: "play AS", points: null }, { action: "play KS", points: null }] });
  assert.equal(playAction(/** @type {any} */ (v), "AS", false), "play AS");
  assert.equal(playAction(/** @type {any} */ (v), "7H", false), null);
  assert.equal(playAction(/** @type {any} */ (v), "KS@marriage", true), "play KS");
});

test("the log is worked out from the view: tricks, then the declarations after them", () => {
  const v = view({
    tricks: [[0, ["AS", "7S"], 0], [0, ["8H", "TH"], 1]],
    scoring: [meld(1, 0, "marriage", "KD QD", 20), ev(1, 0, "exchange", 10, { cards: ["7S"] }), ev(2, 1, "last trick", 10)],
  });
  const lines = logLines(/** @type {any} */ (v), ["Ann", "Bob"], t, (m) => `<${m}>`, (c) => c);
  assert.deepEqual(lines, [
    'msg.won{"name":"Ann","cards":"AS 7S"}',
    'msg.declared{"name":"Ann","meld":"<marriage>","points":20}',
    'msg.exchanged{"name":"Ann","card":"7S"}',
    'msg.won{"name":"Bob","cards":"8H TH"}',
    'msg.last{"name":"Bob","points":10}',
  ]);
});

test("events are read by their named fields, never by their words", () => {
  // the words (``events``, the text form) say something else: the client must not read them
  const v = view({
    tables: [["KD@marriage", "QD@marriage"], []],
    tricks: [[0, ["AS", "7S"], 0]],
    events: [[0, 1, "meld bezique QS JD", 40], [1, 1, "exchange 7H", 10]],
    scoring: [ev(0, 0, "turn-up", 10, { cards: ["7S"] }), meld(1, 0, "marriage", "KD QD", 20),
      ev(1, 1, "seven", 10, { how: "won", cards: ["7S"] }), ev(1, 1, "carte blanche ends", 0)],
  });
  assert.deepEqual(meldGroups(/** @type {any} */ (v), 0).map((g) => [g.name, g.points, g.cards.map((c) => c.ref)]),
    [["marriage", 20, ["KD@marriage", "QD@marriage"]]]);
  assert.deepEqual(meldGroups(/** @type {any} */ (v), 1), []);
  const lines = logLines(/** @type {any} */ (v), ["Ann", "Bob"], t, (m) => `<${m}>`, (c) => c);
  assert.deepEqual(lines, [
    'msg.scored{"name":"Ann","points":10}',
    'msg.won{"name":"Ann","cards":"AS 7S"}',
    'msg.declared{"name":"Ann","meld":"<marriage>","points":20}',
    'msg.scored{"name":"Bob","points":10}', // a seven won; the 0-point event says nothing
  ]);
});

test("countdowns and motion lengths", () => {
  assert.equal(clock(27.2), "0:28");
  assert.equal(clock(-3), "0:00");
  assert.equal(clock(75), "1:15");
  assert.equal(duration(400, 1, false), 400);
  assert.equal(duration(400, 0.5, false), 200);
  assert.equal(duration(400, 1, true), 0); // prefers-reduced-motion
  assert.equal(duration(400, 0, false), 0);
});

test("cards: rank letters per language, suit colours, pip counts", () => {
  const ru = { A: "Т", K: "К", Q: "Д", J: "В" };
  assert.equal(label("QH", ru), "Д♥");
  assert.equal(label("TS", ru), "10♠");
  assert.equal(label("JD@bezique"), "J♦");
  assert.equal(label("XX"), "★");
  assert.equal(rankText("A", ru), "Т");
  assert.equal(suitClass("D"), "s-red");
  assert.equal(suitClass("D", true), "s-blue");
  assert.equal(suitClass("C", true), "s-green");
  for (const [rank, n] of [["7", 7], ["8", 8], ["9", 9], ["T", 10]]) {
    assert.equal(PIPS[rank].length, n);
    assert.equal((cardSVG(rank + "C").match(/href="#suit-C"/g) || []).length, n + 2); // and 2 indices
  }
  assert.match(cardSVG("KH", { ranks: ru }), />К</);
  assert.match(cardSVG("QS"), /court-Q/);
  assert.deepEqual(sortCards(["7D", "AS", "TH", "KS", "XX"]), ["AS", "KS", "TH", "7D", "XX"]);
});

test("sounds: a card played, a trick won, a meld, and your turn coming round", () => {
  const before = view({ to_move: 1, trick: [[0, "AS"]] });
  const after = view({ to_move: 0, trick: [], tricks: [[0, ["AS", "7S"], 0]] });
  assert.deepEqual(soundsFor(before, after, "play 7S", 0), ["play", "trick", "turn"]);
  assert.deepEqual(soundsFor(before, after, "play 7S", 1), ["play", "trick"]);
  assert.deepEqual(soundsFor(before, after, "play 7S", null), ["play", "trick"]); // a spectator
  // the first card of a trick: no trick yet, and the turn passes on
  const led = view({ to_move: 1, trick: [[0, "AS"]] });
  assert.deepEqual(soundsFor(view({ to_move: 0 }), led, "play AS", 0), ["play"]);
  assert.deepEqual(soundsFor(view({ to_move: 0 }), led, "play AS", 1), ["play", "turn"]);
  // declaring keeps the turn with the declarer's side: a meld, no second "turn"
  const declare = view({ to_move: 0, phase: "declare" });
  assert.deepEqual(soundsFor(declare, view({ to_move: 0 }), "meld bezique QS JD", 0), ["meld"]);
  assert.deepEqual(soundsFor(declare, view({ to_move: 1 }), "exchange 7S", 1), ["meld", "turn"]);
  // the deal over: nobody's turn
  assert.deepEqual(soundsFor(before, view({ to_move: 0, phase: "over", tricks: [[0, ["AS", "7S"], 0]] }), "play 7S", 0), ["play", "trick"]);
});

test("the joker is a card of its own: a jester, stars, JOKER down the side", () => {
  const svg = cardSVG("XX");
  assert.match(svg, /class="card-svg s-wild"/);
  assert.equal((svg.match(/class="jcap/g) || []).length, 4);
  assert.equal([...svg.matchAll(/<tspan[^>]*>(\w)<\/tspan>/g)].map((m) => m[1]).join(""), "JOKER");
  assert.equal(cardSVG("XX@four-kings"), svg);
});
