// "Play now with people" (docs/PROTOCOL.md, "Pairing"): a place in a queue by preset and
// number of players, held on the socket /ws/pairing. The place's ticket is kept for the tab
// (sessionStorage): a reload or a lost connection takes the place back; once paired the ticket
// is the seat token, and the page goes to the seat. The socket lives as long as the tab, so
// the place is kept while the person looks at other pages; closing the tab gives it up (after
// the server's grace).

import { h } from "./dom.js";
import { t, num } from "./i18n.js";
import * as store from "./store.js";
import { presetName } from "./words.js";
import { showError } from "./notice.js";
import { openSocket } from "./site.js";

const TICKET = "chicago.pairing";
export const WAITS = [0, 30, 60, 120, 300, null]; // seconds before bots (null: never)

const listeners = new Set();
let socket = null;
let retry = 500;
let state = { phase: "idle" }; // idle | connecting | queued
let pending = null; // the queue message to send once the socket is open

function saved() {
  try {
    return JSON.parse(sessionStorage.getItem(TICKET) || "null");
  } catch {
    return null;
  }
}

function keep(value) {
  try {
    if (value) sessionStorage.setItem(TICKET, JSON.stringify(value));
    else sessionStorage.removeItem(TICKET);
  } catch {
    // a browser without storage: the place lives as long as the socket
  }
}

function set(next) {
  state = next;
  for (const fn of listeners) fn(state);
}

/** How the place stands: {phase: "idle"|"connecting"|"queued", ...the last queued frame}. */
export function pairingState() {
  return state;
}

/** Call `fn(state)` whenever the place changes; returns the function that stops it. */
export function onPairing(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function open() {
  if (socket) return;
  socket = openSocket("ws/pairing", {
    open: () => {
      retry = 500;
      const ticket = saved();
      if (pending) {
        send(pending);
        pending = null;
      } else if (ticket) {
        send({ type: "resume", ticket: ticket.ticket });
      }
    },
    message: received,
    close: (event) => {
      socket = null;
      if (event.code === 4401) {
        store.forgetProfile();
        keep(null);
        set({ phase: "idle" });
        return;
      }
      if (saved()) { // the place is still ours: take it back
        set({ ...state, phase: state.phase === "queued" ? "queued" : "connecting", offline: true });
        setTimeout(open, retry);
        retry = Math.min(retry * 2, 30000);
      }
    },
  });
}

function received(msg) {
  if (msg.type === "queued") {
    keep({ ticket: msg.ticket });
    set({ phase: "queued", ...msg, offline: false });
  } else if (msg.type === "waiting") {
    if (state.phase === "queued") set({ ...state, waiting: msg.waiting });
  } else if (msg.type === "paired") {
    keep(null);
    set({ phase: "idle" });
    store.saveSeat(msg.table, msg.token, msg.seat, t("pair.table_name"));
    location.hash = `#/table/${msg.table}`;
  } else if (msg.type === "left") {
    keep(null);
    set({ phase: "idle" });
    if (msg.reason === "gone") showError("no_place", "");
  } else if (msg.type === "error") {
    if (msg.code === "no_place") keep(null);
    if (state.phase === "connecting") set({ phase: "idle" });
    showError(msg.code, msg.message);
  }
}

/** Take a place: `{preset, players, wait, rated}`; the name or profile are this browser's. */
export function joinQueue(choice) {
  const profile = store.profile();
  const message = {
    type: "queue", preset: choice.preset, players: choice.players, wait: choice.wait,
    rated: Boolean(choice.rated && profile), name: profile ? null : store.playerName() || null,
    profile: profile ? profile.secret : null,
  };
  set({ phase: "connecting" });
  if (socket && socket.readyState === WebSocket.OPEN) send(message);
  else {
    pending = message;
    open();
  }
}

/** Give the place up. */
export function leaveQueue() {
  send({ type: "leave" });
}

/** After a reload: take back the place this tab held. */
export function resumeQueue() {
  if (saved() && !socket) {
    set({ phase: "connecting" });
    open();
  }
}

/** The lobby's "Play now with people" panel; `choice` is the lobby's remembered form. */
export function pairingPanel(info, choice, rerender) {
  const players = info.players[choice.preset] || [];
  if (!players.includes(choice.players)) choice.players = players[players.length - 1];
  const s = state;
  const head = [h("h2", { id: "pair-title" }, t("pair.title")), h("p", { class: "muted" }, t("pair.intro"))];
  if (s.phase === "queued") {
    const until = s.wait === null ? null : new Date(Date.parse(s.since) + s.wait * 1000);
    return h("section", { class: "panel pairing", "aria-labelledby": "pair-title", dataset: { pairing: "queued" } },
      ...head,
      h("p", { role: "status", class: "pair-status" },
        t("pair.waiting", { preset: presetName(s.preset), players: s.players, waiting: num(s.waiting) })),
      h("p", { class: "muted" }, until ? t("pair.bots_at", { time: until.toLocaleTimeString() }) : t("pair.bots_never")),
      s.offline ? h("p", { class: "muted" }, t("pair.reconnecting")) : null,
      h("button", { type: "button", dataset: { action: "pair-leave" }, onclick: () => leaveQueue() }, t("pair.leave")));
  }
  const presetSelect = h("select", { id: "p-preset", onchange: (e) => { choice.preset = e.target.value; rerender(); } },
    info.presets.map((p) => h("option", { value: p, selected: p === choice.preset }, presetName(p))));
  const playersSelect = h("select", { id: "p-players", onchange: (e) => { choice.players = Number(e.target.value); } },
    players.map((n) => h("option", { value: n, selected: n === choice.players }, String(n))));
  const waitLabel = (w) => (w === null ? t("pair.wait_never") : w === 0 ? t("pair.wait_now")
    : w < 60 ? t("pair.wait_s", { n: w }) : t("pair.wait_min", { n: w / 60 }));
  const waits = h("fieldset", { class: "choices" }, h("legend", {}, t("pair.wait")),
    WAITS.map((w, i) => h("label", { class: "choice" },
      h("input", { type: "radio", name: "p-wait", value: String(i), checked: w === choice.wait, dataset: { wait: String(w) }, onchange: () => { choice.wait = w; } }),
      " ", waitLabel(w))));
  const submit = (e) => {
    e.preventDefault();
    joinQueue(choice);
    rerender();
  };
  return h("section", { class: "panel pairing", "aria-labelledby": "pair-title", dataset: { pairing: s.phase } },
    ...head,
    h("form", { id: "pair-form", onsubmit: submit },
      h("div", { class: "field" }, h("label", { for: "p-preset" }, t("pair.preset")), presetSelect),
      h("div", { class: "field" }, h("label", { for: "p-players" }, t("pair.players")), playersSelect),
      waits,
      store.profile() ? h("label", { class: "choice" }, h("input", { type: "checkbox", id: "p-rated", checked: choice.rated, onchange: (e) => { choice.rated = e.target.checked; } }), " ", t("pair.rated")) : null,
      h("button", { type: "submit", class: "primary", dataset: { action: "pair" }, disabled: s.phase === "connecting" },
        s.phase === "connecting" ? t("pair.connecting") : t("pair.submit"))));
}
