"""Issue 28: the app takes batched updates. It says ``"batch": true`` in hello, and a whole
game plays through on batches (a person's action and the bots' replies in one frame); the
updates of a batch are shown one after another, so every card a bot plays is seen in the
middle of the table on its own, before the next one (R-TRICK-1: each seat plays one card in
turn), and the page ends with the server's view. With the system's reduced motion a batch
is shown at once.

The page is looked at on every change (a MutationObserver), never at times.
"""

from __future__ import annotations

from typing import Any

import pytest

from chicago.engine.viewjson import view_json

from .driver import Player, record_frames, seated_page, unbatched
from .serving import LiveServer

# At every change of the page: the cards of the trick being played in the middle, in order.
_SAMPLER = """
window.__tricks = new Set();
new MutationObserver(() => {
  const cards = [...document.querySelectorAll('.center .trick [data-card]')];
  if (cards.length) window.__tricks.add(cards.map((el) => el.dataset.card).join(' '));
}).observe(document, {childList: true, subtree: true});
"""

_SETTLED = """() => {
  const tb = window.chicago && window.chicago.table;
  return tb && !tb.rest && !tb.stepping && !tb.held.length
    && !!document.querySelector('[data-dialog=game-over]');
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_game_plays_through_on_batches_and_every_bots_card_is_seen(
    browser: Any, live: LiveServer, motion: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  reduced_motion=motion)
    context.add_init_script(_SAMPLER)
    recorded: dict[str, list[dict[str, Any]]] = {}

    def record(new_page: Any) -> None:
        recorded["frames"] = record_frames(new_page)

    page, table_id, seat = seated_page(context, live,
                                       ["open", "bot:basic", "bot:basic", "bot:random"],
                                       rules={"max_deals": 2}, before=record)
    frames = recorded["frames"]
    player = Player(page, live)
    while (what := player.state()) != "over":
        if what == "summary":  # the first deal's summary: go on
            page.click(".deal-summary [data-action=continue]")
        else:
            player.act()
    page.wait_for_function(_SETTLED)

    hellos = [f["sent"] for f in frames if "sent" in f and f["sent"]["type"] == "hello"]
    assert hellos and all(h.get("batch") is True for h in hellos)
    received = [f for f in frames if "sent" not in f]
    batches = [f for f in received if f["type"] == "batch"]
    assert not [f for f in received if f["type"] == "update"]  # no replay was needed
    assert max(len(b["updates"]) for b in batches) >= 3  # an action with the bots' replies
    plays = [ev for f in unbatched(received) if f["type"] == "update"
             for ev in f["events"] if ev["type"] == "play"]
    assert len(plays) == 2 * 5 * 4  # two deals of five tricks of four cards
    tricks = [[ev["card"] for ev in plays[i:i + 4]] for i in range(0, len(plays), 4)]
    if motion == "no-preference":
        # each card was on show in the middle before the next one came, though most came
        # in one frame with the cards before or after them
        seen = set(page.evaluate("[...window.__tricks]"))
        for cards in tricks:
            for n in range(1, 4):
                assert " ".join(cards[:n]) in seen, (cards, n, sorted(seen))
    true_view = view_json(live.manager.tables[table_id].state.game.view(seat))
    page_view = player.view()
    for key in ("hand", "scores", "to_act", "over", "winners", "tricks", "played"):
        assert page_view[key] == true_view[key], key
    assert [e["type"] for e in page_view["events"]] == [e["type"] for e in true_view["events"]]
    context.close()
