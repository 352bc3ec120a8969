// The service worker of the browser app: the app's files kept in the browser, so the app
// opens at once, and an offline page when the server cannot be reached.
//
// The server fills in VERSION (a digest of every file of the app) and FILES (the app's
// files under that version's prefix, and the offline page) when it serves this file
// (chicago.server.static), so a new version of the app is a new worker: the browser
// installs it, it caches the new files, takes over, and deletes the old version's cache.
// - A file under a version prefix (v/VERSION/...) and the offline page: from the cache,
//   else from the network.
// - A page (a navigation): from the network, always (it names the current version); the
//   offline page when the server cannot be reached (or a proxy says it is down).
// - Everything else (the JSON API, the websocket): the network, untouched.

const VERSION = "@VERSION@";
const FILES = ["@FILES@"];
const CACHE = `chicago-${VERSION}`;
const OFFLINE = "offline.html";
const SCOPE = new URL("./", self.location.href).pathname;
const UNREACHABLE = new Set([502, 503, 504]);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES);
    await self.skipWaiting(); // a new version takes over at once: old pages keep working
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("chicago-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(SCOPE)) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
    return;
  }
  const path = url.pathname.slice(SCOPE.length);
  if (/^v\/[0-9a-f]+\//.test(path) || path === OFFLINE) event.respondWith(kept(request));
});

/** A page from the network, or the offline page when the server cannot be reached. */
async function page(request) {
  try {
    const answer = await fetch(request);
    if (!UNREACHABLE.has(answer.status)) return answer;
  } catch {
    /* the server cannot be reached */
  }
  const offline = await caches.match(OFFLINE, { cacheName: CACHE });
  return offline || Response.error();
}

/** A file of the app from the cache (any version's, while it is kept), else the network. */
async function kept(request) {
  return (await caches.match(request)) || fetch(request);
}
