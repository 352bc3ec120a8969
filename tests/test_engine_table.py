"""Rules engine: the table, the deal, poker hands and the shape of a deal.

R-TABLE-1 … R-TABLE-4, R-HAND-1 … R-HAND-4, R-PHASE-1, R-PHASE-2, on stacked decks.
"""

from __future__ import annotations

import pytest

from chicago import Category, Game, Rules, evaluate, parse_cards
from chicago.cards import DECK
from engine_helpers import advance_to, events_of, game, jview, keep_all, run


# ------------------------------------------------------------------------------ R-TABLE
@pytest.mark.parametrize("players", [2, 3, 4])
def test_r_table_1_two_to_four_players(players: int) -> None:
    """R-TABLE-1: 2 to 4 players by default; seats 0..n-1 clockwise."""
    g = Game(Rules.preset("pagat"), players, seed=3)
    assert g.players == players and len(g.scores) == players
    assert g.to_act == (g.dealer + 1) % players


@pytest.mark.parametrize("players", [1, 5, 6, 7])
def test_r_table_1_other_counts_refused(players: int) -> None:
    """R-TABLE-1: other player counts are refused; 5-6 point at V-LARGE."""
    with pytest.raises(ValueError, match="players") as info:
        Game(Rules.preset("pagat"), players, seed=3)
    if players in (5, 6):
        assert "V-LARGE" in str(info.value)


def test_r_table_1_seats_clockwise() -> None:
    """R-TABLE-1 / R-PHASE-2: turns go clockwise, seat s then seat s+1."""
    g = game("pagat", 4, dealer=2)
    order = []
    for _ in range(4):
        order.append(g.to_act)
        g.apply("keep")
    assert order == [3, 0, 1, 2]


def test_r_table_2_one_pack_of_52() -> None:
    """R-TABLE-2: one 52-card pack, every card once: hands + stock are the whole pack."""
    g = Game(Rules.preset("pagat"), 4, seed=11)
    cards = [c for h in g.hands for c in h] + list(g._stock)
    assert sorted(cards) == list(DECK)


def test_r_table_2_ranks_ace_high_suits_unordered() -> None:
    """R-TABLE-2: ace is highest; suits have no order (equal ranks tie exactly)."""
    assert evaluate("As Kd 9c 7h 2s") > evaluate("Ks Qd 9c 7h 2s")
    assert evaluate("As Kd 9c 7h 2s") == evaluate("Ac Kh 9d 7s 2c")
    assert evaluate("2c 2d 5h 7s 9c") < evaluate("3c 3d 5h 7s 9c")


