"""The ``chicago odds`` command and the shared ``--rules``/``--set`` parsing."""

from __future__ import annotations

import json

import pytest

from chicago.cli import main
from chicago.commands._options import parse_rules
from chicago.odds import CATEGORY_NAMES
from chicago.rules import Rules, RulesError, parse_value


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    assert main(["odds", *argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, list)
    return data


def test_json_list_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "Ah Kh Qh Jh 2c")
    assert len(data) == 32
    best = data[0]
    assert best["keep"] == ["Ah", "Kh", "Qh", "Jh"]
    assert best["discard"] == ["2c"]
    assert best["expected_points"] == pytest.approx(2.4680851)
    probabilities = best["probabilities"]
    assert isinstance(probabilities, dict)
    assert list(probabilities) == list(CATEGORY_NAMES)
    assert probabilities["ROYAL_FLUSH"] == pytest.approx(1 / 47)
    points = [d["expected_points"] for d in data]
    assert points == sorted(points, reverse=True)  # type: ignore[type-var]


def test_hand_as_separate_tokens(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, "Ah", "Kh", "Qh", "Jh", "2c") == run_json(capsys, "Ah Kh Qh Jh 2c")


def test_dead_cards_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "Ah Kh Qh Jh 2c", "--dead", "Th 9h", "--rules", "wikipedia")
    best = next(d for d in data if d["discard"] == ["2c"])
    probabilities = best["probabilities"]
    assert isinstance(probabilities, dict)
    assert probabilities["ROYAL_FLUSH"] == 0.0
    assert probabilities["STRAIGHT_FLUSH"] == 0.0  # the ten of hearts is dead
    assert probabilities["FLUSH"] == pytest.approx(7 / 45)


def test_set_options(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys, "2c 3d 4h 5s Kc", "--set", "wheel_straight=false", "--set", "max_discard=1"
    )
    assert len(data) == 6
    keep = next(d for d in data if d["discard"] == ["Kc"])
    probabilities = keep["probabilities"]
    assert isinstance(probabilities, dict)
    assert probabilities["STRAIGHT"] == pytest.approx(4 / 47)


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "Ah Kh Qh Jh 2c", "--dead", "Th"]) == 0
    out = capsys.readouterr().out
    assert "Draw odds for Ah Kh Qh Jh 2c (dead: Th)" in out
    assert "Ah Kh Qh Jh ··" in out
    assert "1.391" in out  # (8 * 5 + 3 * 4 + 12) / 46 expected points
    assert "exp." in out


def test_no_hand_deals_a_seeded_random_one(capsys: pytest.CaptureFixture[str]) -> None:
    """``chicago odds`` without a hand deals a seeded random one."""
    assert main(["odds", "--seed", "7"]) == 0
    first = capsys.readouterr().out
    assert main(["odds", "--seed", "7"]) == 0
    assert capsys.readouterr().out == first
    assert "--seed 7" in first and "Usage: chicago odds" in first
    assert "Draw odds for" in first


