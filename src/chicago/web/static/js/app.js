// The app: a hash router over the pages, the language switch, the suit symbols.
//   #/                      lobby
//   #/games                 finished games
//   #/table/ID              a table (your seat if this browser holds its token; else join or watch)
//   #/watch/ID              a table as a spectator
//   #/replay/TABLE/GAME     the replay of a finished game (?review=SEAT: with that seat's review)
//   #/practice              practise on reviewed mistakes (the daily exercise, a profile's own)
//   #/help                  how to play
//   #/profile[/ID]          your profile, or another's (club.js)
//   #/signin/SECRET         carry a profile to this device
//   #/leaderboard[/LADDER]  ratings
//   #/tournaments           tournaments and the form to create one (tournament.js)
//   #/tournament/ID         one tournament

import { h, replace } from "./dom.js";
import { t, items, lang, setLang, onLangChange, LANGS } from "./i18n.js";
import { installCardSymbols } from "./cards.js";
import { LobbyPage, GamesPage } from "./lobby.js";
import { TablePage } from "./table.js";
import { ReplayPage } from "./replay.js";
import { api } from "./api.js";
import { chicagoRule, glossary } from "./rulewords.js";
import { ProfilePage, SignInPage, LeaderboardPage } from "./club.js";
import { TournamentsPage, TournamentPage } from "./tournament.js";
import { leavePage } from "./notice.js";
import { PracticePage } from "./practice.js";

const main = document.getElementById("app");
let page = null;

class HelpPage {
  constructor(root) {
    this.root = root;
    this.info = null;
    this.off = onLangChange(() => this.mount());
  }
  mount() {
    this.draw();
    if (!this.info) {
      api.info().then((info) => {
        this.info = info;
        this.draw();
      }).catch(() => {});
    }
  }
  draw() {
    const presets = this.info ? this.info.presets : [];
    replace(this.root, h("section", { class: "panel help" }, h("h1", {}, t("help.title")),
      items("help.body").map((p) => h("p", {}, p)),
      h("h2", {}, t("help.marks_title")),
      h("dl", { class: "marks" }, glossary(this.info ? this.info.rules[this.info.default_preset] : {}).map(([mark, words]) =>
        [h("dt", {}, mark), h("dd", {}, words[0].toUpperCase() + words.slice(1))])),
      presets.length ? h("h2", {}, t("help.presets_title")) : null,
      presets.map((name) => h("section", { class: "preset-rule", dataset: { preset: name } },
        h("h3", {}, name), h("p", { class: "muted" }, t(`preset.${name}`)),
        h("ul", {}, chicagoRule(this.info.rules[name]).map((line) => h("li", {}, line))))),
      h("p", {}, h("a", { class: "button primary", href: "#/" }, t("lobby.quick")))));
  }
  unmount() {
    this.off();
  }
}

function route() {
  const [path, query = ""] = location.hash.replace(/^#\/?/, "").split("?", 2);
  const params = new URLSearchParams(query);
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  page?.unmount?.();
  if (page) leavePage();
  window.chicago = {};
  const [head, a, b] = parts;
  if (head === "table" && a) page = new TablePage(main, a);
  else if (head === "watch" && a) page = new TablePage(main, a, { watch: true });
  else if (head === "replay" && a && b) page = new ReplayPage(main, a, b, { review: params.get("review") });
  else if (head === "games") page = new GamesPage(main);
  else if (head === "help") page = new HelpPage(main);
  else if (head === "profile") page = new ProfilePage(main, a || null);
  else if (head === "signin" && a) page = new SignInPage(main, a);
  else if (head === "leaderboard") page = new LeaderboardPage(main, a || null);
  else if (head === "tournaments") page = new TournamentsPage(main);
  else if (head === "tournament" && a) page = new TournamentPage(main, a);
  else if (head === "practice") page = new PracticePage(main);
  else page = new LobbyPage(main);
  document.body.dataset.page = head || "lobby";
  page.mount();
}

function chrome() {
  document.title = t("app.title");
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === lang()));
  }
}

function start() {
  installCardSymbols();
  const switcher = document.getElementById("lang-switch");
  replace(switcher, Object.keys(LANGS).map((code) =>
    h("button", { type: "button", dataset: { lang: code }, lang: code, onclick: () => setLang(code) }, code === "sv" ? "Svenska" : "English")));
  onLangChange(chrome);
  chrome();
  window.addEventListener("hashchange", route);
  route();
}

start();
