"""The JSON form of the typed view (issue 24): one encoder derived from the view's types.

- The JSON of views is what it was before the view was typed, byte for byte, but for the
  fields added since (documented in CHANGELOG.md and docs/PROTOCOL.md): the golden file
  ``tests/golden/views.jsonl`` was written by the earlier dict views for one game
  (V-ONE-UP, V-QUADS-RESET; a spectator and the seat to act every fifth action).
- The encoder and ``docs/schema.json`` follow the same declarations: every type with a JSON
  form of its own has a schema, and every field of the view has both.
- The compact state of update frames is the view without its ``full`` fields.
"""

from __future__ import annotations

import dataclasses
import json
import random
import typing
from pathlib import Path

import pytest

from chicago import Game, Rules, SeatView
from chicago.engine.schema import LEAF_SCHEMAS, json_schema
from chicago.engine.viewjson import (
    LEAF_TYPES,
    encoder,
    part_json,
    public_state,
    seat_state,
    state_json,
    view_json,
)

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
