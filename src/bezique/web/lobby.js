// Where strangers meet: the lobby of public tables (asked for every second while it is shown),
// quick match ("play someone now"), the player identity kept in this browser (a secret key in
// localStorage, carried to another device by a link) and the leaderboard.  The pure parts
// (splitting the lobby, naming a variant, showing a rating) are exported for the unit tests.
import { api, esc, named, t, toast } from "./common.js";

const PLAYER = "bezique.player";
const QUICK = "bezique.quick";
const POLL_MS = 1000;

/** @typedef {{ id: string, key: string, name: string }} Identity */

// --- pure helpers -----------------------------------------------------------------------------
/**
 * The lobby's tables split: those with a free seat to take, and those being played (to watch).
 * @param {{ tables: any[] }} listing @returns {{ open: any[], playing: any[] }}
 */
export function splitLobby(listing) {
  const tables = Array.isArray(listing?.tables) ? listing.tables : [];
  return {
    open: tables.filter((x) => x.status === "waiting" && x.free > 0),
    playing: tables.filter((x) => x.status === "playing"),
  };
}

/**
 * A rating variant's parts: "classic/2" is classic for two, "four/4p" four-handed partners.
 * @param {string} variant @returns {{ preset: string, players: number, partners: boolean }}
 */
export function parseVariant(variant) {
  const m = /^(.+)\/(\d)(p?)$/.exec(String(variant || ""));
  if (!m) return { preset: String(variant || ""), players: 0, partners: false };
  return { preset: m[1], players: Number(m[2]), partners: m[3] === "p" };
}

/** A rating as shown: its cautious value (mu - 3 sigma) to one decimal, or a dash.
 * @param {{ value: number }|null|undefined} r */
export function ratingText(r) {
  return r && Number.isFinite(r.value) ? r.value.toFixed(1) : "–";
}

/** A variant's name in the chosen language, with its number of players.
 * @param {string} variant */
export function variantName(variant) {
  const v = parseVariant(variant);
  const base = named("preset.", v.preset);
  return v.players ? `${base} · ${t("online.nplayers", { n: v.players })}` : base;
}

// --- the identity -----------------------------------------------------------------------------
/** This browser's identity, if it has one. @returns {Identity|null} */
export function identity() {
  try {
    const me = JSON.parse(localStorage.getItem(PLAYER) || "null");
    return me && typeof me.key === "string" && typeof me.id === "string" ? me : null;
  } catch { return null; }
}

/** @type {Promise<Identity|null>|null} */
let checking = null;
/** This browser's identity once the server has recognised its key (asked once a page load); an
 * identity the server does not know (its database started afresh) is forgotten here.
 * @returns {Promise<Identity|null>} */
export function knownIdentity() {
  const me = identity();
  if (!me) return Promise.resolve(null);
  if (!checking) {
    checking = api("/api/players/me", { key: me.key }).then(() => me, (err) => {
      if (err.status === 403) { localStorage.removeItem(PLAYER); return null; }
      checking = null; // asked again next time (the server was busy or away)
      return me;
    });
  }
  return checking;
}

/** This browser's identity, made now if it has none. @param {string} [name] @returns {Promise<Identity>} */
export async function ensureIdentity(name) {
  const me = await knownIdentity();
  if (me) return me;
  checking = null;
  const made = await api("/api/players", { name: name || localStorage.getItem("bezique.name") || "" });
  localStorage.setItem(PLAYER, JSON.stringify(made));
  return made;
}

/** The link that carries an identity to another device (the key rides in the fragment, which
 * is never sent to the server). @param {Identity} me */
export const carryLink = (me) => `${location.origin}/#/key/${encodeURIComponent(me.key)}`;

// --- the home screen's section -----------------------------------------------------------------
/**
 * The home screen's online section: quick match, and the way to the lobby, the leaderboard and
 * one's identity.  @param {HTMLElement} app @param {any} info
 */
