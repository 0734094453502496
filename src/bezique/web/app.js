// The bezique browser client: no build step, plain modules.  The server is the authority:
// this page shows the views it is sent and sends action notation back.  This module routes
// between the pages (start, join, table, rules, replay); the table itself is table.js.
import { sortCards, sprite, suitSymbol } from "./cards.js";
import { api, card, esc, label, loadLang, meldName, named, pickLang, saveSettings, t, toast } from "./common.js";
import { joinExtras, onlineHome, onlineRoute, tableChoices, tableExtras } from "./lobby.js";
import { meldGroups } from "./logic.js";
import { remember, showGames } from "./games.js";
import { actionText, linkKey, openTable, render, tokenKey } from "./table.js";
import { bindTutorial, tutorialSection } from "./tutorial.js";

const app = /** @type {HTMLElement} */ (document.getElementById("app"));
/** @type {any} */
let info = null;
async function getInfo() { if (!info) info = await api("/api/info"); return info; }

/** @param {ParentNode} root @param {string} sel */
const $ = (root, sel) => /** @type {any} */ (root.querySelector(sel));

// --- routing ------------------------------------------------------------------------------
/** @type {import("./table.js").State|null} */
let current = null; // the open table connection, if any
let routed = 0;
async function route() {
  if (current) { current.leave(); current = null; }
  const mine = ++routed;
  document.body.classList.remove("at-table");
  const parts = location.hash.replace(/^#\/?/, "").split("/");
  try {
    if (parts[0] === "t" && parts[1]) {
      const s = await openTable(parts[1]);
      if (s && mine !== routed) s.leave(); else current = s;
      return;
    }
    if (parts[0] === "join" && parts[1]) return await joinView(plainCode(decodeURIComponent(parts[1])));
    if (parts[0] === "seat" && parts[1] && parts[2]) return await claimView(parts[1], parts[2]);
    if (parts[0] === "rules") return await rulesView(decodeURIComponent(parts[1] || "classic"));
    if (parts[0] === "replay") return await replayView(parts[1], Number(parts[2] ?? -1), Number(parts[3] ?? -1));
    if (await onlineRoute(app, parts)) return; // the lobby, quick match, ratings (lobby.js)
    return await homeView();
  } catch (e) {
    app.innerHTML = `<p class="error">${esc(/** @type {Error} */ (e).message)}</p>`;
  }
}

// --- home ---------------------------------------------------------------------------------
/** @param {Array<{ name: string }>} presets */
function presetOptions(presets) {
  return presets.map((p) => `<option value="${esc(p.name)}">${esc(named("preset.", p.name))}</option>`).join("");
}
/** @param {string} preset @param {string} players @param {string} [target] */
function rulesString(preset, players, target) {
  const p = info.presets.find((/** @type {any} */ x) => x.name === preset);
  const opts = [];
  if (players && p && Number(players) !== p.players[0]) opts.push(`players=${players}`);
  if (target) opts.push(`target=${Number(target)}`);
  return opts.length ? `${preset}(${opts.join(",")})` : preset;
}
async function homeView() {
  await getInfo();
  const levelName = (/** @type {string} */ l) => named("level.", l);
  const levels = info.levels.map((/** @type {any} */ l) => `<option value="${esc(l.name)}" ${l.name === info.default_level ? "selected" : ""}>${esc(levelName(l.name))}</option>`).join("");
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
      <label>${t("form.target")} <input name="target" type="number" min="100" step="100"></label>
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
  </section>
  ${tutorialSection()}
  <section class="panel" id="your-games" hidden></section>`;
  bindTutorial(() => /** @type {HTMLInputElement} */ (document.querySelector("#vs input[name=name]")).value || t("you"));
  showGames(/** @type {HTMLElement} */ (document.getElementById("your-games")));
  const vs = /** @type {any} */ (document.getElementById("vs"));
  const friends = /** @type {any} */ (document.getElementById("friends"));
  const fillPlayers = (/** @type {any} */ form) => {
    const p = info.presets.find((/** @type {any} */ x) => x.name === form.preset.value);
    form.players.innerHTML = p.players.map((/** @type {number} */ n) => `<option value="${n}">${n}</option>`).join("");
    // the target this variant plays to unless told otherwise
    if (form.target) form.target.placeholder = p.target ? t("form.defaultvalue", { n: p.target }) : t("form.default");
  };
  const fillSeats = () => {
    const n = Number(friends.players.value);
    let html = "";
    for (let i = 1; i < n; i++) {
      html += `<label>${t("form.seat", { n: i + 1 })} <select name="seat${i}"><option value="open">${t("form.friend")}</option>${info.levels.map((/** @type {any} */ l) => `<option value="bot:${esc(l.name)}">${t("form.computer")} · ${esc(levelName(l.name))}</option>`).join("")}</select></label>`;
    }
    $(document, "#seat-choices").innerHTML = html;
  };
  for (const f of [vs, friends]) {
    fillPlayers(f);
    f.preset.addEventListener("change", () => { fillPlayers(f); if (f === friends) fillSeats(); });
  }
  friends.players.addEventListener("change", fillSeats);
  fillSeats();
  tableChoices(friends);
  onlineHome(app, info);
  /** @param {any} body */
  const create = async (body) => {
    try {
      const r = await api("/api/tables", body);
      localStorage.setItem(tokenKey(r.code), r.token);
      remember(r.code);
      location.hash = `#/t/${r.code}`;
    } catch (err) { toast(/** @type {Error} */ (err).message); }
  };
  vs.addEventListener("submit", (/** @type {Event} */ e) => {
    e.preventDefault();
    localStorage.setItem("bezique.name", vs.name.value);
    create({ rules: rulesString(vs.preset.value, vs.players.value), level: vs.level.value, name: vs.name.value || t("you") });
  });
  friends.addEventListener("submit", async (/** @type {Event} */ e) => {
    e.preventDefault();
    const f = friends;
    localStorage.setItem("bezique.name", f.name.value);
    const n = Number(f.players.value);
    /** @type {Array<{ kind: string, level?: string }>} */
    const seats = [{ kind: "me" }];
    for (let i = 1; i < n; i++) {
      const v = f[`seat${i}`].value;
      seats.push(v === "open" ? { kind: "open" } : { kind: "bot", level: v.slice(4) });
    }
    let extras = {};
    try { extras = await tableExtras(f); } catch (err) { toast(/** @type {Error} */ (err).message); return; }
    create({ rules: rulesString(f.preset.value, f.players.value, f.target.value), seats, name: f.name.value || t("you"), hints: f.hints.checked, ...extras });
  });
  $(document, "#join").addEventListener("submit", (/** @type {any} */ e) => {
    e.preventDefault();
    location.hash = `#/join/${plainCode(e.target.code.value)}`;
  });
  $(document, "#vs select[name=preset]").focus();
}

