"""The JSON Schema of views, events and the table server's game frames, made from the types.

:func:`json_schema` builds it from the declarations themselves: the event classes of
:mod:`chicago.engine.events` (fields, types, the docstring under each field), the view's
TypedDicts of :mod:`chicago.engine.viewtypes`, the phases of :class:`chicago.Phase` and the
rule options of :class:`chicago.Rules`. ``docs/schema.json`` is its output
(``python scripts/make_schema.py`` writes it; a test checks that the shipped file is
current and validates views, events and websocket frames of random games against it).

>>> schema = json_schema()
>>> sorted(schema["$defs"]["view"]["properties"])[:3]
['announcements', 'chicago', 'chicago_declared']
>>> schema["$defs"]["event.play"]["required"]
['type', 'seat', 'card', 'trick']
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import textwrap
import types
import typing
from typing import Any, Literal

from chicago.cards import RANKS
from chicago.engine import viewtypes
from chicago.engine.events import EVENT_TYPES, Event
from chicago.engine.game import Phase
from chicago.rules import Rules

__all__ = ["SCHEMA_VERSION", "attribute_docs", "json_schema"]

SCHEMA_VERSION = 1
"""Changes whenever a view, event or frame changes shape (the schema's ``version``)."""

_DRAFT = "https://json-schema.org/draft/2020-12/schema"
_SCALARS: dict[str, dict[str, Any]] = {
    "int": {"type": "integer"},
    "bool": {"type": "boolean"},
    "str": {"type": "string"},
    "float": {"type": "number"},
}


def attribute_docs(cls: type) -> dict[str, str]:
    """The docstring written under each attribute of ``cls`` (its source), by name."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    body = ast.parse(source).body[0]
    assert isinstance(body, ast.ClassDef)
    docs: dict[str, str] = {}
    items = body.body
    for item, after in itertools.pairwise(items):
        target = None
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            target = item.target.id
        elif (isinstance(item, ast.Assign) and len(item.targets) == 1
              and isinstance(item.targets[0], ast.Name)):
            target = item.targets[0].id
        if (target is not None and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)):
            docs[target] = " ".join(after.value.value.split())
    return docs


def _doc(cls: type) -> str:
    return " ".join((cls.__doc__ or "").split())


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


# ---------------------------------------------------------------------- events
def _event_field(cls: type[Event], name: str, declared: str) -> dict[str, Any]:
    if cls.type == "reveal" and name == "rank":
        return {"enum": list(RANKS)}
    if cls.type == "showdown" and name == "hands":
        return {"type": "object", "patternProperties": {
            "^[0-5]$": {"type": "array", "items": _ref("card")}}, "additionalProperties": False}
    if declared in _SCALARS:
        return dict(_SCALARS[declared])
    if declared == "Card":
        return _ref("card")
    if declared == "Category":
        return _ref("category")
    optional = declared.endswith(" | None")
    if optional:
        inner = _event_field(cls, name, declared[: -len(" | None")])
        return {"anyOf": [inner, {"type": "null"}]}
    if declared.startswith("tuple[") and declared.endswith(", ...]"):
        item = declared[len("tuple["): -len(", ...]")]
        return {"type": "array", "items": _event_field(cls, name, item)}
    raise TypeError(f"no JSON schema for {cls.__name__}.{name}: {declared}")


def _event_schema(cls: type[Event]) -> dict[str, Any]:
    docs = attribute_docs(cls)
    properties: dict[str, Any] = {"type": {"const": cls.type}}
    required = ["type"]
    for name in cls.fields:
        key = "count" if cls.type == "reshuffle" and name == "size" else name
        prop = _event_field(cls, name, cls.field_types[name])
        if name in docs:
            prop["description"] = docs[name]
        properties[key] = prop
        if name not in cls.defaults:
            required.append(key)
    if cls.private:
        properties["to"] = {"type": "integer", "description": "The one seat that sees this "
                            "event (the same as its seat)."}
        required.append("to")
    audience = ("private: only the seat it names sees it" if cls.private
                else "public: every seat and the spectators see it")
    return {
        "type": "object",
        "description": f"{_doc(cls)} Audience: {audience}.",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


# ---------------------------------------------------------------------- typed dicts
def _python_type(hint: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of a Python type hint of the view's TypedDicts."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Annotated:
        marker = hint.__metadata__[0]
        return _ref(marker)
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (types.UnionType, typing.Union):
        parts = [_python_type(a, defs) for a in args]
        return {"anyOf": parts}
    if origin is list:
        return {"type": "array", "items": _python_type(args[0], defs)}
    if origin is dict:
        if args[1] is Any:
            return {"type": "object"}
        return {"type": "object", "additionalProperties": _python_type(args[1], defs)}
    if hint is type(None):
        return {"type": "null"}
    if hint is Any:
        return {}
    if isinstance(hint, type) and typing.is_typeddict(hint):
        name = hint.__name__
        if name not in defs:
            defs[name] = {}  # reserve (no recursion in these types, but keep the order)
            defs[name] = _typed_dict(hint, defs)
        return _ref(name)
    if isinstance(hint, type) and hint.__name__ in _SCALARS:
        return dict(_SCALARS[hint.__name__])
    raise TypeError(f"no JSON schema for {hint!r}")


def _typed_dict(cls: type, defs: dict[str, Any], skip: tuple[str, ...] = ()) -> dict[str, Any]:
    hints = typing.get_type_hints(cls, vars(viewtypes), include_extras=True)
    docs = attribute_docs(cls)
    properties: dict[str, Any] = {}
    for name, hint in hints.items():
        if name in skip:
            continue
        prop = _ref("rules") if name == "rules" else _python_type(hint, defs)
        if name == "phase":
            prop = _ref("phase")
        if name in docs:
            prop = {**prop, "description": docs[name]} if "$ref" not in prop else {
                "allOf": [prop], "description": docs[name]}
        properties[name] = prop
    return {
        "type": "object",
        "description": _doc(cls),
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


# ---------------------------------------------------------------------- rules and phases
def _rules_schema() -> dict[str, Any]:
    hints = typing.get_type_hints(Rules)
    docs = attribute_docs(Rules)
    properties: dict[str, Any] = {}
    for f in dataclasses.fields(Rules):
        hint = hints[f.name]
        if f.name == "points":
            prop: dict[str, Any] = {"type": "object", "additionalProperties": {
                "type": "integer"}, "propertyNames": _ref("category")}
        elif f.name == "variations":
            prop = {"type": "array", "items": {"type": "string", "pattern": "^V-[A-Z0-9-]+$"}}
        else:
            prop = _rule_type(hint)
        if f.name in docs:
            prop["description"] = docs[f.name]
        properties[f.name] = prop
    return {
        "type": "object",
        "description": "Every rule option (Rules.to_dict; docs/RULES.md describes each).",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _rule_type(hint: Any) -> dict[str, Any]:
    origin = typing.get_origin(hint)
    if origin is Literal:
        return {"enum": list(typing.get_args(hint))}
    if origin in (types.UnionType, typing.Union):
        return {"anyOf": [_rule_type(a) for a in typing.get_args(hint)]}
    if hint is type(None):
        return {"type": "null"}
    if hint is float:
        return {"type": "number"}
    return dict(_SCALARS[hint.__name__])


def _phase_schema() -> dict[str, Any]:
    docs = attribute_docs(Phase)
    lines = [f"{member.value!r}: {docs.get(member.name, '')}" for member in Phase]
    return {"enum": [p.value for p in Phase],
            "description": "The phase of the deal. " + " ".join(lines)}


# ---------------------------------------------------------------------- frames
def _frames() -> dict[str, Any]:
    """The table server's frames that carry the game (docs/PROTOCOL.md has all of them)."""
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
    """The JSON Schema (draft 2020-12) of a view (``$defs/view``), an event
    (``$defs/event``, one definition per kind) and the server's game frames."""
    defs: dict[str, Any] = {
        "card": {"type": "string", "pattern": "^[2-9TJQKA][cdhs]$",
                 "description": "A card: rank 2-9, T, J, Q, K, A and suit c, d, h, s "
                                "('Ah', 'Tc')."},
        "category": {"enum": list(viewtypes.CATEGORY_NAMES),
                     "description": "A hand category by name, low to high (R-HAND-1)."},
        "phase": _phase_schema(),
        "rules": _rules_schema(),
    }
    for kind, cls in EVENT_TYPES.items():
        defs[f"event.{kind}"] = _event_schema(cls)
    defs["event"] = {
        "description": "One event of the game log, by its type (chicago.engine.events).",
        "oneOf": [_ref(f"event.{kind}") for kind in EVENT_TYPES],
    }
    defs["view"] = _typed_dict(viewtypes.SeatView, defs)
    state = _typed_dict(viewtypes.SeatView, defs, skip=("rules", "events", "history"))
    state["description"] = ("The state in an update frame: the view without rules, events "
                            "and history.")
    defs["state"] = state
    defs.update(_frames())
    return {
        "$schema": _DRAFT,
        "title": "chicago: views, events and game frames",
        "description": "Generated from the types by scripts/make_schema.py "
                       "(chicago.engine.schema); do not edit by hand.",
        "version": SCHEMA_VERSION,
        "anyOf": [_ref("view"), _ref("event"), _ref("frame.snapshot"), _ref("frame.update"),
                  _ref("frame.game_over")],
        "$defs": defs,
    }
