"""Unit tests of the bots' rules of thumb and estimates (chicago.bots.heuristics,
chicago.bots.estimates, chicago.bots.ev): exchanges (R-EX-1), the saved card for the last
trick (R-TRICK-4), top-sequence Chicagos (R-CHI-1, R-CHI-4), best five of six (V-LOCK-6)."""

from __future__ import annotations

import itertools

import pytest

from chicago import Game, Rules
from chicago.bots.estimates import CATEGORY_TABLE, beat_all, opponent_distribution, win_chances
from chicago.bots.ev import ev_keep, last_trick_chance
from chicago.bots.heuristics import (
    basic_keep,
    best_five,
    flush_draw,
    is_top,
    keeper,
    lead_chance,
    straight_draw,
    top_sequence_chicago,
)
from chicago.bots.knowledge import Claim, knowledge
from chicago.cards import parse_cards
from chicago.poker import Category

PAGAT = Rules.preset("pagat")


def _keep(text: str, last: bool = False) -> str:
    kept = basic_keep(parse_cards(text), PAGAT, last=last)
    return " ".join(sorted(str(c) for c in kept))


@pytest.mark.parametrize(
    ("hand", "last", "kept"),
    [
        ("5h 6c 7d 8s 9h", False, "5h 6c 7d 8s 9h"),  # straight: keep all
        ("2h 7h 9h Jh Kh", True, "2h 7h 9h Jh Kh"),  # flush
        ("9c 9d 9h 4s 2c", False, "9c 9d 9h"),  # trips
        ("9c 9d 9h As 2c", False, "9c 9d 9h As"),  # trips and an ace for the last trick
        ("9c 9d 4h 4s 2c", False, "4h 4s 9c 9d"),  # two pairs
        ("9c 9d 4h 7s Ac", False, "9c 9d Ac"),  # pair with an ace
        ("9c 9d 4h 7s Kc", False, "9c 9d"),  # pair
        ("2h 7h 9h Jh Kc", False, "2h 7h 9h Jh"),  # four-flush
        ("2h 7h 9h 9c Jh", False, "2h 7h 9h Jh"),  # four-flush over a pair
        ("2h 7h 9h 9c Jh", True, "9c 9h"),  # ... but not in the last exchange
        ("5h 6c 7d 8s Kh", False, "5h 6c 7d 8s"),  # open-ended four-straight
        ("Th Jc Qd Ks 2h", False, "Jc Ks Qd Th"),  # open-ended: nine or ace
        ("Jh Qc Kd As 2h", False, "As"),  # ends at the ace: no draw, keep the ace
        ("2c 5d 8h As Ad", False, "Ad As"),  # a pair of aces
        ("2c 5d 8h Jc Ad", False, "Ad"),  # nothing: keep the ace
        ("2c 5d 8h 9c Qs", False, "Qs"),  # nothing: keep a queen
        ("2c 5d 8h 9c Js", False, ""),  # nothing worth keeping
    ],
)
def test_basic_keep_R_EX_1(hand, last, kept):
    assert _keep(hand, last) == kept


def test_draws():
    assert flush_draw(parse_cards("2h 7h 9h Jh Kc")) is not None
    assert flush_draw(parse_cards("2h 7h 9h Jc Kc")) is None
    assert straight_draw(parse_cards("5h 6c 7d 8s Kh")) is not None
    assert straight_draw(parse_cards("Jh Qc Kd As 2h")) is None  # ends at the ace
    assert straight_draw(parse_cards("5h 6c 8d 9s Kh")) is None  # gutshot


def test_keeper_is_top_card_of_longest_suit_R_TRICK_4():
    assert str(keeper(parse_cards("Ah 3s 7s 9s Kd"))) == "9s"
    assert str(keeper(parse_cards("Ah 3s Kd 2c Qc"))) == "Qc"  # clubs are longest
    assert str(keeper(parse_cards("Ah 3s Kd 2c Jd"))) == "Kd"


def test_best_five_of_six_V_LOCK_6():
    drop = best_five(parse_cards("9c 9d 9h 4s 4c 2d"), PAGAT)
    assert str(drop) == "2d"


def _view_knowledge(seed: int = 4):
    game = Game(PAGAT, players=4, seed=seed)
    return game, knowledge(game.view(game.to_act))


def test_top_cards_and_lead_chances():
    _, k = _view_knowledge()
    ace = next((c for c in k.hand if c.rank == 14), None)
    low = min(k.hand, key=lambda c: c.rank)
    if ace is not None:
        assert is_top(k, ace) and lead_chance(k, ace) == 1.0
    assert lead_chance(k, low) < 1.0


def test_top_sequence_chicago_R_CHI_1():
    _, k = _view_knowledge()
    k.hand = parse_cards("As Ks Qs Ah Ad")
    assert top_sequence_chicago(k, leads=True)
    assert not top_sequence_chicago(k, leads=False)  # clubs could be led
    k.hand = parse_cards("As Ks Ah Ad Ac")
    assert top_sequence_chicago(k, leads=False)
    k.hand = parse_cards("As Qs Ah Ad Ac")
    assert not top_sequence_chicago(k, leads=True)  # the king of spades is out


def test_estimates_are_distributions():
    for row in CATEGORY_TABLE.values():
        assert sum(row) == pytest.approx(1.0, abs=0.01)
    game, k = _view_knowledge()
    for opp in k.opponents.values():
        assert sum(opponent_distribution(k, opp)) == pytest.approx(1.0, abs=0.01)
    chances = win_chances(k)
    assert chances[0] == 0.0
    assert all(a <= b + 1e-12 for a, b in itertools.pairwise(chances[1:]))
    del game


def test_claims_fix_an_opponents_category_R_ANN_1():
    _, k = _view_knowledge()
    opp = next(iter(k.opponents.values()))
    opp.claim = Claim(1, Category.FULL_HOUSE)
    assert opponent_distribution(k, opp)[Category.FULL_HOUSE] == 1.0
    assert win_chances(k)[Category.STRAIGHT] == 0.0
    assert beat_all(Category.FLUSH, [[0.5, 0.5] + [0.0] * 8]) == 1.0


def test_ev_keeps_a_straight_and_plays_for_the_trick_against_a_full_house():
    game, k = _view_knowledge()
    k.hand = parse_cards("5h 6c 7d 8s 9h")
    k.round = 3
    kept, value = ev_keep(k)
    assert len(kept) == 5 and value > 0
    opp = next(iter(k.opponents.values()))
    opp.claim = Claim(2, Category.FULL_HOUSE)
    kept, _ = ev_keep(k)
    assert len(kept) < 5  # the straight cannot win: draw for the last trick
    del game


def test_last_trick_chance():
    assert last_trick_chance(parse_cards("As Ah"), 3) > last_trick_chance(parse_cards("As"), 4)
    assert last_trick_chance((), 5) < last_trick_chance(parse_cards("Ac"), 4)


def test_ev_chicago_chance_R_CHI_1_R_CHI_4():
    from chicago.bots.ev import chicago_chance

    _, k = _view_knowledge()
    k.hand = parse_cards("As Ks Qs Ah Ad")
    assert chicago_chance(k, leads=True) == 1.0
    assert chicago_chance(k, leads=False) == pytest.approx(0.75)  # clubs could be led
    k.hand = parse_cards("As Ks Qs Ah Kd")
    sure = chicago_chance(k, leads=True)
    assert 0.3 < sure < 0.9  # the ace of diamonds may be out
    k.hand = parse_cards("As Ks Qs Ah 7d")
    assert chicago_chance(k, leads=True) < sure
