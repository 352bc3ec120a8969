"""The page recovers by itself: a reload in the middle of a deal, a dropped connection.

A reload starts from scratch (hello without a seq, a snapshot) and must show the same seat,
hand and deal. A dropped socket reconnects and resyncs by sequence number: hello with the
last seq it saw, the server sends exactly the missed messages and ``resumed``; afterwards the
page's view equals the server's true view of the seat.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from chicago.engine.viewjson import view_json
from chicago.server.core.state import AWAY_AFTER

from .driver import (
    Player,
    in_view_and_on_top,
    record_frames,
    seated_page,
    to_act,
    unbatched,
    watch,
)
from .serving import LiveServer

_COMPARED = ("deal", "phase", "round", "to_act", "scores", "hand", "stock", "exchanges",
             "trick", "played", "legal_actions", "announcements")


def _same_as_server(player: Player, table_id: str, seat: int) -> None:
    true_view = view_json(player.live.manager.tables[table_id].state.game.view(seat))
    page_view = player.view()
    for key in _COMPARED:
        assert page_view[key] == true_view[key], key
    kinds = [e["type"] for e in page_view["events"]]
    assert kinds == [e["type"] for e in true_view["events"]]


def test_quick_play_reload_in_the_middle_of_a_deal_resumes(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.goto(live.url)
    page.click("[data-action=quick-play]")  # the newcomer's button: three bots, classic rules
    page.wait_for_selector(".hand [data-card]")
    player = Player(page, live, artifacts, "reload")
    table_id, seat = player.table_id, player.seat
    assert player.state() == "turn"
    player.act()  # the first exchange
    player.state()
    before = player.view()
    assert before["deal"] == 1

    page.reload()
    page.wait_for_selector(".hand [data-card]")
    assert player.seat == seat and player.table_id == table_id
    after = player.view()
    assert after["hand"] == before["hand"] and after["deal"] == before["deal"]
    assert page.locator(".hand [data-card]").count() == len(before["hand"])
    assert player.state() == "turn"
    _same_as_server(player, table_id, seat)
    player.shot("after-reload")
    # ... and play on: three more decisions at the resumed table.
    played = player.turns
    assert player.play_deal(stop_when=lambda p: p.turns >= played + 3) == "stopped"
    _same_as_server(player, table_id, seat)
    player.shot("played-on")
    context.close()


def test_dropped_connection_resyncs_by_sequence_number(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page, table_id, seat = seated_page(
        context, live, ["open", "bot:basic", "bot:basic", "bot:random"], rules={"max_deals": 1})
    frames = record_frames(page)
    page.reload()  # a socket whose frames are recorded
    page.wait_for_selector(".hand [data-card]")
    player = Player(page, live, artifacts, "drop")
    assert player.state() == "turn"
    missed_from = player.seq()
    # Keep all five cards and cut the socket in the same moment, as a network failure
    # would: the server gets the action, the page hears nothing more until it reconnects.
    page.evaluate("() => { window.chicago.table.act('keep'); window.chicago.drop(600000); }")
    page.wait_for_selector(".conn[data-status=reconnecting]")
    table = live.manager.tables[table_id].state
    # the server goes on without the page: wait until the bots have played up to the seat's
    # next turn (the table then waits for it: nothing moves until it acts), at each frame a
    # spectator is sent
    watch(live, table_id, lambda f: f["seq"] > missed_from and to_act(f) == seat,
          "the bots to play up to the seat's next turn")
    assert table.game.to_act == seat and table.seq >= missed_from + 4, "the bots did not act"
    assert player.seq() == missed_from
    page.evaluate("window.chicago.reconnect()")
    page.wait_for_selector(".conn[data-status=open]")
    assert player.state() == "turn"
    hello_at = max(i for i, f in enumerate(frames)
                   if "sent" in f and f["sent"].get("type") == "hello")
    assert frames[hello_at]["sent"]["last_seq"] == missed_from
    after = frames[hello_at + 1:]
    resumed = [i for i, f in enumerate(after) if f.get("type") == "resumed"]
    assert resumed, "the server replays what was missed and says resumed"
    replayed = [f["seq"] for f in unbatched(after[:resumed[0]]) if f.get("type") == "update"]
    assert "update" not in [f.get("type") for f in after[:resumed[0]]]  # batches: it asks
    assert replayed == list(range(missed_from + 1, table.seq + 1))
    assert not any(f.get("type") == "snapshot" for f in after[:resumed[0]])
    assert player.seq() == table.seq
    _same_as_server(player, table_id, seat)
    player.shot("after-drop")
    assert player.play_deal() == "over"
    context.close()


CLOCK = 600
"""The turn clock of the clock test, in seconds: so long that it never runs out by itself
there; the test runs it out at the seat's turns (:func:`_run_my_clock_out`)."""

