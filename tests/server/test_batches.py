"""Batched updates (issue 28): a client that says ``"batch": true`` in hello gets the updates
of one burst (a person's action and the bots' replies stored with it) in one ``batch``
frame, the state only on its last update and on those that end a trick (R-TRICK-4: the
trick's winner is shown before the next one is led); a client that did not say so gets
exactly the frames it got before; a bad ``batch`` changes nothing; a batched client that
reconnects is brought up to date as any other."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from server_support import UPDATES, WsPlayer, close_all, create_table, join
from starlette.testclient import TestClient

from chicago import Rules
from chicago.engine.viewjson import view_json
from chicago.server import Settings, create_app, fanout
from chicago.server.bus import InProcessBus
from chicago.server.core import frames
from chicago.server.core.decide import TableSpec
from chicago.server.core.seats import TableOptions
from chicago.server.protocol import STATE_KEYS
from chicago.server.storage import Store
from chicago.server.tables import TableManager

pytestmark = pytest.mark.timeout(300)

SEATS = ["open", "bot:basic", "bot:basic", "bot:random"]


def _updates(player: WsPlayer) -> list[dict[str, Any]]:
    """Every update a connection received, those of its batches in their order."""
    found: list[dict[str, Any]] = []
    for frame in player.frames:
        if frame["type"] == "update":
            found.append(frame)
        elif frame["type"] == "batch":
            found.extend(frame["updates"])
    return found


def _ends_trick(update: dict[str, Any]) -> bool:
    return any(e["type"] == "trick" for e in update["events"])


def _play(person: WsPlayer, watchers: list[WsPlayer], rng: random.Random) -> int:
    """Play the person's seat until the game is over (the bots answer on the server); every
    watcher reads up to the end. Returns the number of the person's actions."""
    moves = 0
    while not person.over:
        view = person.state
        if view["to_act"] == person.you and view["legal_actions"]:
            person.send(type="act", action=rng.choice(view["legal_actions"]), seq=person.seq)
            moves += 1
            person.until(lambda f: f["type"] in UPDATES)
        else:
            person.until(lambda f: f["type"] in (*UPDATES, "game_over"))
    for watcher in watchers:
        watcher.sync(person.seq)
        if not watcher.over:
            watcher.until(lambda f: f["type"] == "game_over")
    return moves


def test_a_batched_client_gets_one_batch_per_burst(client: TestClient) -> None:
    """The person plays on a batched connection; a second, unbatched connection of the same
    seat and two spectators (one of each kind) watch. The batched ones get no lone update,
    one batch per person's action (holding the action and every bot reply up to the
    person's next turn), the state on the last update and on each that ends a trick only,
    the same updates otherwise, and end with the same view as the unbatched ones."""
    info = create_table(client, SEATS, rules={"max_deals": 3})
    token = join(client, info["id"], 0, "Pia")
    person = WsPlayer(client, info["id"], token, batch=True)
    plain = WsPlayer(client, info["id"], token)
    watcher = WsPlayer(client, info["id"], batch=True)
    plain_watcher = WsPlayer(client, info["id"])
    moves = _play(person, [plain, watcher, plain_watcher], random.Random(11))
    assert moves > 10

    for batched, unbatched in ((person, plain), (watcher, plain_watcher)):
        assert not [f for f in batched.frames if f["type"] == "update"]
        batches = [f for f in batched.frames if f["type"] == "batch"]
        by_player = [b for b in batches if b["updates"][0]["by"] == "player"]
        if batched is person:
            assert len(by_player) == moves  # each action starts a batch of its own …
        for frame in batches:
            updates = frame["updates"]
            # … with no other person's action in it, and its replies all in it
            assert all(u["by"] != "player" for u in updates[1:])
            assert [u["seq"] for u in updates] == list(
                range(updates[0]["seq"], updates[0]["seq"] + len(updates)))
            for number, update in enumerate(updates):
                last = number == len(updates) - 1
                assert (update["state"] is not None) == (last or _ends_trick(update)), update
                if update["state"] is None:
                    assert update["clock"] is None and "pause" not in update
        # the batches that a timer started (not a person's action) come only where the
        # bots lead: the game's first turns, none in between the person's actions
        assert len(batches) - len(by_player) <= 1
        replies = [len(b["updates"]) - 1 for b in by_player]
        assert max(replies) > len(SEATS) - 1  # a burst ran on across a trick's end
        assert sum(len(b["updates"]) for b in batches) > 3 * moves

        # the same updates, the state where a batch carries it
        plain_updates = {u["seq"]: u for u in _updates(unbatched)}
        got = _updates(batched)
        assert [u["seq"] for u in got] == sorted(plain_updates)
        for update in got:
            twin = plain_updates[update["seq"]]
            assert {k: v for k, v in update.items() if k not in ("state", "clock", "pause")} == \
                {k: v for k, v in twin.items() if k not in ("state", "clock", "pause")}
            if update["state"] is not None:
                assert update["state"] == twin["state"]
        assert batched.view == unbatched.view
        over = [f for f in batched.frames if f["type"] == "game_over"]
        assert len(over) == 1 and batched.frames.index(over[0]) > batched.frames.index(
            batches[-1])  # the game's end after its last batch
    assert person.view is not None and person.view["over"]


