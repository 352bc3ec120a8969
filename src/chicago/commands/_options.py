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
from collections.abc import Sequence
from typing import Any

from chicago.rules import PRESETS, Rules, RulesError, parse_option

__all__ = ["add_rules_arguments", "parse_rules", "rules_from_args"]

def parse_rules(
    preset: str, sets: Sequence[str] | None = None, variations: Sequence[str] = ()
) -> Rules:
    """The rules of ``preset`` with the ``variations`` by id and ``option=value`` overrides:
    :meth:`Rules.build <chicago.rules.Rules.build>` (its one precedence: the preset, then the
    variations, then every override at once; an override beats a variation), each ``--set``
    read by :func:`~chicago.rules.parse_option`.

    Raises :class:`~chicago.rules.RulesError` naming the preset, the option or the variation
    that is wrong: for a combination that is refused, the ``--set`` option without which the
    others would apply (else all of them).
    """
    overrides: dict[str, Any] = {}
    for item in sets or ():
        try:
            name, value = parse_option(item)
        except RulesError:
            raise RulesError(f"--set {item!r}: expected OPTION=VALUE, e.g. lock_at=42") from None
        overrides[name] = value
    try:
        return Rules.build(preset, variations=variations, overrides=overrides)
    except RulesError as exc:
        if not exc.options:
            raise
        raise RulesError(f"--set {', '.join(exc.options)}: {exc}", exc.options) from None


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
