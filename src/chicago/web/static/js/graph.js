// The game graph (issue 25): every seat's score after each deal as a small SVG chart, the
// target as a dashed line, and where the reviewed seat lost points a mark on its line
// (bigger for more; its title says how many). Shown on the replay page and, with the
// marks, in the Review view. The data is the replay's deal index (each deal's closing
// scores, public at the end of a finished game) and the review's points lost per deal.

import { t, num } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const W = 320;
const H = 120;
const PAD = { left: 26, right: 8, top: 8, bottom: 18 };
const COLOURS = ["#1f6f4a", "#a23b12", "#2a5599", "#7a4a9a", "#8a5a00", "#4a4a4a"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "4 4"];

function el(name, attrs = {}, ...children) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  for (const child of children) if (child) node.append(child);
  return node;
}

function title(text) {
  const node = el("title");
  node.textContent = text;
  return node;
}

/**
 * The chart: `scores[d][seat]` the scores after deal d (the first row the start, all 0),
 * `target` the game's target, `names(seat)` the seats' plain names, and optionally the
 * reviewed `seat` with its `losses[d]` (expected points lost in deal d).
 */
export function scoreGraph({ scores, target, names, seat = null, losses = null }) {
  const deals = scores.length - 1;
  const players = scores[0].length;
  const top = Math.max(target, ...scores.flat(), 1);
  const x = (d) => PAD.left + ((W - PAD.left - PAD.right) * d) / Math.max(1, deals);
  const y = (v) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - Math.max(0, v) / top);
  const label = t("graph.title");
  const svg = el("svg", { class: "score-graph", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, "data-testid": "score-graph" },
    title(label),
    el("line", { class: "graph-axis", x1: PAD.left, x2: W - PAD.right, y1: y(0), y2: y(0) }),
    el("line", { class: "graph-target", x1: PAD.left, x2: W - PAD.right, y1: y(target), y2: y(target), "stroke-dasharray": "3 3" }),
    el("text", { class: "graph-label", x: 2, y: y(target) + 3 }, document.createTextNode(String(target))),
    el("text", { class: "graph-label", x: 2, y: y(0) + 3 }, document.createTextNode("0")));
  for (let s = 0; s < players; s += 1) {
    const points = scores.map((row, d) => `${x(d).toFixed(1)},${y(row[s]).toFixed(1)}`).join(" ");
    svg.append(el("polyline", { class: "graph-line", "data-seat": s, points, fill: "none", stroke: COLOURS[s % COLOURS.length], "stroke-width": s === seat ? 2.5 : 1.5, "stroke-dasharray": DASHES[s % DASHES.length] || null },
      title(t("graph.seat", { name: names(s), score: scores[deals][s] }))));
  }
  if (seat !== null && losses) {
    losses.forEach((lost, d) => {
      if (!(lost > 0.5)) return;
      const r = Math.min(7, 2 + Math.sqrt(lost) * 1.6);
      svg.append(el("circle", { class: "graph-loss", "data-deal": d, cx: x(d).toFixed(1), cy: y(scores[d][seat]).toFixed(1), r: r.toFixed(1) },
        title(t("graph.lost", { deal: d, loss: num(lost, 1) }))));
    });
  }
  const legend = document.createElement("ul");
  legend.className = "graph-legend";
  for (let s = 0; s < players; s += 1) {
    const item = document.createElement("li");
    const swatch = el("svg", { width: 18, height: 6, "aria-hidden": "true" },
      el("line", { x1: 0, x2: 18, y1: 3, y2: 3, stroke: COLOURS[s % COLOURS.length], "stroke-width": 2.5, "stroke-dasharray": DASHES[s % DASHES.length] || null }));
    item.append(swatch, ` ${names(s)} ${scores[deals][s]}`);
    legend.append(item);
  }
  const figure = document.createElement("figure");
  figure.className = "graph";
  const caption = document.createElement("figcaption");
  caption.textContent = seat !== null && losses ? t("graph.caption_lost") : t("graph.title");
  figure.append(svg, legend, caption);
  return figure;
}

/** The graph's data from a replay's deal index (`[{scores}, …]`: each deal's closing scores). */
export function scoresOf(index, players) {
  return [Array.from({ length: players }, () => 0), ...index.map((d) => d.scores)];
}
