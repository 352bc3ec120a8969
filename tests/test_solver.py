"""The perfect-information trick solver (R-TRICK-1…4, R-CHI-4) against a plain minimax.

The reference below plays every line to the end: no pruning, no table, no equivalent cards,
and it shares no code with the solver beyond the card ids. Every query type of the solver is
compared with it on thousands of small random positions, mid-trick ones included.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import pytest

from chicago.bots import accel
from chicago.bots.solver import (
    Position,
    can_make_chicago,
    can_win_last_trick,
    chicago_moves,
    chicago_value,
    chicago_values,
    last_trick_moves,
    last_trick_value,
    last_trick_values,
    trick_winner,
)
from chicago.cards import Card, parse_cards

# --------------------------------------------------------------------------------------------
# The reference: plain minimax over every line of play.

History = tuple[tuple[int, int], ...]
"""(winner, winning card) of every trick completed from the position on."""


@dataclass(frozen=True)
class Query:
    """One minimax question: ``maximiser`` against all others, for ``payoff`` of a line."""

    maximiser: int
    payoff: Callable[[History], int]


def last_payoff(seat: int) -> Query:
    return Query(seat, lambda h: int(h[-1][0] == seat))


def value_payoff(seat: int, points: int, deuce_points: int | None) -> Query:
    def payoff(h: History) -> int:
        winner, card = h[-1]
        if winner != seat:
            return 0
        if deuce_points is not None and card >> 2 == 0:
            return deuce_points
        return points

    return Query(seat, payoff)


def chicago_payoff(declarer: int) -> Query:
    return Query(declarer, lambda h: int(all(w == declarer for w, _ in h)))


def chicago_value_payoff(declarer: int, points: int, deuce_points: int) -> Query:
    def payoff(h: History) -> int:
        if not all(w == declarer for w, _ in h):
            return 0
        return deuce_points if h[-1][1] >> 2 == 0 else points

    return Query(declarer, payoff)


def ref_values(
    hands: list[list[int]], leader: int, played: list[int], history: History, queries: list[Query]
) -> list[int]:
    """The minimax value of every query: all lines played out to the last trick.

    ``hands`` is changed during the call and restored before it returns.
    """
    n = len(hands)
    if len(played) == n:
        suit = played[0] % 4
        best = max(c for c in played if c % 4 == suit)
        winner = (leader + played.index(best)) % n
        history = (*history, (winner, best))
        if not any(hands):
            return [q.payoff(history) for q in queries]
        return ref_values(hands, winner, [], history, queries)
    seat = (leader + len(played)) % n
    hand = hands[seat]
    children = []
    for c in ref_legal(hand, played):
        hands[seat] = [x for x in hand if x != c]
        children.append(ref_values(hands, leader, [*played, c], history, queries))
    hands[seat] = hand
    return [
        max(column) if q.maximiser == seat else min(column)
        for column, q in zip(zip(*children, strict=True), queries, strict=True)
    ]


def ref_legal(hand: list[int], played: list[int]) -> list[int]:
    if played:
        follow = [c for c in hand if c % 4 == played[0] % 4]
        if follow:
            return follow
    return list(hand)


def ref_after_each_move(
    hands: list[list[int]], leader: int, played: list[int], queries: list[Query]
) -> dict[int, list[int]]:
    """The values of the queries after each legal card of the seat to act."""
    seat = (leader + len(played)) % len(hands)
    result = {}
    for c in ref_legal(hands[seat], played):
        rest = [h if s != seat else [x for x in h if x != c] for s, h in enumerate(hands)]
        result[c] = ref_values(rest, leader, [*played, c], (), queries)
    return result


# --------------------------------------------------------------------------------------------
# Random positions.


def random_position(
    rng: random.Random, n: int, left: int
) -> tuple[list[list[int]], int, list[int]]:
    """Hands of ``left`` cards for ``n`` seats, a leader, and 0…n-1 cards already played.

    Half the positions come from a small deck (few suits, low ranks with the deuces) so that
    players follow suit, and deuces win, often.
    """
    if rng.random() < 0.5:
        suits = rng.sample(range(4), rng.choice((1, 2, 2, 3)))
        deck = [r * 4 + s for r in range(13) for s in suits]
        if len(deck) < n * left:
            deck = list(range(52))
    else:
        deck = list(range(52))
    rng.shuffle(deck)
    hands = [sorted(deck[k * left : (k + 1) * left]) for k in range(n)]
    leader = rng.randrange(n)
    played: list[int] = []
    for k in range(rng.randrange(n) if rng.random() < 0.5 else 0):
        seat = (leader + k) % n
        card = rng.choice(ref_legal(hands[seat], played))
        hands[seat].remove(card)
        played.append(card)
    return hands, leader, played


def position_of(hands: Sequence[Sequence[int]], leader: int, played: Sequence[int]) -> Position:
    return Position.from_hands([list(h) for h in hands], leader, played)


def sizes(count: int, seed: int) -> list[tuple[int, int]]:
    """(seats, tricks left) for ``count`` positions, sized so the reference stays quick."""
    rng = random.Random(seed)
    shapes = [
        (2, 1),
        (2, 2),
        (2, 3),
        (2, 4),
        (3, 1),
        (3, 2),
        (3, 3),
        (4, 1),
        (4, 2),
        (4, 3),
        (5, 1),
        (5, 2),
        (6, 1),
        (6, 2),
    ]
    weights = [2, 4, 4, 1, 2, 4, 2, 2, 4, 1, 2, 2, 1, 1]
    return rng.choices(shapes, weights, k=count)


# --------------------------------------------------------------------------------------------
# The solver against the reference, every query type, on both paths: the C accelerator
# (chicago.bots._solver, when built) and the pure-Python search.


@pytest.fixture(params=["c", "python"])
def search(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the test with the C searches, then with the pure-Python ones."""
    if request.param == "c" and not accel.ACCELERATED:
        pytest.skip("the C accelerator is not built")
    if request.param == "python":
        with accel.pure_python():
            yield request.param
    else:
        yield request.param


