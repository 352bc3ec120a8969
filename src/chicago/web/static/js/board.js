// The table drawn from a seat view: seat panels, the centre (trick, face-up card, scoring
// round), deal summaries and the scoreboard. Shared by the live table and the replay page.
// Everything is built from the view and the events the seat was sent.

import { h } from "./dom.js";
import { t, num, signed } from "./i18n.js";
import { cardSvg, backSvg, cardText, sortCards } from "./cards.js";
import { option } from "./store.js";
import { cardName, category, categoryA, levelName, levelAbout } from "./words.js";
import { ringEl } from "./clock.js";

/** A card face: a button when it can be clicked, else an image with a spoken name. */
export function cardEl(code, { size = "md", button = false, selected = null, disabled = false, onClick = null, cls = "" } = {}) {
  const fourColor = option("fourColor", false);
  const compact = size === "xs" || size === "sm";
  const classes = `card card-${size}${selected ? " selected" : ""}${disabled ? " not-playable" : ""}${cls ? " " + cls : ""}`;
  if (button) {
    // named by its content (a spoken name beside the drawn face), not by aria-label: a
    // label would hide the rank and suit drawn on the face from speech input (WCAG 2.5.3)
    return h("button", {
      type: "button",
      class: classes,
      "aria-pressed": selected === null ? null : String(Boolean(selected)),
      disabled,
      dataset: { card: code },
      onclick: onClick,
      html: cardSvg(code, { fourColor, compact }),
    }, h("span", { class: "visually-hidden" }, cardName(code)));
  }
  return h("span", { class: classes, role: "img", "aria-label": cardName(code), dataset: { card: code }, html: cardSvg(code, { fourColor, compact }) });
}

export function backEl(size = "sm") {
  return h("span", { class: `card card-${size} back`, "aria-hidden": "true", html: backSvg() });
}

export function cardRow(codes, size = "sm", cls = "") {
  return h("span", { class: `card-row ${cls}` }, codes.map((c) => cardEl(c, { size })));
}

/** Seats in order around the table, starting at the player's left (or seat 0 for onlookers). */
export function seatOrder(players, me) {
  const start = me === null || me === undefined ? 0 : (me + 1) % players;
  const order = [];
  for (let i = 0; i < players; i++) order.push((start + i) % players);
  return me === null || me === undefined ? order : order.filter((s) => s !== me);
}

/** Has `seat` already acted in the current exchange round? */
function actedThisRound(state, seat) {
  if (state.phase !== "exchange" && state.phase !== "one up" && state.phase !== "redeal") return true;
  if (state.to_act === null || state.to_act === undefined) return true;
  const n = state.players;
  const pos = (s) => (s - state.dealer - 1 + 2 * n) % n;
  return pos(seat) < pos(state.to_act);
}

/** How many cards `seat` holds: the view says (every hand, face up, in a replay of all). */
function handSize(state, seat) {
  if (state.hands) return (state.hands[String(seat)] || []).length;
  return (state.hand_sizes || [])[seat] ?? 0;
}

/** The scoring round the view shows (`state.scoring_round`: the one being played, or the
 * last one until the next exchange round): who said what in order, the tie-break stages each
 * seat revealed, the result. Null when there is none. */
export function roundInfo(state) {
  const current = state && state.scoring_round;
  if (!current) return null;
  const said = {};
  const order = [];
  for (const word of current.words) {
    said[word.seat] = word.category;
    order.push(word.seat);
  }
  const reveals = {};
  for (const [seat, stages] of Object.entries(current.stages || {})) {
    reveals[seat] = stages.map((ev) => ("suit" in ev ? t(`suit.${ev.suit}`) : ev.rank === "T" ? "10" : ev.rank));
  }
  return { round: current.round, said, reveals, result: current.result, order };
}

/**
 * One seat's panel. ctx: {names: Names, me, seats (table seat infos or null), events,
 * presence, clock: {seat, until} | null, showHand: bool (all cards face up)}.
 */
