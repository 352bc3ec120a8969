"""Profile names: one person per name on a server.

Two profiles may not share a display name, so that a leaderboard, a tournament's standings
and a table never show two "Anna" that are two people. Names are compared by their
:func:`name_key`: Unicode-normalized (NFKC: a full-width ``Ａｎｎａ`` is ``Anna``),
case-folded (``ANNA``, ``anna``, ``Straße``/``STRASSE``) and with runs of blanks as one.
What is shown stays the name as the person typed it.
"""

from __future__ import annotations

import unicodedata

__all__ = ["name_key"]


def name_key(name: str) -> str:
    """The form two names are compared in: equal keys, the same name.

    >>> name_key("  Anna   Berg ") == name_key("ANNA BERG") == name_key("Ａｎｎａ Berg")
    True
    >>> name_key("Åsa") == name_key("åsa"), name_key("Anna") == name_key("Anna B")
    (True, False)
    """
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())
