// Unit tests of the QR encoder (src/bezique/web/qr.js).  qr-vectors.json holds symbols made by
// an independent encoder (segno 1.6.6, level M, the mask given) for texts that fill their
// version exactly (1, 5, 7 with version information, 10 with a 16-bit length), so the whole
// symbol is compared module by module: function patterns, format and version information,
// the data and EC codewords, their interleaving and placement, the mask.
import assert from "node:assert/strict";
import fs from "node:fs";
import { test } from "node:test";

import { encode, formatBits, penalty, qrSVG, rsRemainder } from "../../src/bezique/web/qr.js";

const vectors = JSON.parse(fs.readFileSync(new URL("./qr-vectors.json", import.meta.url), "utf8"));

test("Reed-Solomon: the EC codewords of the standard's worked example (HELLO WORLD, 1-M)", () => {
  const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17];
  assert.deepEqual(rsRemainder(data, 10), [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]);
});

test("format information: level M with mask 0 is 101010000010010", () => {
  assert.equal(formatBits(0).toString(2).padStart(15, "0"), "101010000010010");
});

for (const [text, v] of Object.entries(vectors)) {
  test(`version ${v.version}, mask ${v.mask}: the symbol of a ${text.length}-byte text, module by module`, () => {
    const rows = encode(text, { mask: v.mask }).map((r) => r.map((x) => (x ? "1" : "0")).join(""));
    assert.equal(rows.length, 17 + 4 * v.version);
    assert.deepEqual(rows, v.rows);
  });
}

test("the mask chosen has the lowest penalty of the eight", () => {
  const text = Object.keys(vectors)[1];
  const chosen = penalty(encode(text));
  for (let m = 0; m < 8; m++) assert.ok(chosen <= penalty(encode(text, { mask: m })));
});

test("too long a text is refused; the picture has a quiet zone of four modules", () => {
  assert.throws(() => encode("x".repeat(214)));
  const svg = qrSVG("Bezique", "QR");
  assert.match(svg, /viewBox="0 0 29 29"/);
});
