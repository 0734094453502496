// The card table: one screen with the other players around it, the trick in the middle, the
// stock and turn-up beside it, every declared meld in front of its player, your hand fanned at
// the bottom and the scores always in sight.  The server is the authority: this draws the
// views it sends and sends action notation back.
import { backSVG, suitSymbol, sortCards, suitClass } from "./cards.js";
import { api, card, esc, label, meldName, named, saveSettings, settings, t, toast } from "./common.js";
import { clock, logLines, meldGroups, playAction, positions, seatName, sideNames, sideOf, soundsFor, whyNot } from "./logic.js";
import { glide, reduced, snapshot, sweep } from "./motion.js";
import { qrSVG } from "./qr.js";
import { coach } from "./tutorial.js";
import { play as playSounds, setSound } from "./sound.js";

const V = 1;
const app = /** @type {HTMLElement} */ (document.getElementById("app"));
/** @param {string} code */
export const tokenKey = (code) => `bezique.seat.${code}`;
/** Where this browser keeps a seat's personal link (a secret of that seat). @param {string} code */
export const linkKey = (code) => `bezique.link.${code}`;
/** A seat's personal link from its secret. @param {string} code @param {string} secret */
export const seatLink = (code, secret) => `${location.origin}/#/seat/${code}/${secret}`;

/**
 * @typedef {import("./logic.js").View} View
 * @typedef {import("./logic.js").TableInfo} TableInfo
 * @typedef {{ code: string, token: string|null, ws: WebSocket|null, left: boolean, retry: number,
 *   table: TableInfo|null, seat: number|null, view: View|null, match: any, move: number,
 *   pending: boolean, hint: any, review: any, showSummary: boolean, summaryDeal: number, reviewPly: number,
 *   panel: string, linger: { trick: Array<[number, string]>, winner: number, timer: any }|null,
 *   away: Map<number, number>, ticker: any, leave: () => void, send: (m: object) => void,
 *   onKey: (e: KeyboardEvent) => void }} State
 */

/** Open the table ``code``: connect, and draw each view the server sends.
 * @param {string} code @returns {State} */
export function tableView(code) {
  /** @type {State} */
  const s = {
    code, token: localStorage.getItem(tokenKey(code)), ws: null, left: false, retry: 0,
    table: null, seat: null, view: null, match: null, move: 0, pending: false,
    hint: null, review: null, showSummary: false, summaryDeal: -1, panel: "", linger: null, reviewPly: -1,
    away: new Map(), ticker: null,
    leave: () => {}, send: () => {}, onKey: () => {},
  };
  s.leave = () => {
    s.left = true;
    if (s.ws) s.ws.close();
    clearInterval(s.ticker);
    if (s.linger) clearTimeout(s.linger.timer);
    document.removeEventListener("keydown", s.onKey);
    document.body.classList.remove("at-table");
    document.title = "Bezique";
  };
  s.send = (msg) => { if (s.ws && s.ws.readyState === 1) s.ws.send(JSON.stringify({ v: V, ...msg })); };
  s.onKey = (e) => onKey(s, e);
  document.addEventListener("keydown", s.onKey);
  s.ticker = setInterval(() => tick(s), 500);
  app.innerHTML = `<p class="muted">${t("connecting")}</p>`;
  connect(s);
  return s;
}