@pytest.mark.parametrize("chunk", range(4))
def test_solver_matches_minimax_R_TRICK_1_2_3_4_R_CHI_4_V_DEUCE(chunk: int, search: str) -> None:
    """Every query on 4 × 400 random positions (2-6 seats, 1-4 tricks, some mid-trick), with
    the C searches and the pure-Python ones."""
    rng = random.Random(20240601 + chunk)
    for number, (n, left) in enumerate(sizes(400, 7 + chunk)):
        hands, leader, played = random_position(rng, n, left)
        pos = position_of(hands, leader, played)
        mover = pos.to_act
        defender = rng.choice([s for s in range(n) if s != mover])
        queries = (
            [last_payoff(s) for s in range(n)]
            + [value_payoff(s, 5, 10) for s in range(n)]
            + [value_payoff(s, 5, None) for s in range(n)]
            + [chicago_payoff(s) for s in range(n)]
            + [chicago_value_payoff(s, 15, 30) for s in range(n)]
        )
        root = ref_values(hands, leader, played, (), queries)
        where = f"#{number} {pos}"
        for s in range(n):
            assert can_win_last_trick(pos, s) == bool(root[s]), where
            assert last_trick_value(pos, s, deuce_points=10) == root[n + s], where
            assert last_trick_value(pos, s) == root[2 * n + s], where
            assert can_make_chicago(pos, s) == bool(root[3 * n + s]), where
            assert chicago_value(pos, s, deuce_points=30) == root[4 * n + s], where  # V-DEUCE
            assert chicago_value(pos, s) == 15 * root[3 * n + s], where
        moves = ref_after_each_move(
            hands,
            leader,
            played,
            [
                last_payoff(mover),
                value_payoff(mover, 5, 10),
                value_payoff(mover, 5, None),
                chicago_payoff(mover),
                chicago_payoff(defender),
                chicago_value_payoff(mover, 15, 30),
                chicago_value_payoff(defender, 15, 30),
                last_payoff(defender),
            ],
        )
        assert last_trick_moves(pos) == {Card(c): bool(v[0]) for c, v in moves.items()}, where
        assert last_trick_moves(pos, defender) == {Card(c): bool(v[7]) for c, v in moves.items()}
        assert last_trick_values(pos, deuce_points=10) == {Card(c): v[1] for c, v in moves.items()}
        assert last_trick_values(pos) == {Card(c): v[2] for c, v in moves.items()}, where
        assert chicago_moves(pos, mover) == {Card(c): bool(v[3]) for c, v in moves.items()}, where
        # A defender's card is True when it makes sure the Chicago breaks.
        assert chicago_moves(pos, defender) == {Card(c): not v[4] for c, v in moves.items()}
        # V-DEUCE: the Chicago points the declarer is sure of after each card, either side.
        assert chicago_values(pos, mover, deuce_points=30) == {
            Card(c): v[5] for c, v in moves.items()}, where
        assert chicago_values(pos, defender, deuce_points=30) == {
            Card(c): v[6] for c, v in moves.items()}, where


