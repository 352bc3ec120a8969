// Club play (docs/CLUB.md): your profile (create, sign-in link, sign out everywhere), a
// profile's page (statistics, rating history chart, recent games), the sign-in link's page
// and the leaderboard.
//   #/profile            this browser's profile (or the form to make one)
//   #/profile/ID         a profile's page
//   #/signin/SECRET      store a profile's secret on this device
//   #/leaderboard[/L]    a ladder's ratings

import { h, replaceKeepingFocus, copyText } from "./dom.js";
import { MailSettings } from "./mailsettings.js";
import { t, onLangChange, num } from "./i18n.js";
import { api } from "./api.js";
import * as store from "./store.js";
import { levelName } from "./words.js";
import { showError, showNotice } from "./notice.js";

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element (attributes only: the app sets no inline styles). */
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A shown rating in the page's language ("12,3" in Swedish). */
export function ratingText(value) {
  return value === null || value === undefined ? "–" : num(value, 1);
}

/** The name of a ladder: "pagat, 4 players". */
export function ladderName(ladder) {
  const [family, size] = String(ladder || "").split("/");
  const n = parseInt(size, 10);
  return Number.isFinite(n) ? t("club.ladder_name", { family, n }) : String(ladder || "");
}

/**
 * The rating history as an inline SVG line chart (x: rated games in order, y: the shown
 * rating after each), with its numbers in a <title> and a text summary for screen readers.
 */
export function ratingChart(points) {
  if (!points.length) return h("p", { class: "muted", dataset: { chart: "empty" } }, t("club.no_history"));
  const width = 320, height = 140, pad = 28;
  const values = points.map((p) => p.after.rating);
  const first = points[0].before.rating;
  const all = [first, ...values];
  let lo = Math.min(...all), hi = Math.max(...all);
  if (hi - lo < 1) { lo -= 0.5; hi += 0.5; }
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(1, all.length - 1);
  const y = (v) => height - pad - ((v - lo) * (height - 2 * pad)) / (hi - lo);
  const line = all.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const summary = t("club.chart_summary", { n: points.length, from: ratingText(first), to: ratingText(values[values.length - 1]) });
  return h("figure", { class: "rating-chart", dataset: { chart: points.length } },
    svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary, class: "chart" },
      svg("title", {}, summary),
      svg("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: "axis" }),
      svg("line", { x1: pad, y1: pad, x2: pad, y2: height - pad, class: "axis" }),
      svg("text", { x: 2, y: y(hi) + 4, class: "tick" }, ratingText(hi)),
      svg("text", { x: 2, y: y(lo) + 4, class: "tick" }, ratingText(lo)),
      svg("polyline", { points: line, class: "series" }),
      all.map((v, i) => svg("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 2.5, class: "dot" },
        svg("title", {}, i === 0 ? ratingText(v) : `${t("club.game_n", { n: i })}: ${ratingText(v)}`)))),
    h("figcaption", { class: "muted" }, summary));
}

/** The form that makes this browser's profile. */
function createForm(onDone) {
  const input = h("input", { id: "profile-name", type: "text", maxlength: 40, autocomplete: "nickname", value: store.playerName() });
  const submit = async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) {
      input.focus();
      return;
    }
    try {
      const made = await api.createProfile(name);
      store.setProfile({ id: made.profile.id, name: made.profile.name, secret: made.secret });
      store.setPlayerName(made.profile.name);
      showNotice(t("club.created"));
      onDone();
    } catch (err) {
      showError(err.code || "network", err.message);
      if (err.code === "name_taken") input.focus();  // to choose another name
    }
  };
  return h("form", { class: "profile-form", dataset: { form: "profile" }, onsubmit: submit },
    h("div", { class: "field" }, h("label", { for: "profile-name" }, t("club.display_name")), input,
      h("small", { class: "muted" }, t("club.display_name_hint"))),
    h("button", { type: "submit", class: "primary", dataset: { action: "create-profile" } }, t("club.create")));
}

export class ProfilePage {
  constructor(root, id = null) {
    this.root = root;
    this.id = id;
    this.data = null;
    this.link = null;
    this.mail = new MailSettings(() => this.render());
    this.offLang = onLangChange(() => this.render());
  }

  async mount() {
    this.render();
    await this.load();
    if (this.mine) await this.mail.load();
  }

  unmount() {
    this.offLang();
  }

  get mine() {
    const me = store.profile();
    return me && (!this.id || this.id === me.id) ? me : null;
  }

