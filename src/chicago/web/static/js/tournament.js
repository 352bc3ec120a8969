// Tournaments (docs/CLUB.md): the list with the form to create one, and a tournament's page
// (join or leave with your profile, the organizer's controls — start, remove an entrant,
// cancel, end after this round — rounds and tables with watch links, live standings, the
// final result). The page polls the server every few seconds.
//   #/tournaments        the list and the form
//   #/tournament/ID      one tournament

import { h, replaceKeepingFocus } from "./dom.js";
import { t, items, onLangChange, num } from "./i18n.js";
import { api } from "./api.js";
import * as store from "./store.js";
import { levelAbout, levelName, presetName } from "./words.js";
import { showError, showNotice } from "./notice.js";
import { ratingText, ladderName } from "./club.js";

const POLL_MS = 2500;
const STATUS = { registering: "tour.status.registering", playing: "tour.status.playing", finished: "tour.status.finished", cancelled: "tour.status.cancelled" };
const OVER = new Set(["finished", "cancelled"]);
const ROUND_STATUS = { playing: "tour.round_status.playing", finished: "tour.round_status.finished" };

export class TournamentsPage {
  constructor(root) {
    this.root = root;
    this.list = null;
    this.info = null;
    this.club = null;
    this.form = { name: "", preset: "pagat", tables: 2, table_size: 4, rounds: 3, length: "deals", deals: 3, target: 52, duplicate: true, bot: "basic", clock: 60 };
    this.busy = false;
    this.offLang = onLangChange(() => this.render());
  }

  async mount() {
    this.render();
    try {
      [this.list, this.info, this.club] = await Promise.all([api.tournaments(), api.info(), api.clubInfo()]);
      if (!this.club.bot_levels.includes(this.form.bot)) this.form.bot = this.club.bot_levels[0];
    } catch (err) {
      showError(err.code || "network", err.message);
    }
    this.render();
  }

  unmount() {
    this.offLang();
  }

  render() {
    replaceKeepingFocus(this.root, h("div", { class: "tournaments", dataset: { club: "tournaments" } },
      this.createPanel(),
      h("section", { class: "panel" }, h("h2", {}, t("tour.list")),
        !this.list ? h("p", {}, t("loading")) : !this.list.tournaments.length ? h("p", { class: "muted" }, t("tour.none"))
          : h("ul", { class: "rows" }, this.list.tournaments.map((x) => h("li", { dataset: { tournament: x.id } },
            h("a", { href: `#/tournament/${x.id}` }, x.name), " ",
            h("span", { class: "muted" }, `${t(STATUS[x.status] || x.status)} · ${t("tour.round_of", { r: x.round, n: x.rounds })}${x.duplicate ? " · " + t("tour.duplicate") : ""}`)))))));
  }

