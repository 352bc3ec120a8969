"""The leak test: every frame sent to one seat through whole games (the first snapshot,
replays after reconnects, snapshots after reconnects, updates, game over, rematch) is
recorded, and no opponent's hidden card ever appears in it.

What the seat may know is computed independently, from the engine replaying the finished
game's record: the cards in the seat's own views since the deal began, plus the cards of the
events the seat may see (Event.visible_to). Every card named in a frame must be in that set,
and no card then hidden in an opponent's hand may appear. Besides, each frame's events must be
exactly the engine's events for that action as the seat may see them, and each state/view
exactly the engine's view of the seat (R-EX-2 discards stay private, V-ONE-UP's discarded card
too, only the face-up card is public)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from server_support import WsPlayer, create_table, join
from starlette.testclient import TestClient

from chicago import Game
from chicago.server.protocol import STATE_KEYS
from chicago.server.storage import LogEntry, Store

pytestmark = pytest.mark.timeout(300)

RANKS, SUITS = "23456789TJQKA", "cdhs"


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value (strings, split on spaces; keys too)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            for word in item.replace(",", " ").split():
                if len(word) == 2 and word[0] in RANKS and word[1] in SUITS:
                    found.add(word)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


class Knowledge:
    """Per game: the engine state after each action, and what ``seat`` may know then."""

    def __init__(self, record: dict[str, Any], seat: int | None) -> None:
        self.seat = seat
        game = Game.replay({**record, "actions": [], "result": None})
        self.games: list[Game] = [game.copy()]
        self.spans: list[tuple[int, int]] = [(0, 0)]
        self.allowed: list[set[str]] = []
        self.hidden: list[set[str]] = []
        for _, text in record["actions"]:
            start = len(game.events)
            game.apply(text)
            self.games.append(game.copy())
            self.spans.append((start, len(game.events)))
        known: set[str] = set()
        deal = None
        for k, g in enumerate(self.games):
            if g.deal_number != deal:
                deal, known = g.deal_number, set()
            start, end = self.spans[k]
            new_events = [e.to_json() for e in g.events[start:end] if e.visible_to(seat)]
            known |= cards_in(g.view(seat))
            self.allowed.append(known | cards_in(new_events))
            opponents = {str(c) for o in range(g.players) if o != seat for c in g.hands[o]}
            self.hidden.append(opponents - self.allowed[k])


@pytest.fixture
def store(client: TestClient) -> Iterator[Store]:
    yield client.app.state.store  # type: ignore[attr-defined]


def _acts_before(entries: list[LogEntry]) -> dict[int, tuple[int, int]]:
    """seq -> (game number, actions of that game stored up to this seq)."""
    out: dict[int, tuple[int, int]] = {}
    game, count = 0, 0
    for e in entries:
        if e.kind == "game":
            game, count = int(e.data["number"]), 0
        elif e.kind == "act":
            count += 1
        out[e.seq] = (game, count)
    return out


def _check_frames(texts: list[str], seat: int | None, entries: list[LogEntry],
                  knowledge: dict[int, Knowledge]) -> int:
    """Check every frame; returns how many hidden opponent cards were protected in total."""
    where = _acts_before(entries)
    protected = 0
    for text in texts:
        frame = json.loads(text)
        assert "seed" not in text and "token" not in text, frame["type"]
        game_number, k = where.get(frame["seq"], (0, 0))
        if frame["seq"] == 0:
            continue
        know = knowledge[game_number]
        named = cards_in(frame)
        leaked = named & know.hidden[k]
        assert not leaked, f"{frame['type']} seq {frame['seq']} names hidden cards {leaked}"
        assert named <= know.allowed[k], (frame["type"], frame["seq"], named - know.allowed[k])
        protected += len(know.hidden[k])
        game = know.games[k]
        view = game.view(seat)
        if frame["type"] == "snapshot":
            assert frame["view"] == view
        elif frame["type"] == "update":
            start, end = know.spans[k]
            assert frame["events"] == [e.to_json() for e in game.events[start:end]
                                       if e.visible_to(seat)]
            if frame["state"] is not None:
                assert frame["state"] == {key: view[key] for key in STATE_KEYS}
            actor = game.actions[-1][0]
            if frame["action"] is None:
                assert actor != seat and frame["kind"] in ("discard", "one up")
    return protected


@pytest.mark.parametrize(
    ("preset", "variations"),
    [("pagat", ["V-ONE-UP", "V-REDEAL-LOW"]), ("wikipedia-42", [])],
)
def test_no_hidden_card_reaches_a_seat(client: TestClient, store: Store, preset: str,
                                       variations: list[str]) -> None:
    info = create_table(client, ["open", "open", "bot:basic", "bot:random"], preset=preset,
                        variations=variations, rules={"max_deals": 3})
    table = info["id"]
    tokens = {seat: join(client, table, seat) for seat in (0, 1)}
    watched: list[str] = []  # every frame seat 0 ever received, over all its connections
    spectator_frames: list[str] = []
    rng = random.Random(21)
    me = WsPlayer(client, table, tokens[0])
    other = WsPlayer(client, table, tokens[1])
    spectator = WsPlayer(client, table)
    for game_number in (1, 2):
        while not spectator.over:
            seat = spectator.state["to_act"]
            if seat is None:
                break
            if seat in (0, 1):
                player = me if seat == 0 else other
                player.sync(spectator.seq)
                player.send(type="act", action=rng.choice(player.state["legal_actions"]))
            spectator.until(lambda f: f["type"] == "update")
            if rng.random() < 0.08:  # seat 0 drops and comes back
                me.sync(spectator.seq)
                watched.extend(me.texts)
                last = me.seq if rng.random() < 0.7 else None
                me.close()
                me = WsPlayer(client, table, tokens[0], last_seq=last, view=me.view)
        if not spectator.over:
            spectator.until(lambda f: f["type"] == "game_over")
        if game_number == 1:
            me.sync(spectator.seq)
            me.send(type="rematch")
            spectator.until(lambda f: f["type"] == "snapshot")
    me.sync(spectator.seq)
    watched.extend(me.texts)
    spectator_frames.extend(spectator.texts)

    entries = store.entries_after(table, 0)
    records = {n: client.get(f"/api/games/{table}/{n}").json()["record"] for n in (1, 2)}
    for seat, texts in ((0, watched), (None, spectator_frames)):
        knowledge = {n: Knowledge(records[n], seat) for n in (1, 2)}
        protected = _check_frames(texts, seat, entries, knowledge)
        assert protected > 1000  # hidden cards were there to leak, and none did
    assert sum(1 for t in watched if '"resumed"' in t) >= 1
    assert sum(1 for t in watched if '"snapshot"' in t) >= 3