  async load() {
    const id = this.id || (store.profile() || {}).id;
    if (!id) {
      this.render();
      return;
    }
    try {
      this.data = await api.profilePage(id);
      const me = store.profile();
      if (me && id !== me.id) this.following = (await api.people()).following.some((p) => p.profile === id);
    } catch (err) {
      showError(err.code || "network", err.message);
    }
    this.render();
  }

  /** Another's profile, seen with a profile of one's own: follow it or stop (people.js). */
  followButton(d) {
    const me = store.profile();
    if (!me || d.profile.id === me.id || this.following === undefined) return null;
    const name = d.profile.name;
    const follow = !this.following;
    return h("button", { type: "button", dataset: { action: follow ? "follow" : "unfollow", profile: d.profile.id }, onclick: async (e) => {
      const button = e.currentTarget; // (null once the event is over)
      try {
        await api.follow(d.profile.id, follow);
        this.following = follow;
        showNotice(t(follow ? "people.followed" : "people.unfollowed", { name }));
      } catch (err) {
        showError(err.code || "network", err.message);
      }
      const pressed = document.activeElement === button;
      this.render();
      // the button turned into its opposite (another data-action): the focus goes with it
      if (pressed) this.root.querySelector(`[data-profile="${CSS.escape(d.profile.id)}"][data-action="${this.following ? "unfollow" : "follow"}"]`)?.focus();
    } }, t(follow ? "people.follow" : "people.unfollow", { name }));
  }

  render() {
    const me = this.mine;
    if (!this.id && !me) {
      replaceKeepingFocus(this.root, h("section", { class: "panel club-profile", dataset: { club: "profile-new" } },
        h("h1", {}, t("club.profile_title")), h("p", {}, t("club.profile_intro")), createForm(() => this.load())));
      return;
    }
    const d = this.data;
    if (!d) {
      replaceKeepingFocus(this.root, h("p", { class: "loading" }, t("loading")));
      return;
    }
    replaceKeepingFocus(this.root, h("div", { class: "club-profile", dataset: { club: "profile", profile: d.profile.id } },
      h("section", { class: "panel" },
        h("h1", {}, d.profile.name),
        me ? this.devices(me) : this.followButton(d)),
      me ? this.mail.panel() : null,
      h("section", { class: "panel" }, h("h2", {}, t("club.stats")), statsList(d.stats)),
      h("section", { class: "panel" }, h("h2", {}, t("club.ratings")),
        h("p", { class: "muted rating-explain" }, t("club.rating_explain")),
        d.ratings.length ? h("ul", { class: "rows ratings" }, d.ratings.map((r) => h("li", { dataset: { ladder: r.ladder } },
          h("strong", {}, ladderName(r.ladder)), " ",
          h("span", { class: "rating" }, ratingText(r.rating)), " ",
          h("span", { class: "muted" }, t("club.games_n", { n: r.games })), " ",
          h("a", { href: `#/leaderboard/${encodeURIComponent(r.ladder)}` }, t("club.leaderboard")))))
          : h("p", { class: "muted" }, t("club.unrated")),
        ratingChart(d.history)),
      h("section", { class: "panel" }, h("h2", {}, t("club.recent")), recentGames(d.games))));
  }

  devices(me) {
    const link = this.link
      ? h("div", { class: "signin-link", dataset: { signin: "shown" } },
        h("p", {}, t("club.link_warning")),
        h("input", { type: "text", readonly: true, value: this.link, "aria-label": t("club.link"), id: "signin-link" }),
        h("button", { type: "button", dataset: { action: "copy-link" }, onclick: async () => { if (await copyText(this.link)) showNotice(t("club.copied")); } }, t("club.copy")),
        h("button", { type: "button", class: "link", dataset: { action: "hide-link" }, onclick: () => { this.link = null; this.render(); } }, t("club.hide")))
      : h("button", { type: "button", dataset: { action: "show-link" }, onclick: () => {
        this.link = `${location.origin}${location.pathname}#/signin/${me.secret}`;
        this.render();
      } }, t("club.show_link"));
    return h("div", { class: "devices" },
      h("p", { class: "muted" }, t("club.devices")),
      link,
      h("button", { type: "button", class: "danger", dataset: { action: "rotate" }, onclick: () => this.rotate() }, t("club.sign_out_everywhere")),
      h("button", { type: "button", class: "link", dataset: { action: "forget-profile" }, onclick: () => { store.forgetProfile(); location.hash = "#/profile"; this.data = null; this.render(); } }, t("club.sign_out_here")));
  }

  async rotate() {
    if (!window.confirm(t("club.rotate_confirm"))) return;
    try {
      const fresh = await api.rotate();
      const me = store.profile();
      store.setProfile({ ...me, secret: fresh.secret });
      this.link = null;
      showNotice(t("club.rotated"));
      this.render();
    } catch (err) {
      showError(err.code || "network", err.message);
    }
  }
}

