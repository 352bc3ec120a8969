"""The C accelerator of the trick searches (``chicago.bots._solver``), when it is built.

:mod:`chicago.bots.solver` and :mod:`chicago.bots.model` run their searches in C when the
extension is built and in pure Python otherwise; both give the same answers (the tests
compare them on random positions of every table size and variation that changes trick
play). Set ``CHICAGO_PURE_PYTHON=1`` in the environment before the import to use the
pure-Python searches, or use :func:`pure_python` for a block of code (tests, benchmarks).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

__all__ = ["ACCELERATED", "active", "pure_python"]

_module: ModuleType | None
try:
    if os.environ.get("CHICAGO_PURE_PYTHON"):
        raise ImportError("CHICAGO_PURE_PYTHON is set")
    from chicago.bots import _solver as _module
except ImportError:  # not built (no compiler): the pure-Python searches serve
    _module = None

ACCELERATED: bool = _module is not None
"""Whether the C searches are built and in use."""

_pure = False


def active() -> ModuleType | None:
    """The C module when it serves now, else None (not built, or within :func:`pure_python`)."""
    return None if _pure else _module


@contextmanager
def pure_python() -> Iterator[None]:
    """Within the block, the pure-Python searches serve even when the C ones are built."""
    global _pure
    before = _pure
    _pure = True
    try:
        yield
    finally:
        _pure = before