export function seatPanel(state, seat, ctx) {
  const isMe = seat === ctx.me;
  const toAct = state.to_act === seat && !ctx.paused; // nobody acts in the pause after a deal
  const info = ctx.seats ? ctx.seats[seat] : null;
  const badges = [];
  const badge = (cls, text, note) => h("span", { class: `badge ${cls}`, title: note, "aria-label": `${text}: ${note}` }, text);
  if (state.dealer === seat) badges.push(h("span", { class: "chip dealer", title: t("note.dealer"), "aria-label": t("table.dealer") }, t("table.dealer_chip")));
  if (info && info.kind === "bot") badges.push(badge("bot", levelName(info.level), t("note.bot", { level: levelAbout(info.level) })));
  if (info && info.kind === "open") badges.push(badge("open", t("table.open"), t("note.open")));
  if (info && info.away) badges.push(badge("away", t("table.away"), t("note.away")));
  else if (info && info.kind === "human" && ctx.presence && ctx.presence[seat] === false) badges.push(badge("offline", t("table.offline"), t("note.offline")));
  if (state.locked && state.locked[seat]) badges.push(badge("locked", t("table.locked"), t("note.locked", { n: state.lock_at ?? "" })));
  if (state.chicago === seat) badges.push(badge("chicago", "Chicago", t("note.chicago")));

  // exchange counts per round: "2 · 3 · –"
  const rounds = state.exchange_rounds || Math.max(1, (state.exchanges || []).length);
  const counts = [];
  const rows = state.exchanges || [];
  for (let r = 0; r < rounds; r++) {
    const row = rows[r];
    let text = "–";
    if (state.locked && state.locked[seat]) text = row && row[seat] ? String(row[seat]) : "×";
    else if (row && (r < rows.length - 1 || actedThisRound(state, seat))) text = String(row[seat]);
    counts.push(text);
  }

  // the latest scoring round's word and tie-break stages
  const round = roundInfo(state);
  let said = null;
  if (round && seat in round.said && state.phase !== "play") {
    const cat = round.said[seat];
    const stages = round.reveals[seat] || [];
    const won = round.result && round.result.winner === seat;
    said = h(
      "div",
      { class: `said${cat ? "" : " passed"}${won ? " won" : ""}` },
      cat ? category(cat) : t("center.passed"),
      stages.length ? h("span", { class: "stages", title: `${t("center.tiebreak")}: ${t("note.tiebreak")}` }, " · " + stages.join(" · ")) : null,
    );
  }

  // cards: all face up (replay) or the backs of the hand as it is now; a hand shown earlier
  // in the deal (R-EX-4: before breaking a combination) is labelled, the cards as they were
  // shown (some may have been exchanged or played since)
  let cards = null;
  if (ctx.showHand && state.hands) {
    cards = cardRow(state.hands[String(seat)] || [], "sm", "hand-up");
  } else if (!isMe) {
    const n = handSize(state, seat);
    cards = h("span", { class: "card-row backs", role: "img", "aria-label": t("table.cards_left", { n }) }, Array.from({ length: n }, () => backEl("xs")));
  }
  const shownCards = (state.shown || {})[String(seat)];
  const shown = shownCards && shownCards.length && !isMe
    ? h("div", { class: "shown", dataset: { shown: seat } },
      h("span", { class: "label", title: shownNote(ctx.events, seat) }, shownLabel(ctx.events, seat)), cardRow(shownCards, "xs"))
    : null;
  const pile = (state.played || [])[seat] || [];
  const clock = ctx.clock && ctx.clock.seat === seat ? ringEl(ctx.clock, "turn") : null;
  const mine = ctx.names.me === seat;
  const name = ctx.names.plain(seat) + (mine ? ` (${t("you")})` : "");
  return h(
    "section",
    {
      class: `seat${toAct ? " to-act" : ""}${isMe ? " mine" : ""}`,
      dataset: { seat },
      "aria-label": name,
      "aria-current": toAct ? "true" : null,
    },
    h("div", { class: "seat-head" },
      h("span", { class: "seat-name" }, h("span", { class: "name-text" }, ctx.names.plain(seat)),
        mine ? h("span", { class: "you-mark" }, `\u00a0(${t("you")})`) : null,
        ctx.rated ? seatRating(ctx.seats, seat) : null),
      badges,
      h("span", { class: "seat-score", title: t("table.points", { n: state.scores[seat] }) }, num(state.scores[seat])),
    ),
    h("div", { class: "seat-line" },
      h("span", { class: "exchanges", title: `${t("table.exchanges")}: ${t("note.exchanges")}` },
        h("span", { "aria-hidden": "true" }, "⇄ " + counts.join(" · ")),
        h("span", { class: "visually-hidden" }, `${t("table.exchanges")}: ${counts.join(", ")}`)),
      toAct ? h("span", { class: "turn-mark" }, t("table.to_act")) : null,
      clock,
      isMe && ctx.handCategory ? h("span", { class: "hand-category" }, ctx.handCategory) : null,
    ),
    said,
    // the hand's backs, the cards played and a shown hand share one wrapping row: a table
    // with a shown hand still fits 1280x800 with the hand and the prompt above the fold
    cards || shown || pile.length ? h("div", { class: "seat-cards" },
      cards,
      pile.length ? h("div", { class: "pile", "aria-label": t("table.played") }, cardRow(pile, "xs")) : null,
      shown) : null,
  );
}

