"""Rules engine: every variation of RULES.md §5, each on its own on top of two presets or more."""

from __future__ import annotations

import pytest

from chicago import Game, Rules, settlement
from chicago.cards import DECK, parse_cards
from engine_helpers import (
    advance_to,
    assert_illegal,
    events_of,
    game,
    jview,
    keep_all,
    run,
    view_text,
)

TWO = ["pagat", "wikipedia"]
ALL = ["pagat", "denexa", "wikipedia", "wikipedia-42"]


def rules_with(preset: str, *variations: str, **overrides: object) -> Rules:
    """A preset with variations, then option overrides."""
    rules = Rules.preset(preset).with_variations(*variations)
    return rules.replace(**overrides) if overrides else rules


def play_out(g: Game) -> Game:
    deal = g.deal_number
    while g.deal_number == deal and not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[0])
    return g


def chicago_phase(g: Game) -> Game:
    """Decline everything up to the Chicago call (or the first lead if nobody may call)."""
    advance_to(g, "chicago")
    return g


# ------------------------------------------------------------------------------ V-QUADS-RESET
@pytest.mark.parametrize("preset", TWO)
def test_v_quads_reset_in_a_scoring_round(preset: str) -> None:
    """V-QUADS-RESET: the round's winner with four of a kind resets every other score."""
    g = game(rules_with(preset, "V-QUADS-RESET"), 3, dealer=2, hands=["9c 9d 9h 9s 2c"],
             scores=[10, 30, 20])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass", "2: pass"])
    assert g.phase.value == "quads choice" and g.to_act == 0
    assert [str(a) for a in g.legal_actions()] == ["score", "reset"]
    run(g, ["0: reset"])
    assert g.scores == [10, 0, 0] and g.deal_number == 2  # the deal ends at once
    deal1 = [e.data for e in g.events[: g._deal_start_event]]
    show = [e for e in deal1 if e["type"] == "show"]
    assert len(show) == 1 and sorted(show[0]["cards"]) == ["9c", "9d", "9h", "9s"]
    assert not [e for e in deal1 if e["type"] in ("trick", "showdown")]


@pytest.mark.parametrize("preset", TWO)
def test_v_quads_reset_may_score_instead(preset: str) -> None:
    """V-QUADS-RESET: the winner may score the 7 instead; the deal goes on (quads_end_deal)."""
    g = game(rules_with(preset, "V-QUADS-RESET"), 2, dealer=1, hands=["9c 9d 9h 9s 2c"],
             scores=[10, 30])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass", "0: score"])
    assert g.scores == [17, 30] and g.phase.value == "exchange" and g.deal_number == 1
    ended = rules_with(preset, "V-QUADS-RESET", quads_end_deal=True)
    g = game(ended, 2, dealer=1, hands=["9c 9d 9h 9s 2c"], scores=[10, 30])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass", "0: score"])
    assert g.scores == [17, 30] and g.deal_number == 2


@pytest.mark.parametrize("preset", TWO)
def test_v_quads_reset_after_the_last_exchange(preset: str) -> None:
    """V-QUADS-RESET: after the last exchange every player is asked; only quads may reset."""
    g = game(rules_with(preset, "V-QUADS-RESET"), 2, dealer=1, hands=["9c 9d 9h 9s 2c"],
             scores=[10, 30])
    advance_to(g, "quads")
    assert g.to_act == 0 and [str(a) for a in g.legal_actions()] == ["pass", "reset"]
    run(g, ["0: pass"])
    assert g.to_act == 1 and [str(a) for a in g.legal_actions()] == ["pass"]
    assert_illegal(g, "reset", "four of a kind", "V-QUADS-RESET")
    run(g, ["1: pass"])
    assert g.phase.value in ("chicago", "play")
    g = game(rules_with(preset, "V-QUADS-RESET"), 2, dealer=1, hands=["9c 9d 9h 9s 2c"],
             scores=[10, 30])
    advance_to(g, "quads")
    run(g, ["0: reset", "1: pass"])
    assert g.scores == [10, 0] and g.deal_number == 2


@pytest.mark.parametrize("preset", TWO)
def test_v_quads_reset_only_the_higher_quads(preset: str) -> None:
    """V-QUADS-RESET: if two players hold four of a kind, only the higher may reset."""
    g = game(rules_with(preset, "V-QUADS-RESET"), 2, dealer=1,
             hands=["9c 9d 9h 9s 2c", "Kc Kd Kh Ks 3c"], scores=[10, 30])
    advance_to(g, "quads")
    run(g, ["0: reset", "1: reset"])
    assert g.scores == [0, 30]
    assert [e["seat"] for e in events_of(g, "quads_reset", deal=False)] == [1]


@pytest.mark.parametrize("preset", TWO)
def test_v_quads_reset_lower_quads_objected_in_a_scoring_round(preset: str) -> None:
    """V-QUADS-RESET: only the higher four of a kind may reset. The higher holder passed, so
    the lower one wins the round; its reset is void: the higher four are shown to everyone
    (the objection a real table would hear) and the winner scores the 7 instead."""
    g = game(rules_with(preset, "V-QUADS-RESET"), 2, dealer=1,
             hands=["9c 9d 9h 9s 2c", "Kc Kd Kh Ks 3c"], scores=[10, 30])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass"])
    # reset is offered as to any four of a kind: the choice tells nothing of other hands
    assert g.phase.value == "quads choice" and [str(a) for a in g.legal_actions()] == [
        "score", "reset"]
    run(g, ["0: reset"])
    assert g.scores == [17, 30] and g.deal_number == 1 and g.phase.value == "exchange"
    objection = events_of(g, "quads_objection")
    assert objection == [{"type": "quads_objection", "seat": 1, "against": 0}]
    show = events_of(g, "show")[-1]
    assert show["seat"] == 1 and sorted(show["cards"]) == ["Kc", "Kd", "Kh", "Ks"]
    assert jview(g, None)["shown"] == {"1": show["cards"]}  # public: spectators see it too
    assert events_of(g, "quads_reset") == []
    ended = rules_with(preset, "V-QUADS-RESET", quads_end_deal=True)
    g = game(ended, 2, dealer=1, hands=["9c 9d 9h 9s 2c", "Kc Kd Kh Ks 3c"], scores=[10, 30])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass", "0: reset"])
    assert g.scores == [17, 30] and g.deal_number == 2  # scoring the 7 ends the deal