/** @param {State} s */
function connect(s) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${s.code}`);
  s.ws = ws;
  ws.onopen = () => { s.retry = 0; ws.send(JSON.stringify({ type: "hello", v: V, token: s.token })); };
  ws.onmessage = (ev) => onMessage(s, JSON.parse(ev.data));
  ws.onclose = () => {
    if (s.left) return;
    s.pending = false;
    const wait = Math.min(8000, 500 * 2 ** s.retry++);
    setTimeout(() => { if (!s.left) connect(s); }, wait);
    const bar = document.getElementById("status");
    if (bar) bar.textContent = t("reconnecting");
  };
}

/** There is no such table: say so, and stop (no reconnecting). @param {State} s */
function noTable(s) {
  s.leave();
  noTableScreen(s.code);
}

/** The screen for a link to a table that does not exist. @param {string} code */
function noTableScreen(code) {
  app.innerHTML = `<section class="panel notable" id="no-table" role="alert"><h1>${t("notable.title")}</h1>
    <p>${t("notable.text", { code: esc(code) })}</p>
    <p><a class="button primary" href="#/" id="home-link">${t("notable.home")}</a></p></section>`;
  document.getElementById("home-link")?.focus();
}

/** Every seat's name as shown (computers by their translated names). @param {State} s */
function names(s) {
  const tb = s.table;
  if (!tb) return [];
  return tb.seats.map((x) => seatName(tb, x.seat, s.seat, t));
}

/** @param {State} s @param {any} m */
function onMessage(s, m) {
  if (s.left) return;
  if (m.type === "error") {
    s.pending = false;
    if (m.code === "no-table") { noTable(s); return; }
    if (m.code === "auth" && s.token) {
      // a stale token: watch instead
      localStorage.removeItem(tokenKey(s.code));
      s.token = null;
      toast(t("error.auth"));
      return;
    }
    toast(t("error." + m.code) === "error." + m.code ? m.message : t("error." + m.code));
    render(s);
    return;
  }
  if (m.type === "hint") { s.hint = m; render(s); return; }
  if (m.type === "review") { s.review = m; render(s); return; }
  if (m.type === "pong") return;
  if (m.table) {
    s.table = m.table;
    const now = performance.now();
    s.away.clear();
    for (const x of m.table.seats) if (x.takeover_in !== null && x.takeover_in !== undefined) s.away.set(x.seat, now + x.takeover_in * 1000);
  }
  if (m.type === "welcome") s.seat = m.seat;
  if (m.type === "update" && s.view && m.view && m.view.tricks.length > s.view.tricks.length) {
    // the trick just completed stays on the table a moment, then sweeps to its winner
    const last = m.view.tricks[m.view.tricks.length - 1];
    const trick = [...s.view.trick, [m.seat, m.action.split(/\s+/)[1]]];
    keepTrick(s, /** @type {Array<[number, string]>} */ (trick), last[2]);
  }
  if (m.type === "update" && m.view) playSounds(soundsFor(s.view, m.view, m.action, s.seat));
  if ("view" in m) {
    const before = s.view;
    s.view = m.view; s.match = m.match; s.move = m.move; s.pending = false;
    if (m.view && m.view.phase === "over" && m.match && s.summaryDeal !== m.match.deal) {
      s.showSummary = true;
      s.summaryDeal = m.match.deal;
      if (before) s.review = null;
    }
    if (m.view && m.view.phase !== "over") s.showSummary = false;
    if (!m.view || m.view.to_move !== s.seat) s.hint = null;
  }
  render(s);
}

/** @param {State} s @param {Array<[number, string]>} trick @param {number} winner */
function keepTrick(s, trick, winner) {
  if (s.linger) clearTimeout(s.linger.timer);
  const ms = 1000 * Math.min(2, Math.max(0.6, settings.speed || 1));
  const linger = { trick, winner, timer: /** @type {any} */ (null) };
  linger.timer = setTimeout(async () => {
    const el = /** @type {HTMLElement|null} */ (app.querySelector(".trick.lingering"));
    const to = document.querySelector(`[data-zone="seat-${winner}"]`)?.getBoundingClientRect();
    if (el) await sweep(el, to, settings.speed);
    if (s.linger === linger) { s.linger = null; render(s); }
  }, ms);
  s.linger = linger;
}

/** The countdowns of away seats, and the tab title. @param {State} s */
function tick(s) {
  const now = performance.now();
  document.querySelectorAll("[data-countdown]").forEach((el) => {
    const at = s.away.get(Number(/** @type {HTMLElement} */ (el).dataset.countdown));
    el.textContent = at === undefined ? "" : clock((at - now) / 1000);
  });
}

// --- drawing ---------------------------------------------------------------------------------
/** @param {State} s @param {View} v @param {number} seat @param {boolean} mine */
function meldsHTML(s, v, seat, mine) {
  const myTurn = mine && !s.pending && v.phase === "play" && v.to_move === s.seat;
  const groups = meldGroups(v, seat);
  if (!groups.length) return "";
  return groups.map((g) => {
    const cards = g.cards.map((c) => {
      if (c.again) return `<span class="again" title="${esc(label(c.code))}">${esc(label(c.code))}</span>`;
      const action = myTurn ? playAction(v, c.ref, true) : null;
      return card(c.ref, { action, blocked: myTurn, size: mine ? "meldcard" : "small", aria: `${label(c.code)} (${meldName(g.name)})` });
    }).join("");
    const title = g.name ? `${esc(meldName(g.name))} <b>${g.points}</b>` : "";
    return `<div class="meld${g.cards.length ? "" : " gone"}" data-testid="meld" data-meld="${esc(g.name)}"><div class="mlabel">${title}</div><div class="mcards">${cards}</div></div>`;
  }).join("");
}

/** @param {State} s @param {View} v @param {number} x @param {string} pos @param {string[]} n */
function seatHTML(s, v, x, pos, n) {
  const tb = /** @type {TableInfo} */ (s.table);
  const info = tb.seats[x];
  const mine = x === s.seat;
  const side = sideOf(tb, x);
  const partner = tb.partnerships && s.seat !== null && !mine && x % 2 === s.seat % 2;
  const turn = v.to_move === x && v.phase !== "over";
  const badges = [];
  if (info.kind === "bot") badges.push(`<span class="badge bot" title="${esc(t("form.computer"))}">${esc(t("badge.computer", { level: named("level.", info.level || "") }))}</span>`);
  if (mine && info.name && info.name !== t("you")) badges.push(`<span class="badge you">${t("you")}</span>`);
  if (partner) badges.push(`<span class="badge partner">${t("badge.partner")}</span>`);
  if (x === v.dealer) badges.push(`<span class="badge dealer" title="${esc(t("dealer"))}">${t("badge.dealer")}</span>`);
  if (info.kind === "human" && !info.connected) {
    badges.push(info.computer
      ? `<span class="badge away">${t("table.computer")}</span>`
      : `<span class="badge away">${t("badge.away")}${s.away.has(x) ? ` · ${t("badge.takeover")} <span data-countdown="${x}"></span>` : ""}</span>`);
  }
  const concealed = v.hand_sizes[x] - v.tables[x].length;
  // the cards of the hand known to all are drawn face up beside the backs: not twice
  const unknown = Math.max(0, concealed - (mine ? 0 : v.known[x].length));
  const backs = mine && s.seat !== null ? "" : `<div class="backs" aria-label="${t("aria.backs", { n: concealed })}">${Array.from({ length: Math.min(unknown, pos === "bottom" || pos === "top" ? 12 : 6) }, () => `<span class="card back tiny">${backSVG()}</span>`).join("")}<span class="count">${concealed}</span></div>`;
  const known = v.known[x].length && !mine ? `<div class="known"><span class="lbl">${t("known")}</span>${v.known[x].map((c) => card(c, { size: "tiny" })).join("")}</div>` : "";
  return `<section class="seat pos-${pos} side-${side}${turn ? " turn" : ""}${mine ? " mine" : ""}" data-testid="seat-${x}" data-zone="seat-${x}" aria-label="${esc(n[x])}">
    <div class="plate"><span class="pname">${esc(mine ? (info.name || t("you")) : n[x])}</span>${badges.join("")}${turn ? `<span class="turnmark">${t("turn")}</span>` : ""}</div>
    <div class="seatbody">${backs}<div class="melds" data-zone="melds-${x}">${meldsHTML(s, v, x, mine)}</div>${known}</div></section>`;
}

/** @param {State} s @param {View} v @param {string[]} pos @param {string[]} n */
function centreHTML(s, v, pos, n) {
  const tb = /** @type {TableInfo} */ (s.table);
  const trump = v.trump ? `<span class="trumpsuit ${suitClass(v.trump, settings.fourColour)}">${suitSymbol(v.trump)}</span>` : `<span class="muted">${t("trump.none")}</span>`;
  const pile = v.stock_size ? `<span class="pile">${Array.from({ length: Math.min(3, Math.ceil(v.stock_size / 8)) }, () => `<span class="card back">${backSVG()}</span>`).join("")}</span>` : "";
  const stock = `<div class="stock" data-testid="stock" data-zone="stock">
    <div class="stackwrap">${v.turn_up ? `<span class="turnup">${card(v.turn_up)}</span>` : ""}${pile}</div>
    <div class="stockinfo">${v.stock_size !== null ? `<span>${t("stock")}: <b id="stock">${v.stock_size}</b></span>` : ""}<span>${t("trump")}: ${trump}</span>
    <span class="muted">${t("tricknum", { n: Math.min(v.tricks.length + 1, v.tricks_total), of: v.tricks_total })} · ${t("stage", { n: v.stage })}</span></div></div>`;
  let cards = v.trick, cls = "", caption = "";
  if (!cards.length && s.linger) {
    cards = s.linger.trick; cls = " lingering";
    caption = `<div class="trickcap">${t("trick.won", { name: esc(n[s.linger.winner]) })}</div>`;
  }
  const slots = cards.map(([st, c]) => `<div class="slot pos-${pos[st]}" data-zone="trick-${st}">${card(c)}<span class="who">${esc(n[st])}</span></div>`).join("");
  const trick = `<div class="trick${cls} n${tb.players}" id="trick" data-testid="trick" aria-label="${t("trick")}">${slots}${caption}</div>`;
  return `<div class="centre">${trick}${stock}</div>`;
}

/** The declaration choices: a strip just above the hand, so the trick, the stock and the
 * turn-up they speak of stay in sight. @param {State} s @param {View} v */
function declareHTML(s, v) {
  const myTurn = s.seat !== null && v.to_move === s.seat && v.phase === "declare" && !s.pending;
  if (!myTurn) return "";
  const choices = v.legal.filter((l) => l.action !== "pass");
  return `<div class="declare" id="declare" role="group" aria-label="${t("declare.title")}"><div class="choices">${choices.map((l, i) => {
    const p = l.action.split(/\s+/);
    const text = p[0] === "meld" ? meldName(p[1]) : actionText(l.action);
    const cards = p[0] === "meld" ? p.slice(2).map((c) => card(c, { size: "tiny" })).join("") : "";
    return `<button class="decl" data-action="${esc(l.action)}"><kbd>${i + 1}</kbd> <span>${esc(text)}</span> <span class="row">${cards}</span>${l.points !== null ? ` <b>+${l.points}</b>` : ""}</button>`;
  }).join("")}<button class="decl pass" data-action="pass" id="pass"><kbd>P</kbd> ${t("act.pass")}</button></div></div>`;
}

/** @param {string} a */
export function actionText(a) {
  const p = a.split(/\s+/);
  if (p[0] === "play") return t("act.play", { card: label(p[1]) });
  if (p[0] === "meld") return `${meldName(p[1])} ${p.slice(2).map(label).join(" ")}`;
  if (p[0] === "exchange") return t("act.exchange", { card: label(p[1]) });
  if (p[0] === "pass") return t("act.pass");
  if (p[0] === "partner") return t("act.partner");
  return a;
}

/** A review item in words: the trick it belongs to (a declaration: the trick just won), and
 * what was played or declared against what the computer suggests. @param {any} item */
function reviewText(item) {
  const verb = String(item.played).split(/\s+/)[0];
  const won = item.view ? item.view.tricks.length : 0;
  const key = verb === "play" ? "review.item" : verb === "pass" ? "review.itempass" : "review.itemdeclare";
  return t(key, { n: verb === "play" ? won + 1 : Math.max(won, 1), played: esc(moveText(item.played)), suggested: esc(moveText(item.suggested)) });
}

/** A move as a review item names it: a card played by its name ("A♠", not "play A♠"),
 * anything else as the log words it. @param {string} a */
function moveText(a) {
  return a.startsWith("play ") ? label(a.split(/\s+/)[1].split("@")[0]) : actionText(a);
}

/** @param {State} s @param {View} v @param {string[]} n */
function scoresHTML(s, v, n) {
  const tb = /** @type {TableInfo} */ (s.table), m = s.match;
  const sides = sideNames(tb, n);
  const mySide = s.seat === null ? -1 : sideOf(tb, s.seat);
  const g = m.games;
  // a match of games (cent points): each side's count of games won, towards the count needed
  const games = g ? `<span class="games" id="match-counter" title="${esc(t("games.title", { n: g.needed }))}">${t("games.label")} ${g.counts.map((/** @type {number} */ c, /** @type {number} */ i) => `<b class="side-${i}">${c}</b>`).join("–")}<small>/${g.needed}</small></span>` : "";
  return `<div class="scores" data-testid="scores" aria-label="${t("scores")}"><span class="dealno">${t("scores.deal", { n: m.deal + 1 })}</span>${games}${sides.map((nm, i) => `<span class="score side-${i}${i === mySide ? " myside" : ""}"><b>${esc(nm)}</b> <span class="pts">${v.points[i]}</span> <small title="${t("scores.match")}">${m.scores[i]}<span class="tgt">/${m.target}</span></small></span>`).join("")}</div>`;
}

/** @param {State} s @param {View} v @param {string[]} n */
function panelsHTML(s, v, n) {
  if (s.panel === "log") {
    const lines = logLines(v, n, t, meldName, label);
    return `<aside class="drawer" id="log-panel" aria-label="${t("log.title")}"><h3>${t("log.title")}</h3><ol class="log" id="log" data-zone="log">${lines.map((l) => `<li>${esc(l)}</li>`).join("") || `<li class="muted">${t("log.empty")}</li>`}</ol></aside>`;
  }
  if (s.panel === "last" && v.tricks.length) {
    const [ld, cs, w] = v.tricks[v.tricks.length - 1];
    const n2 = /** @type {TableInfo} */ (s.table).players;
    return `<aside class="drawer" id="last-trick" data-zone="lasttrick"><h3>${t("lasttrick", { name: esc(n[w]) })}</h3><div class="row">${cs.map((c, i) => `<figure>${card(c, { size: "small" })}<figcaption>${esc(n[(ld + i) % n2])}</figcaption></figure>`).join("")}</div></aside>`;
  }
  if (s.panel === "seatlink") {
    const secret = localStorage.getItem(linkKey(s.code));
    const link = secret ? seatLink(s.code, secret) : "";
    return `<aside class="drawer" id="seatlink-panel"><h3>${t("seatlink.title")}</h3><p>${t("seatlink.about")}</p>
      ${link ? `<input id="seat-link" readonly value="${esc(link)}" aria-label="${t("seatlink.title")}">
      <div class="qrbox">${qrSVG(link, t("seatlink.qr"))}</div>
      <div class="buttons"><button id="copy-seat-link">${t("seatlink.copy")}</button><button id="renew-seat-link">${t("seatlink.renew")}</button></div>
      <p class="muted small">${t("seatlink.renewabout")}</p>` : `<p class="muted">${t("connecting")}</p>`}</aside>`;
  }
  if (s.panel === "settings") {
    const speeds = [[0, "speed.off"], [0.5, "speed.fast"], [1, "speed.normal"], [1.6, "speed.slow"]];
    // the site's header is hidden at the table: its language choice moves here
    const langs = document.getElementById("lang");
    const lang = langs ? `<label>${t("language")} <select id="set-lang">${langs.innerHTML}</select></label>` : "";
    return `<aside class="drawer" id="settings-panel"><h3>${t("settings.title")}</h3>${lang}
      <label>${t("settings.speed")} <select id="set-speed">${speeds.map(([x, k]) => `<option value="${x}" ${settings.speed === x ? "selected" : ""}>${t(String(k))}</option>`).join("")}</select></label>
      <label class="check"><input type="checkbox" id="set-four" ${settings.fourColour ? "checked" : ""}> ${t("settings.four")}</label>
      <label class="check"><input type="checkbox" id="set-sound" ${settings.sound ? "checked" : ""}> ${t("settings.sound")}</label></aside>`;
  }
  return "";
}

/** Draw the table again from the state. @param {State} s */
export function render(s) {
  if (s.left) return;
  const tb = s.table, v = s.view;
  if (!tb) return;
  const n = names(s);
  const link = `${location.origin}/#/join/${s.code}`;
  const active = /** @type {HTMLElement|null} */ (document.activeElement);
  const focused = active?.dataset?.action || active?.id;
  document.body.classList.add("at-table");
  const bar = `<a class="tool home" href="#/" aria-label="${t("nav.play")}">Bezique</a><span class="code"><span class="codelbl">${t("table.code")}</span> <strong id="table-code">${esc(s.code)}</strong></span>
    <button id="copy-link" class="tool" data-link="${esc(link)}" aria-label="${t("table.copy")}"><svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><path d="M6.6 9.4l2.8-2.8M7.3 4.7l1.4-1.4a2.6 2.6 0 013.7 3.7L11 8.4M8.7 11.3l-1.4 1.4a2.6 2.6 0 01-3.7-3.7L5 7.6"/></svg> <span class="tl">${t("table.copy")}</span></button>`;
  if (tb.status === "waiting" || !v) {
    app.innerHTML = `<div class="bar">${bar}</div><section class="panel"><h2>${t("table.waiting")}</h2><p>${t("table.share")}</p><p><code>${esc(link)}</code></p>
      <div class="seats">${tb.seats.map((x) => `<span class="seat-pill ${x.kind === "human" && x.connected ? "on" : "off"}">${esc(n[x.seat])}</span>`).join("")}</div>
      ${s.seat === tb.host ? `<p><button class="primary" id="start">${t("table.start")}</button></p>` : ""}</section>`;
    bind(s);
    return;
  }
  const me = s.seat;
  const myTurn = me !== null && v.to_move === me && v.phase !== "over";
  const pos = positions(tb.players, me);
  let html = `<div class="table-screen players-${tb.players}${myTurn ? " myturn" : ""}">`;
  html += `<div class="bar">${bar}${scoresHTML(s, v, n)}<span class="tools">
    <button class="tool" id="last-btn" aria-label="${t("tool.last")}" aria-pressed="${s.panel === "last"}" ${v.tricks.length ? "" : "disabled"}><span aria-hidden="true">↶</span> <span class="tl">${t("tool.last")}</span></button>
    <button class="tool" id="log-btn" aria-label="${t("tool.log")}" aria-pressed="${s.panel === "log"}"><span aria-hidden="true">☰</span> <span class="tl">${t("tool.log")}</span></button>
    <button class="tool" id="sound-btn" aria-pressed="${settings.sound}" aria-label="${t("settings.sound")}" title="${t(settings.sound ? "sound.on" : "sound.off")}"><svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><path d="M2.5 6h2.5l3.5-3v10l-3.5-3h-2.5z"/>${settings.sound ? `<path d="M11 5.5a3.5 3.5 0 010 5M12.8 3.8a6 6 0 010 8.4"/>` : `<path d="M11 6l3.5 4M14.5 6l-3.5 4"/>`}</svg></button>
    ${me !== null && s.token ? `<button class="tool" id="seatlink-btn" aria-pressed="${s.panel === "seatlink"}" aria-label="${t("seatlink.title")}" title="${t("seatlink.title")}"><svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><circle cx="5" cy="8" r="3"/><path d="M8 8h7M12.5 8v2.5M14.5 8v2"/></svg></button>` : ""}
    <button class="tool" id="settings-btn" aria-pressed="${s.panel === "settings"}" aria-label="${t("settings.title")}"><span aria-hidden="true">⚙</span></button>
    <a class="tool" href="#/rules/${encodeURIComponent(tb.rules)}" aria-label="${t("nav.rules")}">?</a></span></div>`;
  html += `<div class="felt">`;
  for (let x = 0; x < tb.players; x++) html += seatHTML(s, v, x, pos[x], n);
  html += centreHTML(s, v, pos, n);
  html += panelsHTML(s, v, n);
  html += `</div>`;
  // the status line: whose turn, who is away and when the computer takes over
  let status;
  if (v.phase === "over") status = t("status.over");
  else if (myTurn) status = v.phase === "declare" ? t("status.declare") : (v.trick.length ? t("status.follow") : t("status.lead"));
  else status = t("status.waiting", { name: n[v.to_move ?? 0] ?? "" });
  const away = [...s.away.keys()].filter((x) => x !== me).map((x) => `<span class="awaynote">${t("status.away", { name: esc(n[x]) })} <span data-countdown="${x}"></span></span>`).join("");
  html += `<div class="statusrow"><div id="status" data-testid="status" class="status ${myTurn ? "mine" : ""}" role="status" aria-live="polite">${esc(status)}</div>${away}`;
  if (me !== null && tb.hints && myTurn) html += `<button id="hint-btn" class="tool">${t("hint.ask")} <kbd>H</kbd></button>`;
  if (v.phase === "over") html += `<button id="show-summary" class="tool">${t("summary.show")}</button>`;
  if (s.hint && s.hint.move === s.move) html += `<span class="hint" id="hint">${t("hint.says", { action: esc(actionText(s.hint.action)) })}</span>`;
  html += `</div>`;
  if (me !== null) {
    const hand = sortCards(v.hand);
    const canPlay = myTurn && !s.pending && v.phase === "play";
    html += declareHTML(s, v);
    html += `<div class="hand${canPlay ? " live" : ""}" id="hand" data-testid="hand" data-zone="hand" aria-label="${t("hand")}">${hand.map((c) => card(c, { action: canPlay ? playAction(v, c, false) : null, blocked: canPlay })).join("")}</div>`;
  }
  if (v.phase === "over" && s.showSummary) html += summaryHTML(s);
  html += `</div>`;
  const before = snapshot(app);
  app.innerHTML = html;
  fan();
  bind(s);
  glide(app, before, settings.speed, (zone) => {
    if (zone === "hand") return "stock";
    const seat = zone.match(/^(?:trick|melds)-(\d)$/);
    return seat ? `seat-${seat[1]}` : null;
  });
  tick(s);
  coach(s, app, () => render(s)); // the guided first deal's notes, at its table only
  // the moment the first table was drawn (benchmarks/web_paint.py reads it)
  if (!performance.getEntriesByName("bezique:table").length) performance.mark("bezique:table");
  document.title = myTurn ? `● ${t("title.turn")} · Bezique` : v.phase === "over" ? `${t("status.over")} · Bezique` : "Bezique";
  // keep the keyboard where it was
  let el = focused ? app.querySelector(`[data-action="${CSS.escape(focused)}"]`) || document.getElementById(focused) : null;
  if (!el && myTurn) el = app.querySelector("#declare .decl, #hand .playable, .mine .playable");
  if (!el && v.phase === "over" && s.showSummary) el = document.getElementById("next-deal") || document.getElementById("close-summary");
  if (el) /** @type {HTMLElement} */ (el).focus({ preventScroll: true });
}

