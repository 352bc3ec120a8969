// The lobby: quick play against bots, the create-a-table form, your tables, open tables and
// finished games; and the page of all finished games.

import { h, replace, replaceKeepingFocus, rememberFocus } from "./dom.js";
import { t, onLangChange, num } from "./i18n.js";
import { api } from "./api.js";
import * as store from "./store.js";
import { gameNames, levelName, levelNote, presetName, seatNames } from "./words.js";
import { showError } from "./notice.js";
import { welcomePanel, guidedRequest, guideStarted } from "./guide.js";
import { PeoplePanel } from "./people.js";
import { pairingPanel, onPairing } from "./pairing.js";

const SPEEDS = [["slow", 1.2], ["normal", 0.6], ["fast", 0.2], ["instant", 0]];
const CLOCKS = [null, 30, 60, 120];
const PAUSES = [15, 30, 60, 0]; // seconds after a deal to read its summary (0: go on at once)
const LENGTHS = [null, 1, 3, 5];
const DAYS = [null, 1, 2, 3, 7]; // a correspondence table: days per move (null: a live table)

/** Create a table and sit at its first open seat; `created(table)` runs before the page goes there. */
async function createAndSit(request, created = null) {
  const table = await api.create(request);
  created?.(table);
  const open = table.seats.find((s) => s.kind === "open");
  if (open) {
    const joined = await api.join(table.id, open.seat, store.playerName() || null);
    store.saveSeat(table.id, joined.token, joined.seat, table.name);
    location.hash = `#/table/${table.id}`;
  } else {
    location.hash = `#/watch/${table.id}`;
  }
  return table;
}

export class LobbyPage {
  constructor(root) {
    this.root = root;
    this.info = null;
    this.tables = null;
    this.games = null;
    this.form = null;
    this.busy = false;
    this.offLang = onLangChange(() => { this.people?.render(); this.render(); });
    this.people = null;
    this.pairing = null; // GET /api/pairing: the numbers of players each preset may queue for
    this.pairChoice = { preset: "pagat", players: 4, wait: 60, rated: false };
    this.offPairing = onPairing(() => this.render());
  }

  async mount() {
    replace(this.root, h("p", { class: "loading" }, t("loading")));
    try {
      [this.info, this.pairing] = await Promise.all([api.info(), api.pairing()]);
    } catch (err) {
      showError(err.code || "network", err.message);
      replace(this.root, h("p", { role: "alert" }, t("err.network")));
      return;
    }
    const levels = this.info.bot_levels;
    const bot = levels.includes("basic") ? "basic" : levels[0];
    this.form = {
      name: "",
      preset: this.info.default_preset || "pagat",
      players: 4,
      seats: ["open", `bot:${bot}`, `bot:${bot}`, `bot:${bot}`, `bot:${bot}`, `bot:${bot}`],
      variations: new Set(),
      length: null,
      clock: null,
      days: null,
      pause: 15,
      speed: 0.6,
      private: false,
    };
    this.people = new PeoplePanel();
    this.render();
    this.refresh();
  }

  unmount() {
    this.offLang();
    this.people?.close();
    this.offPairing();
  }

  async refresh() {
    try {
      const [tables, games] = await Promise.all([api.tables(30), api.games(10)]);
      this.tables = tables.tables;
      this.games = games.games;
    } catch (err) {
      showError(err.code || "network", err.message);
    }
    this.render();
  }

  render() {
    if (!this.info) return;
    const focus = rememberFocus(this.root); // before the people's panel moves into the new page
    replace(this.root, h("div", { class: "lobby" },
      welcomePanel(() => this.startGuide(), this.busy),
      this.intro(),
      pairingPanel({ ...this.pairing, presets: this.info.presets }, this.pairChoice, () => this.render()),
      this.createForm(),
      this.myTables(),
      this.people ? this.people.el : null,
      this.openTables(),
      this.finishedGames()));
    focus.restore();
  }

