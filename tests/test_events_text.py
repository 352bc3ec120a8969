"""The events an audience may see written as JSON text by the C accelerator
(``_engine.events_json_text``, issue 28, thirty-second pass) against the pure-Python code.

:func:`chicago.engine.eventtext.events_text` is the compact JSON text of the JSON forms of
the events a seat (or a spectator, None) may see, as the table server encodes its frames.
Random games of every preset, with random sets of variations (every V-*) and options
(R-EX-4's shown hands, reshuffles, V-ONE-UP, V-QUADS-RESET …), 2-6 players, are played with
random choices; after every action the text of the events it caused, for every seat and a
spectator, is the Python encoder's, byte for byte, and holds only cards the audience has
seen. An event of every kind, with its optional fields present and absent, is written the
same both ways; what the accelerator's plans do not cover is written by the Python code.
Hypothesis runs derandomized: the same games on every run.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from accelerator_cases import OPTIONS, derandomized, draw_table
from chicago import Game, Rules
from chicago.cards import parse_card, parse_cards
from chicago.categories import Category
from chicago.engine import eventtext
from chicago.engine.actions import ActionKind
from chicago.engine.events import (
    EVENT_TYPES,
    Announce,
    ChicagoCall,
    ChicagoResult,
    Deal,
    DealEnd,
    Dealt,
    Event,
    Exchange,
    Exchanged,
    GameEnd,
    OneUp,
    OneUpChoice,
    Pass,
    Play,
    QuadsChoice,
    QuadsClaim,
    QuadsObjection,
    QuadsReset,
    Redeal,
    Reshuffle,
    Reveal,
    RoundResult,
    Score,
    Show,
    Showdown,
    Trick,
)
from chicago.engine.eventtext import events_json, events_text
from chicago.engine.native import ENGINE
from engine_helpers import card_strings, seen_cards

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")

GAMES = derandomized(60)

ENCODE = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
"""The table server's encoding of frames (``chicago.server.protocol.dumps``)."""

AH, KS, TWO = parse_card("Ah"), parse_card("Ks"), parse_card("2c")

SAMPLES: list[Event] = [
    Deal(1, 0, (0, 12, 3), (False, True, False)),
    Dealt(1, tuple(parse_cards("Ah Ks Qd Jc Tc"))),
    Redeal(2, True), Redeal(0, False),
    Reshuffle(17),
    Exchange(0, 1, 2, 2), Exchange(1, 2, 0, 0, locked=True), Exchange(2, 1, 1, 1, one_up=True),
    Exchange(3, 1, 1, 0, True, True),
    Exchanged(2, 1, (AH, KS), (TWO,)), Exchanged(0, 0, (), ()),
    OneUp(1, AH), OneUpChoice(1, AH, True), OneUpChoice(2, KS, False),
    Show(3, (AH, KS), "breaks a combination announced as highest"),
    Pass(0, 1), Announce(1, 2, Category.FLUSH),
    Reveal(0, 1, 14), Reveal(1, 2, 1), Reveal(2, 3, 10), Reveal(3, 4, None, "h"),
    Reveal(0, 1),
    RoundResult(1, 2, Category.PAIR, 1, "best hand"),
    RoundResult(2, None, None, 0, "everyone passed"),
    Score(1, -3, "Chicago failed", 4),
    QuadsChoice(0, True), QuadsChoice(1, True, 2), QuadsChoice(2, False, None),
    QuadsClaim(3, False), QuadsClaim(0, True, 1),
    QuadsObjection(2, 0), QuadsReset(1), QuadsReset(0, 3),
    ChicagoCall(1, True), Play(2, AH, 3), Trick(3, 2, AH),
    ChicagoResult(1, False, 3), ChicagoResult(0, True, None),
    Showdown(1, Category.STRAIGHT, 4, ((AH, KS), (TWO,), ())),
    Showdown(None, Category.HIGH_CARD, 0, ((AH,), (KS,))),
    DealEnd(3, 2, (0, -2, 5), (10, 20, 30)),
    GameEnd((1,), (12, 52, 3), (-1.5, 3.0, -1.5)),
    GameEnd((0, 2), (52, 1, 52), (0.1, -0.2, 0.1)), GameEnd((), (), ()),
]
"""An event of every kind, with its optional fields at their defaults and not."""


def pure_text(events: Sequence[Event], audience: int | None,
              monkeypatch: pytest.MonkeyPatch) -> str:
    """``events_text`` written by the Python code alone (the accelerator's writer off)."""
    with monkeypatch.context() as patch:
        patch.setattr(eventtext, "_events_json_text", None)
        return events_text(events, audience)


def check(events: Sequence[Event], audiences: Sequence[int | None],
          monkeypatch: pytest.MonkeyPatch) -> None:
    """For each audience: the accelerator wrote the text, the same as the Python code's and
    as the server's encoder of the events' JSON forms."""
    assert ENGINE is not None
    for audience in audiences:
        made = ENGINE.events_json_text(events, audience, eventtext._CARD_TEXT)
        assert made is not NotImplemented, [e for e in events]
        expected = ENCODE([e.to_json() for e in events if e.visible_to(audience)])
        assert made == events_text(events, audience) == expected
        assert pure_text(events, audience, monkeypatch) == expected