@pytest.mark.parametrize("preset", TWO)
def test_v_quads_reset_lower_claim_objected_after_the_last_exchange(preset: str) -> None:
    """V-QUADS-RESET: after the last exchange the lower four of a kind claims, the higher
    passes: the higher objects (its four shown), nobody resets, the deal goes on."""
    g = game(rules_with(preset, "V-QUADS-RESET"), 2, dealer=1,
             hands=["9c 9d 9h 9s 2c", "Kc Kd Kh Ks 3c"], scores=[10, 30])
    advance_to(g, "quads")
    run(g, ["0: reset", "1: pass"])
    assert g.scores == [10, 30] and g.deal_number == 1
    assert g.phase.value in ("chicago", "play")
    assert [e["seat"] for e in events_of(g, "quads_objection")] == [1]
    assert sorted(g.shown[1]) == sorted(parse_cards("Kc Kd Kh Ks"))
    # the higher one claims after the lower: the higher resets, nobody objects
    g = game(rules_with(preset, "V-QUADS-RESET"), 2, dealer=1,
             hands=["9c 9d 9h 9s 2c", "Kc Kd Kh Ks 3c"], scores=[10, 30])
    advance_to(g, "quads")
    run(g, ["0: reset", "1: reset"])
    assert g.scores == [0, 30] and events_of(g, "quads_objection", deal=False) == []
    # the higher one resets, the lower one passes: a plain reset
    g = game(rules_with(preset, "V-QUADS-RESET"), 3, dealer=2,
             hands=["9c 9d 9h 9s 2c", "Kc Kd Kh Ks 3c"], scores=[10, 30, 20])
    advance_to(g, "quads")
    run(g, ["0: pass", "1: reset", "2: pass"])
    assert g.scores == [0, 30, 0]


def test_v_quads_reset_lower_claim_objected_by_the_highest_of_three() -> None:
    """V-QUADS-RESET: of three fours of a kind, the highest objects to the others' claims."""
    g = game(rules_with("pagat", "V-QUADS-RESET"), 3, dealer=2,
             hands=["9c 9d 9h 9s 2c", "Qc Qd Qh Qs 3c", "Kc Kd Kh Ks 4c"], scores=[10, 20, 30])
    advance_to(g, "quads")
    run(g, ["0: reset", "1: reset", "2: pass"])
    assert g.scores == [10, 20, 30]
    assert events_of(g, "quads_objection") == [
        {"type": "quads_objection", "seat": 2, "against": 1}]


def test_v_quads_reset_legal_actions_do_not_tell_of_a_higher_four() -> None:
    """V-QUADS-RESET, R-ANN-5: the lower holder is offered the same choices whether or not
    a higher four of a kind is out, so the question leaks nothing before the reset."""
    rules = rules_with("pagat", "V-QUADS-RESET")
    with_higher = game(rules, 2, dealer=1, hands=["9c 9d 9h 9s 2c", "Kc Kd Kh Ks 3c"])
    without = game(rules, 2, dealer=1, hands=["9c 9d 9h 9s 2c", "Kc Kd 5h 7s 3c"])
    for g in (with_higher, without):
        advance_to(g, "quads")
    assert with_higher.legal_actions() == without.legal_actions()
    assert jview(with_higher, 0)["legal_actions"] == jview(without, 0)["legal_actions"]


def test_v_quads_reset_off_by_default() -> None:
    """V-QUADS-RESET: without it four of a kind just scores 7."""
    g = game("pagat", 2, dealer=1, hands=["9c 9d 9h 9s 2c"], scores=[10, 30])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass"])
    assert g.scores == [17, 30] and g.phase.value == "exchange"


# ------------------------------------------------------------------------------ V-QUADS-ONE
@pytest.mark.parametrize("preset", TWO)
def test_v_quads_one_lowers_one_player_of_the_holders_choice(preset: str) -> None:
    """V-QUADS-ONE: the scoring round's winner with four of a kind chooses one other player
    and lowers only that score to zero; the deal ends at once (as V-QUADS-RESET)."""
    g = game(rules_with(preset, "V-QUADS-ONE"), 3, dealer=2, hands=["9c 9d 9h 9s 2c"],
             scores=[10, 30, 20])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass", "2: pass"])
    assert g.phase.value == "quads choice" and g.to_act == 0
    assert [str(a) for a in g.legal_actions()] == ["score", "reset 1", "reset 2"]
    assert_illegal(g, "reset", "name the seat", "V-QUADS-ONE")
    assert_illegal(g, "reset 0", "another player")
    run(g, ["0: reset 1"])
    assert g.scores == [10, 0, 20] and g.deal_number == 2
    deal1 = [e.data for e in g.events[: g._deal_start_event]]
    assert {"type": "quads_choice", "seat": 0, "reset": True, "target": 1} in deal1
    assert {"type": "quads_reset", "seat": 0, "target": 1} in deal1
    assert not [e for e in deal1 if e["type"] in ("trick", "showdown")]


