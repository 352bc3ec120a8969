"""Strict parsing of requests: a value of the wrong JSON type is refused, never converted.

Every request body is a pydantic model with :data:`STRICT` (unknown fields refused; a
string is not a number, a number is not a string, ``"yes"`` and ``1`` are not booleans);
every number in a path or a query is :func:`whole_number` checked (digits only: ``" 0"``,
``"+1"``, ``"1e3"``, ``"٣"`` are refused). A refusal is 400 ``bad_request`` naming the
field (``chicago.server.lobby``'s handler of validation errors) before anything is read or
stored.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, ConfigDict

__all__ = ["STRICT", "WholeNumber", "whole_number"]

STRICT = ConfigDict(extra="forbid", strict=True)
"""The model configuration of every request body."""


def whole_number(value: object) -> object:
    """A path or query value as given, if it is written in ASCII digits alone (pydantic then
    reads it as a number); ``ValueError`` otherwise."""
    if isinstance(value, str) and not (value.isascii() and value.isdigit()):
        raise ValueError(f"must be a whole number written in digits, not {value!r}")
    return value


WholeNumber = Annotated[int, BeforeValidator(whole_number)]
"""A whole number in a path or a query: digits only."""