/** A table code as typed, made plain: no spaces anywhere in it, lower case. @param {string} text */
export const plainCode = (text) => text.replace(/\s+/g, "").toLowerCase();

// --- join ---------------------------------------------------------------------------------
/** @param {string} code */
async function joinView(code) {
  if (localStorage.getItem(tokenKey(code))) { location.hash = `#/t/${code}`; return; }
  let table;
  try { table = await api(`/api/tables/${encodeURIComponent(code)}`); } catch {
    app.innerHTML = `<section class="panel notable" id="no-table" role="alert"><h1>${t("notable.title")}</h1><p>${t("notable.text", { code: esc(code) })}</p><p><a class="button primary" href="#/">${t("notable.home")}</a></p></section>`;
    return;
  }
  const open = table.seats.some((/** @type {any} */ s) => s.kind === "open");
  app.innerHTML = `<section class="panel"><h1>${t("join.title", { code: esc(code) })}</h1>
    <p>${esc(named("preset.", table.preset))} · ${table.seats.map((/** @type {any} */ s) => esc(s.kind === "bot" ? t(`bot.${s.seat}`) : s.kind === "open" ? t("table.open") : s.name)).join(", ")}</p>
    ${open ? `<form id="joinform"><label>${t("form.name")} <input name="name" value="${esc(localStorage.getItem("bezique.name") || "")}" maxlength="40"></label>
    <button class="primary" type="submit" id="take-seat">${t("join.take")}</button></form>` : `<p>${t("join.full")}</p>`}
    <p><a class="button" href="#/t/${esc(code)}" id="watch">${t("join.watch")}</a></p></section>`;
  if (open) {
    $(document, "#joinform").addEventListener("submit", async (/** @type {any} */ e) => {
      e.preventDefault();
      localStorage.setItem("bezique.name", e.target.name.value);
      try {
        const r = await api(`/api/tables/${code}/join`, { name: e.target.name.value, ...(await joinExtras(code, e.target.name.value)) });
        localStorage.setItem(tokenKey(code), r.token);
        remember(code);
        location.hash = `#/t/${code}`;
      } catch (err) { toast(/** @type {Error} */ (err).message); }
    });
  }
}

// --- a personal seat link -------------------------------------------------------------------
/** Take a seat back with its personal link: this browser gets a fresh seat token (the device
 * that held the seat before loses it), and the secret leaves the address bar at once.
 * @param {string} code @param {string} secret */
