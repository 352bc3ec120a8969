// The first visit: the lobby's welcome (a guided first game, or skip it), the guided game's
// explanations at the table (one for each part of a deal, the first time it comes, with
// pictures of the hands that score), and those pictures for the help page too.
//
// What the browser remembers (localStorage, store.js options):
//   guide        "new" (never asked) | "on" (a guided game is being played) | "off"
//   guideTable   the id of the guided game's table (the guide speaks only there)
//   guideSeen    the explanations read ("Got it", or shown and then passed)

import { h } from "./dom.js";
import { t, has } from "./i18n.js";
import * as store from "./store.js";
import { cardSvg } from "./cards.js";
import { cardName, category } from "./words.js";
import { announce, showNotice } from "./notice.js";

/** An example of each category, lowest first (royal flush only where it scores on its own). */
const EXAMPLES = [
  ["PAIR", ["8s", "8h", "Kd", "5c", "2s"]],
  ["TWO_PAIR", ["Jc", "Jd", "4h", "4s", "As"]],
  ["THREE_OF_A_KIND", ["7c", "7d", "7s", "Qh", "3c"]],
  ["STRAIGHT", ["5d", "6c", "7h", "8s", "9d"]],
  ["FLUSH", ["2h", "6h", "9h", "Jh", "Kh"]],
  ["FULL_HOUSE", ["Tc", "Td", "Ts", "3h", "3c"]],
  ["FOUR_OF_A_KIND", ["9c", "9d", "9h", "9s", "4d"]],
  ["STRAIGHT_FLUSH", ["5s", "6s", "7s", "8s", "9s"]],
  ["ROYAL_FLUSH", ["Th", "Jh", "Qh", "Kh", "Ah"]],
];

/** The guided game's table: pagat rules, you and three bots of the middle level, three deals. */
export const GUIDED_TABLE = { preset: "pagat", bot: "basic", bot_delay: 1.2, deal_pause: 60, rules: { max_deals: 3 } };

/** The guide's state in this browser: "new", "on" or "off". */
export function guideState() {
  const state = store.option("guide", "new");
  return ["new", "on", "off"].includes(state) ? state : "new";
}

/** Turn the guide off (skipped in the lobby, or stopped at the table): remembered. */
export function stopGuide() {
  store.setOption("guide", "off");
}

/** The request that creates the guided game (the bot level falls back to the first offered). */
export function guidedRequest(levels) {
  const bot = levels.includes(GUIDED_TABLE.bot) ? GUIDED_TABLE.bot : levels[0];
  return {
    preset: GUIDED_TABLE.preset, seats: ["open", `bot:${bot}`, `bot:${bot}`, `bot:${bot}`],
    bot_delay: GUIDED_TABLE.bot_delay, deal_pause: GUIDED_TABLE.deal_pause, rules: { ...GUIDED_TABLE.rules },
  };
}

/** The guided game's table was created: the guide speaks there, every explanation new. */
export function guideStarted(tableId) {
  store.setOption("guide", "on");
  store.setOption("guideTable", tableId);
  store.setOption("guideSeen", []);
}

/** The lobby's welcome on a first visit: start the guided game, or skip it. */
export function welcomePanel(onStart, busy) {
  if (guideState() !== "new") return null;
  return h("section", { class: "panel welcome", dataset: { guide: "welcome" }, "aria-labelledby": "welcome-title" },
    h("h2", { id: "welcome-title" }, t("guide.welcome_title")),
    h("p", {}, t("guide.welcome_text")),
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary", dataset: { action: "guide-start" }, disabled: busy, onclick: onStart }, t("guide.start")),
      h("button", {
        type: "button", dataset: { action: "guide-skip" },
        onclick: (e) => {
          stopGuide();
          e.currentTarget.closest(".welcome")?.remove();
          document.querySelector("[data-action=quick-play]")?.focus();
        },
      }, t("guide.skip"))));
}

