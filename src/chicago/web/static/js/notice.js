// Messages for the player: errors from the server in words, short confirmations.
// One live region at the top of the page (role="alert" for errors, "status" otherwise).

import { h, replace } from "./dom.js";
import { t, has, lang } from "./i18n.js";

let timer = null;

function area() {
  return document.getElementById("notice");
}

function show(kind, text, ms) {
  const el = area();
  if (!el) return;
  clearTimeout(timer);
  el.className = `notice ${kind}`;
  el.setAttribute("role", kind === "error" ? "alert" : "status");
  replace(el, h("span", { class: "notice-text", dataset: { kind } }, text),
    h("button", { type: "button", class: "close", "aria-label": t("btn.close"), onclick: hide }, "×"));
  el.hidden = false;
  timer = setTimeout(hide, ms);
}

export function hide() {
  const el = area();
  if (el) {
    el.hidden = true;
    replace(el);
  }
}

/**
 * An error in words, in the player's language. The server's own message is English: it
 * follows the explanation on an English page (it often names the detail, such as the rule
 * an action broke); on a Swedish page it is shown only for a code without a translation,
 * labelled as the server's message.
 */
export function errorText(err) {
  const code = (err && err.code) || "network";
  const message = (err && err.message) || "";
  const key = `err.${code}`;
  const known = has(key);
  let text = known ? t(key) : t("err.title");
  const detail = message && code !== "network" && message !== code;
  if (detail && (!known || lang() === "en")) text += " " + t("err.server", { message });
  return text;
}

export function showError(code, message = "") {
  show("error", errorText({ code, message }), 9000);
}

export function showNotice(text) {
  show("info", text, 4000);
}

/** Say something to screen readers (a persistent live region outside the re-drawn page). */
export function announce(text) {
  const el = document.getElementById("announcer");
  if (!el || !text) return;
  el.appendChild(h("p", {}, text));
  while (el.childNodes.length > 6) el.removeChild(el.firstChild);
}