@pytest.mark.parametrize("preset", TWO)
def test_v_quads_one_after_the_last_exchange(preset: str) -> None:
    """V-QUADS-ONE: in the quads round after the last exchange the claim names the player to
    lower; the highest claim's choice is the one carried out."""
    g = game(rules_with(preset, "V-QUADS-ONE"), 3, dealer=2, hands=["9c 9d 9h 9s 2c"],
             scores=[10, 30, 20])
    advance_to(g, "quads")
    assert g.to_act == 0
    assert [str(a) for a in g.legal_actions()] == ["pass", "reset 1", "reset 2"]
    run(g, ["0: reset 2", "1: pass", "2: pass"])
    assert g.scores == [10, 30, 0] and g.deal_number == 2
    deal1 = [e.data for e in g.events[: g._deal_start_event]]
    assert {"type": "quads_claim", "seat": 0, "reset": True, "target": 2} in deal1


def test_v_quads_one_the_plain_reset_names_nobody_V_QUADS_RESET() -> None:
    """V-QUADS-RESET (without V-QUADS-ONE) refuses a reset that names a seat; the two
    variations contradict each other in one call."""
    g = game(rules_with("pagat", "V-QUADS-RESET"), 3, dealer=2, hands=["9c 9d 9h 9s 2c"],
             scores=[10, 30, 20])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass", "2: pass"])
    assert_illegal(g, "reset 1", "every other player", "V-QUADS-RESET")
    with pytest.raises(ValueError, match="V-QUADS-RESET and V-QUADS-ONE contradict"):
        Rules.preset("pagat").with_variations("V-QUADS-RESET", "V-QUADS-ONE")
    assert not Rules.preset("pagat").with_variations("V-QUADS-ONE").with_variations(
        "V-QUADS-RESET").quads_reset_one


# ------------------------------------------------------------------------------ V-QUADS-52
@pytest.mark.parametrize("preset", TWO)
def test_v_quads_52_raises_the_holder_to_the_target(preset: str) -> None:
    """V-QUADS-52: four of a kind scored in a scoring round raises its holder at once to the
    target (52 from 10: 42 points); the deal goes on and the game ends after it, as any
    game at the target does (R-END-1)."""
    g = game(rules_with(preset, "V-QUADS-52"), 2, dealer=1, hands=["9c 9d 9h 9s 2c"],
             scores=[10, 30])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass"])
    assert g.scores == [52, 30] and g.deal_number == 1
    result = [e.data for e in g.deal_events if e.data["type"] == "round_result"]
    assert result[-1]["points"] == 42
    play_out(g)
    assert g.is_over and 0 in g.winners


def test_v_quads_52_never_scores_less_than_the_points_R_HAND_1() -> None:
    """V-QUADS-52 near the target: the holder scores at least the category's 7 (R-HAND-1)."""
    g = game(rules_with("pagat", "V-QUADS-52", target=60), 2, dealer=1,
             hands=["9c 9d 9h 9s 2c"], scores=[57, 10])
    keep_all(g)
    run(g, ["0: announce four of a kind", "1: pass"])
    assert g.scores[0] == 64


def test_v_quads_52_in_the_final_showdown_R_FIN_1() -> None:
    """V-QUADS-52 also raises four of a kind that wins the final showdown (R-FIN-1)."""
    g = game(rules_with("denexa", "V-QUADS-52"), 2, dealer=1, hands=["9c 9d 9h 9s 2c"],
             scores=[5, 10])
    while g.phase.value != "play":
        legal = [str(a) for a in g.legal_actions()]
        g.apply("pass" if "pass" in legal else legal[0])
    play_out(g)
    showdown = [e.data for e in g.events if e.data["type"] == "showdown"][-1]
    assert showdown["winner"] == 0 and showdown["category"] == "FOUR_OF_A_KIND"
    assert showdown["points"] > 7 and g.scores[0] == 52 and g.is_over


def test_v_quads_52_with_a_reset_the_holder_chooses_V_QUADS_RESET() -> None:
    """V-QUADS-52 with V-QUADS-RESET (W: "or a combination of these"): the holder chooses to
    be raised to the target (score) or to reset the others."""
    rules = rules_with("wikipedia", "V-QUADS-52", "V-QUADS-RESET")
    g = game(rules, 2, dealer=1, hands=["9c 9d 9h 9s 2c"], scores=[10, 30])
    run(g, ["0: keep", "1: keep", "0: announce four of a kind", "1: pass"])
    assert [str(a) for a in g.legal_actions()] == ["score", "reset"]
    run(g, ["0: score"])
    assert g.scores == [52, 30]


# ------------------------------------------------------------------------------ V-TIE-CATEGORY
@pytest.mark.parametrize("preset", TWO)
def test_v_tie_category_equal_categories_score_nothing(preset: str) -> None:
    """V-TIE-CATEGORY: equal categories score nothing and nothing is revealed."""
    g = game(rules_with(preset, "V-TIE-CATEGORY"), 3, dealer=2,
             hands=["9c 9d Kh 7s 2c", "5c 5d Qs 8h 3c"])
    keep_all(g)
    run(g, ["0: announce pair", "1: announce pair", "2: pass"])
    assert g.scores == [0, 0, 0] and events_of(g, "reveal") == []
    assert events_of(g, "round_result")[-1]["winner"] is None


@pytest.mark.parametrize("preset", TWO)
def test_v_tie_category_at_the_showdown(preset: str) -> None:
    """V-TIE-CATEGORY: two best hands of the same category at the showdown score nothing."""
    g = game(rules_with(preset, "V-TIE-CATEGORY"), 2, dealer=1,
             hands=["As Ad Kc 2h 3s", "Kh Kd 5d 6h 7c"])
    advance_to(g, "play")
    play_out(g)
    showdown = next(e.data for e in g.events if e.data["type"] == "showdown")
    assert showdown["winner"] is None and showdown["points"] == 0
    # the higher category still wins alone
    g = game(rules_with(preset, "V-TIE-CATEGORY"), 2, dealer=1,
             hands=["As Ad Ac 2h 3s", "Kh Kd 5d 6h 7c"])
    keep_all(g)
    run(g, ["0: announce three of a kind", "1: pass"])
    assert g.scores == [3, 0]