/** The hands that score, each drawn as five cards with its points under the table's rules. */
export function scoringHands(rules, { size = "xs" } = {}) {
  const points = (rules && rules.points) || {};
  const shown = EXAMPLES.filter(([cat]) => cat !== "ROYAL_FLUSH" || (rules && rules.royal_separate));
  return h("ul", { class: "scoring-hands", dataset: { hands: shown.length } }, shown.map(([cat, cards]) =>
    h("li", { class: "scoring-hand", dataset: { category: cat } },
      h("span", { class: "hand-name" }, h("strong", {}, category(cat)), " ",
        points[cat] !== undefined ? h("span", { class: "hand-points" }, t("hands.points", { n: points[cat] })) : null),
      h("span", { class: "visually-hidden" }, `, ${t("hands.example")}:`),
      h("span", { class: "card-row hand-example" }, cards.map((code) => exampleCard(code, size))))));
}

/** A card of a picture: drawn like the table's, but no card of a game (no data-card). */
function exampleCard(code, size) {
  return h("span", {
    class: `card card-${size}`, role: "img", "aria-label": cardName(code),
    html: cardSvg(code, { fourColor: store.option("fourColor", false), compact: size === "xs" || size === "sm" }),
  });
}

/** Which explanation belongs to the table as it is now (a key of guide.*), or null. */
function stepOf(page) {
  const v = page.view;
  if (!v || page.table.status === "waiting") return null;
  if (page.gameOver || v.over) return "over";
  if (page.pause || page.summaryShown()) return "summary";
  if (v.phase === "announce") return "announce";
  if (v.phase === "chicago") return "chicago";
  if (v.phase === "play" || page.rest) return "play";
  if (v.phase === "exchange") return "exchange";
  return null;
}

/**
 * The guide at the guided game's table (`page` a TablePage): the explanation of the part of
 * the deal now on, unless read already. Shown once: "Got it", or the deal moving on past it,
 * marks it read (remembered); "Stop the guide" turns the guide off.
 */
export class Guide {
  constructor(page) {
    this.page = page;
    this.shown = null; // the explanation on the screen at the last drawing
  }

  active() {
    return guideState() === "on" && store.option("guideTable", null) === this.page.id && this.page.seated();
  }

  seen() {
    const list = store.option("guideSeen", []);
    return Array.isArray(list) ? list : [];
  }

  markSeen(step) {
    const seen = this.seen();
    if (!seen.includes(step)) store.setOption("guideSeen", [...seen, step]);
  }

  /** The panel for this drawing of the table, or null. */
  panel() {
    if (!this.active()) return null;
    const step = stepOf(this.page);
    if (this.shown && this.shown !== step) this.markSeen(this.shown); // passed: it was read
    this.shown = null;
    if (!step || this.seen().includes(step)) return null;
    if (step === "over") store.setOption("guide", "off"); // the guided game is done
    if (this.said !== step) announce(t("guide.step", { title: t(`guide.${step}_title`) }));
    this.said = step;
    this.shown = step;
    return this.body(step);
  }

  body(step) {
    const page = this.page;
    const rules = (page.view && page.view.rules) || page.table.rules || {};
    const params = { n: rules.exchanges ?? 3, points: step === "chicago" ? rules.chicago_points ?? 15 : rules.last_trick_points ?? 5, target: rules.target ?? 52 };
    const lines = [];
    for (let i = 1; has(`guide.${step}.${i}`); i += 1) lines.push(t(`guide.${step}.${i}`, params));
    const title = t(`guide.${step}_title`);
    return h("section", { class: "guide", dataset: { guide: step }, "aria-labelledby": "guide-title" },
      h("h2", { id: "guide-title" }, t("guide.step", { title })),
      lines.map((line) => h("p", {}, line)),
      step === "announce" ? scoringHands(rules) : null,
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "primary", dataset: { action: "guide-ok" }, onclick: () => this.read(step) }, t("guide.got_it")),
        h("button", { type: "button", dataset: { action: "guide-stop" }, onclick: () => this.stop() }, t("guide.stop"))));
  }

  read(step) {
    this.markSeen(step);
    this.shown = null;
    this.page.render();
    this.page.root.querySelector(".hand button:not([disabled]), .actions button:not([disabled])")?.focus({ preventScroll: true });
  }

  stop() {
    stopGuide();
    this.shown = null;
    showNotice(t("guide.stopped"));
    this.page.render();
  }
}
