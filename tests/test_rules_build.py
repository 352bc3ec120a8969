"""One way to build rules (issue 19, item 5): ``Rules.build(preset, variations, overrides)``
with one precedence (preset, then variations, then overrides: an override beats a
variation), and the same inputs give the same rules through every door: the command line,
the lobby, text and JSON records, OpenSpiel and PettingZoo (docs/RULES.md, "Building
rules"). Rule ids: V-LOCK-42 (with lock_at=45), V-ONE-UP, V-DEUCE, V-QUADS-RESET, V-CHI-13.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import pytest

from chicago import Game, Rules, RulesError
from chicago.commands._options import add_rules_arguments, parse_rules, rules_from_args
from chicago.record import read_text, write_text
from chicago.rules import parse_option, parse_value
from chicago.server.lobby import CreateTable, make_spec

CASES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("pagat", ["V-LOCK-42"], {"lock_at": 45}),
    ("wikipedia", ["V-ONE-UP", "V-DEUCE"], {"target": 60, "suit_order": "hdsc"}),
    ("pagat", ["V-QUADS-RESET"], {"quads_end_deal": True}),
    ("denexa", ["V-CHI-13"], {}),
    ("wikipedia-42", [], {"lock_at": 45, "stake": 0.5}),
]


def _cli(preset: str, variations: list[str], overrides: dict[str, Any]) -> Rules:
    parser = argparse.ArgumentParser()
    add_rules_arguments(parser)
    argv = ["--rules", preset]
    for vid in variations:
        argv += ["--variation", vid]
    for name, value in overrides.items():
        argv += ["--set", f"{name}={json.dumps(value)}"]
    return rules_from_args(parser.parse_args(argv))


def _lobby(preset: str, variations: list[str], overrides: dict[str, Any]) -> Rules:
    request = CreateTable(preset=preset, variations=variations, rules=overrides,
                          seats=["open"] * 4)
    return make_spec(request, levels=["random"]).rules


def _text_tags(preset: str, variations: list[str], overrides: dict[str, Any]) -> Rules:
    lines = [f'[Rules "{preset}"]']
    lines += [f'[Variation "{vid}"]' for vid in variations]
    lines += [f'[Set "{name}={json.dumps(value)}"]'.replace('"hdsc"', "hdsc")
              for name, value in overrides.items()]
    lines += ['[Players "4"]', '[Seed "1"]', ""]
    parsed = read_text("\n".join(lines) + "\n")
    assert parsed.ok, parsed.errors
    return Rules.from_dict(parsed.record["rules"])


def _records(rules: Rules) -> tuple[Rules, Rules]:
    """The JSON record of a game under ``rules`` replayed, and its text form read back."""
    game = Game(rules, players=4, seed=3)
    for _ in range(12):
        game.apply(game.legal_actions()[0])
    record = game.record()
    replayed = Game.replay(json.loads(json.dumps(record))).rules
    text = write_text(record)
    parsed = read_text(text)
    assert parsed.ok, parsed.errors
    return replayed, Rules.from_dict(parsed.record["rules"])


def _openspiel(preset: str, variations: list[str], overrides: dict[str, Any]) -> Rules | None:
    try:
        from chicago.env.openspiel import rules_of_params
    except ImportError:  # the extra [openspiel] is not installed
        return None
    words = " ".join(f"{name}:{json.dumps(value)}" for name, value in overrides.items())
    rules, _ = rules_of_params({"preset": preset, "variations": " ".join(variations),
                                "rules": words.replace('"', "")})
    return rules


@pytest.mark.parametrize(("preset", "variations", "overrides"), CASES)
def test_same_inputs_same_rules_through_every_door(preset, variations, overrides):
    """The command line, the lobby, the text record's tags, JSON and text records and
    OpenSpiel give exactly ``Rules.build``'s rules, with the same provenance."""
    expected = Rules.build(preset, variations=variations, overrides=overrides)
    doors = {
        "parse_rules": parse_rules(preset, [f"{k}={json.dumps(v)}" for k, v in overrides.items()],
                                   variations),
        "command line": _cli(preset, variations, overrides),
        "lobby": _lobby(preset, variations, overrides),
        "text tags": _text_tags(preset, variations, overrides),
    }
    doors["JSON record"], doors["text record"] = _records(expected)
    openspiel = _openspiel(preset, variations, overrides)
    if openspiel is not None:
        doors["OpenSpiel"] = openspiel
    for door, rules in doors.items():
        assert rules == expected, door
        assert rules.preset_name == expected.preset_name, door
        assert rules.variations == tuple(variations), door


