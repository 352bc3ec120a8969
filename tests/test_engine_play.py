"""Rules engine: the Chicago call, trick play, final showdown, game end and settlement.

R-CHI-1 … R-CHI-6, R-TRICK-1 … R-TRICK-5, R-FIN-1, R-FIN-2, R-END-1 … R-END-3.
"""

from __future__ import annotations

import json
import random

import pytest

from chicago import Game, Rules, settlement
from engine_helpers import (
    advance_to,
    assert_illegal,
    events_of,
    game,
    jview,
    keep_all,
    play_random,
    run,
)

# Seat 0 (left of dealer 1) can win every trick: a made Chicago if declared.
STRONG = "As Ah Ks Qs Js"  # a pair of aces for the showdown
WEAK = "2c 3d 4h 5c 7d"


def play_out(g: Game) -> Game:
    """Play the lowest legal card until the deal (or game) ends."""
    deal = g.deal_number
    while g.deal_number == deal and not g.is_over:
        g.apply(g.legal_actions()[0])
    return g


def _chicago_game(rules: Rules | str = "pagat", scores: list[int] | None = None,
                  hands: list[str] | None = None) -> Game:
    g = game(rules, 2, dealer=1, hands=hands or [STRONG, WEAK], scores=scores or [15, 0])
    return advance_to(g, "chicago")


# ------------------------------------------------------------------------------ R-CHI-1
def test_r_chi_1_call_after_last_exchange_first_declarer_only() -> None:
    """R-CHI-1: after the last exchange, from the dealer's left; the first declarer only."""
    g = game("pagat", 3, dealer=2, hands=[], scores=[20, 20, 20])
    advance_to(g, "chicago")
    assert g.round == 2  # after the third (last) exchange round
    assert g.to_act == 0 and [str(a) for a in g.legal_actions()] == ["no chicago", "chicago"]
    run(g, ["0: no chicago", "1: chicago"])
    assert g.phase.value == "play" and g.declarer == 1  # seat 2 is not asked any more
    assert [(e["seat"], e["declared"]) for e in events_of(g, "chicago")] == [(0, False),
                                                                           (1, True)]
    assert all(jview(g, s)["chicago"] == 1 for s in (None, 0, 1, 2))


def test_r_chi_1_nobody_declares() -> None:
    """R-CHI-1: declaring is optional: all may decline, then trick play starts."""
    g = game("pagat", 3, dealer=2, hands=[], scores=[20, 20, 20])
    advance_to(g, "chicago")
    run(g, ["0: no chicago", "1: no chicago", "2: no chicago"])
    assert g.phase.value == "play" and g.declarer is None


def test_r_chi_1_no_call_in_denexa() -> None:
    """R-CHI-1: denexa has no Chicago call (chicago_enabled off): straight to the tricks."""
    g = game("denexa", 2, dealer=1, hands=[], scores=[30, 30])
    advance_to(g, "play")
    assert events_of(g, "chicago") == []


# ------------------------------------------------------------------------------ R-CHI-2
def test_r_chi_2_needs_15_points() -> None:
    """R-CHI-2: a player with fewer than 15 points is not asked."""
    g = game("pagat", 2, dealer=1, hands=[], scores=[14, 15])
    advance_to(g, "chicago")
    assert g.to_act == 1
    g = game("pagat", 2, dealer=1, hands=[], scores=[14, 14])
    advance_to(g, "play")
    assert events_of(g, "chicago") == []


def test_r_chi_2_points_of_the_same_deal_count() -> None:
    """R-CHI-2: points scored earlier in the same deal count for the call."""
    g = game("pagat", 2, dealer=1, hands=["9c 9d Kh 7s 2c"], scores=[14, 0])
    keep_all(g)
    run(g, ["0: announce pair", "1: pass"])
    assert g.scores == [15, 0]
    advance_to(g, "chicago")
    assert g.to_act == 0


