// What every view shares: the translations, the settings, the server API, drawing a card.
import { cardSVG, label as cardLabel } from "./cards.js";

export const LANGS = ["en", "fr", "ru", "el", "kk", "bs"];
/** @type {Record<string, string>} */
let strings = {};
/** @type {Record<string, string>} */
let fallback = {};

/** The language chosen before, else the browser's, else English. @returns {string} */
export function pickLang() {
  const saved = localStorage.getItem("bezique.lang");
  if (saved && LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const short = (l || "").slice(0, 2).toLowerCase();
    if (LANGS.includes(short)) return short;
    if (["hr", "sr"].includes(short)) return "bs";
  }
  return "en";
}

/** Load a language's texts (English stays loaded for any key a language lacks).
 * @param {string} l */
export async function loadLang(l) {
  const get = async (/** @type {string} */ x) => (await fetch(`/static/i18n/${x}.json`)).json();
  if (!Object.keys(fallback).length) fallback = await get("en");
  strings = l === "en" ? fallback : await get(l);
  document.documentElement.lang = l;
  const sel = /** @type {HTMLSelectElement|null} */ (document.getElementById("lang"));
  if (sel) sel.value = l;
  document.querySelectorAll("[data-i18n]").forEach((e) => { e.textContent = t(/** @type {HTMLElement} */ (e).dataset.i18n || ""); });
}

/** A text in the chosen language with its {placeholders} filled in.
 * @param {string} key @param {Record<string, string|number>} [params] @returns {string} */
export function t(key, params = {}) {
  let s = strings[key] ?? fallback[key] ?? key;
  for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** A translated name with a fallback for keys no file has. @param {string} prefix @param {string} name */
export function named(prefix, name) {
  return strings[prefix + name] ?? fallback[prefix + name] ?? name.replace(/-/g, " ");
}

/** @param {string} name */
export const meldName = (name) => named("meld.", name);

/** The rank letters of the chosen language (Russian К Д В Т). @returns {Record<string, string>} */
export function ranks() {
  /** @type {Record<string, string>} */
  const out = {};
  for (const r of "AKQJ") out[r] = t(`rank.${r}`);
  return out;
}

/** A card's short name in the chosen language. @param {string} code */
export const label = (code) => cardLabel(code, ranks());

/** @param {unknown} s @returns {string} */
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c] || c));

/** A short message at the bottom of the screen. @param {string} text */
export function toast(text) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove("show"), 3500);
}
/** @type {ReturnType<typeof setTimeout>|undefined} */
let toastTimer;

// --- settings (kept in this browser) -------------------------------------------------------
/** @typedef {{ speed: number, fourColour: boolean, sound: boolean }} Settings */
/** @type {Settings} */
export const settings = { speed: 1, fourColour: false, sound: false };
try {
  Object.assign(settings, JSON.parse(localStorage.getItem("bezique.settings") || "{}"));
} catch { /* a damaged entry: the defaults */ }
export function saveSettings() {
  localStorage.setItem("bezique.settings", JSON.stringify(settings));
  document.documentElement.classList.toggle("four-colour", settings.fourColour);
}

// --- the server ------------------------------------------------------------------------------
/** A JSON request; its error text when it fails. @param {string} path @param {unknown} [body] */
export async function api(path, body) {
  /** @type {RequestInit} */
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const err = new Error(data.detail ? (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)) : r.statusText);
    /** @type {any} */ (err).status = r.status;
    throw err;
  }
  return data;
}

// --- cards in the page ------------------------------------------------------------------------
/**
 * A card: a button when it may be played (``action``), a button that says why not when it is
 * the player's turn and it may not (``blocked``), else a picture.
 * @param {string} code @param {{ action?: string|null, size?: string, aria?: string|null, blocked?: boolean }} [o]
 */
export function card(code, { action = null, size = "", aria = null, blocked = false } = {}) {
  const cls = `card${size ? " " + size : ""}${action ? " playable" : ""}${blocked && !action ? " blocked" : ""}`;
  const title = esc(aria || label(code));
  const svg = cardSVG(code, { fourColour: settings.fourColour, ranks: ranks() });
  if (action) {
    return `<button class="${cls}" data-action="${esc(action)}" data-card="${esc(code)}" aria-label="${t("aria.play", { card: title })}">${svg}</button>`;
  }
  if (blocked) {
    return `<button class="${cls}" data-blocked="1" data-card="${esc(code)}" aria-disabled="true" aria-label="${title}">${svg}</button>`;
  }
  return `<span class="${cls}" role="img" aria-label="${title}" data-card="${esc(code)}">${svg}</span>`;
}
