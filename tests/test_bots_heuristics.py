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
from chicago.cards import DECK, parse_cards
from chicago.engine.knowledge import Claim, knowledge
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


def test_sampled_chicago_chance_R_CHI_1_R_CHI_4():
    """With a random generator ev measures its Chicago chance on sampled deals of the
    others' hands: a hand of top sequences is sure on lead, and the same suits as the
    plain odds say are at risk."""
    import random

    from chicago.bots.ev import chicago_chance

    def holding(hand: str):
        mine = list(parse_cards(hand))
        rest = [c for c in DECK if c not in mine]
        random.Random(3).shuffle(rest)
        deck = [card for r in range(5) for card in (mine[r], *rest[r * 3 : r * 3 + 3])]
        game = Game(PAGAT, players=4, seed=1, dealer=3, decks=[deck + rest[15:]])
        return knowledge(game.view(0))

    assert chicago_chance(holding("As Ks Qs Ah Ad"), leads=True, rng=random.Random(1)) == 1.0
    k = holding("As Ks Qs Ah Kd")
    sampled = chicago_chance(k, leads=True, rng=random.Random(1), samples=200)
    assert 0.3 < sampled < 0.9  # the ace of diamonds may be out
    plain = chicago_chance(k, leads=True)
    assert abs(sampled - plain) < 0.15  # nothing known of the others: about the plain odds
    k = holding("As Ks Qs Ah 7d")
    assert chicago_chance(k, leads=True, rng=random.Random(1), samples=200) < sampled


def test_revealed_ranks_decide_equal_categories_R_ANN_3_R_EX_4():
    """Equal categories: known ranks decide (same_chance); a protected pair of kings that
    is still a pair beats a pair of nines; the protection floors the category."""
    from chicago.bots.estimates import known_stages, same_chance

    assert same_chance((9, 14), (13,)) == 0.0
    assert same_chance((13, 14, 5), (13, 12)) == 1.0
    assert same_chance((13,), (13,)) == 0.5 and same_chance((9,), ()) == 0.5
    _, k = _view_knowledge()
    k.phase = "announce"
    for other in k.opponents.values():
        other.exchanges = [3]  # everyone drew three
    opp = next(iter(k.opponents.values()))
    opp.kept = (Claim(1, Category.PAIR, (13,)),)
    assert known_stages(opp, Category.PAIR) == (13,)
    assert known_stages(opp, Category.TWO_PAIR) == ()
    dist = opponent_distribution(k, opp)
    assert dist[Category.HIGH_CARD] == 0.0 and sum(dist) == pytest.approx(1.0)
    nines = win_chances(k, {int(Category.PAIR): (9,)})[Category.PAIR]
    aces = win_chances(k, {int(Category.PAIR): (14,)})[Category.PAIR]
    assert nines == 0.0 < aces


def test_ev_passes_an_announcement_that_cannot_win_R_ANN_1():
    """Announcing a hand that cannot win the round only tells the others what it holds:
    against an opponent who announced before it and whose revealed, protected pair is
    higher, or who stands on a claimed higher hand still to speak, ev passes; the real
    round then goes to another player."""
    import random

    from chicago.bots import make_bot
    from chicago.bots.ev import announce_chance

    bots = [make_bot("ev")] + [make_bot("basic")] * 3
    found = 0
    for seed in range(30):
        game = Game(PAGAT, 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.deal_number <= 3:
            seat = game.to_act
            view = game.view(seat)
            action = bots[seat].decide(view, game.legal_actions(), rng)
            if seat == 0 and view.phase == "announce" and str(action) == "pass":
                k = knowledge(view)
                if any(a.kind.name == "ANNOUNCE" for a in game.legal_actions()) \
                        and announce_chance(k) == 0.0:
                    found += 1
                    mine = game.hand_value(0)
                    # someone at the table holds a better hand now
                    assert any(game.hand_value(s) > mine for s in range(1, 4))
            game.apply(action)
    assert found >= 3
