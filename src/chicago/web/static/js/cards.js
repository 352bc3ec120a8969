// Playing cards drawn as SVG by the app itself: no image files, no fonts needed for suits.
//
// cardSvg("Ah") gives the markup of one card face, backSvg() the back. Suits are paths
// (symbols #suit-c, #suit-d, #suit-h, #suit-s injected once by installCardSymbols()), ranks
// are text. Card codes are the engine's text form: rank 2-9 T J Q K A, suit c d h s.

export const RANKS = "23456789TJQKA";
export const SUITS = "cdhs";
export const RED = new Set(["d", "h"]);

const SUIT_PATHS = {
  h: "M50 92C22 68 2 50 2 29C2 13 14 2 28 2C39 2 46 9 50 18C54 9 61 2 72 2C86 2 98 13 98 29C98 50 78 68 50 92Z",
  d: "M50 2L90 50L50 98L10 50Z",
  s: "M50 2C62 20 98 38 98 60C98 75 87 84 74 84C65 84 58 80 54 73C55 85 61 92 70 98L30 98C39 92 45 85 46 73C42 80 35 84 26 84C13 84 2 75 2 60C2 38 38 20 50 2Z",
  c: "M50 4A21 21 0 0 1 66 39A21 21 0 1 1 56 72C57 84 62 92 70 98L30 98C38 92 43 84 44 72A21 21 0 1 1 34 39A21 21 0 0 1 50 4Z",
};

/** The card's id in the engine: rank index * 4 + suit index (the sort order of hands). */
export function cardId(code) {
  return RANKS.indexOf(code[0]) * 4 + SUITS.indexOf(code[1]);
}

/** Sort card codes like the engine (by rank, then clubs < diamonds < hearts < spades). */
export function sortCards(codes) {
  return [...codes].sort((a, b) => cardId(a) - cardId(b));
}

/** The rank as printed on the card: "10" for a ten. */
export function rankLabel(code) {
  return code[0] === "T" ? "10" : code[0];
}

const SUIT_CHARS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** A short text form for sentences: "10♥", "A♠". */
export function cardText(code) {
  return rankLabel(code) + SUIT_CHARS[code[1]];
}

/** Put the suit symbols in the page once (every card refers to them with <use>). */
export function installCardSymbols(doc = document) {
  if (doc.getElementById("suit-symbols")) return;
  const ns = "http://www.w3.org/2000/svg";
  const svg = doc.createElementNS(ns, "svg");
  svg.setAttribute("id", "suit-symbols");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "suit-symbols"); // hidden by the style sheet (no inline style: CSP)
  let inner = "<defs>";
  for (const [suit, d] of Object.entries(SUIT_PATHS)) {
    inner += `<symbol id="suit-${suit}" viewBox="0 0 100 100"><path d="${d}"/></symbol>`;
  }
  inner +=
    '<pattern id="card-back-pattern" width="16" height="16" patternUnits="userSpaceOnUse" ' +
    'patternTransform="rotate(45)"><rect width="16" height="16" fill="#1f4e8c"/>' +
    '<rect width="8" height="8" fill="#2a64ad"/><rect x="8" y="8" width="8" height="8" fill="#2a64ad"/>' +
    "</pattern></defs>";
  svg.innerHTML = inner;
  doc.body.prepend(svg);
}

// Pip positions on a 200 x 280 card: [x, y]; pips below the middle are drawn upside down.
const L = 60, C = 100, R = 140;
const PIPS = {
  "2": [[C, 62], [C, 218]],
  "3": [[C, 62], [C, 140], [C, 218]],
  "4": [[L, 62], [R, 62], [L, 218], [R, 218]],
  "5": [[L, 62], [R, 62], [C, 140], [L, 218], [R, 218]],
  "6": [[L, 62], [R, 62], [L, 140], [R, 140], [L, 218], [R, 218]],
  "7": [[L, 62], [R, 62], [C, 101], [L, 140], [R, 140], [L, 218], [R, 218]],
  "8": [[L, 62], [R, 62], [C, 101], [L, 140], [R, 140], [C, 179], [L, 218], [R, 218]],
  "9": [[L, 62], [R, 62], [L, 114], [R, 114], [C, 140], [L, 166], [R, 166], [L, 218], [R, 218]],
  T: [[L, 62], [R, 62], [C, 88], [L, 114], [R, 114], [L, 166], [R, 166], [C, 192], [L, 218], [R, 218]],
};

