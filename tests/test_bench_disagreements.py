"""The decision-level oracle of ``benchmarks/bench_disagreements.py`` (issue 30): it finds
the decisions where a bot and the expert differ, plays both out on the same restocked
copies, and does so the same way from the same seed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from chicago import Rules

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_disagreements.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_disagreements", _PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


RULES = Rules.preset("pagat", max_deals=2).to_dict()


def test_a_bot_that_decides_as_the_expert_has_no_disagreements_R_EX_1() -> None:
    """R-EX-1, R-ANN-1, R-TRICK-2: ``master`` with every search off is the expert, so no
    decision differs and nothing is played out."""
    tool = _tool()
    result = tool._one_game(("master:samples=4", "expert:samples=4", "expert:samples=3",
                             RULES, 5, 0, 1))
    assert result["disagreements"] == []
    assert sum(result["decisions"].values()) > 10


def test_differing_decisions_are_valued_the_same_from_the_same_seed_R_EX_1() -> None:
    """R-EX-1: ``master``'s play-out search of the exchanges overrules the expert at some
    exchanges; each such decision is played out from the real position, and the same seed
    gives the same choices and the same values."""
    tool = _tool()
    task = ("master:exchanges=1;z=0;worlds=3;samples=4", "expert:samples=4",
            "expert:samples=3", RULES, 7, 1, 2)
    first = tool._one_game(task)
    assert first["disagreements"], "z=0 overrules the expert somewhere in two deals"
    for case in first["disagreements"]:
        assert case["phase"].startswith(("exchange", "announce", "one up"))
        assert case["bot"] != case["expert"]
        assert len(case["points"]) == len(case["chance"]) == 2
    assert tool._one_game(task) == first
    lines = tool.report([first])
    assert lines[0].startswith("1 games")
    assert any("z > 0.0" in line for line in lines)
