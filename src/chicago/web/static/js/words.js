// The game in words, in the current language: events, phases, categories, card names.
// Works only on what a seat was sent (events, views), so it can never name a hidden card.

import { t } from "./i18n.js";
import { cardText, sortCards } from "./cards.js";

/**
 * Names for sentences. The player's own seat is "you" in three forms: `who` is the subject
 * inside a sentence ("you"/"du"), `Who` the subject at the start of a sentence and the name
 * on labels ("You"/"Du"), `whom` the object ("you"/"dig": "Face up for you", "Uppvänt för
 * dig"). Other seats are their names in every form.
 */
export class Names {
  constructor(names, me = null) {
    this.names = names;
    this.me = me;
  }
  who(seat) {
    if (seat === null || seat === undefined) return t("nobody");
    return seat === this.me ? t("you") : this.plain(seat);
  }
  Who(seat) {
    if (seat === null || seat === undefined) return cap(t("nobody"));
    return seat === this.me ? t("you_cap") : this.plain(seat);
  }
  whom(seat) {
    if (seat === null || seat === undefined) return t("nobody");
    return seat === this.me ? t("you_obj") : this.plain(seat);
  }
  plain(seat) {
    return this.names[seat] ?? t("seat_n", { n: seat + 1 });
  }
  you(seat) {
    return seat === this.me;
  }
  /** Several seats as one subject: "you and Bot 2"; `start` for the start of a sentence. */
  list(seats, start = false) {
    if (!seats.length) return start ? cap(t("nobody")) : t("nobody");
    return seats.map((s, i) => (i === 0 && start ? this.Who(s) : this.who(s))).join(t("and"));
  }
}

/** The first letter in upper case (for a sentence that starts with a word like "nobody"). */
export function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/**
 * A seat's name in the page's language. The server gives `null` for a person who gave no
 * name (shown as "Player N"/"Spelare N", N = seat + 1) and says which seats are bots (their
 * name is their level): "Bot N"/"Dator N". `withLevel` adds a bot's level ("Bot 2 (basic)")
 * where no badge shows it.
 */
export function displayName(name, seat, { kind = null, level = null, withLevel = false } = {}) {
  if (kind === "bot") {
    return withLevel && level ? t("bot_name_level", { n: seat + 1, level: levelName(level) }) : t("bot_name", { n: seat + 1 });
  }
  if (name) return name;
  return kind === "human" ? t("player_n", { n: seat + 1 }) : t("seat_n", { n: seat + 1 });
}

/** Display names of a table's seats (info.seats): the joined name, "Bot n", or "Seat n". */
export function seatNames(seats) {
  return seats.map((s) => displayName(s.name, s.seat, { kind: s.kind, level: s.level }));
}

/**
 * The names of a finished game (a summary of GET /api/games): its `seats` say which are bots
 * (shown as "Bot 2 (basic)" with `withLevel`) and name the people (`null`: "Player 3").
 */
export function gameNames(game, { withLevel = true } = {}) {
  return (game.seats || []).map((s) => displayName(s.name, s.seat, { kind: s.kind, level: s.level, withLevel }));
}

export function levelName(level) {
  const key = `level.${level}`;
  const text = t(key);
  return text === key ? String(level) : text;
}

/** What a bot level plays like ("plays by rules of thumb"); "" for a level without words. */
export function levelNote(level) {
  const key = `levelnote.${level}`;
  const text = t(key);
  return text === key ? "" : text;
}

/** A bot level's name with what it plays like: "Bosse: plays by rules of thumb". */
export function levelAbout(level) {
  const note = levelNote(level);
  return note ? `${levelName(level)}: ${note}` : levelName(level);
}

/** A preset by its name ("Pagat: Swedish club rules"); its id when it has no words. */
export function presetName(id) {
  const key = `presetname.${id}`;
  const text = t(key);
  return text === key ? String(id) : text;
}

export function cards(list) {
  return list.map(cardText).join(" ");
}

/** "Pair" (for badges and buttons). */
export function category(name) {
  return name ? t(`cat.${name}`) : t("cat.none");
}

/** "a pair" (inside sentences). */
export function categoryA(name) {
  return name ? t(`cata.${name}`) : t("cata.none");
}

/** The long name of a card for screen readers: "ace of hearts" / "hjärter ess". */
export function cardName(code) {
  return t("card.name", { rank: t(`rank.${code[0]}`), suit: t(`suit.${code[1]}`) });
}

