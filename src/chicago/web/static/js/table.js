// The live table: one seat's view of a game (or a spectator's), kept up to date over the
// websocket; the player's cards as SVG buttons, the choices of the moment as buttons.

import { h, replace, rememberFocus, copyText } from "./dom.js";
import { t, num, items, onLangChange } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { TableConnection } from "./connection.js";
import * as store from "./store.js";
import { cardText, sortCards } from "./cards.js";
import { Names, cap, seatNames, describe, category, categoryA, phaseText, presetName } from "./words.js";
import { cardEl, seatOrder, seatPanel, centerPanel, dealSummary, dealRecord, summaryPanel, scoreTable, settlementPanel, finishedTrick } from "./board.js";
import { announce, errorText, showError, showNotice } from "./notice.js";
import { Motion, motionOn as motionRuns, motionWanted, setMotionWanted, systemReducesMotion } from "./motion.js";
import { sound } from "./sound.js";
import { momentsOf, MOMENT_MS, MOMENT_MIN_MS } from "./moments.js";
import { barEl, ringEl, updateCountdowns } from "./clock.js";
import { hintBody } from "./hint.js";
import { chicagoRule } from "./rulewords.js";
import { Guide } from "./guide.js";
import { InvitePanel } from "./people.js";


const LOG_LIMIT = 400;

/** Messages that wait while a finished trick rests in the middle (applied in order after it). */
const HELD = new Set(["update", "seats", "continue", "game_over"]);

/** Milliseconds between the updates of a batch shown one after another (each bot's card). */
export const STEP_MS = 240;
/** The longest a press on the page holds back its drawing (ms). */
export const PRESS_MAX_MS = 1000;

/** The choices of the trick's rest (ms), the first the default: the table's setting. */
export const TRICK_RESTS = [1000, 0, 500, 2000];

/** How long a finished trick rests in the middle at this browser's tables (ms). */
export function trickRest() {
  const ms = store.option("trickRest", TRICK_RESTS[0]);
  return TRICK_RESTS.includes(ms) ? ms : TRICK_RESTS[0];
}

// The sound switch's icon: a speaker with waves (on) or crossed out (off), drawn as SVG.
const SPEAKER = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const SPEAKER_ON = `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${SPEAKER}` +
  '<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';
const SPEAKER_OFF = `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${SPEAKER}` +
  '<path d="M16 9l6 6M22 9l-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

/** The words of a button for an action (for "answered for you" messages). */
function actionLabel(action) {
  const keys = { pass: "btn.pass", keep: "btn.keep_hand", redeal: "btn.redeal", reset: "btn.reset", score: "btn.score",
    chicago: "btn.chicago", "no chicago": "btn.no_chicago", reject: "btn.reject" };
  if (keys[action]) return t(keys[action]);
  if (action.startsWith("announce ")) return t("btn.announce", { cat: categoryA(action.slice(9).toUpperCase().replace(/ /g, "_")) });
  return action;
}

function sameSet(a, b) {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((x) => set.has(x));
}

export class TablePage {
  constructor(root, tableId, { watch = false } = {}) {
    this.root = root;
    this.id = tableId;
    this.watchOnly = watch;
    const saved = watch ? null : store.seatFor(tableId);
    this.token = saved ? saved.token : null;
    this.table = null;
    this.view = null;
    this.you = null;
    this.clock = null;
    this.presence = null;
    this.selection = new Set();
    this.log = [];
    this.summary = null;
    this.gameOver = null;
    this.overOpen = false; // the game-over window is open (it can be closed to look at the table)
    this.answers = null; // after a game: {agreed, waiting, until, total} (who wants to play again)
    this.leaving = false; // this person said they leave (their seat is released)
    this.dialog = null;
    this.chatDraft = ""; // what is typed in the chat and join fields survives every re-render
    this.joinDraft = null;
    this.hint = null;
    this.pending = null;
    this.autoSeq = null;
    this.status = "connecting";
    this.conn = null;
    this.motion = new Motion();
    this.fresh = []; // events not drawn yet: what the next drawing animates
    this.moments = []; // the key moments on the banner: [{id, kind, text, detail, at, acted}]
    this.momentSeq = 0;
    this.rest = null; // the finished trick resting in the middle: {trick, winner, card, cards}
    this.held = []; // messages that came while it rests (or a batch steps), applied after it
    this.stepping = false; // an update of a batch is on show: the next waits STEP_MS
    this.guide = new Guide(this); // the guided first game's explanations (guide.js)
    this.pause = null; // the pause between deals: {deal, waiting: [seats], until, total}
    this.summaryClosed = false;
    this.revealPause = false; // a pause has begun and its summary is not yet brought into view
    this.offLang = onLangChange(() => this.render());
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    this.clockTimer = setInterval(() => this.tickClock(), 250);
    // A press on the page (a mouse button or a finger down on it): a drawing meanwhile puts
    // new buttons under the pointer, and the browser fires no click for a press and a
    // release on two elements (a card clicked as a banner ended or news came did nothing).
    // So the drawing waits for the release, PRESS_MAX_MS at most (a release outside the
    // window is never seen).
    this.pressedAt = null;
    this.drawAfterPress = null; // the timer of a drawing held back by a press
    this.onPress = (e) => {
      if (e.isPrimary && e.button === 0 && this.root.contains(e.target)) this.pressedAt = performance.now();
    };
    this.onRelease = () => this.endPress();
    document.addEventListener("pointerdown", this.onPress, true);
    document.addEventListener("pointerup", this.onRelease, true);
    document.addEventListener("pointercancel", this.onRelease, true);
  }

  /** A press has ended: a drawing held back meanwhile is made, after the click it makes. */
  endPress() {
    if (this.pressedAt === null) return;
    this.pressedAt = null;
    if (this.drawAfterPress !== null) {
      clearTimeout(this.drawAfterPress);
      this.drawAfterPress = null;
      setTimeout(() => this.render(), 0);
    }
  }

  async mount() {
    replace(this.root, h("p", { class: "loading" }, t("loading")));
    try {
      this.table = await api.table(this.id);
    } catch (err) {
      replace(this.root, h("section", { class: "panel" }, h("h1", {}, t("table.title")),
        h("p", { role: "alert" }, err instanceof ApiError && err.status === 404 ? t("table.not_found") : errorText(err)),
        h("p", {}, h("a", { href: "#/" }, t("btn.lobby")))));
      return;
    }
    this.connect();
    this.render();
  }

  unmount() {
    this.invitePanel?.close();
    this.conn?.close();
    this.offLang();
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("pointerdown", this.onPress, true);
    document.removeEventListener("pointerup", this.onRelease, true);
    document.removeEventListener("pointercancel", this.onRelease, true);
    clearTimeout(this.drawAfterPress);
    clearInterval(this.clockTimer);
    clearTimeout(this.autoTimer);
    clearTimeout(this.momentTimer);
    clearTimeout(this.restTimer);
    clearTimeout(this.stepTimer);
    this.motion.destroy();
  }

  connect() {
    this.conn?.close();
    this.conn = new TableConnection(this.id, this.token, {
      onMessage: (msg) => this.message(msg),
      onStatus: (status) => {
        this.status = status;
        if (status === "signed_out" || status === "claimed") store.forgetSeat(this.id);
        this.renderStatus();
      },
    });
    this.conn.start();
    // for tests and debugging: window.chicago.drop(ms) cuts the connection like a network failure
    window.chicago = Object.assign(window.chicago || {}, {
      table: this,
      motion: this.motion,
      sound,
      drop: (ms) => this.conn.drop(ms),
      reconnect: () => this.conn.reconnectNow(),
    });
  }

  // ------------------------------------------------------------------ messages
  /** A message from the server: held while a finished trick rests or a batch steps, else
   * handled now. A batch is its updates, one after another. */
  message(msg) {
    if (msg.type === "batch") {
      this.batch(msg);
      return;
    }
    if (this.rest || this.stepping) {
      if (msg.type === "snapshot" || msg.type === "resumed") {
        this.stepping = false;
        clearTimeout(this.stepTimer);
        if (this.rest) this.endRest(false);
        else this.release();
      } else if (HELD.has(msg.type)) {
        msg.receivedAt = performance.now(); // its clock and pause count from here
        this.held.push(msg);
        return;
      }
    }
    this.handle(msg);
  }