def test_solver_matches_minimax_on_bigger_positions_R_TRICK_4_R_CHI_4(search: str) -> None:
    """Three and four seats with four tricks left, the largest the reference does quickly."""
    rng = random.Random(99)
    for number in range(16):
        n = 3 if number % 3 else 4
        hands, leader, played = random_position(rng, n, 4)
        pos = position_of(hands, leader, played)
        queries = [last_payoff(s) for s in range(n)] + [chicago_payoff(s) for s in range(n)]
        root = ref_values(hands, leader, played, (), queries)
        for s in range(n):
            assert can_win_last_trick(pos, s) == bool(root[s]), f"#{number} {pos}"
            assert can_make_chicago(pos, s) == bool(root[n + s]), f"#{number} {pos}"


def test_one_step_consistency_on_full_deals(search: str) -> None:
    """Five-trick deals, 2-6 seats: a query's answer agrees with its answers one card later."""
    rng = random.Random(5)
    for number in range(40):
        n = 2 + number % 5
        deck = list(range(52))
        rng.shuffle(deck)
        pos = Position.from_hands([deck[k * 5 : k * 5 + 5] for k in range(n)], rng.randrange(n))
        for _ in range(rng.randrange(4 * n)):  # walk into the deal
            pos = pos.play(rng.choice(pos.legal_moves()))
        mover = pos.to_act
        moves = last_trick_moves(pos)
        assert can_win_last_trick(pos, mover) == any(moves.values())
        for card, wins in moves.items():
            child = pos.play(card)
            if child.is_over:
                assert wins == (child.leader == mover)
            else:
                assert wins == can_win_last_trick(child, mover)
        other = (mover + 1) % n
        children = [pos.play(c) for c in pos.legal_moves()]
        if not children[0].is_over:
            assert can_win_last_trick(pos, other) == all(
                can_win_last_trick(c, other) for c in children
            )
            assert can_make_chicago(pos, other) == all(can_make_chicago(c, other) for c in children)
        values = last_trick_values(pos, deuce_points=10)
        assert last_trick_value(pos, mover, deuce_points=10) == max(values.values())
        made = chicago_moves(pos, mover)
        assert can_make_chicago(pos, mover) == any(made.values())
        broken = chicago_moves(pos, other)
        assert can_make_chicago(pos, other) == (not any(broken.values()))


# --------------------------------------------------------------------------------------------
# Hand-made positions with known answers.


def test_no_trumps_the_led_suit_wins_R_TRICK_1_R_TRICK_3() -> None:
    """The leader may lead any card; an ace of another suit does not beat a led deuce."""
    pos = Position.from_text(["2c", "As"], leader=0)
    assert can_win_last_trick(pos, 0)
    assert not can_win_last_trick(pos, 1)
    assert last_trick_value(pos, 0) == 5
    assert last_trick_value(pos, 0, deuce_points=10) == 10  # V-DEUCE
    assert last_trick_value(pos, 1, deuce_points=10) == 0


