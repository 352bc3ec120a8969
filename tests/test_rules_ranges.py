"""Every numeric rule option has a range, enforced by ``Rules`` itself and documented in
docs/RULES.md ("Ranges of the numbers"); every door that builds rules refuses alike: the
command line (``--set``), records, the environments and the table server's lobby.

Among them R-END-1 (``target``), R-HAND-1 (``points``), R-PHASE-1 (``exchanges``), R-EX-2
(``max_discard``), R-EX-5 (``lock_at``), R-CHI-2/3/4 (``chicago_*``), R-TRICK-4
(``last_trick_points``), R-END-2 (``stake``), V-DEUCE, V-CHI-BREAKER and the house option
``max_deals``.
"""

from __future__ import annotations

import dataclasses
import math
import re
import typing
from pathlib import Path
from typing import Any

import pytest

from chicago.commands._options import parse_rules
from chicago.engine.game import Game
from chicago.record import RecordError
from chicago.rules import PRESETS, RANGES, Rules, RulesError

DOCS = Path(__file__).resolve().parent.parent / "docs" / "RULES.md"

# options that a value at a range's end needs besides itself to be a valid rule set
_COMPANIONS: dict[str, dict[str, Any]] = {
    "deuce_chicago_points": {"deuce_bonus": True},
    "chicago_min_score": {"negative_scores": True},
    "min_players": {"max_players": 6},
}


def _numeric_options() -> list[str]:
    hints = typing.get_type_hints(Rules)
    names = []
    for f in dataclasses.fields(Rules):
        args = set(typing.get_args(hints[f.name])) | {hints[f.name]}
        if args & {int, float} or f.name == "points":
            names.append(f.name)
    return names


def test_every_numeric_option_has_a_range() -> None:
    """A new numeric option gets its range by a row in RANGES; a row names a real option."""
    numeric = _numeric_options()
    assert sorted(numeric) == sorted(RANGES)


@pytest.mark.parametrize("name", sorted(RANGES))
def test_the_ends_of_each_range_are_valid_and_beyond_them_refused(name: str) -> None:
    limits = RANGES[name]
    base = Rules.preset("pagat", **_COMPANIONS.get(name, {}))
    for value in (limits.low, limits.high):
        if name == "points":
            base.replace(points={"PAIR": value})
        elif name == "max_players" and value < base.min_players:
            continue
        else:
            base.replace(**{name: value})
    step = 0.5 if isinstance(limits.low, float) or name == "stake" else 1
    outside = [limits.low - step, limits.high + step, 10**30]
    if name == "stake":
        outside += [math.nan, math.inf, -math.inf]
    for value in outside:
        with pytest.raises(RulesError) as info:
            if name == "points":
                base.replace(points={"PAIR": value})
            else:
                base.replace(**{name: value})
        words = str(info.value)
        assert (f"points for PAIR must be {limits.describe(False)}" if name == "points"
                else f"{name} must be") in words, words


def test_refusals_quote_huge_numbers_short() -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("pagat", target=10**3000)
    assert "target must be 1-500" in str(info.value) and len(str(info.value)) < 100


def test_a_rule_set_names_a_real_preset_and_loads_back() -> None:
    """preset_name is how a rule set is read back (Rules.from_dict): one that names no
    preset is refused, so a stored rule set always loads."""
    with pytest.raises(RulesError, match="preset_name 'x' names no preset; valid presets"):
        Rules.preset("pagat", preset_name="x")
    assert tuple(PRESETS) == ("pagat", "denexa", "wikipedia", "wikipedia-42")
    for rules in PRESETS.values():
        assert Rules.from_dict(rules.to_dict()) == rules


def _record_with(rules: dict[str, Any]) -> dict[str, Any]:
    game = Game(Rules.preset("pagat", target=12), players=2, seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    record = game.record()
    record["rules"] = {**record["rules"], **rules}
    return record


@pytest.mark.parametrize(("option", "value"), [("target", 10**30), ("last_trick_points", -1),
                                               ("stake", 1e308 * 10)])
def test_every_door_refuses_alike(option: str, value: Any) -> None:
    """The command line's --set, a record and an environment refuse an out-of-range number
    with the same message as Rules (the lobby: tests/server/test_hostile.py)."""
    with pytest.raises(RulesError) as direct:
        Rules.preset("pagat", **{option: value})
    message = re.escape(str(direct.value))
    shown = "1e999" if value == math.inf else str(value)
    with pytest.raises(RulesError, match=message):
        parse_rules("pagat", [f"{option}={shown}"])
    with pytest.raises((RecordError, RulesError), match=message):
        Game.replay(_record_with({option: value}))
    pettingzoo = pytest.importorskip("chicago.env.pettingzoo")
    with pytest.raises(RulesError, match=message):
        pettingzoo.env(players=2, rules={"preset_name": "pagat", option: value})


def test_rules_under_which_nobody_ever_scores_are_refused() -> None:
    """R-END-1: a game ends when someone reaches the target; with every way of scoring worth
    0 it never would (unless max_deals or an instant win ends it)."""
    nothing = {"points": {c: 0 for c in ("PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT",
                                         "FLUSH", "FULL_HOUSE", "FOUR_OF_A_KIND",
                                         "STRAIGHT_FLUSH", "ROYAL_FLUSH")},
               "last_trick_points": 0}
    with pytest.raises(RulesError, match=r"never score a point.*could not end"):
        Rules.preset("denexa", **nothing)
    with pytest.raises(RulesError, match="never score a point"):
        Rules.preset("pagat", **nothing, chicago_points=0)
    Rules.preset("denexa", **nothing, max_deals=3)
    Rules.preset("pagat", **nothing)  # a made Chicago still scores 15
    Rules.preset("denexa", **nothing, straight_flush_wins=True)


def test_docs_list_every_range() -> None:
    """docs/RULES.md's table of ranges says what RANGES holds, option by option."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Ranges of the numbers", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            for name in re.findall(r"`([a-z_]+)`", cells[0]):
                rows[name] = cells[1]
    assert sorted(rows) == sorted(RANGES)
    for name, limits in RANGES.items():
        low = f"−{-limits.low}" if limits.low < 0 else str(limits.low)
        assert rows[name].startswith((f"{low}-{limits.high}", f"{low} to {limits.high}")), (
            name, rows[name])
