"""ICU MessageFormat, the part the word catalogues use, for the terminal.

The catalogues (``web/static/lang/en.json`` and ``sv.json``) hold one message per key in the
ICU MessageFormat syntax; the browser formats them with ``web/static/js/icu.js`` and the
terminal with this module, and ``tests/test_lang_catalogue.py`` runs both on every message
and compares. A message is text with

- ``{name}``: the parameter ``name`` (left as ``{name}`` when it is not given, as ``#`` is);
- ``{n, plural, =0 {none} one {# card} other {# cards}}``: a branch by the number ``n``: an
  exact ``=N`` first, else its plural category (``one`` for 1 and -1, else ``other``: the
  rule of English and Swedish), ``#`` in the branch standing for the number;
- ``{you, select, true {pass} other {passes}}``: a branch by the parameter's text (``true``
  and ``false`` for truth values), ``other`` when none matches or it is not given;
- ``''`` for an apostrophe, and ``'{'`` (an apostrophe before ``{ } # |``) quoting text.

A value is written as JavaScript's ``String()`` writes it (``true``, ``null``, ``3`` for
``3.0``), so that both shells give the same text for the same parameters.

>>> format_message("{Who} {you, select, true {pass} other {passes}}.", {"Who": "Bo"})
'Bo passes.'
>>> format_message("{n, plural, =0 {no cards} one {# card} other {# cards}}", {"n": 3})
'3 cards'
>>> format_message("It''s '{'literal'}' {missing}", {})
"It's {literal} {missing}"
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = ["Arg", "Choice", "MessageError", "Part", "Pound", "arguments", "format_message",
           "parse", "value_text"]


class MessageError(ValueError):
    """A message that is not valid in the syntax above (with the place of the fault)."""


@dataclass(frozen=True, slots=True)
class Arg:
    """``{name}``: a parameter's value."""

    name: str


@dataclass(frozen=True, slots=True)
class Pound:
    """``#`` inside a plural branch: the number that chose it."""


@dataclass(frozen=True, slots=True)
class Choice:
    """``{name, plural|select, key {message} ... other {message}}``."""

    name: str
    kind: Literal["plural", "select"]
    branches: tuple[tuple[str, tuple[Part, ...]], ...]

    def branch(self, key: str) -> tuple[Part, ...] | None:
        """The branch of ``key``, or None."""
        for name, parts in self.branches:
            if name == key:
                return parts
        return None


