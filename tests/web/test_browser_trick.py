"""Issue 27: the finished trick at rest, and the previous trick on a key and a button.

The table is looked at on every change of the page (a MutationObserver, not a sampling
period a busy machine could miss) while a whole deal is played by clicking: every trick the
server finished (R-TRICK-3: the highest card of the suit led wins it) must have been seen
resting in the middle with all its cards and its winner marked before it was gathered. At a
table of bots only nothing rests. In the tricks the previous trick can be looked at again at
any time, with the L key or the Previous trick button (keyboard only), and the rest is a
setting of the table page, remembered in the browser.
"""

from __future__ import annotations

from typing import Any

from .driver import Player, api, record_frames, seated_page, unbatched
from .serving import LiveServer

# At every change of the page: the trick resting in the middle, if any (number, winner,
# cards, marked winner).
_SAMPLER = """
window.__rests = [];
new MutationObserver(() => {
  const rest = document.querySelector('.center .finished-trick[data-rest]');
  if (!rest) return;
  const star = rest.querySelector('.played-card.winner');
  window.__rests.push({
    trick: Number(rest.dataset.trick), winner: Number(rest.dataset.winner),
    cards: rest.querySelectorAll('[data-card]').length,
    marked: star ? Number(star.dataset.seat) : null,
    said: (rest.querySelector('.trick-winner') || {}).textContent || '',
  });
}).observe(document, {childList: true, subtree: true});
"""


def _tricks_of(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The trick events the page was sent, in order."""
    return [ev for f in unbatched(frames) if f.get("type") == "update"
            for ev in f.get("events", []) if ev["type"] == "trick"]


def test_every_finished_trick_rests_in_the_middle_with_its_winner_marked(
    browser: Any, live: LiveServer
) -> None:
    """R-TRICK-3, R-TRICK-4: looked at on every change through a whole deal, each of the five
    tricks rests with its four cards, the winner starred and named, then is gathered."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(_SAMPLER)
    recorded: dict[str, list[dict[str, Any]]] = {}

    def record(new_page: Any) -> None:
        recorded["frames"] = record_frames(new_page)

    page, _, _ = seated_page(context, live, ["open", "bot:basic", "bot:basic", "bot:basic"],
                             rules={"max_deals": 1}, before=record)
    frames = recorded["frames"]
    player = Player(page, live)
    assert player.play_deal() in ("summary", "over")
    page.wait_for_function("() => !window.chicago.table.rest && !window.chicago.table.held.length")
    tricks = _tricks_of(frames)
    assert len(tricks) >= 1
    seen = page.evaluate("window.__rests")
    for trick in tricks:
        at_rest = [s for s in seen if s["trick"] == trick["trick"]]
        assert at_rest, f"trick {trick['trick']} was never seen at rest: {seen}"
        assert all(s["winner"] == trick["winner"] == s["marked"] for s in at_rest)
        assert all(s["cards"] == 4 for s in at_rest)
        assert all(f"trick {trick['trick']}" in s["said"] for s in at_rest)
    context.close()


def test_a_table_of_bots_only_gathers_each_trick_at_once(browser: Any, live: LiveServer) -> None:
    """Nobody plays at a table of bots only: watching it, no trick rests (and the setting
    is not offered there)."""
    table = api(live, "POST", "api/tables", {"seats": ["bot:basic"] * 3, "bot_delay": 0.5,
                                             "rules": {"max_deals": 1}})
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(_SAMPLER)
    page = context.new_page()
    frames = record_frames(page)
    page.goto(f"{live.url}#/watch/{table['id']}")
    page.wait_for_selector(".table-page")
    page.wait_for_function("() => window.chicago.table && window.chicago.table.view "
                           "&& window.chicago.table.view.over", timeout=60_000)
    assert page.locator("#trick-rest").count() == 0
    assert page.evaluate("window.__rests") == []
    assert page.evaluate("(window.chicago.rests || []).length") == 0
    assert _tricks_of(frames), "no trick was played while the page watched"
    context.close()


def test_the_previous_trick_by_key_and_button_and_the_rest_setting(
    browser: Any, live: LiveServer
) -> None:
    """Keyboard only: in the tricks L opens the previous trick (its cards, its winner),
    L or Esc closes it, the button does the same; before the first trick is finished the
    window says so. The rest's setting is remembered: "Gather at once" rests nothing."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page, _, _ = seated_page(context, live, ["open", "bot:basic", "bot:basic", "bot:basic"],
                             rules={"max_deals": 1})
    player = Player(page, live)
    while True:  # up to the tricks
        assert player.state() == "turn"
        if page.get_attribute(".table-page", "data-phase") == "play":
            break
        player.act()
    assert page.locator("[data-action=last-trick]").count() == 1
    view = player.view()
    page.keyboard.press("l")
    dialog = page.locator("[data-dialog=last-trick]")
    dialog.wait_for()
    if not view["tricks"]:
        assert "No trick has been finished" in dialog.inner_text()
        page.keyboard.press("Escape")
        dialog.wait_for(state="detached")
        while not player.view()["tricks"]:
            assert player.state() == "turn"
            player.act()
        page.wait_for_function("() => !window.chicago.table.rest")
        page.keyboard.press("l")
        dialog.wait_for()
    last = player.view()["tricks"][-1]
    shown = dialog.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert shown == [p["card"] for p in last["cards"]]
    assert dialog.locator(".played-card.winner").get_attribute("data-seat") == \
        str(last["winner"])
    assert page.evaluate("document.activeElement.closest('[data-dialog=last-trick]') !== null")
    page.keyboard.press("l")  # the same key closes it
    dialog.wait_for(state="detached")
    page.locator("[data-action=last-trick]").focus()
    page.keyboard.press("Enter")
    dialog.wait_for()
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")

    # the setting: no rest at all, remembered in this browser
    page.select_option("#trick-rest", "0")
    assert page.evaluate("localStorage.getItem('chicago.option.trickRest')") == "0"
    page.evaluate("window.chicago.rests = []")
    before = len(player.view()["tricks"])
    while len(player.view()["tricks"]) == before and player.view()["phase"] == "play":
        assert player.state() == "turn"
        player.act()
    assert page.evaluate("window.chicago.rests") == []
    page.reload()
    page.wait_for_selector(".table-page")
    assert page.locator("#trick-rest").input_value() == "0"
    context.close()
