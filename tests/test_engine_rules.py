"""Rules: every option combination is either meaningful or refused (R-HAND-1, R-CHI-*, V-*).

A contradictory combination, or an option that would do nothing with the others, raises
:class:`RulesError` naming the options and what would make it valid. A variation applied by
id (``with_variations``) turns on what it needs, so that every variation of RULES.md §5 is
in force on its own on top of every preset; two variations that contradict each other in one
call raise naming both.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from chicago import Category, Rules, RulesError
from chicago.rules import PRESETS, VARIATIONS

SF, ROYAL = Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH

# What it means for each variation to be in force in a rule set.
IN_FORCE: dict[str, Callable[[Rules], bool]] = {
    "V-QUADS-RESET": lambda r: r.quads_reset and not r.quads_reset_one,
    "V-QUADS-ONE": lambda r: r.quads_reset and r.quads_reset_one,
    "V-QUADS-52": lambda r: r.quads_to_target,
    "V-TIE-CATEGORY": lambda r: r.tie_mode == "category" and r.suit_order is None,
    "V-TIE-SUIT": lambda r: r.suit_order is not None and r.tie_mode == "staged",
    "V-SF-10": lambda r: r.points[SF] == 10,
    "V-SF-WIN": lambda r: r.straight_flush_wins,
    "V-ROYAL": lambda r: r.royal_separate,
    "V-LOCK-42": lambda r: r.lock_at == 42,
    "V-LOCK-45": lambda r: r.lock_at == 45,
    "V-LOCK-6": lambda r: r.lock_six and r.lock_at is not None,
    "V-CHI-REQ3": lambda r: r.chicago_enabled and r.chicago_required == "made",
    "V-CHI-DECLARED": lambda r: r.chicago_enabled and r.chicago_required == "declared",
    "V-CHI-BREAKER": lambda r: r.chicago_enabled and r.chicago_breaker_points == 8,
    "V-CHI-13": lambda r: r.chicago_enabled and (r.chicago_points, r.chicago_min_score) == (
        13, 13) and r.chicago_caller_leads,
    "V-NEG": lambda r: r.chicago_enabled and r.negative_scores and r.chicago_min_score is None,
    "V-ONE-UP": lambda r: r.one_up and r.max_discard >= 1,
    "V-REDEAL-LOW": lambda r: r.redeal_low != "off",
    "V-DEUCE": lambda r: r.deuce_bonus and r.chicago_enabled,
    "V-WIN-AGAIN": lambda r: r.win_again,
    "V-LARGE": lambda r: r.max_players == 6,
}


def test_every_variation_has_a_meaning() -> None:
    assert sorted(IN_FORCE) == sorted(VARIATIONS)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("vid", sorted(VARIATIONS))
def test_every_variation_is_in_force_on_its_own_on_every_preset(preset: str, vid: str) -> None:
    """RULES.md §5-6: "every variation above must be selectable on its own on top of any
    preset" -- applied by id it is in force (never a no-op), and the rules round-trip."""
    rules = Rules.preset(preset).with_variations(vid)
    assert IN_FORCE[vid](rules), rules.differences()
    assert Rules.from_json(rules.to_json()) == rules
    assert rules.with_variations(vid) == rules  # applying it again changes nothing


CONFLICTS = {
    frozenset({"V-QUADS-RESET", "V-QUADS-ONE"}),
    frozenset({"V-TIE-CATEGORY", "V-TIE-SUIT"}),
    frozenset({"V-LOCK-42", "V-LOCK-45"}),
    frozenset({"V-CHI-REQ3", "V-CHI-DECLARED"}),
    frozenset({"V-CHI-13", "V-NEG"}),
}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_pair_of_variations_is_in_force_or_refused(preset: str) -> None:
    """Two variations in one call are both in force, whatever their order, or they
    contradict each other and the error names both."""
    base = Rules.preset(preset)
    for a, b in itertools.combinations(sorted(VARIATIONS), 2):
        if frozenset({a, b}) in CONFLICTS:
            for pair in ((a, b), (b, a)):
                with pytest.raises(RulesError, match="contradict") as info:
                    base.with_variations(*pair)
                assert a in str(info.value) and b in str(info.value)
            continue
        rules = base.with_variations(a, b)
        assert rules == base.with_variations(b, a), (a, b)
        assert IN_FORCE[a](rules) and IN_FORCE[b](rules), (a, b, rules.differences())