async function claimView(code, secret) {
  history.replaceState(null, "", `#/t/${code}`);
  try {
    const r = await api(`/api/tables/${encodeURIComponent(code)}/claim`, { link: secret });
    localStorage.setItem(tokenKey(code), r.token);
    localStorage.setItem(linkKey(code), secret);
    remember(code);
    toast(t("seatlink.taken"));
  } catch {
    toast(t("seatlink.invalid"));
  }
  await route();
}

// --- rules --------------------------------------------------------------------------------
/** @param {string} option */
function optionDoc(option) { return named("option.", option); }

/**
 * The rules page's paragraphs for these option values (each a key and its placeholders): the
 * classic text, with a paragraph swapped or added where an option changes the game as told
 * (no turn-up, marriages only before trump, jokers, the seven scoring when played, brisques
 * counted by majority, the target won at once, a match of games), so a preset's page follows
 * its options rather than its name.
 * @param {Record<string, any>} o @param {any} facts @returns {Array<[string, Record<string, string|number>]>}
 */
function ruleParagraphs(o, facts) {
  /** @type {Array<[string, Record<string, string|number>]>} */
  const out = [["rules.aim", {}]];
  if (o.turn_up === false) out.push(["rules.deal.noturnup", { hand: facts.hand_size }]);
  else out.push(["rules.deal", {}]);
  if (o.melds_before_trump === "marriage-only") out.push(["rules.beforetrump", {}]);
  out.push(["rules.stage1", {}], [o.meld_reuse === "once-per-kind" ? "rules.declare.perkind" : "rules.declare", {}]);
  if (o.wild_cards && o.wild_card_melds === "quartets") out.push(["rules.jokers", { n: o.wild_cards }]);
  if (o.wild_cards && o.wild_card_lead_wins) out.push(["rules.jokerlead", {}]);
  if (o.second_seven_scores === "play-always") out.push(["rules.seven.play", { points: o.seven_of_trumps }]);
  else if (o.turn_up !== false) out.push(["rules.seven", {}]);
  out.push(["rules.stage2", {}]);
  if (o.trick_scoring === "brisque-majority") {
    out.push(["rules.score.majority", { last: o.last_trick_bonus, penalty: o.brisque_loser_penalty, tie: o.brisque_tie_bonus, gate: o.brisque_min_score }]);
  } else out.push(["rules.score", {}]);
  if (o.target_check === "immediate") out.push(["rules.immediate", { target: o.target }]);
  if (o.match_games) out.push(["rules.games", { needed: o.match_games, below: o.double_game_below }]);
  if (o.match_games && o.cent_points_handicap) out.push(["rules.handicap", { points: o.cent_points_handicap }]);
  return out;
}

/** @param {string} rules */
async function rulesView(rules) {
  await getInfo();
  let facts;
  try { facts = await api(`/api/rules?rules=${encodeURIComponent(rules)}`); } catch (e) { app.innerHTML = `<p class="error">${esc(/** @type {Error} */ (e).message)}</p>`; return; }
  const paras = ruleParagraphs(Object.fromEntries(facts.options.map((/** @type {any} */ o) => [o.name, o.value])), facts);
  const changed = facts.rules !== facts.preset ? ` <small class="muted">${esc(facts.rules.slice(facts.preset.length))}</small>` : "";
  app.innerHTML = `<section class="panel rules"><h1>${t("rules.title")}: ${esc(named("preset.", facts.preset))}${changed}</h1>
    <label>${t("form.variant")} <select id="rules-preset">${presetOptions(info.presets)}</select></label>
    <p>${t("rules.facts", { players: facts.players, packs: facts.packs, hand: facts.hand_size, tricks: facts.tricks })}</p>
    ${paras.map(([k, p]) => `<p>${t(k, p)}</p>`).join("")}
    <h2>${t("rules.melds")}</h2>
    <table class="melds"><thead><tr><th>${t("rules.meld")}</th><th>${t("rules.points")}</th></tr></thead><tbody>
    ${facts.melds.map((/** @type {any} */ m) => `<tr><td>${esc(meldName(m.name))}</td><td>${m.points}</td></tr>`).join("")}</tbody></table>
    <details><summary>${t("rules.options")}</summary><table class="options"><tbody>
    ${facts.options.map((/** @type {any} */ o) => `<tr><td><code>${esc(o.name)}</code></td><td>${esc(JSON.stringify(o.value))}</td><td>${esc(optionDoc(o.name) === o.name ? o.doc : optionDoc(o.name))}</td></tr>`).join("")}</tbody></table></details></section>`;
  const sel = /** @type {HTMLSelectElement} */ (document.getElementById("rules-preset"));
  sel.value = facts.preset;
  sel.addEventListener("change", () => { location.hash = `#/rules/${sel.value}`; });
}

