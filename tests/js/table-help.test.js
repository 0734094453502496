// Unit tests of what the table tells a player: why a card may not be played (whyNot in
// src/bezique/web/logic.js) and the order a hand is sorted in (cards.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { sortCards } from "../../src/bezique/web/cards.js";
import { whyNot } from "../../src/bezique/web/logic.js";

/** A view in stage 2 with this hand, this trick and these cards legal. @param {object} o */
function view(o) {
  return {
    seat: 0, dealer: 1, phase: "play", to_move: 0, stage: 2, trump: "S", turn_up: null, stock_size: 0,
    hand: [], hand_sizes: [8, 8], tables: [[], []], known: [[], []], trick: [], tricks: [], events: [],
    scoring: [], points: [0, 0], legal: [], tricks_total: 16, ...o,
  };
}
/** @param {string[]} cards */
const plays = (cards) => cards.map((c) => ({ action: `play ${c}`, points: null }));

test("a legal card has no reason against it", () => {
  const v = view({ hand: ["AH", "7C"], trick: [[1, "9H"]], legal: plays(["AH"]) });
  assert.equal(whyNot(v, "AH"), null);
});

test("another suit while the led suit is held: follow suit (and win, when only higher ones may go)", () => {
  const v = view({ hand: ["AH", "7C"], trick: [[1, "9H"]], legal: plays(["AH"]) });
  assert.deepEqual(whyNot(v, "7C"), { key: "illegal.follow", suit: "H" });
  const w = view({ hand: ["AH", "8H", "7C"], trick: [[1, "9H"]], legal: plays(["AH"]) });
  assert.deepEqual(whyNot(w, "7C"), { key: "illegal.followwin", suit: "H" });
});

test("the led suit but too low, while a higher card is held: win the trick", () => {
  const v = view({ hand: ["AH", "8H"], trick: [[1, "9H"]], legal: plays(["AH"]) });
  assert.deepEqual(whyNot(v, "8H"), { key: "illegal.win", suit: "H" });
});

test("void in the led suit with trumps in hand: trump", () => {
  const v = view({ hand: ["7S", "KC"], trick: [[1, "9H"]], legal: plays(["7S"]) });
  assert.deepEqual(whyNot(v, "KC"), { key: "illegal.trump", suit: "H" });
});

test("no card may be played (declaring, or not this seat's turn): wait", () => {
  const v = view({ phase: "declare", hand: ["7S"], legal: [{ action: "pass", points: null }] });
  assert.deepEqual(whyNot(v, "7S"), { key: "illegal.wait", suit: "" });
});

test("a hand is sorted spades, hearts, diamonds, clubs (the terminal's order), then rank", () => {
  assert.deepEqual(sortCards(["7C", "AD", "TH", "KS", "XX", "AC"]), ["KS", "TH", "AD", "AC", "7C", "XX"]);
});
