// The bezique browser client: no build step, plain modules.  The server is the authority:
// this page shows the views it is sent and sends action notation back.
import { cardSVG, backSVG, label, sortCards, suitSymbol } from "./cards.js";

const LANGS = ["en", "fr", "ru", "el", "kk", "bs"];
const V = 1;
let strings = {}, fallback = {};
let lang = "en";
const app = document.getElementById("app");

// --- i18n ---------------------------------------------------------------------------------
function pickLang() {
  const saved = localStorage.getItem("bezique.lang");
  if (saved && LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const short = (l || "").slice(0, 2).toLowerCase();
    if (LANGS.includes(short)) return short;
    if (["hr", "sr"].includes(short)) return "bs";
  }
  return "en";
}
async function loadLang(l) {
  const get = async (x) => (await fetch(`/static/i18n/${x}.json`)).json();
  if (!Object.keys(fallback).length) fallback = await get("en");
  strings = l === "en" ? fallback : await get(l);
  lang = l;
  document.documentElement.lang = l;
  document.getElementById("lang").value = l;
  document.querySelectorAll("[data-i18n]").forEach((e) => { e.textContent = t(e.dataset.i18n); });
}
function t(key, params = {}) {
  let s = strings[key] ?? fallback[key] ?? key;
  for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}
function meldName(name) {
  return strings["meld." + name] ?? fallback["meld." + name] ?? name.replace(/-/g, " ");
}
// An option's meaning in the chosen language; the server's English text if no file has it.
function optionDoc(o) {
  return strings["option." + o.name] ?? fallback["option." + o.name] ?? o.doc;
}
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.remove("show"), 3500);
}

// --- API ----------------------------------------------------------------------------------
async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.detail ? (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)) : r.statusText);
  return data;
}
const tokenKey = (code) => `bezique.seat.${code}`;
let info = null;
async function getInfo() { if (!info) info = await api("/api/info"); return info; }

// --- routing ------------------------------------------------------------------------------
let current = null; // the open table connection, if any
async function route() {
  if (current) { current.leave(); current = null; }
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  try {
    if (parts[0] === "t" && parts[1]) return tableView(parts[1]);
    if (parts[0] === "join" && parts[1]) return joinView(parts[1]);
    if (parts[0] === "rules") return rulesView(decodeURIComponent(parts[1] || "classic"));
    if (parts[0] === "replay") return replayView(parts[1]);
    return homeView();
  } catch (e) {
    app.innerHTML = `<p class="error">${esc(e.message)}</p>`;
  }
}