/** Spread the hand: each card's place in the fan, set through the style object (the server's
 * Content-Security-Policy refuses style attributes in the page's markup). */
function fan() {
  const hand = document.getElementById("hand");
  if (!hand) return;
  const cards = hand.querySelectorAll(".card");
  hand.style.setProperty("--k", String(Math.max(cards.length, 1)));
  cards.forEach((c, i) => /** @type {HTMLElement} */ (c).style.setProperty("--i", String(i)));
}

/** @param {State} s */
function summaryHTML(s) {
  const m = s.match;
  if (!m || !m.deals.length) return "";
  const d = m.deals[m.deals.length - 1];
  const sides = sideNames(/** @type {TableInfo} */ (s.table), names(s));
  const row = (/** @type {string} */ key, /** @type {(r: any) => any} */ f) => `<tr><th scope="row">${t(key)}</th>${d.result.map((/** @type {any} */ r) => `<td>${f(r)}</td>`).join("")}</tr>`;
  const over = m.winner !== null;
  let html = `<div class="overlay" role="dialog" aria-modal="true" aria-labelledby="sum-title"><div class="panel summary">
    <h2 id="sum-title">${t("summary.title", { n: m.deals.length })}</h2>
    <table><thead><tr><th></th>${sides.map((nm, i) => `<th scope="col" class="side-${i}">${esc(nm)}</th>`).join("")}</tr></thead><tbody>
    ${row("summary.melds", (r) => r.melds)}${row("summary.tricks", (r) => r.tricks)}${row("summary.last", (r) => r.last_trick)}
    ${d.result.some((/** @type {any} */ r) => r.bonuses) ? row("summary.bonuses", (r) => r.bonuses) : ""}
    ${d.result.some((/** @type {any} */ r) => r.brisques) ? row("summary.brisques", (r) => r.brisques) : ""}
    <tr class="total"><th scope="row">${t("summary.deal")}</th>${d.points.map((/** @type {number} */ p) => `<td>${p}</td>`).join("")}</tr>
    ${d.payout ? `<tr><th scope="row">${t("summary.payout")}${d.rubicon ? " · " + t("summary.rubicon") : ""}</th>${d.payout.map((/** @type {number} */ p) => `<td>${p}</td>`).join("")}</tr>` : ""}
    <tr class="total"><th scope="row">${t(m.games ? "summary.gamescore" : "summary.match")}</th>${m.scores.map((/** @type {number} */ p) => `<td>${p}</td>`).join("")}</tr>
    ${gamesRows(m)}
    </tbody></table>
    ${gameLine(m, sides)}
    <p>${over ? `<strong id="match-result">${t("summary.winner", { name: esc(sides[m.winner]) })}</strong>` : m.games ? t("summary.progressgames", { n: m.games.needed }) : t("summary.progress", { target: m.target })}</p>
    <div class="buttons">`;
  if (s.seat !== null) html += `<button id="review-btn">${t("summary.review")}</button>`;
  if (over) {
    html += `<a class="button" id="download" href="/api/tables/${esc(s.code)}/record" download>${t("summary.download")}</a>
      <a class="button" href="#/replay/${esc(s.code)}">${t("nav.replay")}</a>`;
    if (s.seat !== null && s.token) html += `<button class="primary" id="next-match">${t("summary.nextmatch")}</button>`;
    html += `<a class="button${s.seat !== null && s.token ? "" : " primary"}" href="#/">${t("summary.again")}</a>`;
  } else if (s.seat !== null) {
    const ready = m.ready[s.seat];
    html += `<button class="primary" id="next-deal" ${ready ? "disabled" : ""}>${ready ? t("summary.waiting") : t("summary.next")}</button>`;
  }
  html += `<button id="close-summary">${t("summary.close")}</button></div>`;
  if (s.review && s.review.deal === m.deals.length - 1) {
    html += s.review.items.length
      ? `<h3>${t("review.title")}</h3><ul class="review">${s.review.items.map((/** @type {any} */ i) => `<li><button class="linkish" data-review-ply="${i.ply}" aria-expanded="${s.reviewPly === i.ply}">${reviewText(i)}</button>${s.reviewPly === i.ply ? reviewPositionHTML(s, i) : ""}</li>`).join("")}</ul>`
      : `<p>${t("review.none")}</p>`;
  }
  return html + `</div></div>`;
}

