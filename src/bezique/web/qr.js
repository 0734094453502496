// A QR code encoder (ISO/IEC 18004), small and self-contained: byte mode, error correction
// level M, versions 1 to 10 (up to 213 bytes: a seat link is under 120).  encode() gives the
// matrix of modules, qrSVG() draws it.

/** Per version (1-10), at level M: EC codewords per block, and the blocks' data codewords.
 * @type {Array<[number, number[]]>} */
const BLOCKS = [
  [0, []],
  [10, [16]], [16, [28]], [26, [44]], [18, [32, 32]], [24, [43, 43]],
  [16, [27, 27, 27, 27]], [18, [31, 31, 31, 31]], [22, [38, 38, 39, 39]],
  [22, [36, 36, 36, 37, 37]], [26, [43, 43, 43, 43, 44]],
];
/** Alignment pattern centres per version. @type {number[][]} */
const ALIGN = [[], [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

// --- GF(256) arithmetic (polynomial x^8 + x^4 + x^3 + x^2 + 1) and Reed-Solomon ---------------
const EXP = new Array(512), LOG = new Array(256);
for (let i = 0, x = 1; i < 255; i++) { EXP[i] = x; LOG[x] = i; x <<= 1; if (x & 256) x ^= 0x11d; }
for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
/** @param {number} a @param {number} b */
const mul = (a, b) => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

/** The EC codewords of ``data`` (n of them). @param {number[]} data @param {number} n @returns {number[]} */
export function rsRemainder(data, n) {
  // the generator: the product of (x - a^i), i = 0 .. n-1, highest power first
  let gen = [1];
  for (let i = 0; i < n; i++) {
    const next = new Array(gen.length + 1).fill(0);
    gen.forEach((g, j) => { next[j] ^= g; next[j + 1] ^= mul(g, EXP[i]); });
    gen = next;
  }
  const rem = new Array(n).fill(0);
  for (const d of data) {
    const f = d ^ rem.shift();
    rem.push(0);
    for (let j = 0; j < n; j++) rem[j] ^= mul(gen[j + 1], f);
  }
  return rem;
}

/** The data codewords of ``bytes`` in byte mode for ``version``, padded to its capacity.
 * @param {number[]} bytes @param {number} version @returns {number[]} */
function dataCodewords(bytes, version) {
  const cap = BLOCKS[version][1].reduce((a, b) => a + b, 0);
  /** @type {number[]} */
  const bits = [];
  const put = (/** @type {number} */ v, /** @type {number} */ n) => { for (let i = n - 1; i >= 0; i--) bits.push((v >> i) & 1); };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  put(0, Math.min(4, cap * 8 - bits.length));
  while (bits.length % 8) bits.push(0);
  const out = [];
  for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; out.length < cap; pad ^= 0xec ^ 0x11) out.push(pad);
  return out;
}

/** The BCH code of ``value`` (``bits`` long) with generator ``poly`` (of degree ``deg``).
 * @param {number} value @param {number} poly @param {number} deg */
function bch(value, poly, deg) {
  let v = value << deg;
  for (let i = 31 - Math.clz32(v); i >= deg; i--) if (v & (1 << i)) v ^= poly << (i - deg);
  return (value << deg) | v;
}

/** The 15 format bits for level M and ``mask``. @param {number} mask */
export function formatBits(mask) { return bch((0b00 << 3) | mask, 0x537, 10) ^ 0x5412; }

const MASKS = [
  (/** @type {number} */ r, /** @type {number} */ c) => (r + c) % 2 === 0,
  (/** @type {number} */ r) => r % 2 === 0,
  (/** @type {number} */ _r, /** @type {number} */ c) => c % 3 === 0,
  (/** @type {number} */ r, /** @type {number} */ c) => (r + c) % 3 === 0,
  (/** @type {number} */ r, /** @type {number} */ c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (/** @type {number} */ r, /** @type {number} */ c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (/** @type {number} */ r, /** @type {number} */ c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (/** @type {number} */ r, /** @type {number} */ c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

/**
 * The QR code of ``text`` (UTF-8, byte mode, level M): a square of rows of booleans (true:
 * dark), without the quiet zone.  ``mask`` forces a mask pattern (else the one with the
 * lowest penalty, as the standard says).
 * @param {string} text @param {{ mask?: number }} [o] @returns {boolean[][]}
 */
export function encode(text, { mask } = {}) {
  const bytes = [...new TextEncoder().encode(text)];
  let version = 1;
  while (version <= 10 && BLOCKS[version][1].reduce((a, b) => a + b, 0) < bytes.length + (version < 10 ? 2 : 3)) version++;
  if (version > 10) throw new Error("too long for a QR code of version 10");
  const [ecn, sizes] = BLOCKS[version];
  const data = dataCodewords(bytes, version);
  // split into blocks, each with its EC codewords, then interleave column by column
  /** @type {number[][]} */
  const blocks = [];
  let at = 0;
  for (const n of sizes) { blocks.push(data.slice(at, at + n)); at += n; }
  const ecs = blocks.map((b) => rsRemainder(b, ecn));
  const stream = [];
  for (let i = 0; i < Math.max(...sizes); i++) for (const b of blocks) if (i < b.length) stream.push(b[i]);
  for (let i = 0; i < ecn; i++) for (const e of ecs) stream.push(e[i]);

  const size = 17 + 4 * version;
  /** @type {(boolean|null)[][]} */
  const m = Array.from({ length: size }, () => new Array(size).fill(null));
  const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (/** @type {number} */ r, /** @type {number} */ c, /** @type {boolean} */ v) => { m[r][c] = v; fixed[r][c] = true; };
  // finder patterns with their separators
  for (const [fr, fc] of [[0, 0], [0, size - 7], [size - 7, 0]]) {
    for (let r = -1; r <= 7; r++) for (let c = -1; c <= 7; c++) {
      const rr = fr + r, cc = fc + c;
      if (rr < 0 || cc < 0 || rr >= size || cc >= size) continue;
      const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
      set(rr, cc, ring !== 2 && ring !== 4);
    }
  }
  // timing patterns
  for (let i = 8; i < size - 8; i++) { set(6, i, i % 2 === 0); set(i, 6, i % 2 === 0); }
  // alignment patterns (none over a finder)
  const al = ALIGN[version];
  const last = al[al.length - 1];
  for (const r of al) for (const c of al) {
    if ((r === 6 && c === 6) || (r === 6 && c === last) || (r === last && c === 6)) continue; // the finders' corners
    for (let dr = -2; dr <= 2; dr++) for (let dc = -2; dc <= 2; dc++) set(r + dr, c + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
  }
  // the dark module, and room for the format (and version) information
  set(size - 8, 8, true);
  for (let i = 0; i < 9; i++) { if (!fixed[8][i]) set(8, i, false); if (!fixed[i][8]) set(i, 8, false); }
  for (let i = 0; i < 8; i++) { set(8, size - 1 - i, false); if (!fixed[size - 1 - i][8]) set(size - 1 - i, 8, false); }
  if (version >= 7) {
    const vb = bch(version, 0x1f25, 12);
    for (let i = 0; i < 18; i++) {
      const bit = ((vb >> i) & 1) === 1, a = size - 11 + (i % 3), b = Math.floor(i / 3);
      set(a, b, bit); set(b, a, bit);
    }
  }
  // the codewords, two columns at a time, upwards then downwards, from the bottom right
  const bits = stream.flatMap((w) => Array.from({ length: 8 }, (_, i) => ((w >> (7 - i)) & 1) === 1));
  let k = 0;
  for (let right = size - 1, up = true; right > 0; right -= 2, up = !up) {
    if (right === 6) right = 5;
    for (let j = 0; j < size; j++) {
      const r = up ? size - 1 - j : j;
      for (const c of [right, right - 1]) {
        if (fixed[r][c]) continue;
        m[r][c] = k < bits.length ? bits[k] : false;
        k++;
      }
    }
  }
  const masked = (/** @type {number} */ p) => {
    const out = m.map((row, r) => row.map((v, c) => (fixed[r][c] ? Boolean(v) : Boolean(v) !== MASKS[p](r, c))));
    const f = formatBits(p);
    for (let i = 0; i < 15; i++) {
      const bit = ((f >> i) & 1) === 1;
      // around the top-left finder (skipping the timing pattern) ...
      if (i < 6) out[i][8] = bit; else if (i < 8) out[i + 1][8] = bit; else if (i === 8) out[8][7] = bit; else out[8][14 - i] = bit;
      // ... and again, split between the other two
      if (i < 8) out[8][size - 1 - i] = bit; else out[size - 15 + i][8] = bit;
    }
    out[size - 8][8] = true;
    return out;
  };
  if (mask !== undefined) return masked(mask);
  let best = masked(0), score = penalty(best);
  for (let p = 1; p < 8; p++) {
    const cand = masked(p), s = penalty(cand);
    if (s < score) { best = cand; score = s; }
  }
  return best;
}

/** The standard's penalty of a masked matrix (lower is better). @param {boolean[][]} m */
export function penalty(m) {
  const n = m.length;
  let p = 0, dark = 0;
  const lines = [...m, ...m[0].map((_, c) => m.map((row) => row[c]))];
  for (const line of lines) {
    let run = 1;
    for (let i = 1; i <= n; i++) {
      if (i < n && line[i] === line[i - 1]) { run++; continue; }
      if (run >= 5) p += run - 2;
      run = 1;
    }
    // finder-like 1:1:3:1:1 with four light modules on one side
    const s = line.map((v) => (v ? "1" : "0")).join("");
    for (let i = s.indexOf("1011101"); i >= 0; i = s.indexOf("1011101", i + 1)) {
      if (s.slice(i - 4, i) === "0000" || s.slice(i + 7, i + 11) === "0000") p += 40;
    }
  }
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    if (m[r][c]) dark++;
    if (r < n - 1 && c < n - 1 && m[r][c] === m[r][c + 1] && m[r][c] === m[r + 1][c] && m[r][c] === m[r + 1][c + 1]) p += 3;
  }
  p += Math.floor(Math.abs((dark * 100) / (n * n) - 50) / 5) * 10;
  return p;
}

/** An SVG picture of the QR code of ``text``, with its quiet zone. @param {string} text @param {string} label */
export function qrSVG(text, label) {
  const m = encode(text);
  const n = m.length + 8;
  let d = "";
  m.forEach((row, r) => row.forEach((v, c) => { if (v) d += `M${c + 4} ${r + 4}h1v1h-1z`; }));
  return `<svg class="qr" viewBox="0 0 ${n} ${n}" role="img" aria-label="${label}" shape-rendering="crispEdges"><rect width="${n}" height="${n}" fill="#fff"/><path d="${d}" fill="#000"/></svg>`;
}
