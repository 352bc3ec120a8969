"""The person-move path's forty-second pass (docs/SERVER.md, issue 28): a game's events
made from their pending records in C (``make_events``) and their number read in C
(``event_count_of``), proven equal to the pure-Python loop of ``Game._made_events`` and the
Python getter on random games of every preset, variation and option, with copies that share
the records (so that segments and cut-short lists are made too); a move's log entries and
``Move`` made by the C slot maker; enum members read once."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.accelerator_cases import OPTIONS, derandomized, draw_table
from tests.engine_helpers import random_action

from chicago.engine import events as events_module
from chicago.engine import game as game_module
from chicago.engine.events import Event
from chicago.engine.game import Game
from chicago.engine.native import ENGINE

needs_c = pytest.mark.skipif(ENGINE is None, reason="the C accelerator is not built")


@contextmanager
def pure_events() -> Iterator[None]:
    """Within: ``Game._made_events`` makes events with its pure-Python loop."""
    module: Any = game_module
    maker = module._make_events
    module._make_events = None
    try:
        yield
    finally:
        module._make_events = maker


def same_events(fast: list[Event], pure: list[Event], *, identical: bool = True) -> None:
    """The same events, kind by kind (``identical``: each field the very same object, for
    events made from the same records)."""
    assert len(fast) == len(pure)
    for a, b in zip(fast, pure, strict=True):
        assert type(a) is type(b)
        assert a == b
        if identical:
            assert all(x is y for x, y in zip(a._values(a), b._values(b), strict=True))


@needs_c
def test_the_c_maker_is_installed_for_every_kind() -> None:
    """Every kind of record is made in C (each kind's ``__init__`` only stores its fields),
    and a game's number of events is read in C."""
    assert game_module._make_events is ENGINE.make_events  # type: ignore[union-attr]
    getter = Game.__dict__["event_count"].fget
    assert getter is ENGINE.event_count_of  # type: ignore[union-attr]
    assert Game.__dict__["is_over"].fget is ENGINE.is_over_of  # type: ignore[union-attr]
    for kind in game_module._RECORD_KINDS:
        assert game_module._event_slots(kind) == tuple(f"_{n}" for n in kind.fields), kind


@needs_c
def test_events_are_made_without_calling_their_classes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The C maker writes the slots: no kind's ``__init__`` runs while a game's events are
    made (the pure loop calls one per event)."""
    calls: list[str] = []
    for kind in game_module._RECORD_KINDS:
        init = kind.__init__

        def counted(self: Any, *args: Any, _init: Any = init, **kw: Any) -> None:
            calls.append(type(self).__name__)
            _init(self, *args, **kw)

        monkeypatch.setattr(kind, "__init__", counted)
    from chicago import Rules

    game = Game(Rules.preset("pagat"), 4, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        game.apply(random_action(game, rng))
    assert game._pending_count > 0
    calls.clear()  # (some events are made as the game goes: only the records are counted)
    made = game.events
    assert len(made) == game.event_count > 0
    assert calls == []
    with pure_events():
        other = Game(Rules.preset("pagat"), 4, seed=5)
        rng = random.Random(5)
        for _ in range(40):
            other.apply(random_action(other, rng))
        pending = other._pending_count
        calls.clear()
        same_events(made, other.events, identical=False)  # (another game: equal values)
    assert len(calls) == pending > 0


@needs_c
@derandomized(60)
@given(st.data())
def test_made_events_equal_the_pure_loop(data: st.DataObject) -> None:
    """On random games (every preset, variation and option): at random points a game and
    copies of it (sharing records, adding their own past the game's) make their events
    both ways, with the same kinds and the very same field values."""
    rules, players, seed = draw_table(data.draw, OPTIONS, max_deals=3)
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    copies: list[Game] = []
    steps = 0
    while not game.is_over and steps < 400:
        game.apply(random_action(game, rng))
        steps += 1
        roll = rng.random()
        if roll < 0.2:
            copies.append(game.copy())  # shares the records; goes on below
        elif roll < 0.35 and copies:
            branch = copies[rng.randrange(len(copies))]
            if not branch.is_over:
                branch.apply(random_action(branch, rng))
        elif roll < 0.5:
            twin = game.copy()
            with pure_events():
                pure = twin.events
            same_events(game.events, pure)
    python_count = game_module._event_count_python
    for branch in [game, *copies]:
        assert branch.event_count == python_count(branch)  # the C getter and the Python one
        assert branch.is_over is game_module._is_over_python(branch)
    for branch in copies:
        twin = branch.copy()
        with pure_events():
            pure = list(twin.events)
        same_events(branch.events, pure)
        assert len(pure) == branch.event_count


@needs_c
def test_a_failing_record_appends_nothing() -> None:
    """A record the maker cannot make (a kind out of range, fields of the wrong number)
    raises as the class call does and leaves the events as they were."""
    assert ENGINE is not None
    kinds = game_module._RECORD_KINDS
    play = kinds.index(events_module.Play)
    made: list[Event] = []
    ENGINE.make_events(made, [(play, 1, 2, 3)], 1)
    assert made == [events_module.Play(1, 2, 3)]  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        ENGINE.make_events(made, [(play, 1, 2, 3), (len(kinds), 1)], 2)
    with pytest.raises(TypeError):
        ENGINE.make_events(made, [(play, 1, 2, 3), (play, 1, 2)], 2)
    assert made == [events_module.Play(1, 2, 3)]  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ENGINE.make_events(made, [(play, 1, 2, 3)], 2)
    ENGINE.make_events(made, [(play, 4, 5, 6), (play, 7, 8, 9)], 1)  # the first only
    assert made[-1] == events_module.Play(4, 5, 6)  # type: ignore[arg-type]
    assert len(made) == 2


# ---------------------------------------------------------------- entries and moves made in C
@needs_c
def test_entries_and_moves_are_made_by_the_c_slot_maker() -> None:
    """A person move's entries and moves are made without their classes' ``__init__``
    (``slot_maker``), and are the objects the classes make: the same type, fields, equality
    and frozen slots."""
    from dataclasses import FrozenInstanceError, fields

    from chicago.server.core import decide, makers, rows

    assert makers.new_entry is not rows.LogEntry
    assert decide._new_move is not decide.Move
    values = (7, 2, "act", 3, {"action": "play Ah", "by": "bot"}, 1.5)
    made, called = makers.new_entry(*values), rows.LogEntry(*values)
    assert type(made) is rows.LogEntry and made == called and repr(made) == repr(called)
    assert all(getattr(made, f.name) is v for f, v in zip(fields(rows.LogEntry), values,
                                                           strict=True))
    with pytest.raises(FrozenInstanceError):
        made.seq = 8  # type: ignore[misc]
    with pytest.raises(TypeError):
        makers.new_entry(*values[:5])
    change = rows.Change("t", [made])
    move = decide._new_move(change, [None])
    assert type(move) is decide.Move and move == decide.Move(change, [None])
    assert move.change is change and not move.game_over


def test_a_class_with_an_init_of_its_own_is_made_by_calling_it() -> None:
    """``slot_maker`` gives the class itself when its ``__init__`` does more than store its
    arguments (or the accelerator is not there)."""
    from dataclasses import dataclass

    from chicago.server.core import makers

    @dataclass(frozen=True, slots=True)
    class Doubled:
        a: int
        b: int

        def __post_init__(self) -> None:
            object.__setattr__(self, "b", self.b * 2)

    assert makers.slot_maker(Doubled, ("a", "b")) is Doubled


def test_a_new_change_is_the_class_default_with_lists_and_dicts_of_its_own() -> None:
    """``new_change`` makes what ``Change(table_id, entries)`` makes, and no two changes
    share a default list or dict."""
    from chicago.server.core import makers, rows

    entries = [makers.new_entry(1, 1, "act", 0, {"action": "keep"}, 1.0)]
    made, called = makers.new_change("t", entries), rows.Change("t", entries)
    assert type(made) is rows.Change and made == called and made.entries is entries
    other = makers.new_change("t", [])
    for name in ("table_updates", "game_updates", "players", "holders"):
        assert getattr(made, name) is not getattr(other, name)
    made.table_updates["to_act"] = 1
    assert other.table_updates == {}


# ---------------------------------------------------------------- enum members read once
@contextmanager
def enum_reads() -> Iterator[list[str]]:
    """Within: every ``SomeEnum.MEMBER`` read by Python code is noted as ``file:line``."""
    import enum
    import sys

    seen: list[str] = []

    def counted(cls: type, name: str, _get: Any = type.__getattribute__) -> Any:
        if name[:1].isupper():
            frame = sys._getframe(1)
            seen.append(f"{frame.f_code.co_filename}:{frame.f_lineno}")
        return _get(cls, name)

    enum.EnumType.__getattribute__ = counted  # type: ignore[method-assign,assignment]
    try:
        yield seen
    finally:
        del enum.EnumType.__getattribute__  # type: ignore[misc]


@pytest.mark.parametrize("preset", ["pagat", "denexa", "wikipedia", "wikipedia-42"])
def test_basic_and_the_action_texts_read_no_enum_class(preset: str) -> None:
    """``basic``'s decisions (exchanges, announcements, plays, Chicago calls), its keep rule,
    an action's text and the reading of a person's text read their kinds and categories as
    module constants: on Python 3.11 each ``ActionKind.X`` / ``Category.X`` read takes the
    enum class's slow attribute path (issue 28, forty-second pass)."""
    from chicago import Rules
    from chicago.bots import make_bot
    from chicago.engine.actions import Action
    from chicago.seeding import SeededOnUse

    bot = make_bot("basic")
    game = Game(Rules.preset(preset).replace(max_deals=3), 4, seed=11)
    rng = random.Random(11)
    watched = ("bots/basic.py", "bots/heuristics.py", "engine/actions.py")
    with enum_reads() as seen:
        for step in range(1000):
            if game.is_over:
                break
            legal = game.legal_actions()
            seat = game.to_act
            assert seat is not None
            if step % 2:
                action = bot.decide(game.view(seat), legal, SeededOnUse(f"s{step}"))
            else:
                action = rng.choice(legal)
            text = str(action)
            Action._text(action)  # (made afresh, not from the cache)
            assert Action.parse(text) == action
            game.apply(action)
    assert game.is_over
    assert [where for where in seen if where.endswith(watched, 0, where.rindex(":"))] == []


def test_a_change_of_other_fields_is_made_by_its_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """``new_change`` gives the change's fields past ``table_id`` and ``entries`` the defaults
    it knows of only while the class has them: the check it makes at import says no when
    they differ (a field added to :class:`Change` then goes through the class itself)."""
    from chicago.server.core import makers

    assert makers._change_fields_as_expected()
    monkeypatch.setattr(makers, "_CHANGE_DEFAULTS", (*makers._CHANGE_DEFAULTS, None))
    assert not makers._change_fields_as_expected()
    monkeypatch.setattr(makers, "_CHANGE_MAKER", None)
    entries: list[Any] = []
    made = makers.new_change("t", entries)
    assert made == makers.Change("t", entries) and made.entries is entries
