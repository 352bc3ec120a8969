"""The public part of an update's state written as JSON text by the C accelerator
(``_engine.public_json_text``, issue 28, twenty-first pass) against the pure-Python code.

:func:`chicago.engine.viewjson.public_text` is the compact JSON text of
:func:`~chicago.engine.viewjson.public_json`, as the table server encodes its frames;
:func:`~chicago.engine.viewjson.seat_state_text` puts a seat's own fields after it. Random
games of every preset, with random sets of variations (every V-*: V-ONE-UP's face-up card,
V-QUADS-RESET, V-LOCK-6, V-HIDDEN …) and options (R-EX-4's shown hands, reshuffles, the
lock), 2-6 players, are played with random choices; at every state the text written in C is
the Python encoder's, byte for byte, for the public view and for the state of the seat to
act, of another seat and of a spectator; and no audience's state holds a card of another
seat's hand that the game has not shown. Hypothesis runs derandomized: the same games on
every run.
"""

from __future__ import annotations

import dataclasses
import json
import random
import types

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from accelerator_cases import OPTIONS as BASE_OPTIONS
from accelerator_cases import REVEALING, cards_in, derandomized, draw_table
from chicago import Game, Rules
from chicago.cards import DECK
from chicago.engine import viewjson
from chicago.engine.actions import ActionKind
from chicago.engine.native import ENGINE
from chicago.engine.viewjson import (
    part_json,
    public_json,
    public_text,
    seat_state,
    seat_state_text,
)
from chicago.engine.views import known_out, public_view
from chicago.engine.viewtypes import SeatView
from chicago.server import protocol

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")

GAMES = derandomized(80)

OPTIONS = {**BASE_OPTIONS, "no_show": {"show_on_break": False}}

LOCKED_SIX = Rules.preset("pagat").with_variations("V-LOCK-6").replace(lock_at=8, target=25)
"""Locked players dealt six cards early (V-LOCK-6 with a low lock)."""

OWN_KNOWLEDGE = ("discarded", "known_out")
"""A seat's own fields that may name a card another seat holds now: its discards (drawn
again after a reshuffle, R-EX-2) and what it knows is out of the stock."""


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int, int]:
    """Rules (a preset, up to four variations, up to two options), seats and a seed."""
    return draw_table(draw, OPTIONS, max_deals=3)


def python_text(view: SeatView, monkeypatch: pytest.MonkeyPatch) -> str:
    """``public_text`` written by the Python code alone (the accelerator's writer off)."""
    with monkeypatch.context() as patch:
        patch.setattr(viewjson, "_public_json_text", None)
        return public_text(view)


def check_state(game: Game, monkeypatch: pytest.MonkeyPatch, audiences: list[int | None]
                ) -> None:
    view = public_view(game)
    fast = public_text(view)
    pure = protocol.dumps(public_json(view))
    assert fast == pure
    assert python_text(view, monkeypatch) == pure
    assert fast == protocol.dumps(part_json(view, "public"))  # the derived encoder's
    # what everyone may know: the cards shown now, and those known out of the stock by the
    # public log (V-ONE-UP's face-up card taken, R-EX-4's shown cards)
    shown = cards_in({name: json.loads(pure)[name] for name in REVEALING}) | {
        str(card) for card in known_out(game, None)}
    for audience in audiences:
        text = seat_state_text(game, audience, fast)
        assert text == protocol.dumps(seat_state(game, audience, public_json(view)))
        with monkeypatch.context() as patch:  # the Python code's
            patch.setattr(viewjson, "_state_json_text", None)
            assert seat_state_text(game, audience, fast) == text
        # secrecy: no card of another seat's hand that the game has not shown, but in what
        # the seat itself knows (its discards, the cards it knows out of the stock)
        hidden = {str(card) for seat, hand in enumerate(game.hands) if seat != audience
                  for card in hand} - shown
        state = json.loads(text)
        own: tuple[str, ...] = ()  # a spectator: every field checked
        if audience is not None:
            held = {str(card) for card in game.hands[audience]}
            assert set(state["hand"]) == held and cards_in(state["legal_actions"]) <= held
            own = OWN_KNOWLEDGE
        seen = {name: value for name, value in state.items() if name not in own}
        leaked = cards_in(seen) & hidden
        assert not leaked, (audience, leaked)


def test_the_accelerated_writer_is_in_place() -> None:
    """The accelerator writes the public text (fails before the twenty-first pass)."""
    assert ENGINE is not None and hasattr(ENGINE, "public_json_text")
    assert viewjson._public_json_text is not None
    game = Game(Rules.preset("pagat"), 4, seed=3)
    assert ENGINE.public_json_text(public_view(game), viewjson._CARD_TEXT,
                                   viewjson._other_text) == protocol.dumps(
        public_json(public_view(game)))


