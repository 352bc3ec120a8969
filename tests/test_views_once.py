"""The views made cheaper on the table core's path (issue 28, thirty-eighth pass).

- The public text of a state (:func:`chicago.engine.viewjson.public_text`) keeps, in the
  accelerator, the text of the parts that the views of a deal's states share by identity
  (the announcements, reveals and round results, each taken trick) and puts it in again
  for the very same object (``_engine.c``, block "views made cheaper"). Random games of
  every preset with random variations, 2-6 seats, several played in turn (so that the
  kept texts of one game meet the states of another): every text equals the Python
  encoder's, for the public part and for the state text of every seat and a spectator,
  and no seat's state text holds a card of another seat's hand that the game has not
  shown (the kept texts are shared by every table and audience).
- A seat's ``known_out`` (the own part of the person's state text) is read from the
  seat's log without its events made into a tuple (``Game.seen_by`` is not called).

Both cuts are shown to be used: the round results' ``to_json`` is not called again for a
state that shares them (on main it was, for every state), and an update's own part makes
no seat's events (on main it did).
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accelerator_cases import OPTIONS, REVEALING, cards_in, derandomized, draw_table
from chicago import Game, Rules
from chicago.engine import viewjson
from chicago.engine.actions import ActionKind
from chicago.engine.events import RoundResult
from chicago.engine.knowledge import shared_out_of_stock
from chicago.engine.native import ENGINE
from chicago.engine.viewjson import public_json, public_text, seat_state, seat_state_text
from chicago.engine.views import known_out, public_view
from chicago.rules import PRESETS
from chicago.server import protocol
from chicago.server.views import PublicViews

accelerated = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                 "(or CHICAGO_PURE_PYTHON is set)")


def python_public_text(game: Game) -> str:
    """The public text as the Python encoder writes it (no accelerator's writer)."""
    return protocol.dumps(public_json(public_view(game)))


def step(game: Game, rng: random.Random) -> None:
    legal = game.legal_actions()
    action = rng.choice(legal)
    if action.kind is ActionKind.CHICAGO and rng.random() < 0.7:
        action = legal[0]
    game.apply(action)


def check_texts(game: Game, views: PublicViews) -> None:
    """Every audience's state text of ``game`` through ``views`` (the server's way) is the
    Python encoder's, and holds no card of another seat's hand that was not shown."""
    shared = views.public_text(game)
    pure = python_public_text(game)
    assert shared == pure
    shown = cards_in({name: json.loads(pure)[name] for name in REVEALING}) | {
        str(card) for card in known_out(game, None)}
    for audience in [*range(game.players), None]:
        text = seat_state_text(game, audience, shared)
        assert text == protocol.dumps(seat_state(game, audience, json.loads(pure)))
        hidden = {str(card) for seat, hand in enumerate(game.hands) if seat != audience
                  for card in hand} - shown
        state = json.loads(text)
        own = ("discarded", "known_out") if audience is not None else ()
        leaked = cards_in({k: v for k, v in state.items() if k not in own}) & hidden
        assert not leaked, (audience, leaked)


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int, int]:
    """Rules (a preset, up to four variations, up to two options), seats and a seed."""
    return draw_table(draw, OPTIONS, max_deals=2)


@accelerated
@derandomized(25)
@given(st.lists(tables(), min_size=3, max_size=3))
def test_kept_texts_are_the_python_encoders_across_tables(
        tables: list[tuple[Rules, int, int]]) -> None:
    """Three random tables (every preset, up to four variations, 2-6 seats) played in turn,
    the kept texts emptied first: at every state of each, every audience's state text is
    the Python encoder's and shows no hidden card; and the kept texts were used."""
    assert ENGINE is not None
    ENGINE.vc_memo_clear()
    games = [Game(rules, players, seed=seed) for rules, players, seed in tables]
    rngs = [random.Random(seed) for _, _, seed in tables]
    views = [PublicViews() for _ in tables]
    while any(not game.is_over for game in games):
        for game, rng, held in zip(games, rngs, views, strict=True):
            if game.is_over:
                continue
            check_texts(game, held)
            for _ in range(rng.randrange(1, 4)):
                if not game.is_over:
                    step(game, rng)
    for game, held in zip(games, views, strict=True):
        check_texts(game, held)  # the settlement
    hits, misses = ENGINE.vc_memo_clear()
    assert hits > 0 and misses > 0


@accelerated
def test_an_equal_object_that_is_not_the_same_is_written_again() -> None:
    """A taken trick or a tuple of round results equal to a kept one but another object (or
    a kept one written with other card texts) is written anew: only the very object's text
    is put in again."""
    assert ENGINE is not None
    game = Game(Rules.preset("pagat"), 4, seed=21)
    rng = random.Random(21)
    while not (public_view(game).tricks and public_view(game).round_results):
        step(game, rng)
    view = public_view(game)
    first = public_text(view)
    copied = dataclasses.replace(
        view, tricks=tuple(dataclasses.replace(t) for t in view.tricks),
        round_results=tuple(view.round_results[::-1]))
    assert public_text(copied) == protocol.dumps(public_json(copied)) != first
    marked = tuple("X" + text for text in viewjson._CARD_TEXT)
    other = ENGINE.public_json_text(view, marked, viewjson._other_text)
    for trick in view.tricks:
        for play in trick.cards:
            assert f'"card":"X{viewjson._CARD_TEXT[play.card]}"' in other
    assert ENGINE.public_json_text(view, viewjson._CARD_TEXT, viewjson._other_text) == first


@accelerated
def test_round_results_shared_by_states_are_written_once(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """The public texts of states of a deal after its first scoring round, between two
    scoring events, call ``RoundResult.to_json`` for the first of them only (the text of
    the very tuple of results kept): fails before this pass, which wrote every state's
    results from their ``to_json`` again."""
    assert ENGINE is not None
    game = Game(Rules.preset("pagat"), 4, seed=8)
    rng = random.Random(8)
    while not public_view(game).round_results or public_view(game).phase.value != "play":
        step(game, rng)
    calls = 0
    to_json = RoundResult.to_json

    def counted(self: RoundResult) -> object:
        nonlocal calls
        calls += 1
        return to_json(self)

    monkeypatch.setattr(RoundResult, "to_json", counted)
    getattr(ENGINE, "vc_memo_clear", lambda: None)()  # (main has no kept texts to empty)
    texts = []
    results = public_view(game).round_results
    while public_view(game).round_results is results and len(texts) < 6:
        texts.append(public_text(public_view(game)))
        step(game, rng)
    assert len(texts) >= 2
    assert calls == len(results)  # the first state's only
    monkeypatch.setattr(RoundResult, "to_json", to_json)


def test_known_out_reads_the_log_without_the_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat's and a spectator's ``known_out`` (and so an update's own part) is the set
    folded from the events the seat may see, read without ``Game.seen_by`` making them into
    a tuple: fails before this pass, which made them for every state text."""
    for preset in sorted(PRESETS):
        game = Game(Rules.preset(preset).with_variations("V-ONE-UP"), 4, seed=5)
        rng = random.Random(5)
        for _ in range(120):
            if game.is_over:
                break
            for seat in [*range(4), None]:
                expected = set(shared_out_of_stock(game.copy().seen_by(seat), seat))
                with monkeypatch.context() as patch:
                    patch.setattr(Game, "seen_by", _refused)
                    assert set(known_out(game, seat)) == expected
                    public = public_json(public_view(game))
                    seat_state(game, seat, public)
            step(game, rng)


def _refused(self: Game, seat: int | None) -> object:
    raise AssertionError("seen_by called for an update's own part")
