"""The JSON Schema of the table server's game frames, with the views and events they carry:
``docs/schema.json`` (``python scripts/make_schema.py`` writes it).

The engine makes the schema of views and events from their types
(:func:`chicago.engine.schema.json_schema`); the frames are the server's
(:mod:`chicago.server.core.frames`), so their definitions are here.

>>> sorted(d for d in json_schema()["$defs"] if d.startswith("frame."))
['frame.game_over', 'frame.snapshot', 'frame.update']
"""

from __future__ import annotations

from typing import Any

from chicago.engine import schema as engine_schema

__all__ = ["frame_schemas", "json_schema"]

FRAMES = ("snapshot", "update", "game_over")
"""The frames described: those that carry the game."""


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


def frame_schemas() -> dict[str, Any]:
    """The definitions of the frames that carry the game (``frame.snapshot``,
    ``frame.update``, ``frame.game_over``; docs/PROTOCOL.md has all of them)."""
    table = {"type": "object", "description": "The table (docs/PROTOCOL.md)."}
    clock = {"anyOf": [{"type": "object"}, {"type": "null"}],
             "description": "The turn clock, if the table has one (docs/PROTOCOL.md)."}
    seq = {"type": "integer", "description": "The table's sequence number after this frame."}
    return {
        "frame.snapshot": {
            "type": "object",
            "description": "The whole view of one audience (after hello, a rematch, a gap).",
            "properties": {"type": {"const": "snapshot"}, "seq": seq, "reason": {
                "type": "string"}, "you": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                "table": table, "view": _ref("view"), "clock": clock},
            "required": ["type", "seq", "view"],
        },
        "frame.update": {
            "type": "object",
            "description": "An action and the events it caused, as this audience sees them; "
                           "the last update of a batch also carries the new state.",
            "properties": {
                "type": {"const": "update"}, "seq": seq, "game": {"type": "integer"},
                "seat": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                "action": {"anyOf": [{"type": "string"}, {"type": "null"}],
                           "description": "The action's text, null when this audience may "
                                          "not see it (another seat's discards)."},
                "kind": {"type": "string"}, "by": {"type": "string"},
                "events": {"type": "array", "items": _ref("event")},
                "state": {"anyOf": [_ref("state"), {"type": "null"}]}, "clock": clock,
            },
            "required": ["type", "seq", "events"],
        },
        "frame.game_over": {
            "type": "object",
            "description": "The game has ended: winners, scores, settlement, the record.",
            "properties": {
                "type": {"const": "game_over"}, "seq": seq, "game": {"type": "integer"},
                "winners": {"type": "array", "items": {"type": "integer"}},
                "scores": {"type": "array", "items": {"type": "integer"}},
                "settlement": {"type": "array", "items": {"type": "number"}},
                "record": {"type": "string"},
            },
            "required": ["type", "winners", "scores", "settlement"],
        },
    }


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a view, an event and the game frames."""
    views = engine_schema.json_schema()
    any_of, defs = views["anyOf"], views["$defs"]
    assert isinstance(any_of, list) and isinstance(defs, dict)
    return {
        "$schema": views["$schema"],
        "title": "chicago: views, events and game frames",
        "description": "Generated from the types by scripts/make_schema.py "
                       "(chicago.engine.schema, chicago.server.schema); do not edit by hand.",
        "version": views["version"],
        "anyOf": [*any_of, *(_ref(f"frame.{kind}") for kind in FRAMES)],
        "$defs": {**defs, **frame_schemas()},
    }
