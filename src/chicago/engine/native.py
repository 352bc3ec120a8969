"""The engine's C accelerator, ``chicago.engine._engine``, when it is built and allowed.

It is built from ``_engine.c`` when chicago is installed with a C compiler (optional, as
``chicago._poker`` is) and serves :class:`~chicago.engine.game.Game` (its common turns) and
:func:`~chicago.engine.sources.shuffle`; the pure-Python code does the same without it. Set
``CHICAGO_PURE_PYTHON=1`` in the environment before the import to use the pure-Python code
only (the tests compare the two).
"""

from __future__ import annotations

import os
from types import ModuleType

__all__ = ["ENGINE", "init_only_stores"]


def _load() -> ModuleType | None:
    if os.environ.get("CHICAGO_PURE_PYTHON"):
        return None
    try:
        from chicago.engine import _engine
    except ImportError:  # not built: the pure-Python code serves
        return None
    return _engine


ENGINE: ModuleType | None = _load()
"""The accelerator module, or None when the pure-Python code runs alone."""


def init_only_stores(cls: type[object], slots: tuple[str, ...],
                     defaults: tuple[object, ...] = ()) -> bool:
    """Whether making a ``cls`` does nothing but store each argument in its slot, in the
    order of ``slots`` (each of the last ``len(defaults)`` left out stored as its default),
    the class called as any class is: then the C accelerator may write the slots itself
    without calling the class (its event and row makers, issue 28, forty-second pass).
    Checked once, by making one with values of its own for each number left out."""
    if (type(cls).__call__ is not type.__call__ or cls.__new__ is not object.__new__
            or "__dict__" in dir(cls)):
        return False
    for left_out in range(len(defaults) + 1):
        given = tuple(object() for _ in slots[: len(slots) - left_out])
        expected = given + defaults[len(defaults) - left_out:]
        try:
            made = cls(*given)
            stored = tuple(getattr(made, slot) for slot in slots)
        except (TypeError, AttributeError):
            return False
        if any(a is not b for a, b in zip(stored, expected, strict=True)):
            return False
    return True
