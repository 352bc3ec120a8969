"""``chicago.engine.native.init_only_stores``: the one check, shared by the C event maker
(``Game._made_events``) and the server's row makers (``chicago.server.core.makers``), that
making a class does nothing but store its arguments, so that C may write its slots itself
(issue 28, forty-second pass)."""

from __future__ import annotations

from dataclasses import dataclass

from chicago.engine.game import _RECORD_KINDS, _event_slots
from chicago.engine.native import init_only_stores
from chicago.server.core.rows import LogEntry


class _Plain:
    __slots__ = ("a", "b")

    def __init__(self, a: object, b: object = None) -> None:
        self.a = a
        self.b = b


@dataclass(frozen=True, slots=True)
class _Checked:
    a: object

    def __post_init__(self) -> None:
        object.__setattr__(self, "a", ("checked", self.a))


class _WithDict:
    def __init__(self, a: object) -> None:
        self.a = a


class _Default:
    __slots__ = ("a", "b")

    def __init__(self, a: object, b: object = 7) -> None:
        self.a = a
        self.b = b


def test_a_class_that_only_stores_is_found() -> None:
    assert init_only_stores(_Plain, ("a", "b"))
    assert init_only_stores(_Plain, ("a", "b"), (None,))
    assert init_only_stores(_Default, ("a", "b"), (7,))
    assert init_only_stores(LogEntry, tuple(LogEntry.__slots__))


def test_a_class_that_does_more_is_called() -> None:
    """A ``__post_init__``, an instance dict, a wrong default or the slots in another
    order: the class must be called."""
    assert not init_only_stores(_Checked, ("a",))
    assert not init_only_stores(_WithDict, ("a",))
    assert not init_only_stores(_Default, ("a", "b"), (None,))
    assert not init_only_stores(_Plain, ("b", "a"))


def test_every_event_kind_the_engine_records_is_written_in_c() -> None:
    """Every recorded event kind passes the check (else the event maker calls its class)."""
    assert all(_event_slots(kind) is not None for kind in _RECORD_KINDS)
