// Rules and notation in words: the Chicago call of a rule set stated exactly (who may call
// it, from what score, what it wins and loses, who leads), and what every mark on the table
// means (the exchange counts, the badges). Used by the table's rules window, the tooltips
// and the help page, so that all three say the same.

import { t } from "./i18n.js";

/** The Chicago rule of `rules` (a Rules.to_dict mapping), as a list of sentences. */
export function chicagoRule(rules) {
  const r = rules || {};
  if (r.chicago_enabled === false) return [t("chi.none")];
  const points = r.chicago_points ?? 15;
  const lines = [];
  lines.push(r.chicago_min_score === null || r.chicago_min_score === undefined
    ? t("chi.when_any") : t("chi.when_min", { n: r.chicago_min_score }));
  lines.push(r.chicago_final_showdown === false ? t("chi.made_no_showdown", { n: points }) : t("chi.made", { n: points }));
  lines.push(r.negative_scores ? t("chi.failed_neg", { n: points }) : t("chi.failed", { n: points }));
  if (r.chicago_breaker_points) lines.push(t("chi.breaker", { n: r.chicago_breaker_points }));
  lines.push(r.chicago_caller_leads ? t("chi.declarer_leads") : t("chi.left_leads"));
  if (r.deuce_bonus) lines.push(t("chi.deuce", { n: r.deuce_chicago_points ?? 30 }));
  if (r.chicago_required === "declared") lines.push(t("chi.req_declared"));
  else if (r.chicago_required === "made") lines.push(r.chicago_made_any_size ? t("chi.req_made") : t("chi.req_made3"));
  return lines;
}

/** The table's marks with their meaning, for the help page: [[mark, words]]. */
export function glossary(rules) {
  const r = rules || {};
  return [
    ["⇄ 3 · 1 · –", t("note.exchanges")],
    ["× · ×", t("note.locked_counts")],
    [t("table.dealer_chip"), t("note.dealer")],
    [t("table.locked"), r.lock_at === null ? t("note.locked_never") : t("note.locked", { n: r.lock_at ?? 46 })],
    ["Chicago", t("note.chicago")],
    [t("table.away"), t("note.away")],
    [t("table.offline"), t("note.offline")],
    [t("center.tiebreak"), t("note.tiebreak")],
    [t("table.shown_break"), t("note.break")],
    [t("note.clock_mark"), t("note.clock")],
  ];
}
