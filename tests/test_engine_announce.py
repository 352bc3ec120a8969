"""Rules engine: scoring rounds, announcements and the staged tie-break (R-ANN-1 … R-ANN-6)."""

from __future__ import annotations

import pytest

from chicago import Rules
from chicago.engine.events import Announce, Pass
from engine_helpers import assert_illegal, events_of, game, jview, keep_all, run, view_text

# The example of R-ANN-3: A, B and C announce one pair, D passes. A: nines, B: fives,
# C: nines; B drops out. A: king, C: king. A: seven, C: ten. C scores 1 point.
A_HAND = "9c 9d Kh 7s 2c"
B_HAND = "5c 5d Qs 8h 3c"
C_HAND = "9h 9s Kd Tc 4d"
D_HAND = "Ac Jd 6h 3s 2d"


def _abc_example(preset: str = "pagat") -> object:
    g = game(preset, 4, dealer=3, hands=[A_HAND, B_HAND, C_HAND, D_HAND])
    keep_all(g)
    run(g, ["0: announce pair", "1: announce pair", "2: announce pair", "3: pass"])
    return g


# ------------------------------------------------------------------------------ R-ANN-1
def test_r_ann_1_everyone_is_asked_in_turn() -> None:
    """R-ANN-1: the turn goes round once from the dealer's left; every player is asked."""
    g = game("pagat", 4, dealer=1, hands=["9c 9d 9h 7s 2c", "5c 5d Qs 8h 3c"])
    keep_all(g)
    assert g.to_act == 2
    run(g, ["2: pass", "3: pass", "0: announce three of a kind"])
    # seat 1 holds only a pair, below trips: it can only pass, but is still asked
    assert g.to_act == 1 and [str(a) for a in g.legal_actions()] == ["pass"]
    run(g, ["1: pass"])
    assert [(e.type, e.seat) for e in g.view(None).events
            if isinstance(e, Pass | Announce)] == [
        ("pass", 2), ("pass", 3), ("announce", 0), ("pass", 1)]
    assert g.phase.value == "exchange" and g.round == 1


def test_r_ann_1_exact_category_only() -> None:
    """R-ANN-1: two pairs are announced as two pairs, never as a pair."""
    g = game("pagat", 2, dealer=1, hands=["9c 9d Kh Ks 2c"])
    keep_all(g)
    assert [str(a) for a in g.legal_actions()] == ["pass", "announce two pair"]
    assert_illegal(g, "announce pair", "two pair", "R-ANN-1")
    assert_illegal(g, "announce three of a kind", "two pair")


def test_r_ann_1_equal_or_higher_only() -> None:
    """R-ANN-1: an equal category may be announced after another; a lower one may not."""
    g = game("pagat", 3, dealer=2, hands=["9c 9d Kh Ks 2c", "5c 5d Qs Qh 3c", "7c 7d 4h 8s Ac"])
    keep_all(g)
    run(g, ["0: announce two pair"])
    assert [str(a) for a in g.legal_actions()] == ["pass", "announce two pair"]  # equal: ok
    run(g, ["1: announce two pair"])
    assert [str(a) for a in g.legal_actions()] == ["pass"]
    assert_illegal(g, "announce pair", "two pair has been announced")


def test_r_ann_1_may_pass_whatever_is_held() -> None:
    """R-ANN-1: a player may pass with any hand."""
    g = game("pagat", 2, dealer=1, hands=["9c 9d 9h 9s 2c"])
    keep_all(g)
    run(g, ["0: pass", "1: pass"])
    assert g.scores == [0, 0]


# ------------------------------------------------------------------------------ R-ANN-2
def test_r_ann_2_false_claim_refused() -> None:
    """R-ANN-2: an announcement the hand does not contain is refused with a clear error."""
    g = game("pagat", 2, dealer=1, hands=["9c 9d Kh 7s 2c"])
    keep_all(g)
    err = assert_illegal(g, "announce flush", "your hand is pair", "R-ANN-2")
    assert err.seat == 0
    run(g, ["0: pass"])
    assert_illegal(g, "announce pair")  # seat 1 holds nothing


# ------------------------------------------------------------------------------ R-ANN-3
def test_r_ann_3_staged_tiebreak_example() -> None:
    """R-ANN-3: the A/B/C example: exactly the reveals needed, B stops after dropping out."""
    g = _abc_example()
    reveals = [(e["seat"], e["stage"], e["rank"]) for e in events_of(g, "reveal")]
    assert reveals == [
        (0, 1, "9"), (1, 1, "5"), (2, 1, "9"),  # A nines, B fives, C nines: B drops out
        (0, 2, "K"), (2, 2, "K"),  # A king, C king
        (0, 3, "7"), (2, 3, "T"),  # A seven, C ten: C wins
    ]
    assert not any(e["seat"] == 3 for e in events_of(g, "reveal"))  # D passed
    result = events_of(g, "round_result")[-1]
    assert result["winner"] == 2 and result["points"] == 1
    assert g.scores == [0, 0, 1, 0]
    # nobody reveals the last kicker (A's 2, C's 4): it was not needed
    assert max(stage for _, stage, _ in reveals) == 3


