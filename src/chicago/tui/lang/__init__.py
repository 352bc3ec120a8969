"""The words of the terminal and the browser app in English and Swedish: one catalogue.

The catalogue is one JSON file per language, ``web/static/lang/en.json`` and ``sv.json``
(package data of :mod:`chicago.web`, loaded by the browser as they are): every key with one
message in the ICU MessageFormat syntax, formatted here by :mod:`chicago.tui.lang.icu` and in
the browser by ``web/static/js/icu.js`` (``tests/test_lang_catalogue.py`` checks that both
give the same text for every message, and that both languages have every key). Keys only
the terminal uses start with ``tui.``.

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

import functools
import json
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any

from chicago.tui.lang.icu import format_message

__all__ = [
    "CODES",
    "ENGLISH",
    "SWEDISH",
    "Lang",
    "catalogue",
    "choose_lang",
    "get_lang",
    "lang_from_env",
]


@functools.cache
def catalogue(code: str) -> dict[str, str]:
    """The messages of the language ``code`` (``en`` or ``sv``) by key, as in its file."""
    path = resources.files("chicago.web").joinpath("static", "lang", f"{code}.json")
    messages: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return messages


class Lang:
    """One language's catalogue; :meth:`t` looks a key up (English if this one lacks it)."""

    def __init__(
        self, code: str, name: str, entries: Mapping[str, str], fallback: Lang | None = None
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
        message = self.entries.get(key)
        if message is None:
            if self.fallback is not None:
                return self.fallback.t(key, **params)
            return key
        return format_message(message, params)

    def __repr__(self) -> str:
        return f"Lang({self.code!r})"


def _build() -> tuple[Lang, Lang]:
    english = Lang("en", "English", catalogue("en"))
    return english, Lang("sv", "Svenska", catalogue("sv"), fallback=english)


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