  createPanel() {
    if (!this.info || !this.club) return h("section", { class: "panel" }, h("p", {}, t("loading")));
    const f = this.form;
    const lim = this.club.limits;
    const number = (key, label, [lo, hi]) => h("div", { class: "field" },
      h("label", { for: `t-${key}` }, label),
      h("input", { id: `t-${key}`, type: "number", min: lo, max: hi, value: f[key], inputmode: "numeric",
        oninput: (e) => { f[key] = Number(e.target.value); } }));
    const submit = async (e) => {
      e.preventDefault();
      if (this.busy) return;
      this.busy = true;
      const request = {
        name: f.name.trim(), preset: f.preset, tables: f.tables, table_size: f.table_size, rounds: f.rounds,
        duplicate: f.duplicate, bot: f.bot, clock: f.clock || null,
        variations: f.table_size > 4 ? ["V-LARGE"] : [],
      };
      if (f.length === "deals") request.deals = f.deals;
      else request.target = f.target;
      try {
        const made = await api.createTournament(request);
        store.saveOrganizerSecret(made.tournament.id, made.organizer_secret);
        location.hash = `#/tournament/${made.tournament.id}`;
      } catch (err) {
        showError(err.code || "network", err.message);
      } finally {
        this.busy = false;
      }
    };
    return h("section", { class: "panel create" },
      h("h1", {}, t("tour.create")),
      h("p", { class: "muted" }, t("tour.intro")),
      h("form", { id: "tournament-form", onsubmit: submit },
        h("div", { class: "field" }, h("label", { for: "t-name" }, t("tour.name")),
          h("input", { id: "t-name", type: "text", maxlength: 40, value: f.name, placeholder: t("tour.name_ph"), oninput: (e) => { f.name = e.target.value; } })),
        h("div", { class: "field" }, h("label", { for: "t-preset" }, t("form.preset")),
          h("select", { id: "t-preset", onchange: (e) => { f.preset = e.target.value; } },
            this.info.presets.map((p) => h("option", { value: p, selected: p === f.preset }, presetName(p))))),
        number("tables", t("tour.tables"), lim.tables),
        number("table_size", t("tour.table_size"), lim.table_size),
        number("rounds", t("tour.rounds"), lim.rounds),
        h("fieldset", { class: "choices" }, h("legend", {}, t("tour.length")),
          ["deals", "target"].map((kind) => h("label", { class: "choice" },
            h("input", { type: "radio", name: "t-length", value: kind, checked: f.length === kind, onchange: () => { f.length = kind; this.render(); } }),
            " ", t(kind === "deals" ? "tour.length_deals" : "tour.length_target")))),
        f.length === "deals" ? number("deals", t("tour.deals"), lim.deals) : number("target", t("tour.target"), lim.target),
        h("label", { class: "choice" }, h("input", { type: "checkbox", id: "t-duplicate", checked: f.duplicate, onchange: (e) => { f.duplicate = e.target.checked; } }), " ", t("tour.duplicate_option")),
        h("small", { class: "muted" }, t("tour.duplicate_hint")),
        h("div", { class: "field" }, h("label", { for: "t-bot" }, t("tour.bot")),
          h("select", { id: "t-bot", onchange: (e) => { f.bot = e.target.value; } },
            this.club.bot_levels.map((level) => h("option", { value: level, selected: level === f.bot }, levelAbout(level))))),
        number("clock", t("tour.clock"), lim.clock),
        h("button", { type: "submit", class: "primary", dataset: { action: "create-tournament" } }, t("tour.create_submit"))));
  }
}