  intro() {
    const name = h("input", {
      id: "player-name", type: "text", maxlength: 40, value: store.playerName(), autocomplete: "nickname",
      oninput: (e) => store.setPlayerName(e.target.value.trim()),
    });
    const levels = this.info.bot_levels;
    const bot = levels.includes("basic") ? "basic" : levels[0];
    return h("section", { class: "panel intro" },
      h("h1", {}, t("lobby.title")),
      h("p", {}, t("lobby.intro")),
      store.profile()
        ? h("p", { class: "profile-line", dataset: { profileLine: store.profile().id } },
          t("club.playing_as", { name: store.profile().name }), " ", h("a", { href: "#/profile" }, t("nav.profile")))
        : h("div", { class: "field" }, h("label", { for: "player-name" }, t("lobby.name")), name,
          h("small", { class: "muted" }, t("lobby.name_hint")), h("a", { href: "#/profile" }, t("club.make_profile"))),
      h("button", {
        type: "button", class: "primary big", dataset: { action: "quick-play" }, disabled: this.busy,
        onclick: () => this.submit({ preset: this.info.default_preset || "pagat", seats: ["open", `bot:${bot}`, `bot:${bot}`, `bot:${bot}`], bot_delay: 0.6 }),
      }, t("lobby.quick")),
      h("p", { class: "muted" }, t("lobby.quick_hint")));
  }

  /** The guided first game (guide.js): a short game against bots that explains itself. */
  startGuide() {
    this.submit(guidedRequest(this.info.bot_levels), (table) => guideStarted(table.id));
  }

  async submit(request, created = null) {
    if (this.busy) return;
    this.busy = true;
    this.render();
    try {
      await createAndSit(request, created);
    } catch (err) {
      showError(err.code || "network", err.message);
    } finally {
      this.busy = false;
      if (location.hash === "" || location.hash === "#/") this.render();
    }
  }