/** A seat's rating beside its name at a rated table (docs/CLUB.md), when its profile or
 * bot level has one; said to be a rating, and what it is, in its tooltip and spoken name. */
function seatRating(seats, seat) {
  const info = seats && seats[seat];
  if (!info || info.rating === null || info.rating === undefined) return null;
  return h("span", { class: "seat-rating", dataset: { rating: info.rating }, title: t("club.rating_note") },
    h("span", { class: "visually-hidden" }, ` ${t("club.rating")}`), `\u00a0${num(info.rating, 1)}`);
}

/** The engine's reason of a show that objects to a lower four of a kind's reset. */
const OBJECTION = "a higher four of a kind objects to the reset";

/** What a seat's shown cards are, from the latest event that showed them. */
function shownLabel(events, seat) {
  let label = t("table.shown");
  for (const ev of events || []) {
    if (ev.type === "deal") label = t("table.shown");
    else if (ev.type === "show" && ev.seat === seat) {
      if (ev.reason === "quads reset") label = t("table.shown_quads");
      else if (ev.reason === OBJECTION) label = t("table.shown_objection");
      else label = t("table.shown_break");
    } else if (ev.type === "showdown" && String(seat) in (ev.hands || {})) label = t("table.shown_showdown");
  }
  return label;
}

/** Why a seat's cards are shown, for the label's tooltip (R-EX-4 for a broken combination). */
function shownNote(events, seat) {
  let note = t("note.shown");
  for (const ev of events || []) {
    if (ev.type === "deal") note = t("note.shown");
    else if (ev.type === "show" && ev.seat === seat && ev.reason !== "quads reset" && ev.reason !== OBJECTION) note = t("note.break");
  }
  return note;
}