# ------------------------------------------------------------------------------ V-TIE-SUIT
@pytest.mark.parametrize("preset", TWO)
def test_v_tie_suit_breaks_exact_ties(preset: str) -> None:
    """V-TIE-SUIT: exactly equal hands: the suit of the highest card decides (h > d > s > c)."""
    g = game(rules_with(preset, "V-TIE-SUIT"), 2, dealer=1,
             hands=["7c 7d Td 6s 2c", "7h 7s Th 6c 2d"])
    keep_all(g)
    run(g, ["0: announce pair", "1: announce pair"])
    reveals = events_of(g, "reveal")
    assert len(reveals) == 10  # four rank stages, then the suit stage
    assert reveals[-2:] == [{"type": "reveal", "seat": 0, "stage": 5, "suit": "d"},
                            {"type": "reveal", "seat": 1, "stage": 5, "suit": "h"}]
    assert g.scores == [0, 1]


@pytest.mark.parametrize("preset", TWO)
def test_v_tie_suit_other_order_and_showdown(preset: str) -> None:
    """V-TIE-SUIT: another agreed order; the showdown is decided the same way."""
    rules = rules_with(preset, "V-TIE-SUIT", suit_order="cdhs")
    g = game(rules, 2, dealer=1, hands=["7c 7d Tc 6s 2c", "7h 7s Th 6c 2d"])
    advance_to(g, "play")
    play_out(g)
    showdown = next(e.data for e in g.events if e.data["type"] == "showdown")
    assert showdown["winner"] == 0 and showdown["points"] == 1  # Tc beats Th in c>d>h>s


def test_v_tie_suit_off_by_default() -> None:
    """V-TIE-SUIT: off by default: suits never break a tie (R-HAND-2)."""
    assert Rules.preset("pagat").suit_order is None


# ------------------------------------------------------------------------------ V-SF-10
@pytest.mark.parametrize("preset", ALL)
def test_v_sf_10_straight_flush_scores_10(preset: str) -> None:
    """V-SF-10: a straight flush scores 10."""
    g = game(rules_with(preset, "V-SF-10"), 2, dealer=1, hands=["5h 6h 7h 8h 9h"])
    keep_all(g)
    run(g, ["0: announce straight flush", "1: pass"])
    assert g.scores == [10, 0]


# ------------------------------------------------------------------------------ V-SF-WIN
@pytest.mark.parametrize("preset", TWO)
def test_v_sf_win_straight_flush_wins_at_once(preset: str) -> None:
    """V-SF-WIN: a straight flush that scores wins the game at once."""
    g = game(rules_with(preset, "V-SF-WIN"), 3, dealer=2, hands=["5h 6h 7h 8h 9h"],
             scores=[3, 40, 20])
    keep_all(g)
    run(g, ["0: announce straight flush", "1: pass", "2: pass"])
    assert g.is_over and g.winners == [0] and g.to_act is None
    assert g.scores[0] == 52  # raised to the target
    assert g.settlement() == [12.0 + 32.0, -12.0, -32.0]


@pytest.mark.parametrize("preset", TWO)
def test_v_sf_win_at_the_showdown(preset: str) -> None:
    """V-SF-WIN: a straight flush winning the final showdown wins the game too."""
    g = game(rules_with(preset, "V-SF-WIN"), 2, dealer=1, hands=["5h 6h 7h 8h 9h"])
    advance_to(g, "play")
    play_out(g)
    assert g.is_over and g.winners == [0] and g.deal_number == 1


@pytest.mark.parametrize("preset", TWO)
def test_v_sf_win_instant_win_score_keep(preset: str) -> None:
    """V-SF-WIN with instant_win_score="keep": the game ends at once, the winner's score is
    not raised to the target, and the settlement follows the scores as they stand."""
    rules = rules_with(preset, "V-SF-WIN", instant_win_score="keep")
    g = game(rules, 3, dealer=2, hands=["5h 6h 7h 8h 9h"], scores=[3, 40, 20])
    keep_all(g)
    run(g, ["0: announce straight flush", "1: pass", "2: pass"])
    assert g.is_over and g.winners == [0] and g.scores == [11, 40, 20]
    assert g.settlement() == [0.0, 0.0, 0.0]  # nobody is below the winner's 11
    g = game(rules, 3, dealer=2, hands=["5h 6h 7h 8h 9h"], scores=[30, 10, 20])
    keep_all(g)
    run(g, ["0: announce straight flush", "1: pass", "2: pass"])
    assert g.scores == [38, 10, 20] and g.settlement() == [46.0, -28.0, -18.0]


# ------------------------------------------------------------------------------ V-ROYAL
@pytest.mark.parametrize(("preset", "points"), [
    ("wikipedia", 9), ("wikipedia-42", 9), ("pagat", 52), ("denexa", 52)])
def test_v_royal_scored_separately(preset: str, points: int) -> None:
    """V-ROYAL: a royal flush is its own category: 9 in W; P and D keep their 52."""
    g = game(rules_with(preset, "V-ROYAL"), 2, dealer=1, hands=["Th Jh Qh Kh Ah"])
    keep_all(g)
    assert "announce royal flush" in [str(a) for a in g.legal_actions()]
    run(g, ["0: announce royal flush", "1: pass"])
    assert g.scores == [points, 0]


@pytest.mark.parametrize("preset", TWO)
def test_v_royal_immediate_win_option(preset: str) -> None:
    """V-ROYAL: the immediate-win form (royal_wins): a scoring royal flush wins the game."""
    g = game(rules_with(preset, "V-ROYAL", royal_wins=True), 2, dealer=1,
             hands=["Th Jh Qh Kh Ah"])
    keep_all(g)
    run(g, ["0: announce royal flush", "1: pass"])
    assert g.is_over and g.winners == [0]