// --- home ---------------------------------------------------------------------------------
function presetOptions(presets) {
  return presets.map((p) => `<option value="${esc(p.name)}">${esc(t("preset." + p.name) === "preset." + p.name ? p.name : t("preset." + p.name))}</option>`).join("");
}
function rulesString(preset, players, target) {
  const p = info.presets.find((x) => x.name === preset);
  const opts = [];
  if (players && p && Number(players) !== p.players[0]) opts.push(`players=${players}`);
  if (target) opts.push(`target=${Number(target)}`);
  return opts.length ? `${preset}(${opts.join(",")})` : preset;
}
async function homeView() {
  await getInfo();
  const levels = info.levels.map((l) => `<option value="${esc(l.name)}" ${l.name === info.default_level ? "selected" : ""}>${esc(t("level." + l.name) === "level." + l.name ? l.name : t("level." + l.name))}</option>`).join("");
  const name = esc(localStorage.getItem("bezique.name") || "");
  app.innerHTML = `
  <section class="panel">
    <h1>${t("home.computer")}</h1>
    <form id="vs">
      <label>${t("form.name")} <input name="name" value="${name}" maxlength="40" autocomplete="nickname"></label>
      <label>${t("form.variant")} <select name="preset">${presetOptions(info.presets)}</select></label>
      <label>${t("form.players")} <select name="players"></select></label>
      <label>${t("form.level")} <select name="level">${levels}</select></label>
      <button type="submit" class="primary" id="play-computer">${t("home.play")}</button>
    </form>
  </section>
  <section class="panel">
    <h2>${t("home.friends")}</h2>
    <form id="friends">
      <label>${t("form.name")} <input name="name" value="${name}" maxlength="40"></label>
      <label>${t("form.variant")} <select name="preset">${presetOptions(info.presets)}</select></label>
      <label>${t("form.players")} <select name="players"></select></label>
      <label>${t("form.target")} <input name="target" type="number" min="100" step="100" placeholder="${t("form.default")}"></label>
      <div class="seats" id="seat-choices"></div>
      <label class="check"><input type="checkbox" name="hints"> ${t("form.hints")}</label>
      <button type="submit" class="primary" id="create-table">${t("home.create")}</button>
    </form>
  </section>
  <section class="panel">
    <h2>${t("home.join")}</h2>
    <form id="join"><label>${t("form.code")} <input name="code" required maxlength="16" autocapitalize="off"></label>
    <button type="submit">${t("home.joinbutton")}</button></form>
    <p><a href="#/rules/classic">${t("nav.rules")}</a> · <a href="#/replay">${t("nav.replay")}</a></p>
  </section>`;
  const fillPlayers = (form) => {
    const p = info.presets.find((x) => x.name === form.preset.value);
    form.players.innerHTML = p.players.map((n) => `<option value="${n}">${n}</option>`).join("");
  };
  const fillSeats = () => {
    const f = document.getElementById("friends");
    const n = Number(f.players.value);
    let html = "";
    for (let i = 1; i < n; i++) {
      html += `<label>${t("form.seat", { n: i + 1 })} <select name="seat${i}"><option value="open">${t("form.friend")}</option>${info.levels.map((l) => `<option value="bot:${esc(l.name)}">${t("form.computer")} · ${esc(t("level." + l.name) === "level." + l.name ? l.name : t("level." + l.name))}</option>`).join("")}</select></label>`;
    }
    document.getElementById("seat-choices").innerHTML = html;
  };
  for (const id of ["vs", "friends"]) {
    const f = document.getElementById(id);
    fillPlayers(f);
    f.preset.addEventListener("change", () => { fillPlayers(f); if (id === "friends") fillSeats(); });
  }
  document.getElementById("friends").players.addEventListener("change", fillSeats);
  fillSeats();
  document.getElementById("vs").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target;
    localStorage.setItem("bezique.name", f.name.value);
    try {
      const r = await api("/api/tables", { rules: rulesString(f.preset.value, f.players.value), level: f.level.value, name: f.name.value || t("you") });
      localStorage.setItem(tokenKey(r.code), r.token);
      location.hash = `#/t/${r.code}`;
    } catch (err) { toast(err.message); }
  });
  document.getElementById("friends").addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = e.target;
    localStorage.setItem("bezique.name", f.name.value);
    const n = Number(f.players.value);
    const seats = [{ kind: "me" }];
    for (let i = 1; i < n; i++) {
      const v = f[`seat${i}`].value;
      seats.push(v === "open" ? { kind: "open" } : { kind: "bot", level: v.slice(4) });
    }
    try {
      const r = await api("/api/tables", { rules: rulesString(f.preset.value, f.players.value, f.target.value), seats, name: f.name.value || t("you"), hints: f.hints.checked });
      localStorage.setItem(tokenKey(r.code), r.token);
      location.hash = `#/t/${r.code}`;
    } catch (err) { toast(err.message); }
  });
  document.getElementById("join").addEventListener("submit", (e) => {
    e.preventDefault();
    location.hash = `#/join/${e.target.code.value.trim().toLowerCase()}`;
  });
  document.querySelector("#vs select[name=preset]").focus();
}

