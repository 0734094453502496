// The cards, drawn by this project as SVG: pure functions of a card code ("QS", "TD", "XX" the
// wild card).  Suit shapes come from the <symbol>s of sprite() (put once in the page); each
// card is a 120×168 picture with large corner indices, the pips of a piquet pack laid out as on
// printed cards, double-headed court figures and a patterned back.

export const SUITS = "SHDC";
export const RANKS = "ATKQJ987";
/** @type {Record<string, string>} */
const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** @typedef {{ fourColour?: boolean, ranks?: Record<string, string> }} CardStyle */

/** @type {Record<string, string>} */
const FOUR = { S: "s-black", H: "s-red", D: "s-blue", C: "s-green" };

/** The colour class of a suit: red and black, or four colours (diamonds blue, clubs green).
 * @param {string} suit @param {boolean} [four] @returns {string} */
export function suitClass(suit, four = false) {
  if (four) return FOUR[suit] || "s-wild";
  return suit === "H" || suit === "D" ? "s-red" : suit in SYMBOL ? "s-black" : "s-wild";
}

/** A card's rank letter in the given letters (Russian К Д В Т ...), "10" for the ten.
 * @param {string} rank @param {Record<string, string>} [ranks] @returns {string} */
export function rankText(rank, ranks = {}) {
  return ranks[rank] ?? (rank === "T" ? "10" : rank);
}

/** Short text for a card: "10♠", "Д♥" (Russian letters), "★" for a wild card.
 * @param {string} code @param {Record<string, string>} [ranks] @returns {string} */
export function label(code, ranks = {}) {
  const c = code.split("@")[0];
  if (c === "XX") return "★";
  return rankText(c[0], ranks) + (SYMBOL[c[1]] || "");
}

/** @param {string} s @returns {string} */
export function suitSymbol(s) { return SYMBOL[s] || ""; }

// Pip centres for the plain cards, in the 120×168 frame (the lower half turned upside down).
const L = 43, M = 60, R = 77;
/** @type {Record<string, Array<[number, number]>>} */
export const PIPS = {
  "7": [[L, 40], [R, 40], [M, 62], [L, 84], [R, 84], [L, 128], [R, 128]],
  "8": [[L, 40], [R, 40], [M, 62], [L, 84], [R, 84], [M, 106], [L, 128], [R, 128]],
  "9": [[L, 40], [R, 40], [L, 69], [R, 69], [M, 84], [L, 99], [R, 99], [L, 128], [R, 128]],
  "T": [[L, 40], [R, 40], [M, 55], [L, 69], [R, 69], [L, 99], [R, 99], [M, 113], [L, 128], [R, 128]],
};

/** A suit shape of the given size centred on (x, y), upside down below the middle.
 * @param {string} suit @param {number} x @param {number} y @param {number} size @param {boolean} [flip] */
function pip(suit, x, y, size, flip = y > 84) {
  const h = size / 2;
  const turn = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#suit-${suit}" x="${x - h}" y="${y - h}" width="${size}" height="${size}"${turn}/>`;
}