  createForm() {
    const f = this.form;
    const info = this.info;
    const rerender = () => this.render();
    const presetSelect = h("select", { id: "f-preset", onchange: (e) => { f.preset = e.target.value; rerender(); } },
      info.presets.map((p) => h("option", { value: p, selected: p === f.preset }, presetName(p))));
    const [lo, hi] = info.limits.players;
    const playersSelect = h("select", { id: "f-players", onchange: (e) => {
      f.players = Number(e.target.value);
      if (f.players > 4) f.variations.add("V-LARGE");
      rerender();
    } }, Array.from({ length: hi - lo + 1 }, (_, i) => lo + i).map((n) => h("option", { value: n, selected: n === f.players }, String(n))));
    const seatRows = Array.from({ length: f.players }, (_, i) =>
      h("div", { class: "seat-row" },
        h("label", { for: `f-seat-${i}` }, t("form.seat_n", { n: i + 1 })),
        h("select", { id: `f-seat-${i}`, dataset: { seat: i }, onchange: (e) => { f.seats[i] = e.target.value; rerender(); } },
          h("option", { value: "open", selected: f.seats[i] === "open" }, t("form.seat_open")),
          info.bot_levels.map((level) => h("option", { value: `bot:${level}`, selected: f.seats[i] === `bot:${level}` },
            levelNote(level) ? t("form.seat_bot_note", { level: levelName(level), note: levelNote(level) }) : t("form.seat_bot", { level: levelName(level) }))))));
    const large = f.players > 4;
    const variations = Object.entries(info.variations).map(([id, english]) => {
      const key = `var.${id}`;
      const text = t(key) === key ? english : t(key);
      const forced = id === "V-LARGE" && large;
      return h("li", {},
        h("input", {
          type: "checkbox", id: `f-var-${id}`, value: id, checked: f.variations.has(id) || forced, disabled: forced,
          dataset: { variation: id },
          onchange: (e) => { if (e.target.checked) f.variations.add(id); else f.variations.delete(id); },
        }),
        h("label", { for: `f-var-${id}` }, h("strong", {}, id), " ", text));
    });
    const target = (info.rules[f.preset] || {}).target || 52;
    const radio = (name, legend, values, current, label, set) => h("fieldset", { class: "choices" },
      h("legend", {}, legend),
      values.map((value, i) => h("label", { class: "choice" },
        h("input", { type: "radio", name: `f-${name}`, value: String(i), checked: value === current, dataset: { [name]: String(value) }, onchange: () => set(value) }),
        " ", label(value))));
    const anyOpen = f.seats.slice(0, f.players).includes("open");
    const submit = (e) => {
      e.preventDefault();
      const variations = [...f.variations].filter((id) => id !== "V-LARGE" || large);
      if (large && !variations.includes("V-LARGE")) variations.push("V-LARGE");
      const request = {
        name: document.getElementById("f-name").value.trim(),
        preset: f.preset,
        seats: f.seats.slice(0, f.players),
        variations,
        private: f.private,
        clock: f.days ? null : f.clock,
        clock_days: f.days,
        bot_delay: f.speed,
        deal_pause: f.days ? null : f.pause,
        rated: Boolean(f.rated && store.profile()),
      };
      if (f.length) request.rules = { max_deals: f.length };
      this.submit(request);
    };
    return h("section", { class: "panel create" },
      h("h2", {}, t("lobby.create")),
      h("form", { id: "create-form", onsubmit: submit },
        h("div", { class: "field" }, h("label", { for: "f-name" }, t("form.table_name")),
          h("input", { id: "f-name", type: "text", maxlength: 40, placeholder: t("form.table_name_ph"), value: f.name, oninput: (e) => { f.name = e.target.value; } })),
        h("div", { class: "field" }, h("label", { for: "f-preset" }, t("form.preset")), presetSelect,
          h("small", { class: "preset-text" }, t(`preset.${f.preset}`))),
        h("div", { class: "field" }, h("label", { for: "f-players" }, t("form.players")), playersSelect),
        h("fieldset", { class: "seats" }, h("legend", {}, t("form.seats")), seatRows, h("small", { class: "muted" }, t("form.seats_hint"))),
        h("details", { class: "variations", open: f.showVariations || f.variations.size > 0 || large, ontoggle: (e) => { f.showVariations = e.target.open; } },
          h("summary", { dataset: { action: "variations" } }, t("form.variations")),
          h("small", { class: "muted" }, t("form.variations_hint")),
          large ? h("p", { class: "muted" }, t("form.large_needed")) : null,
          h("ul", {}, variations)),
        radio("length", t("form.length"), LENGTHS, f.length, (n) => (n ? t("form.length_deals", { n }) : t("form.length_full", { target })), (n) => { f.length = n; }),
        radio("speed", t("form.speed"), SPEEDS.map((s) => s[1]), f.speed, (value) => t(`speed.${SPEEDS.find((s) => s[1] === value)[0]}`), (value) => { f.speed = value; }),
        anyOpen ? radio("days", t("form.days"), DAYS, f.days, (n) => (n ? t("form.days_n", { n }) : t("form.days_none")), (n) => { f.days = n; this.render(); }) : null,
        f.days ? null : radio("clock", t("form.clock"), CLOCKS, f.clock, (n) => (n ? t("form.clock_s", { n }) : t("form.clock_none")), (n) => { f.clock = n; }),
        anyOpen && !f.days ? radio("pause", t("form.pause"), PAUSES, f.pause, (n) => (n ? t("form.pause_s", { n }) : t("form.pause_none")), (n) => { f.pause = n; }) : null,
        h("label", { class: "choice" }, h("input", { type: "checkbox", id: "f-private", checked: f.private, onchange: (e) => { f.private = e.target.checked; } }), " ", t("form.private")),
        store.profile() ? h("label", { class: "choice" }, h("input", { type: "checkbox", id: "f-rated", checked: f.rated, onchange: (e) => { f.rated = e.target.checked; } }), " ", t("form.rated")) : null,
        h("button", { type: "submit", class: "primary", dataset: { action: "create" }, disabled: this.busy }, anyOpen ? t("form.submit") : t("form.submit_watch"))));
  }

  myTables() {
    const mine = Object.entries(store.seats());
    if (!mine.length) return null;
    return h("section", { class: "panel mine" },
      h("h2", {}, t("lobby.my_tables")),
      h("ul", { class: "rows" }, mine.map(([id, s]) => h("li", {},
        h("a", { href: `#/table/${id}` }, s.name || t("lobby.unnamed")), " ",
        h("span", { class: "muted" }, t("seat_n", { n: s.seat + 1 })), " ",
        h("button", { type: "button", class: "link", dataset: { action: "forget-seat", table: id }, onclick: () => { store.forgetSeat(id); this.render(); } }, t("lobby.forget"))))));
  }

