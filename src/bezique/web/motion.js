// Motion: cards glide from where they were to where they are after each new picture of the
// table (the "first, last, invert, play" way): a card played slides from the hand (or from
// its player's seat) to the trick, a drawn card from the stock to the hand, a meld from the
// hand to the table.  Only transforms are animated and nothing waits for them, so input is
// never held up; the speed setting scales them and prefers-reduced-motion turns them off.
import { duration } from "./logic.js";

/** @typedef {{ key: string, zone: string, rect: DOMRect }} Spot */

const reducedQuery = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

/** @returns {boolean} */
export function reduced() { return Boolean(reducedQuery && reducedQuery.matches); }

/** Where every card and every seat is now.
 * @param {HTMLElement} root @returns {{ cards: Spot[], zones: Map<string, DOMRect> }} */
export function snapshot(root) {
  /** @type {Spot[]} */
  const cards = [];
  root.querySelectorAll("[data-card]").forEach((el) => {
    const h = /** @type {HTMLElement} */ (el);
    const zone = h.closest("[data-zone]");
    cards.push({ key: (h.dataset.card || "").split("@")[0], zone: zone ? /** @type {HTMLElement} */ (zone).dataset.zone || "" : "", rect: h.getBoundingClientRect() });
  });
  /** @type {Map<string, DOMRect>} */
  const zones = new Map();
  root.querySelectorAll("[data-zone]").forEach((el) => {
    zones.set(/** @type {HTMLElement} */ (el).dataset.zone || "", el.getBoundingClientRect());
  });
  return { cards, zones };
}

/**
 * After the page has been drawn again: each card that is somewhere new glides there from
 * where it was (the same card elsewhere before, else the seat or stock it came from).
 * @param {HTMLElement} root @param {{ cards: Spot[], zones: Map<string, DOMRect> }} before
 * @param {number} speed the speed setting (1 normal, 0 no motion)
 * @param {(zone: string) => string|null} origin the zone a new card in ``zone`` came from
 *   when it was not shown before (a seat's hand, the stock)
 * @returns {number} how many cards moved
 */
export function glide(root, before, speed, origin) {
  const ms = duration(380, speed, reduced());
  if (!ms || typeof Element.prototype.animate !== "function") return 0;
  const used = new Set();
  let moved = 0, delay = 0;
  /** @type {Array<{ el: HTMLElement, key: string, zone: string }>} */
  const fresh = [];
  // first every card that stayed where it was (so a card still in its place, the same card of
  // another pack among them, is never taken for the one that moved) ...
  root.querySelectorAll("[data-card]").forEach((el) => {
    const h = /** @type {HTMLElement} */ (el);
    const key = (h.dataset.card || "").split("@")[0];
    const zoneEl = h.closest("[data-zone]");
    const zone = zoneEl ? /** @type {HTMLElement} */ (zoneEl).dataset.zone || "" : "";
    if (!zone || zone === "log" || zone === "lasttrick") return;
    const same = before.cards.findIndex((c, i) => !used.has(i) && c.key === key && c.zone === zone);
    if (same < 0) { fresh.push({ el: h, key, zone }); return; }
    used.add(same);
    // the same card shifted within its row (the hand closing up after a play)
    if (move(h, before.cards[same].rect, ms, 0, false)) moved += 1;
  });
  // ... then each card that is new here glides from where it was
  for (const { el: h, key, zone } of fresh) {
    let from = null, scaled = true;
    const elsewhere = before.cards.findIndex((c, i) => !used.has(i) && c.key === key && c.zone !== zone && c.zone !== "lasttrick");
    if (elsewhere >= 0) { used.add(elsewhere); from = before.cards[elsewhere].rect; }
    if (!from) {
      const z = origin(zone);
      from = z ? before.zones.get(z) || null : null;
      scaled = false; // from a seat or the stock: the card keeps its size
    }
    if (!from || !move(h, from, ms, delay, scaled)) continue;
    moved += 1;
    if (zone === "hand") delay += ms / 6; // dealt cards one after another
  }
  return moved;
}

/** Animate a card from the rectangle ``from`` to where it is now; false when it has not moved.
 * @param {HTMLElement} el @param {DOMRect} from @param {number} ms @param {number} delay
 * @param {boolean} scaled whether it changes size on the way (from a card, not from a seat) */
function move(el, from, ms, delay, scaled) {
  const to = el.getBoundingClientRect();
  if (!to.width) return false;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return false;
  const scale = scaled && from.width ? Math.min(2, Math.max(0.3, from.width / to.width)) : 1;
  el.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
    { duration: ms, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
  return true;
}

/** The trick sweeping off to its winner's seat. @param {HTMLElement} trick
 * @param {DOMRect|undefined} to @param {number} speed @returns {Promise<void>} */
export function sweep(trick, to, speed) {
  const ms = duration(320, speed, reduced());
  if (!ms || !to || typeof trick.animate !== "function") return Promise.resolve();
  const from = trick.getBoundingClientRect();
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const a = trick.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.4)`, opacity: 0 }],
    { duration: ms, easing: "ease-in", fill: "forwards" },
  );
  return a.finished.then(() => undefined, () => undefined);
}