// --- replay -------------------------------------------------------------------------------
/** @param {string|undefined} code @param {number} deal @param {number} ply */
async function replayView(code, deal, ply) {
  if (!code) {
    app.innerHTML = `<section class="panel"><h1>${t("replay.title")}</h1>
      <form id="rcode"><label>${t("form.code")} <input name="code" maxlength="16"></label><button type="submit">${t("replay.open")}</button></form>
      <label>${t("replay.file")} <input type="file" id="rfile" accept=".json,application/json"></label></section>`;
    $(document, "#rcode").addEventListener("submit", (/** @type {any} */ e) => { e.preventDefault(); location.hash = `#/replay/${plainCode(e.target.code.value)}`; });
    $(document, "#rfile").addEventListener("change", async (/** @type {any} */ e) => {
      const f = e.target.files[0];
      if (!f) return;
      const body = await f.text();
      const page = async (/** @type {number} */ d) => {
        const r = await fetch(`/api/replay?deal=${d}`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
        const data = await r.json();
        if (!r.ok) throw new Error(data.detail || r.statusText);
        return data;
      };
      try { showReplay(await page(0), page, -1, -1); } catch (err) { toast(/** @type {Error} */ (err).message); }
    });
    return;
  }
  const page = (/** @type {number} */ d) => api(`/api/tables/${code}/replay?deal=${d}`);
  try { showReplay(await page(0), page, deal, ply); } catch (e) { app.innerHTML = `<p class="error">${esc(/** @type {Error} */ (e).message)}</p>`; }
}

/** The replay's step buttons, drawn (a font may lack ⏮ and ⏭): to the start, back, on, to the end. */
const STEP_ICONS = /** @type {Record<string, string>} */ ({
  "⏮": `<svg class="icon step" viewBox="0 0 16 16" aria-hidden="true"><path d="M3 3v10M13 3L6 8l7 5z"/></svg>`,
  "◀": `<svg class="icon step" viewBox="0 0 16 16" aria-hidden="true"><path d="M12 3L5 8l7 5z"/></svg>`,
  "▶": `<svg class="icon step" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 3l7 5-7 5z"/></svg>`,
  "⏭": `<svg class="icon step" viewBox="0 0 16 16" aria-hidden="true"><path d="M13 3v10M3 3l7 5-7 5z"/></svg>`,
});

/** The players' names as the table showed them: a computer by its name in the language (a
 * record names it "Computer (level)"). @param {string[]} players @returns {string[]} */
function replayNames(players) {
  return players.map((p, i) => (/^Computer \([\w-]+\)$/.test(p) ? t(`bot.${i}`) : p));
}

/**
 * A finished game step by step, every hand shown: melds with their points, the trick and who
 * won it, a jump to any deal (``deal`` and ``ply`` name the step to open, once it has come).
 * The server sends a long game by pages of whole deals (`next_deal`), and each step's view
 * holds only what changed since the step before: the steps are laid over one another here.
 * @param {any} data @param {(deal: number) => Promise<any>} page @param {number} deal @param {number} ply
 */
function showReplay(data, page, deal, ply) {
  let i = 0;
  let wanted = deal >= 0;
  /** @type {any[]} */
  const steps = [];
  const add = (/** @type {any} */ part) => {
    let v = steps.length ? steps[steps.length - 1].view : {};
    for (const st of part.steps) { v = { ...v, ...st.view }; steps.push({ ...st, view: v }); }
    if (wanted) {
      const j = steps.findIndex((x) => x.deal === deal && x.ply === Math.max(0, ply));
      if (j >= 0) { wanted = false; i = j; return true; }
    }
    return false;
  };
  add(data);
  (async () => {
    for (let next = data.next_deal; next !== null && next !== undefined && location.hash.startsWith("#/replay");) {
      const part = await page(next);
      const found = add(part);
      next = part.next_deal;
      const range = /** @type {HTMLInputElement|null} */ (document.getElementById("r-range"));
      if (range) range.max = String(steps.length - 1);
      if (found || document.getElementById("r-deal")) draw();
    }
  })().catch((err) => toast(err.message));
  function draw() {
    const st = steps[i], v = st.view;
    const nm = replayNames(data.players);
    const deals = [...new Set(steps.map((x) => x.deal))];
    const prev = i > 0 && steps[i - 1].deal === st.deal ? steps[i - 1].view : null;
    /** @type {Array<[number, string]>} */
    let cards = v.trick;
    let trickTitle = t("trick");
    if (!v.trick.length && prev && prev.trick.length && st.action && st.action.startsWith("play ")) {
      // the move that completed a trick: the trick as it lay, and who won it
      cards = [...prev.trick, [st.seat, st.action.split(/\s+/)[1].split("@")[0]]];
      trickTitle = t("lasttrick", { name: esc(nm[v.won] ?? "") });
    }
    const trick = cards.map(([seat, c]) => `<figure>${card(c)}<figcaption>${esc(nm[seat] ?? "")}</figcaption></figure>`).join("");
    const melded = { ...v, scoring: v.scoring || [] };
    const icon = (/** @type {string} */ id, /** @type {string} */ sym, /** @type {string} */ key) => `<button id="${id}" title="${t(key)}" aria-label="${t(key)}">${STEP_ICONS[sym] || `<span aria-hidden="true">${sym}</span>`} <span class="iconlabel">${t(key)}</span></button>`;
    const preset = String(data.rules).split("(")[0];
    app.innerHTML = `<section class="panel replay"><h1>${t("replay.title")} · ${esc(named("preset.", preset))}</h1>
      <div class="buttons">${icon("r-first", "⏮", "replay.first")}${icon("r-prev", "◀", "replay.prev")}
      <span id="r-pos">${t("replay.step", { deal: st.deal + 1, ply: st.ply })}</span>
      ${icon("r-next", "▶", "replay.next")}${icon("r-last", "⏭", "replay.last")}
      <label class="inline">${t("replay.deal")} <select id="r-deal">${deals.map((d) => `<option value="${d}" ${d === st.deal ? "selected" : ""}>${d + 1}</option>`).join("")}</select></label></div>
      <input type="range" id="r-range" min="0" max="${steps.length - 1}" value="${i}" aria-label="${t("replay.step", { deal: st.deal + 1, ply: st.ply })}">
      <p id="r-action">${st.action ? esc(nm[st.seat] ?? "") + ": " + esc(actionText(st.action)) : "&nbsp;"}</p>
      <p>${t("trump")}: ${v.trump ? suitSymbol(v.trump) : t("trump.none")} ${v.turn_up ? "· " + t("turnup") + " " + label(v.turn_up) : ""} · ${t("stock")}: ${v.stock_size ?? "?"} · ${v.points.map((/** @type {number} */ p, /** @type {number} */ k) => esc(nm[k] ?? "") + " " + p).join(" / ")}</p>
      <div class="rtrick"><div class="lbl">${trickTitle}</div><div class="row trick">${trick || "–"}</div></div>
      ${v.hands.map((/** @type {string[]} */ h, /** @type {number} */ k) => `<div class="player"><div class="pname">${esc(nm[k])}</div><div class="row">${sortCards(h).map((c) => card(c, { size: "small" })).join("")}</div>
        <div class="melds">${meldGroups(melded, k).map((g) => `<div class="meld"><div class="mlabel">${esc(meldName(g.name))} <b>${g.points}</b></div><div class="mcards">${g.cards.map((c) => c.again ? `<span class="again">${esc(label(c.code))}</span>` : card(c.ref, { size: "small" })).join("")}</div></div>`).join("")}</div></div>`).join("")}
      </section>`;
    const go = (/** @type {number} */ j) => { i = Math.max(0, Math.min(steps.length - 1, j)); draw(); };
    $(app, "#r-first").onclick = () => go(0);
    $(app, "#r-prev").onclick = () => go(i - 1);
    $(app, "#r-next").onclick = () => go(i + 1);
    $(app, "#r-last").onclick = () => go(steps.length - 1);
    $(app, "#r-range").oninput = (/** @type {any} */ e) => go(Number(e.target.value));
    $(app, "#r-deal").onchange = (/** @type {any} */ e) => go(steps.findIndex((x) => x.deal === Number(e.target.value)));
  }
  document.onkeydown = (e) => {
    if (!location.hash.startsWith("#/replay")) { document.onkeydown = null; return; }
    if (e.key === "ArrowRight") $(document, "#r-next")?.click();
    if (e.key === "ArrowLeft") $(document, "#r-prev")?.click();
  };
  draw();
}

// --- start --------------------------------------------------------------------------------
document.body.insertAdjacentHTML("afterbegin", sprite());
saveSettings();
$(document, "#lang").addEventListener("change", async (/** @type {any} */ e) => {
  localStorage.setItem("bezique.lang", e.target.value);
  await loadLang(e.target.value);
  if (current) render(current); else route();
});
window.addEventListener("hashchange", route);
loadLang(pickLang()).then(route);