function use(suit, x, y, size, flip = false) {
  const half = size / 2;
  const t = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#suit-${suit}" x="${x - half}" y="${y - half}" width="${size}" height="${size}"${t}/>`;
}

const FACE_FILL = { J: "#e9f0fb", Q: "#fbeef3", K: "#fbf5e3" };

const cache = new Map();

/**
 * The SVG markup of one card face (cached). `fourColor` paints diamonds blue and clubs
 * green; `compact` draws a small card as one big rank over one big suit, readable at 24 px.
 */
export function cardSvg(code, { fourColor = false, compact = false } = {}) {
  const key = code + (fourColor ? "4" : "") + (compact ? "c" : "");
  const hit = cache.get(key);
  if (hit) return hit;
  const rank = code[0];
  const suit = code[1];
  let color = RED.has(suit) ? "#c0142b" : "#161616";
  if (fourColor && suit === "d") color = "#1257c4";
  if (fourColor && suit === "c") color = "#1a7a2e";
  const label = rankLabel(code);
  if (compact) {
    const svg =
      `<svg class="card-svg" viewBox="0 0 200 280" xmlns="http://www.w3.org/2000/svg" ` +
      `aria-hidden="true" focusable="false">` +
      `<rect x="4" y="4" width="192" height="272" rx="18" fill="#fff" stroke="#9a9a9a" stroke-width="5"/>` +
      `<g fill="${color}"><text x="100" y="122" text-anchor="middle" font-size="${label.length > 1 ? 104 : 124}" ` +
      `font-weight="700" font-family="Georgia, 'DejaVu Serif', serif" ` +
      `letter-spacing="${label.length > 1 ? -8 : 0}">${label}</text>` +
      use(suit, 100, 196, 112) + "</g></svg>";
    cache.set(key, svg);
    return svg;
  }
  const corner =
    `<text x="22" y="46" text-anchor="middle" font-size="${label.length > 1 ? 34 : 40}" ` +
    `font-weight="700" font-family="Georgia, 'DejaVu Serif', serif" ` +
    `letter-spacing="${label.length > 1 ? -3 : 0}">${label}</text>` + use(suit, 22, 66, 26);
  let middle = "";
  if (PIPS[rank]) {
    const size = rank === "9" || rank === "T" ? 32 : 36;
    for (const [x, y] of PIPS[rank]) middle += use(suit, x, y, size, y > 140);
  } else if (rank === "A") {
    middle = use(suit, 100, 140, 92);
  } else {
    middle =
      `<rect x="44" y="40" width="112" height="200" rx="8" fill="${FACE_FILL[rank]}" ` +
      `stroke="${color}" stroke-width="3"/>` +
      `<text x="100" y="168" text-anchor="middle" font-size="96" font-weight="700" ` +
      `font-family="Georgia, 'DejaVu Serif', serif">${rank}</text>` +
      use(suit, 100, 78, 40) + use(suit, 100, 204, 40, true);
  }
  const svg =
    `<svg class="card-svg" viewBox="0 0 200 280" xmlns="http://www.w3.org/2000/svg" ` +
    `aria-hidden="true" focusable="false">` +
    `<rect x="2" y="2" width="196" height="276" rx="16" fill="#fff" stroke="#9a9a9a" stroke-width="3"/>` +
    `<g fill="${color}">${corner}<g transform="rotate(180 100 140)">${corner}</g>${middle}</g></svg>`;
  cache.set(key, svg);
  return svg;
}

/** The SVG markup of a card's back. */
export function backSvg() {
  return (
    `<svg class="card-svg" viewBox="0 0 200 280" xmlns="http://www.w3.org/2000/svg" ` +
    `aria-hidden="true" focusable="false">` +
    `<rect x="2" y="2" width="196" height="276" rx="16" fill="#fff" stroke="#9a9a9a" stroke-width="3"/>` +
    `<rect x="14" y="14" width="172" height="252" rx="10" fill="url(#card-back-pattern)"/>` +
    `<rect x="14" y="14" width="172" height="252" rx="10" fill="none" stroke="#173a69" stroke-width="4"/>` +
    "</svg>"
  );
}