/** A match of games: each side's count of games, and the handicap any side starts on.
 * @param {any} m */
function gamesRows(m) {
  const g = m.games;
  if (!g) return "";
  const cells = (/** @type {number[]} */ xs) => xs.map((x) => `<td>${x}</td>`).join("");
  let html = `<tr class="total games-row"><th scope="row">${t("summary.games", { n: g.needed })}</th>${cells(g.counts)}</tr>`;
  if (g.handicap.some((/** @type {number} */ h) => h > 0)) html += `<tr><th scope="row">${t("summary.handicap")}</th>${cells(g.handicap)}</tr>`;
  return html;
}

/** The game the deal just finished, if it finished one (and whether en bas table).
 * @param {any} m @param {string[]} sides */
function gameLine(m, sides) {
  const g = m.games;
  const last = g && g.played.length ? g.played[g.played.length - 1] : null;
  if (!last || last.last_deal !== m.deal) return "";
  const key = last.double ? "summary.gamedouble" : "summary.game";
  return `<p class="gameline${last.double ? " double" : ""}" id="game-result">${t(key, { name: esc(sides[last.winner]), n: g.played.length })}</p>`;
}

/** @param {State} s */
function bind(s) {
  app.querySelectorAll("[data-action]").forEach((b) => b.addEventListener("click", () => act(s, /** @type {HTMLElement} */ (b).dataset.action || "")));
  app.querySelectorAll("[data-blocked]").forEach((b) => b.addEventListener("click", () => explain(s, /** @type {HTMLElement} */ (b))));
  const on = (/** @type {string} */ id, /** @type {(e: Event) => void} */ f) => { const e = document.getElementById(id); if (e) e.addEventListener("click", f); };
  const toggle = (/** @type {string} */ name) => () => { s.panel = s.panel === name ? "" : name; render(s); };
  on("copy-link", (e) => { navigator.clipboard?.writeText(/** @type {HTMLElement} */ (e.currentTarget).dataset.link || "").then(() => toast(t("table.copied")), () => {}); });
  on("start", () => s.send({ type: "start" }));
  on("hint-btn", () => s.send({ type: "hint", move: s.move }));
  on("next-deal", () => { s.send({ type: "ready", deal: s.match.deal }); });
  on("close-summary", () => { s.showSummary = false; render(s); });
  on("show-summary", () => { s.showSummary = true; render(s); });
  on("review-btn", () => s.send({ type: "review", deal: s.match.deal }));
  on("next-match", () => nextMatch(s));
  on("log-btn", toggle("log"));
  on("last-btn", toggle("last"));
  on("settings-btn", toggle("settings"));
  on("seatlink-btn", () => { toggle("seatlink")(); if (s.panel === "seatlink" && !localStorage.getItem(linkKey(s.code))) renewLink(s); });
  on("renew-seat-link", () => renewLink(s));
  on("copy-seat-link", () => {
    const secret = localStorage.getItem(linkKey(s.code));
    if (secret) navigator.clipboard?.writeText(seatLink(s.code, secret)).then(() => toast(t("table.copied")), () => {});
  });
  document.getElementById("set-speed")?.addEventListener("change", (e) => { settings.speed = Number(/** @type {HTMLSelectElement} */ (e.target).value); saveSettings(); });
  const sound = (/** @type {boolean} */ on) => { setSound(on); saveSettings(); render(s); };
  document.getElementById("set-sound")?.addEventListener("change", (e) => sound(/** @type {HTMLInputElement} */ (e.target).checked));
  on("sound-btn", () => sound(!settings.sound));
  const setLang = /** @type {HTMLSelectElement|null} */ (document.getElementById("set-lang"));
  const siteLang = /** @type {HTMLSelectElement|null} */ (document.getElementById("lang"));
  if (setLang && siteLang) {
    setLang.value = siteLang.value;
    setLang.addEventListener("change", () => { siteLang.value = setLang.value; siteLang.dispatchEvent(new Event("change")); });
  }
  document.getElementById("set-four")?.addEventListener("change", (e) => { settings.fourColour = /** @type {HTMLInputElement} */ (e.target).checked; saveSettings(); render(s); });
  app.querySelectorAll("[data-review-ply]").forEach((b) => b.addEventListener("click", () => {
    const ply = Number(/** @type {HTMLElement} */ (b).dataset.reviewPly);
    s.reviewPly = s.reviewPly === ply ? -1 : ply;
    render(s);
  }));
}