def _frames_of_a_seeded_game(settings: Settings, path: str, *, with_batched: bool
                             ) -> list[str]:
    """The frames an unbatched person's connection gets through one seeded game, with a
    batched connection of the same seat watching or not."""
    with TestClient(create_app(dataclasses.replace(
            settings, db_url=f"sqlite:///{path}"))) as client:
        try:
            info = create_table(client, SEATS)
            token = join(client, info["id"], 0, "Pia")
            person = WsPlayer(client, info["id"], token)
            others = [WsPlayer(client, info["id"], token, batch=True)] if with_batched else []
            _play(person, others, random.Random(5))
            return person.texts
        finally:
            close_all()


def test_an_unbatched_client_gets_the_frames_it_got_before(settings: Settings,
                                                            tmp_path: Any) -> None:
    """A client that says nothing of batches gets lone updates, each with the state, and the
    very same frames whether a batched client watches the same seat or not."""
    alone = _frames_of_a_seeded_game(settings, str(tmp_path / "a.sqlite3"),
                                     with_batched=False)
    beside = _frames_of_a_seeded_game(settings, str(tmp_path / "b.sqlite3"),
                                      with_batched=True)
    frames = [json.loads(t) for t in alone]
    assert not [f for f in frames if f["type"] == "batch"]
    updates = [f for f in frames if f["type"] == "update"]
    assert len(updates) > 20 and all(u["state"] is not None for u in updates)
    assert _timeless(alone) == _timeless(beside)


TIMES = ("created", "updated", "ms")
"""The fields of frames that tell the time (when a table was made, a time left)."""


