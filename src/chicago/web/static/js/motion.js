// Cards that move. The table page is drawn anew for every change; just before that,
// Motion.capture() notes where the seats, the hand, the trick and the piles were, and just
// after it Motion.play() animates the new page from those places with the Web Animations
// API: the deal from the stock to every seat, discards face down to the discard pile and
// draws from the stock, a card from its seat to the trick, the trick gathered to its
// winner, the hands turned face up at the showdown.
//
// Rules of the motion:
// - Each animation lasts 150-400 ms (DURATION). Input never waits: the page is already
//   the new state, animations only move it into place, and cards in flight are copies
//   that take no clicks (pointer-events: none).
// - A new state finishes every running animation at once (finish() before each drawing).
// - It is off with the system's "reduce motion" setting or the table's Motion switch
//   (remembered in localStorage, "chicago.option.motion").
// - It never shows a card the page does not already show: an opponent's cards fly as
//   backs; a face flies only for a card just played (public) or one of the player's own.

import { h } from "./dom.js";
import { option, setOption } from "./store.js";
import { backSvg } from "./cards.js";
import { cardEl } from "./board.js";

/** Milliseconds of each kind of animation (each within 150-400 ms). */
export const DURATION = { deal: 240, fly: 300, gather: 320, flip: 260, banner: 220 };
const STAGGER = 28; // between the cards of one deal
const EASE = "cubic-bezier(.2,.75,.3,1)";
const LOG_LIMIT = 200;

const reduceQuery = typeof matchMedia === "function"
  ? matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

/** Does the player want motion (the remembered switch; on by default)? */
export function motionWanted() {
  return option("motion", true) !== false;
}

export function setMotionWanted(on) {
  setOption("motion", Boolean(on));
}

/** Does the system ask for reduced motion? */
export function systemReducesMotion() {
  return Boolean(reduceQuery.matches);
}

/** Is motion on: wanted, and not reduced by the system? */
export function motionOn() {
  return motionWanted() && !systemReducesMotion();
}

const rectOf = (el) => (el ? el.getBoundingClientRect() : null);

/** Where things are on the page: seats, backs rows, hand cards, trick cards, piles. */
function places(root) {
  const found = { seats: new Map(), backs: new Map(), hand: new Map(), trick: [], stock: null, pile: null, center: null };
  for (const el of root.querySelectorAll(".seat[data-seat]")) {
    const seat = Number(el.dataset.seat);
    found.seats.set(seat, rectOf(el));
    const backs = el.querySelector(".backs");
    if (backs && backs.childElementCount) found.backs.set(seat, rectOf(backs));
  }
  for (const el of root.querySelectorAll(".hand [data-card]")) found.hand.set(el.dataset.card, rectOf(el));
  for (const fig of root.querySelectorAll(".center .trick .played-card")) {
    const card = fig.querySelector("[data-card]");
    if (card) found.trick.push({ card: card.dataset.card, seat: Number(fig.dataset.seat), rect: rectOf(card) });
  }
  found.stock = rectOf(root.querySelector("[data-pile=stock]"));
  found.pile = rectOf(root.querySelector("[data-pile=discards]"));
  found.center = rectOf(root.querySelector(".center"));
  return found;
}

/** A transform that puts an element with rect `to` over rect `from`. */
function offset(from, to) {
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = to.width ? Math.max(0.2, Math.min(3, from.width / to.width)) : 1;
  return `translate(${dx.toFixed(1)}px, ${dy.toFixed(1)}px) scale(${scale.toFixed(3)})`;
}

/** A small rect in the middle of `rect` (where a card leaves a pile or a seat). */
function middle(rect, width) {
  if (!rect) return null;
  const w = width || Math.min(rect.width, 40);
  const hgt = w * 1.4;
  return new DOMRect(rect.left + rect.width / 2 - w / 2, rect.top + rect.height / 2 - hgt / 2, w, hgt);
}

export class Motion {
  constructor() {
    this.running = new Set();
    this.layer = null;
    this.before = null;
    /** What ran, for tests and debugging: [{kind, card?, seat?, ms}] (the last 200). */
    this.log = [];
  }

  /** Finish every running animation at once and drop the cards in flight. */
  finish() {
    for (const anim of [...this.running]) {
      try {
        anim.finish();
      } catch {
        anim.cancel();
      }
    }
    this.running.clear();
    this.layer?.replaceChildren();
  }