export function onlineHome(app, info) {
  const presets = info.presets.map((/** @type {any} */ p) => `<option value="${esc(p.name)}">${esc(named("preset.", p.name))}</option>`).join("");
  const me = identity();
  app.insertAdjacentHTML("beforeend", `
  <section class="panel online" id="online">
    <h2>${t("online.title")}</h2>
    <form id="quick">
      <label>${t("form.variant")} <select name="preset">${presets}</select></label>
      <label>${t("form.players")} <select name="players"></select></label>
      <label class="check"><input type="checkbox" name="rated" ${me ? "checked" : ""}> ${t("online.rated")}</label>
      <button type="submit" class="primary" id="quick-play">${t("online.quick")}</button>
    </form>
    <p><a class="button" href="#/lobby" id="to-lobby">${t("online.lobby")}</a>
      <a class="button" href="#/leaders" id="to-leaders">${t("online.leaders")}</a>
      <a class="button" href="#/me" id="to-me">${me ? t("online.me", { name: esc(me.name) }) : t("online.identity")}</a></p>
  </section>`);
  const form = /** @type {any} */ (document.getElementById("quick"));
  const fill = () => {
    const p = info.presets.find((/** @type {any} */ x) => x.name === form.preset.value);
    form.players.innerHTML = p.players.map((/** @type {number} */ n) => `<option value="${n}">${n}</option>`).join("");
  };
  fill();
  form.preset.addEventListener("change", fill);
  form.addEventListener("submit", async (/** @type {Event} */ e) => {
    e.preventDefault();
    const p = info.presets.find((/** @type {any} */ x) => x.name === form.preset.value);
    const n = Number(form.players.value);
    const rules = p && n !== p.players[0] ? `${form.preset.value}(players=${n})` : form.preset.value;
    const nameInput = /** @type {HTMLInputElement|null} */ (document.querySelector("#vs input[name=name], #friends input[name=name]"));
    const name = nameInput?.value || localStorage.getItem("bezique.name") || t("you");
    try {
      const key = form.rated.checked ? (await ensureIdentity(name)).key : undefined;
      const r = await api("/api/quick", { rules, name, key });
      sessionStorage.setItem(QUICK, JSON.stringify({ ticket: r.ticket, rules, name }));
      if (r.state === "matched") enterTable(r); else location.hash = "#/quick";
    } catch (err) { toast(/** @type {Error} */ (err).message); }
  });
}

/** The friends' form gains the lobby and rating choices (both off: private stays the default).
 * @param {HTMLFormElement} form */
export function tableChoices(form) {
  const button = form.querySelector("button[type=submit]");
  button?.insertAdjacentHTML("beforebegin", `<label class="check"><input type="checkbox" name="public" id="make-public"> ${t("online.public")}</label>
    <label class="check"><input type="checkbox" name="rated" id="make-rated"> ${t("online.ratedtable")}</label>`);
}

/** What the friends' form adds to a new table's request: public, rated and the player key.
 * @param {any} form @returns {Promise<Record<string, unknown>>} */
export async function tableExtras(form) {
  const rated = Boolean(form.rated?.checked);
  const me = rated ? await ensureIdentity(form.name?.value) : await knownIdentity();
  return { public: Boolean(form.public?.checked), rated, key: me ? me.key : undefined };
}

/** What a join request adds: the player key (made first when the table is rated).
 * @param {string} code @param {string} name @returns {Promise<Record<string, unknown>>} */
export async function joinExtras(code, name) {
  let rated = false;
  try { rated = (await api(`/api/tables/${encodeURIComponent(code)}/online`)).rated; } catch { /* asked again by the join */ }
  const me = rated ? await ensureIdentity(name) : await knownIdentity();
  return me ? { key: me.key } : {};
}

/** Go to a table found for us. @param {{ code: string, token: string }} r */
function enterTable(r) {
  sessionStorage.removeItem(QUICK);
  localStorage.setItem(`bezique.seat.${r.code}`, r.token);
  location.hash = `#/t/${r.code}`;
}

/** Ask every POLL_MS while the page stays at ``hash``; stops by itself when it is left.
 * @param {string} hash @param {() => Promise<void>} tick */
function poll(hash, tick) {
  let busy = false;
  const timer = setInterval(async () => {
    if (!location.hash.startsWith(hash)) { clearInterval(timer); return; }
    if (busy) return;
    busy = true;
    try { await tick(); } finally { busy = false; }
  }, POLL_MS);
  return timer;
}

// --- pages ----------------------------------------------------------------------------------
/** The routes this module serves; false when the path is not one of them.
 * @param {HTMLElement} app @param {string[]} parts @returns {Promise<boolean>} */
export async function onlineRoute(app, parts) {
  const page = parts[0];
  if (page === "lobby") { await lobbyView(app); return true; }
  if (page === "quick") { await quickView(app); return true; }
  if (page === "leaders") { await leadersView(app, decodeURIComponent(parts[1] || "classic/2")); return true; }
  if (page === "player" && parts[1]) { await playerView(app, parts[1]); return true; }
  if (page === "me") { meView(app); return true; }
  if (page === "key" && parts[1]) { await keyView(app, decodeURIComponent(parts[1])); return true; }
  return false;
}

/** @param {any} x */
function seatsText(x) {
  return x.seats.map((/** @type {any} */ s) => {
    if (s.kind === "open") return `<span class="free">${t("table.open")}</span>`;
    const who = s.player ? `<a href="#/player/${esc(s.player)}">${esc(s.name)}</a>` : esc(s.name);
    return s.rating ? `${who} (${ratingText(s.rating)})` : who;
  }).join(", ");
}

