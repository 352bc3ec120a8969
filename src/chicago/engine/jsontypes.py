"""The type of JSON values, for the engine's JSON forms (views, events, the schema).

>>> value: JSONObject = {"type": "play", "seat": 2, "cards": ["Ah"], "to": None}
"""

from __future__ import annotations

from typing import TypeAlias

__all__ = ["JSON", "JSONObject"]

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
"""A JSON value."""

JSONObject: TypeAlias = "dict[str, JSON]"
"""A JSON object."""