  /** A batch (docs/PROTOCOL.md): its updates in order; with motion on, each but the last
   * that plays a card is shown for STEP_MS before the next (so each bot's card is seen to
   * land; off with reduced motion: the batch is shown at once), the state coming with the
   * last one (and with any that ends a trick). A replayed batch (what was missed while
   * away, before `resumed`) is shown at once, without steps or a finished trick's rest:
   * the page catches up with the table as it is now. */
  batch(msg) {
    const updates = msg.updates || [];
    updates.forEach((u, i) => {
      u.type = "update";
      if (i < updates.length - 1) u.next = updates[i + 1].seat; // who acts after it
      if (msg.replayed) u.replayed = true;
    });
    for (const update of updates) this.message(update);
  }

  /** The update of a batch on show is over: the held messages go on. */
  endStep() {
    if (!this.stepping) return;
    clearTimeout(this.stepTimer);
    this.stepping = false;
    if (!this.rest) this.release();
  }

  /** Handle the held messages in order (one may hold the rest again). */
  release() {
    const held = this.held;
    this.held = [];
    for (const msg of held) this.message(msg);
    return held.length;
  }

  handle(msg) {
    switch (msg.type) {
      case "snapshot":
        this.snapshot(msg);
        break;
      case "update":
        this.update(msg);
        break;
      case "game_over":
        this.setGameOver(msg);
        if ("rematch" in msg) {
          // the question comes with this frame: the window's focus moves to its first choice
          this.setAnswers(msg.rematch, msg.receivedAt);
          if (this.overOpen && !document.activeElement?.closest(".dialog-foot")) this.focusDialog = true;
        }
        this.render();
        break;
      case "seats":
        if (this.table) {
          const wasAway = this.seated() && this.table.seats[this.you] && this.table.seats[this.you].away;
          this.table.seats = msg.seats;
          // The game starts when its last open seat is taken: status "playing", the turn clock
          // (if any) running (docs/PROTOCOL.md: seats).
          this.table.status = msg.status;
          this.setClock(msg.clock, msg.receivedAt);
          if ("rematch" in msg) this.setAnswers(msg.rematch);
          if (msg.change === "leave" && msg.seat === this.you && this.seated()) this.released();
          if (!wasAway && msg.change === "away" && msg.seat === this.you) {
            showNotice(t("table.away_clock"));
            announce(t("table.away_clock"));
          }
        }
        this.render();
        break;
      case "continue": {
        // a person pressed Continue after a deal, or the pause ran out: the next deal starts
        // when `pause` is null (docs/PROTOCOL.md: continue)
        const wasMyTurn = this.myTurn();
        this.setPause(msg.pause, msg.receivedAt);
        this.setClock(msg.clock, msg.receivedAt);
        if (!wasMyTurn && this.myTurn()) {
          announce(t("table.your_turn"));
          sound.play("turn");
        }
        this.render();
        break;
      }
      case "rematch":
        // after a game: a person agreed to play again, or everyone left (docs/PROTOCOL.md)
        if (this.table) {
          this.setAnswers(msg.rematch);
          this.table.closed = Boolean(msg.closed);
          if (msg.closed) announce(t("again.closed"));
          else if (typeof msg.seat === "number" && msg.seat !== this.you) announce(t("again.agreed", { name: this.names().plain(msg.seat) }));
        }
        this.render();
        break;
      case "presence":
        this.presence = msg.connected;
        this.render();
        break;
      case "chat":
        this.pushLog({ chat: true, seat: msg.seat, name: msg.name, text: msg.text });
        announce(`${this.chatName(msg.seat, msg.name)}: ${msg.text}`);
        this.render();
        break;
      case "resumed":
        this.table = msg.table;
        this.setAnswers(msg.table.rematch);
        this.you = msg.you;
        this.setClock(msg.clock);
        this.setPause(msg.table.pause);
        this.pending = null;
        this.render();
        break;
      case "error":
        this.pending = null;
        if (msg.code === "bad_token") {
          store.forgetSeat(this.id);
          this.token = null;
          this.conn.token = null;
          this.conn.lastSeq = null;
          this.conn.hello(); // go on watching
        }
        showError(msg.code, msg.message);
        if (msg.code === "stale" || msg.code === "internal") this.conn.request("view");
        this.render();
        break;
      default:
        break;
    }
  }

  /** The game is over: the result window opens once (it can be closed and opened again). */
  setGameOver(result) {
    if (!this.gameOver) {
      this.overOpen = true;
      this.focusDialog = true;
    }
    this.gameOver = result;
  }

  chatName(seat, name) {
    if (typeof seat === "number" && this.table && this.table.seats[seat]) return this.names().plain(seat);
    return name || "?";
  }

  snapshot(msg) {
    const newGame = msg.reason === "rematch" || (this.view && msg.table && this.table && msg.table.game !== this.table.game);
    this.table = msg.table;
    this.you = msg.you;
    this.view = msg.view;
    this.setClock(msg.clock);
    this.setPause(msg.table ? msg.table.pause : null);
    this.pending = null;
    this.fresh = []; // a whole new picture: nothing to animate
    this.setAnswers(msg.table ? msg.table.rematch : null);
    if (newGame) {
      this.gameOver = null;
      this.overOpen = false;
      this.summary = null;
      this.moments = [];
      this.log = [];
    }
    if (this.pause && !this.summary && this.view) {
      // reloaded during the pause after a deal: its summary from the history and the record
      // of the deal is gone from the view, so only the points are known
      const last = (this.view.history || [])[this.view.history.length - 1];
      if (last && last.deal === this.pause.deal) this.summary = dealSummary([last]);
    }
    if (this.view && this.view.over && !this.gameOver) {
      this.setGameOver({ winners: this.view.winners, scores: this.view.scores, settlement: this.view.settlement, game: this.table.game });
    }
    if (!this.log.length && this.view) {
      this.logDeal = this.view.deal;
      for (const ev of this.view.events || []) this.pushLog({ ev });
    }
    this.cleanSelection();
    this.render();
  }

  update(msg) {
    const view = this.view;
    if (!view) return;
    const events = msg.events || [];
    const moments = momentsOf(events, view.events, this.names(), view);
    let finished = null;
    let dealt = null;
    for (const ev of events) {
      if (ev.type === "deal") {
        view.events = [];
        dealt = ev.deal;
      }
      view.events.push(ev);
      if (ev.type === "trick") {
        const cards = view.events.filter((e) => e.type === "play" && e.trick === ev.trick).map((e) => ({ seat: e.seat, card: e.card }));
        finished = { trick: ev.trick, winner: ev.winner, card: ev.card, cards, event: ev };
      }
      if (ev.type === "deal_end") {
        this.summary = dealSummary(view.events);
        this.summaryClosed = false;
        (view.history ||= []).push(dealRecord(ev, view.events));
      }
      if (ev.type === "game_end") {
        this.setGameOver({ winners: ev.winners, scores: ev.scores, settlement: ev.settlement, game: msg.game });
      }
      this.pushLog({ ev });
      announce(describe(ev, this.names()));
    }
    // while a finished trick rests, what came after it (a showdown, the next deal) moves
    // when the rest is over
    const resting = finished && !msg.replayed && this.restMs() > 0;
    const upTo = resting ? events.indexOf(finished.event) + 1 : events.length;
    this.fresh.push(...events.slice(0, upTo));
    // a moment belongs to the deal it happened in (a lock, to the deal it starts)
    if (moments.length) this.showMoments(moments.map((m) => ({ ...m, deal: m.kind === "lock" && dealt ? dealt : view.deal })));
    this.sounds(events);
    const wasMyTurn = this.myTurn();
    if (msg.state) Object.assign(view, msg.state);
    else if ("next" in msg) this.stepView(msg, events);
    if ("pause" in msg) this.setPause(msg.pause, msg.receivedAt);
    if (!wasMyTurn && this.myTurn()) {
      announce(t("table.your_turn"));
      if (!this.pause) sound.play("turn");
    }
    if (msg.by === "clock" && msg.seat === this.you && this.seated()) {
      // the turn clock ran out: the stand-in made this one decision, the seat stays ours
      const text = t("auto.clock", { action: msg.action ? actionLabel(msg.action) : t("auto.some_move") });
      this.pushLog({ auto: null, note: text });
      showNotice(text);
    }
    if (msg.state || msg.clock) this.setClock(msg.clock, msg.receivedAt);
    if (this.table && msg.state) {
      this.table.to_act = msg.state.to_act;
      this.table.scores = msg.state.scores;
    }
    this.pending = null;
    this.cleanSelection();
    if (resting) this.startRest(finished, events.slice(upTo));
    if ("next" in msg && !msg.replayed && motionRuns() && events.some((e) => e.type === "play")) {
      this.stepping = true;
      clearTimeout(this.stepTimer);
      this.stepTimer = setTimeout(() => this.endStep(), STEP_MS);
    }
    this.render();
  }