  /** Note where things are before the page is drawn anew. */
  capture(root) {
    this.before = motionOn() ? places(root) : null;
  }

  /**
   * Animate the page just drawn from the places captured before it, for `events` (the new
   * events this drawing shows, in order). `me` is the player's seat (null: watching).
   */
  play(root, events, me, { holdTrick = false } = {}) {
    const before = this.before;
    this.before = null;
    if (!before || !events || !events.length || !motionOn()) return;
    const now = places(root);
    const source = (seat) => before.backs.get(seat) || before.seats.get(seat) || before.center;
    const stock = now.stock || before.stock || middle(now.center);
    let trickCards = before.trick.map((p) => ({ ...p }));
    let wait = 0;
    for (const ev of events) {
      switch (ev.type) {
        case "deal":
          wait = this.deal(root, ev, now, stock, me);
          break;
        case "exchange":
          if (ev.seat !== me && ev.discarded) this.exchange(root, ev, before, now, stock);
          break;
        case "exchanged":
          if (ev.seat === me || ev.to === me) this.ownExchange(root, ev, before, now, stock);
          break;
        case "one_up": {
          const el = root.querySelector(`.one-up [data-card="${ev.card}"]`);
          if (el && stock) this.from(el, stock, { kind: "one_up", card: ev.card });
          break;
        }
        case "play": {
          const from = (ev.seat === me && before.hand.get(ev.card)) || middle(source(ev.seat), 36);
          const el = root.querySelector(`.center .trick [data-card="${ev.card}"]`);
          if (el && from) {
            this.from(el, from, { kind: "play", card: ev.card, seat: ev.seat, delay: wait });
          } else if (from) {
            // the card completed the trick: the page shows the next (empty) one, so the card
            // flies as a copy to its place beside the others, and the trick is gathered
            const last = trickCards[trickCards.length - 1];
            const slot = last
              ? new DOMRect(last.rect.left + last.rect.width + 8, last.rect.top, last.rect.width, last.rect.height)
              : middle(before.center || now.center, 56);
            this.fly(cardEl(ev.card, { size: "md" }), from, slot, { kind: "play", card: ev.card, seat: ev.seat });
            trickCards.push({ card: ev.card, seat: ev.seat, rect: slot, arriving: true });
          }
          break;
        }
        case "trick":
        case "gather": {
          // "trick": a trick just finished, gathered once its last card has landed (unless
          // it rests in the middle first: `holdTrick`); "gather": the rest is over
          if (ev.type === "trick" && holdTrick) break;
          const to = now.seats.get(ev.winner);
          if (to) {
            for (const p of trickCards) {
              // a card still flying in shows up for the gathering only when it has landed
              this.fly(cardEl(p.card, { size: "md" }), p.rect, middle(to, p.rect.width * 0.5),
                { kind: "gather", card: p.card, seat: ev.winner, delay: ev.type === "trick" ? DURATION.fly : 0, fade: 0.15, hiddenBefore: p.arriving });
            }
          }
          trickCards = [];
          break;
        }
        case "showdown": {
          const cards = [...root.querySelectorAll(".showdown [data-card]")];
          cards.forEach((el, i) => this.flip(el, { kind: "showdown", card: el.dataset.card, delay: Math.floor(i / 5) * 60 }));
          break;
        }
        default:
          break;
      }
    }
    const banner = root.querySelector(".moments .moment.new");
    if (banner) {
      this.animate(banner, [{ opacity: 0, transform: "translateY(-10px)" }, { opacity: 1, transform: "none" }],
        { duration: DURATION.banner, kind: "banner" });
    }
  }

  /** The deal: every seat's cards fly from the stock, one at a time round the table. */
  deal(root, ev, now, stock, me) {
    if (!stock) return 0;
    const n = now.seats.size || 1;
    const order = [...now.seats.keys()].sort((a, b) => ((a - ev.dealer - 1 + 2 * n) % n) - ((b - ev.dealer - 1 + 2 * n) % n));
    let last = 0;
    order.forEach((seat, pos) => {
      const cards = seat === me
        ? [...root.querySelectorAll(".hand .card")]
        : [...root.querySelectorAll(`.seat[data-seat="${seat}"] .backs .card`)];
      cards.forEach((el, round) => {
        const delay = (round * order.length + pos) * STAGGER;
        last = Math.max(last, delay);
        this.from(el, stock, { kind: "deal", seat, duration: DURATION.deal, delay });
      });
    });
    return last;
  }