// One half of a court figure (head up, in the top half of the frame); the card shows it twice,
// the second turned about the centre, as printed double-headed courts are.
/** @param {string} rank @param {string} suit */
function courtHalf(rank, suit) {
  const skin = `<circle cx="60" cy="46" r="11" class="skin"/>`;
  const eyes = `<circle cx="56" cy="45" r="1.3" class="ink"/><circle cx="64" cy="45" r="1.3" class="ink"/><path d="M56 51 Q60 53.5 64 51" class="line"/>`;
  // the robe: shoulders, a trimmed collar and a band of the suit's colour
  const robe = `<path d="M28 84 Q30 62 46 58 L74 58 Q90 62 92 84 Z" class="robe"/>` +
    `<path d="M46 58 L60 72 L74 58" class="trim"/><path d="M36 76 L84 76" class="band"/>` +
    pip(suit, 44, 68, 9, false) + pip(suit, 76, 68, 9, false);
  let head = "", held = "";
  if (rank === "K") {
    head = `<path d="M47 37 L47 26 L52 32 L56 23 L60 31 L64 23 L68 32 L73 26 L73 37 Z" class="gold"/>` +
      `<path d="M50 55 Q60 66 70 55 L68 52 Q60 58 52 52 Z" class="beard"/>`;
    held = `<path d="M86 36 L86 82" class="sword"/><path d="M81 44 L91 44" class="sword"/>`;
  } else if (rank === "Q") {
    head = `<path d="M47 40 Q47 30 60 30 Q73 30 73 40 Q76 50 72 60 L68 50 Q60 36 52 50 L48 60 Q44 50 47 40 Z" class="hair"/>` +
      `<path d="M50 34 L53 27 L57 32 L60 25 L63 32 L67 27 L70 34 Z" class="gold"/>`;
    held = `<path d="M34 82 L38 50" class="stem"/><circle cx="38" cy="48" r="4" class="flower"/>`;
  } else {
    head = `<path d="M46 40 Q48 28 62 29 Q76 30 76 38 L48 40 Z" class="cap"/><path d="M70 31 Q82 20 86 26" class="feather"/>` +
      `<path d="M47 42 Q46 50 49 54" class="hair-line"/><path d="M73 42 Q74 50 71 54" class="hair-line"/>`;
    held = `<path d="M88 28 L88 82" class="staff"/><path d="M84 30 L88 22 L92 30 Z" class="gold"/>`;
  }
  return robe + skin + eyes + head + held;
}

/** The joker (the suitless wild card): a jester in a three-pointed cap with bells and a
 * zigzag collar, a star in two corners, the word JOKER down the side.
 * @param {string} frame */
function jokerSVG(frame) {
  const cap = `<path d="M40 74 Q26 56 20 38 Q40 44 52 70 Z" class="jcap"/><path d="M50 70 Q54 44 60 24 Q66 44 70 70 Z" class="jcap alt"/>` +
    `<path d="M68 70 Q80 44 100 38 Q94 56 80 74 Z" class="jcap"/><rect x="38" y="68" width="44" height="9" rx="3" class="gold"/>` +
    `<circle cx="20" cy="38" r="5" class="gold"/><circle cx="60" cy="24" r="5" class="gold"/><circle cx="100" cy="38" r="5" class="gold"/>`;
  const face = `<circle cx="60" cy="94" r="16" class="skin"/><circle cx="54" cy="91" r="1.6" class="ink"/><circle cx="66" cy="91" r="1.6" class="ink"/>` +
    `<path d="M52 99 Q60 106 68 99" class="line"/><circle cx="50" cy="98" r="2.4" class="jcheek"/><circle cx="70" cy="98" r="2.4" class="jcheek"/>`;
  const collar = `<path d="M34 112 L42 122 L51 112 L60 122 L69 112 L78 122 L86 112 L86 128 L34 128 Z" class="jcap alt"/>`;
  const word = `<text x="110" y="62" class="jword" text-anchor="middle">${"JOKER".split("").map((ch, i) => `<tspan x="108" dy="${i ? 13 : 0}">${ch}</tspan>`).join("")}</text>`;
  return `<svg viewBox="0 0 120 168" class="card-svg s-wild" aria-hidden="true">${frame}${cap}${face}${collar}${word}` +
    `<path d="M16 14 L19 23 L28 23 L21 29 L24 38 L16 32 L8 38 L11 29 L4 23 L13 23 Z" class="star"/>` +
    `<path d="M104 130 L107 139 L116 139 L109 145 L112 154 L104 148 L96 154 L99 145 L92 139 L101 139 Z" class="star"/></svg>`;
}

/** The picture of a card face (or of the wild card) as SVG text.
 * @param {string} code @param {CardStyle} [style] @returns {string} */