OPTION_SETS: list[dict[str, object]] = [
    {},
    {"royal_wins": True},
    {"straight_flush_wins": True, "instant_win_score": "keep"},
    {"suit_order": "sdhc"},
    {"tie_mode": "category"},
    {"quads_reset": True, "quads_end_deal": True},
    {"chicago_required": "made", "chicago_made_any_size": True},
    {"deuce_bonus": True, "deuce_chicago_points": 26},
    {"chicago_breaker_points": 4, "chicago_caller_leads": True, "chicago_points": 10},
    {"max_discard": 0, "one_up": False},
    {"lock_at": None},
    {"redeal_low": "ten-and-below", "wheel_straight": False, "show_on_break": False},
]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_variation_applies_on_top_of_any_valid_rule_set(preset: str) -> None:
    """Every variation, then every other one, is in force on top of rule sets that already
    use the options a variation might contradict (an option that is part of another
    variation is switched off with it: V-CHI-DECLARED ends V-CHI-REQ3's any-size option)."""
    for options in OPTION_SETS:
        try:
            base = Rules.preset(preset, **options)
        except RulesError:  # e.g. Chicago options on denexa, royal_wins without V-ROYAL
            assert preset != "pagat", options  # every option set means something in pagat
            continue
        for first in VARIATIONS:
            once = base.with_variations(first)
            assert IN_FORCE[first](once), (options, first)
            for second in VARIATIONS:
                twice = once.with_variations(second)
                assert IN_FORCE[second](twice), (options, first, second)


def test_variations_keep_the_rule_sets_own_form() -> None:
    """V-ROYAL keeps a separate royal's 52, V-LOCK-6 the threshold, V-TIE-SUIT an agreed
    order, V-REDEAL-LOW the limit; otherwise they bring their own (9, 42, hdsc, below-ten)."""
    assert Rules.preset("pagat").with_variations("V-ROYAL").points[ROYAL] == 52
    assert Rules.preset("wikipedia").with_variations("V-ROYAL").points[ROYAL] == 9
    assert Rules.preset("pagat").with_variations("V-LOCK-6").lock_at == 46
    assert Rules.preset("wikipedia").with_variations("V-LOCK-6").lock_at == 42
    assert Rules.preset("pagat", suit_order="sdhc").with_variations("V-TIE-SUIT").suit_order == (
        "sdhc")
    low = Rules.preset("pagat", redeal_low="ten-and-below").with_variations("V-REDEAL-LOW")
    assert low.redeal_low == "ten-and-below"


def test_a_variation_turns_on_what_it_needs() -> None:
    """V-ROYAL separates the royal flush, so royal_wins may follow on wikipedia; V-TIE-SUIT
    and V-TIE-CATEGORY each replace the other's tie rule; Chicago variations switch the call
    on; V-ONE-UP allows at least one discard."""
    royal = Rules.preset("wikipedia").with_variations("V-ROYAL").replace(royal_wins=True)
    assert royal.royal_separate and royal.royal_wins
    category = Rules.preset("pagat", tie_mode="category")
    assert category.with_variations("V-TIE-SUIT").tie_mode == "staged"
    suited = Rules.preset("pagat", suit_order="hdsc")
    assert suited.with_variations("V-TIE-CATEGORY").suit_order is None
    for vid in ("V-CHI-BREAKER", "V-NEG", "V-DEUCE", "V-CHI-13", "V-CHI-REQ3",
                "V-CHI-DECLARED"):
        assert Rules.preset("denexa").with_variations(vid).chicago_enabled, vid
    assert Rules.preset("pagat", max_discard=0).with_variations("V-ONE-UP").max_discard == 1


