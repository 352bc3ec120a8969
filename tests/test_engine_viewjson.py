"""The JSON form of the typed view (issue 24): one encoder derived from the view's types.

- The JSON of views is what it was before the view was typed, byte for byte, but for the
  fields added since (documented in CHANGELOG.md and docs/PROTOCOL.md; issue 30: each
  finished deal of ``history`` gained its ``tricks`` and ``chicago``): the golden file
  ``tests/golden/views.jsonl`` was written by the earlier dict views for one game
  (V-ONE-UP, V-QUADS-RESET; a spectator and the seat to act every fifth action).
- The encoder and ``docs/schema.json`` follow the same declarations: every type with a JSON
  form of its own has a schema, and every field of the view has both.
- The compact state of update frames is the view without its ``full`` fields.
- The dedicated encoders (``public_json``, ``own_json``, ``view_json``; issue 28: the
  table server encodes a state for every action) write, byte for byte, what the encoder
  derived from the declarations (``part_json``) writes, for every field of the view, on
  random games of every preset and variation, for every seat and the spectators.
"""

from __future__ import annotations

import dataclasses
import json
import random
import typing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from chicago import Game, Rules, SeatView
from chicago.engine.schema import LEAF_SCHEMAS, json_schema
from chicago.engine.viewjson import (
    LEAF_TYPES,
    encoder,
    own_json,
    part_json,
    public_json,
    public_state,
    seat_state,
    state_json,
    view_json,
)
from chicago.engine.views import own_part
from test_engine_properties import Case, cases

GOLDEN = Path(__file__).parent / "golden" / "views.jsonl"


def _golden_game() -> list[tuple[int, int | None, SeatView]]:
    rules = Rules.preset("wikipedia", max_deals=2).with_variations("V-ONE-UP", "V-QUADS-RESET")
    game = Game(rules, 4, seed=3)
    rng = random.Random(3)
    views = []
    step = 0
    while True:
        if step % 5 == 0 or game.is_over:
            views.extend((step, seat, game.view(seat)) for seat in (None, game.to_act))
        if game.is_over:
            return views
        game.apply(rng.choice(game.legal_actions()))
        step += 1


ADDED = ("hand_sizes", "scoring_round", "chicago_points", "lock_at", "exchange_rounds")
"""The fields the view gained with the typed view (issue 24: the browser derives nothing)."""
HISTORY_ADDED = ("tricks", "chicago")
"""The fields each finished deal of ``history`` gained (issue 30: its public card play)."""


def test_the_json_of_views_is_unchanged_byte_for_byte_but_for_the_added_fields() -> None:
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    views = _golden_game()
    assert len(lines) == len(views)
    for line, (step, seat, view) in zip(lines, views, strict=True):
        data = view_json(view)
        keys = list(data)
        at = keys.index(ADDED[0])
        assert tuple(keys[at : at + len(ADDED)]) == ADDED  # together, after "settlement"
        for key in ADDED:
            del data[key]
        history = data["history"]
        assert isinstance(history, list)
        for deal in history:
            assert isinstance(deal, dict)
            assert tuple(deal)[-len(HISTORY_ADDED):] == HISTORY_ADDED  # last, in order
            for key in HISTORY_ADDED:
                del deal[key]
        text = json.dumps({"step": step, "seat": seat, "view": data}, separators=(",", ":"))
        assert text == line, (step, seat)


def test_the_encoder_and_the_schema_know_the_same_types() -> None:
    """One table of leaf types for both; every field of the view has an encoder and a
    schema (a field of a new type fails here, not on the wire)."""
    assert set(LEAF_TYPES) == set(LEAF_SCHEMAS)
    hints = typing.get_type_hints(SeatView)
    schema = json_schema()["$defs"]["view"]["properties"]
    for f in dataclasses.fields(SeatView):
        encoder(hints[f.name])  # raises TypeError for a type without a JSON form
        assert f.name in schema
    assert list(schema) == [f.name for f in dataclasses.fields(SeatView)]
    with pytest.raises(TypeError):
        encoder(complex)


def test_state_and_parts() -> None:
    """The update state is the view without rules, events and history; the public part is
    the same for every audience and the own part holds the seat's cards and choices."""
    game = Game(Rules.preset("pagat"), 4, seed=2)
    for _ in range(9):
        game.apply(game.legal_actions()[0])
    public = public_state(game)
    for seat in (None, 0, 1, 2, 3):
        view = game.view(seat)
        full = view_json(view)
        state = state_json(view)
        assert set(full) - set(state) == {"rules", "events", "history"}
        assert state == {k: full[k] for k in state}
        assert seat_state(game, seat, public) == state
        assert part_json(view, "public") == public
        assert set(part_json(view, "own")) == {
            "seat", "hand", "hand_category", "discarded", "legal_actions", "known_out"}


@pytest.mark.parametrize("variations", [(), ("V-ONE-UP", "V-QUADS-RESET"), ("V-LOCK-6",)])
def test_the_public_part_is_the_spectators_at_every_step(variations: tuple[str, ...]) -> None:
    """``public_state`` (made from ``public_view``, which skips the spectator's own part) is
    the public part of the spectator's whole view, and every seat's state is its view's
    state, after every action of random games (V-ONE-UP, V-QUADS-RESET, V-LOCK-6)."""
    rng = random.Random(7)
    for seed in range(3):
        game = Game(Rules.preset("pagat", max_deals=2).with_variations(*variations), 4,
                    seed=seed)
        while not game.is_over:
            public = public_state(game)
            assert public == part_json(game.view(None), "public")
            for seat in (None, 0, 1, 2, 3):
                assert seat_state(game, seat, public) == state_json(game.view(seat))
            game.apply(rng.choice(game.legal_actions()))


def _text(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(max_deals=True))  # one to three deals: the game's end and its settlement too
def test_the_dedicated_encoders_write_what_the_derived_encoder_writes_V_HIDDEN(
        case: Case) -> None:
    """After every action of a random game (every preset and variation): for the
    spectators and every seat, ``public_json``, ``own_json`` (of the view and of
    ``own_part``) and ``view_json`` are byte for byte the derived encoder's JSON of the same
    parts, so the fast path shows no more of a view than the view holds."""
    game = Game(case.rules, players=case.players, seed=case.seed)
    rng = random.Random(case.seed)
    steps = 0
    while steps < 400:
        for seat in [None, *range(game.players)]:
            view = game.view(seat)
            assert _text(public_json(view)) == _text(part_json(view, "public"))
            own = _text(part_json(view, "own"))
            assert _text(own_json(view)) == own
            assert _text(own_json(own_part(game, seat))) == own
            assert _text(view_json(view)) == _text(part_json(view, "public", "own", "full"))
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        steps += 1


def test_the_dedicated_encoders_write_every_field_of_the_view() -> None:
    """A field added to ``SeatView`` fails here until the dedicated encoders write it."""
    view = Game(Rules.preset("pagat"), 4, seed=1).view(0)
    assert list(public_json(view)) == list(part_json(view, "public"))
    assert list(own_json(view)) == list(part_json(view, "own"))
    assert list(view_json(view)) == [f.name for f in dataclasses.fields(SeatView)]