_NEWER = "(s) => window.chicago.table.conn.lastSeq >= s"


async def _expire_clock(manager: Any, table_id: str) -> tuple[bool, int]:
    """On the server's loop: run out the clock of the seat to act, as its timer does
    (:meth:`TableManager.expire_clock`); whether a decision was made, and the table's seq."""
    done: bool = await manager.expire_clock(table_id)
    return done, manager.tables[table_id].state.seq


def _run_my_clock_out(player: Player) -> None:
    """At the seat's next turn that the page does not answer by itself (a question with one
    answer), its turn clock runs out now: the table's timer would run the same code after
    the clock's time. Back when the page has heard the stand-in's decision."""
    page = player.page
    while True:
        what = player.state()
        if what == "summary":
            page.click(".deal-summary [data-action=continue]")
            continue
        assert what == "turn", what
        view, seq = page.evaluate(
            "[window.chicago.table.view, window.chicago.table.conn.lastSeq ?? -1]")
        if len(view["legal_actions"]) > 1 or view["phase"] in ("exchange", "play"):
            break
        page.wait_for_function("(s) => window.chicago.table.conn.lastSeq > s", arg=seq)
    done, seq = player.live.call(_expire_clock, player.live.manager, player.table_id)
    assert done, "the seat's clock was not running"
    page.wait_for_function(_NEWER, arg=seq)


def test_one_clock_expiry_plays_one_decision_and_three_in_a_row_mark_the_seat_away(
    browser: Any, live: LiveServer, artifacts: Path
) -> None:
    """Issue 16, the clock helps: when the turn clock (an SVG ring on the seat, a bar over
    the buttons) runs out, the stand-in makes exactly one decision and the seat stays the
    player's, whose next turn has the whole clock again; after three in a row the seat is
    away and the stand-in plays on until the player presses Back, which stays visible and
    clickable above any window. (The clock is run out by the server's hook at each turn,
    never by waiting its seconds: a busy machine cannot make it run out early or late.)"""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    recorded: list[list[dict[str, Any]]] = []
    page, table_id, seat = seated_page(
        context, live, ["open", "bot:random"], clock=CLOCK, stand_in="random",
        bot_delay=0.3, before=lambda p: recorded.append(record_frames(p)))
    frames = recorded[0]
    player = Player(page, live, artifacts, "clock")
    page.locator(".seat.mine [data-countdown=turn] svg").wait_for()  # the ring, no glyph
    assert "⏱" not in page.locator(".table-page").inner_text()
    page.locator(".prompt [data-countdown=turn].bar svg").wait_for()
    for _ in range(AWAY_AFTER):
        _run_my_clock_out(player)
    page.locator(".away-bar [data-action=back]").wait_for()
    received = [f for f in unbatched(frames) if "sent" not in f]
    clock_moves = [i for i, f in enumerate(received)
                   if f["type"] == "update" and f["by"] == "clock"]
    away = next(i for i, f in enumerate(received)
                if f["type"] == "seats" and f["change"] == "away" and f["seat"] == seat)
    # three decisions, one per clock that ran out, all for this seat; the seat went away
    # only with the third (stored just before it)
    assert len([i for i in clock_moves if i < away]) == 2 and clock_moves[2] == away + 1
    assert all(received[i]["seat"] == seat for i in clock_moves[:3])
    for first, second in itertools.pairwise(clock_moves[:3]):
        # between two of them the seat got its turn back with the whole clock again
        turns = [f for f in received[first + 1:second]
                 if (f.get("clock") or {}).get("seat") == seat]
        assert turns and turns[0]["clock"]["ms"] > CLOCK * 1000 * 2 // 3
        assert not [f for f in received[first + 1:second] if f["type"] == "seats"
                    and f is not received[away]]
    page.wait_for_function("""() => [...document.querySelectorAll('.log-list li.auto')]
      .filter(li => li.innerText.includes('Your time ran out')).length >= 2""")
    assert live.manager.tables[table_id].state.seats[seat].away
    # the Back button is above any window: here the scores
    page.keyboard.press("s")
    page.locator("[data-dialog=scores]").wait_for()
    in_view_and_on_top(page, ".away-bar [data-action=back]")
    player.shot("away")
    page.click(".away-bar [data-action=back]")
    page.locator(".away-bar").wait_for(state="detached")
    assert not live.manager.tables[table_id].state.seats[seat].away
    context.close()