# ------------------------------------------------------------------------------ V-LOCK-42/45
@pytest.mark.parametrize("preset", TWO)
@pytest.mark.parametrize(("variation", "at"), [("V-LOCK-42", 42), ("V-LOCK-45", 45)])
def test_v_lock_42_45_thresholds(preset: str, variation: str, at: int) -> None:
    """V-LOCK-42 / V-LOCK-45: the lock threshold is 42 or 45 instead of 46."""
    g = game(rules_with(preset, variation), 3, dealer=2, hands=[], scores=[at, at - 1, 50])
    assert g.locked == [True, False, True]
    assert g.to_act == 1  # seat 0 is skipped
    assert events_of(g, "exchange") == [
        {"type": "exchange", "seat": 0, "round": 1, "discarded": 0, "drawn": 0, "locked": True}]


# ------------------------------------------------------------------------------ V-LOCK-6
@pytest.mark.parametrize("preset", TWO)
def test_v_lock_6_six_cards_discard_one(preset: str) -> None:
    """V-LOCK-6: a locked player is dealt six cards and discards one; no other exchange."""
    rules = rules_with(preset, "V-LOCK-6")
    lock = rules.lock_at
    assert lock is not None
    g = game(rules, 3, dealer=2, hands=["Ac Ad Kc Kd Qh 2s"], scores=[lock, 0, 0])
    assert len(g.hands[0]) == 6 and g.stock_count == 52 - 16
    legal = [str(a) for a in g.legal_actions()]
    assert g.to_act == 0 and len(legal) == 6 and all(a.count(" ") == 1 for a in legal)
    assert_illegal(g, "keep", "discard exactly one", "V-LOCK-6")
    assert_illegal(g, "discard Ac Ad", "discard exactly one")
    run(g, ["0: discard Qh"])
    assert len(g.hands[0]) == 5 and g.discard_count == 1
    # the count is public, the card private
    assert "Qh" not in view_text(g, 1) and "Qh" in view_text(g, 0)
    assert jview(g, 1)["exchanges"] == [[1, 0, 0]]
    keep_all(g)
    run(g, ["0: announce two pair", "1: pass", "2: pass"])
    assert g.scores[0] == lock + 2
    assert g.to_act == 1  # later exchange rounds skip the locked player
    assert events_of(g, "exchange")[-1]["seat"] == 0
    assert events_of(g, "exchange")[-1]["locked"] is True


def test_v_lock_6_is_on_in_wikipedia_42() -> None:
    """V-LOCK-6: the wikipedia-42 preset locks at 42 with six cards dealt."""
    rules = Rules.preset("wikipedia-42")
    assert rules.lock_six and rules.lock_at == 42
    g = game(rules, 2, dealer=1, hands=[], scores=[42, 41])
    assert [len(h) for h in g.hands] == [6, 5]


# ------------------------------------------------------------------------------ V-CHI-REQ3
@pytest.mark.parametrize("preset", TWO)
def test_v_chi_req3_reaching_52_without_a_made_chicago_resets(preset: str) -> None:
    """V-CHI-REQ3: in a three-player game, 52 without a made Chicago resets to zero."""
    rules = rules_with(preset, "V-CHI-REQ3", lock_at=None)
    g = game(rules, 3, dealer=2, hands=["As Ad Kc 2h 3s"], scores=[50, 10, 10])
    keep_all(g)
    run(g, ["0: announce pair", "1: pass", "2: pass"])
    assert g.scores[0] == 51
    if preset == "pagat":
        keep_all(g)
        run(g, ["0: announce pair", "1: pass", "2: pass"])
        assert g.scores[0] == 0  # reached 52: reset at once
        reset = [e for e in events_of(g, "score") if "V-CHI-REQ3" in e["reason"]]
        assert reset and reset[0]["total"] == 0
    else:  # the last trick takes seat 0 to 56: reset at once; the showdown pair adds 1
        advance_to(g, "play")
        play_out(g)
        reset = [e.data for e in g.events if "V-CHI-REQ3" in e.data.get("reason", "")]
        assert reset and reset[0]["points"] == -56 and reset[0]["total"] == 0
        assert g.scores[0] == 1 and not g.is_over


@pytest.mark.parametrize("preset", TWO)
def test_v_chi_req3_made_chicago_may_win(preset: str) -> None:
    """V-CHI-REQ3: a player who made a Chicago may win."""
    rules = rules_with(preset, "V-CHI-REQ3", lock_at=None)
    g = game(rules, 3, dealer=2, hands=["As Ah Ks Qs Js", "2c 3d 4h 5c 7d", "8c 9d 3h 6c 7c"],
             scores=[40, 10, 10])
    chicago_phase(g)
    run(g, ["0: chicago"])
    play_out(g)
    assert g.is_over and g.winners == [0] and g.scores[0] >= 52


@pytest.mark.parametrize("players", [2, 4])
def test_v_chi_req3_is_a_three_player_rule(players: int) -> None:
    """V-CHI-REQ3: "in a three-player game" (P): at other table sizes the requirement is not
    in force unless chicago_made_any_size; then it resets there too."""
    hands = ["As Ad Kc 2h 3s"]
    for any_size in (False, True):
        rules = rules_with("pagat", "V-CHI-REQ3", lock_at=None, chicago_made_any_size=any_size)
        g = game(rules, players, dealer=players - 1, hands=hands, scores=[51] + [0] * (
            players - 1))
        keep_all(g)
        run(g, ["0: announce pair"] + ["pass"] * (players - 1))
        assert g.scores[0] == (0 if any_size else 52)
    rules = rules_with("pagat", "V-CHI-REQ3", lock_at=None)
    g = game(rules, 3, dealer=2, hands=hands, scores=[51, 0, 0])
    keep_all(g)
    run(g, ["0: announce pair", "1: pass", "2: pass"])
    assert g.scores[0] == 0  # three players: in force by default