export function rankWord(letter) {
  return t(`rank.${letter}`);
}

/** Engine reasons (English strings in score/round events) in the current language. */
export function reason(text) {
  if (!text) return "";
  const round = /^scoring round (\d+)$/.exec(text);
  if (round) return t("reason.scoring_round", { r: round[1] });
  const key = `reason.${text}`;
  const found = t(key);
  return found === key ? text : found;
}

/** One event in words, or null for events that need none. */
export function describe(ev, names) {
  const fn = EVENTS[ev.type];
  return fn ? fn(ev, names) : null;
}

function base(ev, names, seatKey = "seat") {
  const seat = ev[seatKey];
  return { who: names.who(seat), Who: names.Who(seat), whom: names.whom(seat), you: names.you(seat) };
}

const EVENTS = {
  deal: (ev, n) => {
    let text = t("ev.deal", { deal: ev.deal, ...base(ev, n, "dealer") });
    const locked = (ev.locked || []).map((f, s) => (f ? s : null)).filter((s) => s !== null);
    if (locked.length) text += " " + t("ev.deal_locked", { names: locked.map((s) => n.who(s)).join(", "), n: locked.length });
    return text;
  },
  dealt: (ev, n) => t("ev.dealt", { ...base(ev, n), cards: cards(ev.cards) }),
  redeal: (ev, n) => t(ev.redealt ? "ev.redeal_yes" : "ev.redeal_no", base(ev, n)),
  exchange: (ev, n) => {
    const b = base(ev, n);
    const count = ev.discarded || 0;
    if (ev.locked) return t(count ? "ev.exchange_locked_six" : "ev.exchange_locked", b);
    if (ev.one_up) return t("ev.exchange_one_up", b);
    if (!count) return t("ev.exchange_keep", b);
    return t("ev.exchange", { ...b, n: count });
  },
  exchanged: (ev, n) => {
    const b = base(ev, n);
    const out = ev.discarded && ev.discarded.length ? cards(ev.discarded) : "";
    const got = ev.drawn && ev.drawn.length ? cards(ev.drawn) : "";
    if (!out && !got) return null;
    if (!got) return t("ev.exchanged_out", { ...b, out });
    if (!out) return t("ev.exchanged_in", { ...b, got });
    return t("ev.exchanged", { ...b, out, got });
  },
  reshuffle: (ev) => t("ev.reshuffle", { n: ev.count }),
  show: (ev, n) =>
    ev.reason === "a higher four of a kind objects to the reset"
      ? t("ev.show_objection", { ...base(ev, n), cards: cards(ev.cards) })
      : reason(ev.reason)
        ? t("ev.show_why", { ...base(ev, n), cards: cards(ev.cards), reason: reason(ev.reason) })
        : t("ev.show", { ...base(ev, n), cards: cards(ev.cards) }),
  one_up: (ev, n) => t("ev.one_up", { ...base(ev, n), card: cardText(ev.card) }),
  one_up_choice: (ev, n) =>
    t(ev.accepted ? "ev.one_up_accept" : "ev.one_up_reject", { ...base(ev, n), card: cardText(ev.card) }),
  pass: (ev, n) => t("ev.pass", base(ev, n)),
  announce: (ev, n) => t("ev.announce", { ...base(ev, n), cat: categoryA(ev.category) }),
  reveal: (ev, n) => {
    const shown = "suit" in ev ? t("ev.reveal_suit", { suit: t(`suit.${ev.suit}`) }) : rankWord(ev.rank);
    return t("ev.reveal", { ...base(ev, n), stage: ev.stage, shown });
  },
  round_result: (ev, n) => {
    if (ev.winner === null || ev.winner === undefined) {
      if (!ev.category) return t("ev.round_nobody", { r: ev.round });
      return t("ev.round_tie", { r: ev.round, cat: categoryA(ev.category) });
    }
    const b = base(ev, n, "winner");
    if ((ev.reason || "").startsWith("four of a kind")) return t("ev.round_quads", { r: ev.round, ...b });
    return t("ev.round_win", { r: ev.round, ...b, cat: categoryA(ev.category), points: ev.points });
  },
  quads_choice: (ev, n) => {
    if (!ev.reset) return t("ev.quads_score_choice", base(ev, n));
    if (ev.target === undefined || ev.target === null) return t("ev.quads_reset_choice", base(ev, n));
    return t("ev.quads_reset_one_choice", { ...base(ev, n), whom: n.whom(ev.target) });
  },
  quads_claim: (ev, n) => {
    if (!ev.reset) return t("ev.quads_no_claim", base(ev, n));
    if (ev.target === undefined || ev.target === null) return t("ev.quads_claim", base(ev, n));
    return t("ev.quads_claim_one", { ...base(ev, n), whom: n.whom(ev.target) });
  },
  quads_objection: (ev, n) =>
    t("ev.quads_objection", { ...base(ev, n), against: n.who(ev.against), youAgainst: n.you(ev.against) }),
  quads_reset: (ev, n) => t("ev.quads_reset", base(ev, n)),
  chicago: (ev, n) => t(ev.declared ? "ev.chicago_yes" : "ev.chicago_no", base(ev, n)),
  play: (ev, n) => t("ev.play", { ...base(ev, n), card: cardText(ev.card) }),
  trick: (ev, n) => t("ev.trick", { ...base(ev, n, "winner"), trick: ev.trick, card: cardText(ev.card) }),
  chicago_result: (ev, n) =>
    ev.made
      ? t("ev.chicago_made", base(ev, n))
      : t("ev.chicago_failed", { ...base(ev, n), breaker: n.who(ev.broken_by) }),
  score: (ev, n) => {
    const b = { ...base(ev, n), total: ev.total, reason: reason(ev.reason) };
    return ev.points >= 0 ? t("ev.score", { ...b, points: ev.points }) : t("ev.score_lose", { ...b, points: -ev.points });
  },
  showdown: (ev, n) => {
    const hands = Object.entries(ev.hands || {})
      .sort((a, b) => Number(a[0]) - Number(b[0]))
      .map(([s, c]) => `${n.who(Number(s))} ${cards(sortCards(c).reverse())}`)
      .join("; ");
    if (ev.winner === null || ev.winner === undefined) {
      return t("ev.showdown_tie", { hands, cat: categoryA(ev.category) });
    }
    return t("ev.showdown", { hands, ...base(ev, n, "winner"), cat: categoryA(ev.category), points: ev.points });
  },
  deal_end: (ev, n) => t("ev.deal_end", { deal: ev.deal, scores: scoresText(ev.scores, n) }),
  game_end: (ev, n) => {
    const winners = ev.winners || [];
    return t("ev.game_end", {
      names: n.list(winners),
      plural: winners.length !== 1 || n.you(winners[0]),
      scores: scoresText(ev.scores, n),
    });
  },
};

