// What the browser remembers: seat tokens per table, the player's name, display options.
// Everything lives in localStorage under "chicago.*"; a browser without storage still works
// for one page visit.

const memory = new Map();
const watchers = new Set();

/** Call `fn()` after each change of what this browser remembers (seats, profile …). */
export function onChange(fn) {
  watchers.add(fn);
  return () => watchers.delete(fn);
}

function changed() {
  for (const fn of watchers) fn();
}

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return memory.has(key) ? memory.get(key) : fallback;
  }
}

function write(key, value) {
  memory.set(key, value);
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* ignore */
  }
  if (key === "chicago.seats" || key === "chicago.profile") changed();
}

/** {tableId: {token, seat, name, joined}} */
export function seats() {
  return read("chicago.seats", {});
}

export function seatFor(tableId) {
  return seats()[tableId] || null;
}

export function saveSeat(tableId, token, seat, tableName = "") {
  const all = seats();
  all[tableId] = { token, seat, name: tableName, joined: Date.now() };
  const entries = Object.entries(all).sort((a, b) => b[1].joined - a[1].joined).slice(0, 30);
  write("chicago.seats", Object.fromEntries(entries));
}

export function forgetSeat(tableId) {
  const all = seats();
  delete all[tableId];
  write("chicago.seats", all);
}

export function playerName() {
  return read("chicago.name", "");
}

export function setPlayerName(name) {
  write("chicago.name", name);
}

export function option(name, fallback) {
  return read(`chicago.option.${name}`, fallback);
}

export function setOption(name, value) {
  write(`chicago.option.${name}`, value);
}

/** This browser's profile: {id, name, secret} or null (docs/CLUB.md). */
export function profile() {
  return read("chicago.profile", null);
}

export function setProfile(value) {
  write("chicago.profile", value);
}

export function forgetProfile() {
  memory.delete("chicago.profile");
  try {
    localStorage.removeItem("chicago.profile");
  } catch {
    /* ignore */
  }
  changed();
}

/** Organizer secrets of the tournaments created in this browser: {tournamentId: secret}. */
export function organizerSecret(id) {
  return read("chicago.organizer", {})[id] || null;
}

export function saveOrganizerSecret(id, secret) {
  const all = read("chicago.organizer", {});
  all[id] = secret;
  write("chicago.organizer", all);
}
