// The replay page: step forward and back through a finished game, as one seat saw it, as a
// spectator, or with every card face up; download the record as JSON or in the text notation.
// The server replays the record (GET /api/web/replay/...), one deal per request.
// The Review view (review.js) grades every decision of a seat; #/replay/TABLE/GAME?review=SEAT
// opens the page with it.

import { h, replace, rememberFocus } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { api } from "./api.js";
import { Names, describe, gameNames, phaseText, stepText } from "./words.js";
import { cardEl, seatOrder, seatPanel, centerPanel, dealSummary, summaryPanel, settlementPanel } from "./board.js";
import { sortCards } from "./cards.js";
import { errorText, showError } from "./notice.js";
import { seatFor } from "./store.js";
import { ReviewPanel } from "./review.js";
import { scoreGraph, scoresOf } from "./graph.js";

export class ReplayPage {
  /** `review`: the seat whose review opens with the page (the address's ?review=SEAT). */
  constructor(root, tableId, game, { review = null } = {}) {
    this.root = root;
    this.tableId = tableId;
    this.game = Number(game);
    this.wantReview = review === null || review === undefined || review === "" ? null : Number(review);
    this.review = null;
    this.view = "all";
    this.summary = null;
    this.record = null;
    this.index = null;
    this.pages = new Map();
    this.deal = 1;
    this.step = 0;
    this.error = null;
    this.offLang = onLangChange(() => this.render());
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
  }

  async mount() {
    replace(this.root, h("p", { class: "loading" }, t("loading")));
    try {
      const data = await api.game(this.tableId, this.game);
      this.summary = data.game;
      this.record = data.record;
      await this.load(1);
    } catch (err) {
      this.error = err;
    }
    const seat = this.wantReview;
    if (!this.error && Number.isInteger(seat) && seat >= 0 && seat < this.record.players) this.openReview(seat);
    else this.render();
  }

  unmount() {
    this.offLang();
    document.removeEventListener("keydown", this.onKey);
    this.review?.stop();
  }

  /** The seat a review opens with: this browser's seat at the table, else the first person's. */
  defaultReviewSeat() {
    const mine = seatFor(this.tableId);
    if (mine && Number.isInteger(mine.seat) && mine.seat < this.record.players) return mine.seat;
    const person = (this.summary.seats || []).find((s) => s.kind === "human");
    return person ? person.seat : 0;
  }

  /** The game graph (graph.js): every seat's score after each deal; a review's losses. */
  graph(names, seat = null, losses = null) {
    if (!this.index || !this.index.length) return null;
    return scoreGraph({ scores: scoresOf(this.index, this.record.players), target: (this.record.rules || {}).target ?? 52,
      names: (s) => names.plain(s), seat, losses });
  }

  /** Show the Review view of `seat`, the replay as that seat saw it. */
  openReview(seat) {
    if (!this.review) {
      this.review = new ReviewPanel({
        tableId: this.tableId, game: this.game, players: this.record.players, names: () => this.names(),
        onJump: (decision) => this.jumpTo(decision), onSeat: (s) => this.openReview(s), onChange: () => this.refreshReview(),
        graph: (seat, losses) => this.graph(this.names(), seat, losses),
      });
    }
    this.review.start(seat);
    this.address(seat);
    this.setView(String(seat));
  }

  /** The review's news (it progressed, it is ready): its panel drawn again, not the page
   * (a slider being dragged or a list being read stays as it is). */
  refreshReview() {
    const panel = this.root.querySelector(".review-panel");
    const step = this.steps()[this.step];
    if (!panel || !step || !this.review) {
      this.render();
      return;
    }
    const focus = rememberFocus(this.root);
    panel.replaceWith(this.review.element(step.number));
    this.review.settle(this.root);
    focus.restore();
  }

  closeReview() {
    this.review?.stop();
    this.review = null;
    this.address(null);
    this.render();
  }

  /** The address says which review is open (a link to it opens it): replaced, not a new page. */
  address(seat) {
    const base = `#/replay/${encodeURIComponent(this.tableId)}/${this.game}`;
    history.replaceState(history.state, "", seat === null ? base : `${base}?review=${seat}`);
  }