export class TournamentPage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.data = null;
    this.timer = null;
    this.gone = false;
    this.offLang = onLangChange(() => this.render());
  }

  async mount() {
    this.render();
    await this.refresh();
  }

  unmount() {
    this.gone = true;
    clearTimeout(this.timer);
    this.offLang();
  }

  async refresh() {
    clearTimeout(this.timer);
    try {
      this.data = await api.tournament(this.id);
      window.chicago.tournament = this.data;
    } catch (err) {
      showError(err.code || "network", err.message);
    }
    if (this.gone) return;
    this.render();
    if (!this.data || !OVER.has(this.data.status)) this.timer = setTimeout(() => this.refresh(), POLL_MS);
  }

  async act(work, done, confirmText) {
    if (confirmText && !window.confirm(confirmText)) return;
    try {
      await work();
      if (done) showNotice(done);
    } catch (err) {
      showError(err.code || "network", err.message);
    }
    await this.refresh();
  }

  render() {
    const d = this.data;
    if (!d) {
      replaceKeepingFocus(this.root, h("p", { class: "loading" }, t("loading")));
      return;
    }
    const me = store.profile();
    const mine = me ? d.entrants.find((e) => e.profile === me.id) : null;
    const organizer = store.organizerSecret(d.id);
    replaceKeepingFocus(this.root, h("div", { class: "tournament", dataset: { club: "tournament", status: d.status, round: d.round } },
      h("section", { class: "panel" },
        h("h1", {}, d.name),
        h("p", { class: "muted" }, [
          ladderName(d.ladder),
          d.spec.deals ? t("tour.n_deals", { n: d.spec.deals }) : t("tour.to_target", { n: d.spec.target || d.spec.rules.target }),
          t("tour.tables_of", { n: d.tables, size: d.table_size }),
          d.duplicate ? t("tour.duplicate") : null,
        ].filter(Boolean).join(" · ")),
        h("p", { class: "tour-status", dataset: { status: d.status } }, this.statusText(d)),
        this.joinBlock(d, me, mine),
        organizer ? this.organizerBlock(d, organizer) : null),
      d.status === "registering" || d.status === "cancelled" ? this.entrants(d, organizer) : this.standings(d, me),
      d.rounds_played.slice().reverse().map((r) => this.roundPanel(d, r, me))));
  }

  statusText(d) {
    if (d.status === "registering") return t("tour.registering", { n: d.entrants.length, seats: d.seats });
    if (d.status === "cancelled") return t("tour.cancelled");
    if (d.status === "finished") return d.ends_after ? t("tour.finished_early", { n: d.rounds, planned: d.spec.rounds }) : t("tour.finished");
    const playing = t("tour.playing", { r: d.round, n: d.rounds });
    return d.ends_after ? `${playing} ${t("tour.ends_after", { r: d.ends_after })}` : playing;
  }

  joinBlock(d, me, mine) {
    if (d.status === "registering") {
      if (!me) return h("p", {}, h("a", { href: "#/profile", class: "button primary", dataset: { action: "make-profile" } }, t("tour.need_profile")));
      if (mine) {
        return h("div", { class: "joined-row" }, h("p", { class: "joined", dataset: { joined: mine.id } }, t("tour.joined")),
          h("button", { type: "button", class: "danger", dataset: { action: "leave-tournament" },
            onclick: () => this.act(() => api.leaveTournament(d.id), t("tour.left"), t("tour.leave_confirm")) }, t("tour.leave")));
      }
      return h("button", { type: "button", class: "primary", dataset: { action: "join-tournament" },
        onclick: () => this.act(() => api.joinTournament(d.id), t("tour.joined")) }, t("tour.join"));
    }
    if (d.status === "playing" && mine) {
      return h("button", { type: "button", class: "primary", dataset: { action: "my-table" }, onclick: () => this.goToTable() }, t("tour.my_table"));
    }
    return null;
  }

  async goToTable() {
    try {
      const seat = await api.mySeat(this.id);
      store.saveSeat(seat.table, seat.token, seat.seat, this.data.name);
      location.hash = `#/table/${seat.table}`;
    } catch (err) {
      showError(err.code || "network", err.message);
    }
  }

  organizerBlock(d, secret) {
    let controls = [];
    if (d.status === "registering") {
      controls = [
        h("button", { type: "button", class: "primary", dataset: { action: "start-tournament" },
          onclick: () => this.act(() => api.startTournament(d.id, secret), t("tour.started")) }, t("tour.start", { bots: d.seats - d.entrants.length })),
        h("button", { type: "button", class: "danger", dataset: { action: "cancel-tournament" },
          onclick: () => this.act(() => api.cancelTournament(d.id, secret), t("tour.cancelled_done"), t("tour.cancel_confirm")) }, t("tour.cancel")),
      ];
    } else if (d.status === "playing") {
      controls = [
        h("button", { type: "button", dataset: { action: "advance" }, onclick: () => this.act(() => api.advanceTournament(d.id, secret)) }, t("tour.advance")),
        d.ends_after ? null : h("button", { type: "button", class: "danger", dataset: { action: "end-after-round" },
          onclick: () => this.act(() => api.endAfterRound(d.id, secret), t("tour.ending_done", { r: d.round }), t("tour.end_confirm", { r: d.round })) }, t("tour.end_after")),
      ];
    }
    return h("div", { class: "organizer", dataset: { organizer: "1" } },
      h("h2", {}, t("tour.organizer")),
      h("div", { class: "organizer-controls" }, controls),
      h("small", { class: "muted" }, t("tour.organizer_hint")));
  }

  entrants(d, organizer) {
    const removable = organizer && d.status === "registering";
    return h("section", { class: "panel" }, h("h2", {}, t("tour.entrants")),
      d.entrants.length ? h("ol", { class: "entrants" }, d.entrants.map((e) => h("li", { dataset: { entrant: e.id } },
        e.profile ? h("a", { href: `#/profile/${e.profile}` }, e.name) : e.name, " ",
        h("span", { class: "rating" }, ratingText(e.rating)),
        removable ? [" ", h("button", { type: "button", class: "danger small", dataset: { action: "remove-entrant" },
          "aria-label": t("tour.remove_label", { name: e.name }),
          onclick: () => this.act(() => api.removeEntrant(d.id, organizer, e.id), t("tour.removed", { name: e.name }), t("tour.remove_confirm", { name: e.name })) }, t("tour.remove"))] : null)))
        : h("p", { class: "muted" }, t("tour.no_entrants")));
  }

  /**
   * The standings: a table on a wide screen; on a phone each entrant is a block (rank and
   * name, then every column as "label value"), so nothing hides behind a sideways scroll.
   * The explicit roles keep it a table for screen readers whatever its display.
   */
  standings(d, me) {
    const cols = [[t("tour.game_points"), "gp"]];
    if (d.duplicate) cols.push([t("tour.duplicate_score"), "dup"]);
    cols.push([t("tour.score"), "score"], [t("club.stat.wins"), "wins"], [t("club.rating"), "rating"]);
    const cell = (key, label, text, extra = {}) => h("td", { role: "cell", class: `col-${key}`, dataset: { label }, ...extra }, text);
    return h("section", { class: "panel standings", dataset: { standings: d.standings.length } },
      h("h2", {}, d.final ? t("tour.final") : t("tour.standings")),
      h("table", { class: "club-table standings-table", role: "table" },
        h("thead", { role: "rowgroup" }, h("tr", { role: "row" },
          h("th", { scope: "col", role: "columnheader" }, "#"), h("th", { scope: "col", role: "columnheader" }, t("club.name")),
          cols.map(([label]) => h("th", { scope: "col", role: "columnheader" }, label)))),
        h("tbody", { role: "rowgroup" }, d.standings.map((s) => {
          const e = s.entrant;
          const dup = s.duplicate === null ? "–" : `${num(s.duplicate, 1)} %`;
          return h("tr", { role: "row", dataset: { entrant: e.id, rank: s.rank }, class: me && e.profile === me.id ? "is-me" : null },
            h("td", { role: "cell", class: "col-rank" }, String(s.rank)),
            h("th", { scope: "row", role: "rowheader" }, e.profile ? h("a", { href: `#/profile/${e.profile}` }, e.name) : t("club.bot_level", { level: levelName(e.name) })),
            cell("gp", cols[0][0], num(s.game_points, s.game_points % 1 ? 1 : 0), { dataset: { label: cols[0][0], gp: s.game_points } }),
            d.duplicate ? cell("dup", t("tour.duplicate_score"), dup, { title: t("tour.dup_title", { mp: num(s.matchpoints, 1), n: s.comparisons }) }) : null,
            cell("score", t("tour.score"), num(s.score)),
            cell("wins", t("club.stat.wins"), String(s.wins)),
            cell("rating", t("club.rating"), ratingText(s.rating), { class: "col-rating rating" }));
        }))),
      h("details", { class: "how" }, h("summary", { dataset: { action: "how" } }, t("tour.how")),
        items("tour.how_text").map((p) => h("p", {}, p)),
        h("p", { class: "rating-explain" }, t("club.rating_explain"))));
  }

  roundPanel(d, r, me) {
    return h("section", { class: "panel round", dataset: { roundNumber: r.number, roundStatus: r.status } },
      h("h2", {}, t("tour.round_n", { n: r.number }), " ", h("span", { class: "badge" }, t(ROUND_STATUS[r.status] || r.status))),
      d.duplicate && r.status === "playing" ? h("p", { class: "muted" }, t("tour.closed_hint")) : null,
      h("ul", { class: "rows" }, r.tables.map((tb) => h("li", { dataset: { table: tb.table, tableStatus: tb.status } },
        h("strong", {}, t("tour.table_n", { n: tb.number })), " ",
        h("span", {}, tb.seats.map((s, i) => `${s.kind === "bot" ? t("club.bot_level", { level: levelName(s.name) }) : s.name}${tb.scores ? " " + num(tb.scores[i]) : ""}`).join(", ")), " ",
        h("span", { class: "muted" }, tb.status === "finished" ? t("tour.table_done") : t("tour.table_playing")), " ",
        me && tb.seats.some((s) => s.profile === me.id) && tb.status !== "finished"
          ? h("button", { type: "button", class: "primary", dataset: { action: "my-round-table", table: tb.table }, onclick: () => this.goToTable() }, t("tour.my_table")) : null,
        tb.watch && tb.status !== "finished" ? h("a", { class: "button", href: `#/watch/${tb.table}` }, t("lobby.watch")) : null,
        tb.replay ? h("a", { class: "button", href: tb.replay }, t("lobby.replay")) : null,
        tb.record ? h("a", { class: "button", href: tb.record.replace(/^\//, ""), download: `chicago-${tb.table}-1.json` }, t("tour.record")) : null))));
  }
}