# ------------------------------------------------------------------------------ R-CHI-3
def test_r_chi_3_made_chicago_scores_15_not_the_last_trick() -> None:
    """R-CHI-3: all five tricks: +15, no 5 for the last trick; the showdown still scores."""
    g = _chicago_game()
    run(g, ["0: chicago"])
    play_out(g)
    deal1 = [e.data for e in g.events if e.data["type"] == "score"]
    assert [(e["seat"], e["reason"], e["points"]) for e in deal1] == [
        (0, "Chicago", 15), (0, "final showdown", 1)]
    assert g.scores == [31, 0]
    made = [e.data for e in g.events if e.data["type"] == "chicago_result"]
    assert made == [{"type": "chicago_result", "seat": 0, "made": True, "broken_by": None}]


def test_r_chi_3_final_showdown_option() -> None:
    """R-CHI-3: chicago_final_showdown off: a made Chicago ends the deal without showdown."""
    g = _chicago_game(Rules.preset("pagat", chicago_final_showdown=False))
    run(g, ["0: chicago"])
    play_out(g)
    assert g.scores == [30, 0]
    assert not [e for e in g.events if e.data["type"] == "showdown"]


# ------------------------------------------------------------------------------ R-CHI-4
def test_r_chi_4_broken_chicago_ends_the_deal_at_once() -> None:
    """R-CHI-4: another player wins a trick: -15, no last trick, no showdown, deal over."""
    g = _chicago_game(scores=[20, 0], hands=["As Ks Qs Js 2h", "3h 4d 5c 6d 8c"])
    run(g, ["0: chicago", "0: play 2h", "1: play 3h"])
    deal1 = g.events[: g._deal_start_event]
    kinds = [e.data["type"] for e in deal1]
    assert "showdown" not in kinds and kinds.count("trick") == 1
    assert [e.data for e in deal1 if e.data["type"] == "score"] == [
        {"type": "score", "seat": 0, "points": -15, "reason": "Chicago failed", "total": 5}]
    assert g.deal_number == 2 and g.scores == [5, 0]
    # the unplayed cards stay hidden from the other seat and spectators
    def deal1_text(seat: int | None) -> str:
        return json.dumps([e.to_json() for e in deal1 if e.visible_to(seat)])

    for card in ("As", "Ks", "Qs", "Js"):
        assert card not in deal1_text(1) and card not in deal1_text(None)
    for card in ("4d", "5c", "6d", "8c"):
        assert card not in deal1_text(0)


def test_r_chi_4_broken_at_the_last_trick() -> None:
    """R-CHI-4: a Chicago broken at the fifth trick scores no last trick either."""
    g = _chicago_game(scores=[20, 0], hands=["As Ks Qs Js 2h", "3h 4d 5c 6d 8c"])
    run(g, ["0: chicago", "0: play As", "1: play 4d", "0: play Ks", "1: play 5c",
            "0: play Qs", "1: play 6d", "0: play Js", "1: play 8c", "0: play 2h", "1: play 3h"])
    assert g.scores == [5, 0] and g.deal_number == 2


# ------------------------------------------------------------------------------ R-CHI-5
def test_r_chi_5_scores_never_below_zero() -> None:
    """R-CHI-5: a loss is cut at zero (negative_scores off)."""
    rules = Rules.preset("pagat", chicago_min_score=None)
    g = _chicago_game(rules, scores=[3, 0], hands=["2h As Ks Qs Js", "3h 4d 5c 6d 8c"])
    run(g, ["0: chicago", "0: play 2h", "1: play 3h"])
    assert g.scores == [0, 0]
    score = next(e.data for e in g.events if e.data["type"] == "score")
    assert score["points"] == -15 and score["total"] == 0


def test_r_chi_5_negative_with_v_neg() -> None:
    """R-CHI-5 / V-NEG: with negative scores on, the loss goes below zero."""
    g = _chicago_game("wikipedia", scores=[3, 0], hands=["2h As Ks Qs Js", "3h 4d 5c 6d 8c"])
    run(g, ["0: chicago", "0: play 2h", "1: play 3h"])
    assert g.scores == [-12, 0]