  /** An update of a batch that comes without the state: the cards its events played are
   * put on the table (the phase, the trick, the hand, the hand sizes) and the seat of the
   * batch's next update is to act; the batch's last update brings the whole state. */
  stepView(msg, events) {
    const view = this.view;
    for (const ev of events) {
      if (ev.type !== "play") continue;
      view.phase = "play"; // the first card after the exchanges, say
      view.trick_number = ev.trick;
      (view.trick ||= []).push({ seat: ev.seat, card: ev.card });
      if (ev.seat === view.seat && Array.isArray(view.hand)) view.hand = view.hand.filter((c) => c !== ev.card);
      if (Array.isArray(view.hand_sizes) && view.hand_sizes[ev.seat] > 0) view.hand_sizes[ev.seat] -= 1;
    }
    view.to_act = msg.next;
    view.legal_actions = [];
  }

  /** How long a finished trick rests here (ms): the setting, none at a table of bots only. */
  restMs() {
    if (!this.table || this.table.seats.every((s) => s.kind === "bot")) return 0;
    return trickRest();
  }

  /** Keep a finished trick in the middle, its winner marked, for the rest's time; `later`:
   * the events after it, animated when it is gathered. */
  startRest(trick, later = []) {
    const ms = this.restMs();
    if (!ms) return;
    this.rest = { ...trick, later };
    if (typeof window.chicago === "object") (window.chicago.rests ||= []).push({ ...trick, ms });
    clearTimeout(this.restTimer);
    this.restTimer = setTimeout(() => this.endRest(), ms);
  }

  /** The rest is over: the trick is gathered to its winner, the held messages applied. */
  endRest(draw = true) {
    if (!this.rest) return;
    clearTimeout(this.restTimer);
    const { winner, later } = this.rest;
    this.rest = null;
    this.fresh.unshift({ type: "gather", winner }, ...later);
    if (this.stepping) {
      if (draw) this.render(); // the batch's next update follows when its step is over
      return;
    }
    const released = this.release(); // a held trick may start a rest of its own
    if (draw && !released) this.render();
  }

  /** The turn clock of a frame received at `at` (performance.now(); a held frame's is earlier). */
  setClock(clock, at = performance.now()) {
    const total = (this.table && this.table.clock) || (clock ? clock.ms / 1000 : 0);
    this.clock = clock ? { seat: clock.seat, until: at + clock.ms, total } : null;
  }

  /** The pause between deals (docs/PROTOCOL.md): {deal, ms, waiting} from the server, or null. */
  setPause(pause, at = performance.now()) {
    const had = this.pause;
    if (!pause) {
      this.pause = null;
      if (had) {
        // the next deal has started: the summary and the banners of the last one go (they
        // were there with the summary through the pause)
        this.summaryClosed = true;
        this.moments = this.moments.filter((m) => m.kind === "lock" && m.deal === this.view?.deal);
        this.pruneMoments();
      }
      return;
    }
    const total = (this.table && this.table.deal_pause) || pause.ms / 1000;
    this.pause = { deal: pause.deal, waiting: pause.waiting || [], until: at + pause.ms, total };
    if (!had) this.revealPause = true;
  }

  /**
   * A pause after a deal has begun: once its summary is drawn (the deal's last trick rests in
   * the middle first), the summary is brought into view if this player must press its
   * Continue and it is off the screen (a phone player scrolled down to the hand or the chat
   * would not see it; CI once found it above the top). Not while the player types.
   */
  revealSummary() {
    const box = this.root.querySelector(".deal-summary");
    if (!box) return;
    this.revealPause = false;
    if (this.continued()) return;
    const active = document.activeElement;
    if (active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA")) return;
    const top = box.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 2) box.scrollIntoView({ block: "start" });
  }

  /** Has this player pressed Continue in the pause (or need not)? */
  continued() {
    return !this.pause || !this.seated() || !this.pause.waiting.includes(this.you);
  }

  continueDeal() {
    if (this.continued() || !this.online()) return;
    if (!this.conn.request("continue")) {
      showError("network");
      return;
    }
    this.pause.waiting = this.pause.waiting.filter((s) => s !== this.you); // shown at once; the server confirms
    this.render();
  }

  tickClock() {
    updateCountdowns(this.root, (kind) => (kind === "pause" ? this.pause : kind === "answers" ? (this.answers && this.answers.until !== null ? this.answers : null) : this.clock));
  }

  /**
   * Put the key moments of an update on the banner, below the ones still there. Each stays
   * at least MOMENT_MIN_MS from when it is drawn, whatever happens, then until the player's
   * next action, and MOMENT_MS at most; its close button takes it away at once.
   */
  showMoments(moments) {
    const at = performance.now();
    const added = moments.map((m) => ({ ...m, id: ++this.momentSeq, at, acted: false, drawn: false }));
    this.moments = [...this.moments, ...added];
    for (const m of moments) if (m.detail) announce(m.detail); // the event itself is announced already
    if (typeof window.chicago === "object") (window.chicago.moments ||= []).push(...added);
    this.pruneMoments(at);
  }

  /** The banners just put in the page count their time from now. */
  momentsDrawn() {
    const at = performance.now();
    const fresh = this.moments.filter((m) => !m.drawn);
    for (const m of fresh) {
      m.drawn = true;
      m.at = at;
    }
    if (fresh.length) this.pruneMoments(at);
  }

  /** Drop the banners whose time is up and set the timer of the next; true if one went. */
  pruneMoments(at = performance.now()) {
    const until = (m) => m.at + (m.acted ? MOMENT_MIN_MS : MOMENT_MS);
    const kept = this.moments.filter((m) => until(m) > at);
    const dropped = kept.length !== this.moments.length;
    this.moments = kept;
    clearTimeout(this.momentTimer);
    if (kept.length) {
      const next = Math.min(...kept.map(until)) - at;
      this.momentTimer = setTimeout(() => {
        if (this.pruneMoments()) this.render();
      }, Math.max(0, next) + 16); // a frame late rather than early
    }
    return dropped;
  }

  /** The player closes a banner. */
  dismissMoment(id) {
    this.moments = this.moments.filter((m) => m.id !== id);
    this.pruneMoments();
    this.render();
    this.root.querySelector(".moment [data-action^='dismiss']")?.focus({ preventScroll: true });
  }

  /** The sounds of an update's events. */
  sounds(events) {
    for (const ev of events) {
      if (ev.type === "play") sound.play("card");
      else if (ev.type === "round_result" && ev.winner !== null && ev.winner !== undefined) sound.play("round");
      else if (ev.type === "chicago" && ev.declared) sound.play("chicago");
      else if (ev.type === "chicago_result") sound.play(ev.made ? "made" : "broken");
    }
  }

