"""The websocket protocol's messages: client message checks, and the update ``state`` that
must equal the engine's seat view (without rules, events, history) for every seat, at every
step, under every preset and the variations that add phases (V-ONE-UP, V-REDEAL-LOW,
V-QUADS-RESET, V-LOCK-6, V-LARGE)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import ClassVar

import pytest

from chicago import Game, Rules
from chicago.engine.viewjson import view_json
from chicago.server import ws
from chicago.server.messages import (
    _FIELDS,
    CLIENT_MESSAGES,
    CLIENT_TYPES,
    Act,
    Back,
    Chat,
    ClientMessage,
    Continue,
    Hello,
    Ping,
    Rematch,
    View,
    _checks,
    handler_table,
    parse_client,
)
from chicago.server.protocol import (
    STATE_KEYS,
    ProtocolError,
    public_state,
    seat_state,
)


@pytest.mark.parametrize(
    ("raw", "code", "words"),
    [
        ("not json", "bad_json", "not valid JSON"),
        ("[1, 2]", "bad_json", "JSON object"),
        ('"hello"', "bad_json", "JSON object"),
        ('{"type": "dance"}', "bad_message", "unknown message type 'dance'"),
        ("{}", "bad_message", "unknown message type None"),
        ('{"type": "act"}', "bad_message", 'act needs "action"'),
        ('{"type": "act", "action": 7}', "bad_message", 'act needs "action"'),
        ('{"type": "act", "action": "   "}', "bad_message", 'act needs "action"'),
        ('{"type": "act", "action": "' + "x" * 101 + '"}', "bad_message", "at most 100"),
        ('{"type": "act", "action": "keep", "seq": -1}', "bad_message", '"seq"'),
        ('{"type": "act", "action": "keep", "seq": "3"}', "bad_message", '"seq"'),
        ('{"type": "act", "action": "keep", "seq": true}', "bad_message", '"seq"'),
        ('{"type": "hello", "token": 5}', "bad_message", '"token"'),
        ('{"type": "hello", "last_seq": 1.5}', "bad_message", '"last_seq"'),
        ('{"type": "chat", "text": ""}', "bad_message", "chat needs"),
        ('{"type": "chat", "text": "' + "y" * 301 + '"}', "bad_message", "at most 300"),
        ('{"type": "ping", "id": {"a": 1}}', "bad_message", '"id"'),
        ('{"type": "ping", "id": "' + "i" * 65 + '"}', "bad_message", '"id"'),
    ],
)
def test_bad_client_messages_name_the_problem(raw: str, code: str, words: str) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client(raw)
    assert info.value.code == code
    assert words in info.value.message


def test_oversized_messages_are_refused_before_parsing() -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client('{"type": "ping", "pad": "' + "z" * 20000 + '"}')
    assert info.value.code == "too_large"


def test_good_client_messages() -> None:
    """Each message parses to its own type, its fields checked and normalized."""
    assert parse_client('{"type": "hello", "token": "abc", "last_seq": 12, "id": "h1"}') == (
        Hello(token="abc", last_seq=12, id="h1"))
    assert parse_client('{"type": "hello"}') == Hello()
    assert parse_client('{"type": "act", "action": " discard 2h 7c ", "seq": 4}') == (
        Act(action="discard 2h 7c", seq=4))
    assert parse_client(b'{"type": "chat", "text": "bra  spelat\\n"}') == Chat(text="bra spelat")
    for cls in (Back, Continue, Rematch, View, Ping):
        assert parse_client(json.dumps({"type": cls.type, "extra": 1, "id": 3})) == cls(id=3)


def test_every_message_type_has_its_handler() -> None:
    """The websocket's dispatch is made from the message types: each has its ``on_<type>``
    handler taking exactly that type, and a handler class that lacks one, or takes another
    type, is refused where its table is made."""
    assert set(ws._HANDLERS) == set(CLIENT_MESSAGES)
    assert CLIENT_TYPES == ("hello", "act", "back", "continue", "rematch", "leave", "fill",
                            "chat", "view", "ping")

    class Missing:
        async def on_hello(self, msg: Hello) -> None: ...

    with pytest.raises(TypeError, match="no coroutine on_act"):
        handler_table(Missing)

    class Crossed(ws._Handlers):
        async def on_back(self, msg: Rematch) -> None:  # type: ignore[override]
            ...

    with pytest.raises(TypeError, match="on_back must take one Back"):
        handler_table(Crossed)


def test_a_message_field_without_its_check_is_refused() -> None:
    """Every field of a message type says how it is read (a Check in its annotation)."""
    assert [name for name, _ in _FIELDS[Act]] == ["action", "seq"]

    @dataclass(frozen=True, slots=True, kw_only=True)
    class Shout(ClientMessage):
        type: ClassVar[str] = "shout"
        text: str = ""

    with pytest.raises(TypeError, match=r"Shout\.text: annotate it with one Check"):
        _checks(Shout)


RULE_SETS = [
    ("pagat", Rules.preset("pagat")),
    ("wikipedia", Rules.preset("wikipedia")),
    ("wikipedia-42", Rules.preset("wikipedia-42")),
    ("denexa", Rules.preset("denexa")),
    ("variations", Rules.preset("pagat").with_variations(
        "V-ONE-UP", "V-REDEAL-LOW", "V-QUADS-RESET", "V-TIE-SUIT", "V-LOCK-6")),
    ("six players", Rules.preset("pagat").with_variations("V-LARGE")),
]


@pytest.mark.parametrize(("name", "rules"), RULE_SETS, ids=[n for n, _ in RULE_SETS])
def test_update_state_equals_the_seat_view(name: str, rules: Rules) -> None:
    """The state sent with each update is the engine's view minus rules/events/history."""
    players = 6 if name == "six players" else 4
    for seed in range(2):
        game = Game(rules.replace(max_deals=2), players=players, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while True:
            public = public_state(game)
            for seat in [None, *range(players)]:
                view = view_json(game.view(seat))
                assert set(view) == set(STATE_KEYS) | {"rules", "events", "history"}
                expected = {k: view[k] for k in STATE_KEYS}
                assert seat_state(game, seat, public) == expected, (name, seed, steps, seat)
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
            steps += 1
        assert steps > 20
