// The replay page's Review view (docs/WEB.md, "Review"): every decision of one seat with its
// grade, the better choice and the points it lost, the biggest mistakes first; a row (click,
// Enter or Space, the arrow keys) jumps the replay to that step. The server reviews a game
// after it ended (GET/POST api/games/TABLE/GAME/reviews/SEAT, docs/PROTOCOL.md); while it
// works the panel asks again every second and shows how far it got.
//
// A review names only the reviewed seat's own cards (its hand, its choices): a finished
// game's replay shows those to everyone, so the panel shows nothing the replay does not.

import { h } from "./dom.js";
import { t, num } from "./i18n.js";
import { api } from "./api.js";
import { cardText } from "./cards.js";
import { cardRow } from "./board.js";
import { cards, categoryA, levelName } from "./words.js";
import { errorText } from "./notice.js";

const POLL_MS = 1000;
const WAITING = new Set(["queued", "running"]);

/** The points lost, as the terminal's review writes them: "−1.80". */
function loss(value) {
  return value > 0 ? `−${num(value, 2)}` : num(0, 2);
}

/** Where in the deal a decision was: "exchange 2", "trick 4", "Chicago call". */
export function whereText(decision) {
  return t(`review.phase.${decision.phase.replace(" ", "_")}`, { n: decision.round });
}

/**
 * An alternative in words, as the terminal's review writes it: "keep A♥ K♥", "draw five",
 * "play 10♥", "announce a flush", "no Chicago".
 */