  pushLog(entry) {
    if (entry.ev && entry.ev.type === "deal") this.logDeal = entry.ev.deal;
    entry.deal = this.logDeal ?? (this.view ? this.view.deal : null);
    this.log.push(entry);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  cleanSelection() {
    const hand = new Set(this.view?.hand || []);
    for (const c of [...this.selection]) if (!hand.has(c)) this.selection.delete(c);
    if (!this.myTurn() || !["exchange"].includes(this.view.phase)) this.selection.clear();
  }

  // ------------------------------------------------------------------ state helpers
  seated() {
    return this.you !== null && this.you !== undefined;
  }

  /** Is it this player's turn? Not in the pause between deals (no one acts then). */
  myTurn() {
    return Boolean(this.view && this.seated() && !this.pause && this.view.to_act === this.you && (this.view.legal_actions || []).length);
  }

  legal() {
    return this.myTurn() ? this.view.legal_actions : [];
  }

  names() {
    return new Names(seatNames(this.table.seats), this.you);
  }

  act(text) {
    if (this.pending) return;
    if (!this.online()) {
      showError("network");
      return;
    }
    this.endRest(); // a move during the rest: the trick is gathered now
    if (!this.legal().includes(text)) return; // what came meanwhile made it no longer a move
    const seq = this.conn.lastSeq;
    const id = this.conn.act(text);
    if (!id) {
      showError("network");
      return;
    }
    this.pending = { text, id, seq };
    this.selection.clear();
    for (const m of this.moments) m.acted = true; // a banner goes with the next action once read
    this.pruneMoments();
    this.hint = null;
    if (this.dialog === "hint") this.dialog = null;
    this.render();
  }

  // ------------------------------------------------------------------ rendering
  render() {
    if (!this.table) return;
    if (this.pressedAt !== null) { // drawn when the press ends (see the constructor)
      const left = PRESS_MAX_MS - (performance.now() - this.pressedAt);
      if (left > 0) {
        if (this.drawAfterPress === null) {
          this.drawAfterPress = setTimeout(() => {
            this.drawAfterPress = null;
            this.pressedAt = null;
            this.render();
          }, left);
        }
        return;
      }
      this.pressedAt = null;
    }
    this.motion.finish(); // a new state finishes a running animation at once
    this.motion.capture(this.root);
    const focus = rememberFocus(this.root); // put back on the same control once drawn anew
    const logEl = this.root.querySelector(".log-list");
    const atBottom = !logEl || logEl.scrollTop + logEl.clientHeight >= logEl.scrollHeight - 8;
    const names = this.names();
    const page = h("div", {
      class: "table-page",
      dataset: {
        phase: this.view ? this.view.phase : "waiting",
        you: this.seated() ? this.you : "none",
        toAct: this.view && this.view.to_act !== null ? this.view.to_act : "none",
        myTurn: this.myTurn() ? "1" : "0",
        deal: this.view ? this.view.deal : 0,
        status: this.table.status,
        paused: this.pause ? "1" : "0",
      },
    },
      this.header(names),
      this.table.status === "waiting" ? this.waitingRoom(names) : null,
      this.view && this.table.status !== "waiting" ? this.board(names) : null,
      this.dialogs(names),
      this.awayBar(),
    );
    replace(this.root, page);
    this.motion.play(this.root, this.fresh, this.seated() ? this.you : null, { holdTrick: Boolean(this.rest) });
    this.fresh = [];
    const newLog = this.root.querySelector(".log-list");
    if (newLog && atBottom) newLog.scrollTop = newLog.scrollHeight;
    focus.restore();
    if (this.focusDialog && this.gameOver && this.overOpen) {
      this.focusDialog = false;
      const target = this.root.querySelector('.dialog [data-action="rematch"]') || this.root.querySelector('.dialog [data-action="fill"]') || this.root.querySelector('.dialog [data-action="close"]');
      target?.focus({ preventScroll: true });
    }
    if (this.revealPause) this.revealSummary();
    this.momentsDrawn();
    this.maybeAuto();
  }

  /** The connection changed: the whole table, since while it is down the table takes no moves. */
  renderStatus() {
    this.render();
  }

  /** Is the table connected (its moves can reach the server)? */
  online() {
    return this.status === "open";
  }

  /** May the player act now: their turn, connected, nothing on its way? */
  canAct() {
    return this.myTurn() && this.online() && !this.pending;
  }

  header(names) {
    const v = this.view;
    let line = "";
    if (this.table.status === "waiting") {
      // nothing is said about the cards before the game starts (they are dealt, unseen)
      line = t("phase.waiting", { n: this.table.seats.filter((s) => s.kind === "open").length });
    } else if (v) {
      const phase = this.pause ? t("phase.pause", { deal: this.pause.deal - 1 }) : phaseText(v);
      line = `${t("phase.line", { deal: v.deal, dealer: names.who(v.dealer), you: names.you(v.dealer) })} · ${phase}`;
    }
    return h("header", { class: "table-head" },
      h("div", { class: "title-block" },
        h("h1", {}, this.table.name || t("table.title")),
        h("p", { class: "phase-line", dataset: { testid: "phase" } }, line)),
      h("span", { class: "conn", role: "status", dataset: { status: this.status } }, t(`conn.${this.status}`)),
      h("div", { class: "tools" },
        h("button", { type: "button", dataset: { action: "invite" }, onclick: () => this.open("invite") }, t("table.invite")),
        this.gameOver && !this.overOpen ? h("button", { type: "button", dataset: { action: "result" }, onclick: () => this.openResult() }, t("over.show")) : null,
        v ? h("button", { type: "button", dataset: { action: "scores" }, onclick: () => this.open("scores") }, t("table.scores")) : null,
        h("button", { type: "button", dataset: { action: "rules" }, onclick: () => this.open("rules") }, t("table.rules")),
        this.inPlay() ? h("button", {
          type: "button", dataset: { action: "last-trick" }, "aria-keyshortcuts": "L", onclick: () => this.open("last-trick"),
        }, t("table.last_trick")) : null,
        h("button", { type: "button", dataset: { action: "keys" }, onclick: () => this.open("keys") }, t("table.keys")),
        this.switches(),
        this.restSetting()));
  }

  /** Is the deal in its tricks (a finished trick may be looked at again)? */
  inPlay() {
    return Boolean(this.view && (this.view.phase === "play" || this.rest));
  }

  /** The last finished trick of this deal (the one resting, or the view's last), or null. */
  lastTrick() {
    if (this.rest) return this.rest;
    const tricks = (this.view && this.view.tricks) || [];
    if (!tricks.length || !this.inPlay()) return null;
    const last = tricks[tricks.length - 1];
    const win = last.cards.find((p) => p.seat === last.winner);
    return { trick: tricks.length, winner: last.winner, card: win ? win.card : null, cards: last.cards };
  }

  /** How long a finished trick stays in the middle: a setting of this browser's tables
   * (none at a table of bots only, which shows no rest). */
  restSetting() {
    if (!this.table || this.table.seats.every((s) => s.kind === "bot")) return null;
    const now = trickRest();
    return h("label", { class: "rest-setting" },
      h("span", {}, t("table.trick_rest")),
      h("select", {
        id: "trick-rest", dataset: { setting: "trick-rest" },
        onchange: (e) => { store.setOption("trickRest", Number(e.target.value)); this.render(); },
      }, [...TRICK_RESTS].sort((a, b) => a - b).map((ms) =>
        h("option", { value: ms, selected: ms === now }, ms ? t("table.trick_rest_s", { s: num(ms / 1000, ms % 1000 ? 1 : 0) }) : t("table.trick_rest_none")))));
  }

  /** The sound and motion switches (remembered in this browser). */
  switches() {
    const reduced = systemReducesMotion();
    const motionOn = motionWanted() && !reduced;
    return [
      h("button", {
        type: "button", class: "switch", dataset: { action: "sound" }, "aria-pressed": String(sound.on),
        title: sound.on ? t("table.sound_on") : t("table.sound_off"),
        onclick: () => { sound.on = !sound.on; this.render(); },
      }, h("span", { class: "switch-icon", "aria-hidden": "true", html: sound.on ? SPEAKER_ON : SPEAKER_OFF }), t("table.sound")),
      h("button", {
        type: "button", class: "switch", dataset: { action: "motion" }, "aria-pressed": String(motionOn), disabled: reduced,
        title: reduced ? t("table.motion_reduced") : motionOn ? t("table.motion_on") : t("table.motion_off"),
        onclick: () => { setMotionWanted(!motionWanted()); this.render(); },
      }, t("table.motion")),
    ];
  }

  /** "You are away": the Back button, fixed above every window (the game-over one too). */
  awayBar() {
    const mine = this.seated() && this.table.seats[this.you];
    if (!mine || !mine.away) return null;
    return h("div", { class: "away-bar", role: "group", "aria-label": t("table.back") },
      h("span", {}, t("table.back")),
      h("button", { type: "button", class: "primary", dataset: { action: "back" }, onclick: () => this.conn.request("back") }, t("btn.back")));
  }

  waitingRoom(names) {
    const open = this.table.seats.filter((s) => s.kind === "open");
    const canJoin = !this.seated() && !this.token && open.length > 0;
    // the host is told to send the invite link; the one who came by it, to take a seat
    const words = this.seated() ? t("table.waiting", { n: open.length })
      : canJoin ? t("table.invited", { n: open.length }) : t("table.waiting_watch", { n: open.length });
    return h("section", { class: "panel waiting" },
      open.length ? h("p", { class: "waiting-text" }, words) : null,
      h("ul", { class: "seat-list" }, this.table.seats.map((s) =>
        h("li", { dataset: { seat: s.seat } },
          h("strong", {}, names.plain(s.seat)), " ",
          s.kind === "open" ? h("span", { class: "badge open" }, t("table.open")) : s.kind === "bot" ? h("span", { class: "badge bot" }, t("table.bot")) : null,
          s.seat === this.you ? ` (${t("you")})` : null))),
      this.seated() ? this.inviteLinks() : null,
      this.seated() && open.length ? this.invitePeople() : null,
      canJoin ? this.joinForm(names) : null);
  }

  /** The people this profile may invite to the table (people.js); none for a guest. */
  invitePeople() {
    if (!store.profile()) return null;
    this.invitePanel ??= new InvitePanel(this.id);
    this.invitePanel.update(this.table.seats);
    return this.invitePanel.el;
  }

  joinForm(names) {
    const nameInput = h("input", {
      id: "join-name", type: "text", maxlength: 40, value: this.joinDraft ?? store.playerName(), autocomplete: "nickname",
      oninput: (e) => { this.joinDraft = e.target.value; },
    });
    const join = async (seat) => {
      const name = nameInput.value.trim();
      store.setPlayerName(name);
      try {
        const res = await api.join(this.id, seat, name);
        store.saveSeat(this.id, res.token, res.seat, this.table.name);
        this.token = res.token;
        this.table = res.table;
        this.conn.token = res.token;
        this.conn.lastSeq = null; // a fresh snapshot for the seat
        this.conn.hello();
        this.render();
      } catch (err) {
        showError(err.code || "network", err.message);
      }
    };
    const open = this.table.seats.filter((s) => s.kind === "open");
    return h("div", { class: "join-form" },
      h("h2", {}, t("table.join_title")),
      h("label", { for: "join-name" }, t("lobby.name")), nameInput,
      h("div", { class: "buttons" }, open.map((s) =>
        h("button", { type: "button", class: "primary", dataset: { action: "join", seat: s.seat }, onclick: () => join(s.seat) },
          t("table.join_seat", { name: names.plain(s.seat) })))));
  }

  inviteLinks() {
    const base = location.href.split("#")[0];
    const invite = `${base}#/table/${this.id}`;
    const watch = `${base}#/watch/${this.id}`;
    const row = (label, url, key) => h("div", { class: "link-row" },
      h("label", { for: `link-${key}` }, label),
      h("input", { id: `link-${key}`, type: "text", readonly: true, value: url, dataset: { link: key }, onfocus: (e) => e.target.select() }),
      h("button", { type: "button", dataset: { action: `copy-${key}` }, onclick: async () => {
        const ok = await copyText(url);
        showNotice(ok ? t("table.copied") : t("table.copy_failed"));
      } }, t("table.copy")));
    return h("div", { class: "invite-links" }, row(t("table.invite_link"), invite, "invite"), row(t("table.watch_link"), watch, "watch"));
  }

  board(names) {
    const v = this.view;
    v.rules = v.rules || this.table.rules;
    const handCategory = v.hand_category && (v.hand || []).length === 5 ? category(v.hand_category) : null;
    const ctx = { names, me: this.seated() ? this.you : null, seats: this.table.seats, events: v.events, presence: this.presence, clock: this.clock, handCategory, paused: Boolean(this.pause), rated: Boolean(this.table.rated) };
    const others = seatOrder(v.players, ctx.me);
    const mySeat = this.seated() ? this.table.seats[this.you] : null;
    return h("div", { class: "table-grid" },
      h("div", { class: "board" },
        h("div", { class: `opponents n${others.length}` }, others.map((s) => seatPanel(v, s, ctx))),
        h("div", { class: "center" }, this.momentsBanner(),
          this.rest ? finishedTrick(this.rest, names, { rest: true })
            : this.summaryShown() ? this.summaryBox(names) : centerPanel(v, ctx)),
        this.seated() ? h("div", { class: `me${mySeat && mySeat.away ? " away" : ""}` },
          this.guide.panel(),
          seatPanel(v, this.you, ctx),
          this.handArea(names),
          h("div", { class: "turn-area" }, this.prompt(names), this.actions(names)))
          : h("div", { class: "me watching" },
            !this.watchOnly && !this.table.seats.some((s) => s.kind === "open") ? h("p", {}, t("table.full")) : null,
            h("p", {}, t("table.watching")),
            v.to_act !== null && v.to_act !== undefined && !v.over ? h("p", { class: "muted", dataset: { testid: "watch-turn" } }, t("q.watch", { who: names.who(v.to_act) })) : null),
      ),
      this.sidePanel(names));
  }

  /** The banner of the latest key moments (docs: issue 16), or nothing. */
  momentsBanner() {
    if (!this.moments.length) return null;
    // not a live region (the page is drawn anew each time): showMoments() announces them
    // newest first in the page, shown oldest to newest by the stack's column-reverse (css)
    return h("div", { class: "moments", role: "group", "aria-label": t("mo.title") }, [...this.moments].reverse().map((m) =>
      h("div", { class: `moment moment-${m.kind}${m.drawn ? "" : " new"}`, dataset: { kind: m.kind, moment: m.id, deal: m.deal } },
        h("p", {}, h("strong", {}, m.text), m.detail ? h("span", { class: "detail" }, " " + m.detail) : null),
        h("button", {
          type: "button", class: "close", "aria-label": t("mo.close"), title: t("mo.close"),
          dataset: { action: `dismiss-${m.id}` }, onclick: () => this.dismissMoment(m.id),
        }, "×"))));
  }

  /**
   * Is the deal summary in the middle of the table? During the pause after a deal always;
   * after it (or at a table of bots, which does not pause) until it is closed or the next
   * deal's first scoring round needs the middle.
   */
  summaryShown() {
    if (!this.summary || this.gameOver) return false;
    if (this.pause) return true;
    const v = this.view;
    return !this.summaryClosed && v.deal === this.summary.deal + 1 && v.round === 1
      && ["exchange", "redeal", "one up"].includes(v.phase);
  }

  summaryBox(names) {
    let head;
    if (this.pause) {
      const waiting = this.pause.waiting;
      const mine = this.seated() && waiting.includes(this.you);
      head = h("div", { class: "sum-actions" },
        h("p", { class: "sum-wait", dataset: { testid: "pause" } },
          waiting.length && !mine ? t("pause.waiting", { names: names.list(waiting), n: waiting.length }) + " " : "",
          ringEl(this.pause, "pause")),
        this.seated() ? h("button", {
          type: "button", class: "primary", dataset: { action: "continue" }, disabled: !mine || !this.online(), onclick: () => this.continueDeal(),
        }, mine ? t("btn.continue") : t("pause.ready")) : null);
    } else {
      head = h("div", { class: "sum-actions" },
        h("button", { type: "button", dataset: { action: "continue" }, onclick: () => { this.summaryClosed = true; this.render(); } }, t("btn.close")));
    }
    return summaryPanel(this.summary, names, { head });
  }

  handArea() {
    const v = this.view;
    const hand = v.hand || [];
    const legal = this.legal();
    const playable = new Set(legal.filter((a) => a.startsWith("play ")).map((a) => a.slice(5)));
    const selecting = this.canAct() && v.phase === "exchange";
    const playing = this.canAct() && v.phase === "play";
    const cards = sortCards(hand).map((code, i) => {
      if (playing) {
        const ok = playable.has(code);
        return cardEl(code, { size: "lg", button: true, disabled: !ok, onClick: () => this.act(`play ${code}`), cls: ok ? "playable" : "" });
      }
      if (selecting) {
        return cardEl(code, { size: "lg", button: true, selected: this.selection.has(code), onClick: () => this.toggle(code) });
      }
      return cardEl(code, { size: "lg" });
    });
    return h("div", { class: "hand-area" },
      h("div", { class: "hand", role: "group", "aria-label": t("table.hand"), dataset: { hand: hand.length } }, cards));
  }

  maxDiscard() {
    const sizes = this.legal().filter((a) => a.startsWith("discard ")).map((a) => a.split(" ").length - 1);
    return sizes.length ? Math.max(...sizes) : 0;
  }

  toggle(code) {
    if (this.selection.has(code)) {
      this.selection.delete(code);
    } else {
      const max = this.maxDiscard();
      if (this.selection.size >= max) {
        showNotice(t("sel.too_many", { max }));
        return;
      }
      this.selection.add(code);
    }
    this.render();
  }

  discardAction() {
    const chosen = [...this.selection];
    return this.legal().find((a) => a.startsWith("discard ") && sameSet(a.split(" ").slice(1), chosen)) || null;
  }

  prompt(names) {
    const v = this.view;
    let text;
    if (v.over) text = t("phase.over");
    else if (this.pause) {
      text = this.continued() ? t("q.pause_ready", { deal: v.deal }) : t("q.pause", { deal: v.deal });
    } else if (this.myTurn()) {
      const legal = this.legal();
      switch (v.phase) {
        case "exchange":
          text = (v.hand || []).length === 6 ? t("q.exchange_six") : t("q.exchange", { r: v.round, max: this.maxDiscard() });
          break;
        case "announce":
          // a forced pass says why, and its one button is there while the page answers
          text = legal.some((a) => a.startsWith("announce ")) ? t("q.announce", { r: v.round })
            : v.hand_category === "HIGH_CARD" ? t("q.announce_nothing", { r: v.round }) : t("q.announce_lower", { r: v.round });
          break;
        case "chicago":
          text = t("q.chicago");
          break;
        case "one up":
          text = t("q.one_up", { card: v.one_up ? cardText(v.one_up.card) : "" });
          break;
        case "redeal":
          text = t("q.redeal");
          break;
        case "quads choice":
          text = t(legal.includes("reset") ? "q.quads_choice" : "q.quads_choice_one");
          break;
        case "quads":
          if (legal.includes("reset")) text = t("q.quads");
          else text = legal.some((a) => a.startsWith("reset ")) ? t("q.quads_one") : t("q.quads_pass");
          break;
        case "play":
          text = (v.trick || []).length ? t("q.play_follow", { r: v.trick_number }) : t("q.play_lead", { r: v.trick_number });
          break;
        default:
          text = legal.join(", ");
      }
    } else if (v.to_act !== null && v.to_act !== undefined) {
      text = t("q.wait", { whom: names.whom(v.to_act) });
    } else {
      text = phaseText(v);
    }
    if (!this.online() && !v.over) {
      // the server cannot be reached: no move can be made, and the line says so
      return h("div", { class: "prompt offline", dataset: { status: this.status } },
        h("p", { dataset: { testid: "prompt" } }, h("strong", {}, t(`conn.${this.status}`) + " "), t("q.offline")));
    }
    const turn = this.myTurn() && !this.pause;
    return h("div", { class: `prompt${turn ? " your-turn" : ""}` },
      h("p", { dataset: { testid: "prompt" } }, turn ? h("strong", {}, t("table.your_turn") + ": ") : null, turn ? text : cap(text)),
      turn && this.clock && this.clock.seat === this.you ? barEl(this.clock, "turn") : null);
  }

  /** The button of a reset: of every other score, or (V-QUADS-ONE, "reset 2") of one. */
  resetButton(btn, action) {
    if (action === "reset") return btn(t("btn.reset"), "reset", { primary: true });
    const seat = Number(action.slice(6));
    return btn(t("btn.reset_seat", { whom: this.names().whom(seat) }), action, { key: `reset-${seat}` });
  }

  actions() {
    const v = this.view;
    const legal = this.legal();
    const buttons = [];
    const btn = (label, action, opts = {}) => h("button", {
      type: "button",
      class: opts.primary ? "primary" : "",
      disabled: !this.canAct() || opts.disabled,
      dataset: { action: opts.key || action },
      onclick: () => this.act(action),
    }, label);
    if (this.pause) {
      if (this.seated() && !this.continued()) {
        buttons.push(h("button", { type: "button", class: "primary", dataset: { action: "continue-deal" }, disabled: !this.online(), onclick: () => this.continueDeal() }, t("btn.continue")));
      }
    } else if (this.myTurn()) {
      switch (v.phase) {
        case "exchange": {
          const chosen = this.discardAction();
          const n = this.selection.size;
          if (legal.some((a) => a.startsWith("discard "))) {
            buttons.push(h("button", {
              type: "button", class: "primary", disabled: !chosen || !this.canAct(), dataset: { action: "exchange" },
              onclick: () => chosen && this.act(chosen),
            }, n ? t("btn.exchange", { n }) : t("btn.exchange0")));
          }
          if (legal.includes("keep")) buttons.push(btn(t("btn.keep"), "keep", { key: "keep" }));
          if (legal.some((a) => a.startsWith("one up "))) {
            const one = n === 1 ? `one up ${[...this.selection][0]}` : null;
            buttons.push(btn(t("btn.one_up"), one || "", { key: "one-up", disabled: !one || !legal.includes(one) }));
          }
          if (n) {
            buttons.push(h("button", { type: "button", dataset: { action: "clear" }, onclick: () => { this.selection.clear(); this.render(); } }, t("btn.clear")));
          }
          break;
        }
        case "one up":
          buttons.push(btn(t("btn.accept", { card: v.one_up ? cardText(v.one_up.card) : "" }), "accept", { primary: true }));
          buttons.push(btn(t("btn.reject"), "reject"));
          break;
        case "redeal":
          if (legal.includes("redeal")) buttons.push(btn(t("btn.redeal"), "redeal", { primary: true }));
          buttons.push(btn(t("btn.keep_hand"), "keep", { key: "keep" }));
          break;
        case "chicago":
          buttons.push(btn(t("btn.chicago"), "chicago", { primary: true }));
          buttons.push(btn(t("btn.no_chicago"), "no chicago", { key: "no-chicago" }));
          break;
        case "quads choice":
          for (const a of legal.filter((x) => x.startsWith("reset"))) buttons.push(this.resetButton(btn, a));
          buttons.push(btn(t("btn.score"), "score"));
          break;
        default:
          for (const a of legal) {
            if (a.startsWith("announce ")) {
              const name = a.slice(9).toUpperCase().replace(/ /g, "_");
              buttons.push(btn(t("btn.announce", { cat: categoryA(name) }), a, { primary: true, key: "announce" }));
            } else if (a === "pass") buttons.push(btn(t("btn.pass"), "pass"));
            else if (a.startsWith("reset")) buttons.push(this.resetButton(btn, a));
            else if (!a.startsWith("play ")) buttons.push(btn(a, a));
          }
      }
    }
    const v5 = (v.hand || []).length === 5 && v.phase !== "play" && !v.over && !this.pause;
    const hintBtn = v5 ? h("button", { type: "button", class: "hint-button", dataset: { action: "hint" }, disabled: !this.online(), onclick: () => this.showHint() }, t("table.hint")) : null;
    let info = null;
    if (this.myTurn() && !this.pause && v.phase === "exchange") {
      const oneUp = legal.some((a) => a.startsWith("one up ")) && this.selection.size !== 1;
      info = h("p", { class: "selection-info muted" }, t("sel.count", { n: this.selection.size, max: this.maxDiscard() }),
        oneUp ? h("span", { class: "one-up-hint" }, " " + t("sel.one_up_hint")) : null);
    }
    if (this.gameOver && !this.overOpen) {
      buttons.push(h("button", { type: "button", class: "primary", dataset: { action: "show-result" }, onclick: () => this.openResult() }, t("over.show")));
    }
    return h("div", { class: "actions-area" }, h("div", { class: "actions" }, buttons, hintBtn), info);
  }

  sidePanel(names) {
    const items = this.log.map((entry) => {
      if (entry.chat) {
        return h("li", { class: "chat", dataset: { deal: entry.deal } }, h("strong", {}, this.chatName(entry.seat, entry.name) + ": "), entry.text);
      }
      if (entry.auto) return h("li", { class: "auto muted", dataset: { deal: entry.deal } }, t("auto.only", { action: actionLabel(entry.auto) }));
      if (entry.note) return h("li", { class: "auto muted", dataset: { deal: entry.deal } }, entry.note);
      const text = describe(entry.ev, names);
      if (!text) return null;
      return h("li", { class: `ev ev-${entry.ev.type}`, dataset: { deal: entry.deal } }, text);
    });
    const input = h("input", {
      id: "chat-input", type: "text", maxlength: 300, placeholder: t("table.chat_ph"), "aria-label": t("table.chat_ph"),
      value: this.chatDraft, autocomplete: "off", oninput: (e) => { this.chatDraft = e.target.value; },
    });
    const form = this.seated() ? h("form", { class: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (text && this.conn.request("chat", { text })) {
        input.value = "";
        this.chatDraft = "";
      } else if (text) {
        showError("network");
      }
    } }, input, h("button", { type: "submit", dataset: { action: "send" } }, t("btn.send"))) : null;
    return h("aside", { class: "side", "aria-label": t("table.log") },
      h("h2", {}, t("table.log")),
      h("ul", { class: "log-list", tabindex: "0", "aria-label": t("table.log") }, items), // it scrolls: keyboard too
      form);
  }

