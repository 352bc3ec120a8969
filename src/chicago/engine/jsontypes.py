"""The type of JSON values, for the engine's JSON forms (views, events, the schema).

>>> value: JSONObject = {"type": "play", "seat": 2, "cards": ["Ah"], "to": None}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, TypeAlias

__all__ = ["JSON", "EventJSON", "JSONObject", "SchemaRef", "StateJSON", "ViewJSON"]

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
"""A JSON value."""

JSONObject: TypeAlias = "dict[str, JSON]"
"""A JSON object."""


@dataclass(frozen=True, slots=True)
class SchemaRef:
    """Marks a JSON value (in ``Annotated``) as described by the definition ``name`` of
    docs/schema.json: the schema of a frame made from its type refers to it there."""

    name: str


ViewJSON: TypeAlias = Annotated[JSONObject, SchemaRef("view")]
"""A whole view in its JSON form (:func:`chicago.engine.viewjson.view_json`)."""

StateJSON: TypeAlias = Annotated[JSONObject, SchemaRef("state")]
"""The compact JSON form of a view that update frames carry
(:func:`chicago.engine.viewjson.state_json`)."""

EventJSON: TypeAlias = Annotated[JSONObject, SchemaRef("event")]
"""An event in its JSON form (:meth:`chicago.engine.events.Event.to_json`)."""
