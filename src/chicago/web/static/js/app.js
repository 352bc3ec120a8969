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
import { startSite, showTurns } from "./site.js";
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
  if (head === "table" && a) page = new TablePage(root, a);
  else if (head === "watch" && a) page = new TablePage(root, a, { watch: true });
  else if (head === "replay" && a && b) page = new ReplayPage(root, a, b, { review: params.get("review") });
  else if (head === "games") page = new GamesPage(root);
  else if (head === "turns") page = new TurnsPage(root);
  else if ((head === "confirm" || head === "unsubscribe") && a) page = new MailLinkPage(root, head, a);
  else if (head === "help") page = new HelpPage(root);
  else if (head === "profile") page = new ProfilePage(root, a || null);
  else if (head === "signin" && a) page = new SignInPage(root, a);
  else if (head === "leaderboard") page = new LeaderboardPage(root, a || null);
  else if (head === "tournaments") page = new TournamentsPage(root);
  else if (head === "tournament" && a) page = new TournamentPage(root, a);
  else if (head === "practice") page = new PracticePage(root);
  else page = new LobbyPage(root);
  document.body.dataset.page = head || "lobby";
  page.mount();
}

function chrome() {
  showTurns(); // the tab's title: the app's name, after the count of tables waiting for you
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