  // ------------------------------------------------------------------ dialogs
  open(which) {
    this.dialog = which;
    this.render();
    const first = this.root.querySelector(".dialog button, .dialog input");
    first?.focus();
  }

  close() {
    this.dialog = null;
    this.render();
  }

  closeResult() {
    this.overOpen = false;
    this.render();
    this.root.querySelector('[data-action="show-result"], [data-action="result"]')?.focus({ preventScroll: true });
  }

  openResult() {
    this.dialog = null;
    this.overOpen = true;
    this.focusDialog = true;
    this.render();
  }

  /** After a game, the question of who plays again (docs/PROTOCOL.md: rematch), or null. */
  setAnswers(info, at = performance.now()) {
    if (!info) {
      this.answers = null;
      return;
    }
    const total = (this.table && this.table.rematch_wait) || (info.ms ? info.ms / 1000 : 0);
    this.answers = { agreed: info.agreed || [], waiting: info.waiting || [], until: info.ms === null ? null : at + info.ms, total };
  }

  /** Has this person said Play again? */
  agreed() {
    return Boolean(this.answers && this.seated() && this.answers.agreed.includes(this.you));
  }

  /** Say Play again, leave the table, or give the open seats to bots (after a game). */
  answer(kind) {
    if (!this.conn.request(kind)) {
      showError("network");
      return;
    }
    if (kind === "leave") this.leaving = true;
    if (kind === "rematch" && this.answers && !this.answers.agreed.includes(this.you)) {
      this.answers.agreed = [...this.answers.agreed, this.you]; // shown at once; the server confirms
      this.answers.waiting = this.answers.waiting.filter((s) => s !== this.you);
    }
    this.render();
  }

