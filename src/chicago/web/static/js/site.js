// The site socket (docs/PROTOCOL.md, "The site socket"): one per tab, for this person's news
// rather than a table's. It says who the person is (the profile's secret, the seat tokens
// this browser holds) and gets the tables where it is their turn ("Your games"), again each
// time that changes. Shown as a badge on "Your games", in the tab's title, and, when the tab
// is hidden and the person allowed it, as a notification of the browser (Notification API).
// The tab's title is made here alone: "(n) " for the tables waiting, then the page's name
// (set by app.js on each route, setPageTitle) and the app's, in the current language.

import { t, onLangChange } from "./i18n.js";
import * as store from "./store.js";

const listeners = new Set();
const peopleListeners = new Set(); // who is online may have changed (a "people" frame)
const inviteListeners = new Set(); // this profile's invitations (an "invites" frame)
let socket = null;
let turns = [];
let invites = { invites: [], sent: [], ended: [] }; // the last "invites" frame
let known = null; // the tables already announced (null: none yet, the first list is not news)
let retry = 500;
let started = false;
let pageKey = "nav.lobby"; // the catalogue key of the page shown, for the tab's title

/** The tables where it is this person's turn: [{table, name, seat, game, since, deadline, clock_days}]. */
export function yourTurns() {
  return turns;
}

/** Call `fn()` whenever the list changes; returns the function that stops it. */
export function onTurns(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Call `fn()` when who is online may have changed; returns the function that stops it. */
export function onPeople(fn) {
  peopleListeners.add(fn);
  return () => peopleListeners.delete(fn);
}

/** This profile's open invitations as last heard: {invites: [received], sent: [made]}. */
export function yourInvites() {
  return invites;
}

/** Call `fn({invites, sent, ended})` on each "invites" frame; returns the function that stops it. */
export function onInvites(fn) {
  inviteListeners.add(fn);
  return () => inviteListeners.delete(fn);
}

/** Whether browser notifications can be asked for here, and their state. */
export function notifyState() {
  if (typeof Notification === "undefined") return "unsupported";
  return Notification.permission; // default | granted | denied
}

/** Ask the browser for permission to notify (a click of the person's own). */
export async function askToNotify() {
  if (typeof Notification === "undefined") return "unsupported";
  const answer = await Notification.requestPermission();
  show();
  return answer;
}

/** The address of one of the site's sockets (`path`: "ws/site", "ws/pairing"). */
export function socketUrl(path) {
  const base = new URL(".", location.href);
  base.protocol = base.protocol === "https:" ? "wss:" : "ws:";
  return new URL(path, base).href;
}

/** Say who this tab is: the profile and the seats it holds (again after they change). */
export function hello() {
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  const profile = store.profile();
  const tokens = Object.values(store.seats()).map((s) => s.token).filter(Boolean).slice(0, 30);
  socket.send(JSON.stringify({ type: "hello", profile: profile ? profile.secret : null, tokens }));
}

/**
 * Open one of the site's sockets (`path`: "ws/site", "ws/pairing") whose frames are JSON:
 * `handlers.open()`, `handlers.message(msg)` for each frame that parses, `handlers.close(event)`.
 * Null when the browser refuses to open it.
 */
export function openSocket(path, handlers) {
  let ws;
  try {
    ws = new WebSocket(socketUrl(path));
  } catch {
    return null;
  }
  ws.onopen = () => handlers.open();
  ws.onmessage = (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return;
    }
    handlers.message(msg);
  };
  ws.onclose = (event) => handlers.close(event);
  return ws;
}

function connect() {
  socket = openSocket("ws/site", {
    open: () => {
      retry = 500;
      hello();
    },
    message: (msg) => {
      if (msg.type === "turns") received(msg.turns || []);
      else if (msg.type === "people") for (const fn of peopleListeners) fn();
      else if (msg.type === "invites") {
        invites = msg;
        for (const fn of inviteListeners) fn(msg);
      }
    },
    close: (event) => {
      socket = null;
      if (event.code === 4401) store.forgetProfile(); // signed out everywhere: its secret is dead
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    },
  });
}

function received(list) {
  const fresh = known === null ? [] : list.filter((tb) => !known.has(`${tb.table}:${tb.game}:${tb.since}`));
  known = new Set(list.map((tb) => `${tb.table}:${tb.game}:${tb.since}`));
  turns = list;
  show();
  if (fresh.length) notify(fresh);
  for (const fn of listeners) fn(turns);
}

/** A notification of the browser for turns that came while the tab is hidden. */
function notify(fresh) {
  if (document.visibilityState !== "hidden" || notifyState() !== "granted") return;
  for (const tb of fresh) {
    const note = new Notification(t("turns.notify_title"), {
      body: t("turns.notify_body", { name: tb.name || t("lobby.unnamed") }), tag: `chicago-${tb.table}`,
    });
    note.onclick = () => {
      window.focus();
      location.hash = `#/table/${tb.table}`;
      note.close();
    };
  }
}

/**
 * Name the page shown in the tab's title (WCAG 2.4.2): `key` is a catalogue key ("nav.games",
 * "table.title"), never a name someone typed; the title follows the language from here on.
 */
export function setPageTitle(key) {
  pageKey = key;
  show();
}

/** The badge of "Your games" and the tab's title: how many tables wait for this person, the
 * page's name and the app's ("(2) Finished games – Chicago"). */
function show() {
  const n = turns.length;
  const badge = document.getElementById("turns-badge");
  if (badge) {
    badge.textContent = n ? String(n) : "";
    badge.hidden = !n;
    badge.setAttribute("aria-label", t("turns.badge", { n }));
  }
  document.title = (n ? `(${n}) ` : "") + t("page.title", { page: t(pageKey), app: t("app.title") });
}

/** Start the site socket (once), and say hello again when the seats or profile change. */
export function startSite() {
  if (started) return;
  started = true;
  onLangChange(show);
  store.onChange(hello);
  window.addEventListener("storage", (e) => { if (e.key && e.key.startsWith("chicago.")) hello(); });
  connect();
}

export { show as showTurns };