def test_must_follow_suit_R_TRICK_2() -> None:
    """Seat 1 must follow suit, so seat 0 can force it to spend its ace of hearts."""
    pos = Position.from_text(["Kh 3c", "Ah 2c"], leader=0)
    assert last_trick_moves(pos) == {Card("Kh"): True, Card("3c"): False}
    assert can_win_last_trick(pos, 0)
    assert not can_win_last_trick(pos, 1)
    # Once hearts are led, seat 1 may only play its heart.
    after = pos.play("Kh")
    assert after.legal_moves() == (Card("Ah"),)
    assert can_win_last_trick(after, 0)


def test_winner_of_a_trick_leads_the_next_R_TRICK_3() -> None:
    """Mid-trick, three seats: the highest heart wins the trick and leads the last one."""
    pos = Position.from_text(["Qs", "9h Ks", "Jh 2s"], leader=0, played="8h")
    # Seat 1 must follow with 9h; seat 2 then chooses: Jh wins and leads 2s, which loses
    # to seat 1's Ks, so seat 2 cannot win the last trick; seat 1 can.
    assert trick_winner(parse_cards("8h 9h Jh"), 0, 3) == 2
    assert can_win_last_trick(pos, 1)
    assert not can_win_last_trick(pos, 2)
    assert not can_win_last_trick(pos, 0)
    after = pos.play("9h")
    assert last_trick_moves(after) == {Card("Jh"): False}


def test_only_the_last_trick_counts_R_TRICK_4() -> None:
    """Seat 0 can win four spade tricks, but seat 1 keeps the 3c and takes the last trick."""
    pos = Position.from_text(["As Ks Qs Js 2c", "Ah Kh Qh Jh 3c"], leader=0)
    assert not can_win_last_trick(pos, 0)
    assert can_win_last_trick(pos, 1)
    assert last_trick_value(pos, 1) == 5
    assert set(last_trick_moves(pos).values()) == {False}


def test_deuce_bonus_V_DEUCE_R_TRICK_4() -> None:
    """Keeping the deuce for the last lead is worth 10 under V-DEUCE, else 5."""
    pos = Position.from_text(["2c As", "Kh Qh"], leader=0)
    assert last_trick_values(pos, deuce_points=10) == {Card("2c"): 5, Card("As"): 10}
    assert last_trick_values(pos) == {Card("2c"): 5, Card("As"): 5}
    assert last_trick_value(pos, 0, deuce_points=10) == 10
    assert last_trick_value(pos, 0, points=7, deuce_points=7) == 7
    with pytest.raises(ValueError):
        last_trick_value(pos, 0, points=5, deuce_points=3)


def test_deuce_chicago_V_DEUCE_R_CHI_4() -> None:
    """A Chicago whose last trick is won with a deuce is worth 30 under V-DEUCE: the declarer
    keeps the 2 for last; leading it first still makes the Chicago, for 15."""
    pos = Position.from_text(["2c As", "Kh Qh"], leader=0, declarer=0)
    assert chicago_values(pos, deuce_points=30) == {Card("2c"): 15, Card("As"): 30}
    assert chicago_values(pos) == {Card("2c"): 15, Card("As"): 15}
    assert chicago_value(pos, deuce_points=30) == 30
    assert chicago_value(pos) == 15
    # the defender's cards: the declarer is sure of 30 whatever it plays after the ace
    after = pos.play("As")
    assert chicago_values(after, deuce_points=30) == {Card("Qh"): 30, Card("Kh"): 30}
    # a defender holding a club stops the deuce from winning: the Chicago breaks
    guarded = Position.from_text(["2c As", "Kh 3c"], leader=0, declarer=0)
    assert chicago_value(guarded, deuce_points=30) == 0
    with pytest.raises(ValueError):
        chicago_value(pos, points=15, deuce_points=10)


def test_chicago_made_by_top_cards_R_CHI_4() -> None:
    """The declarer leads its ace, the defender must follow, and the king wins too."""
    pos = Position.from_text(["As Ks", "Ah 2s"], leader=0, declarer=0)
    assert can_make_chicago(pos)
    assert chicago_moves(pos) == {Card("Ks"): True, Card("As"): True}


