// Unit tests of the lobby's pure parts (src/bezique/web/lobby.js): splitting the listing,
// reading a rating variant, showing a rating.
import assert from "node:assert/strict";
import { test } from "node:test";

import { parseVariant, ratingText, splitLobby } from "../../src/bezique/web/lobby.js";

test("the lobby splits into tables to join and games to watch", () => {
  const tables = [
    { code: "a", status: "waiting", free: 1 },
    { code: "b", status: "playing", free: 0 },
    { code: "c", status: "waiting", free: 0 }, // filling up this moment: neither
    { code: "d", status: "over", free: 0 },
  ];
  const { open, playing } = splitLobby({ tables });
  assert.deepEqual(open.map((x) => x.code), ["a"]);
  assert.deepEqual(playing.map((x) => x.code), ["b"]);
  assert.deepEqual(splitLobby(/** @type {any} */ ({})), { open: [], playing: [] });
});

test("a variant names its preset, players and partnerships", () => {
  assert.deepEqual(parseVariant("classic/2"), { preset: "classic", players: 2, partners: false });
  assert.deepEqual(parseVariant("four/4p"), { preset: "four", players: 4, partners: true });
  assert.deepEqual(parseVariant("old-russian/3"), { preset: "old-russian", players: 3, partners: false });
  assert.equal(parseVariant("odd").players, 0);
});

test("a rating shows its cautious value to one decimal", () => {
  assert.equal(ratingText({ value: 3.14159 }), "3.1");
  assert.equal(ratingText({ value: -2 }), "-2.0");
  assert.equal(ratingText(null), "–");
  assert.equal(ratingText(/** @type {any} */ ({ value: NaN })), "–");
});
