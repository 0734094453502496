// "Your games": the games played in this browser, found by the seat tokens it holds (the
// server answers only for the tokens that are valid, so nobody else's game can show), each
// with its result and links to its replay and its review.
import { api, esc, named, t } from "./common.js";

const PREFIX = "bezique.seat.";
const WHEN = "bezique.games";
/** The most games listed. */
export const SHOWN = 30;

/** Note that a game was opened in this browser now (for the list's order). @param {string} code */
export function remember(code) {
  /** @type {Record<string, number>} */
  let when = {};
  try { when = JSON.parse(localStorage.getItem(WHEN) || "{}"); } catch { /* damaged: start again */ }
  when[code] = Date.now();
  localStorage.setItem(WHEN, JSON.stringify(when));
}

/** The seat tokens this browser holds, newest first. @returns {Array<{ code: string, token: string }>} */
export function heldSeats() {
  /** @type {Record<string, number>} */
  let when = {};
  try { when = JSON.parse(localStorage.getItem(WHEN) || "{}"); } catch { /* none */ }
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i) || "";
    const token = key.startsWith(PREFIX) ? localStorage.getItem(key) : null;
    if (token) out.push({ code: key.slice(PREFIX.length), token });
  }
  out.sort((a, b) => (when[b.code] || 0) - (when[a.code] || 0));
  return out.slice(0, 60);
}

/** One game's line. @param {any} g */
function gameHTML(g) {
  const names = g.players.map((/** @type {any} */ p) => (p.kind === "bot" ? t(`bot.${p.seat}`) : p.kind === "open" ? t("table.open") : p.name));
  const others = names.filter((/** @type {string} */ _n, /** @type {number} */ i) => i !== g.seat).join(", ");
  let result;
  if (g.status === "over" && g.winner !== null) {
    const key = g.winner === g.side ? "mygames.won" : "mygames.lost";
    result = `<b>${t(key)}</b> ${g.scores.join("–")}`;
  } else if (g.status === "waiting") result = t("mygames.waiting");
  else result = t("mygames.playing", { n: g.deals + 1 });
  const links = g.status === "over"
    ? `<a href="#/replay/${esc(g.code)}" class="game-replay">${t("nav.replay")}</a> · <a href="#/t/${esc(g.code)}" class="game-review">${t("mygames.review")}</a>`
    : `<a href="#/t/${esc(g.code)}" class="game-open">${t("mygames.open")}</a>`;
  return `<li class="game" data-code="${esc(g.code)}"><span class="gvariant">${esc(named("preset.", g.preset))}</span> · ${t("mygames.against", { names: esc(others) })} · <span class="gresult">${result}</span> · ${links}</li>`;
}

/** Fill ``el`` with this browser's games (nothing at all when it has none). @param {HTMLElement} el */
export async function showGames(el) {
  const held = heldSeats();
  if (!held.length) { el.hidden = true; return; }
  let games = [];
  try { games = (await api("/api/my-games", { games: held })).games; } catch { el.hidden = true; return; }
  if (!games.length) { el.hidden = true; return; }
  el.hidden = false;
  el.innerHTML = `<h2>${t("mygames.title")}</h2><ol class="games-list" id="games-list">${games.slice(0, SHOWN).map(gameHTML).join("")}</ol>`;
}