/** The position a review item speaks of, as the reviewing seat saw it then (the server sends
 * that seat's own view with the item, so nothing hidden can show): the trick as it lay, the
 * scores, every player's melds on the table and the hand held, with the card played and the
 * card suggested marked; once the match is over, a link to that very step of the replay.
 * @param {State} s @param {any} item */
function reviewPositionHTML(s, item) {
  const v = /** @type {View|undefined} */ (item.view), tb = s.table;
  if (!v || !tb) return "";
  const n = names(s);
  const sides = sideNames(tb, n);
  const cardOf = (/** @type {string} */ a) => (a.startsWith("play ") ? a.split(/\s+/)[1] : "");
  const played = cardOf(item.played), suggested = cardOf(item.suggested);
  const marks = { played: false, suggested: false };
  /** A card of the position, marked when it is the one played or the one suggested. @param {string} ref */
  const mark = (ref) => {
    const code = ref.split("@")[0];
    const tags = [];
    if (!marks.played && played && ref === played) { marks.played = true; tags.push(["played", t("review.yours")]); }
    else if (!marks.suggested && suggested && ref === suggested) { marks.suggested = true; tags.push(["suggested", t("review.better")]); }
    const cls = tags.map(([c]) => c).join(" ");
    return `<figure class="${cls}">${card(code, { size: "tiny" })}${tags.length ? `<figcaption>${tags.map(([, l]) => esc(l)).join(" ")}</figcaption>` : ""}</figure>`;
  };
  const trick = v.trick.map(([st, c]) => `<figure>${card(c, { size: "tiny" })}<figcaption>${esc(n[st] ?? "")}</figcaption></figure>`).join("");
  const melds = Array.from({ length: tb.players }, (_, x) => {
    const groups = meldGroups(v, x);
    if (!groups.length) return "";
    return `<div class="rmelds"><span class="lbl">${esc(n[x] ?? "")}</span>${groups.map((g) => `<span class="rmeld">${esc(meldName(g.name))} <b>${g.points}</b> ${g.cards.map((c) => (x === v.seat ? mark(c.ref) : `<figure>${card(c.code, { size: "tiny" })}</figure>`)).join("")}</span>`).join("")}</div>`;
  }).join("");
  const hand = sortCards(v.hand).map(mark).join("");
  const trump = v.trump ? suitSymbol(v.trump) : t("trump.none");
  let html = `<div class="reviewpos"><div class="rfacts">${t("trump")}: ${trump}${v.stock_size !== null ? ` · ${t("stock")}: ${v.stock_size}` : ""} · ${t("tricknum", { n: Math.min(v.tricks.length + 1, v.tricks_total), of: v.tricks_total })} · ${sides.map((nm, i) => `${esc(nm)} ${v.points[i]}`).join(" / ")}</div>`;
  html += `<div class="lbl">${t("trick")}</div><div class="row rtrick">${trick || "–"}</div>${melds}`;
  html += `<div class="lbl">${t("hand")}</div><div class="row rhand">${hand}</div>`;
  const m = s.match;
  if (m && m.winner !== null) html += `<a href="#/replay/${esc(s.code)}/${m.deals.length - 1}/${item.ply}">${t("nav.replay")}</a>`;
  return html + `</div>`;
}

