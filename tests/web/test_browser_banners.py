"""Issue 27: banners stay until read, and no card flies over words.

A deal is played as fast as the page allows (the bots without delay, each of the player's
turns answered as soon as it comes). A MutationObserver notes when each banner of a key
moment enters and leaves the page (the page's own clock): each stays at least its least
time (:data:`LEAST_MS`) unless the player closes it, and its close button
takes it away at once. On every animation frame the words of the banners and of the deal's
summary are probed under the cards in flight: no card in flight is over them.
"""

from __future__ import annotations

from typing import Any

from .driver import Player, seated_page
from .serving import LiveServer

LEAST_MS = 4000
"""Long enough to read a banner's sentence (moments.js keeps one 4.5 s: MOMENT_MIN_MS)."""

# Each banner's first and last moment in the page; on every frame, whether a card in flight
# covers a point of a banner's or the summary's words (the layer of flying cards takes no
# clicks, so for the probe it is made to take them, and given back at once).
_WATCH = """
window.__banners = {}; window.__covered = []; window.__probes = 0;
const look = () => {
  const now = performance.now();
  const here = new Set();
  for (const el of document.querySelectorAll('.moment')) {
    const id = el.dataset.kind + ': ' + (el.querySelector('strong') || el).textContent;
    here.add(id);
    const b = window.__banners[id] ||= {first: now, last: now, gone: null, kind: el.dataset.kind};
    b.last = now;
  }
  for (const [id, b] of Object.entries(window.__banners)) {
    if (!here.has(id) && b.gone === null) b.gone = now;
    if (here.has(id)) b.gone = null;
  }
};
new MutationObserver(look).observe(document, {childList: true, subtree: true});
const probe = () => {
  const layer = document.querySelector('.motion-layer');
  const flying = layer ? layer.querySelectorAll('.flying') : [];
  if (flying.length) {
    const texts = document.querySelectorAll('.moment p, .deal-summary .sum-body, .deal-summary h2');
    const old = [];
    for (const el of [layer, ...flying]) {
      old.push(el.style.pointerEvents);
      el.style.pointerEvents = 'auto';
    }
    for (const el of texts) {
      const r = el.getBoundingClientRect();
      // a banner scrolled out of the stack's box is out of sight: only what shows counts
      const stack = el.closest('.moments');
      const box = stack ? stack.getBoundingClientRect() : null;
      for (const fx of [0.2, 0.5, 0.8]) for (const fy of [0.25, 0.75]) {
        const x = r.left + r.width * fx, y = r.top + r.height * fy;
        if (box && (y < box.top || y > box.bottom)) continue;
        const hit = document.elementFromPoint(x, y);
        window.__probes += 1;
        const where = el.className + ' at ' + Math.round(x) + ',' + Math.round(y);
        if (hit && layer.contains(hit)) window.__covered.push(where);
      }
    }
    [layer, ...flying].forEach((el, i) => { el.style.pointerEvents = old[i]; });
  }
  requestAnimationFrame(probe);
};
requestAnimationFrame(probe);
"""


def test_banners_stay_their_least_time_under_fast_play_and_no_card_flies_over_words(
    browser: Any, live: LiveServer
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    context.add_init_script(_WATCH)
    page, _, _ = seated_page(context, live, ["open", "bot:basic", "bot:basic", "bot:basic"],
                             rules={"max_deals": 2})  # the pause: 120 s
    player = Player(page, live)
    least = LEAST_MS
    assert player.play_deal() == "summary"
    banners = page.evaluate("window.__banners")
    assert banners, "no banner in a whole deal"
    gone = {i: b for i, b in banners.items() if b["gone"] is not None}
    for moment, seen in gone.items():
        shown = seen["gone"] - seen["first"]
        assert shown >= least, f"banner {moment} ({seen['kind']}) went after {shown:.0f} ms"
    assert page.evaluate("window.__probes") > 0, "no card flew while words were shown"
    assert page.evaluate("window.__covered") == [], "a card in flight covered words"

    # a banner still up is closed by its button, from the keyboard
    page.evaluate("window.chicago.table.showMoments([{kind: 'round', text: 'Test banner', "
                  "detail: null}])")
    close = page.locator(".moment:has-text('Test banner') button.close")
    close.focus()
    page.keyboard.press("Enter")
    page.locator(".moment:has-text('Test banner')").wait_for(state="detached")
    context.close()
