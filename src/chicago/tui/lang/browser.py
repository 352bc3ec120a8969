"""The browser app's catalogues (``web/static/js/lang/en.js``, ``sv.js``) as the terminal
reads them: one source for the words both shells say.

:func:`browser_texts` returns every *literal* entry of a browser catalogue (``"key": "text"``,
also several on one line); entries that are functions (English verbs and plurals) are
left out: the terminal has them as Python functions of the same parameters, and
``tests/test_tui_lang.py`` runs both and compares. The files are part of every
installation (the package data of :mod:`chicago.web`).

>>> browser_texts("sv")["ev.pass"]
'{Who} passar.'
>>> "ev.play" in browser_texts("en")  # a function in en.js ("You play" / "Bo plays")
False
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources

__all__ = ["browser_entry_kinds", "browser_texts"]

_ENTRY = re.compile(
    r'(?:^|,)[ \t]*(?:"(?P<qkey>[^"\n]+)"|(?P<key>[A-Za-z_]\w*))\s*:\s*'
    r'(?:(?P<text>"(?:[^"\\\n]|\\.)*")(?=\s*(?:,|$|\}))|(?P<other>\S))',
    re.MULTILINE,
)
"""An entry of the catalogue object: its key, and a literal text or the start of anything
else (a function, a list, a text joined from parts)."""


@functools.cache
def _source(code: str) -> str:
    path = resources.files("chicago.web").joinpath("static", "js", "lang", f"{code}.js")
    source = path.read_text(encoding="utf-8")
    return source[source.index("export default {"):]


@functools.cache
def browser_entry_kinds(code: str) -> dict[str, str | None]:
    """Every key of the browser catalogue ``code``: its text if literal, else None."""
    found: dict[str, str | None] = {}
    for match in _ENTRY.finditer(_source(code)):
        key = match.group("qkey") or match.group("key")
        text = match.group("text")
        found[key] = json.loads(text) if text is not None else None
    return found


def browser_texts(code: str) -> dict[str, str]:
    """The literal entries of the browser catalogue ``code`` (``en`` or ``sv``)."""
    return {k: v for k, v in browser_entry_kinds(code).items() if v is not None}
