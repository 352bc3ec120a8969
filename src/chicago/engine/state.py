"""The engine's state: copying it completely.

:func:`copy_state` copies an object of a class that declares every attribute with its type
(``Game``: annotations and ``__slots__``). The copy function of each class is generated once
from those declarations: an immutable value is shared, a list of immutable values becomes a
new list, a list of such lists a new list of new lists, a dict of immutable keys and values a
new dict, an object with a ``copy()`` method (the card source) is copied by it. A type that
fits none of these is refused when the copier is built, so a new attribute cannot be copied
wrongly or forgotten: it must be declared (the slots refuse any other) and its type must be
one the copier understands. ``Annotated[T, SHARED]`` declares a value its owner never
changes (so a copy shares it) where ``T`` alone cannot say so, such as the game's records of
events not yet made (:data:`SHARED`); ``Annotated[T | None, OWN]`` one that is its owner's
alone, which a copy starts without (``None``: :data:`OWN`).
"""

from __future__ import annotations

import enum
import inspect
import random
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

from chicago.cards import Card
from chicago.engine.actions import Action
from chicago.engine.events import Event
from chicago.engine.native import ENGINE
from chicago.engine.viewtypes import DealRecord
from chicago.poker import HandValue
from chicago.rules import Rules

__all__ = ["OWN", "SHARED", "copy_state"]

SHARED = "shared"
"""The mark of ``Annotated[T, SHARED]``: a value of type ``T`` that nobody changes once made,
shared by a copy as it is (a list of such values is copied as a new list of the same ones);
also a cache whose every change holds for each game that shares it (the per-deal memo of
:mod:`chicago.engine.carried`), and a log that only grows at its end, of which each game
that shares it reads its own first part (the game's events: :attr:`Game.events`, and its
actions)."""

OWN = "own"
"""The mark of ``Annotated[T | None, OWN]``: a value that is its owner's alone and that a
copy starts without (``None``), such as the list of actions a game gave out
(:attr:`Game.actions`), which only that game adds to."""


_IMMUTABLE: tuple[type, ...] = (
    int, bool, str, float, type(None), Rules, Card, Action, HandValue, DealRecord,
    Event,  # events are immutable (engine/events.py)
)
"""Types whose values are shared by a copy (enums are immutable too)."""

T = TypeVar("T")
_COPIERS: dict[type, Callable[[Any], Any]] = {}


def copy_state(obj: T) -> T:
    """A copy of ``obj`` that shares nothing mutable with it (see the module docstring)."""
    cls = type(obj)
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _build_copier(cls)
    result: T = copier(obj)
    return result


def _immutable(hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return SHARED in hint.__metadata__ or _immutable(typing.get_args(hint)[0])
    if origin in (types.UnionType, typing.Union):
        return all(_immutable(arg) for arg in typing.get_args(hint))
    if origin is tuple:
        return all(arg is Ellipsis or _immutable(arg) for arg in typing.get_args(hint))
    if origin is typing.Literal:
        return True
    if isinstance(hint, type):
        return issubclass(hint, _IMMUTABLE) or issubclass(hint, enum.Enum)
    return False


_KINDS = ("share", "list", "lists", "dict", "copy", "none")
"""How a copy takes an attribute: shared, a new list, a new list of new lists, a new dict,
its ``copy()``, ``None`` (the accelerator's copier numbers them in this order)."""


def _kind(name: str, hint: Any) -> str:
    """How a copy takes ``self.<name>`` of type ``hint`` (one of :data:`_KINDS`)."""
    if typing.get_origin(hint) is typing.Annotated and OWN in hint.__metadata__:
        return "none"
    if _immutable(hint):
        return "share"
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is list and _immutable(args[0]):
        return "list"
    if origin is list and typing.get_origin(args[0]) is list and _immutable(
        typing.get_args(args[0])[0]
    ):
        return "lists"
    if origin is dict and _immutable(args[0]) and _immutable(args[1]):
        return "dict"
    if hint is random.Random:
        return "share"  # shared until one side draws: see Game._random
    if isinstance(hint, type) and callable(getattr(hint, "copy", None)):
        return "copy"
    raise TypeError(f"cannot copy attribute {name!r} of type {hint!r}: declare a copyable type")


_EXPRESSIONS = {"share": "self.{}", "list": "list(self.{})",
                "lists": "[list(x) for x in self.{}]", "dict": "dict(self.{})",
                "copy": "self.{}.copy()", "none": "None"}
"""The Python expression that copies ``self.<name>`` of each kind."""


def _plan(cls: type) -> tuple[dict[str, str], bool]:
    """Each declared attribute of ``cls`` with how a copy takes it, and whether instances
    have a ``__dict__`` too."""
    hints: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        own = inspect.get_annotations(klass)
        if own:
            module = sys.modules[klass.__module__]
            found = typing.get_type_hints(klass, vars(module), include_extras=True)
            hints.update({k: v for k, v in found.items() if k in own})
    fields = {
        name: hint for name, hint in hints.items()
        if typing.get_origin(hint) is not typing.ClassVar
    }
    slots = {name for klass in cls.__mro__ for name in klass.__dict__.get("__slots__", ())}
    undeclared = slots - set(fields) - {"__dict__", "__weakref__"}
    if undeclared:
        raise TypeError(f"{cls.__name__} has slots without a declared type: {sorted(undeclared)}")
    return {name: _kind(name, hint) for name, hint in fields.items()}, "__dict__" in slots


def _build_copier(cls: type) -> Callable[[Any], Any]:
    """The copier of ``cls``: the accelerator's (``_engine.copier``, the same copies made
    in C) when it is built and allowed and the class's declared attributes are plain
    slots, else :func:`_build_copier_python`'s."""
    plan, _ = _plan(cls)
    own_setattr = any("__setattr__" in vars(k) for k in cls.__mro__ if k is not object)
    if ENGINE is None or own_setattr:
        return _build_copier_python(cls)
    try:
        copier: Callable[[Any], Any] = ENGINE.copier(
            cls, tuple(plan), tuple(_KINDS.index(kind) for kind in plan.values()),
            _copy_attributes)
    except TypeError:  # an attribute that is no plain slot: the Python copier serves
        return _build_copier_python(cls)
    return copier


def _copy_attributes(other: Any, attributes: dict[str, Any]) -> None:
    """An instance's own attributes (``__dict__``) put on its copy, as the Python copier
    does."""
    other.__dict__.update(_deep(attributes))


def _build_copier_python(cls: type) -> Callable[[Any], Any]:
    """The copier of ``cls`` as Python code made from its declarations."""
    plan, has_dict = _plan(cls)
    lines = ["def copy(self):", "    other = new(type(self))"]
    for name, kind in plan.items():
        lines.append(f"    other.{name} = {_EXPRESSIONS[kind].format(name)}")
    if has_dict:
        lines.append("    extra = getattr(self, '__dict__', None)")
        lines.append("    if extra:")
        lines.append("        other.__dict__.update(deep(extra))")
    lines.append("    return other")
    namespace: dict[str, Any] = {"new": object.__new__, "deep": _deep}
    exec("\n".join(lines), namespace)
    copier: Callable[[Any], Any] = namespace["copy"]
    return copier


def _deep(value: Any) -> Any:
    """A copy of the lists, dicts and sets inside ``value`` (the rest is shared)."""
    if isinstance(value, list):
        return [_deep(v) for v in value]
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, set):
        return set(value)
    return value
