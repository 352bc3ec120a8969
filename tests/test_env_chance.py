"""Explicit chance (chicago.env.chance) and resampling (chicago.env.determinize).

The engine stays the single source of the rules: fed the cards the engine itself would deal
and draw (R-TABLE-4, R-EX-1, R-EX-2 reshuffles, V-ONE-UP, V-REDEAL-LOW, V-LOCK-6), the
chance table replays exactly the engine's game. Resampling keeps the seat's information
and never reads the hidden cards."""

from __future__ import annotations

import random

import pytest

from chicago import Game, IllegalAction, Rules
from chicago.cards import Card
from chicago.engine.sources import CardSource
from chicago.env.chance import ChanceCards, ChanceTable
from chicago.env.determinize import resample
from engine_helpers import stack

CONFIGS = [
    (Rules.preset("pagat", max_deals=3), 4),
    (Rules.preset("wikipedia", max_deals=3).with_variations("V-ONE-UP", "V-REDEAL-LOW",
                                                            "V-QUADS-RESET"), 4),
    (Rules.preset("wikipedia-42", max_deals=3, lock_at=1), 3),
    (Rules.preset("pagat", max_deals=2).with_variations("V-LARGE"), 6),
]


class _Recording(CardSource):
    """The plain card source, noting every card it hands out."""

    __slots__ = ("taken",)

    def __init__(self) -> None:
        super().__init__()
        self.taken: list[Card] = []

    def take(self, stock: list[Card], seat: int) -> Card:
        card = super().take(stock, seat)
        self.taken.append(card)
        return card


@pytest.mark.parametrize(("rules", "players"), CONFIGS)
def test_chance_table_replays_the_engine_exactly(rules, players):
    """Given the engine's own cards as chance outcomes, every event is the same: the hook
    changes nothing else (R-TABLE-4, R-EX-1, R-EX-2, V-ONE-UP, V-REDEAL-LOW, V-LOCK-6)."""
    for seed in range(3):
        recording = _Recording()
        engine = Game(rules, players, seed=seed, source=recording)
        dealt = list(recording.taken)
        rng = random.Random(seed)
        table = ChanceTable(rules, players)
        assert table.chance_kind == "dealer"
        table.apply_chance(engine.dealer)
        for card in dealt:
            assert table.chance_kind == "card" and int(card) in table.candidates
            table.apply_chance(int(card))
        while not engine.is_over:
            assert table.chance_kind is None
            assert table.game is not None
            assert table.game.legal_actions() == engine.legal_actions()
            action = rng.choice(engine.legal_actions())
            before = len(recording.taken)
            engine.apply(action)
            table.apply(action)
            for card in recording.taken[before:]:
                assert table.chance_kind == "card"
                assert int(card) in table.candidates
                table.apply_chance(int(card))
        assert table.chance_kind is None and table.game is not None
        assert [e.to_json() for e in table.game.events] == [e.to_json() for e in engine.events]
        table.game._check_invariants()


