"""Shared command-line helpers for rule options: ``--rules PRESET`` and ``--set OPTION=VALUE``.

Every sub-command that takes rules (odds, play, simulate …) uses the same arguments
(``--rules``, ``--set``, ``--variation``; see :func:`add_rules_arguments`)::

    >>> from chicago.commands._options import parse_rules
    >>> rules = parse_rules("pagat", ["lock_at=42", "suit_order=hdsc", "wheel_straight=false"])
    >>> rules.lock_at, rules.suit_order, rules.wheel_straight
    (42, 'hdsc', False)

A value is read as a JSON literal (``42``, ``true``, ``null``, ``{"ROYAL_FLUSH": 9}``) and
otherwise taken as a string (``hdsc``); ``True``/``False``/``None`` are accepted too, and
``-`` in option names may stand for ``_``. Errors are :class:`~chicago.rules.RulesError`
(a ``ValueError``) naming the option.

Options that need each other work in any order, and with the variations they belong to:
the variations are put in force on the preset and every ``--set`` is applied on top of
them in one step, so nothing is checked half-built (an explicit ``--set`` value wins
over a variation's)::

    >>> rules = parse_rules("pagat", ["instant_win_score=keep", "straight_flush_wins=true"])
    >>> rules.instant_win_score, rules.straight_flush_wins
    ('keep', True)
    >>> parse_rules("pagat", ["quads_end_deal=true"], ["V-QUADS-RESET"]).quads_end_deal
    True
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from chicago.rules import PRESETS, Rules, RulesError

__all__ = ["add_rules_arguments", "parse_rules", "parse_value", "rules_from_args"]

_WORDS: dict[str, Any] = {"true": True, "false": False, "none": None, "null": None}


def parse_value(text: str) -> Any:
    """A ``--set`` value: a JSON literal if it is one, else the text itself."""
    stripped = text.strip()
    if stripped.lower() in _WORDS:
        return _WORDS[stripped.lower()]
    try:
        return json.loads(stripped)
    except json.JSONDecodeError:
        return text


def parse_rules(
    preset: str, sets: Sequence[str] | None = None, variations: Sequence[str] = ()
) -> Rules:
    """The rules of ``preset`` with the ``variations`` by id and ``option=value`` overrides.

    The variations are put in force on the preset (each turns on what it needs, so that is
    always a valid rule set), then all the overrides are applied together in one rule set:
    an option that needs another (``instant_win_score=keep`` needs ``straight_flush_wins``,
    ``quads_end_deal`` needs V-QUADS-RESET) may come before it or from a variation. Where
    an override and a variation set the same option, the override wins.

    Raises :class:`~chicago.rules.RulesError` naming the preset, the option or the variation
    that is wrong: for a combination that is refused, the ``--set`` option without which the
    others would apply (else all of them).
    """
    rules = Rules.preset(preset)
    overrides: dict[str, Any] = {}
    for item in sets or ():
        name, sep, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise RulesError(f"--set {item!r}: expected OPTION=VALUE, e.g. lock_at=42")
        overrides[name] = parse_value(value)
    if variations:
        rules = rules.with_variations(*variations)
    if not overrides:
        return rules
    problem = _refusal(rules, overrides)
    if problem is None:
        return rules.replace(**overrides)
    culprits = [
        name for name in overrides
        if _refusal(rules, {k: v for k, v in overrides.items() if k != name}) is None
    ]
    named = culprits[:1] if len(culprits) == 1 else list(overrides)
    raise RulesError(f"--set {', '.join(named)}: {problem}")


def _refusal(rules: Rules, overrides: dict[str, Any]) -> str | None:
    """Why ``rules`` with every override at once is refused; None if it is valid."""
    try:
        rules.replace(**dict(overrides))
    except RulesError as exc:
        return str(exc)
    except (TypeError, ValueError) as exc:
        values = ", ".join(f"{name}={value!r}" for name, value in overrides.items())
        return f"bad value in {values} ({exc})"
    return None


def add_rules_arguments(
    parser: argparse.ArgumentParser, *, several: bool | None = None
) -> None:
    """Add ``--rules PRESET``, ``--set OPTION=VALUE …`` (repeatable) and ``--variation ID``.

    With ``several`` one ``--set`` takes any number of ``OPTION=VALUE`` words
    (``--set lock_at=42 target=60``), and ``--set`` may still be repeated; without it each
    ``--set`` takes one. The default (None) is ``several`` unless the parser already has
    positional arguments (``chicago odds HAND``): a ``--set`` that takes several words
    would swallow the positional words that follow it.
    """
    if several is None:
        several = not any(not action.option_strings for action in parser._actions)
    parser.add_argument(
        "--rules", default="pagat", metavar="PRESET",
        help=f"rule preset: {', '.join(PRESETS)} (default pagat)",
    )
    if several:
        parser.add_argument(
            "--set", dest="set", nargs="+", action="extend", default=[],
            metavar="OPTION=VALUE",
            help="change rule options, e.g. --set lock_at=42 wheel_straight=false "
            "(values are JSON literals or plain text; repeatable)",
        )
    else:
        parser.add_argument(
            "--set", dest="set", action="append", default=[], metavar="OPTION=VALUE",
            help="change one rule option, e.g. --set lock_at=42 --set wheel_straight=false "
            "(values are JSON literals or plain text; repeatable)",
        )
    parser.add_argument(
        "--variation", dest="variations", action="append", default=[], metavar="ID",
        help="turn on a variation by id, e.g. --variation V-ROYAL (repeatable; --set options "
        "apply on top of the variations, all at once)",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules that :func:`add_rules_arguments`' arguments describe."""
    return parse_rules(args.rules, args.set, getattr(args, "variations", ()) or ())