Part = str | Arg | Pound | Choice
"""A piece of a parsed message."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEY = re.compile(r"=-?\d+(?:\.\d+)?|[A-Za-z_][A-Za-z0-9_-]*")
_SPACE = re.compile(r"\s*")
_QUOTABLE = "{}#|"


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def fail(self, what: str) -> MessageError:
        return MessageError(f"{what} at character {self.at} of {self.text!r}")

    def space(self) -> None:
        match = _SPACE.match(self.text, self.at)
        assert match is not None
        self.at = match.end()

    def word(self, pattern: re.Pattern[str], what: str) -> str:
        match = pattern.match(self.text, self.at)
        if match is None:
            raise self.fail(f"expected {what}")
        self.at = match.end()
        return match.group()

    def expect(self, char: str) -> None:
        if not self.text.startswith(char, self.at):
            raise self.fail(f"expected {char!r}")
        self.at += 1

    def message(self, in_plural: bool, nested: bool) -> tuple[Part, ...]:
        parts: list[Part] = []
        literal: list[str] = []

        def flush() -> None:
            if literal:
                parts.append("".join(literal))
                literal.clear()

        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char == "'":
                literal.append(self.quoted())
            elif char == "{":
                flush()
                parts.append(self.argument(in_plural))
            elif char == "}":
                if not nested:
                    raise self.fail("unmatched '}'")
                break
            elif char == "#" and in_plural:
                flush()
                parts.append(Pound())
                self.at += 1
            else:
                literal.append(char)
                self.at += 1
        else:
            if nested:
                raise self.fail("unclosed '{'")
        flush()
        return tuple(parts)

    def quoted(self) -> str:
        """An apostrophe: ``''`` is one; before ``{ } # |`` it quotes up to the next single
        apostrophe; else it is itself."""
        text, start = self.text, self.at
        following = text[start + 1:start + 2]
        if following == "'":
            self.at += 2
            return "'"
        if not following or following not in _QUOTABLE:
            self.at += 1
            return "'"
        out: list[str] = []
        at = start + 1
        while at < len(text):
            if text[at] == "'":
                if text[at + 1:at + 2] == "'":
                    out.append("'")
                    at += 2
                    continue
                at += 1
                break
            out.append(text[at])
            at += 1
        self.at = at
        return "".join(out)

    def argument(self, in_plural: bool) -> Part:
        self.expect("{")
        self.space()
        name = self.word(_NAME, "a parameter name")
        self.space()
        if self.text.startswith("}", self.at):
            self.at += 1
            return Arg(name)
        self.expect(",")
        self.space()
        kind = self.word(_NAME, "plural or select")
        if kind not in ("plural", "select"):
            raise self.fail(f"unknown argument type {kind!r}")
        self.space()
        self.expect(",")
        branches: list[tuple[str, tuple[Part, ...]]] = []
        while True:
            self.space()
            if self.text.startswith("}", self.at):
                self.at += 1
                break
            key = self.word(_KEY, "a branch key")
            if key.startswith("=") and kind != "plural":
                raise self.fail("an exact =N key outside a plural")
            if any(key == known for known, _ in branches):
                raise self.fail(f"the branch {key!r} twice")
            self.space()
            self.expect("{")
            inner = self.message(in_plural or kind == "plural", nested=True)
            self.expect("}")
            branches.append((key, inner))
        if not any(key == "other" for key, _ in branches):
            raise self.fail(f"{{{name}, {kind}}} without an 'other' branch")
        return Choice(name, "plural" if kind == "plural" else "select", tuple(branches))


@functools.cache
def parse(message: str) -> tuple[Part, ...]:
    """The parts of ``message``; raises :class:`MessageError` when it is not valid."""
    return _Parser(message).message(in_plural=False, nested=False)


def arguments(message: str) -> dict[str, str]:
    """Every parameter ``message`` uses, with how: ``"value"`` (written out), ``"plural"``
    or ``"select"`` (choosing a branch; a plural's number written as ``#`` counts too).

    >>> arguments("{Who} {n, plural, one {# card} other {# cards}}")
    {'Who': 'value', 'n': 'plural'}
    """
    found: dict[str, str] = {}

    def walk(parts: tuple[Part, ...]) -> None:
        for part in parts:
            if isinstance(part, Arg):
                found[part.name] = "value"
            elif isinstance(part, Choice):
                found.setdefault(part.name, part.kind)
                for _, inner in part.branches:
                    walk(inner)

    walk(parse(message))
    return found


def value_text(value: object) -> str:
    """A parameter's value as text, as JavaScript's ``String(value)`` writes it for the
    values a message gets: ``true``/``false``, ``null``, whole numbers without ``.0``."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        return repr(value)
    return str(value)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _plural_branch(choice: Choice, value: object) -> tuple[Part, ...]:
    if _is_number(value):
        assert isinstance(value, int | float)
        for key, parts in choice.branches:
            if key.startswith("=") and float(key[1:]) == value:
                return parts
        if abs(value) == 1:
            one = choice.branch("one")
            if one is not None:
                return one
    other = choice.branch("other")
    assert other is not None  # the parser requires it
    return other


def _select_branch(choice: Choice, value: object) -> tuple[Part, ...]:
    if value is not None:
        chosen = choice.branch(value_text(value))
        if chosen is not None:
            return chosen
    other = choice.branch("other")
    assert other is not None
    return other


def _render(parts: tuple[Part, ...], params: Mapping[str, object],
            number: str | None, out: list[str]) -> None:
    """Write ``parts`` to ``out``; ``number`` names the innermost plural's parameter."""
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Arg):
            out.append(_argument(part.name, params))
        elif isinstance(part, Pound):
            assert number is not None  # the parser reads # as text outside a plural
            out.append(_argument(number, params))
        elif part.kind == "plural":
            _render(_plural_branch(part, params.get(part.name)), params, part.name, out)
        else:
            _render(_select_branch(part, params.get(part.name)), params, number, out)


def _argument(name: str, params: Mapping[str, object]) -> str:
    return value_text(params[name]) if name in params else "{" + name + "}"


def format_message(message: str, params: Mapping[str, object]) -> str:
    """``message`` with ``params`` filled in (see the module's documentation)."""
    out: list[str] = []
    _render(parse(message), params, None, out)
    return "".join(out)