def test_no_hand_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--seed", "3", "--dead", "As Ks")
    assert len(data) == 32
    cards = set(data[0]["keep"]) | set(data[0]["discard"])  # type: ignore[arg-type]
    assert len(cards) == 5 and not cards & {"As", "Ks"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["Ah Kh Qh Jh 1x"], "'1x' is not a card"),
        (["Ah Kh Qh Jh Ah"], "duplicate card 'Ah'"),
        (["Ah Kh Qh Jh"], "5 cards, not 4"),
        (["Ah Kh Qh Jh 2c", "--dead", "Qh"], "dead card 'Qh' is in the hand"),
        (["Ah Kh Qh Jh 2c", "--dead", "Tx"], "'Tx' is not a card"),
        (["Ah Kh Qh Jh 2c", "--rules", "nope"], "unknown preset 'nope'"),
        (["Ah Kh Qh Jh 2c", "--set", "lock_at=abc"], "lock_at"),
        (["Ah Kh Qh Jh 2c", "--set", "colour=red"], "unknown rule option 'colour'"),
        (["Ah Kh Qh Jh 2c", "--set", "lock_at"], "OPTION=VALUE"),
        (["Ah Kh Qh Jh 2c", "--variation", "V-NOPE"], "unknown variation"),
    ],
)
def test_bad_input_exit_2_with_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["odds", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
    assert captured.err.startswith("chicago odds: ")


def test_parse_value() -> None:
    assert parse_value("42") == 42
    assert parse_value("1.5") == 1.5
    assert parse_value("true") is True and parse_value("False") is False
    assert parse_value("null") is None and parse_value("None") is None
    assert parse_value('{"ROYAL_FLUSH": 9}') == {"ROYAL_FLUSH": 9}
    assert parse_value("hdsc") == "hdsc"
    assert parse_value('"42"') == "42"


def test_parse_rules() -> None:
    rules = parse_rules(
        "wikipedia", ["lock_at=42", "suit-order=hdsc", 'points={"STRAIGHT_FLUSH": 10}']
    )
    assert rules.preset_name == "wikipedia"
    assert rules.lock_at == 42 and rules.suit_order == "hdsc"
    assert rules.points[8] == 10
    assert parse_rules("pagat", ["lock_at=null"]).lock_at is None
    with_royal = parse_rules("wikipedia", [], ["V-ROYAL"])
    assert with_royal.royal_separate and with_royal.points[9] == 9
    assert parse_rules("pagat") == parse_rules("pagat", [])


@pytest.mark.parametrize(
    ("sets", "message"),
    [
        (["lock_at=abc"], "--set lock_at: rule option 'lock_at' must be"),
        (["nope=1"], "--set nope: unknown rule option 'nope'"),
        (["=1"], "expected OPTION=VALUE"),
        (["exchanges=9"], "--set exchanges: exchanges must be 1-5"),
        (['points={"FOO": 1}'], "unknown category 'FOO'"),
    ],
)
def test_parse_rules_errors_name_the_option(sets: list[str], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        parse_rules("pagat", sets)


def test_parse_rules_applies_every_set_and_variation_together() -> None:
    """Options that need each other, in either order and from a variation, build one rule set
    (instant_win_score needs an instant win, quads_end_deal V-QUADS-RESET, the REQ3 size
    option V-CHI-REQ3, deuce_chicago_points V-DEUCE); nothing is checked half-built."""
    pairs = [["instant_win_score=keep", "straight_flush_wins=true"],
             ["instant_win_score=keep", "royal_wins=true"]]
    for sets in pairs:
        for ordered in (sets, sets[::-1]):
            rules = parse_rules("pagat", ordered)
            assert rules.instant_win_score == "keep"
    for sets, variation, option in [
        (["instant_win_score=keep"], "V-SF-WIN", "instant_win_score"),
        (["quads_end_deal=true"], "V-QUADS-RESET", "quads_end_deal"),
        (["chicago_made_any_size=true"], "V-CHI-REQ3", "chicago_made_any_size"),
        (["deuce_chicago_points=26"], "V-DEUCE", "deuce_chicago_points"),
    ]:
        for preset in ("pagat", "denexa", "wikipedia"):
            rules = parse_rules(preset, sets, [variation])
            assert getattr(rules, option) == parse_value(sets[0].split("=")[1]), (preset, sets)
            assert rules == Rules.preset(preset).with_variations(variation).replace(
                **{option: getattr(rules, option)})
    # an explicit --set wins over the variation's value; a variation keeps an agreed form
    assert parse_rules("pagat", ["chicago_points=20"], ["V-CHI-13"]).chicago_points == 20
    assert parse_rules("wikipedia", ["lock_at=45"], ["V-LOCK-6"]).lock_at == 45
    assert parse_rules("pagat", ["suit_order=shdc"], ["V-TIE-SUIT"]).suit_order == "shdc"


@pytest.mark.parametrize(
    ("sets", "variations", "message"),
    [
        (["instant_win_score=keep", "lock_at=42"], [],
         "--set instant_win_score: instant_win_score='keep' needs an instant win"),
        (["chicago_made_any_size=true"], ["V-CHI-DECLARED"],
         "--set chicago_made_any_size: chicago_made_any_size is part of V-CHI-REQ3"),
        (["target=15", "stake=2"], ["V-CHI-REQ3"], "--set target: chicago_required='made'"),
        (["quads_end_deal=true", "deuce_chicago_points=26"], [],
         "--set quads_end_deal, deuce_chicago_points: "),
        ([], ["V-TIE-SUIT", "V-TIE-CATEGORY"], "contradict each other"),
    ],
)
def test_a_refused_combination_names_the_set_option_that_causes_it(
    sets: list[str], variations: list[str], message: str
) -> None:
    with pytest.raises(RulesError) as caught:
        parse_rules("pagat", sets, variations)
    assert message in str(caught.value)


def test_odds_and_simulate_take_options_that_need_each_other(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`--set instant_win_score=keep --set straight_flush_wins=true` (one option per --set)
    and the same after one --set, through the real commands."""
    assert main(["odds", "Ah Kh Qh Jh 2c", "--set", "instant_win_score=keep",
                 "--set", "straight_flush_wins=true", "--json"]) == 0
    capsys.readouterr()
    assert main(["simulate", "--bots", "random,random", "--games", "1", "--set",
                 "instant_win_score=keep", "straight_flush_wins=true", "max_deals=1",
                 "--variation", "V-QUADS-RESET", "--set", "quads_end_deal=true",
                 "--no-progress", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] >= 1
    assert main(["odds", "Ah Kh Qh Jh 2c", "--set", "instant_win_score=keep"]) == 2
    assert "--set instant_win_score: " in capsys.readouterr().err


@pytest.mark.parametrize("json_flag", [["--json"], []])
def test_a_closed_pipe_ends_quietly(json_flag: list[str]) -> None:
    """``chicago odds … --json | head``: the reader goes away; nothing on stderr, no
    traceback, exit code 1 (Python's advice for EPIPE; rich's console does the same)."""
    import subprocess
    import sys

    code = "import sys; from chicago.cli import main; sys.exit(main(sys.argv[1:]))"
    for _ in range(3):
        child = subprocess.Popen(
            [sys.executable, "-c", code, "odds", "Ah Kh Qh Jh 2c", *json_flag],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        assert child.stdout is not None and child.stderr is not None
        child.stdout.close()  # like `| true`: nothing is read
        errors = child.stderr.read().decode()
        assert child.wait(timeout=60) == 1, errors
        assert errors == ""
