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

from .driver import Player, record_frames, seated_page, to_act, unbatched, watch
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
    page, table_id, seat, frames = _seated_and_recorded(context, live)
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


async def _move_as_another_tab(manager: Any, table_id: str, seat: int, chat: bool) -> int:
    """On the server's loop: the seat's move while its page is away, as from another tab
    (Continue in a deal's pause, else its first legal action; the bots reply at once), and
    a chat line after it if ``chat``. The table's seq after it."""
    table = manager.tables[table_id]
    state = table.state
    if state.pause is not None:
        await manager.continue_deal(table, seat)
    elif state.current.to_act == seat:
        await manager.act(table, seat, sorted(str(a) for a in state.current.legal_actions())[0])
    if chat:
        await manager.chat(table, seat, "back in a minute")
    return int(state.seq)


_CAUGHT_UP = """(seq) => {
  const tb = window.chicago && window.chicago.table;
  return tb && tb.conn.status === 'open' && tb.conn.lastSeq === seq
    && !tb.rest && !tb.stepping && !tb.held.length;
}"""


def _seated_and_recorded(context: Any,
                         live: LiveServer) -> tuple[Any, str, int, list[dict[str, Any]]]:
    """A page seated at a table of a person and three bots for two deals, and the frames it
    receives, recorded from its first one: (page, table id, seat, frames)."""
    recorded: dict[str, list[dict[str, Any]]] = {}

    def record(new_page: Any) -> None:
        recorded["frames"] = record_frames(new_page)

    page, table_id, seat = seated_page(context, live,
                                       ["open", "bot:basic", "bot:basic", "bot:random"],
                                       rules={"max_deals": 2}, before=record)
    return page, table_id, seat, recorded["frames"]

def test_a_replay_after_a_drop_comes_in_batches_and_the_page_shows_the_table_now(
    browser: Any, live: LiveServer
) -> None:
    """The page's socket drops in the play (at the third trick: a longer absence gets a
    snapshot, frames.REPLAY_STATES); meanwhile the seat plays on from another tab
    (tricks end, the deal ends, Continue, the next deal is dealt, a chat line) and the bots
    answer. Back, the page says hello with its last seq and gets the missed updates in
    batches (one per run of updates: the chat line and the Continue come between them),
    applies them at once (no steps, no finished trick resting), and shows the table as it
    is: the seat's hand (the new deal's), the trick, whose turn, the scores, the same view
    as the server's (R-TRICK-4: each trick's end came with its state)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page, table_id, seat, frames = _seated_and_recorded(context, live)
    player = Player(page, live)
    while player.state() == "turn" and player.view()["trick_number"] < 3:
        player.act()  # the exchanges and two tricks: three tricks of the deal are missed
    assert player.view()["phase"] == "play"
    missed_from = player.seq()
    page.evaluate("window.chicago.drop(600000)")
    page.wait_for_selector(".conn[data-status=reconnecting]")

    table = live.manager.tables[table_id].state
    deal, seq = table.current.deal_number, missed_from
    for move in range(40):
        if table.current.deal_number > deal and table.current.phase.value != "play" \
                and table.current.to_act == seat and table.pause is None:
            break  # the next deal's first turn of the seat
        watch(live, table_id, lambda f, since=seq: (f["seq"] >= since and to_act(f) == seat)
              or (f["type"] == "snapshot" and f["table"]["pause"] is not None),
              "the seat's turn or a deal's pause")
        seq = live.call(_move_as_another_tab, live.manager, table_id, seat, move == 1)
    assert table.current.deal_number == deal + 1 and player.seq() == missed_from

    rests = page.evaluate("(window.chicago.rests || []).length")
    page.evaluate("window.chicago.reconnect()")
    page.wait_for_function(_CAUGHT_UP, arg=table.seq)
    # caught up at once: no replayed trick was kept resting in the middle
    assert page.evaluate("(window.chicago.rests || []).length") == rests
    hello_at = max(i for i, f in enumerate(frames)
                   if "sent" in f and f["sent"].get("type") == "hello")
    assert frames[hello_at]["sent"]["last_seq"] == missed_from
    after = frames[hello_at + 1:]
    resumed = next(i for i, f in enumerate(after) if f.get("type") == "resumed")
    replay = after[:resumed]
    kinds = [f["type"] for f in replay]
    # the chat line splits the missed updates; after the Continue come the bots' first
    # moves of the next deal, unless the seat leads it
    assert "update" not in kinds and kinds.count("batch") >= 2, kinds
    assert {"chat", "continue"} <= set(kinds)
    assert [f["seq"] for f in unbatched(replay)] == list(range(missed_from + 1, table.seq + 1))

    true_view = view_json(table.current.view(seat))
    page_view = player.view()
    for key in ("deal", "phase", "hand", "trick", "scores", "to_act", "legal_actions",
                "hand_sizes", "tricks", "played"):
        assert page_view[key] == true_view[key], key
    assert [e["type"] for e in page_view["events"]] == [e["type"] for e in true_view["events"]]
    shown = page.eval_on_selector_all(".hand [data-card]", "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(true_view["hand"])
    what = player.state()
    if what == "summary":  # the summary of the deal that ended while away, until read
        page.click(".deal-summary [data-action=continue]")
        what = player.state()
    assert what == "turn"
    context.close()
