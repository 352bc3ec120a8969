// Swedish and English. The choice is remembered in localStorage ("chicago.lang"); the first
// visit follows the browser's language (Swedish for sv/sv-SE/sv-FI, else English).
//
// The words are one catalogue shared with the terminal: ../lang/en.json and sv.json, one
// message per key in the ICU MessageFormat syntax (formatted by icu.js). t("key", {n: 3})
// looks the key up in the current language (falling back to English, then to the key
// itself); items("help.body") gives the numbered keys help.body.1, help.body.2 … as a list.

import { formatMessage } from "./icu.js";
import en from "../lang/en.json" with { type: "json" };
import sv from "../lang/sv.json" with { type: "json" };

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
  let message = LANGS[current][key];
  if (message === undefined) message = LANGS.en[key];
  if (message === undefined) return key;
  return formatMessage(message, params);
}

/** The numbered entries `${prefix}.1${suffix}`, `${prefix}.2${suffix}` … as a list of texts. */
export function items(prefix, suffix = "") {
  const found = [];
  for (let i = 1; has(`${prefix}.${i}${suffix}`); i += 1) found.push(t(`${prefix}.${i}${suffix}`));
  return found;
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
