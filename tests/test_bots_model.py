"""The expert's opponent model and weighted samples: chicago.bots.model (trick play against
sensible opponents, R-TRICK-1…4) and the plausibility weights of chicago.bots.plausibility
(players keep pairs, draws and high cards, R-EX-1, R-EX-3)."""

from __future__ import annotations

import random

import pytest

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots.expert import ExpertBot, parse_options
from chicago.bots.model import model_card, model_moves, model_wins
from chicago.bots.plausibility import hand_weight, keep_weight
from chicago.bots.solver import Position, can_win_last_trick
from chicago.cards import parse_cards
from chicago.engine.knowledge import knowledge
from chicago.engine.sampling import consistent, sample_hands


def _ids(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def test_model_card_is_the_basic_trick_play_R_TRICK_2_R_TRICK_4():
    """The model plays exactly what ``basic`` plays, from its own hand and the table."""
    rules = Rules.preset("pagat")
    bot = make_bot("basic")
    checked = 0
    for seed in range(4):
        game = Game(rules, players=4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.deal_number <= 4:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            legal = game.legal_actions()
            action = bot.decide(view, legal, rng)
            if view.phase == "play":
                hand = [int(c) for c in view.hand]
                table = [int(p.card) for p in view.trick]
                assert model_card(hand, table) == int(action.card)
                checked += 1
            game.apply(action)
    assert checked > 200


def test_model_card_examples_R_TRICK_4():
    # Leads low and keeps the top card of its longest suit.
    assert model_card(_ids("As 9s 3s Kd 2c"), []) == _ids("2c")[0]
    # Follows low; cannot follow: throws from the shortest suit.
    assert model_card(_ids("As 9s 3s Kd 2c"), _ids("Qs")) == _ids("3s")[0]
    assert model_card(_ids("As 9s 3s Kd 2c"), _ids("Qh")) == _ids("2c")[0]
    # Trick four: wins cheaply with the other card to lead the saved one.
    assert model_card(_ids("As Kd"), _ids("Qd")) == _ids("Kd")[0]


def _brute(position: Position, seat: int) -> bool:
    """Plain recursion: ``seat`` picks any card, the others play the model."""
    if position.is_over:
        return position.leader == seat
    if position.to_act == seat:
        return any(_brute(position.play(c), seat) for c in position.legal_moves())
    hand = [int(c) for c in position.hand(position.to_act)]
    card = model_card(hand, [int(c) for c in position.played])
    return _brute(position.play(card), seat)


def _deal(rng: random.Random, players: int, size: int) -> Position:
    cards = rng.sample(range(52), players * size)
    hands = tuple(sum(1 << c for c in cards[i * size:(i + 1) * size]) for i in range(players))
    return Position(hands, rng.randrange(players))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_model_search_matches_plain_recursion_R_TRICK_3(players):
    rng = random.Random(players)
    for _ in range(60):
        position = _deal(rng, players, rng.randint(1, 4))
        for seat in range(players):
            assert model_wins(position, seat) == _brute(position, seat)
        moves = model_moves(position)
        assert set(moves) == set(position.legal_moves())
        for card, ok in moves.items():
            assert ok == model_wins(position.play(card), position.to_act)


def test_a_sure_last_trick_is_won_against_the_model():
    """The model is one defence among all: a guaranteed last trick is won against it too."""
    rng = random.Random(9)
    for _ in range(200):
        position = _deal(rng, 4, 4)
        for seat in range(4):
            if can_win_last_trick(position, seat):
                assert model_wins(position, seat)


def test_keep_weights_R_EX_1():
    """Kept cards are probably pairs, draws or high cards (weights relative to 1)."""
    assert keep_weight(_ids("As 7d 5c 3h 2s"), 1) == 1.0  # kept the ace
    assert keep_weight(_ids("9s 7d 5c 3h 2s"), 1) < 0.2  # kept a low card
    assert keep_weight(_ids("9s 9d 5c 3h 2s"), 2) == 1.0  # kept the pair
    assert keep_weight(_ids("Js 8d 5c 3h 2s"), 2) <= 0.1
    assert keep_weight(_ids("9s 9d Ac 3h 2s"), 3) == 1.0  # a pair and an ace
    assert keep_weight(_ids("9s 9d 5c 5h 2s"), 4) == 1.0  # two pairs
    assert keep_weight(_ids("9s 8s 5s 3s 2d"), 4) == 1.0  # a four-flush
    assert keep_weight(_ids("9s 8d 7c 6h 2d"), 4) == 0.8  # a four-straight
    assert keep_weight(_ids("5s 4d 3c 2h Ad"), 5) == 1.0  # the wheel
    assert keep_weight(_ids("9s 8d 5c 3h 2s"), 5) < 0.1
    assert keep_weight(_ids("9s 8d 5c 3h 2s"), 0) == 1.0  # drew five: anything


def _chicago_call(seed: int) -> tuple[Game, object]:
    """A game at its Chicago call after basic players exchanged (R-CHI-1)."""
    game = Game(Rules.preset("pagat"), players=4, seed=seed)
    bot = make_bot("basic")
    rng = random.Random(seed)
    while game.phase.value not in ("chicago", "play"):
        seat = game.to_act
        game.apply(bot.decide(game.view(seat), game.legal_actions(), rng))
    return game, knowledge(game.view(game.to_act))


def test_weighted_samples_fit_and_hold_more_aces_R_EX_3():
    """Weighted samples keep every public constraint, and give players who drew four cards
    more of the aces than uniform samples do (they kept an ace or a high card)."""
    aces = _ids("Ac Ad Ah As")
    counts = {False: 0, True: 0}
    for seed in range(6):
        game, k = _chicago_call(seed)
        rng = random.Random(seed)
        for weighted in (False, True):
            for _ in range(60):
                hands = sample_hands(k, rng, weight=hand_weight if weighted else None)
                assert consistent(k, hands) == []
                for opp in k.opponents.values():
                    if opp.exchanges and opp.exchanges[-1] == 4:
                        counts[weighted] += sum(1 for a in aces if hands[opp.seat] >> a & 1)
                        cards = [c for c in range(52) if hands[opp.seat] >> c & 1]
                        assert 0 < hand_weight(k, opp, cards) <= 1
        del game
    assert counts[True] > 1.2 * counts[False] > 0


def test_expert_search_options():
    assert parse_options("expert:model=0.5;weighted=0;chicago=0.7;holds=3") == {
        "model": 0.5, "weighted": 0.0, "chicago": 0.7, "holds": 3.0}
    bot = make_bot("expert:model=0;weighted=0;holds=0")
    assert isinstance(bot, ExpertBot) and not bot.model and not bot.weighted and not bot.holds
    for bad in ("expert:model=2", "expert:chicago=0", "expert:chicago=1.5"):
        with pytest.raises(ValueError):
            make_bot(bad)


def test_expert_last_exchange_search_is_legal_and_deterministic_R_EX_1():
    """In the last exchange the expert searches its best holds; the discard is legal and the
    same for the same rng."""
    rules = Rules.preset("pagat")
    expert = make_bot("expert:samples=10;holds=4")
    basic = make_bot("basic")
    searched = 0
    for seed in range(3):
        game = Game(rules, players=4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.deal_number <= 2:
            seat = game.to_act
            view = game.view(seat)
            legal = game.legal_actions()
            if seat == 0:
                action = expert.decide(view, legal, random.Random(seed))
                if view.phase == "exchange" and view.round == rules.exchanges:
                    assert action == expert.decide(view, legal, random.Random(seed))
                    searched += 1
            else:
                action = basic.decide(view, legal, rng)
            assert action in legal
            game.apply(action)
    assert searched >= 3