# ------------------------------------------------------------------------------ V-CHI-DECLARED
@pytest.mark.parametrize("preset", TWO)
def test_v_chi_declared_no_win_without_a_declaration(preset: str) -> None:
    """V-CHI-DECLARED: reaching 52 without ever declaring Chicago does not end the game."""
    rules = rules_with(preset, "V-CHI-DECLARED", lock_at=None)
    g = game(rules, 2, dealer=1, hands=["As Ad Kc 2h 3s", "Kh 4c 5d 6h 7c"], scores=[50, 10])
    advance_to(g, "play")
    play_out(g)
    assert g.scores[0] >= 52 and not g.is_over and g.deal_number == 2


@pytest.mark.parametrize("preset", TWO)
def test_v_chi_declared_a_lost_chicago_counts(preset: str) -> None:
    """V-CHI-DECLARED: a declared Chicago counts even when it was lost."""
    rules = rules_with(preset, "V-CHI-DECLARED", lock_at=None, target=30)
    g = game(rules, 2, dealer=1, hands=["2h As Ks Qs Js", "3h 4d 5c 6d 8c"], scores=[50, 10])
    chicago_phase(g)
    run(g, ["0: chicago", "0: play 2h", "1: play 3h"])
    assert g.scores[0] == 35 and g.is_over and g.winners == [0]


# ------------------------------------------------------------------------------ V-CHI-BREAKER
@pytest.mark.parametrize("preset", TWO)
def test_v_chi_breaker_scores_8(preset: str) -> None:
    """V-CHI-BREAKER: the player who breaks a Chicago scores 8; no showdown."""
    g = game(rules_with(preset, "V-CHI-BREAKER"), 2, dealer=1,
             hands=["2h As Ks Qs Js", "3h 4d 5c 6d 8c"], scores=[20, 4])
    chicago_phase(g)
    run(g, ["0: chicago", "0: play 2h", "1: play 3h"])
    assert g.scores == [5, 12] and g.deal_number == 2
    deal1 = [e.data["type"] for e in g.events[: g._deal_start_event]]
    assert "showdown" not in deal1


def test_chicago_variations_switch_the_call_on_for_denexa() -> None:
    """V-CHI-BREAKER, V-NEG, V-DEUCE (and V-CHI-13, V-CHI-REQ3, V-CHI-DECLARED) applied to
    denexa, which has no Chicago call, switch the call on: none of them is a no-op."""
    for vid in ("V-CHI-BREAKER", "V-NEG", "V-DEUCE", "V-CHI-13", "V-CHI-REQ3",
                "V-CHI-DECLARED"):
        assert rules_with("denexa", vid).chicago_enabled, vid
    g = game(rules_with("denexa", "V-CHI-BREAKER"), 2, dealer=1,
             hands=["2h As Ks Qs Js", "3h 4d 5c 6d 8c"], scores=[20, 4])
    chicago_phase(g)
    run(g, ["0: chicago", "0: play 2h", "1: play 3h"])
    assert g.scores == [5, 12]
    g = game(rules_with("denexa", "V-DEUCE"), 2, dealer=1,
             hands=["As Ks Qs Js 2h", "3c 4d 5c 6d 8c"], scores=[20, 0])
    chicago_phase(g)
    run(g, ["0: chicago", "0: play As", "1: play 3c", "0: play Ks", "1: play 4d",
            "0: play Qs", "1: play 5c", "0: play Js", "1: play 6d", "0: play 2h", "1: play 8c"])
    assert next(e.data for e in g.events if e.data["type"] == "score")["points"] == 30


# ------------------------------------------------------------------------------ V-CHI-13
@pytest.mark.parametrize("preset", TWO)
def test_v_chi_13_worth_13_needs_13_declarer_leads(preset: str) -> None:
    """V-CHI-13: Chicago is worth 13, needs 13 points, and the declarer leads."""
    rules = rules_with(preset, "V-CHI-13")
    g = game(rules, 3, dealer=2, hands=["2c 3d 4h 5c 7d", "As Ah Ks Qs Js", "8c 9d 3h 6c 7c"],
             scores=[12, 13, 40])
    chicago_phase(g)
    assert g.to_act == 1  # seat 0 (12) is not eligible
    run(g, ["1: chicago"])
    assert g.to_act == 1  # the declarer leads
    play_out(g)
    chicago = [e.data for e in g.events if e.data["type"] == "score"]
    assert chicago[0] == {"type": "score", "seat": 1, "points": 13, "reason": "Chicago",
                          "total": 26}


@pytest.mark.parametrize("preset", TWO)
def test_v_chi_13_lost_costs_13(preset: str) -> None:
    """V-CHI-13: a failed Chicago costs 13."""
    g = game(rules_with(preset, "V-CHI-13"), 2, dealer=1,
             hands=["2h As Ks Qs Js", "3h 4d 5c 6d 8c"], scores=[20, 0])
    chicago_phase(g)
    run(g, ["0: chicago", "0: play 2h", "1: play 3h"])
    assert g.scores[0] == 7


# ------------------------------------------------------------------------------ V-NEG
@pytest.mark.parametrize("preset", ["pagat", "denexa"])
def test_v_neg_negative_scores_and_any_score_may_declare(preset: str) -> None:
    """V-NEG: scores may go negative; Chicago at any score; negatives pay double."""
    rules = rules_with(preset, "V-NEG")
    assert rules.negative_scores and rules.chicago_min_score is None
    assert settlement([52, -4], rules) == [112.0, -112.0]
    assert rules.chicago_enabled  # on denexa V-NEG switches the Chicago call on
    g = game(rules, 2, dealer=1, hands=["2h As Ks Qs Js", "3h 4d 5c 6d 8c"], scores=[0, 0])
    chicago_phase(g)
    assert g.to_act == 0  # at 0 points
    run(g, ["0: chicago", "0: play 2h", "1: play 3h"])
    assert g.scores == [-15, 0]