export function cardSVG(code, style = {}) {
  const c = code.split("@")[0];
  const frame = `<rect x="1.5" y="1.5" width="117" height="165" rx="9" class="face"/>`;
  if (c === "XX") return jokerSVG(frame);
  const rank = c[0], suit = c[1];
  const r = rankText(rank, style.ranks);
  const cls = suitClass(suit, style.fourColour);
  const wide = r.length > 1;
  const index = `<text x="${wide ? 6 : 9}" y="30" class="idx${wide ? " narrow" : ""}">${r}</text>` + pip(suit, 15, 42, 15, false);
  let body;
  if (rank === "A") {
    body = pip(suit, 60, 84, 58, false) + `<circle cx="60" cy="84" r="40" class="halo"/>`;
  } else if (PIPS[rank]) {
    body = PIPS[rank].map(([x, y]) => pip(suit, x, y, 22)).join("");
  } else {
    const half = courtHalf(rank, suit);
    body = `<rect x="22" y="18" width="76" height="132" rx="4" class="court-frame"/>` +
      `<g class="court court-${rank}">${half}<g transform="rotate(180 60 84)">${half}</g></g>` +
      `<path d="M22 84 L98 84" class="court-split"/>`;
  }
  return `<svg viewBox="0 0 120 168" class="card-svg ${cls}" aria-hidden="true">${frame}${body}${index}` +
    `<g transform="rotate(180 60 84)">${index}</g></svg>`;
}

/** The back of a card. @returns {string} */
export function backSVG() {
  return `<svg viewBox="0 0 120 168" class="card-svg back" aria-hidden="true">` +
    `<rect x="1.5" y="1.5" width="117" height="165" rx="9" class="backface"/>` +
    `<rect x="9" y="9" width="102" height="150" rx="5" fill="url(#back-lattice)" class="backframe"/>` +
    `<circle cx="60" cy="84" r="22" class="medallion"/><use href="#suit-S" x="51" y="66" width="18" height="18" class="medallion-pip"/>` +
    `<use href="#suit-H" x="51" y="84" width="18" height="18" class="medallion-pip"/></svg>`;
}

/** The suit shapes and the back's pattern, once per page: every card refers to them.
 * @returns {string} */
export function sprite() {
  return `<svg width="0" height="0" class="sprite" aria-hidden="true" focusable="false"><defs>` +
    `<symbol id="suit-H" viewBox="0 0 100 100"><path d="M50 92 C22 68 4 52 4 31 C4 15 16 5 29 5 C39 5 46 11 50 19 C54 11 61 5 71 5 C84 5 96 15 96 31 C96 52 78 68 50 92Z"/></symbol>` +
    `<symbol id="suit-D" viewBox="0 0 100 100"><path d="M50 2 C60 20 74 36 90 50 C74 64 60 80 50 98 C40 80 26 64 10 50 C26 36 40 20 50 2Z"/></symbol>` +
    `<symbol id="suit-S" viewBox="0 0 100 100"><path d="M50 3 C78 28 96 42 96 60 C96 75 85 83 73 83 C64 83 57 78 53 71 C54 82 58 90 67 97 L33 97 C42 90 46 82 47 71 C43 78 36 83 27 83 C15 83 4 75 4 60 C4 42 22 28 50 3Z"/></symbol>` +
    `<symbol id="suit-C" viewBox="0 0 100 100"><circle cx="50" cy="27" r="21"/><circle cx="26" cy="60" r="21"/><circle cx="74" cy="60" r="21"/><circle cx="50" cy="55" r="12"/><path d="M46 58 C46 76 42 87 33 97 L67 97 C58 87 54 76 54 58Z"/></symbol>` +
    `<pattern id="back-lattice" width="12" height="12" patternUnits="userSpaceOnUse"><rect width="12" height="12" class="lat-bg"/><path d="M0 6 L6 0 L12 6 L6 12 Z" class="lat"/><circle cx="6" cy="6" r="1.6" class="lat-dot"/></pattern>` +
    `</defs></svg>`;
}

// Sort a hand by suit in the terminal's order (spades, hearts, diamonds, clubs), then rank.
/** @type {Record<string, number>} */
const SUIT_ORDER = { S: 0, H: 1, D: 2, C: 3, X: 4 };
/** @param {string[]} codes @returns {string[]} */
export function sortCards(codes) {
  return [...codes].sort((a, b) => {
    const ca = a.split("@")[0], cb = b.split("@")[0];
    const sa = SUIT_ORDER[ca[1]] ?? 4, sb = SUIT_ORDER[cb[1]] ?? 4;
    if (sa !== sb) return sa - sb;
    return RANKS.indexOf(ca[0]) - RANKS.indexOf(cb[0]);
  });
}
