// The offline page (offline.html, shown by the service worker when the server cannot be
// reached): the reader's language first, and the app loaded again as soon as the server
// answers (checked every few seconds and whenever the browser says it is online again).

const RETRY_MS = 4000;

function preferred() {
  try {
    const saved = localStorage.getItem("chicago.lang");
    if (saved === "sv" || saved === "en") return saved;
  } catch {
    /* storage may be unavailable */
  }
  const wanted = (navigator.languages || [navigator.language || "en"]).map((l) => String(l).toLowerCase());
  return wanted.some((l) => l === "sv" || l.startsWith("sv-")) ? "sv" : "en";
}

function order() {
  const lang = preferred();
  document.documentElement.lang = lang;
  const first = document.querySelector(`[data-lang-text="${lang}"]`);
  if (first) first.parentElement.prepend(first);
}

async function reachable() {
  try {
    const answer = await fetch("api/info", { cache: "no-store" });
    return answer.ok;
  } catch {
    return false;
  }
}

async function retry() {
  if (await reachable()) location.reload();
}

order();
for (const button of document.querySelectorAll("[data-action=retry]")) button.addEventListener("click", () => location.reload());
window.addEventListener("online", retry);
setInterval(retry, RETRY_MS);