# ------------------------------------------------------------------------------ R-CHI-6
def test_r_chi_6_left_of_dealer_leads_in_pagat() -> None:
    """R-CHI-6: in P the player left of the dealer leads even when another declared."""
    g = game("pagat", 3, dealer=2, hands=[], scores=[20, 20, 20])
    advance_to(g, "chicago")
    run(g, ["0: no chicago", "1: chicago"])
    assert g.to_act == 0


def test_r_chi_6_declarer_leads_option() -> None:
    """R-CHI-6: chicago_caller_leads (V-CHI-13, house rules): the declarer leads."""
    g = game(Rules.preset("pagat", chicago_caller_leads=True), 3, dealer=2, hands=[],
             scores=[20, 20, 20])
    advance_to(g, "chicago")
    run(g, ["0: no chicago", "1: chicago"])
    assert g.to_act == 1


# ------------------------------------------------------------------------------ R-TRICK
def test_r_trick_1_left_of_dealer_leads_one_card_each() -> None:
    """R-TRICK-1: the player left of the dealer leads; each plays one card in turn."""
    g = game("pagat", 4, dealer=0, hands=[])
    advance_to(g, "play")
    order = []
    for _ in range(4):
        order.append(g.to_act)
        g.apply(g.legal_actions()[0])
    assert order == [1, 2, 3, 0]
    assert [len(h) for h in g.hands] == [4, 4, 4, 4]


def test_r_trick_2_follow_suit() -> None:
    """R-TRICK-2: a player must follow suit if able; otherwise any card."""
    g = game("pagat", 2, dealer=1, hands=["9h 2c 3c 4c 6d", "Kh 4h As Ad 7c"])
    advance_to(g, "play")
    run(g, ["0: play 9h"])
    assert [str(a) for a in g.legal_actions()] == ["play 4h", "play Kh"]
    assert_illegal(g, "play As", "follow suit", "4h Kh")
    run(g, ["1: play 4h", "0: play 6d"])  # 9h won; seat 0 leads the diamond
    assert [str(a) for a in g.legal_actions()] == ["play Ad"]
    run(g, ["1: play Ad", "1: play As"])
    # seat 0 has no spade: any card
    assert sorted(str(a) for a in g.legal_actions()) == ["play 2c", "play 3c", "play 4c"]


def test_r_trick_3_highest_of_the_suit_led_wins_and_leads() -> None:
    """R-TRICK-3: the highest card of the suit led wins (no trumps); the winner leads next."""
    g = game("pagat", 3, dealer=2, hands=["5h 2c 3c 4c 6d", "Kh 8s 9s Ts Js", "As 3h 7c 8c 9c"])
    advance_to(g, "play")
    run(g, ["0: play 5h", "1: play Kh", "2: play 3h"])
    assert events_of(g, "trick")[-1] == {"type": "trick", "trick": 1, "winner": 1, "card": "Kh"}
    assert g.to_act == 1
    run(g, ["1: play 8s", "2: play As", "0: play 2c"])
    assert events_of(g, "trick")[-1]["winner"] == 2 and g.to_act == 2
    run(g, ["2: play 7c", "0: play 3c", "1: play 9s"])  # 9s is off suit: 7c wins
    assert events_of(g, "trick")[-1]["winner"] == 2


def test_r_trick_4_only_the_last_trick_counts() -> None:
    """R-TRICK-4: five tricks; only the last scores, 5 points."""
    g = game("pagat", 2, dealer=1, hands=["As Ad Kc 2h 3s", "Kh 4c 5d 6h 7c"])
    advance_to(g, "play")
    run(g, ["0: play As", "1: play Kh", "0: play Ad", "1: play 5d", "0: play Kc",
            "1: play 4c", "0: play 3s", "1: play 6h", "0: play 2h"])
    assert g.scores == [0, 0] and len(events_of(g, "trick")) == 4
    run(g, ["1: play 7c"])  # seat 1 wins trick 5 with 7c (2h led, no heart: 2h wins!)
    last = [e.data for e in g.events if e.data["type"] == "trick"][-1]
    assert last["trick"] == 5 and last["winner"] == 0
    scores = [e.data for e in g.events if e.data["type"] == "score"]
    assert scores[0] == {"type": "score", "seat": 0, "points": 5, "reason": "last trick",
                         "total": 5}


