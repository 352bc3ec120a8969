// People (docs/PROTOCOL.md, "People"): the lobby's "People online" and "People you follow"
// with the switch "Show me as online"; and, at a table where this profile sits and a seat is
// open, the list of people to invite. Both ask the server again when the site socket says
// that who is online may have changed (a "people" frame).

import { h, replaceKeepingFocus } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import * as store from "./store.js";
import { onPeople, onInvites, yourInvites } from "./site.js";
import { showError, showNotice } from "./notice.js";

/** GET /api/people, again when the site socket says it changed; `then(people)` after each. */
class PeopleFeed {
  constructor(then) {
    this.then = then;
    this.people = null;
    this.asking = false;
    this.again = false;
    this.off = onPeople(() => this.load());
  }

  async load() {
    if (this.asking) {
      this.again = true;
      return;
    }
    this.asking = true;
    try {
      do {
        this.again = false;
        this.people = await api.people();
        this.then(this.people);
      } while (this.again);
    } catch (err) {
      if (err.code !== "rate_limited") showError(err.code || "network", err.message);
    } finally {
      this.asking = false;
    }
  }

  close() {
    this.off();
  }
}

function where(person) {
  if (!person.online) return h("span", { class: "muted" }, t("people.offline"));
  return h("span", { class: "muted" }, h("span", { class: "online-dot", "aria-hidden": "true" }), t("people.online"),
    person.table ? [" · ", h("a", { href: `#/table/${person.table.id}` }, t("people.at", { name: person.table.name || t("lobby.unnamed") }))] : null);
}

/** The lobby's panel of people: render its `el` where it belongs; `close()` on leaving. */
export class PeoplePanel {
  constructor() {
    this.el = h("section", { class: "panel people", dataset: { testid: "people" }, "aria-labelledby": "people-title" });
    this.feed = new PeopleFeed(() => this.render());
    this.render();
    this.feed.load();
  }

  close() {
    this.feed.close();
  }

  async act(work, done) {
    try {
      await work();
      if (done) showNotice(done);
    } catch (err) {
      showError(err.code || "network", err.message);
    }
    await this.feed.load();
  }

  render() {
    const people = this.feed.people;
    const me = store.profile();
    const followed = new Set(((people && people.following) || []).map((p) => p.profile));
    const online = people ? people.online.filter((p) => !me || p.profile !== me.id) : null;
    const followButton = (p) => (me && !followed.has(p.profile)
      ? h("button", { type: "button", class: "link", dataset: { action: "follow", profile: p.profile },
        onclick: () => this.act(() => api.follow(p.profile, true), t("people.followed", { name: p.name })) }, t("people.follow", { name: p.name }))
      : null);
    replaceKeepingFocus(this.el,
      h("h2", { id: "people-title" }, t("people.title")),
      h("p", { class: "muted" }, t("people.intro")),
      me && people ? h("label", { class: "choice" }, h("input", {
        type: "checkbox", id: "show-online", checked: Boolean(people.shows_online),
        onchange: (e) => this.act(() => api.showOnline(e.target.checked)),
      }), " ", t("people.show_me")) : null,
      online === null ? h("p", {}, t("loading")) : !online.length ? h("p", { class: "muted", dataset: { testid: "nobody-online" } }, t("people.none"))
        : h("ul", { class: "rows", dataset: { testid: "people-online" } }, online.map((p) => h("li", { dataset: { profile: p.profile } },
          h("strong", {}, p.name), " ", where(p), " ", followButton(p)))),
      me ? h("h3", {}, t("people.following")) : h("p", { class: "muted" }, t("people.sign_in"), " ", h("a", { href: "#/profile" }, t("club.make_profile"))),
      me && people ? (people.following.length
        ? h("ul", { class: "rows", dataset: { testid: "following" } }, people.following.map((p) => h("li", { dataset: { profile: p.profile, online: String(p.online) } },
          h("strong", {}, p.name), " ", where(p), " ",
          h("button", { type: "button", class: "link", dataset: { action: "unfollow", profile: p.profile },
            onclick: () => this.act(() => api.follow(p.profile, false), t("people.unfollowed", { name: p.name })) }, t("people.unfollow", { name: p.name })))))
        : h("p", { class: "muted" }, t("people.following_none"))) : null);
  }
}

/** At a table where this profile sits with a seat open: the people it may invite. */
export class InvitePanel {
  constructor(tableId) {
    this.tableId = tableId;
    this.el = h("div", { class: "invite-people", dataset: { testid: "invite-people", table: tableId } });
    this.sent = yourInvites().sent || [];
    this.seated = new Set();
    this.feed = new PeopleFeed(() => this.render());
    this.offInvites = onInvites((msg) => {
      this.sent = msg.sent || [];
      this.render();
    });
    this.render();
    this.feed.load();
  }

  close() {
    this.feed.close();
    this.offInvites();
  }

  /** The profiles seated at the table (not to be invited). */
  update(seats) {
    this.seated = new Set(seats.map((s) => s.profile).filter(Boolean));
    this.render();
  }

  async invite(person) {
    try {
      await api.invite(this.tableId, person.profile);
      showNotice(t("invite.sent", { name: person.name }));
    } catch (err) {
      showError(err.code || "network", err.message);
    }
  }

  render() {
    const people = this.feed.people;
    const me = store.profile();
    const invited = this.sent.filter((i) => i.table === this.tableId);
    const pending = new Set(invited.map((i) => i.to.profile));
    const seen = new Map();
    for (const p of [...((people && people.following) || []), ...((people && people.online) || [])]) {
      if (!seen.has(p.profile) && (!me || p.profile !== me.id) && !this.seated.has(p.profile)) seen.set(p.profile, p);
    }
    const candidates = [...seen.values()];
    replaceKeepingFocus(this.el,
      h("h3", {}, t("invite.title")),
      h("p", { class: "muted" }, t("invite.intro")),
      people === null ? h("p", {}, t("loading")) : !candidates.length ? h("p", { class: "muted" }, t("invite.none"))
        : h("ul", { class: "rows" }, candidates.map((p) => h("li", { dataset: { profile: p.profile } },
          h("strong", {}, p.name), " ", where(p), " ",
          h("button", { type: "button", dataset: { action: "invite-profile", profile: p.profile }, disabled: pending.has(p.profile),
            onclick: () => this.invite(p) }, t("invite.button", { name: p.name }))))),
      invited.length ? h("p", { dataset: { testid: "invited" } }, t("invite.pending", { names: invited.map((i) => i.to.name).join(", ") })) : null);
  }
}
