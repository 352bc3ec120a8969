"""The JSON Schema of the table server's frames, with the views and events they carry:
``docs/schema.json`` (``python scripts/make_schema.py`` writes it).

The engine makes the schema of views and events from their types
(:func:`chicago.engine.schema.json_schema`); the frames' definitions are made here the same
way, from the typed dicts the table core builds and the encoder sends
(:data:`chicago.server.core.frames.Frame`): one definition ``frame.TYPE`` per frame, its
properties and their descriptions from the fields and the docstrings under them, a field
typed :data:`~chicago.engine.jsontypes.ViewJSON`, ``StateJSON`` or ``EventJSON`` referring to
the engine's definition.

>>> FRAMES[:5]
('snapshot', 'update', 'batch', 'game_over', 'seats')
>>> FRAMES[5:]
('continue', 'chat', 'resumed', 'presence', 'rematch')
>>> json_schema()["$defs"]["frame.update"]["properties"]["state"]["anyOf"][0]
{'$ref': '#/$defs/state'}
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, NotRequired, Required

from chicago.engine import jsontypes
from chicago.engine import schema as engine_schema
from chicago.engine.jsontypes import JSON, JSONObject, SchemaRef
from chicago.server.core import frames

__all__ = ["FRAMES", "frame_schema", "frame_schemas", "json_schema"]

_SCALARS: dict[object, JSONObject] = {
    int: {"type": "integer"}, str: {"type": "string"}, bool: {"type": "boolean"},
    float: {"type": "number"}, type(None): {"type": "null"},
}


def _hints(cls: type) -> dict[str, Any]:
    """The declared types of a typed dict's fields, with ``Annotated`` and ``NotRequired``
    kept (the JSON aliases they use resolved in :mod:`chicago.engine.jsontypes`)."""
    return typing.get_type_hints(cls, localns=vars(jsontypes), include_extras=True)


def _frame_classes() -> dict[str, type]:
    """The typed dict of each frame of :data:`~chicago.server.core.frames.Frame`, by its
    ``type``."""
    found: dict[str, type] = {}
    for cls in typing.get_args(frames.Frame):
        kind = typing.get_args(_hints(cls)["type"])
        assert len(kind) == 1 and isinstance(kind[0], str), cls
        found[kind[0]] = cls
    return found


FRAMES: tuple[str, ...] = tuple(_frame_classes())
"""The frames described, by their ``type`` (every frame of a table; ``error`` is
:func:`chicago.server.protocol.error_frame`'s, in docs/PROTOCOL.md)."""


def _ref(name: str) -> JSONObject:
    return {"$ref": f"#/$defs/{name}"}


def _type_schema(hint: object) -> JSONObject:
    """The schema of the values of one declared type of a frame's field."""
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        refs = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, SchemaRef)]
        if refs:
            return _ref(refs[0].name)
        return _type_schema(typing.get_args(hint)[0])
    if origin is Literal:
        values: list[JSON] = list(typing.get_args(hint))
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    if origin is typing.Union or origin is types.UnionType:
        return {"anyOf": [_type_schema(arg) for arg in typing.get_args(hint)]}
    if origin is list:
        return {"type": "array", "items": _type_schema(typing.get_args(hint)[0])}
    if origin is dict or hint is dict:
        return {"type": "object"}
    if hint is Any:
        return {}
    if typing.is_typeddict(hint):
        assert isinstance(hint, type)
        return _object_schema(hint)
    if hint in _SCALARS:
        return dict(_SCALARS[hint])
    raise TypeError(f"no JSON schema for a frame field of type {hint!r}")


def _object_schema(cls: type) -> JSONObject:
    """The schema of a typed dict: its fields (those not marked ``NotRequired`` are
    required), described by its docstring and the docstrings under its fields."""
    hints = _hints(cls)
    docs = engine_schema.attribute_docs(cls)
    properties: JSONObject = {}
    required: list[JSON] = []
    for name, hint in hints.items():
        origin = typing.get_origin(hint)
        if origin is NotRequired or origin is Required:
            hint = typing.get_args(hint)[0]
        # at run time a class's keys are all required unless it says total=False, as
        # ``NotRequired`` written as a string annotation is not seen there (Python 3.11)
        if origin is Required or (origin is not NotRequired
                                  and name in getattr(cls, "__required_keys__", ())):
            required.append(name)
        prop = _type_schema(hint)
        if name in docs:
            prop = {**prop, "description": docs[name]} if "$ref" not in prop else {
                "allOf": [prop], "description": docs[name]}
        properties[name] = prop
    return {"type": "object", "description": " ".join((cls.__doc__ or "").split()),
            "properties": properties, "required": required}


def frame_schema(kind: str) -> JSONObject:
    """The schema of the frame of type ``kind``, made from its typed dict."""
    return _object_schema(_frame_classes()[kind])


def frame_schemas() -> JSONObject:
    """The definitions of every frame of a table (``frame.snapshot``, ``frame.update`` …;
    docs/PROTOCOL.md says when each is sent)."""
    return {f"frame.{kind}": frame_schema(kind) for kind in FRAMES}


def json_schema() -> JSONObject:
    """The JSON Schema (draft 2020-12) of a view, an event and the frames of a table."""
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