def test_r_ann_3_view_shows_the_reveals() -> None:
    """R-ANN-3 / R-ANN-5: every seat's view lists the same public reveal stages."""
    g = _abc_example()
    for seat in (None, 0, 1, 2, 3):
        assert len(jview(g, seat)["reveals"]) == 7


def test_r_ann_3_first_stage_decides() -> None:
    """R-ANN-3: when the first stage decides, no kicker is revealed at all."""
    g = game("pagat", 2, dealer=1, hands=["Ac Ad 2h 3s 4c", "Kc Kd Qh Js Th"])
    keep_all(g)
    run(g, ["0: announce pair", "1: announce pair"])
    assert [(e["seat"], e["rank"]) for e in events_of(g, "reveal")] == [(0, "A"), (1, "K")]
    assert g.scores == [1, 0]


def test_r_ann_3_two_pair_second_pair_then_kicker() -> None:
    """R-ANN-3: two pairs reveal the higher pair, then the lower pair, then the odd card."""
    g = game("pagat", 2, dealer=1, hands=["Ac Ad 5h 5s 4c", "Ah As 5c 5d 3h"])
    keep_all(g)
    run(g, ["0: announce two pair", "1: announce two pair"])
    assert [(e["seat"], e["stage"], e["rank"]) for e in events_of(g, "reveal")] == [
        (0, 1, "A"), (1, 1, "A"), (0, 2, "5"), (1, 2, "5"), (0, 3, "4"), (1, 3, "3")]
    assert g.scores == [2, 0]


def test_r_ann_3_exact_tie_nobody_scores() -> None:
    """R-ANN-3: tied players exactly equal at the end: nobody scores."""
    g = game("pagat", 2, dealer=1, hands=["5c 6d 7h 8s 9c", "5d 6h 7s 8c 9d"])
    keep_all(g)
    run(g, ["0: announce straight", "1: announce straight"])
    assert [(e["seat"], e["rank"]) for e in events_of(g, "reveal")] == [(0, "9"), (1, "9")]
    assert g.scores == [0, 0]
    assert events_of(g, "round_result")[-1]["reason"] == "tie"


def test_r_ann_3_flush_reveals_rank_by_rank() -> None:
    """R-ANN-3: a flush reveals its top card, then the next … as far as needed."""
    g = game("pagat", 2, dealer=1, hands=["Kh Jh 8h 6h 2h", "Ks Js 8s 5s 4s"])
    keep_all(g)
    run(g, ["0: announce flush", "1: announce flush"])
    ranks = [(e["seat"], e["rank"]) for e in events_of(g, "reveal")]
    assert ranks == [(0, "K"), (1, "K"), (0, "J"), (1, "J"), (0, "8"), (1, "8"),
                     (0, "6"), (1, "5")]
    assert g.scores == [5, 0]


# ------------------------------------------------------------------------------ R-ANN-4
def test_r_ann_4_everyone_passes_nobody_scores() -> None:
    """R-ANN-4: if everyone passes, nobody scores."""
    g = game("pagat", 3, dealer=2, hands=["9c 9d Kh 7s 2c"])
    keep_all(g)
    run(g, ["0: pass", "1: pass", "2: pass"])
    assert g.scores == [0, 0, 0]
    result = events_of(g, "round_result")[-1]
    assert result["winner"] is None and result["reason"] == "everyone passed"
    assert events_of(g, "reveal") == []


# ------------------------------------------------------------------------------ R-ANN-5
def test_r_ann_5_only_the_stages_become_public() -> None:
    """R-ANN-5: the revealed ranks are public, nothing more: no card of any hand leaks."""
    g = _abc_example()
    hands = {0: A_HAND, 1: B_HAND, 2: C_HAND, 3: D_HAND}
    for seat in (None, 0, 1, 2, 3):
        text = view_text(g, seat)
        for other, hand in hands.items():
            for card in hand.split():
                assert (card in text) == (other == seat), (seat, card)


# ------------------------------------------------------------------------------ R-ANN-6
def test_r_ann_6_winner_scores_at_once() -> None:
    """R-ANN-6: the round's winner scores the points at once, before the next exchange."""
    g = game("pagat", 2, dealer=1, hands=["9c 9d 9h 7s 2c"])
    keep_all(g)
    run(g, ["0: announce three of a kind", "1: pass"])
    kinds = [e.data["type"] for e in g.deal_events]
    assert kinds[-2:] == ["round_result", "score"]
    assert g.scores == [3, 0] and jview(g, 1)["scores"] == [3, 0]
    assert g.phase.value == "exchange" and g.round == 1
    keep_all(g)
    run(g, ["0: announce three of a kind", "1: pass"])
    assert g.scores == [6, 0]  # and again in the second scoring round (R-FIN-2)


@pytest.mark.parametrize("preset", ["pagat", "denexa", "wikipedia", "wikipedia-42"])
def test_r_ann_3_example_on_every_preset(preset: str) -> None:
    """R-ANN-3: the staged tie-break example gives C the point under every preset."""
    g = _abc_example(preset)
    assert g.scores == [0, 0, 1, 0]
    assert len(events_of(g, "reveal")) == 7


def test_r_ann_3_pagat_is_staged() -> None:
    """R-ANN-3: staged tie-break is the default tie mode."""
    assert Rules.preset("pagat").tie_mode == "staged"