  rematch() {
    this.answer("rematch");
  }

  /** Our seat was released after a game (we left, or did not answer in time): we watch on. */
  released() {
    const text = this.leaving ? t("again.you_left") : t("again.you_timed_out");
    this.leaving = false;
    store.forgetSeat(this.id);
    this.token = null;
    this.conn.token = null;
    this.you = null;
    showNotice(text);
    announce(text);
  }

  /** The game-over window's foot: who plays again, and this person's choices. */
  againPanel(names) {
    const seated = this.seated();
    const a = this.answers;
    if (this.table.closed) return h("p", { class: "again-status", dataset: { testid: "again" } }, t("again.closed"));
    if (!a) return null;
    const open = this.table.seats.filter((s) => s.kind === "open");
    const rows = this.table.seats.map((s) => {
      let state;
      if (s.kind === "bot") state = t("again.bot");
      else if (s.kind === "open") state = t("again.open");
      else if (a.agreed.includes(s.seat)) state = t("again.yes");
      else state = t("again.deciding");
      return h("li", { dataset: { seat: s.seat, again: s.kind === "human" ? (a.agreed.includes(s.seat) ? "yes" : "deciding") : s.kind } },
        h("strong", {}, names.plain(s.seat)), s.seat === this.you ? ` (${t("you")})` : null, ": ", state);
    });
    let line = null;
    if (seated && this.agreed()) {
      const others = a.waiting.filter((s) => s !== this.you);
      if (others.length) line = t("again.waiting_for", { names: names.list(others), n: others.length });
      else if (open.length) line = t("again.waiting_open", { n: open.length });
    } else if (seated) {
      line = t("again.question");
    }
    const countdown = a.until !== null && a.waiting.length ? ringEl({ until: a.until, total: a.total }, "answers") : null;
    return h("div", { class: "again" },
      line ? h("p", { class: "again-status", dataset: { testid: "again" } }, line, " ", countdown) : null,
      h("ul", { class: "again-seats", "aria-label": t("again.title") }, rows),
      seated && this.agreed() && open.length ? this.inviteLinks() : null);
  }