  /** Go to the step of a reviewed decision (the step of its action, in the current view). */
  jumpTo(decision) {
    this.queue = (this.queue || Promise.resolve()).then(async () => {
      let steps;
      try {
        steps = await this.load(decision.deal);
      } catch (err) {
        showError(err.code || "network", err.message);
        return;
      }
      const at = steps.findIndex((s) => s.number === decision.step);
      await this.goNow(decision.deal, at < 0 ? 0 : at);
    });
    return this.queue;
  }

  async load(deal) {
    const key = `${this.view}/${deal}`;
    if (!this.pages.has(key)) {
      const page = await api.replay(this.tableId, this.game, this.view, deal);
      this.index = page.deals;
      this.total = page.total;
      this.pages.set(key, page.steps);
    }
    return this.pages.get(key);
  }

  steps() {
    return this.pages.get(`${this.view}/${this.deal}`) || [];
  }

  /** Navigation runs in order: a key pressed while a deal loads applies after it. */
  go(deal, step) {
    this.queue = (this.queue || Promise.resolve()).then(() => this.goNow(deal, step));
    return this.queue;
  }

  async goNow(deal, step) {
    if (!this.index) return;
    deal = Math.max(1, Math.min(this.index.length, deal));
    try {
      const steps = await this.load(deal);
      this.deal = deal;
      this.step = step < 0 ? steps.length - 1 : Math.max(0, Math.min(steps.length - 1, step));
    } catch (err) {
      showError(err.code || "network", err.message);
    }
    this.render();
  }

  next() {
    this.queue = (this.queue || Promise.resolve()).then(() => {
      if (this.step < this.steps().length - 1) return this.goNow(this.deal, this.step + 1);
      if (this.deal < this.index.length) return this.goNow(this.deal + 1, 0);
      return null;
    });
  }

  prev() {
    this.queue = (this.queue || Promise.resolve()).then(() => {
      if (this.step > 0) return this.goNow(this.deal, this.step - 1);
      if (this.deal > 1) return this.goNow(this.deal - 1, -1);
      return null;
    });
  }

  relDeal(delta) {
    this.queue = (this.queue || Promise.resolve()).then(() => this.goNow(this.deal + delta, 0));
  }

  setView(view) {
    this.queue = (this.queue || Promise.resolve()).then(() => {
      this.view = view;
      return this.goNow(this.deal, this.step);
    });
  }

