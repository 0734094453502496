// Learn to play: a guided first deal against the gentlest computer, dealt from a fixed,
// friendly deck (the server's /api/tutorial).  Each thing is explained the first time it
// happens (the trump and the turn-up, leading and following, drawing, declaring, the seven of
// trumps, brisques, stage 2's duties, the last trick), with a tip of strategy where it fits,
// in a note that hides little of the table and never stops play.  It can be skipped at any
// moment and started again from the home screen.
import { suitSymbol } from "./cards.js";
import { api, esc, label, t, toast } from "./common.js";
import { remember } from "./games.js";

const KEY = "bezique.tutorial";
const SEEN = "bezique.tutorial.seen";

/** The topics, in the order they are told when several come at once. */
export const TOPICS = ["welcome", "trump", "lead", "follow", "draw", "declare", "seven", "brisque", "stage2", "last", "end"];

/**
 * The topics this view brings up (whether told before or not), for the seat ``me``.
 * @param {import("./logic.js").View} v @param {number} me @returns {string[]}
 */
export function topicsFor(v, me) {
  const mine = v.to_move === me && v.phase !== "over";
  const out = ["welcome"];
  if (v.turn_up || v.trump) out.push("trump");
  if (mine && v.phase === "play" && v.stage === 1) out.push(v.trick.length ? "follow" : "lead");
  if (v.tricks.length && v.stage === 1) out.push("draw");
  if (mine && v.phase === "declare") out.push("declare");
  if (mine && v.legal.some((l) => l.action.startsWith("exchange") || l.action.startsWith("meld seven"))) out.push("seven");
  if (v.tricks.some(([, cards]) => cards.some((c) => "AT".includes(c[0])))) out.push("brisque");
  if (v.stage === 2) out.push("stage2");
  if (v.phase === "play" && v.tricks_total - v.tricks.length === 1) out.push("last");
  if (v.phase === "over") out.push("end");
  return TOPICS.filter((x) => out.includes(x));
}

/** @returns {string[]} */
function seen() {
  try { return JSON.parse(localStorage.getItem(SEEN) || "[]"); } catch { return []; }
}

/** Start the guided deal (again, from the beginning). @param {string} name */
export async function startTutorial(name) {
  try {
    const r = await api("/api/tutorial", { name });
    localStorage.setItem(`bezique.seat.${r.code}`, r.token);
    localStorage.setItem(KEY, r.code);
    localStorage.setItem(SEEN, "[]");
    remember(r.code);
    location.hash = `#/t/${r.code}`;
  } catch (err) { toast(/** @type {Error} */ (err).message); }
}

/** The home screen's section for the tutorial. */
export function tutorialSection() {
  return `<section class="panel" id="learn"><h2>${t("tut.home.title")}</h2><p>${t("tut.home.text")}</p>
    <button class="primary" id="tutorial-start">${t("tut.home.start")}</button></section>`;
}

/** Bind the home screen's tutorial button. @param {() => string} name */
export function bindTutorial(name) {
  document.getElementById("tutorial-start")?.addEventListener("click", () => startTutorial(name()));
}

/**
 * At the tutorial's table, after each drawing of it: the note for the first topic that has
 * come up and was not told yet.
 * @param {{ code: string, seat: number|null, view: import("./logic.js").View|null }} s
 * @param {HTMLElement} root @param {() => void} redraw
 */
export function coach(s, root, redraw) {
  const v = s.view;
  if (!v || s.seat === null || localStorage.getItem(KEY) !== s.code) return;
  const told = seen();
  const topic = topicsFor(v, s.seat).find((x) => !told.includes(x));
  if (!topic) return;
  const params = { card: v.turn_up ? label(v.turn_up) : "", suit: v.trump ? suitSymbol(v.trump) : "" };
  const screen = root.querySelector(".table-screen");
  if (!screen) return;
  const tip = t(`tut.${topic}.tip`) === `tut.${topic}.tip` ? "" : `<p class="tip">${esc(t(`tut.${topic}.tip`))}</p>`;
  screen.insertAdjacentHTML("beforeend", `<div class="coach" id="coach" data-topic="${topic}" role="note" aria-live="polite">
    <h3>${esc(t(`tut.${topic}.title`))}</h3><p>${esc(t(`tut.${topic}`, params))}</p>${tip}
    <div class="buttons"><button class="primary" id="coach-ok">${t("tut.ok")}</button>${topic === "end" ? "" : `<button id="coach-skip">${t("tut.skip")}</button>`}</div></div>`);
  document.getElementById("coach-ok")?.addEventListener("click", () => {
    localStorage.setItem(SEEN, JSON.stringify([...seen(), topic]));
    if (topic === "end") localStorage.removeItem(KEY);
    redraw();
  });
  document.getElementById("coach-skip")?.addEventListener("click", () => { localStorage.removeItem(KEY); redraw(); });
}