def _timeless(texts: list[str]) -> list[Any]:
    """The frames but for the presence frames (the second tab shows up) and their times."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in TIMES}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return [strip(json.loads(t)) for t in texts if '"type":"presence"' not in t]


@pytest.mark.parametrize("value", ['"yes"', "1", "0", "[]", "{}", '"true"'])
def test_a_bad_batch_in_hello_is_refused_and_changes_nothing(client: TestClient,
                                                             value: str) -> None:
    """``batch`` must be true or false: anything else is a clear ``bad_message``, and the
    connection stays as it was (unbatched: the next action still comes as an update)."""
    info = create_table(client, ["open", "bot:random"])
    token = join(client, info["id"], 0, "Pia")
    me = WsPlayer(client, info["id"], token)
    seq = me.seq
    me.send_raw(f'{{"type": "hello", "token": "{token}", "batch": {value}, "id": "h"}}')
    error = me.until(lambda f: f["type"] == "error", errors_ok=True)
    assert error["code"] == "bad_message" and error["id"] == "h"
    assert '"batch" must be true or false' in error["message"]
    assert client.get(f"/api/tables/{info['id']}").json()["seq"] == seq
    fresh = WsPlayer(client, info["id"], hello=False)  # refused before hello: not greeted
    fresh.send_raw(f'{{"type": "hello", "batch": {value}}}')
    assert fresh.until(lambda f: f["type"] == "error", errors_ok=True)["code"] == "bad_message"
    fresh.send(type="view")
    assert fresh.until(lambda f: f["type"] == "error", errors_ok=True)["code"] == (
        "hello_required")
    while me.state["to_act"] != 0:
        me.until(lambda f: f["type"] == "update")
    me.send(type="act", action=me.state["legal_actions"][0], seq=me.seq)
    assert me.until(lambda f: f["type"] in UPDATES)["type"] == "update"


def test_a_batched_client_that_reconnects_is_brought_up_to_date(client: TestClient) -> None:
    """A batched connection that drops and comes back with its last seq gets the updates it
    missed in a batch (the last with the state) and ``resumed``, or a snapshot without a seq; either
    way its view is the seat's whole view, and it gets batches again after."""
    info = create_table(client, SEATS, rules={"max_deals": 5})
    token = join(client, info["id"], 0, "Pia")
    person = WsPlayer(client, info["id"], token, batch=True)
    plain = WsPlayer(client, info["id"], token)
    rng = random.Random(7)
    for step in range(12):
        while person.state["to_act"] != 0:
            person.until(lambda f: f["type"] in UPDATES)
        person.send(type="act", action=rng.choice(person.state["legal_actions"]),
                    seq=person.seq)
        person.until(lambda f: f["type"] in UPDATES)
        if step % 3 == 1:  # a move made on another tab while this one is away
            last, view = person.seq, person.view
            person.close()
            plain.sync(last)
            while plain.state["to_act"] != 0:
                plain.until(lambda f: f["type"] == "update")
            plain.send(type="act", action=rng.choice(plain.state["legal_actions"]),
                       seq=plain.seq)
            plain.until(lambda f: f["type"] == "update" and f["seat"] == 0)
            resume = step % 2 == 1
            person = WsPlayer(client, info["id"], token, last_seq=last if resume else None,
                              view=view, batch=True)
            kinds = [f["type"] for f in person.frames]
            assert kinds[-1] == ("resumed" if resume else "snapshot")
            if resume:  # the missed updates in a batch, not alone
                assert "batch" in kinds and "update" not in kinds
        plain.sync(person.seq)
        person.sync(plain.seq)
        assert person.view == plain.view
        snapshot = person.hello(person.seq)  # nothing missed: resumed at once
        assert snapshot["type"] == "resumed"
    assert any(f["type"] == "batch" for f in person.frames)


@pytest.fixture
def two_players(client: TestClient) -> Iterator[tuple[str, WsPlayer, WsPlayer]]:
    info = create_table(client, ["open", "open", "bot:basic"])
    yield (info["id"], WsPlayer(client, info["id"], join(client, info["id"], 0), batch=True),
           WsPlayer(client, info["id"], join(client, info["id"], 1)))


def test_batches_and_updates_interleave_with_the_other_frames_in_seq_order(
        two_players: tuple[str, WsPlayer, WsPlayer]) -> None:
    """Chat lines between actions come in seq order for a batched connection too: a batch
    holds a run of updates and is sent before any frame that follows it."""
    _, first, second = two_players
    rng = random.Random(3)
    chats = 0
    for _ in range(20):
        for player in (first, second):
            player.sync(max(first.seq, second.seq))
        seat = first.state["to_act"]
        if seat is None:
            break
        player = first if seat == 0 else second
        player.send(type="act", action=rng.choice(player.state["legal_actions"]),
                    seq=player.seq)
        if first.seq % 3 == 0 and chats < 5:  # within the chat limit's burst
            chats += 1
            second.send(type="chat", text="hm")
            second.until(lambda f: f["type"] == "chat")
    first.sync(second.seq)
    seqs = [f["seq"] for f in first.frames]
    assert seqs == sorted(seqs)
    assert any(f["type"] == "chat" for f in first.frames)
    assert any(f["type"] == "batch" for f in first.frames)


