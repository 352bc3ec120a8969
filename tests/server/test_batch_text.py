"""A batch frame's text put together around its states' texts (issue 28, twenty-first
pass): through a whole game on the server, every state the fan-out writes as text
(:func:`chicago.server.fanout._seat_state_text`: the public part written by the
accelerator, then the audience's own fields) is the text of the state made as objects
(:func:`~chicago.server.fanout._seat_state`) encoded, and every batch sent is the frame
with those states (and, since the thirty-second pass, the events' texts) in it encoded
whole, byte for byte, for the person's seat and for a spectator."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from server_support import UPDATES, WsPlayer, create_table, join
from starlette.testclient import TestClient

from chicago.server import fanout, protocol
from chicago.server.live import LiveTable

pytestmark = pytest.mark.timeout(300)

SEATS = ["open", "bot:basic", "bot:basic", "bot:random"]


def test_every_batch_is_its_frame_encoded_whole(client: TestClient,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Each state's text equals its objects' encoding at the moment it is made, and each
    batch's text the frame with the states put in encoded by ``protocol.dumps``."""
    made: list[tuple[str, str]] = []
    sent: list[tuple[str, str]] = []
    text_of = fanout._seat_state_text
    dumps_with_states = protocol.dumps_with_states

    def state_text(table: LiveTable, audience: int | None) -> str:
        text = text_of(table, audience)
        made.append((text, protocol.dumps(fanout._seat_state(table, audience))))
        return text

    def batch_text(frame: Mapping[str, object], states: Sequence[str],
                   events: Sequence[str] = ()) -> str:
        text = dumps_with_states(frame, states, events)
        whole = protocol._with_states(frame, iter([json.loads(s) for s in states]),
                                      iter([json.loads(e) for e in events]))
        assert isinstance(whole, Mapping)
        sent.append((text, protocol.dumps(whole)))
        return text

    monkeypatch.setattr(fanout, "_seat_state_text", state_text)
    monkeypatch.setattr(protocol, "dumps_with_states", batch_text)
    info = create_table(client, SEATS, rules={"max_deals": 2})
    token = join(client, info["id"], 0, "Pia")
    person = WsPlayer(client, info["id"], token, batch=True)
    watcher = WsPlayer(client, info["id"], batch=True)
    rng = random.Random(3)
    while not person.over:
        view: dict[str, Any] | None = person.state
        assert view is not None
        if view["to_act"] == person.you and view["legal_actions"]:
            person.send(type="act", action=rng.choice(view["legal_actions"]), seq=person.seq)
        person.until(lambda f: f["type"] in (*UPDATES, "game_over"))
    watcher.sync(person.seq)
    assert len(made) > 20 and len(sent) > 10
    for text, whole in made + sent:
        assert text == whole
    # what was sent is what was checked: every batch a connection got is one of them
    batches = {text for text, _ in sent}
    for player in (person, watcher):
        got = [t for t in player.texts if t.startswith('{"type":"batch"')]
        assert got and set(got) <= batches
