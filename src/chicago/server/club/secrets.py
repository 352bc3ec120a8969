"""The secrets of club play as a client sends them: a profile's and an organizer's, checked
for shape before any lookup (what they are and how they are stored: docs/CLUB.md)."""

from __future__ import annotations

import string

from chicago.server.protocol import TableError

__all__ = ["SECRET_CHARS", "check_secret"]

SECRET_CHARS = frozenset(string.ascii_letters + string.digits + "-_")
"""The characters of a profile or organizer secret (URL-safe base64)."""


def check_secret(value: str | None, what: str) -> str:
    """A secret as sent (a header), or TableError 401 (``bad_profile`` or
    ``bad_organizer``, by ``what``) saying it is missing or not a secret at all."""
    if not value:
        raise _bad_secret(what, f"send the {what} secret (X-Chicago-{what.capitalize()} "
                          "header)")
    value = value.strip()
    if not 16 <= len(value) <= 128 or not SECRET_CHARS.issuperset(value):
        raise _bad_secret(what, f"not a {what} secret (16-128 letters, digits, '-' and '_')")
    return value


def _bad_secret(what: str, message: str) -> TableError:
    if what == "organizer":
        return TableError("bad_organizer", message, 401)
    return TableError("bad_profile", message, 401)
