// Messages for the player: errors from the server in words, short confirmations.
// One live region at the top of the page (role="alert" for errors, "status" otherwise).

import { h, replace } from "./dom.js";
import { t, has, lang } from "./i18n.js";

let timer = null;
let carried = false; // the notice shown goes on to the next page (it says where it leads)

function area() {
  return document.getElementById("notice");
}

function show(kind, text, ms, carry = false) {
  const el = area();
  if (!el) return;
  clearTimeout(timer);
  carried = carry;
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

/**
 * A short confirmation. It belongs to the page that shows it and goes when the player
 * leaves that page, unless ``carry``: a notice about the move to the next page ("Signed in
 * as …" before the profile opens) stays for that page.
 */
export function showNotice(text, { carry = false } = {}) {
  show("info", text, 4000, carry);
}

/** The page changes: a notice or error of the page left behind goes with it. */
export function leavePage() {
  if (carried) carried = false;
  else hide();
}

/** Say something to screen readers (a persistent live region outside the re-drawn page). */
export function announce(text) {
  const el = document.getElementById("announcer");
  if (!el || !text) return;
  el.appendChild(h("p", {}, text));
  while (el.childNodes.length > 6) el.removeChild(el.firstChild);
}