/** The lobby: open public tables to join, games to watch, asked for every second.
 * @param {HTMLElement} app */
async function lobbyView(app) {
  app.innerHTML = `<section class="panel lobby"><h1>${t("online.lobby")}</h1>
    <p><a class="button primary" href="#/">${t("online.quick")}</a></p>
    <h2>${t("lobby.open")}</h2><div id="lobby-open"></div>
    <h2>${t("lobby.playing")}</h2><div id="lobby-playing"></div></section>`;
  const draw = (/** @type {any} */ listing) => {
    const { open, playing } = splitLobby(listing);
    const row = (/** @type {any} */ x, /** @type {string} */ action) => `<li class="lobby-table" data-code="${esc(x.code)}">
      <b>${esc(variantName(x.variant))}</b>${x.rules !== parseVariant(x.variant).preset ? ` <code>${esc(x.rules)}</code>` : ""}
      ${x.rated ? `<span class="badge">${t("lobby.rated")}</span>` : ""}
      <span class="seats-list">${seatsText(x)}</span> ${action}</li>`;
    const openEl = document.getElementById("lobby-open");
    const playEl = document.getElementById("lobby-playing");
    if (!openEl || !playEl) return;
    openEl.innerHTML = open.length ? `<ul>${open.map((x) => row(x, `<a class="button" href="#/join/${esc(x.code)}">${t("lobby.join", { n: x.free })}</a>`)).join("")}</ul>` : `<p>${t("lobby.none")}</p>`;
    playEl.innerHTML = playing.length ? `<ul>${playing.map((x) => row(x, `<a class="button" href="#/t/${esc(x.code)}">${t("join.watch")}</a>`)).join("")}</ul>` : `<p>${t("lobby.nogames")}</p>`;
  };
  const tick = async () => { try { draw(await api("/api/lobby")); } catch { /* asked again in a second */ } };
  await tick();
  poll("#/lobby", tick);
}

/** Waiting for a quick match: how many wait, the way out, the computer instead.
 * @param {HTMLElement} app */
async function quickView(app) {
  /** @type {{ ticket: string, rules: string, name: string }|null} */
  let q = null;
  try { q = JSON.parse(sessionStorage.getItem(QUICK) || "null"); } catch { q = null; }
  if (!q) { location.hash = "#/"; return; }
  const quick = q;
  app.innerHTML = `<section class="panel quick" id="quick-wait" role="status"><h1>${t("quick.title")}</h1>
    <p id="quick-state">${t("quick.waiting")}</p>
    <p><button class="primary" id="quick-computer">${t("quick.computer")}</button>
    <button id="quick-cancel">${t("quick.cancel")}</button></p></section>`;
  const state = /** @type {HTMLElement} */ (document.getElementById("quick-state"));
  const leave = async () => { try { await api("/api/quick/leave", { ticket: quick.ticket }); } catch { /* gone already */ } sessionStorage.removeItem(QUICK); };
  /** @type {any} */ (document.getElementById("quick-cancel")).onclick = async () => { await leave(); location.hash = "#/"; };
  /** @type {any} */ (document.getElementById("quick-computer")).onclick = async () => {
    await leave();
    try {
      const r = await api("/api/tables", { rules: quick.rules, name: quick.name });
      enterTable(r);
    } catch (err) { toast(/** @type {Error} */ (err).message); }
  };
  const tick = async () => {
    if (!sessionStorage.getItem(QUICK)) return;
    try {
      const r = await api("/api/quick/poll", { ticket: quick.ticket });
      if (r.state === "matched") { enterTable(r); return; }
      state.textContent = t("quick.count", { n: r.waiting, players: r.players });
    } catch (err) {
      if (/** @type {any} */ (err).status === 404) { sessionStorage.removeItem(QUICK); state.textContent = t("quick.gone"); }
    }
  };
  await tick();
  poll("#/quick", tick);
}