// --- join ---------------------------------------------------------------------------------
async function joinView(code) {
  if (localStorage.getItem(tokenKey(code))) { location.hash = `#/t/${code}`; return; }
  let table;
  try { table = await api(`/api/tables/${code}`); } catch (e) { app.innerHTML = `<p class="error">${t("error.notable")}</p>`; return; }
  const open = table.seats.some((s) => s.kind === "open");
  app.innerHTML = `<section class="panel"><h1>${t("join.title", { code: esc(code) })}</h1>
    <p>${esc(table.rules)} · ${table.seats.map((s) => esc(s.name)).join(", ")}</p>
    ${open ? `<form id="joinform"><label>${t("form.name")} <input name="name" value="${esc(localStorage.getItem("bezique.name") || "")}" maxlength="40"></label>
    <button class="primary" type="submit" id="take-seat">${t("join.take")}</button></form>` : `<p>${t("join.full")}</p>`}
    <p><a class="button" href="#/t/${esc(code)}" id="watch">${t("join.watch")}</a></p></section>`;
  if (open) {
    document.getElementById("joinform").addEventListener("submit", async (e) => {
      e.preventDefault();
      localStorage.setItem("bezique.name", e.target.name.value);
      try {
        const r = await api(`/api/tables/${code}/join`, { name: e.target.name.value });
        localStorage.setItem(tokenKey(code), r.token);
        location.hash = `#/t/${code}`;
      } catch (err) { toast(err.message); }
    });
  }
}

// --- the table ----------------------------------------------------------------------------
function tableView(code) {
  const s = {
    code, token: localStorage.getItem(tokenKey(code)), ws: null, left: false, retry: 0,
    table: null, seat: null, view: null, match: null, move: 0, pending: false,
    log: [], hint: null, review: null, showSummary: false, summaryDeal: -1,
  };
  current = s;
  s.leave = () => { s.left = true; if (s.ws) s.ws.close(); document.removeEventListener("keydown", s.onKey); };
  s.send = (msg) => { if (s.ws && s.ws.readyState === 1) s.ws.send(JSON.stringify({ v: V, ...msg })); };
  s.onKey = (e) => onKey(s, e);
  document.addEventListener("keydown", s.onKey);
  app.innerHTML = `<p class="muted">${t("connecting")}</p>`;
  connect(s);
}

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

function names(s) {
  return (s.table?.seats || []).map((x) => (x.seat === s.seat ? t("you") : x.name));
}
function sideName(s, side) {
  const n = names(s);
  if (!s.table?.partnerships) return n[side];
  return n.filter((_, i) => i % 2 === side).join(" & ");
}

function describe(s, seat, action, before, after) {
  const who = names(s)[seat];
  const out = [];
  const parts = action.split(/\s+/);
  if (parts[0] === "meld") {
    const pts = (after.events.length > before.events.length) ? after.events[after.events.length - 1][3] : "";
    out.push(t("msg.declared", { name: who, meld: meldName(parts[1]), points: pts }));
  } else if (parts[0] === "exchange") {
    out.push(t("msg.exchanged", { name: who, card: label(parts[1]) }));
  }
  if (after.tricks.length > before.tricks.length) {
    const last = after.tricks[after.tricks.length - 1];
    out.push(t("msg.won", { name: names(s)[last[2]], cards: last[1].map(label).join(" ") }));
  }
  return out;
}