class _Recorder:
    """A batched :class:`~chicago.server.core.ports.Client` of one seat that keeps its
    frames and the seat's state as docs/PROTOCOL.md tells clients to."""

    def __init__(self, seat: int) -> None:
        self.seat: int | None = seat
        self.token_hash: str | None = None
        self.grant: str | None = None
        self.closed = False
        self.batched = True
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.seq = 0
        self.over = False
        self.changed = asyncio.Event()

    def send(self, text: str) -> None:
        frame = json.loads(text)
        self.frames.append(frame)
        for part in frame["updates"] if frame["type"] == "batch" else [frame]:
            seen = part.get("view") or part.get("state")
            if seen is not None:
                self.state.update(seen)
            self.seq = max(self.seq, part["seq"])
        self.over = self.over or frame["type"] == "game_over"
        self.changed.set()

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = True


class _WaitingBus(InProcessBus):
    """An in-process bus that waits after each entry it publishes, as a bus over the
    network waits for its server (:class:`chicago.server.redis_bus.RedisBus`): other work of
    the loop (``meanwhile``, a request answered then) may come in the middle of a burst."""

    def __init__(self) -> None:
        super().__init__()
        self.meanwhile: list[Any] = []
        self.published = 0

    async def publish(self, table_id: str, entry: Any) -> None:
        await super().publish(table_id, entry)
        self.published += 1
        await asyncio.sleep(0)
        for work in self.meanwhile:
            work(self.published)


def test_frames_sent_in_the_middle_of_a_burst_come_after_its_updates(tmp_path: Any) -> None:
    """A burst whose bus waits between entries: a snapshot asked for and a presence frame
    sent in the middle of it come after the updates before them (the seq of the frames on a
    connection never goes down, and no update comes after a frame that has its seq), and the
    batched client still ends at the seat's view."""
    async def scenario() -> tuple[_Recorder, dict[str, Any]]:
        url = f"sqlite:///{tmp_path / 'waiting.sqlite3'}"
        store = Store(url)
        store.migrate()
        bus = _WaitingBus()
        manager = TableManager(store, Settings(db_url=url, seed=9, review_workers=0,
                                               resume_tables=False), bus)
        await manager.start()
        try:
            table = await manager.create(TableSpec(
                Rules.preset("pagat").replace(max_deals=1), SEATS, TableOptions()))
            token, seat = await manager.join(table.id, 0, "Pia")
            client = _Recorder(seat)
            await manager.hello(table, client, token, None, True)

            def meanwhile(published: int) -> None:
                if published % 3 == 0:
                    manager.snapshot(table, client, "view")
                elif published % 3 == 1:
                    fanout.broadcast(table, frames.presence(table.state))

            bus.meanwhile.append(meanwhile)
            while not client.over:
                mine = client.state["to_act"] == seat and client.state["legal_actions"]
                if mine and client.seq == table.state.seq:
                    await manager.act(table, seat, client.state["legal_actions"][0])
                else:
                    client.changed.clear()
                    await asyncio.wait_for(client.changed.wait(), 60)
            return client, view_json(table.state.current.view(seat))
        finally:
            await manager.stop()

    client, view = asyncio.run(scenario())
    last = 0
    for frame in client.frames:  # an update is always news: beyond every seq seen before it
        for part in frame["updates"] if frame["type"] == "batch" else [frame]:
            assert part["seq"] > last if part["type"] == "update" else part["seq"] >= last, (
                part["type"], part["seq"], last)
            last = max(last, part["seq"])
    kinds = {f["type"] for f in client.frames}
    assert {"batch", "snapshot", "presence"} <= kinds
    assert any(len(f["updates"]) > 1 for f in client.frames if f["type"] == "batch")
    assert {k: v for k, v in client.state.items() if k in STATE_KEYS} == {
        k: v for k, v in view.items() if k in STATE_KEYS}
