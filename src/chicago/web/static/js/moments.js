// The key moments of a deal, for the banner at the table: who won a scoring round, with
// what, which tie-break step decided it and for how many points; a Chicago called, made or
// broken; players locked at the deal's start; the last trick. Built only from the events a
// seat was sent (so a banner can never name a hidden card).

import { t } from "./i18n.js";
import { cardText } from "./cards.js";
import { categoryA, rankWord } from "./words.js";

/** How long a banner stays when the player does not act or close it first (ms). */
export const MOMENT_MS = 9000;

/** The least time a banner stays, however fast the play goes on (ms), unless it is closed. */
export const MOMENT_MIN_MS = 4500;

/**
 * The moments of a batch of new events. `earlier` are the deal's events before the batch
 * (for the tie-break reveals of a round); `view` the seat's view (the rule values a moment
 * names: `chicago_points`, `lock_at`); `names` a Names.
 * Returns [{kind, text, detail}] in the order they happened.
 */
export function momentsOf(batch, earlier, names, view) {
  const out = [];
  const seen = [...(earlier || [])];
  batch.forEach((ev, i) => {
    const after = batch.slice(i + 1);
    const moment = momentOf(ev, seen, after, names, view);
    if (moment) out.push(moment);
    seen.push(ev);
  });
  return out;
}

function momentOf(ev, before, after, names, view) {
  const who = (seat) => ({ who: names.who(seat), Who: names.Who(seat), you: names.you(seat) });
  switch (ev.type) {
    case "round_result": {
      const r = ev.round;
      if (ev.winner === null || ev.winner === undefined) {
        const text = ev.category ? t("mo.round_tie", { r, cat: categoryA(ev.category) }) : t("mo.round_nobody", { r });
        return { kind: "round", text, detail: tiebreak(before, r, names) };
      }
      if ((ev.reason || "").startsWith("four of a kind")) {
        return { kind: "round", text: t("mo.round_quads", { r, ...who(ev.winner) }), detail: tiebreak(before, r, names) };
      }
      return {
        kind: "round",
        text: t("mo.round_win", { r, ...who(ev.winner), cat: categoryA(ev.category), points: ev.points }),
        detail: tiebreak(before, r, names),
      };
    }
    case "chicago":
      if (!ev.declared) return null;
      return { kind: "chicago", text: t("mo.chicago_call", { ...who(ev.seat), points: view.chicago_points }), detail: null };
    case "chicago_result": {
      const scored = after.find((e) => e.type === "score" && e.seat === ev.seat);
      const points = Math.abs(scored ? scored.points : view.chicago_points);
      if (ev.made) return { kind: "chicago-made", text: t("mo.chicago_made", { ...who(ev.seat), points }), detail: null };
      const trick = [...before].reverse().find((e) => e.type === "trick");
      return {
        kind: "chicago-broken",
        text: t("mo.chicago_broken", {
          ...who(ev.seat), breaker: names.Who(ev.broken_by), youBreaker: names.you(ev.broken_by),
          trick: trick ? trick.trick : "", points,
        }),
        detail: null,
      };
    }
    case "deal": {
      const locked = (ev.locked || []).map((flag, seat) => (flag ? seat : null)).filter((s) => s !== null);
      if (!locked.length) return null;
      return {
        kind: "lock",
        text: t("mo.locked", { names: locked.map((s) => names.Who(s)).join(", "), n: locked.length, at: view.lock_at ?? "" }),
        detail: null,
      };
    }
    case "trick": {
      if (ev.trick !== 5) return null;
      const scored = after.find((e) => e.type === "score" && e.seat === ev.winner && e.reason === "last trick");
      return { kind: "last-trick", text: t("mo.last_trick", { ...who(ev.winner), card: cardText(ev.card), points: scored ? scored.points : 0 }), detail: null };
    }
    default:
      return null;
  }
}

/** "Tie-break step 2 decided it: Bo king, you queen." from a round's reveal events. */
function tiebreak(events, round, names) {
  // the reveals of this round follow its announcements, after the round's last exchange
  let start = 0;
  events.forEach((ev, i) => {
    if ((ev.type === "announce" || ev.type === "pass") && ev.round === round && start === 0) start = i;
  });
  const reveals = events.slice(start).filter((ev) => ev.type === "reveal");
  if (!reveals.length) return null;
  const stage = Math.max(...reveals.map((ev) => ev.stage));
  const shown = reveals.filter((ev) => ev.stage === stage).map((ev) =>
    `${names.who(ev.seat)} ${"suit" in ev ? t(`suit.${ev.suit}`) : rankWord(ev.rank)}`);
  return t("mo.tiebreak", { n: stage, shown: shown.join(", ") });
}