  /** An opponent exchanges: backs to the discard pile, then as many from the stock. */
  exchange(root, ev, before, now, stock) {
    const from = before.backs.get(ev.seat) || before.seats.get(ev.seat);
    const pile = now.pile || stock;
    if (!from || !pile) return;
    for (let i = 0; i < ev.discarded; i++) {
      this.fly(backEl(), middle(from, 24), middle(pile, 30), { kind: "discard", seat: ev.seat, delay: i * 30 });
    }
    const backs = [...root.querySelectorAll(`.seat[data-seat="${ev.seat}"] .backs .card`)];
    backs.slice(-(ev.drawn ?? ev.discarded)).forEach((el, i) => {
      if (stock) this.from(el, stock, { kind: "draw", seat: ev.seat, delay: 120 + i * 30 });
    });
  }

  /** The player's own exchange: the thrown cards go face down to the pile, the new ones fly in. */
  ownExchange(root, ev, before, now, stock) {
    const pile = now.pile || stock;
    (ev.discarded || []).forEach((card, i) => {
      const from = before.hand.get(card);
      if (from && pile) this.fly(backEl(), from, middle(pile, 30), { kind: "discard", delay: i * 30 });
    });
    (ev.drawn || []).forEach((card, i) => {
      const el = root.querySelector(`.hand [data-card="${card}"]`);
      if (el && stock) this.from(el, stock, { kind: "draw", card, delay: 120 + i * 30 });
    });
  }

  /** Move an element of the new page from `rect` into its place. */
  from(el, rect, { kind, card = null, seat = null, duration = DURATION.fly, delay = 0 }) {
    const to = el.getBoundingClientRect();
    if (!to.width) return null;
    return this.animate(el, [{ transform: offset(rect, to) }, { transform: "none" }], { duration, delay, kind, card, seat });
  }

  /** A copy of a card (a face the page may show, or a back) flying from one rect to another. */
  fly(node, from, to, { kind, card = null, seat = null, delay = 0, fade = 1, hiddenBefore = false }) {
    if (!from || !to) return null;
    const layer = this.ensureLayer();
    const item = h("div", { class: "flying", "aria-hidden": "true" }, node);
    item.style.left = `${from.left}px`;
    item.style.top = `${from.top}px`;
    item.style.width = `${from.width}px`;
    if (hiddenBefore) item.style.opacity = "0"; // seen only while its animation runs
    layer.appendChild(item);
    const start = new DOMRect(from.left, from.top, from.width, from.width * 1.4);
    const end = new DOMRect(to.left, to.top, to.width, to.width * 1.4);
    const anim = this.animate(item, [{ transform: "none", opacity: 1 }, { transform: offset(end, start), opacity: fade }],
      { duration: DURATION.fly, delay, kind, card, seat, fill: hiddenBefore ? "none" : "backwards" });
    if (anim) anim.addEventListener("finish", () => item.remove());
    return anim;
  }

  /** A card turned face up: it spins in from edge-on. */
  flip(el, { kind, card, delay = 0 }) {
    return this.animate(el, [{ transform: "perspective(400px) rotateY(90deg)" }, { transform: "none" }],
      { duration: DURATION.flip, delay, kind, card });
  }

  animate(el, keyframes, { duration, delay = 0, kind, card = null, seat = null, fill = "backwards" }) {
    if (typeof el.animate !== "function") return null;
    const anim = el.animate(keyframes, { duration, delay, easing: EASE, fill });
    this.running.add(anim);
    const done = () => this.running.delete(anim);
    anim.addEventListener("finish", done);
    anim.addEventListener("cancel", done);
    this.log.push({ kind, card, seat, ms: duration });
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
    return anim;
  }

  ensureLayer() {
    if (!this.layer || !this.layer.isConnected) {
      this.layer = h("div", { class: "motion-layer", "aria-hidden": "true" });
      document.body.appendChild(this.layer);
    }
    return this.layer;
  }

  /** Remove the layer of cards in flight (the page is left). */
  destroy() {
    this.finish();
    this.layer?.remove();
    this.layer = null;
  }
}

function backEl() {
  return h("span", { class: "card back", html: backSvg() });
}