def test_the_accelerated_writer_is_in_place() -> None:
    """The accelerator writes the events' text, every kind by a plan (fails before the
    thirty-second pass)."""
    assert ENGINE is not None and hasattr(ENGINE, "events_json_text")
    assert eventtext._events_json_text is not None
    assert {plan[0] for plan in eventtext.plans()} == set(EVENT_TYPES.values())
    assert {type(e) for e in SAMPLES} == set(EVENT_TYPES.values())


def test_every_kind_is_written_as_its_json_form(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each kind (its optional fields left out at their defaults, R-ANN-3's reveal ranks
    as letters, a low ace "A", the showdown's hands by seat, the settlement's floats) and
    the private ones (``"to"``, seen by their seat only) alone and all together."""
    for event in SAMPLES:
        check([event], [0, 1, 2, 3, None], monkeypatch)
    check(SAMPLES, [0, 1, 2, 3, None], monkeypatch)
    check(tuple(SAMPLES), [2], monkeypatch)
    check([], [None], monkeypatch)
    assert events_text([Exchanged(2, 1, (AH,), (KS,)), Play(0, TWO, 1)], 1) == (
        '[{"type":"play","seat":0,"card":"2c","trick":1}]')


def test_what_the_plans_do_not_cover_is_written_by_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A text that needs escaping, a float that is not finite, a kind without a plan (a
    subclass), an event with a slot not set: the accelerator hands the whole list to the
    Python code, which writes what the stdlib's encoder writes (or fails as it does)."""
    assert ENGINE is not None
    write = ENGINE.events_json_text

    odd_lists: list[list[Event]] = [
        [Play(0, AH, 1), Show(1, (KS,), 'the "quoted" reason')],
        [Score(0, 1, "scoring round \u00e9", 1)],
        [GameEnd((0,), (1, 2), (math.inf, -math.inf))],
        [GameEnd((0,), (1, 2), (math.nan, 0.0))],
    ]
    for events in odd_lists:
        assert write(events, None, eventtext._CARD_TEXT) is NotImplemented
        assert events_text(events, None) == pure_text(events, None, monkeypatch) == (
            ENCODE(events_json(events, None)))
    # a kind without a plan
    ENGINE.install_events(tuple(p for p in eventtext.plans() if p[0] is not Play))
    try:
        played = [Pass(0, 1), Play(0, AH, 1)]
        assert write(played, None, eventtext._CARD_TEXT) is NotImplemented
        assert events_text(played, None) == ENCODE(events_json(played, None))
    finally:
        ENGINE.install_events(eventtext.plans())
    assert write([Play(0, AH, 1)], None, eventtext._CARD_TEXT) is not NotImplemented
    unset = Play.__new__(Play)
    assert write([unset], None, eventtext._CARD_TEXT) is NotImplemented
    with pytest.raises(AttributeError):
        events_text([unset], None)
    assert write(iter(SAMPLES), None, eventtext._CARD_TEXT) is NotImplemented
    assert write(SAMPLES, None, eventtext._CARD_TEXT[:51]) is NotImplemented


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int, int]:
    """Rules (a preset, up to four variations, up to two options), seats and a seed."""
    return draw_table(draw, OPTIONS, max_deals=3)


@GAMES
@given(tables())
@example((Rules.preset("pagat").with_variations("V-ONE-UP").replace(
    show_on_break=True, max_deals=3, target=25), 4, 7))
@example((Rules.preset("pagat").replace(quads_reset=True, quads_end_deal=True, max_deals=3,
                                        target=25), 3, 11))
def test_the_events_text_in_c_and_in_python_are_the_same(table: tuple[Rules, int, int]
                                                          ) -> None:
    """Every preset and variation: after every action, the events it caused as every seat
    and a spectator may see them (R-EX-2's private exchanges, the dealt hands, R-EX-4's
    shown hands, R-ANN-3's reveals, V-ONE-UP, V-QUADS-RESET, R-FIN-1's showdown, the
    settlement) written in C are the Python encoder's text, byte for byte; and no text
    holds a card its audience has not seen (a private event of another seat)."""
    rules, players, seed = table
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    audiences: list[int | None] = [*range(players), None]
    seen: dict[int | None, list[dict[str, object]]] = {a: [] for a in audiences}
    with pytest.MonkeyPatch.context() as monkeypatch:
        start = 0
        while not game.is_over:
            legal = game.legal_actions()
            action = rng.choice(legal)
            if action.kind is ActionKind.CHICAGO and rng.random() < 0.7:
                action = legal[0]
            game.apply(action)
            caused = game.events_between(start)
            start = game.event_count
            check(caused, audiences, monkeypatch)
            for audience in audiences:
                sent = json.loads(events_text(caused, audience))
                seen[audience].extend(sent)
                assert card_strings(sent) <= seen_cards(seen[audience], audience)
        check(game.events, audiences, monkeypatch)