/** A new personal link for this seat (the server ends the old one); kept in this browser.
 * @param {State} s */
async function renewLink(s) {
  try {
    const r = await api(`/api/tables/${encodeURIComponent(s.code)}/seat-link`, { token: s.token });
    localStorage.setItem(linkKey(s.code), r.link);
    if (s.panel === "seatlink") render(s);
  } catch (err) { toast(/** @type {Error} */ (err).message); }
}

/** The next match after this one, at a new table with the same players (in a match of
 * games with a handicap, the loser starts its games on it). @param {State} s */
async function nextMatch(s) {
  try {
    const r = await api(`/api/tables/${encodeURIComponent(s.code)}/next-match`, { token: s.token });
    localStorage.setItem(tokenKey(r.code), r.token);
    location.hash = `#/t/${r.code}`;
  } catch (err) { toast(/** @type {Error} */ (err).message); }
}

/** A card that may not be played was clicked: say why, in the player's language, and give
 * the card a small shake (none when the system asks for reduced motion).
 * @param {State} s @param {HTMLElement} el */
function explain(s, el) {
  const v = s.view;
  if (!v) return;
  const why = whyNot(v, el.dataset.card || "");
  if (!why) return;
  const text = t(why.key, { suit: why.suit ? suitSymbol(why.suit) : "" });
  toast(text);
  const status = document.getElementById("status");
  if (status) status.textContent = text;
  if (!reduced() && settings.speed > 0 && typeof el.animate === "function") {
    el.animate([{ transform: "translateX(0)" }, { transform: "translateX(-5px)" }, { transform: "translateX(5px)" }, { transform: "translateX(-3px)" }, { transform: "translateX(0)" }],
      { duration: 320, easing: "ease-out" });
  }
}

