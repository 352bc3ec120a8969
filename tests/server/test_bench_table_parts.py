"""``benchmarks/bench_table_core.py --parts`` (issue 28, twenty-fifth pass): the parts of a
person move timed without a profiler. A tiny run counts each part's calls while measured,
nothing before or after, and gives every wrapped function back."""

from __future__ import annotations

import gc
from types import ModuleType

from chicago.engine.game import Game
from chicago.server.core import decide
from chicago.server.core.state import TableState
from chicago.server.gc_tuning import untune
from script_loader import load_script


def _tool() -> ModuleType:
    return load_script("benchmarks/bench_table_core.py")


def test_the_parts_of_a_person_move_are_counted_and_given_back(capsys: object) -> None:
    """Each person move decides and applies at least its own action (one ``act``, one
    ``Game.copy`` and ``Game.apply`` each, two ``TableState.apply`` each: the preview's
    and the table's when bots reply), sends its entries and flushes a batch; the report
    names them (the last entries may still be in flight when the run ends: not every
    action is sent within it); afterwards the engine's and the core's functions are their
    own again and the collector's hook is gone."""
    tool = _tool()
    originals = (Game.copy, Game.apply, TableState.apply, decide.act)
    thresholds = gc.get_threshold()
    parts = tool.Parts()
    moves = 12
    try:
        ms = tool.run(3, moves, parts=parts)
    finally:  # the benchmark tunes the collector as a server does: not for other tests
        untune()
        gc.set_threshold(*thresholds)
        gc.unfreeze()
    assert ms > 0
    calls = parts.calls
    assert calls["act"] >= moves
    assert calls["Game.copy"] >= calls["act"]  # the action's copy, and any of the engine's
    assert calls["Game.apply"] >= calls["act"]
    assert calls["TableState.apply"] >= calls["act"]
    assert calls["send"] >= moves and calls["flush"] >= 1
    assert set(calls) <= {label for _, label in tool.PARTS}
    assert (Game.copy, Game.apply, TableState.apply, decide.act) == originals
    assert parts._collected not in gc.callbacks
    report = parts.report(moves, ms)
    assert "Game.copy" in report and "young collections" in report
