"""Typed events (issue 19, item 1): one immutable type per kind, with its audience and its
JSON form; the JSON form is the one views, logs and messages have always carried."""

from __future__ import annotations

import pickle
import random

import pytest

from chicago import Game, Rules
from chicago.cards import parse_card, parse_cards
from chicago.categories import Category
from chicago.engine.events import (
    EVENT_TYPES,
    Announce,
    Dealt,
    Event,
    Exchange,
    Pass,
    Play,
    QuadsReset,
    Reshuffle,
    Reveal,
    Score,
    Showdown,
    event_from_json,
)
from chicago.rules import PRESETS


def _events_of_random_games() -> list[Event]:
    out: list[Event] = []
    for preset in PRESETS:
        for variations in ((), ("V-ONE-UP", "V-REDEAL-LOW"), ("V-QUADS-ONE", "V-TIE-SUIT")):
            rules = Rules.preset(preset, max_deals=3).with_variations(*variations)
            game = Game(rules, 4, seed=len(out) % 97)
            rng = random.Random(3)
            while not game.is_over:
                game.apply(rng.choice(game.legal_actions()))
            out.extend(game.events)
    return out


def test_every_event_is_typed_and_comes_back_from_its_json() -> None:
    """Each event of random games of every preset is of its kind's class, reads back from
    its JSON form, pickles, and cannot be changed."""
    events = _events_of_random_games()
    kinds = {type(e) for e in events}
    assert len(kinds) >= 18
    for event in events:
        assert EVENT_TYPES[event.type] is type(event)
        data = event.to_json()
        assert data["type"] == event.type
        assert event_from_json(data) == event
        assert pickle.loads(pickle.dumps(event)) == event
        assert ("to" in data) == event.private == (event.audience is not None)
    with pytest.raises(AttributeError):
        events[0].deal = 5  # type: ignore[misc]


def test_json_forms_of_the_kinds() -> None:
    """The JSON form of each kind is the dict of docs/PROTOCOL.md: cards as text, categories
    by name, optional fields left out, "to" for a private event."""
    ah, kd = parse_card("Ah"), parse_card("Kd")
    assert Play(2, ah, 3).to_json() == {"type": "play", "seat": 2, "card": "Ah", "trick": 3}
    assert Exchange(1, 2, 3, 3).to_json() == {
        "type": "exchange", "seat": 1, "round": 2, "discarded": 3, "drawn": 3}
    assert Exchange(1, 1, 0, 0, locked=True).to_json()["locked"] is True
    assert Dealt(3, parse_cards("2c 3d 4h 5s 6c")).to_json() == {
        "type": "dealt", "seat": 3, "cards": ["2c", "3d", "4h", "5s", "6c"], "to": 3}
    assert Announce(0, 1, Category.TWO_PAIR).to_json()["category"] == "TWO_PAIR"
    assert Reveal(0, 1, 14).to_json() == {"type": "reveal", "seat": 0, "stage": 1, "rank": "A"}
    assert Reveal(0, 1, 10).to_json()["rank"] == "T"
    assert Reveal(0, 6, suit="h").to_json() == {"type": "reveal", "seat": 0, "stage": 6,
                                                "suit": "h"}
    assert Score(1, 5, "last trick", 20).to_json() == {
        "type": "score", "seat": 1, "points": 5, "reason": "last trick", "total": 20}
    assert QuadsReset(0).to_json() == {"type": "quads_reset", "seat": 0}
    assert QuadsReset(0, 2).to_json() == {"type": "quads_reset", "seat": 0, "target": 2}
    assert Reshuffle(17).to_json() == {"type": "reshuffle", "count": 17}
    showdown = Showdown(1, Category.PAIR, 1, ((ah,), (kd,)))
    assert showdown.to_json()["hands"] == {"0": ["Ah"], "1": ["Kd"]}
    assert event_from_json(showdown.to_json()) == showdown


def test_bad_json_events_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown event type"):
        event_from_json({"type": "nope"})
    with pytest.raises(ValueError, match="needs 'card'"):
        event_from_json({"type": "play", "seat": 1, "trick": 1})
    with pytest.raises(ValueError, match="not a card"):
        event_from_json({"type": "play", "seat": 1, "card": "Zz", "trick": 1})
    with pytest.raises(ValueError, match="not addressed"):
        event_from_json({"type": "dealt", "seat": 1, "cards": [], "to": 2})


def test_kinds_of_equal_fields_are_not_equal() -> None:
    """Two kinds with the same field values are different events (the kind is part of
    the value)."""
    from chicago.engine.events import ChicagoCall, Redeal

    assert ChicagoCall(1, True) != Redeal(1, True)
    assert len({ChicagoCall(1, True), Redeal(1, True)}) == 2


def test_events_are_values_not_tuples() -> None:
    """Issue 24: an event is a value of its own kind, not a tuple: never equal to the tuple of
    its fields, no ``+``, no ordering against another kind, no iteration; equal events of a
    kind are equal and hash alike; a field cannot be set and no attribute can be added."""
    ah = parse_card("Ah")
    play = Play(2, ah, 3)
    assert not isinstance(play, tuple)
    assert play != ("play", 2, ah, 3) and play != (2, ah, 3)
    assert (2, ah, 3) != play
    assert play == Play(seat=2, card=ah, trick=3) and hash(play) == hash(Play(2, ah, 3))
    assert play != Play(2, ah, 4)
    with pytest.raises(TypeError):
        _ = play + (1,)  # type: ignore[operator]  # noqa: RUF005
    with pytest.raises(TypeError):
        _ = Pass(0, 1) < play  # type: ignore[operator]
    with pytest.raises(TypeError):
        tuple(play)  # type: ignore[call-overload]
    with pytest.raises(AttributeError):
        play.seat = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        play.note = "x"  # type: ignore[attr-defined]
    assert repr(play) == f"Play(seat=2, card={ah!r}, trick=3)"
    match play:
        case Play(seat, card, trick):
            assert (seat, card, trick) == (2, ah, 3)
        case _:
            pytest.fail("Play does not match its positional pattern")


def test_event_kinds_are_written_out_in_full() -> None:
    """Every kind declares its slots and an ``__init__`` taking its fields in JSON order (no
    generated code): a kind that does not is refused when it is defined."""
    for cls in EVENT_TYPES.values():
        assert "__init__" in vars(cls) and "__slots__" in vars(cls)
        assert cls.__match_args__ == cls.fields  # type: ignore[attr-defined]
    assert Exchange.defaults == {"locked": False, "one_up": False}
    assert Reveal.defaults == {"rank": None, "suit": None}
    with pytest.raises(TypeError, match="slots"):
        class NoSlots(Event):
            seat: int

            def __init__(self, seat: int) -> None:
                self._seat = seat
    with pytest.raises(TypeError, match="must take"):
        class WrongOrder(Event):
            __slots__ = ("_a", "_b")
            a: int
            b: int

            def __init__(self, b: int, a: int) -> None:
                self._a, self._b = a, b