  key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || !this.index) return;
    const tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const actions = {
      ArrowRight: () => this.next(),
      ArrowLeft: () => this.prev(),
      Home: () => this.go(1, 0),
      End: () => this.go(this.index.length, -1),
      PageDown: () => this.relDeal(1),
      PageUp: () => this.relDeal(-1),
    };
    if (actions[e.key]) {
      e.preventDefault();
      actions[e.key]();
    }
  }

  /** The seats' names, from the game's seats ("Bot 2", a person's name, "Player 3"). */
  names() {
    return new Names(gameNames(this.summary, { withLevel: false }), null);
  }

  render() {
    if (this.error) {
      replace(this.root, h("section", { class: "panel" }, h("h1", {}, t("replay.title")),
        h("p", { role: "alert" }, this.error.status === 404 ? t("replay.none") : errorText(this.error)),
        h("p", {}, h("a", { href: "#/" }, t("btn.lobby")))));
      return;
    }
    if (!this.index) return;
    const focus = rememberFocus(this.root);
    const names = this.names();
    const steps = this.steps();
    const step = steps[this.step];
    if (!step) return; // another view's steps are on their way: drawn when they come
    const players = this.record.players;
    const seat = typeof step.state.seat === "number" ? step.state.seat : null;
    const state = { ...step.state, rules: this.record.rules };
    const events = steps.slice(0, this.step + 1).flatMap((s) => s.events);
    const ctx = { names, me: seat, seats: null, events, showHand: this.view === "all" };
    const views = [["all", t("replay.view_all")], ["public", t("replay.view_public")],
      ...Array.from({ length: players }, (_, s) => [String(s), t("replay.view_seat", { who: names.plain(s) })])];
    const select = h("select", { id: "replay-view", onchange: (e) => this.setView(e.target.value) },
      views.map(([value, label]) => h("option", { value, selected: value === this.view }, label)));
    const globalIndex = step.index + 1;
    const btn = (label, action, fn, disabled = false) =>
      h("button", { type: "button", dataset: { action }, disabled, onclick: fn }, label);
    const atStart = this.deal === 1 && this.step === 0;
    const atEnd = this.deal === this.index.length && this.step === steps.length - 1;
    const heading = stepText(step, names);
    const lines = step.events.map((ev) => describe(ev, names)).filter(Boolean);
    const closing = state.phase === "deal over" || (state.over && this.step === steps.length - 1);
    const summary = closing ? dealSummary(events) : null;
    const page = h("div", { class: "replay-page", dataset: { deal: this.deal, step: this.step, index: step.index, view: this.view } },
      h("header", { class: "table-head" },
        h("div", { class: "title-block" },
          h("h1", {}, `${t("replay.title")}: ${this.summary.name || t("lobby.unnamed")}`),
          h("p", { class: "phase-line" }, `${t("phase.line", { deal: state.deal, dealer: names.who(state.dealer), you: names.you(state.dealer) })} · ${phaseText(state)}`)),
        h("div", { class: "tools" },
          h("a", { class: "button", dataset: { action: "download-json" }, download: `chicago-${this.tableId}-${this.game}.json`,
            href: `api/web/record/${encodeURIComponent(this.tableId)}/${this.game}` }, t("replay.download_json")),
          h("a", { class: "button", dataset: { action: "download-text" }, download: `chicago-${this.tableId}-${this.game}.txt`,
            href: `api/games/${encodeURIComponent(this.tableId)}/${this.game}/text` }, t("replay.download_text")))),
      h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.title") },
        h("label", { for: "replay-view" }, t("replay.view")), select,
        btn("« " + t("replay.first"), "first", () => this.go(1, 0), atStart),
        btn("◂ " + t("replay.prev_deal"), "prev-deal", () => this.relDeal(-1), this.deal === 1),
        btn("‹ " + t("replay.prev"), "prev", () => this.prev(), atStart),
        btn(t("replay.next") + " ›", "next", () => this.next(), atEnd),
        btn(t("replay.next_deal") + " ▸", "next-deal", () => this.relDeal(1), this.deal === this.index.length),
        btn(t("replay.last") + " »", "last", () => this.go(this.index.length, -1), atEnd),
        h("button", { type: "button", class: this.review ? "primary" : null, dataset: { action: "review" }, "aria-expanded": String(Boolean(this.review)),
          onclick: () => (this.review ? this.closeReview() : this.openReview(this.defaultReviewSeat())) }, t("review.title")),
        h("input", { type: "range", dataset: { action: "step-slider" }, min: 0, max: steps.length - 1, value: this.step, "aria-label": t("replay.step", { i: this.step + 1, n: steps.length }),
          oninput: (e) => this.go(this.deal, Number(e.target.value)) }),
        h("span", { class: "position", dataset: { testid: "position" } },
          `${t("replay.deal", { deal: this.deal, n: this.index.length })} · ${t("replay.step", { i: globalIndex, n: this.total })}`),
        h("small", { class: "muted" }, t("replay.keys"))),
      h("div", { class: "table-grid" },
        h("div", { class: "board" },
          h("div", { class: `opponents n${seatOrder(players, seat).length}` }, seatOrder(players, seat).map((s) => seatPanel(state, s, ctx))),
          h("div", { class: "center" }, centerPanel(state, ctx), summary ? summaryPanel(summary, names) : null,
            state.over && atEnd && this.record.result
              ? h("section", { class: "result-panel", "aria-label": t("over.title") }, h("h2", {}, t("over.title")),
                settlementPanel(this.record.result, names, (this.record.rules || {}).stake ?? 1))
              : null),
          seat !== null ? h("div", { class: "me" }, seatPanel(state, seat, ctx),
            h("div", { class: "hand-area" }, h("div", { class: "hand", role: "group", "aria-label": names.plain(seat) },
              sortCards(state.hand || []).map((c) => cardEl(c, { size: "lg" }))))) : null),
        h("aside", { class: "side" },
          this.review ? this.review.element(step.number) : this.graph(names),
          h("h2", { class: "step-heading", dataset: { testid: "step" } }, heading),
          h("ul", { class: "step-events" }, lines.map((l) => h("li", {}, l))),
          h("h2", {}, t("table.log")),
          h("ul", { class: "log-list", tabindex: "0", "aria-label": t("table.log") }, events.map((ev) => describe(ev, names)).filter(Boolean).map((l) => h("li", {}, l))))));
    replace(this.root, page);
    this.review?.settle(this.root);
    const log = this.root.querySelector(".log-list");
    if (log) log.scrollTop = log.scrollHeight;
    focus.restore();
  }
}