  dialogs(names) {
    const v = this.view;
    if (this.gameOver && this.overOpen) {
      const seated = this.seated();
      return overlay(t("over.title"), [
        settlementPanel(this.gameOver, names, (this.table.rules || {}).stake ?? 1),
        this.summary ? summaryPanel(this.summary, names) : null,
      ], () => this.closeResult(), "game-over",
      h("div", { class: "dialog-foot" }, this.againPanel(names), h("div", { class: "buttons" },
        seated && this.answers && !this.agreed() ? h("button", {
          type: "button", class: "primary", dataset: { action: "rematch" }, disabled: !this.online(), onclick: () => this.rematch(),
        }, t("btn.rematch")) : null,
        seated && this.agreed() && this.table.seats.some((s) => s.kind === "open") ? h("button", {
          type: "button", class: "primary", dataset: { action: "fill" }, disabled: !this.online(), onclick: () => this.answer("fill"),
        }, t("again.fill")) : null,
        seated && this.answers ? h("button", {
          type: "button", dataset: { action: "leave" }, disabled: !this.online(), onclick: () => this.answer("leave"),
        }, t("again.leave")) : null,
        h("a", { class: "button", href: `#/replay/${this.id}/${this.gameOver.game || this.table.game}`, dataset: { action: "replay" } }, t("btn.replay")),
        seated ? h("a", { class: "button", href: `#/replay/${this.id}/${this.gameOver.game || this.table.game}?review=${this.you}`, dataset: { action: "review" } }, t("review.my_game")) : null,
        h("a", { class: "button", href: "#/" }, t("btn.lobby")))));
    }
    if (!this.dialog) return null;
    const close = () => this.close();
    switch (this.dialog) {
      case "invite":
        return overlay(t("table.invite_title"), [this.inviteLinks()], close, "invite");
      case "scores":
        return overlay(t("score.title"), [scoreTable(v ? v.history : [], v ? v.scores : this.table.scores, names)], close, "scores");
      case "keys":
        return overlay(t("keys.title"), [h("dl", { class: "keys" }, items("keys.list", ".key").map((k, i) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, t(`keys.list.${i + 1}.text`))]))], close, "keys");
      case "rules":
        return overlay(t("table.rules"), [rulesSummary(this.table)], close, "rules");
      case "hint":
        return overlay(t("hint.title"), [this.hintView()], close, "hint");
      case "last-trick": {
        const last = this.lastTrick();
        return overlay(t("table.last_trick"), [last ? finishedTrick(last, names) : h("p", {}, t("table.no_trick"))], close, "last-trick");
      }
      default:
        return null;
    }
  }

  async showHint() {
    const v = this.view;
    const hand = v.hand || [];
    this.dialog = "hint";
    this.hint = { loading: true };
    this.render();
    if (hand.length !== 5) {
      this.hint = { error: t("hint.need_five") };
      this.render();
      return;
    }
    const dead = v.known_out || []; // the engine's seat knowledge: cards known out of the stock
    try {
      // ranked by the server on the seat's own view (only a seat has a hand to hint)
      const answer = await api.hint(this.id, this.token, dead);
      this.hint = { answer };
    } catch (err) {
      this.hint = { error: errorText(err) };
    }
    this.render();
    this.root.querySelector(".dialog button")?.focus();
  }

  hintView() {
    const hint = this.hint || {};
    if (hint.loading) return h("p", {}, t("loading"));
    if (hint.error) return h("p", { role: "alert" }, hint.error);
    const canSelect = this.myTurn() && this.view.phase === "exchange";
    return hintBody(hint.answer, canSelect ? (discard) => {
      this.selection = new Set(discard);
      this.dialog = null;
      this.render();
    } : null);
  }

  // ------------------------------------------------------------------ automation and keys
  maybeAuto() {
    clearTimeout(this.autoTimer);
    if (!this.myTurn() || this.pending || this.gameOver || this.pause) return;
    if (this.table.seats[this.you] && this.table.seats[this.you].away) return; // the stand-in answers
    const legal = this.legal();
    if (legal.length !== 1 || this.view.phase === "play" || this.view.phase === "exchange") return;
    const only = legal[0];
    const seq = this.conn.lastSeq;
    this.autoTimer = setTimeout(() => {
      if (this.conn.lastSeq !== seq || !this.myTurn() || this.pending) return;
      // Say so: the log keeps a line, and a short message tells the player at once.
      this.pushLog({ auto: only });
      const text = t("auto.only", { action: actionLabel(only) });
      announce(text);
      showNotice(text);
      this.act(only);
    }, 450);
  }

  /** Keep Tab and Shift+Tab inside an open window (the page behind it is aria-modal). */
  trapTab(e) {
    const dialog = this.root.querySelector(".overlay .dialog");
    if (!dialog) return;
    // the Back button of an away seat stays reachable above the window
    const away = [...this.root.querySelectorAll(".away-bar button")];
    const focusable = [...dialog.querySelectorAll('button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'), ...away]
      .filter((el) => el.getClientRects().length > 0);
    if (!focusable.length) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const inside = focusable.includes(document.activeElement);
    if (!inside) {
      e.preventDefault();
      (e.shiftKey ? last : first).focus();
    } else if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  }

  key(e) {
    if (e.key === "Tab" && !e.ctrlKey && !e.metaKey && !e.altKey) {
      this.trapTab(e);
      return;
    }
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target && e.target.tagName) || "";
    const k = e.key;
    if (k === "Escape" && this.root.querySelector(".overlay")) {
      // Esc closes a window wherever the focus is in it (also in a text field)
      if (this.gameOver && this.overOpen) this.closeResult();
      else if (this.dialog) this.close();
      return;
    }
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (k === "Escape") {
      if (this.dialog) this.close();
      else if (this.selection.size) {
        this.selection.clear();
        this.render();
      } else if (this.summaryShown() && !this.pause) {
        this.summaryClosed = true;
        this.render();
      }
      return;
    }
    if ((k === "l" || k === "L") && this.dialog === "last-trick") return this.close();
    if (this.dialog || (this.gameOver && this.overOpen)) return; // keys act on the table only when no window is open
    if (k === "?") return this.open("keys");
    if (k === "s") return this.open("scores");
    if ((k === "l" || k === "L") && this.inPlay()) return this.open("last-trick");
    if (!this.view) return;
    const v = this.view;
    const hand = sortCards(v.hand || []);
    const legal = this.legal();
    if (/^[1-6]$/.test(k)) {
      const code = hand[Number(k) - 1];
      if (!code) return;
      e.preventDefault();
      if (!this.canAct()) return; // not the player's turn, or the table cannot be reached
      if (v.phase === "play" && legal.includes(`play ${code}`)) this.act(`play ${code}`);
      else if (v.phase === "exchange") this.toggle(code);
      this.root.querySelector(`.hand [data-card="${code}"]`)?.focus();
      return;
    }
    if (k === "ArrowLeft" || k === "ArrowRight") {
      const buttons = [...this.root.querySelectorAll(".hand button:not([disabled])")];
      if (!buttons.length) return;
      const i = buttons.indexOf(document.activeElement);
      const next = i < 0 ? 0 : (i + (k === "ArrowRight" ? 1 : -1) + buttons.length) % buttons.length;
      buttons[next].focus();
      e.preventDefault();
      return;
    }
    if (k === "h" && (v.hand || []).length === 5 && v.phase !== "play") return this.showHint();
    if (this.pause && k === "Enter" && tag !== "BUTTON" && tag !== "A") {
      this.continueDeal();
      e.preventDefault();
      return;
    }
    if (!this.canAct()) return;
    const onHandCard = tag === "BUTTON" && e.target.closest(".hand");
    if (k === "Enter" && ((tag !== "BUTTON" && tag !== "A") || onHandCard) && v.phase === "exchange") {
      const chosen = this.discardAction();
      if (chosen) this.act(chosen);
      else if (!this.selection.size && legal.includes("keep")) this.act("keep");
      e.preventDefault();
      return;
    }
    const map = { p: "pass", c: "chicago", n: "no chicago", y: "accept", r: "reject" };
    if (map[k] && legal.includes(map[k])) return this.act(map[k]);
    if (k === "a") {
      const ann = legal.find((x) => x.startsWith("announce "));
      if (ann) this.act(ann);
    }
  }
}