export function choiceText(decision, action) {
  const alt = (decision.alternatives || []).find((a) => a.action === action);
  const words = action.split(" ");
  const head = words[0];
  if (alt && alt.keep && (head === "discard" || head === "keep")) {
    if (!alt.keep.length) return t("choice.draw_five");
    if (alt.keep.length === decision.hand.length) return t("choice.keep_all");
    return t("choice.keep", { cards: cards(alt.keep) });
  }
  if (action.startsWith("one up ")) return t("choice.one_up", { card: cardText(words[2]) });
  switch (head) {
    case "play":
      return t("choice.play", { card: cardText(words[1]) });
    case "discard":
      return t("choice.discard", { cards: cards(words.slice(1)) });
    case "announce":
      return t("choice.announce", { cat: categoryA(words.slice(1).join("_").toUpperCase()) });
    case "keep":
      return t("choice.keep_hand");
    case "pass":
      return t("choice.pass");
    case "chicago":
      return t("choice.chicago");
    case "no":
      return t("choice.no_chicago");
    case "accept":
      return t("choice.accept");
    case "reject":
      return t("choice.reject");
    case "redeal":
      return t("choice.redeal");
    case "reset":  // V-QUADS-ONE names the seat lowered ("reset 2"), V-QUADS-RESET none
      return words.length > 1 ? t("choice.reset_one", { n: Number(words[1]) + 1 }) : t("choice.reset");
    case "score":
      return t("choice.score");
    default:
      return action;
  }
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function playedCard(action) {
  const words = action.split(" ");
  return words.length === 2 && words[0] === "play" ? cardText(words[1]) : action;
}

/**
 * Why the decision is graded so: the catalogue's sentence `why.KEY` filled with the facts of
 * the decision's `why` (chicago.review.reasons), and the score situation where it matters;
 * the same words as chicago review's (chicago.tui.review_words.reason_text). "" without one.
 */
export function reasonText(decision) {
  const why = decision.why;
  if (!why) return "";
  const pct = (chance) => (chance === null || chance === undefined ? "?" : String(Math.round(100 * chance)));
  const pts = (value) => (value === null || value === undefined ? "?" : num(value, 1));
  const keep = (list) => (list && list.length ? cards(list) : t("choice.draw_five"));
  const best = choiceText(decision, why.best);
  let text = t(`why.${why.key}`, {
    best, best_cap: capital(best), done: choiceText(decision, why.done),
    best_card: playedCard(why.best), done_card: playedCard(why.done),
    best_keep: keep(why.best_keep), done_keep: keep(why.done_keep),
    best_cat: categoryA(why.best_category), best_cat_cap: capital(categoryA(why.best_category)),
    done_cat: categoryA(why.done_category),
    best_pct: pct(why.best_chance), done_pct: pct(why.done_chance),
    points: pts(why.points), cost: pts(why.cost), best_points: pts(why.points), done_points: pts(why.cost),
  });
  if (why.score !== null && why.score !== undefined && why.target !== null && why.target !== undefined) {
    text += " " + t("why.score", { score: why.score, target: why.target });
  }
  return text;
}

/** The marks of the accuracy's scale (chicago.review.grades.ACCURACY_MARKS). */
export const ACCURACY_MARKS = { expert: 98.3, basic: 92.2, random: 73.5 };

export function scaleText() {
  return t("review.scale", Object.fromEntries(Object.entries(ACCURACY_MARKS).map(([k, v]) => [k, num(v, 0)])));
}

/** Seconds as "0:42", "3:05". */
function clockText(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function gradeBadge(grade) {
  return h("span", { class: `grade grade-${grade}` }, t(`grade.${grade}`));
}

export class ReviewPanel {
  /**
   * tableId, game: the finished game; players: its seat count; names(): the seats' names;
   * onJump(decision): go to the decision's step (a promise); onSeat(seat): another seat was
   * chosen; onChange(): draw again; graph(seat, losses): the game graph (graph.js).
   */
  constructor({ tableId, game, players, names, onJump, onSeat, onChange, graph = null }) {
    this.graph = graph; // (seat, losses) => the game graph with the seat's points lost
    this.tableId = tableId;
    this.game = game;
    this.players = players;
    this.names = names;
    this.onJump = onJump;
    this.onSeat = onSeat;
    this.onChange = onChange;
    this.seat = null;
    this.answer = null;
    this.error = null;
    this.timer = null;
    this.asked = 0; // the latest request; older answers are dropped
    this.listScroll = 0;
  }

  /** Show the review of `seat` (asking the server for it if nobody has yet). */
  start(seat) {
    this.stop();
    this.seat = seat;
    this.answer = null;
    this.error = null;
    this.load();
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    this.asked += 1;
  }

  async load() {
    const mine = ++this.asked;
    let answer;
    try {
      answer = await api.review(this.tableId, this.game, this.seat);
      if (answer.status === "none") answer = await api.askReview(this.tableId, this.game, this.seat);
    } catch (err) {
      if (mine !== this.asked) return;
      this.error = err;
      this.onChange();
      return;
    }
    if (mine !== this.asked) return;
    this.answer = answer;
    this.error = null;
    if (WAITING.has(answer.status)) this.timer = setTimeout(() => this.load(), POLL_MS);
    this.onChange();
  }

  get review() {
    return this.answer && this.answer.status === "ready" ? this.answer.review : null;
  }

  /** The reviewed decision made at the replay step of action `number`, if any. */
  decisionAt(number) {
    const review = this.review;
    if (!review || number === null || number === undefined) return null;
    return review.decisions.find((d) => d.step === number) || null;
  }

  /** The panel, for the replay at the step of action `number` (null: not an action). */
  element(number) {
    const old = document.querySelector(".review-all");
    if (old) this.listScroll = old.scrollTop;
    const names = this.names();
    const select = h("select", { id: "review-seat", dataset: { action: "review-seat" }, onchange: (e) => this.onSeat(Number(e.target.value)) },
      Array.from({ length: this.players }, (_, s) => h("option", { value: String(s), selected: s === this.seat }, names.plain(s))));
    return h("section", { class: "review-panel", "aria-labelledby": "review-title", dataset: { testid: "review", seat: this.seat, status: this.answer ? this.answer.status : "loading" } },
      h("h2", { id: "review-title" }, t("review.title")),
      h("div", { class: "review-seat" }, h("label", { for: "review-seat" }, t("review.seat")), select),
      this.statusLine(),
      this.review ? this.body(number) : null);
  }

  statusLine() {
    if (this.error) return h("p", { class: "review-status", role: "alert" }, errorText(this.error));
    const a = this.answer;
    if (!a) return h("p", { class: "review-status", role: "status" }, t("review.asking"));
    if (a.status === "queued") {
      return h("div", { class: "review-status", role: "status" },
        h("p", {}, a.ahead ? t("review.queued_ahead", { n: a.ahead }) : t("review.queued")),
        h("progress", { "aria-label": t("review.title") }));
    }
    if (a.status === "running") {
      const known = typeof a.total === "number" && a.total > 0;
      const left = known ? this.estimate(a.done, a.total) : null;
      return h("div", { class: "review-status", role: "status" },
        h("p", {}, known ? t("review.running", { done: a.done, total: a.total }) : t("review.starting"),
          left === null ? null : h("span", { class: "review-eta", dataset: { testid: "review-eta" } }, " " + t("review.eta", { time: clockText(left) }))),
        known ? h("progress", { max: a.total, value: a.done, "aria-label": t("review.title") }) : h("progress", { "aria-label": t("review.title") }));
    }
    if (a.status === "failed") return h("p", { class: "review-status", role: "alert" }, t("review.failed", { error: a.error || "" }));
    return null;
  }

  /**
   * Seconds left, from the pace seen so far: the decisions judged since the first answer
   * that said the review was running, over the time since; null until there is a pace.
   */
  estimate(done, total) {
    const now = performance.now();
    if (!this.pace || this.pace.seat !== this.seat || done < this.pace.done) this.pace = { seat: this.seat, done, at: now };
    const judged = done - this.pace.done;
    const seconds = (now - this.pace.at) / 1000;
    if (judged <= 0 || seconds <= 0) return null;
    return Math.max(1, Math.round(((total - done) * seconds) / judged));
  }

  body(number) {
    const review = this.review;
    const summary = review.summary;
    const name = this.names().plain(this.seat);
    const byStep = new Map(review.decisions.map((d) => [d.step, d]));
    const biggest = summary.biggest.map((step) => byStep.get(step)).filter(Boolean);
    const current = this.decisionAt(number);
    const counts = ["blunder", "mistake", "inaccuracy", "good", "best"].filter((g) => summary.grades[g] > 0);
    return [
      h("p", { class: "review-intro muted" }, t("review.intro", { name })),
      h("dl", { class: "review-summary" },
        h("div", {}, h("dt", {}, t("review.accuracy")), h("dd", { dataset: { testid: "accuracy" } }, num(summary.accuracy, 1)),
          h("dd", { class: "review-scale muted", dataset: { testid: "accuracy-scale" } }, scaleText())),
        h("div", {}, h("dt", {}, t("review.lost")), h("dd", {}, `${num(summary.loss, 1)} (${t("review.per_deal", { n: num(summary.loss_per_deal, 1) })})`)),
        h("div", { class: "review-grades" }, h("dt", {}, t("review.grades")),
          h("dd", {}, counts.length ? counts.map((g) => h("span", { class: "grade-count" }, gradeBadge(g), ` ${summary.grades[g]}`)) : t("review.no_decisions", { name })))),
      this.graph ? this.graph(this.seat, this.lossesPerDeal(review)) : null,
      current ? this.detail(current, review.hindsight) : null,
      h("h3", {}, t("review.biggest")),
      biggest.length
        ? this.list(biggest, "mistake", number, "review-biggest")
        : h("p", { class: "muted" }, t("review.none_big")),
      h("h3", {}, t("review.all")),
      review.decisions.length
        ? this.list(review.decisions, "decision", number, "review-all")
        : h("p", { class: "muted" }, t("review.no_decisions", { name })),
      h("p", { class: "muted review-level" }, t("review.level", { level: levelName(review.level.split(":")[0]) })),
    ];
  }

  /** The points lost in each deal, the first entry the start (0). */
  lossesPerDeal(review) {
    const deals = review.summary.deals;
    const last = deals.reduce((m, d) => Math.max(m, d.deal), 0);
    const losses = Array.from({ length: last + 1 }, () => 0);
    for (const d of deals) losses[d.deal] = d.loss;
    return losses;
  }

  /** The choices at the decision shown now, best first. */
  detail(decision, hindsight) {
    return h("section", { class: "review-current", "aria-label": t("review.choices"), dataset: { testid: "review-current", step: decision.step } },
      h("h3", {}, `${t("review.choices")}: ${t("review.deal_where", { deal: decision.deal, where: whereText(decision) })}`),
      h("p", { class: "review-verdict" }, gradeBadge(decision.grade), " ",
        decision.grade === "best" ? choiceText(decision, decision.action)
          : t("review.verdict", { done: choiceText(decision, decision.action), best: choiceText(decision, decision.best), loss: loss(decision.loss) })),
      decision.why ? h("p", { class: "review-reason", dataset: { testid: "review-reason" } }, reasonText(decision)) : null,
      h("div", { class: "review-hand" }, h("span", { class: "muted" }, t("review.hand")), cardRow(decision.hand, "xs")),
      h("table", { class: "review-alts" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("review.choice")), h("th", { scope: "col" }, t("review.value")),
          hindsight ? h("th", { scope: "col" }, t("review.known")) : null)),
        h("tbody", {}, decision.alternatives.map((alt) => h("tr", { class: alt.action === decision.action ? "chosen" : null },
          h("th", { scope: "row" }, choiceText(decision, alt.action), alt.action === decision.action ? h("span", { class: "muted" }, ` (${t("review.done")})`) : null),
          h("td", {}, num(alt.value, 2)),
          hindsight ? h("td", {}, alt.hindsight === null ? "–" : num(alt.hindsight, 2)) : null)))),
      hindsight ? h("p", { class: "muted review-note" }, t("review.known_note")) : null);
  }

  /** Decisions as rows that jump the replay to their step. */
  list(decisions, kind, number, cls) {
    return h("ol", { class: `review-list ${cls}`, onkeydown: (e) => this.arrows(e) },
      decisions.map((d) => h("li", {},
        h("button", {
          type: "button", class: `review-row grade-${d.grade}`, dataset: { action: `${kind}-${d.step}`, step: d.step },
          "aria-current": d.step === number ? "step" : null,
          onclick: () => this.jump(d, cls),
        },
        h("span", { class: "review-row-head" }, gradeBadge(d.grade),
          h("span", { class: "review-where" }, t("review.deal_where", { deal: d.deal, where: whereText(d) })),
          h("span", { class: "review-loss" }, loss(d.loss))),
        h("span", { class: "review-what" }, d.grade === "best" ? choiceText(d, d.action)
          : `${choiceText(d, d.action)} · ${t("review.better", { choice: choiceText(d, d.best) })}`)))));
  }

  /** ↑ ↓ on a row: the previous or next row, and the replay goes there. */
  arrows(e) {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const rows = [...e.currentTarget.querySelectorAll(".review-row")];
    const at = rows.indexOf(document.activeElement);
    if (at < 0) return;
    e.preventDefault();
    const next = rows[Math.max(0, Math.min(rows.length - 1, at + (e.key === "ArrowDown" ? 1 : -1)))];
    next.focus();
    next.click();
  }

  /** Go to the decision's step; once the page is drawn again, the board and the row that
   * was chosen are both in sight (settle). */
  jump(decision, cls) {
    this.reveal = { step: decision.step, cls };
    return Promise.resolve(this.onJump(decision)).then(() => {
      if (this.reveal) this.inSight(document);
    });
  }

  /**
   * The board and the chosen row in sight, at every width: the board stays at the top of
   * the screen while a review is open (review.css makes it sticky where the screen is tall
   * enough); the row is scrolled just below it where the two are stacked (a narrow screen),
   * or just into the screen where they stand side by side.
   */
  inSight(root) {
    const wanted = this.reveal;
    this.reveal = null;
    if (!wanted) return;
    const row = root.querySelector(`.${wanted.cls} .review-row[data-step="${wanted.step}"]`);
    const board = root.querySelector(".replay-page .board");
    if (!row) return;
    const list = row.closest(".review-all");
    if (list) {
      const top = row.offsetTop;
      if (top < list.scrollTop || top + row.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - (list.clientHeight - row.offsetHeight) / 2);
      }
    }
    let below = 0; // the top of the room the row may use: under a stacked sticky board
    if (board) {
      const b = board.getBoundingClientRect();
      const r = row.getBoundingClientRect();
      const stacked = r.left < b.right && b.left < r.right;
      if (getComputedStyle(board).position === "sticky") {
        if (stacked) below = b.bottom;
      } else if (b.top < 0 || (stacked && b.bottom > window.innerHeight)) {
        window.scrollBy(0, b.top);
      }
    }
    const r = row.getBoundingClientRect();
    const gap = 8;
    if (r.top < below + gap) window.scrollBy(0, r.top - below - gap);
    else if (r.bottom > window.innerHeight - gap) window.scrollBy(0, r.bottom - window.innerHeight + gap);
  }

  /** After the page was drawn: the list where it was, the current row in view. */
  settle(root) {
    const list = root.querySelector(".review-all");
    if (!list) return;
    list.scrollTop = this.listScroll;
    const row = list.querySelector("[aria-current=step]");
    if (row) {
      const top = row.offsetTop; // the list is the rows' offset parent (review.css)
      if (top < list.scrollTop) list.scrollTop = top;
      else if (top + row.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + row.offsetHeight - list.clientHeight;
    }
    if (this.reveal) this.inSight(root);
  }
}
