"""docs/schema.json (issue 19, item 1): generated from the types, current, complete, and
every view and event of random games of every preset is valid against it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from chicago import Game, Phase, Rules
from chicago.categories import Category
from chicago.engine.viewjson import view_json
from chicago.engine.viewtypes import CATEGORY_NAMES, PHASE_NAMES
from chicago.rules import PRESETS
from chicago.server.schema import json_schema
from script_loader import ROOT, load_script

jsonschema = pytest.importorskip("jsonschema")

SHIPPED = ROOT / "docs" / "schema.json"


def validator(definition: str) -> Any:
    """A validator of one definition of the shipped schema."""
    schema = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(
        {"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]})


def test_the_shipped_schema_is_current() -> None:
    """docs/schema.json is what scripts/make_schema.py writes now (run it after a change)."""
    module = load_script("scripts/make_schema.py")
    assert SHIPPED.read_text(encoding="utf-8") == module.text(), (
        "docs/schema.json is stale: run python scripts/make_schema.py")
    jsonschema.Draft202012Validator.check_schema(json_schema())


def _described(node: Any, path: str, missing: list[str]) -> None:
    if isinstance(node, dict):
        for name, prop in node.get("properties", {}).items():
            if name != "type" and "description" not in prop and "$ref" not in prop:
                missing.append(f"{path}.{name}")
        for key, value in node.items():
            _described(value, f"{path}.{key}", missing)


def test_every_field_and_value_is_documented() -> None:
    """Every field of a view and of every event has a description, and the phases, rounds,
    trick numbers and the Chicago declarer are explained (what a bot author needs)."""
    schema = json_schema()
    defs = schema["$defs"]
    missing: list[str] = []
    for name in ("view", "rules", *[d for d in defs if d.startswith("event.")]):
        _described(defs[name], name, missing)
    assert not missing, missing
    view = defs["view"]["properties"]
    assert "exchange round" in view["round"]["description"]
    assert "1-5" in view["trick_number"]["description"]
    assert "declared Chicago" in view["chicago"]["description"]
    for phase in Phase:
        assert repr(phase.value) in defs["phase"]["description"]
    assert defs["phase"]["enum"] == [p.value for p in Phase] == list(PHASE_NAMES)
    assert defs["category"]["enum"] == [c.name for c in Category] == list(CATEGORY_NAMES)


def test_views_and_events_of_random_games_are_valid() -> None:
    """Every view (each seat and a spectator) and every event at every decision of random
    games of every preset and several variations is valid against the shipped schema."""
    views, events = validator("view"), validator("event")
    count = 0
    for preset in PRESETS:
        for variations in ((), ("V-ONE-UP", "V-REDEAL-LOW"), ("V-QUADS-ONE", "V-QUADS-52"),
                           ("V-TIE-SUIT", "V-LOCK-6", "V-LARGE")):
            rules = Rules.preset(preset, max_deals=1).with_variations(*variations)
            players = 5 if "V-LARGE" in variations else 3
            game = Game(rules, players, seed=count)
            rng = random.Random(count)
            while True:
                # the seat to act at every decision, a spectator now and then
                for seat in (game.to_act, None) if rng.random() < 0.2 else (game.to_act,):
                    views.validate(view_json(game.view(seat)))
                    count += 1
                if game.is_over:
                    break
                game.apply(rng.choice(game.legal_actions()))
            for event in game.events_for(None):  # every public event once
                events.validate(event.to_json())
            for seat in range(players):  # and every private one
                for event in game.events_for(seat):
                    if event.private:
                        events.validate(event.to_json())
    assert count > 400


def test_a_view_with_a_wrong_field_is_refused() -> None:
    view = view_json(Game(Rules.preset("pagat"), 4, seed=1).view(0))
    check = validator("view")
    for field, value in (("phase", "dancing"), ("hand", ["Zz"]), ("chicago", "yes")):
        assert not check.is_valid({**view, field: value}), field
    assert not check.is_valid({**view, "extra": 1})


def test_the_engine_describes_no_frame_of_the_server() -> None:
    """The engine's schema holds views and events; the table server adds its frames
    (issue 24: the engine does not write the server's frame schema)."""
    from chicago.engine import schema as engine_schema

    engine_defs = engine_schema.json_schema()["$defs"]
    assert not [name for name in engine_defs if name.startswith("frame.")]
    assert {**engine_defs, **{d: v for d, v in json_schema()["$defs"].items()
                              if d.startswith("frame.")}} == json_schema()["$defs"]
