// What the table shows, worked out from the server's view: pure functions (no page, no
// network), unit-tested with node:test in tests/js/.

/**
 * @typedef {{ seat: number, name: string, kind: string, level: string|null, connected: boolean,
 *   computer: boolean, takeover_in?: number|null }} SeatInfo
 * @typedef {{ code: string, rules: string, players: number, sides: number, partnerships: boolean,
 *   status: string, host: number, hints: boolean, seats: SeatInfo[] }} TableInfo
 * @typedef {{ action: string, points: number|null }} Legal
 * @typedef {{ trick: number, seat: number, side: number, kind: string, points: number, meld: string,
 *   cards: string[], how: string }} ScoreEvent  one scoring event with named fields (the view's
 *   ``scoring``); ``kind`` is "meld", "exchange", "turn-up", "seven", "last trick", ...
 * @typedef {{ seat: number|null, dealer: number, phase: string, to_move: number|null, stage: number,
 *   trump: string|null, turn_up: string|null, stock_size: number|null, hand: string[],
 *   hand_sizes: number[], tables: string[][], known: string[][], trick: Array<[number, string]>,
 *   tricks: Array<[number, string[], number]>, events?: Array<[number, number, string, number]>,
 *   scoring: ScoreEvent[], points: number[], legal: Legal[], tricks_total: number,
 *   history?: string[] }} View
 * @typedef {(key: string, params?: Record<string, string|number>) => string} Translate
 */

/** Where each seat sits, seen from ``me`` (a spectator sees seat 0 at the bottom): play goes
 * to the left, so the next seat is on the left, a partner opposite.
 * @param {number} n @param {number|null} me @returns {string[]} */
export function positions(n, me) {
  const around = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] }[n];
  if (!around) throw new Error(`no table for ${n} players`);
  const base = me ?? 0;
  return Array.from({ length: n }, (_, seat) => around[(seat - base + n) % n]);
}

/** The side a seat scores for. @param {TableInfo} table @param {number} seat */
export function sideOf(table, seat) {
  return table.partnerships ? seat % 2 : seat;
}

/** The name shown for a seat: a computer's translated name, "You" for oneself.
 * @param {TableInfo} table @param {number} seat @param {number|null} me @param {Translate} t */
export function seatName(table, seat, me, t) {
  const s = table.seats[seat];
  if (!s) return "";
  if (s.kind === "bot") return t(`bot.${seat}`);
  if (s.kind === "open") return t("table.open");
  return s.name;
}

/** The names of the sides, for the scores (partners joined with "&").
 * @param {TableInfo} table @param {string[]} names @returns {string[]} */
export function sideNames(table, names) {
  if (!table.partnerships) return names.slice(0, table.sides);
  return [0, 1].map((side) => names.filter((_, i) => i % 2 === side).join(" & "));
}

/**
 * Each meld a seat has declared this deal, in order, with its points and its cards: a card
 * still on the table is shown in full in the first meld it scored in (where it was laid down)
 * and by its name in any later meld that used it again; cards played since are left out.
 * @param {View} v @param {number} seat
 * @returns {Array<{ name: string, points: number, cards: Array<{ code: string, ref: string, again: boolean }> }>}
 */
export function meldGroups(v, seat) {
  const free = [...(v.tables[seat] || [])];
  /** @type {string[]} */
  const shown = [];
  const out = [];
  for (const e of v.scoring) {
    if (e.seat !== seat || e.kind !== "meld") continue;
    const name = e.meld;
    const group = { name, points: e.points, cards: /** @type {Array<{ code: string, ref: string, again: boolean }>} */ ([]) };
    for (const code of e.cards) {
      // a card named with its melds (CODE@meld+meld) belongs to one of them; a bare code to any
      const i = free.findIndex((r) => r.split("@")[0] === code && (!r.includes("@") || r.split("@")[1].split("+").includes(name)));
      if (i >= 0) {
        group.cards.push({ code, ref: free[i], again: false });
        shown.push(free[i]);
        free.splice(i, 1);
        continue;
      }
      // laid down for an earlier meld (each such card once in this meld); else played since
      const j = shown.findIndex((r) => r.split("@")[0] === code && !group.cards.some((c) => c.ref === r));
      if (j >= 0) group.cards.push({ code, ref: shown[j], again: true });
    }
    out.push(group);
  }
  // cards on the table no event accounts for (a view without events): one group of their own
  if (free.length) out.push({ name: "", points: 0, cards: free.map((ref) => ({ code: ref.split("@")[0], ref, again: false })) });
  return out;
}

/** The action that plays a card from the hand (or, ``fromTable``, from one's declared cards);
 * null when that card may not be played now.
 * @param {View} v @param {string} code @param {boolean} fromTable @returns {string|null} */