def test_v_neg_denexa_game_settles_double() -> None:
    """V-NEG: a finished game on denexa with a negative score settles it double."""
    rules = rules_with("denexa", "V-NEG", target=10)
    g = game(rules, 2, dealer=1, hands=["As Ad Kc 2h 3s", "Kh 4c 5d 6h 7c"], scores=[8, -3])
    advance_to(g, "play")
    play_out(g)
    assert g.is_over and g.scores[1] == -3
    assert g.settlement()[1] == -2 * (g.scores[0] + 3)


# ------------------------------------------------------------------------------ V-ONE-UP
@pytest.mark.parametrize("preset", ["pagat", "denexa"])
def test_v_one_up_accept(preset: str) -> None:
    """V-ONE-UP: exchanging one card, the new card comes face up; the player may take it."""
    g = game(rules_with(preset, "V-ONE-UP"), 2, dealer=1, hands=["2c 5d 9h Js Kc"],
             stock="Ah 3s")
    assert "one up 2c" in [str(a) for a in g.legal_actions()]
    run(g, ["0: one up 2c"])
    assert g.phase.value == "one up" and g.to_act == 0
    assert [str(a) for a in g.legal_actions()] == ["accept", "reject"]
    for seat in (None, 0, 1):
        assert jview(g, seat)["one_up"] == {"seat": 0, "card": "Ah"}  # everyone sees it
        assert jview(g, seat)["discard_pile"] == 1  # the thrown 2c, while the answer waits
    run(g, ["0: accept"])
    assert "Ah" in map(str, g.hands[0]) and "2c" not in map(str, g.hands[0])
    assert g.to_act == 1 and g.discard_count == 1
    assert "2c" not in view_text(g, 1) and "Ah" in view_text(g, 1)


@pytest.mark.parametrize("preset", ["pagat", "wikipedia"])
def test_v_one_up_reject(preset: str) -> None:
    """V-ONE-UP: a rejected card goes to the discards; the next card comes face down."""
    g = game(rules_with(preset, "V-ONE-UP"), 2, dealer=1, hands=["2c 5d 9h Js Kc"],
             stock="Ah 3s")
    run(g, ["0: one up 2c", "0: reject"])
    assert "3s" in map(str, g.hands[0]) and "Ah" not in map(str, g.hands[0])
    assert g.discard_count == 2
    assert "3s" not in view_text(g, 1) and "3s" not in view_text(g, None)
    assert "3s" in view_text(g, 0)
    choice = events_of(g, "one_up_choice")
    assert choice == [{"type": "one_up_choice", "seat": 0, "card": "Ah", "accepted": False}]


