"""``benchmarks/bench_core_path.py`` (issue 28, twenty-ninth pass): the table core's path of a
person move alone. A tiny run makes the person moves asked for, plays the same games on
every run (no clock, no loop), counts what the games' shared logs do (no segment ever: the
server's games are a chain of copies) and puts the engine's functions back."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from chicago.engine import game as game_module

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_core_path.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_core_path", _PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_run_counts_the_logs_and_gives_the_engine_back() -> None:
    tool = _tool()
    before = (game_module.fork, game_module.joined,
              game_module.Game.__dict__["_own_events"])
    put_back = tool.count_logs()
    try:
        made, cpu = tool.run(tables=3, warm=4, moves=60)
        counts = dict(tool.COUNTS)
    finally:
        put_back()
    assert made == 60 and cpu >= 0
    assert (game_module.fork, game_module.joined,
            game_module.Game.__dict__["_own_events"]) == before
    assert counts["events: a game's own part taken apart"] > 0  # the counters are called
    if not game_module.ACCELERATED:  # the segments' functions are Python calls
        assert counts["segments: a fork"] == 0
        assert counts["segments: a join, of segments"] == 0


def test_the_same_games_on_every_run() -> None:
    tool = _tool()
    texts = []
    for _ in range(2):
        tables = [tool.Table(number) for number in range(2)]
        for _ in range(40):
            for table in tables:
                table.step()
        texts.append([(table.state.seq, table.sent) for table in tables])
    assert texts[0] == texts[1]