def test_candidates_are_the_stock_then_the_reshuffled_pile():
    """R-EX-2: each card is uniform over the stock; with the stock empty, over the discard
    pile as it was before the player's exchange (six players discarding five each)."""
    rules = Rules.preset("pagat", max_deals=1).with_variations("V-LARGE")
    table = ChanceTable(rules, 6)
    table.apply_chance(0)
    seen = 0
    while table.chance_kind == "card":
        assert len(table.candidates) == 52 - seen
        table.apply_chance(table.candidates[-1])
        seen += 1
    assert seen == 30
    game = table.game
    assert game is not None
    while game.phase.value == "exchange":
        stock = sorted(int(c) for c in game._stock)
        pile = sorted(int(c) for c in game._discards)
        table.apply(next(a for a in game.legal_actions() if len(a.cards) == 5))
        while table.chance_kind == "card":
            source = stock if stock else pile
            assert list(table.candidates) == source
            choice = table.candidates[len(source) // 2]
            source.remove(choice)
            table.apply_chance(choice)
        assert table.game is not None
        game = table.game
    assert any(e.type == "reshuffle" for e in game.events)


def test_illegal_action_changes_nothing():
    table = ChanceTable(Rules.preset("pagat"), 4)
    table.apply_chance(1)
    while table.chance_kind:
        table.apply_chance(table.candidates[0])
    game = table.game
    with pytest.raises(IllegalAction):
        table.apply("play As")
    assert table.game is game and table.chance_kind is None
    with pytest.raises(ValueError, match="not a possible chance outcome"):
        table.apply_chance(60)
    with pytest.raises(ValueError, match="chance must act first"):
        ChanceTable(Rules.preset("pagat"), 4).apply("keep")


def test_chance_game_copy_keeps_its_card_source():
    table = ChanceTable(Rules.preset("pagat"), 2)
    table.apply_chance(0)
    while table.chance_kind:
        table.apply_chance(table.candidates[0])
    assert table.game is not None and isinstance(table.game.source, ChanceCards)
    copied = table.game.copy()
    assert isinstance(copied.source, ChanceCards) and copied.source is not table.game.source
    clone = table.copy()
    clone.apply("keep")
    assert table.game.actions == [] and clone.game is not None


@pytest.mark.parametrize(("rules", "players"), CONFIGS)
def test_resample_keeps_the_seats_information(rules, players):
    """The resampled world gives the seat the same view, event log and legal actions; every
    card is in one place; the world plays on to the end of the deal."""
    count = 0
    for seed in range(3):
        game = Game(rules, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act
            if rng.random() < 0.25:
                world = resample(game, seat, random.Random(count))
                count += 1
                world._check_invariants()
                assert world.view(seat) == game.view(seat)
                assert world.events_for(seat) == game.events_for(seat)
                assert world.legal_actions() == game.legal_actions()
                play = random.Random(count)
                while not world.is_over and world.deal_number == game.deal_number:
                    world.apply(play.choice(world.legal_actions()))
                world._check_invariants()
            game.apply(rng.choice(game.legal_actions()))
    assert count > 20


def test_resample_never_reads_the_hidden_cards():
    """Two deals that differ only in cards seat 1 cannot see resample to the same world."""
    first = stack(4, 0, {1: "2c 5d 9h Js Ad", 2: "3c 6d Th Qs Kd", 3: "4c 7d 8h Ks Ac"})
    second = stack(4, 0, {1: "2c 5d 9h Js Ad", 2: "4c 7d 8h Ks Ac", 3: "3c 6d Th Qs Kd"})
    a = Game(Rules.preset("pagat"), 4, decks=[first], dealer=0, seed=1)
    b = Game(Rules.preset("pagat"), 4, decks=[second], dealer=0, seed=1)
    wa = resample(a, 1, random.Random(7))
    wb = resample(b, 1, random.Random(7))
    assert wa.hands == wb.hands
    assert sorted(wa._stock) == sorted(wb._stock)
    assert wa.hands[2] != a.hands[2] or wa.hands[3] != a.hands[3]


def test_resample_of_a_chance_game_keeps_its_card_source():
    table = ChanceTable(Rules.preset("pagat"), 4)
    table.apply_chance(0)
    while table.chance_kind:
        table.apply_chance(table.candidates[0])
    assert table.game is not None
    world = resample(table.game, table.game.to_act, random.Random(1))
    assert isinstance(world.source, ChanceCards)


def test_resampled_worlds_protect_kept_combinations_R_EX_4():
    """A player who announced a round's highest category and exchanged since without
    showing kept that combination: in every resampled world it holds one such
    combination, and it is protected there as in the game (breaking it would show the
    hand)."""
    from chicago.bots import make_bot
    from chicago.engine.knowledge import knowledge
    from chicago.engine.sampling import holds_kept

    bots = [make_bot("basic") for _ in range(4)]
    checked = 0
    for seed in range(10):
        game = Game(Rules.preset("pagat"), 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.deal_number <= 3:
            seat = game.to_act
            view = game.view(seat)
            k = knowledge(view)
            for other, opp in k.opponents.items():
                if opp.kept and opp.claim is None and k.phase in ("exchange", "announce"):
                    world = resample(game, seat, random.Random(checked))
                    held = [*map(int, world.played[other]), *map(int, world.hands[other])]
                    assert all(holds_kept(held, c, game.rules) for c in opp.kept)
                    assert world._protected[other]
                    assert world._protected[other] & ~sum(1 << c for c in held) == 0
                    checked += 1
            game.apply(bots[seat].decide(view, game.legal_actions(), rng))
    assert checked > 10
