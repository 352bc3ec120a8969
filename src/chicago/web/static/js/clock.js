// Countdowns drawn as SVG: the turn clock as a ring that empties (in the seat panel of the
// seat to act, and as a bar over the player's own buttons), no clock glyph or emoji. The
// page moves them on every quarter second with updateCountdowns(); nothing else redraws.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const R = 15.5;
const CIRCUMFERENCE = 2 * Math.PI * R;
const LOW = 5; // seconds: the countdown turns red

const RING = `<svg viewBox="0 0 36 36" aria-hidden="true" focusable="false">` +
  `<circle class="ring-track" cx="18" cy="18" r="${R}"/>` +
  `<circle class="ring-left" cx="18" cy="18" r="${R}" transform="rotate(-90 18 18)" ` +
  `stroke-dasharray="${CIRCUMFERENCE.toFixed(2)}"/></svg>`;

const BAR = `<svg viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true" focusable="false">` +
  `<rect class="bar-track" x="0" y="0" width="100" height="6" rx="3"/>` +
  `<rect class="bar-left" x="0" y="0" width="100" height="6" rx="3"/></svg>`;

/** Seconds left of a countdown {until (performance.now() ms), total (s)}. */
export function secondsLeft(countdown) {
  return Math.max(0, (countdown.until - performance.now()) / 1000);
}

/** The ring of a running countdown; `kind` names what it counts ("turn" or "pause"). */
export function ringEl(countdown, kind = "turn") {
  return countdownEl(countdown, kind, "ring", RING);
}

/** A bar for the same countdown (over the player's own buttons). */
export function barEl(countdown, kind = "turn") {
  return countdownEl(countdown, kind, "bar", BAR);
}

function countdownEl(countdown, kind, shape, svg) {
  const el = h("span", { class: `countdown ${shape} ${kind}`, role: "timer", dataset: { countdown: kind } },
    h("span", { class: `${shape}-svg`, html: svg }),
    h("span", { class: `${shape}-text` }, ""));
  updateCountdown(el, countdown);
  return el;
}

/** Move one countdown element to the time left now. */
export function updateCountdown(el, countdown) {
  const left = secondsLeft(countdown);
  const share = countdown.total > 0 ? Math.min(1, left / countdown.total) : 0;
  const secs = Math.ceil(left);
  const words = t("table.clock", { s: secs });
  el.setAttribute("aria-label", words);
  el.title = words;
  el.classList.toggle("low", secs <= LOW);
  const ring = el.querySelector(".ring-left");
  if (ring) ring.style.strokeDashoffset = String((CIRCUMFERENCE * (1 - share)).toFixed(2));
  const bar = el.querySelector(".bar-left");
  if (bar) bar.setAttribute("width", (100 * share).toFixed(2));
  const text = el.querySelector(".ring-text, .bar-text");
  if (text) text.textContent = el.classList.contains("bar") ? words : String(secs);
}

/** Move every countdown of `root` (each reads its own countdown from `lookup(kind)`). */
export function updateCountdowns(root, lookup) {
  for (const el of root.querySelectorAll("[data-countdown]")) {
    const countdown = lookup(el.dataset.countdown);
    if (countdown) updateCountdown(el, countdown);
  }
}
