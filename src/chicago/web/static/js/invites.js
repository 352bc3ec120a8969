// Invitations to a table (docs/PROTOCOL.md, "People"): the ones this profile received, shown
// in a region at the top of every page with Join and Decline (and as a notification of the
// browser when the tab is hidden and the person allowed it, like the turn notices); and what
// became of the ones it made or received (declined, the table filled …), said once.

import { h, replaceKeepingFocus } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { api } from "./api.js";
import { onInvites, yourInvites, notifyState } from "./site.js";
import { announce, showError, showNotice } from "./notice.js";

let received = new Map(); // id -> invite, as last shown
let sent = new Map();
let busy = false;

function region() {
  return document.getElementById("invites");
}

async function answer(invite, what) {
  if (busy) return;
  busy = true;
  try {
    const res = await api.answerInvite(invite.id, what);
    if (what === "accept" && res.table) location.hash = `#/table/${res.table}`;
  } catch (err) {
    showError(err.code || "network", err.message);
  } finally {
    busy = false;
  }
}

function card(invite) {
  const table = invite.table_name || t("lobby.unnamed");
  return h("div", { class: "invite-card", role: "group", "aria-label": t("invite.notify_title"), dataset: { invite: invite.id } },
    h("p", {}, t("invite.from", { name: invite.by.name, table })),
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary", dataset: { action: "invite-join" }, onclick: () => answer(invite, "accept") }, t("invite.join")),
      h("button", { type: "button", dataset: { action: "invite-decline" }, onclick: () => answer(invite, "decline") }, t("invite.decline"))));
}

function render() {
  const el = region();
  if (!el) return;
  const list = [...received.values()];
  el.hidden = !list.length;
  el.setAttribute("aria-label", t("invite.region"));
  replaceKeepingFocus(el, ...list.map(card));
}

/** What became of an invitation that ended, in words (null: the person did it themselves). */
function endedText(ended) {
  const mine = received.get(ended.id);
  if (mine) {
    const table = mine.table_name || t("lobby.unnamed");
    if (ended.outcome === "full") return t("invite.ended_full");
    if (ended.outcome === "ended") return t("invite.ended_ended");
    if (ended.outcome === "withdrawn") return t("invite.ended_withdrawn", { table });
    return null;
  }
  const made = sent.get(ended.id);
  if (made) {
    if (ended.outcome === "declined") return t("invite.declined", { name: made.to.name });
    if (ended.outcome === "joined") return t("invite.ended_joined", { name: made.to.name });
  }
  return null;
}

function notify(fresh) {
  if (document.visibilityState !== "hidden" || notifyState() !== "granted") return;
  for (const invite of fresh) {
    const note = new Notification(t("invite.notify_title"), {
      body: t("invite.from", { name: invite.by.name, table: invite.table_name || t("lobby.unnamed") }), tag: `chicago-invite-${invite.id}`,
    });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  }
}

function heard(msg) {
  const said = (msg.ended || []).map(endedText).filter(Boolean);
  const fresh = (msg.invites || []).filter((i) => !received.has(i.id));
  received = new Map((msg.invites || []).map((i) => [i.id, i]));
  sent = new Map((msg.sent || []).map((i) => [i.id, i]));
  render();
  if (said.length) showNotice(said.join(" "));
  for (const invite of fresh) announce(t("invite.from", { name: invite.by.name, table: invite.table_name || t("lobby.unnamed") }));
  if (fresh.length) notify(fresh);
}

/** Show the invitations of every page (once, at the start of the app). */
export function startInvites() {
  onInvites(heard);
  onLangChange(render);
  const now = yourInvites();
  received = new Map((now.invites || []).map((i) => [i.id, i]));
  sent = new Map((now.sent || []).map((i) => [i.id, i]));
  render();
}