def test_r_table_3_first_dealer_from_seed() -> None:
    """R-TABLE-3: the same seed gives the same first dealer and hands; seeds differ."""
    rules = Rules.preset("pagat")
    a, b = Game(rules, 4, seed=5), Game(rules, 4, seed=5)
    assert a.dealer == b.dealer and a.hands == b.hands
    dealers = {Game(rules, 4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_r_table_3_deal_passes_clockwise() -> None:
    """R-TABLE-3: the deal passes one seat clockwise after every hand."""
    g = Game(Rules.preset("pagat"), 3, seed=9)
    first = g.dealer
    seen = []
    while g.deal_number <= 4:
        if g.deal_number > len(seen):
            seen.append(g.dealer)
        advance_to(g, "play")
        g.apply(g.legal_actions()[0])
    assert seen == [(first + i) % 3 for i in range(4)]


def test_r_table_4_dealt_one_at_a_time_from_dealers_left() -> None:
    """R-TABLE-4: five cards each, one at a time starting left of the dealer; rest is stock."""
    deck = [str(c) for c in DECK]
    g = Game(Rules.preset("pagat"), 3, decks=[deck], dealer=1, seed=1)
    # seat 2 is left of dealer 1: it gets deck[0], deck[3], ...
    assert [str(c) for c in g.hands[2]] == [deck[i] for i in (0, 3, 6, 9, 12)]
    assert [str(c) for c in g.hands[0]] == [deck[i] for i in (1, 4, 7, 10, 13)]
    assert [str(c) for c in g.hands[1]] == [deck[i] for i in (2, 5, 8, 11, 14)]
    assert g.stock_count == 52 - 15
    g.apply("discard " + str(g.hands[2][0]))
    assert [str(c) for c in g.hands[2]][-1] == deck[15]  # the stock goes on in list order


# ------------------------------------------------------------------------------ R-HAND
CATEGORY_HANDS = [
    ("9c 9d Kh 7s 2c", "pair", 1),
    ("9c 9d Kh Ks 2c", "two pair", 2),
    ("9c 9d 9h Ks 2c", "three of a kind", 3),
    ("5c 6d 7h 8s 9c", "straight", 4),
    ("2h 5h 9h Jh Kh", "flush", 5),
    ("9c 9d 9h Ks Kc", "full house", 6),
    ("9c 9d 9h 9s Kc", "four of a kind", 7),
    ("5h 6h 7h 8h 9h", "straight flush", 8),
    ("Th Jh Qh Kh Ah", "royal flush", 52),
]


@pytest.mark.parametrize(("hand", "category", "points"), CATEGORY_HANDS)
def test_r_hand_1_points_per_category(hand: str, category: str, points: int) -> None:
    """R-HAND-1 / R-ANN-6: each category scores its points in a scoring round (pagat)."""
    g = game("pagat", 2, dealer=1, hands=[hand])
    keep_all(g)
    assert f"announce {category}" in [str(a) for a in g.legal_actions()]
    run(g, [f"0: announce {category}", "1: pass"])
    assert g.scores[0] == points


def test_r_hand_1_wikipedia_royal_is_a_straight_flush() -> None:
    """R-HAND-1: W scores a royal flush as a straight flush (8) unless V-ROYAL."""
    g = game("wikipedia", 2, dealer=1, hands=["Th Jh Qh Kh Ah"])
    keep_all(g)
    assert [str(a) for a in g.legal_actions()] == ["pass", "announce straight flush"]
    run(g, ["0: announce straight flush", "1: pass"])
    assert g.scores[0] == 8


def test_r_hand_1_no_pair_cannot_be_announced() -> None:
    """R-HAND-1: a hand with no pair scores nothing and cannot be announced."""
    g = game("pagat", 2, dealer=1, hands=["2c 5d 9h Js Kc"])
    keep_all(g)
    assert [str(a) for a in g.legal_actions()] == ["pass"]


def test_r_hand_2_examples() -> None:
    """R-HAND-2: 8-8-8-K-2 beats 8-8-8-Q-J; 7-7-10-6-2 beats 7-7-10-5-4; equal is equal."""
    assert evaluate("8c 8d 8h Ks 2c") > evaluate("8s 8c 8d Qh Jc")
    assert evaluate("7c 7d Th 6s 2c") > evaluate("7h 7s Tc 5d 4c")
    assert evaluate("7c 7d Th 6s 2c") == evaluate("7h 7s Td 6c 2d")
    # two pairs: the higher pair, then the lower pair, then the odd card
    assert evaluate("Kc Kd 3h 3s 2c") > evaluate("Qc Qd Jh Js Ac")
    assert evaluate("Kc Kd 4h 4s 2c") > evaluate("Kh Ks 3h 3s Ac")
    # full house: trips first
    assert evaluate("3c 3d 3h 2s 2c") > evaluate("2h 2d 2s Ac Ad")


def test_r_hand_2_kickers_decide_in_a_scoring_round() -> None:
    """R-HAND-2 / R-ANN-3: 7-7-10-6-2 beats 7-7-10-5-4 in play, by the second kicker."""
    g = game("pagat", 2, dealer=1, hands=["7h 7s Tc 5d 4c", "7c 7d Th 6s 2c"])
    keep_all(g)
    run(g, ["0: announce pair", "1: announce pair"])
    reveals = [(e["seat"], e["stage"], e["rank"]) for e in events_of(g, "reveal")]
    assert reveals == [(0, 1, "7"), (1, 1, "7"), (0, 2, "T"), (1, 2, "T"), (0, 3, "5"), (1, 3, "6")]
    assert g.scores == [0, 1]


def test_r_hand_2_exactly_equal_hands_nobody_scores() -> None:
    """R-HAND-2: hands equal card for card by rank are exactly equal: nobody scores."""
    g = game("pagat", 2, dealer=1, hands=["7c 7d Th 6s 2c", "7h 7s Td 6c 2d"])
    keep_all(g)
    run(g, ["0: announce pair", "1: announce pair"])
    assert g.scores == [0, 0]
    assert events_of(g, "round_result")[-1]["winner"] is None
    assert len(events_of(g, "reveal")) == 8  # all four stages (pair, 3 kickers), both seats


def test_r_hand_3_wheel_is_the_lowest_straight() -> None:
    """R-HAND-3: A-2-3-4-5 is a straight, five high, below 2-3-4-5-6."""
    wheel = evaluate("Ac 2d 3h 4s 5c")
    assert wheel.category is Category.STRAIGHT
    assert wheel < evaluate("2c 3d 4h 5s 6c")
    g = game("pagat", 2, dealer=1, hands=["Ac 2d 3h 4s 5c", "2c 3d 4h 5s 6d"])
    keep_all(g)
    run(g, ["0: announce straight", "1: announce straight"])
    assert [(e["seat"], e["rank"]) for e in events_of(g, "reveal")] == [(0, "5"), (1, "6")]
    assert g.scores == [0, 4]


def test_r_hand_3_no_wrap_around() -> None:
    """R-HAND-3: K-A-2-3-4 is not a straight; the wheel can be switched off."""
    assert evaluate("Kc Ad 2h 3s 4c").category is Category.HIGH_CARD
    off = Rules.preset("pagat", wheel_straight=False)
    assert evaluate("Ac 2d 3h 4s 5c", off).category is Category.HIGH_CARD
    g = game(off, 2, dealer=1, hands=["Ac 2d 3h 4s 5c"])
    keep_all(g)
    assert [str(a) for a in g.legal_actions()] == ["pass"]


def test_r_hand_4_six_cards_score_the_five_kept() -> None:
    """R-HAND-4 / V-LOCK-6: a locked player with six cards is scored on the five kept."""
    rules = Rules.preset("wikipedia-42")
    g = game(rules, 2, dealer=1, hands=["Ac Ad Kc Kd Qh 2s", "2c 5d 9h Js 3c"], scores=[42, 0])
    assert g.locked == [True, False] and len(g.hands[0]) == 6
    assert jview(g, 0)["hand_category"] is None  # six cards are never scored
    run(g, ["0: discard Kd"])
    assert len(g.hands[0]) == 5
    assert jview(g, 0)["hand_category"] == "PAIR"
    run(g, ["1: keep"])
    assert [str(a) for a in g.legal_actions()] == ["pass", "announce pair"]


# ------------------------------------------------------------------------------ R-PHASE
@pytest.mark.parametrize(("preset", "exchanges"), [("pagat", 3), ("denexa", 3), ("wikipedia", 2)])
def test_r_phase_1_exchange_and_scoring_rounds(preset: str, exchanges: int) -> None:
    """R-PHASE-1: exchange rounds, a scoring round after each but the last, then tricks."""
    g = game(preset, 2, dealer=1, hands=["9c 9d Kh 7s 2c"])
    phases: list[tuple[str, int]] = []
    while g.phase.value != "play":
        step = (g.phase.value, g.round + 1)
        if step[0] != "chicago" and (not phases or phases[-1] != step):
            phases.append(step)
        g.apply({"exchange": "keep", "announce": "pass", "chicago": "no chicago",
                 "one up": "accept"}[g.phase.value])
    expected: list[tuple[str, int]] = []
    for r in range(1, exchanges + 1):
        expected.append(("exchange", r))
        if r < exchanges:
            expected.append(("announce", r))
    assert phases == expected
    assert Rules.preset(preset).scoring_rounds == exchanges - 1
    # after the tricks the final showdown comes, then the next deal
    while g.deal_number == 1:
        g.apply(g.legal_actions()[0])
    kinds = [e.data["type"] for e in g.events]
    assert kinds.index("showdown") > max(i for i, k in enumerate(kinds) if k == "trick")


def test_r_phase_2_order_from_dealers_left_in_every_phase() -> None:
    """R-PHASE-2: exchanges, announcements, Chicago call and first lead start left of dealer."""
    g = game("pagat", 4, dealer=1, hands=[], scores=[15, 15, 15, 15])
    turns: dict[tuple[str, int], list[int | None]] = {}
    while len(turns.get(("play", 0), [])) < 4:
        key = (g.phase.value, g.round if g.phase.value != "play" else 0)
        turns.setdefault(key, []).append(g.to_act)
        if g.phase.value == "play":
            g.apply(g.legal_actions()[0])
        else:
            g.apply({"exchange": "keep", "announce": "pass", "chicago": "no chicago"}[key[0]])
    assert set(turns) == {
        ("exchange", 0), ("announce", 0), ("exchange", 1), ("announce", 1), ("exchange", 2),
        ("chicago", 2), ("play", 0),
    }
    for key, seats in turns.items():
        assert seats == [2, 3, 0, 1], key


def test_r_phase_1_a_deal_starts_with_exchange_round_1() -> None:
    """R-PHASE-1 / R-PHASE-2: a deal starts with exchange round 1 at the dealer's left."""
    g = game("pagat", 3, dealer=0, hands=["9c 9d Kh 7s 2c"])
    assert g.phase.value == "exchange" and g.round == 0 and g.to_act == 1
    assert list(parse_cards("9c 9d Kh 7s 2c")) == g.hands[0]
