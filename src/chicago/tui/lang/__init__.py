"""The terminal's words in English and Swedish: one catalogue per language.

An entry is a text with ``{placeholders}`` or a function of the parameters, as in the
browser app's catalogues (``web/static/js/lang/en.js`` and ``sv.js``), which are one source
with these: their literal texts are read from the browser's files
(:mod:`chicago.tui.lang.browser`), their functions are Python functions here that give the
same text for the same parameters (``tests/test_tui_lang.py`` runs both), and keys only
the terminal has start with ``tui.``.

Sentences about a seat get ``who`` (the subject inside a sentence: a name or "you"/"du"),
``Who`` (the subject at the start of a sentence: a name or "You"/"Du"), ``whom`` (the
object: a name or "you"/"dig") and ``you`` (True for the player's own seat, for English
verbs: "you pass", "Bo passes").

>>> ENGLISH.t("ev.pass", Who="Bo", you=False)
'Bo passes.'
>>> SWEDISH.t("ev.pass", Who="Du", you=True)
'Du passar.'
>>> lang_from_env({"LANG": "sv_SE.UTF-8"}).code
'sv'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

__all__ = [
    "CODES",
    "ENGLISH",
    "SWEDISH",
    "Entry",
    "Lang",
    "choose_lang",
    "get_lang",
    "lang_from_env",
]

Entry = str | Callable[[Mapping[str, Any]], str]
"""A catalogue entry: a text with ``{placeholders}`` or a function of the parameters."""

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class Lang:
    """One language's catalogue; :meth:`t` looks a key up (English if this one lacks it)."""

    def __init__(
        self, code: str, name: str, entries: Mapping[str, Entry], fallback: Lang | None = None
    ) -> None:
        self.code = code
        """``en`` or ``sv``."""
        self.name = name
        """The language's own name: ``English``, ``Svenska``."""
        self.entries = dict(entries)
        self.fallback = fallback

    def has(self, key: str) -> bool:
        """True when this language (or its fallback) has ``key``."""
        return key in self.entries or (self.fallback is not None and self.fallback.has(key))

    def t(self, key: str, /, **params: Any) -> str:
        """The text of ``key`` with ``params`` filled in; the key itself if it is unknown."""
        entry = self.entries.get(key)
        if entry is None:
            if self.fallback is not None:
                return self.fallback.t(key, **params)
            return key
        if callable(entry):
            return entry(params)
        return _PLACEHOLDER.sub(
            lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), entry
        )

    def __repr__(self) -> str:
        return f"Lang({self.code!r})"


def _build() -> tuple[Lang, Lang]:
    from chicago.tui.lang import en, sv

    english = Lang("en", "English", en.ENTRIES)
    return english, Lang("sv", "Svenska", sv.ENTRIES, fallback=english)


ENGLISH, SWEDISH = _build()
"""The two languages of the terminal."""

CODES = {"en": ENGLISH, "sv": SWEDISH}
"""The languages by their code, for ``--lang``."""


def get_lang(lang: Lang | str | None = None) -> Lang:
    """``lang`` as a :class:`Lang`: a Lang, a code (``sv``), or None for English.

    Raises ``ValueError`` for an unknown code.
    """
    if isinstance(lang, Lang):
        return lang
    if lang is None:
        return ENGLISH
    code = lang.strip().lower()
    if code not in CODES:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(CODES)}")
    return CODES[code]


def lang_from_env(environ: Mapping[str, str]) -> Lang:
    """The language of the locale, as POSIX programs choose it for their messages.

    The first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set and not empty decides:
    Swedish for ``sv`` and its regional forms (``sv_SE.UTF-8``, ``sv_FI``, ``sv-SE``),
    English for everything else (``C``, ``POSIX``, ``en_GB.UTF-8``, ``de_DE`` …).

    >>> lang_from_env({"LC_ALL": "C", "LANG": "sv_SE.UTF-8"}).code
    'en'
    >>> lang_from_env({"LC_MESSAGES": "sv_FI.UTF-8"}).code
    'sv'
    >>> lang_from_env({}).code
    'en'
    """
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "").strip()
        if value:
            language = re.split(r"[_.@-]", value, maxsplit=1)[0].lower()
            return SWEDISH if language == "sv" else ENGLISH
    return ENGLISH


def choose_lang(code: str | None, environ: Mapping[str, str]) -> Lang:
    """``--lang CODE`` if given, else the locale's language (:func:`lang_from_env`)."""
    return get_lang(code) if code else lang_from_env(environ)
