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

__all__ = ["ENGINE"]


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