/** The best players of a variant. @param {HTMLElement} app @param {string} variant */
async function leadersView(app, variant) {
  const data = await api(`/api/leaderboard?variant=${encodeURIComponent(variant)}`);
  const variants = [...new Set([variant, ...data.variants])];
  app.innerHTML = `<section class="panel leaders"><h1>${t("online.leaders")}</h1>
    <label>${t("form.variant")} <select id="leaders-variant">${variants.map((v) => `<option value="${esc(v)}" ${v === variant ? "selected" : ""}>${esc(variantName(v))}</option>`).join("")}</select></label>
    ${data.players.length ? `<table class="leaderboard" id="leaderboard"><thead><tr><th>#</th><th>${t("leaders.player")}</th><th>${t("leaders.rating")}</th><th>${t("leaders.games")}</th></tr></thead><tbody>
    ${data.players.map((/** @type {any} */ p, /** @type {number} */ i) => `<tr data-player="${esc(p.player)}"><td>${i + 1}</td><td><a href="#/player/${esc(p.player)}">${esc(p.name)}</a></td><td class="rating">${ratingText(p.rating)}</td><td>${p.games}</td></tr>`).join("")}</tbody></table>` : `<p>${t("leaders.none")}</p>`}
    <p class="note">${t("leaders.about")}</p></section>`;
  const sel = /** @type {HTMLSelectElement} */ (document.getElementById("leaders-variant"));
  sel.addEventListener("change", () => { location.hash = `#/leaders/${encodeURIComponent(sel.value)}`; });
}

/** A player's ratings and recent rated games. @param {HTMLElement} app @param {string} id */
async function playerView(app, id) {
  const p = await api(`/api/players/${encodeURIComponent(id)}`);
  app.innerHTML = `<section class="panel player"><h1>${esc(p.name)}</h1>
    <table class="ratings"><tbody>${p.ratings.map((/** @type {any} */ r) => `<tr><td><a href="#/leaders/${encodeURIComponent(r.variant)}">${esc(variantName(r.variant))}</a></td><td class="rating">${ratingText(r.rating)}</td><td>${t("leaders.ngames", { n: r.games })}</td></tr>`).join("")}</tbody></table>
    <h2>${t("player.recent")}</h2>
    ${p.games.length ? `<ul class="recent">${p.games.map((/** @type {any} */ g) => `<li>${esc(variantName(g.variant))} · ${g.rank === 0 ? t("player.won") : t("player.lost")} · ${ratingText(g.before)} → ${ratingText(g.after)} · ${g.seats.map((/** @type {any} */ s) => s.player ? `<a href="#/player/${esc(s.player)}">${esc(s.name)}</a>` : esc(s.name)).join(", ")} · <a href="#/replay/${esc(g.code)}">${t("nav.replay")}</a></li>`).join("")}</ul>` : `<p>${t("leaders.none")}</p>`}</section>`;
}

/** One's identity: name, the link to carry it to another device, forgetting it here.
 * @param {HTMLElement} app */
function meView(app) {
  const me = identity();
  if (!me) {
    app.innerHTML = `<section class="panel me"><h1>${t("me.title")}</h1><p>${t("me.about")}</p>
      <form id="me-new"><label>${t("form.name")} <input name="name" maxlength="40" value="${esc(localStorage.getItem("bezique.name") || "")}"></label>
      <button class="primary" type="submit" id="me-create">${t("me.create")}</button></form></section>`;
    /** @type {any} */ (document.getElementById("me-new")).addEventListener("submit", async (/** @type {any} */ e) => {
      e.preventDefault();
      try { await ensureIdentity(e.target.name.value); meView(app); } catch (err) { toast(/** @type {Error} */ (err).message); }
    });
    return;
  }
  app.innerHTML = `<section class="panel me"><h1>${t("me.title")}</h1>
    <p>${t("me.you", { name: esc(me.name) })} · <a href="#/player/${esc(me.id)}" id="me-page">${t("me.page")}</a></p>
    <p>${t("me.carry")}</p>
    <p><input id="me-link" readonly value="${esc(carryLink(me))}" aria-label="${t("me.carry")}"> <button id="me-copy">${t("me.copy")}</button></p>
    <p class="note">${t("me.secret")}</p>
    <p><button id="me-forget">${t("me.forget")}</button></p></section>`;
  /** @type {any} */ (document.getElementById("me-copy")).onclick = async () => {
    const input = /** @type {HTMLInputElement} */ (document.getElementById("me-link"));
    input.select();
    try { await navigator.clipboard.writeText(input.value); toast(t("me.copied")); } catch { /* selected: copy by hand */ }
  };
  /** @type {any} */ (document.getElementById("me-forget")).onclick = () => {
    if (confirm(t("me.forgetsure"))) { localStorage.removeItem(PLAYER); checking = null; meView(app); }
  };
}

/** A carried link opened: the key is checked with the server, then kept here.
 * @param {HTMLElement} app @param {string} key */
async function keyView(app, key) {
  try {
    const p = await api("/api/players/me", { key });
    localStorage.setItem(PLAYER, JSON.stringify({ id: p.id, key, name: p.name }));
    checking = null;
    history.replaceState(null, "", "#/me"); // the key leaves the address bar
    meView(app);
  } catch (err) {
    app.innerHTML = `<p class="error">${esc(/** @type {Error} */ (err).message)}</p>`;
  }
}
