"""The JSON Schema of views and events, made from the types.

:func:`json_schema` builds it from the declarations themselves: the event classes of
:mod:`chicago.engine.events` (fields, types, the docstring under each field), the view's
dataclasses of :mod:`chicago.engine.viewtypes` (by the same rules as the one encoder of
views, :mod:`chicago.engine.viewjson`), the phases of :class:`chicago.Phase` and the rule
options of :class:`chicago.Rules`. ``docs/schema.json`` is its output with the table server's
frames added (:mod:`chicago.server.schema`; ``python scripts/make_schema.py`` writes it; a
test checks that the shipped file is current and validates views, events and websocket frames
of random games against it).

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
from collections.abc import Mapping
from typing import Literal

from chicago.cards import RANKS, Card
from chicago.categories import Category
from chicago.engine import viewtypes
from chicago.engine.actions import Action
from chicago.engine.events import EVENT_TYPES, Event
from chicago.engine.jsontypes import JSON, JSONObject
from chicago.engine.phases import Phase
from chicago.rules import Rules

__all__ = ["LEAF_SCHEMAS", "SCHEMA_VERSION", "attribute_docs", "json_schema"]

SCHEMA_VERSION = 1
"""Changes whenever a view, event or frame changes shape (the schema's ``version``)."""

_DRAFT = "https://json-schema.org/draft/2020-12/schema"
_SCALARS: dict[str, JSONObject] = {
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


def _ref(name: str) -> JSONObject:
    return {"$ref": f"#/$defs/{name}"}


# ---------------------------------------------------------------------- events
def _event_field(cls: type[Event], name: str, declared: str) -> JSONObject:
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


def _event_schema(cls: type[Event]) -> JSONObject:
    docs = attribute_docs(cls)
    properties: JSONObject = {"type": {"const": cls.type}}
    required: list[JSON] = ["type"]
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


# ---------------------------------------------------------------------- the view's types
LEAF_SCHEMAS: dict[type, JSONObject] = {
    Card: _ref("card"),
    Category: _ref("category"),
    Phase: _ref("phase"),
    Action: {"type": "string", "description": "An action in the text notation "
             "(docs/NOTATION.md)."},
    Rules: _ref("rules"),
    Event: _ref("event"),
}
"""The schema of each type with a JSON form of its own: the same types as the encoder's
:data:`chicago.engine.viewjson.LEAF_TYPES` (a kind of event refers to its own definition)."""


def _python_type(hint: object, defs: JSONObject) -> JSONObject:
    """The JSON schema of a declared type of the view's dataclasses, by the rules of the
    encoder (:func:`chicago.engine.viewjson.encoder`)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return {"anyOf": [_python_type(a, defs) for a in args]}
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return {"type": "array", "items": _python_type(args[0], defs)}
    if origin in (Mapping, dict):
        return {"type": "object", "additionalProperties": _python_type(args[1], defs)}
    if hint is type(None):
        return {"type": "null"}
    if isinstance(hint, type):
        cls: type = hint
        if issubclass(cls, Event) and cls.type:
            return _ref(f"event.{cls.type}")
        for leaf, schema in LEAF_SCHEMAS.items():
            if issubclass(cls, leaf):
                return dict(schema)
        if cls.__name__ in _SCALARS:
            return dict(_SCALARS[cls.__name__])
        if dataclasses.is_dataclass(cls):
            name = cls.__name__
            if name not in defs:
                defs[name] = {}  # reserve (no recursion in these types, but keep the order)
                defs[name] = _dataclass(cls, defs)
            return _ref(name)
    raise TypeError(f"no JSON schema for {hint!r}")


def _dataclass(
    cls: type, defs: JSONObject, parts: tuple[str, ...] = ("public", "own", "full")
) -> JSONObject:
    """The schema of a dataclass of the view: an object of its fields (those of ``parts``)."""
    hints = typing.get_type_hints(cls)
    docs = attribute_docs(cls)
    properties: JSONObject = {}
    for f in dataclasses.fields(cls):
        if f.metadata.get("part", "public") not in parts:
            continue
        prop = _python_type(hints[f.name], defs)
        if f.name in docs:
            prop = {**prop, "description": docs[f.name]} if "$ref" not in prop else {
                "allOf": [prop], "description": docs[f.name]}
        properties[f.name] = prop
    return {
        "type": "object",
        "description": _doc(cls),
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


# ---------------------------------------------------------------------- rules and phases
def _rules_schema() -> JSONObject:
    hints = typing.get_type_hints(Rules)
    docs = attribute_docs(Rules)
    properties: JSONObject = {}
    for f in dataclasses.fields(Rules):
        hint = hints[f.name]
        if f.name == "points":
            prop: JSONObject = {"type": "object", "additionalProperties": {
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


def _rule_type(hint: object) -> JSONObject:
    origin = typing.get_origin(hint)
    if origin is Literal:
        return {"enum": list(typing.get_args(hint))}
    if origin in (types.UnionType, typing.Union):
        return {"anyOf": [_rule_type(a) for a in typing.get_args(hint)]}
    if hint is type(None):
        return {"type": "null"}
    if hint is float:
        return {"type": "number"}
    assert isinstance(hint, type), hint
    return dict(_SCALARS[hint.__name__])


def _phase_schema() -> JSONObject:
    docs = attribute_docs(Phase)
    lines = [f"{member.value!r}: {docs.get(member.name, '')}" for member in Phase]
    return {"enum": [p.value for p in Phase],
            "description": "The phase of the deal. " + " ".join(lines)}


def json_schema() -> JSONObject:
    """The JSON Schema (draft 2020-12) of a view (``$defs/view``), an event
    (``$defs/event``, one definition per kind) and the update ``state`` (the view without
    its heavy fields). The table server adds its frames (:mod:`chicago.server.schema`)."""
    defs: JSONObject = {
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
    defs["view"] = _dataclass(viewtypes.SeatView, defs)
    state = _dataclass(viewtypes.SeatView, defs, parts=("public", "own"))
    state["description"] = ("The state in an update frame: the view without rules, events "
                            "and history.")
    defs["state"] = state
    return {
        "$schema": _DRAFT,
        "title": "chicago: views and events",
        "description": "Generated from the types (chicago.engine.schema).",
        "version": SCHEMA_VERSION,
        "anyOf": [_ref("view"), _ref("event")],
        "$defs": defs,
    }