def test_pettingzoo_builds_the_same_rules():
    pytest.importorskip("pettingzoo")
    from chicago.env.pettingzoo import raw_env

    environment = raw_env(players=4, rules="wikipedia", variations=["V-ONE-UP"], max_deals=3)
    assert environment.rules == Rules.build(
        "wikipedia", variations=["V-ONE-UP"], overrides={"max_deals": 3})


def test_an_override_beats_a_variation_V_LOCK_42():
    """V-LOCK-42 with lock_at=45: 45 (it used to be 42 in the lobby, 45 on the command
    line); without the override, 42."""
    assert Rules.build("pagat", variations=["V-LOCK-42"], overrides={"lock_at": 45}).lock_at == 45
    assert _lobby("pagat", ["V-LOCK-42"], {"lock_at": 45}).lock_at == 45
    assert Rules.build("pagat", variations=["V-LOCK-42"]).lock_at == 42


def test_provenance_is_not_compared():
    """Rules with the same options are equal however they were built."""
    by_variation = Rules.build("pagat", variations=["V-LOCK-42"])
    by_option = Rules.build("pagat", overrides={"lock_at": 42})
    assert by_variation == by_option and hash(by_variation) == hash(by_option)
    assert by_variation.variations == ("V-LOCK-42",) and by_option.variations == ()
    assert Rules.from_dict(by_variation.to_dict()).variations == ("V-LOCK-42",)


def test_text_record_writes_variation_tags_and_the_remaining_differences():
    rules = Rules.build("pagat", variations=["V-LOCK-42", "V-DEUCE"], overrides={"lock_at": 45})
    game = Game(rules, players=3, seed=2)
    text = write_text(game.record())
    assert '[Variation "V-LOCK-42"]\n[Variation "V-DEUCE"]\n[Set "lock_at=45"]' in text
    assert "deuce_bonus" not in text  # the variation says it


def test_refusals_name_the_option_at_fault():
    """A refused combination names the override without which the others apply."""
    with pytest.raises(RulesError) as caught:
        Rules.build("pagat", overrides={"quads_end_deal": True, "target": 60})
    assert caught.value.options == ("quads_end_deal",)
    with pytest.raises(RulesError, match="--set quads_end_deal"):
        parse_rules("pagat", ["quads_end_deal=true", "target=60"])
    with pytest.raises(RulesError, match="unknown variation"):
        Rules.build("pagat", variations=["V-NOPE"])
    bad = '[Rules "pagat"]\n[Set "target=60"]\n[Set "quads_end_deal=true"]\n' \
          '[Players "4"]\n[Seed "1"]\n'
    parsed = read_text(bad)
    assert [line for line, _ in parsed.errors] == [3]
    parsed = read_text('[Rules "pagat"]\n[Variation "V-NOPE"]\n[Players "4"]\n[Seed "1"]\n')
    assert [line for line, _ in parsed.errors] == [2]


def test_one_value_parser():
    """``--set``, ``Set`` tags and OpenSpiel's words read values the same way."""
    assert parse_value(" 42 ") == 42 and parse_value("TRUE") is True
    assert parse_value("none") is None and parse_value("hdsc") == "hdsc"
    assert parse_option("lock-at=42") == ("lock_at", 42)
    assert parse_option("lock_at:42", ":") == ("lock_at", 42)
    with pytest.raises(RulesError, match="OPTION=VALUE"):
        parse_option("lock_at")
