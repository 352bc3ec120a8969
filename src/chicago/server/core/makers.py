"""The rows a person move makes, made in C when they may be (issue 28, forty-second pass).

A move makes a :class:`~chicago.server.core.rows.LogEntry` per action, a
:class:`~chicago.server.core.rows.Change` per action and a
:class:`~chicago.server.core.decide.Move`; a slotted dataclass's ``__init__`` sets each field
through its slot's setter, and the engine's C accelerator can write the slots directly
(``chicago.engine._engine.slot_maker``). This module holds those makers apart from
:mod:`chicago.server.core.rows`, which stays light: importing the rows loads no engine
(``tests/test_import_weight.py``); importing this loads the engine's accelerator.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any, TypeVar

from chicago.engine.native import ENGINE, init_only_stores
from chicago.server.core.rows import Change, LogEntry

__all__ = ["new_change", "new_entry", "slot_maker"]

_T = TypeVar("_T")


def slot_maker(cls: type[_T], names: tuple[str, ...]) -> Callable[..., _T]:
    """A function that makes a ``cls`` from the values of the slots ``names``, in order: the
    C accelerator's (:func:`chicago.engine._engine.slot_maker`, which writes the slots
    without the class call and its ``__init__``) when it is built and the class's
    ``__init__`` does nothing but store each argument in its slot (checked here, once, with
    values of its own); else the class itself."""
    if ENGINE is None or not hasattr(ENGINE, "slot_maker"):
        return cls
    if tuple(getattr(cls, "__slots__", ())) != names or not init_only_stores(cls, names):
        return cls
    maker: Callable[..., _T] = ENGINE.slot_maker(cls, names)
    return maker


new_entry: Callable[[int, int, str, int | None, dict[str, Any], float], LogEntry] = slot_maker(
    LogEntry, tuple(f.name for f in fields(LogEntry)))
"""``LogEntry(seq, game, kind, seat, data, created_at)``, made in C when it may be
(:func:`slot_maker`: the entries of a person move's actions)."""

_CHANGE_DEFAULTS: tuple[object, ...] = (None, dict, None, dict, None, list, None, list)
"""What :func:`new_change` gives :class:`Change`'s fields after ``table_id`` and
``entries``: None, or a new dict or list (checked against the class at import)."""


def _change_fields_as_expected() -> bool:
    """Whether :class:`Change`'s fields past the first two have the defaults
    :data:`_CHANGE_DEFAULTS` says (a field added or changed sends :func:`new_change` to the
    class itself)."""
    found: list[object] = []
    for field in fields(Change)[2:]:
        found.append(field.default_factory if field.default is MISSING else field.default)
    return tuple(found) == _CHANGE_DEFAULTS


_CHANGE_MAKER: Callable[..., Change] | None = (
    slot_maker(Change, tuple(f.name for f in fields(Change)))
    if _change_fields_as_expected() else None)


def new_change(table_id: str, entries: list[LogEntry]) -> Change:
    """``Change(table_id, entries)``: every other field its default (a new dict or list, or
    None), made in C when it may be (:func:`slot_maker`; the change of each action of a
    person move)."""
    maker = _CHANGE_MAKER
    if maker is None:
        return Change(table_id, entries)
    return maker(table_id, entries, None, {}, None, {}, None, [], None, [])