def test_r_trick_5_played_cards_stay_face_up() -> None:
    """R-TRICK-5: played cards are public in front of their players; all whole at the end."""
    g = game("pagat", 2, dealer=1, hands=["As Ad Kc 2h 3s", "Kh 4c 5d 6h 7c"])
    advance_to(g, "play")
    run(g, ["0: play As", "1: play Kh", "0: play Ad"])
    for seat in (None, 0, 1):
        assert jview(g, seat)["played"] == [["As", "Ad"], ["Kh"]]
        assert jview(g, seat)["trick"] == [{"seat": 0, "card": "Ad"}]
    play_out(g)
    showdown = next(e.data for e in g.events if e.data["type"] == "showdown")
    assert sorted(showdown["hands"]["0"]) == sorted(["As", "Ad", "Kc", "2h", "3s"])
    assert sorted(showdown["hands"]["1"]) == sorted(["Kh", "4c", "5d", "6h", "7c"])


# ------------------------------------------------------------------------------ R-FIN
def test_r_fin_1_best_hand_scores_at_the_showdown() -> None:
    """R-FIN-1: after the last trick the best poker hand scores; nobody announces."""
    g = game("pagat", 2, dealer=1, hands=["As Ad Kc 2h 3s", "Kh Kd 5d 6h 7c"])
    advance_to(g, "play")
    play_out(g)
    showdown = next(e.data for e in g.events if e.data["type"] == "showdown")
    assert showdown["winner"] == 0 and showdown["category"] == "PAIR"
    assert showdown["points"] == 1


def test_r_fin_1_exact_tie_nobody_scores() -> None:
    """R-FIN-1: exactly equal best hands at the showdown: nobody scores."""
    g = game("pagat", 2, dealer=1, hands=["7c 7d Th 6s 2c", "7h 7s Td 6c 2d"])
    advance_to(g, "play")
    play_out(g)
    showdown = next(e.data for e in g.events if e.data["type"] == "showdown")
    assert showdown["winner"] is None and showdown["points"] == 0
    assert [e.data["reason"] for e in g.events if e.data["type"] == "score"] == ["last trick"]


def test_r_fin_2_a_deal_scores_rounds_showdown_and_last_trick() -> None:
    """R-FIN-2: best hand in each scoring round, once at the end, plus the last trick."""
    g = game("pagat", 2, dealer=1, hands=["As Ad Kc 2h 3s", "Kh 4c 5d 6h 7c"])
    for _ in range(2):
        keep_all(g)
        run(g, ["0: announce pair", "1: pass"])
    advance_to(g, "play")
    play_out(g)
    reasons = [(e.data["seat"], e.data["reason"]) for e in g.events if e.data["type"] == "score"]
    assert reasons == [(0, "scoring round 1"), (0, "scoring round 2"), (0, "last trick"),
                       (0, "final showdown")]
    assert g.scores == [8, 0]
    assert g.deal_history[0].points == (8, 0)


# ------------------------------------------------------------------------------ R-END
def test_r_end_1_game_ends_after_the_deal_reaching_52() -> None:
    """R-END-1: reaching 52 in the middle of a deal ends the game only at the deal's end."""
    rules = Rules.preset("pagat", lock_at=None)
    g = game(rules, 2, dealer=1, hands=["As Ad Kc 2h 3s", "Kh 4c 5d 6h 7c"], scores=[51, 40])
    keep_all(g)
    run(g, ["0: announce pair", "1: pass"])
    assert g.scores[0] == 52 and not g.is_over and g.to_act is not None
    advance_to(g, "chicago")
    run(g, ["0: no chicago"])
    play_out(g)
    assert g.is_over and g.winners == [0] and g.to_act is None
    assert g.legal_actions() == []
    end = [e.data for e in g.events if e.data["type"] == "game_end"]
    assert end and end[0]["winners"] == [0] and end[0]["scores"] == g.scores
    assert_illegal(g, "keep", "game is over")