export function scoresText(scores, names) {
  return scores.map((s, i) => `${names.who(i)} ${s}`).join(", ");
}

/** Where the deal is, in a few words. */
export function phaseText(view) {
  const exchanges = view.exchange_rounds;
  switch (view.phase) {
    case "exchange":
      return t("phase.exchange", { r: view.round, n: exchanges });
    case "announce":
      return t("phase.announce", { r: view.round, n: exchanges - 1 });
    case "play":
      return t("phase.play", { r: view.trick_number });
    case "one up":
      return t("phase.one_up");
    case "redeal":
      return t("phase.redeal");
    case "chicago":
      return t("phase.chicago");
    case "quads":
    case "quads choice":
      return t("phase.quads");
    case "over":
      return t("phase.over");
    case "deal over":
      return t("phase.deal_over");
    default:
      return view.phase;
  }
}

// The events that say what a seat did, in the order an action emits them.
const ACTION_EVENTS = new Set(["exchange", "redeal", "one_up_choice", "announce", "pass", "quads_claim", "quads_choice", "chicago", "play"]);

/**
 * A replay step in words: "Deal 2 is dealt.", "Bot 1 announces a pair.", "Dator 3 spelar A♠.".
 * The notation of the step's action only adds the cards a perspective may see (a discard
 * is null for other seats); everything else comes from the step's events.
 */
export function stepText(step, names) {
  if (step.seat === null || step.seat === undefined) return t("replay.dealt", { deal: step.deal });
  const b = { who: names.who(step.seat), Who: names.Who(step.seat), you: names.you(step.seat) };
  const action = step.action || "";
  if (action.startsWith("discard ")) {
    const thrown = action.split(" ").slice(1);
    return t("act.discard", { ...b, cards: cards(thrown), n: thrown.length });
  }
  if (action.startsWith("one up ")) return t("act.one_up", { ...b, card: cardText(action.slice(7)) });
  const ev = (step.events || []).find((e) => ACTION_EVENTS.has(e.type) && e.seat === step.seat);
  if (ev) return describe(ev, names);
  return t("act.unknown", b);
}