@GAMES
@given(tables())
@example((LOCKED_SIX, 4, 3))
@example((LOCKED_SIX.with_variations("V-ONE-UP"), 3, 5))
@example((Rules.preset("pagat").replace(show_on_break=True, max_deals=3, target=25), 4, 7))
def test_the_public_text_in_c_and_in_python_are_the_same(table: tuple[Rules, int, int]
                                                          ) -> None:
    """Every preset and variation (R-EX-4 shown hands, R-ANN-3 stages and reveals, V-ONE-UP,
    V-QUADS-RESET, V-LOCK-6, V-HIDDEN, the settlement at the game's end): at every state the
    public part of the update's state written in C is the Python encoder's text, byte for
    byte, and so is the state of the seat to act, of another seat and of a spectator; no
    audience's state holds a card of another seat's hand that was not shown."""
    rules, players, seed = table
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    with pytest.MonkeyPatch.context() as monkeypatch:
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            check_state(game, monkeypatch, [seat, rng.randrange(players), None])
            legal = game.legal_actions()
            action = rng.choice(legal)
            if action.kind is ActionKind.CHICAGO and rng.random() < 0.7:
                action = legal[0]
            game.apply(action)
        check_state(game, monkeypatch, [rng.randrange(players), None])  # the settlement


def test_a_view_of_another_shape_is_written_by_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lists where a view holds tuples are written as tuples are; a mapping that is no dict,
    a key that is no plain int, a card that is no card id, a number past 64 bits, a text
    that needs escaping: the accelerator hands them to the Python code, which writes the
    same text as the stdlib's encoder (or fails as it does)."""
    game = Game(Rules.preset("pagat"), 4, seed=11)
    rng = random.Random(2)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    view = public_view(game)
    assert ENGINE is not None
    write = ENGINE.public_json_text
    texts = viewjson._CARD_TEXT

    listed = dataclasses.replace(view, scores=list(view.scores),
                                 played=[list(p) for p in view.played])
    assert write(listed, texts, viewjson._other_text) == protocol.dumps(public_json(listed))

    class Seat(int):
        pass

    odd = [
        dataclasses.replace(view, shown={Seat(1): (DECK[0],)}),
        dataclasses.replace(view, shown=types.MappingProxyType({1: (DECK[0],)})),
        dataclasses.replace(view, stock=2**70),
        dataclasses.replace(view, scores=(1.5, 2, 3, 4)),
        dataclasses.replace(view, exchanges=((0, 1), "no tuple")),
    ]
    for other in odd:
        assert write(other, texts, viewjson._other_text) is NotImplemented
        assert public_text(other) == python_text(other, monkeypatch) == protocol.dumps(
            public_json(other))
    no_card = dataclasses.replace(view, played=((99,), *view.played[1:]))
    assert write(no_card, texts, viewjson._other_text) is NotImplemented
    with pytest.raises(IndexError):
        public_text(no_card)
    quoted = tuple('"' if i == 0 else t for i, t in enumerate(texts))
    played = dataclasses.replace(view, played=((DECK[0],), *view.played[1:]))
    assert write(played, quoted, viewjson._other_text) is NotImplemented
    assert write(view, texts[:51], viewjson._other_text) is NotImplemented


def test_a_frame_with_states_as_text_is_the_frame_encoded() -> None:
    """The batch's text put together around its states' texts is the frame with the states
    in it encoded whole, also when a string of the frame holds the mark's own text."""
    game = Game(Rules.preset("pagat"), 4, seed=5)
    rng = random.Random(4)
    states = []
    for _ in range(3):
        game.apply(rng.choice(game.legal_actions()))
        view = public_view(game)
        states.append(seat_state(game, 0, public_json(view)))
    texts = [protocol.dumps(state) for state in states]
    mark = protocol.STATE_MARK
    for words in ("plain", "\x00state\x00", protocol.dumps(mark)):
        marked = {"type": "batch", "seq": 3, "updates": [
            {"type": "update", "seq": 1, "events": [{"text": words}], "state": mark},
            {"type": "update", "seq": 2, "events": [], "state": None},
            {"type": "update", "seq": 3, "state": mark, "clock": None},
            {"words": {"\x00state\x00": 0}, "state": mark},
        ]}
        whole = {**marked, "updates": [
            {**marked["updates"][0], "state": states[0]}, marked["updates"][1],
            {**marked["updates"][2], "state": states[1]},
            {**marked["updates"][3], "state": states[2]}]}
        assert protocol.dumps_with_states(marked, texts) == protocol.dumps(whole)


def test_a_state_of_another_shape_is_written_by_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """``state_json_text`` writes the public text with the own fields after it as the
    stdlib's encoder does, and hands what it does not expect (a text to escape, a float, a
    key that is no text, a public text that is no object) to the Python code."""
    assert ENGINE is not None
    write = ENGINE.state_json_text
    public = protocol.dumps({"players": 4, "phase": "play"})
    own = {"seat": 1, "hand": ["Ah", "Kd"], "hand_category": None, "legal_actions": ["keep"]}
    assert write(public, own) == protocol.dumps({"players": 4, "phase": "play", **own})
    assert write("{}", own) == protocol.dumps(own)
    assert write(public, {}) == public
    for other in ({"seat": 'a "quote"'}, {"seat": 1.5}, {1: 2}, {"seat": "\u00e9"}):
        assert write(public, other) is NotImplemented
    for text in ("[1]", "x", "", "{\u00e9}"):
        assert write(text, own) is NotImplemented