def test_r_end_1_most_points_wins() -> None:
    """R-END-1: when two are at 52 or more, the one with the most points wins."""
    rules = Rules.preset("pagat", lock_at=None)
    g = game(rules, 2, dealer=1, hands=["As Kd 9c 2h 3s", "Kh Ks 5d 6h 7c"], scores=[50, 51])
    keep_all(g)
    run(g, ["0: pass", "1: announce pair"])
    advance_to(g, "chicago")
    run(g, ["0: no chicago", "1: no chicago"])
    play_out(g)
    # seat 0: last trick 5 -> 55; seat 1: pair in round 1 and at the showdown -> 53
    assert g.scores == [55, 53] and g.winners == [0]


def test_r_end_2_settlement_examples() -> None:
    """R-END-2: A 53 B 45 C 53 D 47 -> 7, -8, 7, -6; with A 54: A receives 17."""
    rules = Rules.preset("pagat")
    assert settlement([53, 45, 53, 47], rules) == [7.0, -8.0, 7.0, -6.0]
    assert settlement([54, 45, 53, 47], rules) == [17.0, -9.0, -1.0, -7.0]
    assert settlement([53, 45, 53, 47], Rules.preset("pagat", stake=0.5)) == [
        3.5, -4.0, 3.5, -3.0]


def test_r_end_2_tied_winners_share_in_a_game() -> None:
    """R-END-2: a game ending with two players tied on top: both win and share."""
    rules = Rules.preset("pagat", target=20)
    g = game(rules, 3, dealer=2, hands=["As Kd Qh Jc 9s", "7c 7d 2h 4s 6h"], stock="8c Td",
             scores=[15, 19, 10])
    keep_all(g)
    run(g, ["0: pass", "1: announce pair", "2: pass"])
    assert g.scores == [15, 20, 10]
    run(g, ["0: keep", "1: discard 7c 7d", "2: keep"])
    advance_to(g, "chicago")
    run(g, ["0: no chicago", "1: no chicago"])
    play_out(g)
    assert g.scores == [20, 20, 10] and g.winners == [0, 1]
    assert g.settlement() == [5.0, 5.0, -10.0]
    assert jview(g, 2)["settlement"] == [5.0, 5.0, -10.0]


def test_r_end_3_negative_score_pays_double() -> None:
    """R-END-3: under V-NEG a player with a negative score pays double the difference."""
    neg = Rules.preset("pagat").with_variations("V-NEG")
    assert settlement([53, -5, 20, 10], neg) == [58 * 2 + 33 + 43, -116.0, -33.0, -43.0]
    # without V-NEG there are no negative scores to double
    assert settlement([53, 0, 20, 10], Rules.preset("pagat")) == [129.0, -53.0, -33.0, -43.0]


def test_r_end_3_in_a_game() -> None:
    """R-END-3: a wikipedia game that ends with a negative score settles it double."""
    rules = Rules.preset("wikipedia", target=20)
    g = game(rules, 2, dealer=1, hands=["2h As Ks Qs Jh", "3h 4d 5c 6d 8c"], scores=[16, -2])
    advance_to(g, "chicago")
    run(g, ["0: no chicago", "1: chicago", "0: play As", "1: play 4d"])
    assert g.scores == [16, -17] and g.deal_number == 2
    # play on until someone reaches 20
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    loser = 1 - g.winners[0]
    diff = g.scores[g.winners[0]] - g.scores[loser]
    factor = 2 if g.scores[loser] < 0 else 1
    assert g.settlement()[loser] == -diff * factor


@pytest.mark.parametrize("preset", ["pagat", "denexa", "wikipedia", "wikipedia-42"])
def test_r_end_1_every_preset_plays_to_the_end(preset: str) -> None:
    """R-END-1: every preset runs whole games to the end with settlement summing to zero."""
    g = play_random(Game(Rules.preset(preset), 3, seed=4), random.Random(4))
    assert g.winners and max(g.scores) >= 0
    assert abs(sum(g.settlement())) < 1e-9