@pytest.mark.parametrize(
    ("preset", "options", "words"),
    [
        # V-ROYAL: royal_wins without a royal category would never fire
        ("wikipedia", {"royal_wins": True}, ["royal_wins", "royal_separate", "V-ROYAL"]),
        # V-TIE-SUIT with V-TIE-CATEGORY: the suit order would never be used
        ("pagat", {"tie_mode": "category", "suit_order": "hdsc"},
         ["suit_order", "tie_mode", "suit_order=None", "tie_mode='staged'"]),
        # R-CHI-*: Chicago options on a rule set without the call
        ("denexa", {"chicago_breaker_points": 8}, ["chicago_breaker_points", "chicago_enabled"]),
        ("denexa", {"negative_scores": True}, ["negative_scores", "only a failed Chicago"]),
        ("denexa", {"chicago_min_score": None}, ["chicago_min_score", "chicago_enabled=True"]),
        ("denexa", {"chicago_caller_leads": True}, ["chicago_caller_leads"]),
        ("denexa", {"chicago_points": 13}, ["chicago_points"]),
        ("denexa", {"chicago_final_showdown": False}, ["chicago_final_showdown"]),
        ("denexa", {"chicago_required": "made"}, ["chicago_required"]),
        # V-LOCK-6 without a lock, V-ONE-UP without discards
        ("pagat", {"lock_six": True, "lock_at": None}, ["lock_six", "lock_at"]),
        ("wikipedia", {"max_discard": 0}, ["one_up", "max_discard >= 1"]),
        # parts of a variation without the variation
        ("pagat", {"quads_end_deal": True}, ["quads_end_deal", "quads_reset"]),
        ("pagat", {"chicago_made_any_size": True}, ["chicago_made_any_size", "'made'"]),
        ("pagat", {"deuce_chicago_points": 26}, ["deuce_chicago_points", "deuce_bonus"]),
        ("pagat", {"instant_win_score": "keep"},
         ["instant_win_score", "straight_flush_wins", "royal_wins"]),
        # R-HAND-1: no pair scores nothing; R-EX-5: a lock below one point locks everyone
        ("pagat", {"points": {"HIGH_CARD": 1}}, ["HIGH_CARD", "must be 0"]),
        ("pagat", {"lock_at": 0}, ["lock_at", "positive or None"]),
        ("pagat", {"chicago_min_score": 0}, ["chicago_min_score", "positive or None"]),
        ("pagat", {"deuce_chicago_points": -1, "deuce_bonus": True}, ["deuce_chicago_points"]),
        # V-CHI-REQ3: reaching the target resets, so a minimum score at or above the target
        # could never be had: no Chicago could be made and the game could not end
        ("pagat", {"chicago_required": "made", "target": 15},
         ["V-CHI-REQ3", "target=15", "chicago_min_score=15", "could not end"]),
    ],
)
def test_contradictory_combinations_are_refused(
    preset: str, options: dict[str, object], words: list[str]
) -> None:
    """An impossible combination, or an option that would do nothing, is refused with a
    message naming it and what would make it valid."""
    with pytest.raises(RulesError) as info:
        Rules.preset(preset, **options)
    for word in words:
        assert word in str(info.value), (word, str(info.value))


def test_the_same_options_are_valid_where_they_mean_something() -> None:
    """The refused options above are fine on rule sets where they do something."""
    Rules.preset("pagat", royal_wins=True)
    Rules.preset("pagat", suit_order="hdsc")
    Rules.preset("pagat", chicago_breaker_points=8, negative_scores=True, chicago_points=13)
    Rules.preset("pagat", quads_reset=True, quads_end_deal=True)
    Rules.preset("pagat", chicago_required="made", chicago_made_any_size=True)
    Rules.preset("pagat", deuce_bonus=True, deuce_chicago_points=26)
    Rules.preset("pagat", straight_flush_wins=True, instant_win_score="keep")
    Rules.preset("pagat", royal_wins=True, instant_win_score="keep")
    Rules.preset("wikipedia", chicago_min_score=0)  # negative scores: 0 is a real minimum
    Rules.preset("denexa", deuce_bonus=True)  # the last-trick half of V-DEUCE needs no call
    Rules.preset("pagat", chicago_required="made", target=16)  # 15 points may be had
    Rules.preset("wikipedia", chicago_required="made", target=10)  # no minimum score


def test_new_options_and_their_defaults() -> None:
    """V-CHI-REQ3's table size, the instant win's score and V-DEUCE's Chicago points are
    options; their defaults are the spec's reading, the same in every preset."""
    for rules in PRESETS.values():
        assert rules.chicago_made_any_size is False
        assert rules.instant_win_score == "target"
        assert rules.deuce_chicago_points == 30
    with pytest.raises(RulesError, match="instant_win_score"):
        Rules.preset("pagat", straight_flush_wins=True, instant_win_score="all")


def test_a_record_written_before_the_new_options_still_loads() -> None:
    """Rules.from_dict of an older record (without the new options) takes their defaults."""
    data = Rules.preset("pagat").to_dict()
    for name in ("chicago_made_any_size", "instant_win_score", "deuce_chicago_points"):
        del data[name]
    assert Rules.from_dict(data) == Rules.preset("pagat")
