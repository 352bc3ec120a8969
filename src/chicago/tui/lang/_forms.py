"""Small helpers for catalogue entries that are functions (as ``s`` and ``v`` in lang/*.js)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["s", "v"]


def s(n: Any, one: str, many: str) -> str:
    """``one`` for exactly 1, else ``many``: the plural of a count."""
    return one if n == 1 else many


def v(p: Mapping[str, Any], second: str, third: str) -> str:
    """The English verb for the seat of ``p``: ``second`` for the player ("you pass"),
    ``third`` for another seat ("Bo passes")."""
    return second if p.get("you") else third
