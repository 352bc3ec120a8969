"""Issue 27: the table without its server, and the installable app.

- While the connection is down the turn line says so and the table takes no move (a click,
  the keys); when it is back the player's turn is there again.
- The page links a web-app manifest with its icons (192 and 512 px, and a maskable one); a
  service worker is registered at the app's root and keeps every file of the app under the
  current version; a new version of the app is a new worker whose cache replaces the old one.
- With the server stopped, opening the app shows the offline page in both languages (the
  reader's first), which loads the app again by itself when the server is back.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from chicago.web import STATIC_DIR

from .axe import assert_accessible
from .driver import Player, record_frames, seated_page
from .serving import LiveServer

_WORKER_READY = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return registration.active ? registration.active.scriptURL : null;
}"""

_CACHES = """async () => {
  const out = {};
  for (const key of await caches.keys()) {
    const cache = await caches.open(key);
    out[key] = (await cache.keys()).map((r) => new URL(r.url).pathname);
  }
  return out;
}"""


def _acts(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f["sent"] for f in frames if "sent" in f and f["sent"].get("type") == "act"]


def test_a_disconnected_table_says_so_and_takes_no_move(browser: Any, live: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    recorded: dict[str, list[dict[str, Any]]] = {}

    def record(new_page: Any) -> None:
        recorded["frames"] = record_frames(new_page)

    page, _, _ = seated_page(context, live, ["open", "bot:basic", "bot:basic"],
                             rules={"max_deals": 1}, before=record)
    frames = recorded["frames"]
    player = Player(page, live)
    assert player.state() == "turn"
    assert page.locator("[data-testid=prompt]").inner_text().startswith("Your turn")
    page.evaluate("window.chicago.drop(3600000)")  # down, and no reconnection until asked
    page.wait_for_selector(".prompt.offline")
    line = page.locator("[data-testid=prompt]").inner_text()
    assert line.startswith("Connection lost"), line
    assert "Your turn" not in line
    sent = len(_acts(frames))
    # no card and no button takes a click, no key makes a move
    assert page.locator(".hand button[data-card]:not([disabled])").count() == 0
    assert page.locator(".actions button:not([disabled])").count() == 0
    page.locator(".hand [data-card]").first.click(force=True)
    for key in ("1", "2", "Enter", "p"):
        page.keyboard.press(key)
    assert page.evaluate("window.chicago.table.selection.size") == 0
    assert len(_acts(frames)) == sent
    assert page.evaluate("window.chicago.table.pending") is None

    page.evaluate("window.chicago.reconnect()")
    page.wait_for_selector(".prompt.your-turn")
    assert page.locator(".hand button[data-card]:not([disabled])").count() > 0
    player.act()  # and a move goes through again
    assert len(_acts(frames)) > sent
    context.close()


def test_the_manifest_its_icons_and_the_service_worker(browser: Any, live: LiveServer) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live.url)
    page.wait_for_selector("[data-action=quick-play]")
    manifest_url = page.evaluate("document.querySelector('link[rel=manifest]').href")
    manifest = page.evaluate("async (u) => (await fetch(u)).json()", manifest_url)
    assert manifest["name"] == "Chicago" and manifest["display"] == "standalone"
    assert page.evaluate("(u) => new URL(u.start, u.base).href",
                         {"start": manifest["start_url"], "base": manifest_url}) == live.url
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        answer = page.evaluate("""async ([src, base]) => {
          const r = await fetch(new URL(src, base));
          return [r.status, r.headers.get('content-type')];
        }""", [icon["src"], manifest_url])
        assert answer == [200, icon["type"]], (icon, answer)

    assert page.evaluate(_WORKER_READY) == live.url + "sw.js"
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    kept = page.evaluate(_CACHES)
    assert len(kept) == 1, kept
    (name, files), = kept.items()
    version = name.removeprefix("chicago-")
    assert f"/v/{version}/js/app.js" in files and f"/v/{version}/css/app.css" in files
    assert "/offline.html" in files and f"/v/{version}/js/offline.js" in files
    assert f"/v/{version}/icons/icon-192.png" in files
    context.close()


def test_a_new_version_is_a_new_worker_whose_cache_replaces_the_old(
    browser: Any, tmp_path: Path
) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC_DIR, static)
    server = LiveServer(tmp_path, static_dir=static).start()
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector("[data-action=quick-play]")
        page.evaluate(_WORKER_READY)
        first = list(page.evaluate(_CACHES))
        assert len(first) == 1
        with (static / "css" / "app.css").open("a") as css:
            css.write("\n/* a new version */\n")
        # the browser looks for a new worker at each load (and when asked): until the new
        # version's cache is the only one
        # (a predicate must answer at once: an async one returns a promise, which is truthy,
        # and the wait would end before anything was looked at; so each look starts an
        # update and reads the cache names the previous look left)
        page.wait_for_function("""(old) => {
          if (!window.__looking) {
            window.__looking = (async () => {
              const registration = await navigator.serviceWorker.ready;
              await registration.update();
              window.__cacheNames = await caches.keys();
              window.__looking = null;
            })();
          }
          const names = window.__cacheNames;
          return Array.isArray(names) && names.length === 1 && names[0] !== old;
        }""", arg=first[0], timeout=60_000, polling=500)
        page.reload()
        page.wait_for_selector("[data-action=quick-play]")
        context.close()
    finally:
        server.stop()


def test_with_the_server_stopped_the_offline_page_in_both_languages(
    browser: Any, tmp_path: Path
) -> None:
    server = LiveServer(tmp_path).start()
    port = server.port
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="sv-SE")
    page = context.new_page()
    try:
        page.goto(server.url)
        page.wait_for_selector("[data-action=quick-play]")
        page.evaluate(_WORKER_READY)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    finally:
        server.stop()
    page.reload()
    page.wait_for_selector("body[data-page=offline]")
    sections = page.locator("[data-lang-text]").evaluate_all(
        "els => els.map(e => [e.lang, e.querySelector('h1').textContent])")
    assert sections == [["sv", "Chicago når inte sin server"],
                        ["en", "Chicago cannot reach its server"]]  # the reader's first
    assert page.evaluate("document.documentElement.lang") == "sv"
    assert_accessible(page, "the offline page (Swedish first)")
    page.evaluate("localStorage.setItem('chicago.lang', 'en')")
    page.reload()
    page.wait_for_selector("body[data-page=offline]")
    assert page.locator("[data-lang-text]").first.get_attribute("lang") == "en"
    assert_accessible(page, "the offline page (English first)")

    # the server is back: the page loads the app again by itself
    (tmp_path / "again").mkdir()
    back = LiveServer(tmp_path / "again", port=port).start()
    try:
        page.wait_for_selector("[data-action=quick-play]", timeout=60_000)
    finally:
        back.stop()
    context.close()


def test_the_worker_keeps_what_the_pages_load(live: LiveServer) -> None:
    """The worker the server sends names its version and the app's files (every file the
    pages load, under the version's prefix, and the offline page), not the placeholders."""
    import urllib.request

    with urllib.request.urlopen(live.url + "sw.js") as answer:
        text = answer.read().decode()
        assert answer.headers["Cache-Control"] == "no-cache"
    assert "@VERSION@" not in text and "@FILES@" not in text
    files = json.loads(text.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    version = text.split('const VERSION = "', 1)[1].split('"', 1)[0]
    assert "offline.html" in files and f"v/{version}/js/table.js" in files
    assert "index.html" not in files and not any(f.endswith("sw.js") for f in files)