/** A modal window: title and close button, the body (scrolls), an optional footer that stays in view. */
function overlay(title, body, onClose, key, footer = null) {
  return h("div", { class: "overlay", dataset: { dialog: key }, onclick: (e) => { if (e.target === e.currentTarget && onClose) onClose(); } },
    h("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-label": title },
      h("div", { class: "dialog-head" }, h("h2", {}, title),
        onClose ? h("button", { type: "button", class: "close", "aria-label": t("btn.close"), dataset: { action: "close" }, onclick: onClose }, "×") : null),
      h("div", { class: "dialog-body", tabindex: "0" }, body), // it scrolls: keyboard too
      footer));
}

/** The table's rules in a few lines: preset, variations with explanations, main numbers. */
export function rulesSummary(table) {
  const r = table.rules || {};
  const items = [
    h("p", {}, h("strong", {}, presetName(table.preset)), ". ", t(`preset.${table.preset}`)),
    (table.variations || []).length
      ? h("ul", {}, table.variations.map((id) => h("li", {}, h("strong", {}, id), ": ", t(`var.${id}`))))
      : null,
    h("ul", { class: "muted" },
      h("li", {}, `${t("form.length")}: ${r.max_deals ? t("form.length_deals", { n: r.max_deals }) : t("form.length_full", { target: r.target })}`),
      h("li", {}, `${t("table.exchanges")}: ${r.exchanges}`),
      table.deal_pause ? h("li", {}, t("form.pause_s", { n: table.deal_pause })) : null),
    h("h3", {}, t("help.chicago_title")),
    h("ul", { class: "chicago-rule" }, chicagoRule(r).map((line) => h("li", {}, line))),
  ];
  return h("div", { class: "rules-summary" }, items);
}