/** @param {State} s @param {string} action */
function act(s, action) {
  if (s.pending) return;
  s.pending = true;
  s.hint = null;
  s.send({ type: "action", move: s.move, action });
  render(s);
}

/** @param {State} s @param {KeyboardEvent} e */
function onKey(s, e) {
  const target = /** @type {HTMLElement|null} */ (e.target);
  if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
  const v = s.view;
  if (!v) return;
  const myTurn = s.seat !== null && v.to_move === s.seat && v.phase !== "over";
  const key = e.key.toLowerCase();
  const click = (/** @type {string} */ sel) => /** @type {HTMLElement|null} */ (document.querySelector(sel))?.click();
  if (myTurn && v.phase === "declare") {
    const choices = app.querySelectorAll("#declare .decl:not(.pass)");
    if (/^[1-9]$/.test(key) && choices[Number(key) - 1]) { e.preventDefault(); /** @type {HTMLElement} */ (choices[Number(key) - 1]).click(); return; }
    if (key === "p") { e.preventDefault(); click("#pass"); return; }
  }
  if (key === "h" && myTurn) { click("#hint-btn"); return; }
  if (key === "n" && v.phase === "over") { click("#next-deal"); return; }
  if (key === "l") { click("#last-btn"); return; }
  if (key === "m") { click("#sound-btn"); return; }
  if (key === "escape") {
    if (s.showSummary) { s.showSummary = false; render(s); return; }
    if (s.panel) { s.panel = ""; render(s); return; }
  }
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    const items = /** @type {HTMLElement[]} */ ([...app.querySelectorAll(".playable, .decl")]);
    if (!items.length) return;
    const i = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    const next = e.key === "ArrowRight" ? (i + 1) % items.length : (i - 1 + items.length) % items.length;
    items[i < 0 ? 0 : next].focus();
    e.preventDefault();
  }
}

/** Ask first whether the table is there, so a wrong link gets its screen at once (and never
 * a reconnecting loop); null when there is none.
 * @param {string} code @returns {Promise<State|null>} */
export async function openTable(code) {
  try {
    await api(`/api/tables/${encodeURIComponent(code)}`);
  } catch (e) {
    if (/** @type {any} */ (e).status === 404) {
      noTableScreen(code);
      return null;
    }
  }
  return tableView(code);
}
