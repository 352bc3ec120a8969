"""Events: what happened, and who may see it.

Every change of the game emits :class:`Event` records. An event is **public** (``audience``
is None: everyone at the table, spectators too) or **private** to one seat (the cards that
seat was dealt, discarded or drew). Views and logs are built only from the events a seat may
see, so a private event is the only place where hidden cards ever appear.

``event.data`` is JSON-able: ``{"type": "exchange", "seat": 2, "count": 3, …}``, cards as text.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PUBLIC", "Event"]

PUBLIC = None
"""The audience of a public event."""


class Event:
    """One thing that happened. ``data["type"]`` names it; ``audience`` says who may see it."""

    __slots__ = ("audience", "data")

    audience: int | None
    data: dict[str, Any]

    def __init__(self, data: dict[str, Any], audience: int | None = PUBLIC) -> None:
        self.data = data
        self.audience = audience

    @property
    def type(self) -> str:
        """The event's kind, e.g. ``"play"``."""
        return str(self.data["type"])

    @property
    def public(self) -> bool:
        """True when every seat (and spectators) may see this event."""
        return self.audience is None

    def visible_to(self, seat: int | None) -> bool:
        """May ``seat`` see this event? ``None`` asks for a spectator (public only)."""
        return self.audience is None or self.audience == seat

    def to_json(self) -> dict[str, Any]:
        """A JSON-able copy: the data plus ``"to"`` (the seat, for a private event).

        The copy is deep, so a caller that changes it cannot change the game's log.
        """
        out = {key: _copy(value) for key, value in self.data.items()}
        if self.audience is not None:
            out["to"] = self.audience
        return out

    def __repr__(self) -> str:
        who = "public" if self.audience is None else f"seat {self.audience}"
        return f"Event({self.data!r}, {who})"


def _copy(value: Any) -> Any:
    """A deep copy of JSON-like data (lists and dicts; the rest is immutable)."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value
