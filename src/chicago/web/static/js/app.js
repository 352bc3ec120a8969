// The app: a hash router over the pages, the language switch, the suit symbols.
//   #/                      lobby
//   #/games                 finished games
//   #/turns                 your games: every table where it is your turn (site.js)
//   #/confirm/TOKEN         a mail address confirmed; #/unsubscribe/TOKEN: no more mail
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
import { t, lang, setLang, onLangChange, LANGS } from "./i18n.js";
import { installCardSymbols } from "./cards.js";
import { LobbyPage, GamesPage } from "./lobby.js";
import { TablePage } from "./table.js";
import { ReplayPage } from "./replay.js";
import { HelpPage } from "./help.js";
import { ProfilePage, SignInPage, LeaderboardPage } from "./club.js";
import { TournamentsPage, TournamentPage } from "./tournament.js";
import { leavePage } from "./notice.js";
import { startSite, showTurns, setPageTitle } from "./site.js";
import * as store from "./store.js";
import { startInvites } from "./invites.js";
import { resumeQueue } from "./pairing.js";
import { TurnsPage } from "./turns.js";
import { MailLinkPage } from "./mailsettings.js";
import { PracticePage } from "./practice.js";

const main = document.getElementById("app");
let page = null;

function route() {
  const [path, query = ""] = location.hash.replace(/^#\/?/, "").split("?", 2);
  const params = new URLSearchParams(query);
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  page?.unmount?.();
  if (page) leavePage();
  window.chicago = {};
  // Each page draws into an element of its own: one left while an answer it asked for was
  // on its way may still draw when the answer comes, and then draws into nothing shown.
  const root = h("div", { class: "page-root" });
  replace(main, root);
  const [head, a, b] = parts;
  const [place, made] = pageFor(root, head, a, b, params);
  page = made;
  setPageTitle(PLACES[place].title);
  markNav(PLACES[place].nav || null);
  document.body.dataset.page = head || "lobby";
  page.mount();
}

/**
 * Where each route is: the catalogue key of its name in the tab's title ("Finished games –
 * Chicago", WCAG 2.4.2; site.js makes the title) and the link of the top navigation that
 * leads to it (marked aria-current="page"), if any. The names are generic: a table's or a
 * tournament's own name (typed by someone) is never put in the title.
 */
const PLACES = {
  lobby: { title: "nav.lobby", nav: "#/" },
  games: { title: "nav.games", nav: "#/games" },
  turns: { title: "nav.turns", nav: "#/turns" },
  tournaments: { title: "nav.tournaments", nav: "#/tournaments" },
  leaderboard: { title: "nav.leaderboard", nav: "#/leaderboard" },
  profile: { title: "nav.profile", nav: "#/profile" },
  practice: { title: "nav.practice", nav: "#/practice" },
  help: { title: "nav.help", nav: "#/help" },
  table: { title: "table.title" },
  watch: { title: "page.watch" },
  replay: { title: "replay.title" },
  mail: { title: "mail.title" },
  signin: { title: "page.signin" },
  player: { title: "page.player" },
  tournament: { title: "page.tournament" },
};

/** The page of a route and where it is (a key of PLACES); anything unknown is the lobby. */
function pageFor(root, head, a, b, params) {
  if (head === "table" && a) return ["table", new TablePage(root, a)];
  if (head === "watch" && a) return ["watch", new TablePage(root, a, { watch: true })];
  if (head === "replay" && a && b) return ["replay", new ReplayPage(root, a, b, { review: params.get("review") })];
  if (head === "games") return ["games", new GamesPage(root)];
  if (head === "turns") return ["turns", new TurnsPage(root)];
  if ((head === "confirm" || head === "unsubscribe") && a) return ["mail", new MailLinkPage(root, head, a)];
  if (head === "help") return ["help", new HelpPage(root)];
  if (head === "profile") {
    // another's profile is not "Profile" (yours) of the navigation; your own id is
    const own = !a || a === (store.profile() || {}).id;
    return [own ? "profile" : "player", new ProfilePage(root, a || null)];
  }
  if (head === "signin" && a) return ["signin", new SignInPage(root, a)];
  if (head === "leaderboard") return ["leaderboard", new LeaderboardPage(root, a || null)];
  if (head === "tournaments") return ["tournaments", new TournamentsPage(root)];
  if (head === "tournament" && a) return ["tournament", new TournamentPage(root, a)];
  if (head === "practice") return ["practice", new PracticePage(root)];
  return ["lobby", new LobbyPage(root)];
}

/** Mark the navigation's link to the page shown (`href`; null: none leads here) as the
 * current page, and no other (WCAG 1.3.1: said by screen readers, not by colour alone). */
function markNav(href) {
  for (const link of document.querySelectorAll(".topbar nav a")) {
    if (link.getAttribute("href") === href) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

function chrome() {
  showTurns(); // the tab's title: the count of tables waiting for you, the page's name, the app's
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
  // The skip link's target is the page, not a route: move the focus there and stay.
  document.querySelector("a.skip")?.addEventListener("click", (event) => {
    event.preventDefault();
    main.focus();
    main.scrollIntoView();
  });
  window.addEventListener("hashchange", route);
  route();
  installWorker();
  startSite();
  startInvites();
  resumeQueue(); // a place in the pairing queue this tab held before a reload
}

/** The service worker (sw.js, at the app's root so that it serves every page): the app's
 * files kept in the browser and an offline page. Browsers offer it on https and localhost
 * only; elsewhere the app works as before, from the network. */
function installWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("sw.js").catch(() => {
    /* no worker: every file comes from the network */
  });
}

start();
