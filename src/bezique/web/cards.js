// Cards drawn as SVG: pure functions of a card code ("QS", "TD", "XX" the wild card).
export const SUITS = "SHDC";
export const RANKS = "ATKQJ987";
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = { H: true, D: true };

export function label(code) {
  const c = code.split("@")[0];
  if (c === "XX") return "★";
  return (c[0] === "T" ? "10" : c[0]) + SYMBOL[c[1]];
}

export function suitSymbol(s) { return SYMBOL[s] || ""; }

export function cardSVG(code) {
  const c = code.split("@")[0];
  if (c === "XX") {
    return `<svg viewBox="0 0 60 84" class="card-svg" aria-hidden="true"><rect x="1" y="1" width="58" height="82" rx="6" class="face"/><text x="30" y="52" text-anchor="middle" class="pip wild">★</text><text x="6" y="16" class="idx wild">★</text></svg>`;
  }
  const rank = c[0] === "T" ? "10" : c[0];
  const sym = SYMBOL[c[1]];
  const cls = RED[c[1]] ? "red" : "black";
  return `<svg viewBox="0 0 60 84" class="card-svg ${cls}" aria-hidden="true">` +
    `<rect x="1" y="1" width="58" height="82" rx="6" class="face"/>` +
    `<text x="5" y="17" class="idx">${rank}</text><text x="5" y="31" class="idx">${sym}</text>` +
    `<text x="30" y="56" text-anchor="middle" class="pip">${sym}</text>` +
    `<g transform="rotate(180 30 42)"><text x="5" y="17" class="idx">${rank}</text><text x="5" y="31" class="idx">${sym}</text></g>` +
    `</svg>`;
}

export function backSVG() {
  return `<svg viewBox="0 0 60 84" class="card-svg back" aria-hidden="true"><defs><pattern id="bk" width="8" height="8" patternUnits="userSpaceOnUse"><path d="M0 8L8 0" class="hatch"/></pattern></defs><rect x="1" y="1" width="58" height="82" rx="6" class="backface"/><rect x="6" y="6" width="48" height="72" rx="4" fill="url(#bk)"/></svg>`;
}

// Sort a hand by suit (alternating colours: spades, hearts, clubs, diamonds), then rank.
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3, X: 4 };
export function sortCards(codes) {
  return [...codes].sort((a, b) => {
    const ca = a.split("@")[0], cb = b.split("@")[0];
    const sa = SUIT_ORDER[ca[1]] ?? 4, sb = SUIT_ORDER[cb[1]] ?? 4;
    if (sa !== sb) return sa - sb;
    return RANKS.indexOf(ca[0]) - RANKS.indexOf(cb[0]);
  });
}