def test_chicago_broken_as_soon_as_a_defender_wins_R_CHI_4() -> None:
    """Either lead loses a trick to the defender's Ah or the defender keeps it for later."""
    pos = Position.from_text(["As Kh", "Ah Qs"], leader=0, declarer=0)
    assert not can_make_chicago(pos)
    assert chicago_moves(pos) == {Card("Kh"): False, Card("As"): False}
    # The deal ends at the first lost trick, even though the declarer would win the last one.
    pos = Position.from_text(["Ah 2c", "Kh"], leader=1, played="3c", declarer=0)
    assert can_win_last_trick(Position(pos.hands, pos.leader, pos.played), 0)
    assert not can_make_chicago(pos)
    assert chicago_moves(pos) == {Card("2c"): False}


def test_defender_cards_that_break_the_chicago_R_CHI_4() -> None:
    """Seat 1 breaks the Chicago by overtaking with As; ducking with 2s lets it be made."""
    pos = Position.from_text(["Ad", "As 2s", "3s 4d"], leader=0, played="Ks", declarer=0)
    assert pos.to_act == 1
    assert chicago_moves(pos) == {Card("2s"): False, Card("As"): True}
    assert not can_make_chicago(pos)
    assert can_make_chicago(pos.play("2s"))


def test_declarer_must_beat_a_defenders_lead_R_CHI_4() -> None:
    """A defender leads; a void declarer cannot win the trick, a higher card can."""
    void = Position.from_text(["Ac Ad", "Kh 2c", "3h 4h"], leader=1, declarer=0)
    assert not can_make_chicago(void)  # a heart lead cannot be won by the declarer
    follow = Position.from_text(["Ah Ad", "Kh Qh", "3h 4h"], leader=1, declarer=0)
    assert can_make_chicago(follow)
    # Already beaten mid-trick: the answer is settled.
    beaten = Position.from_text(["Ad", "Kh 2c", "3h 4h"], leader=0, played="Qh", declarer=0)
    assert not can_make_chicago(beaten)
    assert chicago_moves(beaten) == {Card("Kh"): True}


def test_last_trick_queries_refuse_a_chicago_position() -> None:
    pos = Position.from_text(["As", "Ks"], leader=0, declarer=1)
    with pytest.raises(ValueError, match="Chicago"):
        can_win_last_trick(pos, 0)
    with pytest.raises(ValueError, match="declarer"):
        can_make_chicago(Position.from_text(["As", "Ks"], leader=0))


# --------------------------------------------------------------------------------------------
# The position type.


def test_position_from_text_and_properties() -> None:
    pos = Position.from_text(["Kd", "Qs 2c", "3c 4c"], leader=0, played="As")
    assert pos.n_seats == 3
    assert pos.tricks_left == 2
    assert pos.to_act == 1
    assert pos.hand(1) == parse_cards("2c Qs")
    assert pos.legal_moves() == (Card("Qs"),)
    assert pos == Position.from_hands([["Kd"], "Qs 2c", [4, 8]], 0, ["As"])
    assert str(pos) == "0: Kd | 1: 2c Qs | 2: 3c 4c | seat 0 led As"
    end = pos.play("Qs").play("3c").play("Kd").play("2c").play("4c")
    assert end.is_over and end.leader == 0  # As won the first trick, Kd the last


@pytest.mark.parametrize(
    ("hands", "leader", "played", "message"),
    [
        (["As"], 0, "", "2 to 6 seats"),
        (["As", "Ks"] * 4, 0, "", "2 to 6 seats"),
        (["As", "As"], 0, "", "duplicate|held twice"),
        (["As Kd", "Qs"], 0, "", "expected"),
        (["As", "Qs"], 2, "", "leader"),
        (["As", "Qs"], 0, "Qs", "both played and held"),
        (["As Kc", "Qs 2c"], 0, "Kd", "expected"),
    ],
)
def test_position_validation(hands: list[str], leader: int, played: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Position.from_text(hands, leader=leader, played=played)


def test_play_refuses_illegal_cards_R_TRICK_2() -> None:
    pos = Position.from_text(["Kh 3c", "Ah 2c"], leader=0, played="")
    with pytest.raises(ValueError, match="not a legal card"):
        pos.play("Ah")
    with pytest.raises(ValueError, match="not a legal card"):
        pos.play("Kh").play("2c")
