// The lobby's HTTP API (docs/PROTOCOL.md) and the app's extra routes (docs/WEB_NEEDS.md).
// Every failure becomes an ApiError with the server's code and its message in words.

export class ApiError extends Error {
  constructor(code, message, status = 0) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

import * as store from "./store.js";

async function call(method, path, { body, token, text = false, headers: extra = {} } = {}) {
  const headers = { ...extra };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError("network", String(err && err.message ? err.message : err), 0);
  }
  if (!response.ok) {
    let code = "http_error";
    let message = `${response.status} ${response.statusText}`;
    try {
      const data = await response.json();
      if (data && data.error) {
        code = data.error.code || code;
        message = data.error.message || message;
      }
    } catch {
      /* not JSON */
    }
    throw new ApiError(code, message, response.status);
  }
  return text ? response.text() : response.json();
}

const enc = encodeURIComponent;

/** The header that signs a request in with this browser's profile (docs/CLUB.md). */
function asProfile(secret = null) {
  const value = secret || (store.profile() || {}).secret;
  return value ? { "X-Chicago-Profile": value } : {};
}

function asOrganizer(secret) {
  return secret ? { "X-Chicago-Organizer": secret } : {};
}

export const api = {
  info: () => call("GET", "api/info"),
  tables: (limit = 50) => call("GET", `api/tables?limit=${limit}`),
  table: (id) => call("GET", `api/tables/${enc(id)}`),
  create: (request) => call("POST", "api/tables", { body: request }),
  join: (id, seat, name) => call("POST", `api/tables/${enc(id)}/join`, { body: { seat, name: name || null }, headers: asProfile() }),
  rematch: (id, token) => call("POST", `api/tables/${enc(id)}/rematch`, { token }),
  games: (limit = 30, before = null) =>
    call("GET", `api/games?limit=${limit}` + (before ? `&before=${enc(before)}` : "")),
  game: (table, number) => call("GET", `api/games/${enc(table)}/${number}`),
  gameText: (table, number) => call("GET", `api/games/${enc(table)}/${number}/text`, { text: true }),
  replay: (table, number, view, deal) =>
    call("GET", `api/web/replay/${enc(table)}/${number}?view=${enc(view)}&deal=${deal}`),
  hint: (id, token, dead) => call("POST", `api/web/hint/${enc(id)}`, { body: { dead, top: 6 }, token }),
  // club play (docs/CLUB.md)
  createProfile: (name) => call("POST", "api/profiles", { body: { name } }),
  me: (secret) => call("GET", "api/profiles/me", { headers: asProfile(secret) }),
  rotate: () => call("POST", "api/profiles/me/rotate", { headers: asProfile() }),
  profilePage: (id) => call("GET", `api/profiles/${enc(id)}`),
  leaderboard: (ladder) => call("GET", "api/leaderboard" + (ladder ? `?ladder=${enc(ladder)}` : "")),
  claim: (table) => call("POST", `api/tables/${enc(table)}/claim`, { headers: asProfile() }),
  clubInfo: () => call("GET", "api/club/info"),
  tournaments: () => call("GET", "api/tournaments?limit=50"),
  tournament: (id) => call("GET", `api/tournaments/${enc(id)}`),
  createTournament: (request) => call("POST", "api/tournaments", { body: request }),
  joinTournament: (id) => call("POST", `api/tournaments/${enc(id)}/join`, { headers: asProfile() }),
  startTournament: (id, secret) => call("POST", `api/tournaments/${enc(id)}/start`, { headers: asOrganizer(secret) }),
  advanceTournament: (id, secret) => call("POST", `api/tournaments/${enc(id)}/advance`, { headers: asOrganizer(secret) }),
  leaveTournament: (id) => call("POST", `api/tournaments/${enc(id)}/leave`, { headers: asProfile() }),
  removeEntrant: (id, secret, entrant) => call("POST", `api/tournaments/${enc(id)}/remove`, { headers: asOrganizer(secret), body: { entrant } }),
  cancelTournament: (id, secret) => call("POST", `api/tournaments/${enc(id)}/cancel`, { headers: asOrganizer(secret) }),
  endAfterRound: (id, secret) => call("POST", `api/tournaments/${enc(id)}/end-after-round`, { headers: asOrganizer(secret) }),
  mySeat: (id) => call("POST", `api/tournaments/${enc(id)}/seat`, { headers: asProfile() }),
  // playing together (issue 26): mail notices
  myMail: () => call("GET", "api/profiles/me/mail", { headers: asProfile() }),
  setMyMail: (address, notify) => call("PUT", "api/profiles/me/mail", { body: { address, notify }, headers: asProfile() }),
  mailLink: (kind, token) => call("POST", `api/mail/${kind}?token=${enc(token)}`),
  // who is online, follows, invitations (docs/PROTOCOL.md, "People")
  people: () => call("GET", "api/people", { headers: asProfile() }),
  showOnline: (show) => call("PUT", "api/profiles/me/online", { body: { show }, headers: asProfile() }),
  follow: (profile, follow) => call("POST", "api/profiles/me/follows", { body: { profile, follow }, headers: asProfile() }),
  invite: (table, profile) => call("POST", `api/tables/${enc(table)}/invite`, { body: { profile }, headers: asProfile() }),
  answerInvite: (id, answer) => call("POST", `api/invites/${enc(id)}/${answer}`, { headers: asProfile() }),
  // reviews of finished games (docs/PROTOCOL.md, "Reviews")
  review: (table, number, seat) => call("GET", `api/games/${enc(table)}/${number}/reviews/${seat}`),
  askReview: (table, number, seat) => call("POST", `api/games/${enc(table)}/${number}/reviews/${seat}`),
  // practice on the reviews' mistakes (docs/PROTOCOL.md, "Practice")
  practiceMine: () => call("GET", "api/practice/mine", { headers: asProfile() }),
  practiceDaily: () => call("GET", "api/practice/daily"),
  practiceAnswer: (exercise, action) => call("POST", "api/practice/answer", { body: { exercise, action } }),
};