/** The middle of the table: the trick, the face-up card, the scoring round, the piles. */
export function centerPanel(state, ctx) {
  const parts = [];
  const declared = state.chicago !== null && state.chicago !== undefined
    ? h("p", { class: "banner chicago-banner" }, t("center.chicago", { Who: ctx.names.Who(state.chicago) }))
    : null;
  const playing = state.phase === "play" || (state.phase === "deal over" && (state.trick || []).length);
  if (declared && !playing) parts.push(declared);
  if (state.one_up) {
    parts.push(h("div", { class: "one-up" },
      h("span", { class: "label" }, t("center.face_up", { whom: ctx.names.whom(state.one_up.seat) })),
      cardEl(state.one_up.card, { size: "md" })));
  }
  if (playing) {
    const trick = state.trick || [];
    const last = (state.tricks || [])[state.tricks.length - 1];
    // a declared Chicago beside the trick's title, not a line of its own: the hand and the
    // prompt stay above the fold at 1280x800
    const title = h("h3", { class: "center-title" }, t("center.trick", { n: state.trick_number || (state.tricks || []).length }));
    parts.push(declared ? h("div", { class: "center-head" }, title, declared) : title);
    if (trick.length) {
      parts.push(h("div", { class: "trick" }, trick.map((p, i) =>
        h("figure", { class: `played-card${i === 0 ? " lead" : ""}`, dataset: { seat: p.seat } },
          cardEl(p.card, { size: "md" }),
          h("figcaption", {}, ctx.names.Who(p.seat))))));
    } else if (state.phase === "play" && state.to_act !== null && state.to_act !== undefined) {
      parts.push(h("p", { class: "muted lead-text" }, t("center.lead", { Who: ctx.names.Who(state.to_act), you: ctx.names.you(state.to_act) })));
    } else {
      parts.push(h("p", { class: "muted" }, t("center.nothing")));
    }
    if (last && !trick.length) {
      const win = last.cards.find((p) => p.seat === last.winner);
      parts.push(h("p", { class: "last-trick" }, t("center.last_trick", { who: ctx.names.who(last.winner), card: win ? cardText(win.card) : "" })));
    }
  } else {
    const round = roundInfo(state);
    if (round && (state.phase === "announce" || state.phase === "quads choice" || round.result)) {
      parts.push(roundBox(round, state, ctx));
    }
    if (state.phase === "exchange" || state.phase === "redeal" || state.phase === "one up") parts.push(piles(state));
  }
  return h("div", { class: "center-inner" }, parts);
}

/**
 * A finished trick: its cards in the order played, the winner's marked (a star and words,
 * not colour alone), and a line saying who won it with what. `trick`: {trick, winner, card,
 * cards: [{seat, card}]}; `rest`: it is the trick resting in the middle of the table.
 */
export function finishedTrick(trick, names, { rest = false } = {}) {
  const win = trick.cards.find((p) => p.seat === trick.winner);
  return h("div", { class: "finished-trick", dataset: { trick: trick.trick, winner: trick.winner, rest: rest ? "1" : null } },
    h("h3", { class: "center-title" }, t("center.trick", { n: trick.trick })),
    h("div", { class: "trick" }, trick.cards.map((p, i) =>
      h("figure", { class: `played-card${i === 0 ? " lead" : ""}${p.seat === trick.winner ? " winner" : ""}`, dataset: { seat: p.seat } },
        cardEl(p.card, { size: "md" }),
        h("figcaption", {}, names.Who(p.seat),
          p.seat === trick.winner ? h("span", { class: "win-mark" }, ` ★ ${t("center.takes")}`) : null)))),
    h("p", { class: "trick-winner" }, t("center.trick_won", {
      n: trick.trick, Who: names.Who(trick.winner), you: names.you(trick.winner), card: win ? cardText(win.card) : "",
    })));
}

/** The stock and the discard pile, drawn as stacks of backs with their counts. */
export function piles(state) {
  // The view's pile counts the card thrown for a face-up card while its answer waits.
  const pile = state.discard_pile || 0;
  const stack = (key, label, n) => h("div", { class: `pile-stack${n ? "" : " empty"}`, dataset: { pile: key }, title: `${label}: ${n}` },
    h("span", { class: "card card-sm back", "aria-hidden": "true", html: backSvg() }),
    h("span", { class: "pile-count" }, `${label}: ${n}`));
  return h("div", { class: "stock", dataset: { stock: state.stock, pile } },
    stack("stock", t("table.stock"), state.stock), stack("discards", t("table.pile"), pile));
}

