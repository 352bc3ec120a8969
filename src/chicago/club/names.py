"""Profile names: one person per name on a server, and no name that only looks like another.

Two profiles may not share a display name, so that a leaderboard, a tournament's standings
and a table never show two "Anna" that are two people. Names are compared by their
:func:`name_key`, which folds everything that makes two names look alike:

- the PRECIS nickname profile (RFC 8266, ``precis-i18n``): width (a full-width ``Ａｎｎａ``
  is ``Anna``), compatibility forms (``𝐀nna``), blanks, and case (``ANNA``, ``anna``);
- Unicode's confusable skeleton (TR39, the data of ``confusable-homoglyphs``): letters of
  other scripts that look like these (a Cyrillic ``А``, an Armenian ``ո``, a Greek capital
  ``Τ``), digits that look like letters (``1`` and ``l``, ``0`` and ``O``), ``rn`` and ``m``.

A name is also refused outright (:func:`name_problem`) when PRECIS does not allow one of its
characters, or when it mixes scripts beyond what TR39 calls *highly restrictive* (one
script, or Latin with the Han, Hiragana, Katakana, Bopomofo or Hangul of Chinese, Japanese
and Korean): ``Аnna`` with a Cyrillic ``А`` is refused even where nobody is called Anna.
What is shown stays the name as the person typed it. :func:`fold_name` is the older, weaker
comparison (case, width and blanks only), kept for the migration that introduced it.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from typing import Any

__all__ = ["KEY_LENGTH", "fold_name", "name_key", "name_problem"]

KEY_LENGTH = 200
"""The longest key :func:`name_key` gives (the stored column's length); a longer skeleton
is given as ``#`` and its SHA-256."""

_ALLOWED_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""Scripts a name may mix (TR39's highly restrictive level), besides one script alone."""

_NEUTRAL = frozenset({"COMMON", "INHERITED"})
"""Scripts that mix with any (blanks, digits, punctuation, combining marks)."""

_MARKS = "\u200e\u200f"
"""Direction marks the confusables data wraps right-to-left characters in."""


def fold_name(name: str) -> str:
    """Case, width and blanks folded (NFKC, case-folded, blanks as one): the comparison of
    names before look-alikes were folded (migration ``0005_profile_names``).

    >>> fold_name("  Anna   Berg ") == fold_name("ANNA BERG") == fold_name("Ａｎｎａ Berg")
    True
    """
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


@functools.cache
def _precis() -> Any:
    import precis_i18n

    return precis_i18n.get_profile("NicknameCaseMapped")


def _prepared(name: str) -> str:
    """The name as PRECIS compares nicknames (RFC 8266); ``UnicodeError`` for a name with a
    character PRECIS does not allow."""
    text: str = _precis().enforce(name)
    return text


@functools.cache
def _prototypes() -> dict[str, str]:
    """Character -> its prototype (TR39's confusables): what it looks like.

    The data of ``confusable-homoglyphs`` lists, for every character in Unicode's
    confusables.txt, the characters it is confusable with, in both directions. The mapping
    of TR39 is a set of stars: each source character maps to one prototype (which may be a
    sequence, such as ``rn`` for ``m``), and a prototype never maps on. So a character
    listed with several others is a prototype; one listed with a single other maps to it
    when that other is a prototype, a sequence, or a character that prototypes are made of;
    between two characters listed only with each other either may stand for both (the
    lower, here), which keeps every look-alike pair equal."""
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    links: dict[str, list[str]] = {}
    for key, entries in data.items():
        links[key.strip(_MARKS)] = [e["c"].strip(_MARKS) for e in entries]
    in_sequences = {ch for key in links if len(key) > 1 for ch in key}
    mapping: dict[str, str] = {}
    for key, others in links.items():
        if len(key) != 1 or len(others) != 1:
            continue  # a sequence, or a prototype (it stays itself)
        other = others[0]
        if len(links.get(other, ())) > 1 or len(other) > 1 or other in in_sequences:
            mapping[key] = other
        elif key not in in_sequences:
            mapping[key] = min(key, other)
    return mapping


def _skeleton(text: str) -> str:
    """TR39's skeleton of ``text``: NFD, each character by its prototype, NFD again."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """The form names are compared in: equal keys, the same name or names that look alike.
    Total: a name PRECIS does not allow (stored before these rules) is folded by
    :func:`fold_name` before its skeleton is taken.

    >>> name_key("Anna") == name_key("ＡNNA") == name_key("𝐀nna") == name_key("\\u0410nna")
    True
    >>> name_key("Anna") == name_key("A\\u0578na"), name_key("Anna") == name_key("Anna B")
    (True, False)
    """
    try:
        prepared = _prepared(name)
    except (UnicodeError, ValueError):
        prepared = fold_name(name)
    # letter by letter: what its small form looks like, or else what its capital looks
    # like (Greek ε, Cyrillic к look like no Latin letter, their capitals Ε, К do)
    shapes = []
    for ch in prepared.casefold():
        small = _skeleton(ch)
        if not small.isascii():
            capital = _skeleton(ch.upper())
            if capital.isascii():
                small = capital
        shapes.append(small)
    key = _skeleton("".join(shapes).casefold())
    if len(key) > KEY_LENGTH:  # a name of characters whose prototypes are long
        return "#" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    return key


def _scripts(text: str) -> set[str]:
    from confusable_homoglyphs import categories

    found = set()
    for ch in text:
        script = str(categories.alias(ch))
        if script not in _NEUTRAL:
            found.add(script)
    return found


def name_problem(name: str) -> str | None:
    """Why a new profile may not be called ``name`` (words for a person), or None: a
    character a name may not have, or scripts mixed beyond TR39's highly restrictive level.

    >>> name_problem("Anna"), name_problem("山田さん"), name_problem("Анна")
    (None, None, None)
    >>> name_problem("\\u0410nna")
    'mixes the CYRILLIC and LATIN scripts (a name may not, so that it cannot look like another)'
    """
    try:
        prepared = _prepared(name)
    except (UnicodeError, ValueError):
        return "holds a character a name may not have (RFC 8266)"
    scripts = _scripts(unicodedata.normalize("NFKC", prepared))
    if len(scripts) <= 1 or any(scripts <= mix for mix in _ALLOWED_MIXES):
        return None
    return (f"mixes the {' and '.join(sorted(scripts))} scripts (a name may not, so that "
            "it cannot look like another)")