function statsList(s) {
  const items = [
    ["games", "club.stat.games", s.games], ["wins", "club.stat.wins", s.wins],
    ["ppd", "club.stat.ppd", num(s.points_per_deal, 2)],
    ["chicago_calls", "club.stat.chicago_calls", s.chicago_calls],
    ["chicago_made", "club.stat.chicago_made", s.chicago_made],
    ["last_tricks", "club.stat.last_tricks", s.last_tricks],
  ];
  return h("dl", { class: "stats" }, items.map(([key, label, value]) => [
    h("dt", {}, t(label)), h("dd", { dataset: { stat: key } }, String(value))]));
}

function recentGames(games) {
  if (!games.length) return h("p", { class: "muted" }, t("lobby.no_games"));
  return h("ul", { class: "rows games" }, games.map((g) => {
    const result = g.result || {};
    const won = (result.winners || []).includes(g.seat);
    return h("li", { dataset: { game: `${g.table}/${g.game}` } },
      h("strong", {}, g.name || t("lobby.unnamed")), " ",
      h("span", { class: "muted" }, `${ladderName(g.ladder)}${g.rated ? " · " + t("club.rated") : ""}`), " ",
      g.result ? h("span", {}, won ? t("club.won") : t("club.score_n", { n: (result.scores || [])[g.seat] ?? 0 })) : h("span", { class: "muted" }, t("club.round_running")), " ",
      g.replay ? h("a", { class: "button", href: g.replay }, t("lobby.replay")) : null,
      g.review ? h("a", { class: "button", href: g.review }, t("club.review")) : null);
  }));
}

export class SignInPage {
  constructor(root, secret) {
    this.root = root;
    this.secret = secret;
  }

  async mount() {
    replaceKeepingFocus(this.root, h("p", { class: "loading" }, t("loading")));
    try {
      const me = await api.me(this.secret);
      store.setProfile({ id: me.profile.id, name: me.profile.name, secret: this.secret });
      store.setPlayerName(me.profile.name);
      showNotice(t("club.signed_in", { name: me.profile.name }), { carry: true });
      // the secret leaves the address bar and the history: this entry is replaced
      location.replace(`${location.pathname}${location.search}#/profile`);
    } catch (err) {
      showError(err.code || "network", err.message);
      replaceKeepingFocus(this.root, h("section", { class: "panel" }, h("h1", {}, t("club.signin_failed")),
        h("p", {}, t("club.signin_failed_text"))));
    }
  }

  unmount() {}
}

export class LeaderboardPage {
  constructor(root, ladder = null) {
    this.root = root;
    this.ladder = ladder;
    this.data = null;
    this.offLang = onLangChange(() => this.render());
  }

  async mount() {
    this.render();
    try {
      this.data = await api.leaderboard(this.ladder);
    } catch (err) {
      showError(err.code || "network", err.message);
    }
    this.render();
  }

  unmount() {
    this.offLang();
  }

  render() {
    const d = this.data;
    const me = store.profile();
    replaceKeepingFocus(this.root, h("section", { class: "panel leaderboard", dataset: { club: "leaderboard" } },
      h("h1", {}, t("club.leaderboard")),
      h("p", { class: "muted" }, t("club.leaderboard_intro")),
      !d ? h("p", {}, t("loading")) : [
        h("nav", { class: "ladders", "aria-label": t("club.ladders") }, d.ladders.map((l) =>
          h("a", { class: `button${l.ladder === d.ladder ? " primary" : ""}`, href: `#/leaderboard/${encodeURIComponent(l.ladder)}`,
            "aria-current": l.ladder === d.ladder ? "page" : null }, ladderName(l.ladder)))),
        d.rows.length ? h("div", { class: "table-scroll" }, h("table", { class: "club-table" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("club.name")),
            h("th", { scope: "col" }, t("club.rating")), h("th", { scope: "col" }, t("club.stat.games")))),
          h("tbody", {}, d.rows.map((r) => h("tr", { dataset: { participant: r.participant }, class: me && r.profile === me.id ? "is-me" : null },
            h("td", {}, String(r.place)),
            h("th", { scope: "row" }, r.kind === "profile" ? h("a", { href: `#/profile/${r.profile}` }, r.name) : t("club.bot_level", { level: levelName(r.level) })),
            h("td", { class: "rating" }, ratingText(r.rating)),
            h("td", {}, String(r.games)))))))
          : h("p", { class: "muted" }, t("club.no_ratings")),
      ]));
  }
}