function roundBox(round, state, ctx) {
  const rows = round.order.map((seat) => {
    const cat = round.said[seat];
    const stages = round.reveals[seat] || [];
    return h("li", { class: round.result && round.result.winner === seat ? "won" : "" },
      h("span", { class: "who" }, ctx.names.Who(seat)), ": ",
      cat ? category(cat) : t("center.passed"),
      stages.length ? h("span", { class: "stages" }, ` (${t("center.tiebreak")}: ${stages.join(" · ")})`) : null);
  });
  let result = null;
  if (round.result) {
    const r = round.result;
    if (r.winner === null || r.winner === undefined) {
      result = r.category ? t("ev.round_tie", { r: r.round, cat: categoryA(r.category) }) : t("ev.round_nobody", { r: r.round });
    } else {
      result = t("ev.round_win", { r: r.round, who: ctx.names.who(r.winner), you: ctx.names.you(r.winner), cat: categoryA(r.category) });
    }
  }
  return h("div", { class: "round-box" },
    h("h3", { class: "center-title" }, t("center.round", { r: round.round })),
    h("ul", {}, rows),
    result ? h("p", { class: "round-result" }, result) : null);
}

/**
 * A finished deal as the view's `history` holds it: its `deal_end` event's numbers, its
 * taken tricks and who declared Chicago, from the deal's events (the same for every seat:
 * plays, tricks and calls are public). An update appends it on a `deal_end`, so the history
 * is the one the next snapshot would carry.
 */
export function dealRecord(end, events) {
  const tricks = [];
  let cards = [];
  let chicago = null;
  for (const ev of events) {
    if (ev.type === "play") cards.push({ seat: ev.seat, card: ev.card });
    else if (ev.type === "trick") {
      tricks.push({ winner: ev.winner, cards });
      cards = [];
    } else if (ev.type === "chicago" && ev.declared) chicago = ev.seat;
  }
  return { deal: end.deal, dealer: end.dealer, points: end.points, scores: end.scores, tricks, chicago };
}

/** What happened at the end of a deal, from its events (the last trick, Chicago, showdown, points). */
export function dealSummary(events) {
  const summary = { deal: null, lastTrick: null, plays: [], chicago: null, showdown: null, end: null, scoreEvents: [], quads: false };
  const playsByTrick = {};
  for (const ev of events) {
    if (ev.type === "deal") summary.deal = ev.deal;
    else if (ev.type === "play") (playsByTrick[ev.trick] ||= []).push(ev);
    else if (ev.type === "trick") summary.lastTrick = ev;
    else if (ev.type === "chicago_result") summary.chicago = ev;
    else if (ev.type === "showdown") summary.showdown = ev;
    else if (ev.type === "score") summary.scoreEvents.push(ev);
    else if (ev.type === "quads_reset") summary.quads = true;
    else if (ev.type === "deal_end") summary.end = ev;
  }
  if (summary.end) summary.deal = summary.end.deal;
  if (summary.lastTrick) summary.plays = playsByTrick[summary.lastTrick.trick] || [];
  return summary;
}

/**
 * The deal summary in words and cards: the Chicago, the last trick, the showdown, the
 * points. Laid out in columns that wrap (it sits in the middle of the table, above the
 * hand, and scrolls inside itself if need be); `head` (the Continue button and who it
 * waits for) stays in view at its top.
 */
