"""The decision-level oracle of ``benchmarks/bench_disagreements.py`` (issue 30): it finds
the decisions where a bot and the expert differ, plays both out on the same restocked
copies, and does so the same way from the same seed."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from chicago import Rules
from script_loader import load_script


def _tool() -> ModuleType:
    return load_script("benchmarks/bench_disagreements.py")


RULES = Rules.preset("pagat", max_deals=2).to_dict()


def test_a_bot_that_decides_as_the_expert_has_no_disagreements_R_EX_1() -> None:
    """R-EX-1, R-ANN-1, R-TRICK-2: ``master`` with every search off and the expert's
    ``model=0.6`` is the expert, so no decision differs and nothing is played out."""
    tool = _tool()
    result = tool._one_game(("master:samples=4;infer=0;model=0.6", "expert:samples=4",
                             "expert:samples=3", RULES, 5, 0, 1, 1))
    assert result["disagreements"] == []
    assert sum(result["decisions"].values()) > 10


def test_differing_decisions_are_valued_the_same_from_the_same_seed_R_EX_1() -> None:
    """R-EX-1: ``master``'s play-out search of the exchanges overrules the expert at some
    exchanges; each such decision is played out from the real position, and the same seed
    gives the same choices and the same values."""
    tool = _tool()
    task = ("master:exchanges=1;z=0;worlds=3;samples=4;infer=0;model=0.6", "expert:samples=4",
            "expert:samples=3", RULES, 7, 1, 2, 1)
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


def test_the_bot_in_every_seat_is_compared_seat_by_seat_R_TRICK_2() -> None:
    """R-TRICK-2: with ``seats=4`` every seat is the bot and each seat's decisions are
    compared with the shadow's in that seat's view: the decisions of four seats are
    counted, the deals once per seat, and the same seed gives the same game."""
    tool = _tool()
    one = tool._one_game(("master:samples=4;infer=0;model=0.6", "expert:samples=4",
                          "expert:samples=3", RULES, 5, 0, 1, 1))
    task = ("master:samples=4;infer=0;model=0.6", "expert:samples=4", "expert:samples=3", RULES, 5,
            0, 1, 4)
    every = tool._one_game(task)
    assert every["disagreements"] == []
    assert every["deals"] == 4 * one["deals"]
    assert sum(every["decisions"].values()) > 3 * sum(one["decisions"].values())
    shared = tool._one_game(("master:samples=4;infer=0;model=0.3", "expert:samples=4",
                             "expert:samples=3", RULES, 5, 0, 2, 4))
    for case in shared["disagreements"]:
        assert case["bot"] != case["expert"] and len(case["points"]) == 2
    assert tool._one_game(task) == every


def test_others_seat_the_given_bot_in_the_game_and_the_play_outs_R_TRICK_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """R-TRICK-2: with ``others`` the seats the bot does not take are that bot, in the game
    and in the play-outs of a differing decision, where the bot's own seat is the oracle."""
    tool = _tool()
    made: list[str] = []
    real = tool.make_bot

    def recording(spec: str) -> Any:
        made.append(spec)
        return real(spec)

    monkeypatch.setattr(tool, "make_bot", recording)
    task = ("master:exchanges=1;z=0;worlds=3;samples=4;infer=0;model=0.6", "expert:samples=4",
            "expert:samples=3", RULES, 7, 1, 1, 1, "basic")
    result = tool._one_game(task)
    assert made[:4].count("basic") == 3 and "expert" not in made
    found = len(result["disagreements"])
    assert found, "z=0 overrules the expert somewhere in two deals"
    assert made.count("expert:samples=3") == 2 * found
    assert made.count("basic") == 3 + 6 * found
    monkeypatch.undo()
    assert tool._one_game(task) == result