@pytest.mark.parametrize("preset", ["pagat", "denexa"])
def test_v_one_up_off_refused(preset: str) -> None:
    """V-ONE-UP: without the variation one up is neither offered nor accepted."""
    g = game(preset, 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    assert not any(a.kind.value == "one up" for a in g.legal_actions())
    assert_illegal(g, "one up 2c", "V-ONE-UP")


# ------------------------------------------------------------------------------ V-REDEAL-LOW
@pytest.mark.parametrize("preset", TWO)
def test_v_redeal_low(preset: str) -> None:
    """V-REDEAL-LOW: five cards all below ten may be exchanged once, before the exchanges."""
    g = game(rules_with(preset, "V-REDEAL-LOW"), 2, dealer=1,
             hands=["2c 3d 5h 7s 9c", "2d 4c 6s 8d Tc"], stock="Ah Kh Qh Jh 9h")
    assert g.phase.value == "redeal" and g.to_act == 0
    assert [str(a) for a in g.legal_actions()] == ["keep", "redeal"]
    run(g, ["0: redeal"])
    assert sorted(map(str, g.hands[0])) == sorted(["Ah", "Kh", "Qh", "Jh", "9h"])
    assert g.to_act == 1 and [str(a) for a in g.legal_actions()] == ["keep"]  # holds a ten
    assert_illegal(g, "redeal", "V-REDEAL-LOW")
    run(g, ["1: keep"])
    assert g.phase.value == "exchange" and g.discard_count == 5
    assert events_of(g, "redeal") == [
        {"type": "redeal", "seat": 0, "redealt": True},
        {"type": "redeal", "seat": 1, "redealt": False}]
    assert "2c" not in view_text(g, 1) and "Ah" not in view_text(g, 1)


@pytest.mark.parametrize("preset", TWO)
def test_v_redeal_low_ten_and_below(preset: str) -> None:
    """V-REDEAL-LOW: the ten-and-below option lets a ten count as low."""
    rules = rules_with(preset, "V-REDEAL-LOW", redeal_low="ten-and-below")
    g = game(rules, 2, dealer=1, hands=["2c 3d 5h 7s Tc", "2d 4c 6s 8d Jc"])
    assert [str(a) for a in g.legal_actions()] == ["keep", "redeal"]
    run(g, ["0: keep"])
    assert [str(a) for a in g.legal_actions()] == ["keep"]


# ------------------------------------------------------------------------------ V-DEUCE
@pytest.mark.parametrize("preset", TWO)
def test_v_deuce_last_trick_with_a_two(preset: str) -> None:
    """V-DEUCE: the last trick won with a 2 scores 10."""
    g = game(rules_with(preset, "V-DEUCE"), 2, dealer=1,
             hands=["As Ad Kc 2h 3s", "Kh 4c 5d 6h 7c"])
    advance_to(g, "play")
    run(g, ["0: play As", "1: play Kh", "0: play Ad", "1: play 5d", "0: play Kc",
            "1: play 4c", "0: play 3s", "1: play 6h", "0: play 2h", "1: play 7c"])
    score = next(e.data for e in g.events if e.data["type"] == "score")
    assert score["reason"] == "last trick" and score["points"] == 10


@pytest.mark.parametrize("preset", TWO)
def test_v_deuce_chicago_with_a_two(preset: str) -> None:
    """V-DEUCE: a Chicago whose last trick is won with a 2 scores 30."""
    g = game(rules_with(preset, "V-DEUCE"), 2, dealer=1,
             hands=["As Ks Qs Js 2h", "3c 4d 5c 6d 8c"], scores=[20, 0])
    chicago_phase(g)
    run(g, ["0: chicago", "0: play As", "1: play 3c", "0: play Ks", "1: play 4d",
            "0: play Qs", "1: play 5c", "0: play Js", "1: play 6d", "0: play 2h", "1: play 8c"])
    score = next(e.data for e in g.events if e.data["type"] == "score")
    assert score["reason"] == "Chicago" and score["points"] == 30


@pytest.mark.parametrize(("points", "expected"), [(None, 30), (26, 26)])
def test_v_deuce_chicago_points_under_v_chi_13(points: int | None, expected: int) -> None:
    """V-DEUCE with V-CHI-13: a Chicago ended with a 2 scores deuce_chicago_points, 30 by
    default as RULES.md says (not twice the 13); 26 if the table doubles the 13."""
    overrides = {} if points is None else {"deuce_chicago_points": points}
    rules = rules_with("pagat", "V-CHI-13", "V-DEUCE", **overrides)
    g = game(rules, 2, dealer=1, hands=["As Ks Qs Js 2h", "3c 4d 5c 6d 8c"], scores=[20, 0])
    chicago_phase(g)
    run(g, ["0: chicago", "0: play As", "1: play 3c", "0: play Ks", "1: play 4d",
            "0: play Qs", "1: play 5c", "0: play Js", "1: play 6d", "0: play 2h", "1: play 8c"])
    score = next(e.data for e in g.events if e.data["type"] == "score")
    assert score["reason"] == "Chicago" and score["points"] == expected


def test_v_deuce_off_by_default() -> None:
    """V-DEUCE: off by default: a 2 wins the usual 5."""
    g = game("pagat", 2, dealer=1, hands=["As Ad Kc 2h 3s", "Kh 4c 5d 6h 7c"])
    advance_to(g, "play")
    run(g, ["0: play As", "1: play Kh", "0: play Ad", "1: play 5d", "0: play Kc",
            "1: play 4c", "0: play 3s", "1: play 6h", "0: play 2h", "1: play 7c"])
    assert next(e.data for e in g.events if e.data["type"] == "score")["points"] == 5


# ------------------------------------------------------------------------------ V-WIN-AGAIN
@pytest.mark.parametrize("preset", TWO)
def test_v_win_again_must_win_a_later_last_trick(preset: str) -> None:
    """V-WIN-AGAIN: a player at 52 must win a last trick in a later deal to take the game."""
    rules = rules_with(preset, "V-WIN-AGAIN", lock_at=None)
    # reaching 52 in this deal and winning its last trick is not enough
    g = game(rules, 2, dealer=1, hands=["As Ad Kc 2h 3s", "Kh 4c 5d 6h 7c"], scores=[50, 10])
    advance_to(g, "play")
    play_out(g)
    assert g.scores[0] >= 52 and not g.is_over
    # at 52 from the start, but somebody else takes the last trick: the game goes on
    g = game(rules, 2, dealer=1, hands=["2c 3d 4h 5c 7d", "As Ad Kc Qh Js"], scores=[52, 10])
    advance_to(g, "play")
    play_out(g)
    assert not g.is_over and g.deal_number == 2
    # at 52 from the start and winning the last trick: the game is won
    g = game(rules, 2, dealer=1, hands=["As Ad Kc 2h 3s", "Kh 4c 5d 6h 7c"], scores=[52, 60])
    advance_to(g, "play")
    play_out(g)
    assert g.is_over and g.winners == [0]
    assert g.settlement()[1] == 0.0  # a player with more points than the winner pays nothing


# ------------------------------------------------------------------------------ V-LARGE
@pytest.mark.parametrize("preset", TWO)
@pytest.mark.parametrize("players", [5, 6])
def test_v_large_five_or_six_players(preset: str, players: int) -> None:
    """V-LARGE: 5 or 6 players, with reshuffled discards when the stock runs out (R-EX-2)."""
    rules = rules_with(preset, "V-LARGE")
    g = Game(rules, players, seed=2)
    assert g.stock_count == 52 - 5 * players
    while not events_of(g, "reshuffle"):  # everyone throws five until the stock runs out
        if g.phase.value == "exchange":
            g.apply(max(g.legal_actions(), key=lambda a: len(a.cards)))
        else:
            g.apply("pass")
    assert g.round == (0 if players == 6 else 1)
    cards = [c for h in g.hands for c in h] + list(g._stock) + list(g._discards)
    assert sorted(cards) == list(DECK)


def test_v_large_limit_on_discards() -> None:
    """V-LARGE: optionally a limit on cards discarded per round (max_discard)."""
    rules = rules_with("pagat", "V-LARGE", max_discard=3)
    g = Game(rules, 6, seed=2)
    assert max(len(a.cards) for a in g.legal_actions()) == 3


@pytest.mark.parametrize("preset", TWO)
def test_v_sf_win_beats_v_chi_req3(preset: str) -> None:
    """V-SF-WIN with V-CHI-REQ3: the instant win stands without a made Chicago.

    (Engine choice: "wins the game at once" is the stronger rule; the reset of V-CHI-REQ3
    is not applied to the winning straight flush.)
    """
    rules = rules_with(preset, "V-SF-WIN", "V-CHI-REQ3", lock_at=None)
    g = game(rules, 3, dealer=2, hands=["5h 6h 7h 8h 9h"], scores=[45, 0, 0])
    keep_all(g)
    run(g, ["0: announce straight flush", "1: pass", "2: pass"])
    assert g.is_over and g.winners == [0] and g.scores == [53, 0, 0]