export function summaryPanel(summary, names, { head = null } = {}) {
  const intro = [];
  const columns = [];
  const lt = summary.lastTrick;
  if (summary.chicago) {
    intro.push(h("p", { class: "sum-chicago" }, summary.chicago.made
      ? t("sum.chicago_made", { Who: names.Who(summary.chicago.seat), you: names.you(summary.chicago.seat) })
      : t("sum.chicago_failed", { who: names.who(summary.chicago.seat), breaker: names.who(summary.chicago.broken_by) })));
  }
  if (summary.quads) intro.push(h("p", {}, t("sum.quads")));
  if (lt && lt.trick === 5) {
    const scored = summary.scoreEvents.find((e) => e.seat === lt.winner && (e.reason === "last trick" || e.reason === "Chicago"));
    columns.push(h("div", { class: "sum-col sum-trick" },
      h("h3", {}, t("sum.last_trick")),
      h("div", { class: "trick small" }, summary.plays.map((p) =>
        h("figure", { class: `played-card${p.seat === lt.winner ? " winner" : ""}` }, cardEl(p.card, { size: "sm" }), h("figcaption", {}, names.Who(p.seat))))),
      h("p", { class: "sum-last-trick" }, t("sum.last_trick_text", { Who: names.Who(lt.winner), you: names.you(lt.winner), card: cardText(lt.card), points: scored ? scored.points : 0 }))));
  }
  const sd = summary.showdown;
  if (sd) {
    columns.push(h("div", { class: "sum-col sum-showdown" },
      h("h3", {}, t("sum.showdown")),
      h("div", { class: "showdown" }, Object.entries(sd.hands || {}).sort((a, b) => Number(a[0]) - Number(b[0])).map(([s, cards]) =>
        h("div", { class: `showdown-hand${Number(s) === sd.winner ? " winner" : ""}` },
          h("span", { class: "who" }, names.Who(Number(s))), cardRow(sortCards(cards).reverse(), "xs")))),
      h("p", { class: "sum-showdown" }, sd.winner === null || sd.winner === undefined
        ? t("sum.showdown_tie", { cat: categoryA(sd.category) })
        : t("sum.showdown_win", { Who: names.Who(sd.winner), you: names.you(sd.winner), cat: categoryA(sd.category), points: sd.points }))));
  }
  if (summary.end) {
    columns.push(h("div", { class: "sum-col sum-points" },
      h("h3", {}, t("sum.points")),
      h("table", { class: "points" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("sum.points")), h("th", {}, t("sum.total")))),
        h("tbody", {}, summary.end.points.map((p, s) =>
          h("tr", {}, h("th", { scope: "row" }, names.Who(s)), h("td", {}, signed(p)), h("td", {}, num(summary.end.scores[s]))))))));
  }
  return h("section", { class: "deal-summary", "aria-label": t("sum.title", { deal: summary.deal }) },
    h("div", { class: "sum-head" }, h("h2", {}, t("sum.title", { deal: summary.deal })), head),
    // it scrolls on a short screen: reachable from the keyboard (WCAG 2.1.1)
    h("div", { class: "sum-body", tabindex: "0", role: "region", "aria-label": t("sum.title", { deal: summary.deal }) },
      intro, h("div", { class: "sum-columns" }, columns)));
}

/** The scoreboard: points per deal (from the view's history) and totals. */
export function scoreTable(history, scores, names) {
  if (!history || !history.length) return h("p", {}, t("score.none"));
  const n = scores.length;
  return h("table", { class: "scoreboard" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("score.deal")), Array.from({ length: n }, (_, s) => h("th", { scope: "col" }, names.Who(s))))),
    h("tbody", {}, history.map((d) => h("tr", {}, h("th", { scope: "row" }, String(d.deal)), d.points.map((p, s) => h("td", {}, `${signed(p)} (${num(d.scores[s])})`))))),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("score.total")), scores.map((x) => h("td", {}, num(x))))));
}

/** Settlement at the end of a game: who wins, final scores, money. */
export function settlementPanel(result, names, stake = 1) {
  const winners = result.winners || [];
  const rows = (result.scores || []).map((score, s) => {
    const money = result.settlement ? result.settlement[s] : 0;
    return h("tr", { class: winners.includes(s) ? "winner" : "" },
      h("th", { scope: "row" }, names.Who(s)),
      h("td", {}, num(score)),
      h("td", { class: money < 0 ? "neg" : "pos" }, t("over.money", { amount: signed(money, Number.isInteger(money) ? 0 : 2) })));
  });
  return h("div", { class: "settlement" },
    h("p", { class: "winners" }, t("over.winner", { names: names.list(winners, true), plural: winners.length !== 1 || names.you(winners[0]) })),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("over.final")), h("th", {}, t("over.settlement")))),
      h("tbody", {}, rows)),
    stake !== 1 ? h("p", { class: "muted" }, `${stake} kr / ${t("table.points", { n: 1 })}`) : null);
}
