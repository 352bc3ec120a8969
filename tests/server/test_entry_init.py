"""A log entry and a move made through their slots' setters, and a game asked whether it is
over without looking up ``Phase.OVER`` (docs/SERVER.md, issue 28, thirty-ninth pass): the
same objects as the frozen dataclasses made them, for less."""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import pytest

from chicago.engine.game import Game
from chicago.engine.native import ENGINE
from chicago.engine.phases import Phase
from chicago.rules import PRESETS, Rules
from chicago.server.core import decide, rows
from chicago.server.core.decide import Move
from chicago.server.core.rows import Change, LogEntry


@dataclasses.dataclass(frozen=True, slots=True)
class _Reference:
    """LogEntry as the frozen dataclass wrote it before."""

    seq: int
    game: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    created_at: float


def _values(seed: int) -> tuple[Any, ...]:
    rng = random.Random(seed)
    return (rng.randrange(1, 10**6), rng.randrange(1, 50), rng.choice(["act", "join", "game"]),
            rng.choice([None, 0, 3]), {"action": "play 2c", "by": "bot"}, rng.random() * 1e9)


def test_a_log_entry_is_the_frozen_dataclass_it_was() -> None:
    """Made by position or by keyword: the same fields, values, equality, text and pickle
    as the frozen dataclass's own ``__init__`` made (and unhashable alike, its data being a
    dict); frozen; ``replace`` works; a missing or extra argument is a TypeError."""
    names = [f.name for f in dataclasses.fields(LogEntry)]
    assert names == [f.name for f in dataclasses.fields(_Reference)]
    for seed in range(50):
        values = _values(seed)
        entry = LogEntry(*values)
        by_name = LogEntry(**dict(zip(names, values, strict=True)))
        reference = _Reference(*values)
        assert entry == by_name and entry != _Reference(*values)
        for made in (entry, reference):  # a dict among the fields: unhashable, both ways
            with pytest.raises(TypeError):
                hash(made)
        assert dataclasses.astuple(entry) == dataclasses.astuple(reference)
        assert repr(entry) == repr(reference).replace("_Reference", "LogEntry")
        assert pickle.loads(pickle.dumps(entry)) == entry
        moved = dataclasses.replace(entry, seq=entry.seq + 1)
        assert moved.seq == entry.seq + 1 and moved.data is entry.data
        with pytest.raises(dataclasses.FrozenInstanceError):
            entry.seq = 0  # type: ignore[misc]
    with pytest.raises(TypeError):
        LogEntry(1, 1, "act", None, {})  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        LogEntry(1, 1, "act", None, {}, 1.0, 2)  # type: ignore[call-arg]


def test_a_log_entry_and_a_move_are_made_through_their_slots_setters() -> None:
    """Their ``__init__`` is the module's own, not the one the frozen dataclass generates
    (which looks ``object.__setattr__`` up and calls it by name for each field): on main
    both were generated."""
    assert LogEntry.__init__.__code__.co_filename == rows.__file__
    assert Move.__init__.__code__.co_filename == decide.__file__
    change = Change("t", [])
    move = Move(change, [None])
    assert move.change is change and move.games == [None] and move == Move(change, [None])
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.games = []  # type: ignore[misc]


def test_whether_a_game_is_over_reads_no_enum_member() -> None:
    """``Game.is_over`` compares the phase with the over phase read once (on Python 3.11 a
    ``Phase.OVER`` read goes through ``EnumType.__getattr__``'s slow path), and it is True
    exactly when the phase is over, at every step of random games of every preset."""
    from chicago.engine import game as game_module

    python = game_module._is_over_python  # the C getter in its place, if built, reads a slot
    getter = Game.is_over.fget  # type: ignore[attr-defined]
    assert getter in (python, getattr(ENGINE, "is_over_of", None))
    assert "Phase" not in python.__code__.co_names
    for number, preset in enumerate(sorted(PRESETS)):
        rng = random.Random(number)
        game = Game(Rules.preset(preset).replace(max_deals=3), 4, seed=number)
        while True:
            assert game.is_over is (game.phase is Phase.OVER)
            copy = game.copy()
            assert copy.is_over is game.is_over
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