  openTables() {
    const tables = this.tables;
    return h("section", { class: "panel open-tables" },
      h("div", { class: "panel-head" }, h("h2", {}, t("lobby.open_tables")),
        h("button", { type: "button", class: "link", dataset: { action: "refresh-tables" }, onclick: () => this.refresh() }, t("lobby.refresh"))),
      tables === null ? h("p", {}, t("loading")) : !tables.length ? h("p", { class: "muted" }, t("lobby.no_tables")) :
        h("ul", { class: "rows" }, tables.map((tb) => {
          const free = tb.seats.filter((s) => s.kind === "open").length;
          return h("li", { dataset: { table: tb.id } },
            h("strong", {}, tb.name || t("lobby.unnamed")), " ",
            h("span", { class: "muted" }, `${presetName(tb.preset)}${tb.variations.length ? " + " + tb.variations.join(", ") : ""} · ${t("lobby.seats_free", { free, n: tb.players })}${tb.rated ? " · " + t("club.rated") : ""}`), " ",
            seatList(tb), " ",
            h("a", { class: "button", href: `#/table/${tb.id}`, dataset: { action: "join-table" } }, t("lobby.join")), " ",
            h("a", { class: "button", href: `#/watch/${tb.id}`, dataset: { action: "watch-table" } }, t("lobby.watch")));
        })));
  }

  finishedGames() {
    const games = this.games;
    return h("section", { class: "panel finished" },
      h("div", { class: "panel-head" }, h("h2", {}, t("lobby.finished")), h("a", { href: "#/games" }, t("lobby.more"))),
      games === null ? h("p", {}, t("loading")) : gamesList(games));
  }
}

/** The taken seats of a lobby row, each name with its rating beside it (docs/CLUB.md). */
function seatList(tb) {
  const names = seatNames(tb.seats);
  const taken = tb.seats.filter((s) => s.taken);
  if (!taken.length) return null;
  return h("span", { class: "seat-list" }, taken.map((s, i) => h("span", { class: "seat-chip", dataset: { seat: s.seat } },
    names[s.seat], !tb.rated || s.rating === null || s.rating === undefined ? null
      : h("span", { class: "seat-rating", title: t("club.rating_note") }, h("span", { class: "visually-hidden" }, ` ${t("club.rating")}`), `\u00a0${num(s.rating, 1)}`),
    i < taken.length - 1 ? ", " : null)));
}

/** Finished games; each summary's `seats` tell bots from people (GET /api/games). */
export function gamesList(games) {
  if (!games.length) return h("p", { class: "muted" }, t("lobby.no_games"));
  return h("ul", { class: "rows games" }, games.map((g) => {
    const names = gameNames(g);
    const winners = (g.winners || []).map((s) => names[s] || t("seat_n", { n: s + 1 })).join(", ");
    return h("li", { dataset: { game: `${g.table}/${g.game}` } },
      h("strong", {}, g.name || t("lobby.unnamed")), " ",
      h("span", { class: "muted" }, `${presetName(g.preset)} · ${t("games.deals", { n: g.deals || 0 })} · ${t("games.winners")}: ${winners}`), " ",
      h("span", { class: "scores" }, names.map((n, i) => `${n} ${num((g.scores || [])[i] ?? 0)}`).join(", ")), " ",
      h("a", { class: "button", href: `#/replay/${g.table}/${g.game}` }, t("lobby.replay")));
  }));
}

export class GamesPage {
  constructor(root) {
    this.root = root;
    this.games = [];
    this.done = false;
    this.offLang = onLangChange(() => this.render());
  }

  async mount() {
    this.render();
    await this.more();
  }

  unmount() {
    this.offLang();
  }

  async more() {
    const last = this.games[this.games.length - 1];
    try {
      const page = await api.games(30, last ? last.finished : null);
      this.games.push(...page.games);
      this.done = page.games.length < 30;
    } catch (err) {
      showError(err.code || "network", err.message);
    }
    this.render();
  }

  render() {
    replaceKeepingFocus(this.root, h("section", { class: "panel" },
      h("h1", {}, t("lobby.finished")),
      gamesList(this.games),
      this.done ? null : h("button", { type: "button", dataset: { action: "more-games" }, onclick: () => this.more() }, t("lobby.more"))));
  }
}

