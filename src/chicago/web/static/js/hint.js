// The hint window: the advice in one sentence first ("Keep A♠ A♦ K♣: 1.8 points expected,
// 57% two pair or better"), then the best ways to keep cards, each with what it is worth at
// this table and its chances. The server ranks the holds (POST api/web/hint/TABLE, the
// ranking the terminal's hint uses too): the hand's chances against the others, the last
// trick and a Chicago count, not only the poker points. Narrow enough for a 390 px phone:
// three columns, the chances wrap inside their cell.

import { h } from "./dom.js";
import { t, num } from "./i18n.js";
import { category, categoryA, cards as cardsText } from "./words.js";
import { cardRow } from "./board.js";

const SHOW_AT = 0.005; // a category's chance worth naming in a row

export function pct(p) {
  if (!p) return "–";
  const value = p * 100;
  return value < 0.1 ? `<${num(0.1, 1)}\u00a0%` : `${num(value, value < 10 ? 1 : 0)}\u00a0%`;
}

/** The advice in one sentence, from the best hold. */
export function hintSentence(best) {
  const points = num(best.value, 1);
  const better = best.better ? t("hint.better", { pct: pct(best.better.chance), cat: categoryA(best.better.category) }) : "";
  if (!best.discard.length) return t("hint.sentence_all", { points });
  if (!best.keep.length) return t("hint.sentence_none", { points, better });
  return t("hint.sentence", { keep: cardsText(best.keep), points, better });
}

/** What the estimate is made of, for the best hold: hands, last trick, Chicago. */
function parts(hold) {
  const items = [t("hint.part_hand", { n: num(hold.hand, 1) }), t("hint.part_trick", { n: num(hold.trick, 1), pct: pct(hold.trick_chance) })];
  if (hold.chicago > 0) items.push(t("hint.part_chicago", { n: num(hold.chicago, 1), pct: pct(hold.chicago_chance) }));
  return t("hint.parts", { parts: items.join(", ") });
}

function chances(hold, categories) {
  const chips = categories
    .filter((c) => hold.probabilities[c] >= SHOW_AT)
    .slice(0, 4)
    .map((c) => h("span", { class: "chip-chance" }, `${category(c)} ${pct(hold.probabilities[c])}`));
  chips.push(h("span", { class: "chip-chance trick" }, `${t("hint.last_trick")} ${pct(hold.trick_chance)}`));
  if (hold.chicago_chance > 0.005) chips.push(h("span", { class: "chip-chance chicago" }, `Chicago ${pct(hold.chicago_chance)}`));
  return h("span", { class: "chances" }, chips);
}

/**
 * The body of the hint window for a server answer. `onSelect(discard)` (or null) puts a
 * hold's discards into the selection.
 */
export function hintBody(answer, onSelect = null) {
  const best = answer.holds[0];
  return h("div", { class: "hint" },
    best ? h("p", { class: "hint-sentence", dataset: { testid: "hint-sentence" } }, h("strong", {}, hintSentence(best))) : null,
    best ? h("p", { class: "hint-parts muted" }, parts(best)) : null,
    h("p", {}, t("hint.now", { cat: categoryA(answer.category) })),
    answer.dead.length ? h("p", { class: "muted" }, t("hint.dead", { cards: cardsText(answer.dead) })) : null,
    h("table", { class: "odds" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("hint.keep")),
        h("th", { scope: "col", title: t("hint.worth_help") }, t("hint.worth")),
        h("th", { scope: "col" }, t("hint.chances")))),
      h("tbody", {}, answer.holds.map((hold, i) => h("tr", { dataset: { hold: i } },
        h("td", { class: "keep" },
          hold.keep.length ? cardRow(hold.keep, "xs") : t("hint.nothing"),
          h("span", { class: "throw muted" }, t("hint.throw_n", { n: hold.discard.length })),
          onSelect ? h("button", { type: "button", class: "small", dataset: { action: "hint-select" }, onclick: () => onSelect(hold.discard) }, t("hint.select")) : null),
        h("td", { class: "worth", title: `${t("hint.expected")}: ${num(hold.expected_points, 2)}` }, num(hold.value, 2)),
        h("td", {}, chances(hold, answer.categories)))))),
    h("p", { class: "muted small-print" }, t("hint.explain")));
}