export function playAction(v, code, fromTable) {
  const legal = new Set(v.legal.map((l) => l.action).filter((a) => a.startsWith("play ")));
  const c = code.split("@")[0];
  if (!fromTable) return legal.has(`play ${c}`) ? `play ${c}` : null;
  for (const a of [`play ${code}`, `play ${c}@table`]) if (legal.has(a)) return a;
  if (!v.hand.includes(c) && legal.has(`play ${c}`)) return `play ${c}`;
  return null;
}

/**
 * Why a card of the hand may not be played now, worked out from what is legal (so it follows
 * whatever the rules ask): the key of the text that says so, and the suit it names.  Null
 * when the card may be played.  "follow": a card of another suit while the led suit is held;
 * "followwin": the same, where only the higher cards of that suit may be played (stage 2 asks
 * to win the trick if one can); "win": a card of the led suit too low to win while a higher
 * one is held; "trump": the led suit is not held and a trump must be played; "wait": it is
 * no time to play; "other": any other reason.
 * @param {View} v @param {string} code @returns {{ key: string, suit: string }|null} */
export function whyNot(v, code) {
  const plays = v.legal.map((l) => l.action).filter((a) => a.startsWith("play ")).map((a) => a.split(/\s+/)[1].split("@")[0]);
  const c = code.split("@")[0];
  if (plays.includes(c)) return null;
  if (v.phase !== "play" || !plays.length) return { key: "illegal.wait", suit: "" };
  if (!v.trick.length) return { key: "illegal.other", suit: "" };
  const led = v.trick[0][1].split("@")[0][1];
  const legalLed = plays.filter((p) => p[1] === led);
  if (c[1] === "X" || led === "X") return { key: "illegal.other", suit: "" };
  if (c[1] !== led && legalLed.length) {
    const held = v.hand.filter((h) => h[1] === led).length;
    return { key: legalLed.length < held ? "illegal.followwin" : "illegal.follow", suit: led };
  }
  if (c[1] === led && legalLed.length) return { key: "illegal.win", suit: led };
  if (v.trump && plays.every((p) => p[1] === v.trump)) return { key: "illegal.trump", suit: led };
  return { key: "illegal.other", suit: "" };
}

/**
 * The deal so far in words, worked out from the view alone (so it survives a reload and
 * speaks the language chosen now): each trick won, each declaration and exchange.
 * @param {View} v @param {string[]} names @param {Translate} t
 * @param {(name: string) => string} meldName @param {(code: string) => string} label
 * @returns {string[]}
 */
export function logLines(v, names, t, meldName, label) {
  /** @type {string[]} */
  const out = [];
  const events = v.scoring.slice();
  const flush = (/** @type {number} */ upto) => {
    while (events.length && events[0].trick <= upto) {
      const e = /** @type {ScoreEvent} */ (events.shift());
      const name = names[e.seat] ?? "", points = e.points;
      if (e.kind === "meld") out.push(t("msg.declared", { name, meld: meldName(e.meld), points }));
      else if (e.kind === "exchange") out.push(t("msg.exchanged", { name, card: label(e.cards[0]) }));
      else if (e.kind === "last trick") out.push(t("msg.last", { name, points }));
      else if (points) out.push(t("msg.scored", { name, points }));
    }
  };
  flush(0);
  v.tricks.forEach(([, cards, winner], i) => {
    out.push(t("msg.won", { name: names[winner] ?? "", cards: cards.map(label).join(" ") }));
    flush(i + 1);
  });
  flush(Infinity);
  return out;
}

/** Seconds to wait, as the countdown shows them ("0:27"). @param {number} seconds */
export function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** How long a motion lasts: its normal length times the speed chosen, none when the person
 * asked their system for reduced motion.
 * @param {number} ms @param {number} speed @param {boolean} reduced */
export function duration(ms, speed, reduced) {
  return reduced || speed <= 0 ? 0 : Math.round(ms * speed);
}

/**
 * The sounds for one move seen at the table (see sound.js): "play" for a card played, "trick"
 * when it completed a trick, "meld" for a declaration or an exchange, then "turn" when the
 * move has made it ``me``'s turn (a spectator, ``me`` null, never gets that one).
 * @param {View|null} before @param {View} after @param {string} action @param {number|null} me
 * @returns {string[]}
 */
export function soundsFor(before, after, action, me) {
  const out = [];
  const verb = action.split(/\s+/)[0];
  if (verb === "play") out.push("play");
  if (verb === "play" && before && after.tricks.length > before.tricks.length) out.push("trick");
  if (verb === "meld" || verb === "exchange") out.push("meld");
  const mine = (/** @type {View|null} */ v) => Boolean(v) && me !== null && v?.to_move === me && v?.phase !== "over";
  if (mine(after) && (!mine(before) || verb === "play")) out.push("turn");
  return out;
}