function onMessage(s, m) {
  if (m.type === "error") {
    s.pending = false;
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
  if (m.table) s.table = m.table;
  if (m.type === "welcome") s.seat = m.seat;
  if (m.type === "update" && s.view) {
    for (const line of describe(s, m.seat, m.action, s.view, m.view)) s.log.push(line);
    s.log = s.log.slice(-6);
  }
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

function card(code, { action = null, small = false, label: aria = null } = {}) {
  const cls = `card${small ? " small" : ""}${action ? " playable" : ""}`;
  const title = esc(aria || label(code));
  if (action) {
    return `<button class="${cls}" data-action="${esc(action)}" data-card="${esc(code)}" aria-label="${t("aria.play", { card: title })}">${cardSVG(code)}</button>`;
  }
  return `<span class="${cls}" role="img" aria-label="${title}" data-card="${esc(code)}">${cardSVG(code)}</span>`;
}

function playAction(v, code, fromTable) {
  const legal = new Set(v.legal.map((l) => l.action).filter((a) => a.startsWith("play ")));
  const c = code.split("@")[0];
  if (!fromTable) return legal.has(`play ${c}`) ? `play ${c}` : null;
  for (const a of [`play ${code}`, `play ${c}@table`]) if (legal.has(a)) return a;
  if (!v.hand.includes(c) && legal.has(`play ${c}`)) return `play ${c}`;
  return null;
}

function declaredGroups(refs, v, mine, myTurn) {
  if (!refs.length) return `<span class="muted">–</span>`;
  return `<div class="row declared">` + sortCards(refs).map((r) => {
    const action = mine && myTurn && v.phase === "play" ? playAction(v, r, true) : null;
    const melds = (r.split("@")[1] || "").split("+").filter(Boolean).map(meldName).join(", ");
    return card(r, { action, small: !mine, label: `${label(r)} (${melds})` });
  }).join("") + `</div>`;
}

function actionCards(action) {
  return action.split(/\s+/).slice(2).map((c) => card(c, { small: true })).join("");
}

function summaryHTML(s) {
  const m = s.match, v = s.view;
  if (!m || !m.deals.length) return "";
  const d = m.deals[m.deals.length - 1];
  const sides = d.result.map((_, i) => sideName(s, i));
  const row = (key, f) => `<tr><th scope="row">${t(key)}</th>${d.result.map((r) => `<td>${f(r)}</td>`).join("")}</tr>`;
  const over = m.winner !== null;
  let html = `<div class="overlay" role="dialog" aria-modal="true" aria-labelledby="sum-title"><div class="panel summary">
    <h2 id="sum-title">${t("summary.title", { n: m.deals.length })}</h2>
    <table><thead><tr><th></th>${sides.map((n) => `<th scope="col">${esc(n)}</th>`).join("")}</tr></thead><tbody>
    ${row("summary.melds", (r) => r.melds)}${row("summary.tricks", (r) => r.tricks)}${row("summary.last", (r) => r.last_trick)}
    ${d.result.some((r) => r.bonuses) ? row("summary.bonuses", (r) => r.bonuses) : ""}
    ${d.result.some((r) => r.brisques) ? row("summary.brisques", (r) => r.brisques) : ""}
    <tr class="total"><th scope="row">${t("summary.deal")}</th>${d.points.map((p) => `<td>${p}</td>`).join("")}</tr>
    ${d.payout ? `<tr><th scope="row">${t("summary.payout")}${d.rubicon ? " · " + t("summary.rubicon") : ""}</th>${d.payout.map((p) => `<td>${p}</td>`).join("")}</tr>` : ""}
    <tr class="total"><th scope="row">${t("summary.match")}</th>${m.scores.map((p) => `<td>${p}</td>`).join("")}</tr>
    </tbody></table>
    <p>${over ? `<strong id="match-result">${t("summary.winner", { name: esc(sideName(s, m.winner)) })}</strong>` : t("summary.progress", { target: m.target })}</p>
    <div class="buttons">`;
  if (s.seat !== null) html += `<button id="review-btn">${t("summary.review")}</button>`;
  if (over) {
    html += `<a class="button" id="download" href="/api/tables/${esc(s.code)}/record" download>${t("summary.download")}</a>
      <a class="button" href="#/replay/${esc(s.code)}">${t("nav.replay")}</a><a class="button primary" href="#/">${t("summary.again")}</a>`;
  } else if (s.seat !== null) {
    const ready = m.ready[s.seat];
    html += `<button class="primary" id="next-deal" ${ready ? "disabled" : ""}>${ready ? t("summary.waiting") : t("summary.next")}</button>`;
  }
  html += `<button id="close-summary">${t("summary.close")}</button></div>`;
  if (s.review && s.review.deal === m.deals.length - 1) {
    html += s.review.items.length
      ? `<h3>${t("review.title")}</h3><ol class="review">${s.review.items.map((i) => `<li>${t("review.item", { n: i.ply + 1, played: esc(actionText(i.played)), suggested: esc(actionText(i.suggested)) })}</li>`).join("")}</ol>`
      : `<p>${t("review.none")}</p>`;
  }
  return html + `</div></div>`;
}

function actionText(a) {
  const p = a.split(/\s+/);
  if (p[0] === "play") return t("act.play", { card: label(p[1]) });
  if (p[0] === "meld") return `${meldName(p[1])} ${p.slice(2).map(label).join(" ")}`;
  if (p[0] === "exchange") return t("act.exchange", { card: label(p[1]) });
  if (p[0] === "pass") return t("act.pass");
  if (p[0] === "partner") return t("act.partner");
  return a;
}

function render(s) {
  if (current !== s) return;
  const tb = s.table, v = s.view, m = s.match;
  if (!tb) return;
  const n = names(s);
  const link = `${location.origin}/#/join/${s.code}`;
  const focused = document.activeElement?.dataset?.action || document.activeElement?.id;
  let html = `<div class="tablebar"><span>${t("table.code")}: <strong id="table-code">${esc(s.code)}</strong></span>
    <button id="copy-link" data-link="${esc(link)}">${t("table.copy")}</button>
    <span class="muted">${esc(tb.rules)}</span>
    <span class="seats">${tb.seats.map((x) => `<span class="seat ${x.connected ? "on" : "off"}">${esc(n[x.seat])}${x.kind === "open" ? " · " + t("table.open") : ""}${x.computer && x.kind !== "bot" ? " · " + t("table.computer") : ""}</span>`).join("")}</span>
    <a href="#/rules/${encodeURIComponent(tb.rules)}">${t("nav.rules")}</a></div>`;
  if (tb.status === "waiting" || !v) {
    html += `<section class="panel"><h2>${t("table.waiting")}</h2><p>${t("table.share")}</p><p><code>${esc(link)}</code></p>
      ${s.seat === tb.host ? `<button class="primary" id="start">${t("table.start")}</button>` : ""}</section>`;
    app.innerHTML = html;
    bind(s);
    return;
  }
  const me = s.seat;
  const myTurn = me !== null && v.to_move === me && v.phase !== "over";
  // scores
  const sides = v.points.map((_, i) => sideName(s, i));
  html += `<div class="scores" aria-label="${t("scores")}"><span>${t("scores.deal", { n: m.deal + 1 })}</span>${sides.map((nm, i) => `<span class="score"><b>${esc(nm)}</b> ${v.points[i]} <small>(${t("scores.match")}: ${m.scores[i]}/${m.target})</small></span>`).join("")}</div>`;
  // others
  const order = [];
  for (let i = 1; i <= tb.players; i++) { const x = ((me ?? -1) + i + tb.players) % tb.players; if (x !== me) order.push(x); }
  if (me === null) order.sort((a, b) => a - b);
  html += `<div class="others">`;
  for (const x of order) {
    const concealed = v.hand_sizes[x] - v.tables[x].length;
    html += `<div class="player ${v.to_move === x ? "turn" : ""}" data-seat="${x}"><div class="pname">${esc(n[x])}${x === v.dealer ? ` <small>(${t("dealer")})</small>` : ""}${v.to_move === x ? ` <small class="turnmark">${t("turn")}</small>` : ""}</div>
      <div class="row backs" aria-label="${t("aria.backs", { n: concealed })}">${Array.from({ length: Math.min(concealed, 18) }, () => `<span class="card small back">${backSVG()}</span>`).join("")}<span class="count">${concealed}</span></div>
      <div class="lbl">${t("declared")}</div>${declaredGroups(v.tables[x], v, false, false)}
      ${v.known[x].length ? `<div class="lbl">${t("known")}</div><div class="row">${v.known[x].map((c) => card(c, { small: true })).join("")}</div>` : ""}</div>`;
  }
  html += `</div>`;
  // the middle: trump, turn-up, stock, trick
  const trump = v.trump ? `<span class="suit ${"HD".includes(v.trump) ? "red" : ""}">${suitSymbol(v.trump)}</span>` : t("trump.none");
  let trick = "";
  if (v.trick.length) {
    trick = `<div class="lbl">${t("trick")}</div><div class="row trick" id="trick">${v.trick.map(([st, c]) => `<figure>${card(c)}<figcaption>${esc(n[st])}</figcaption></figure>`).join("")}</div>`;
  } else if (v.tricks.length) {
    const [ld, cs, w] = v.tricks[v.tricks.length - 1];
    trick = `<div class="lbl">${t("lasttrick", { name: esc(n[w]) })}</div><div class="row trick last" id="last-trick">${cs.map((c, i) => `<figure>${card(c, { small: true })}<figcaption>${esc(n[(ld + i) % tb.players])}</figcaption></figure>`).join("")}</div>`;
  }
  html += `<div class="middle"><div class="info"><div>${t("trump")}: ${trump}</div>
    ${v.turn_up ? `<div>${t("turnup")}: ${card(v.turn_up, { small: true })}</div>` : ""}
    ${v.stock_size !== null ? `<div>${t("stock")}: <b id="stock">${v.stock_size}</b></div>` : ""}
    <div class="muted">${t("tricknum", { n: Math.min(v.tricks.length + 1, v.tricks_total), of: v.tricks_total })} · ${t("stage", { n: v.stage })}</div></div>
    <div class="trickarea">${trick}</div></div>`;
  // status and messages
  let status;
  if (v.phase === "over") status = t("status.over");
  else if (myTurn) status = v.phase === "declare" ? t("status.declare") : (v.trick.length ? t("status.follow") : t("status.lead"));
  else status = t("status.waiting", { name: n[v.to_move] ?? "" });
  html += `<div id="status" class="status ${myTurn ? "mine" : ""}" role="status" aria-live="polite">${esc(status)}</div>`;
  html += `<ul class="log" id="log" aria-live="polite">${s.log.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>`;
  // my side
  if (me !== null) {
    const declaring = myTurn && v.phase === "declare" && !s.pending;
    if (declaring) {
      const choices = v.legal.filter((l) => l.action !== "pass");
      html += `<div class="panel declare" id="declare"><h3>${t("declare.title")}</h3><div class="choices">${choices.map((l, i) => `<button class="decl" data-action="${esc(l.action)}"><kbd>${i + 1}</kbd> <span>${esc(l.action.startsWith("meld") ? meldName(l.action.split(" ")[1]) : actionText(l.action))}</span> <span class="row">${l.action.startsWith("meld") ? actionCards(l.action) : ""}</span>${l.points !== null ? ` <b>+${l.points}</b>` : ""}</button>`).join("")}
        <button class="decl pass" data-action="pass" id="pass"><kbd>P</kbd> ${t("act.pass")}</button></div></div>`;
    }
    html += `<div class="mine player ${myTurn ? "turn" : ""}"><div class="pname">${esc(t("you"))}${me === v.dealer ? ` <small>(${t("dealer")})</small>` : ""}</div>
      <div class="lbl">${t("declared")}</div>${declaredGroups(v.tables[me], v, true, myTurn && !s.pending)}
      <div class="lbl">${t("hand")}</div><div class="row hand" id="hand">${sortCards(v.hand).map((c) => card(c, { action: myTurn && !s.pending && v.phase === "play" ? playAction(v, c, false) : null })).join("")}</div></div>`;
    html += `<div class="buttons">`;
    if (tb.hints && myTurn) html += `<button id="hint-btn">${t("hint.ask")} <kbd>H</kbd></button>`;
    if (v.phase === "over") html += `<button id="show-summary">${t("summary.show")}</button>`;
    html += `</div>`;
    if (s.hint && s.hint.move === s.move) html += `<p class="hint" id="hint">${t("hint.says", { action: esc(actionText(s.hint.action)) })}</p>`;
  } else if (v.phase === "over") {
    html += `<div class="buttons"><button id="show-summary">${t("summary.show")}</button></div>`;
  }
  if (v.phase === "over" && s.showSummary) html += summaryHTML(s);
  app.innerHTML = html;
  bind(s);
  // keep the keyboard where it was
  let el = focused ? app.querySelector(`[data-action="${CSS.escape(focused)}"]`) || document.getElementById(focused) : null;
  if (!el && myTurn) el = app.querySelector("#declare .decl, #hand .playable, .declared .playable");
  if (!el && v.phase === "over" && s.showSummary) el = document.getElementById("next-deal") || document.getElementById("close-summary");
  if (el) el.focus({ preventScroll: true });
}

function bind(s) {
  app.querySelectorAll("[data-action]").forEach((b) => b.addEventListener("click", () => act(s, b.dataset.action)));
  const on = (id, f) => { const e = document.getElementById(id); if (e) e.addEventListener("click", f); };
  on("copy-link", (e) => { navigator.clipboard?.writeText(e.currentTarget.dataset.link).then(() => toast(t("table.copied")), () => {}); });
  on("start", () => s.send({ type: "start" }));
  on("hint-btn", () => s.send({ type: "hint", move: s.move }));
  on("next-deal", () => { s.send({ type: "ready", deal: s.match.deal }); });
  on("close-summary", () => { s.showSummary = false; render(s); });
  on("show-summary", () => { s.showSummary = true; render(s); });
  on("review-btn", () => s.send({ type: "review", deal: s.match.deal }));
}

function act(s, action) {
  if (s.pending) return;
  s.pending = true;
  s.hint = null;
  s.send({ type: "action", move: s.move, action });
  render(s);
}

function onKey(s, e) {
  if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  const v = s.view;
  if (!v) return;
  const myTurn = s.seat !== null && v.to_move === s.seat && v.phase !== "over";
  const key = e.key.toLowerCase();
  if (myTurn && v.phase === "declare") {
    const choices = app.querySelectorAll("#declare .decl:not(.pass)");
    if (/^[1-9]$/.test(key) && choices[Number(key) - 1]) { e.preventDefault(); choices[Number(key) - 1].click(); return; }
    if (key === "p") { e.preventDefault(); document.getElementById("pass")?.click(); return; }
  }
  if (key === "h" && myTurn) { document.getElementById("hint-btn")?.click(); return; }
  if (key === "n" && v.phase === "over") { document.getElementById("next-deal")?.click(); return; }
  if (key === "escape" && s.showSummary) { s.showSummary = false; render(s); return; }
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    const items = [...app.querySelectorAll(".playable, .decl")];
    if (!items.length) return;
    const i = items.indexOf(document.activeElement);
    const next = e.key === "ArrowRight" ? (i + 1) % items.length : (i - 1 + items.length) % items.length;
    items[i < 0 ? 0 : next].focus();
    e.preventDefault();
  }
}

// --- rules --------------------------------------------------------------------------------
async function rulesView(rules) {
  await getInfo();
  let facts;
  try { facts = await api(`/api/rules?rules=${encodeURIComponent(rules)}`); } catch (e) { app.innerHTML = `<p class="error">${esc(e.message)}</p>`; return; }
  const paras = ["rules.aim", "rules.deal", "rules.stage1", "rules.declare", "rules.seven", "rules.stage2", "rules.score"];
  app.innerHTML = `<section class="panel rules"><h1>${t("rules.title")}: ${esc(facts.rules)}</h1>
    <label>${t("form.variant")} <select id="rules-preset">${presetOptions(info.presets)}</select></label>
    <p>${t("rules.facts", { players: facts.players, packs: facts.packs, hand: facts.hand_size, tricks: facts.tricks })}</p>
    ${paras.map((k) => `<p>${t(k)}</p>`).join("")}
    <h2>${t("rules.melds")}</h2>
    <table class="melds"><thead><tr><th>${t("rules.meld")}</th><th>${t("rules.points")}</th></tr></thead><tbody>
    ${facts.melds.map((m) => `<tr><td>${esc(meldName(m.name))}</td><td>${m.points}</td></tr>`).join("")}</tbody></table>
    <details><summary>${t("rules.options")}</summary><table class="options"><tbody>
    ${facts.options.map((o) => `<tr><td><code>${esc(o.name)}</code></td><td>${esc(JSON.stringify(o.value))}</td><td>${esc(optionDoc(o))}</td></tr>`).join("")}</tbody></table></details></section>`;
  const sel = document.getElementById("rules-preset");
  sel.value = facts.preset;
  sel.addEventListener("change", () => { location.hash = `#/rules/${sel.value}`; });
}

// --- replay -------------------------------------------------------------------------------
async function replayView(code) {
  if (!code) {
    app.innerHTML = `<section class="panel"><h1>${t("replay.title")}</h1>
      <form id="rcode"><label>${t("form.code")} <input name="code" maxlength="16"></label><button type="submit">${t("replay.open")}</button></form>
      <label>${t("replay.file")} <input type="file" id="rfile" accept=".json,application/json"></label></section>`;
    document.getElementById("rcode").addEventListener("submit", (e) => { e.preventDefault(); location.hash = `#/replay/${e.target.code.value.trim()}`; });
    document.getElementById("rfile").addEventListener("change", async (e) => {
      const f = e.target.files[0];
      if (!f) return;
      const body = await f.text();
      const page = async (deal) => {
        const r = await fetch(`/api/replay?deal=${deal}`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
        const data = await r.json();
        if (!r.ok) throw new Error(data.detail || r.statusText);
        return data;
      };
      try { showReplay(await page(0), page); } catch (err) { toast(err.message); }
    });
    return;
  }
  const page = (deal) => api(`/api/tables/${code}/replay?deal=${deal}`);
  try { showReplay(await page(0), page); } catch (e) { app.innerHTML = `<p class="error">${esc(e.message)}</p>`; }
}

// The server sends a long game by pages of whole deals (`next_deal`), and each step's view
// holds only what changed since the step before: the steps are laid over one another here.
function showReplay(data, page) {
  let i = 0;
  const steps = [];
  const add = (part) => {
    let v = steps.length ? steps[steps.length - 1].view : {};
    for (const st of part.steps) { v = { ...v, ...st.view }; steps.push({ ...st, view: v }); }
  };
  add(data);
  (async () => {
    for (let next = data.next_deal; next != null && location.hash.startsWith("#/replay");) {
      const part = await page(next);
      add(part);
      next = part.next_deal;
      const range = document.getElementById("r-range");
      if (range) range.max = String(steps.length - 1);
    }
  })().catch((err) => toast(err.message));
  const draw = () => {
    const st = steps[i], v = st.view;
    const nm = data.players;
    app.innerHTML = `<section class="panel replay"><h1>${t("replay.title")} · ${esc(data.rules)}</h1>
      <div class="buttons"><button id="r-first">⏮</button><button id="r-prev" aria-label="${t("replay.prev")}">◀</button>
      <span id="r-pos">${t("replay.step", { deal: st.deal + 1, ply: st.ply })}</span>
      <button id="r-next" aria-label="${t("replay.next")}">▶</button><button id="r-last">⏭</button></div>
      <input type="range" id="r-range" min="0" max="${steps.length - 1}" value="${i}" aria-label="${t("replay.step", { deal: st.deal + 1, ply: st.ply })}">
      <p id="r-action">${st.action ? esc(nm[st.seat] ?? "") + ": " + esc(actionText(st.action)) : "&nbsp;"}</p>
      <p>${t("trump")}: ${v.trump ? suitSymbol(v.trump) : t("trump.none")} ${v.turn_up ? "· " + t("turnup") + " " + label(v.turn_up) : ""} · ${t("stock")}: ${v.stock_size ?? "?"} · ${v.points.map((p, k) => esc(nm[k] ?? "") + " " + p).join(" / ")}</p>
      ${v.hands.map((h, k) => `<div class="player"><div class="pname">${esc(nm[k])}</div><div class="row">${sortCards(h).map((c) => card(c, { small: true })).join("")}</div><div class="row declared">${sortCards(v.tables[k]).map((c) => card(c, { small: true })).join("")}</div></div>`).join("")}
      <div class="row trick">${v.trick.map(([, c]) => card(c)).join("")}</div></section>`;
    const go = (j) => { i = Math.max(0, Math.min(steps.length - 1, j)); draw(); };
    document.getElementById("r-first").onclick = () => go(0);
    document.getElementById("r-prev").onclick = () => go(i - 1);
    document.getElementById("r-next").onclick = () => go(i + 1);
    document.getElementById("r-last").onclick = () => go(steps.length - 1);
    document.getElementById("r-range").oninput = (e) => go(Number(e.target.value));
  };
  document.onkeydown = (e) => {
    if (!location.hash.startsWith("#/replay")) { document.onkeydown = null; return; }
    if (e.key === "ArrowRight") document.getElementById("r-next")?.click();
    if (e.key === "ArrowLeft") document.getElementById("r-prev")?.click();
  };
  draw();
}

// --- start --------------------------------------------------------------------------------
document.getElementById("lang").addEventListener("change", async (e) => {
  localStorage.setItem("bezique.lang", e.target.value);
  await loadLang(e.target.value);
  if (current) render(current); else route();
});
window.addEventListener("hashchange", route);
loadLang(pickLang()).then(route);
