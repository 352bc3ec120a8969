// Swedish and English. The choice is remembered in localStorage ("chicago.lang"); the first
// visit follows the browser's language (Swedish for sv/sv-SE/sv-FI, else English).
//
// t("key", {n: 3}) looks the key up in the current language (falling back to English, then
// to the key itself). An entry is a string with {placeholders} or a function of the params.

import en from "./lang/en.js";
import sv from "./lang/sv.js";

export const LANGS = { en, sv };
const KEY = "chicago.lang";
const listeners = new Set();

function initial() {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved && LANGS[saved]) return saved;
  } catch {
    /* storage may be unavailable */
  }
  const wanted = (navigator.languages || [navigator.language || "en"]).map((l) => String(l).toLowerCase());
  return wanted.some((l) => l === "sv" || l.startsWith("sv-")) ? "sv" : "en";
}

let current = initial();
document.documentElement.lang = current;

export function lang() {
  return current;
}

export function setLang(code) {
  if (!LANGS[code] || code === current) return;
  current = code;
  try {
    localStorage.setItem(KEY, code);
  } catch {
    /* ignore */
  }
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function has(key) {
  return key in LANGS[current] || key in LANGS.en;
}

export function t(key, params = {}) {
  let entry = LANGS[current][key];
  if (entry === undefined) entry = LANGS.en[key];
  if (entry === undefined) return key;
  if (typeof entry === "function") return entry(params);
  if (typeof entry !== "string") return entry; // lists (keyboard help, rules text)
  return entry.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** A number in the current language's style (Swedish decimal comma). */
export function num(value, digits = 0) {
  return Number(value).toLocaleString(current === "sv" ? "sv-SE" : "en-GB", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** A signed amount: +12, −8 (money or points). */
export function signed(value, digits = 0) {
  const text = num(Math.abs(value), digits);
  if (value > 0) return "+" + text;
  if (value < 0) return "−" + text;
  return text;
}
