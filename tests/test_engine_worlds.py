"""Sampled worlds (determinizations) fit everything public, and the engine refuses one that
does not (issue 19, item 8).

OpenSpiel's ISMCTS bot died with ``IndexError`` in ``Game._tiebreak``: a world made by
``resample_from_infostate`` had a hand that did not fit its announcement (the sampler had
dropped the claim after failing to build it under a shown hand, R-EX-4), and the staged
tie-break (R-ANN-3) read the stages of the real hands of the announced category. Now every
world fits every announcement, revealed rank (R-ANN-3), shown and kept combination (R-EX-4),
four-of-a-kind claim (V-QUADS-RESET) and void (R-TRICK-2), or :class:`WorldError` says why.
"""

from __future__ import annotations

import random

import pytest

from chicago import Game, Phase, Rules, WorldError
from chicago.cards import mask_of, parse_cards
from chicago.engine.knowledge import knowledge
from chicago.engine.sampling import consistent
from chicago.env.determinize import resample
from chicago.poker import Category
from chicago.rules import PRESETS

VARIATIONS: list[tuple[str, ...]] = [
    (),
    ("V-TIE-SUIT",),
    ("V-ONE-UP",),
    ("V-QUADS-RESET",),
    ("V-QUADS-RESET", "V-ONE-UP"),
    ("V-LOCK-6",),
    ("V-REDEAL-LOW",),
    ("V-ROYAL",),
    ("V-TIE-CATEGORY",),
]


def _greedy_walk(rules: Rules, seed: int, players: int = 4):
    """A game that announces whenever it may (many claims and ties) and otherwise plays at
    random; yields the game before each decision."""
    rng = random.Random(seed)
    game = Game(rules, players, seed=seed)
    while not game.is_over and game.deal_number < 4:
        yield game, rng
        legal = game.legal_actions()
        action = legal[-1] if game.phase is Phase.ANNOUNCE else rng.choice(legal)
        game.apply(action)


def _shown_then_claimed() -> tuple[Game, int]:
    """pagat, seed 1: seat 2 showed 2h 2s 5s Js Ks (R-EX-4), exchanged one, and now
    announces a pair again; seat 3 is to announce. The old sampler rarely kept exactly four
    of the shown cards inside a pair, gave up the claim and dealt seat 2 any hand."""
    rng = random.Random(1)
    game = Game(Rules.preset("pagat"), 4, seed=1)
    while len(game.actions) < 13:
        if game.phase is not Phase.ANNOUNCE:
            rng.random()
        legal = game.legal_actions()
        game.apply(legal[-1] if game.phase is Phase.ANNOUNCE else rng.choice(legal))
    assert game.to_act is not None
    return game, game.to_act


def test_resample_keeps_a_claim_made_after_a_shown_hand_R_EX_4_R_ANN_1():
    """R-EX-4 / R-ANN-1: every world keeps seat 2's pair and exactly four shown cards."""
    game, seat = _shown_then_claimed()
    assert game.phase is Phase.ANNOUNCE and seat == 3
    shown = mask_of(parse_cards("2h 2s 5s Js Ks"))
    k = knowledge(game.view(seat))
    assert k.opponents[2].kept_from_shown == 4
    for i in range(300):
        world = resample(game, seat, random.Random(i))
        hand = world.hands[2]
        assert world.hand_value(2).category is Category.PAIR  # type: ignore[union-attr]
        assert (mask_of(hand) & shown).bit_count() == 4
        assert not consistent(k, [mask_of(h) for h in world.hands])


def test_rollouts_from_resampled_worlds_never_crash_R_ANN_3():
    """R-ANN-3: from the position above, random rollouts to the end of the deal in many
    worlds: the staged tie-break always finds the stages it reveals."""
    game, seat = _shown_then_claimed()
    for i in range(300):
        rng = random.Random(i)
        world = resample(game, seat, rng)
        while not world.is_over and world.deal_number == game.deal_number:
            world.apply(rng.choice(world.legal_actions()))


def test_a_world_that_contradicts_an_announcement_is_refused_R_ANN_1():
    """R-ANN-1: hands that do not fit the announcements raise WorldError naming the seat,
    never an IndexError in the tie-break."""
    game, seat = _shown_then_claimed()
    world = resample(game, seat, random.Random(0))
    # give seat 2 a hand without a pair: swap it with cards from the stock
    stock = list(world._stock)
    world._stock = list(world.hands[2])
    no_pair = []
    for card in stock:
        if all(card.rank != c.rank for c in no_pair):
            no_pair.append(card)
        if len(no_pair) == 5:
            break
    world.hands[2] = no_pair
    world._categories = [None] * world.players
    with pytest.raises(WorldError, match="seat 2 announced pair but holds high card") as caught:
        while world.phase is Phase.ANNOUNCE:
            world.apply(world.legal_actions()[0])
    assert caught.value.seat == 2


def test_resample_fuzz_across_presets_and_variations_R_ANN_3_R_EX_4_V_QUADS_RESET():
    """Thousands of resamples with random rollouts, every preset and many variations
    (R-ANN-3, R-EX-4, R-TRICK-2, V-ONE-UP, V-QUADS-RESET, V-LOCK-6, V-REDEAL-LOW): each
    world fits the seat's knowledge and plays to the end of the deal without an error."""
    count = 0
    for preset in PRESETS:
        for index, variations in enumerate(VARIATIONS):
            try:
                rules = Rules.preset(preset).with_variations(*variations)
            except ValueError:
                continue
            for seed in range(31 * index + len(preset), 31 * index + len(preset) + 3):
                for game, rng in _greedy_walk(rules, seed, players=3 + seed % 2):
                    decisive = game.phase in (Phase.ANNOUNCE, Phase.QUADS, Phase.QUADS_CHOICE)
                    if not decisive and rng.random() >= 0.2:
                        continue
                    seat = game.to_act
                    assert seat is not None
                    world = resample(game, seat, rng)
                    count += 1
                    if count % 5 == 0:
                        k = knowledge(game.view(seat))
                        assert not consistent(k, [mask_of(h) for h in world.hands])
                    while not world.is_over and world.deal_number == game.deal_number:
                        world.apply(rng.choice(world.legal_actions()))
    assert count >= 2000


@pytest.mark.parametrize("duplicate", [False, True])
def test_restock_reorders_only_the_stock_nobody_has_seen_R_EX_2(duplicate: bool) -> None:
    """R-EX-2: the stock is drawn unseen, so a copy with the same cards in a new order looks
    the same from every seat; it draws other cards than the game, each per-seat queue of
    duplicate play keeps its length, and both play on to the end legally."""
    from chicago.engine.worlds import restock
    from chicago.sim import duplicate_game

    rules = Rules.preset("pagat")
    game = (duplicate_game(rules, 4, seed=3, deck_seed=4) if duplicate
            else Game(rules, players=4, seed=3))
    world = restock(game, random.Random(5))
    assert all(world.view(seat) == game.view(seat) for seat in range(4))
    assert world.stock_count == game.stock_count
    seat = game.to_act
    assert seat is not None
    throw = max(game.legal_actions(), key=lambda a: len(a.cards))
    for copy in (game, world):
        copy.apply(throw)  # the whole hand, drawn again from the stock
    assert world.view(seat).hand != game.view(seat).hand
    for copy in (game, world):
        rng = random.Random(9)
        while not copy.is_over and copy.deal_number == 1:
            copy.apply(rng.choice(copy.legal_actions()))
    assert world.deal_number == game.deal_number == 2
