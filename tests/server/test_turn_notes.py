"""The turn notes of "Your games" (issue 26) cost a live table nothing when nobody can hear
them (issue 28, fifteenth pass): a note that it is someone's turn goes on the bus only for a
topic a handler may hear. On one worker (the in-process bus) that is a site page listening
in this process; with other workers (Redis) every note is published, since their pages are
not known here. Counted, never timed: the background tasks spawned for notes per move.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from server_support import UPDATES, WsPlayer, create_table, join
from starlette.testclient import TestClient

from chicago.server.bus import InProcessBus

pytestmark = pytest.mark.timeout(180)

BOTS = ["bot:basic"] * 3


def _note_tasks(client: TestClient) -> list[str]:
    """The names of the coroutines the table manager spawns from now on (its ``Tasks``),
    recorded as they are spawned."""
    manager = client.app.state.manager  # type: ignore[attr-defined]
    spawned: list[str] = []
    spawn = manager.tasks.spawn

    def counting(coro: Any) -> None:
        spawned.append(coro.__qualname__)
        spawn(coro)

    manager.tasks.spawn = counting
    return spawned


def _my_turn(player: WsPlayer) -> bool:
    state = player.state
    return bool(state["to_act"] == player.you and state["legal_actions"] and not player.over)


def _play(player: WsPlayer, moves: int) -> int:
    """The person makes up to ``moves`` moves (the bots reply at once); how many it made."""
    made = 0
    while made < moves and not player.over:
        while not _my_turn(player) and not player.over:
            player.recv()
        if player.over:
            break
        player.send(type="act", action=player.state["legal_actions"][0], seq=player.seq)
        player.until(lambda f: f["type"] in UPDATES)
        made += 1
    return made


def test_a_move_at_a_table_of_bots_spawns_no_task_for_notes_nobody_hears(
        client: TestClient) -> None:
    """One guest and three ``basic`` bots, no site page open: each person move changes whose
    turn it is twice (to a bot, back to the person), and no note task is spawned for it
    (before: one per change, about two a move)."""
    info = create_table(client, ["open", *BOTS])
    player = WsPlayer(client, info["id"], join(client, info["id"], 0), batch=True)
    spawned = _note_tasks(client)
    made = _play(player, 6)
    assert made >= 3
    notes = [name for name in spawned if name.endswith("publish_note")]
    assert notes == [], f"{len(notes)} note tasks for {made} moves"


def test_a_site_page_that_listens_still_hears_that_it_is_your_turn(
        client: TestClient) -> None:
    """The same table with the guest's site page open (its seat token in ``hello``): the
    notes of its seat are published and the page is told the turns again."""
    info = create_table(client, ["open", *BOTS])
    token = join(client, info["id"], 0)
    player = WsPlayer(client, info["id"], token, batch=True)
    with client.websocket_connect("/ws/site") as site:
        site.send_text(json.dumps({"type": "hello", "profile": None, "tokens": [token]}))
        first = json.loads(site.receive_text())
        assert first["type"] == "turns"
        spawned = _note_tasks(client)
        assert _play(player, 1) == 1
        notes = [name for name in spawned if name.endswith("publish_note")]
        assert notes, "the listening page's topic got no note"
        frame = json.loads(site.receive_text())
        assert frame["type"] == "turns"


def test_the_in_process_bus_says_which_topics_are_heard() -> None:
    """A topic is heard while a handler is subscribed to it, and no longer after."""
    bus = InProcessBus()
    assert not bus.note_heard("turns:t:x")
    subscription = bus.subscribe_note("turns:t:x", lambda topic, note: None)
    assert bus.note_heard("turns:t:x") and not bus.note_heard("turns:t:y")
    subscription.close()
    assert not bus.note_heard("turns:t:x")
