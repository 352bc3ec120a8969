"""The Markov chain over the hidden cards (``master:chain=N``, :mod:`chicago.bots.
worldchain`): every world it reaches fits the seat's view (R-TRICK-2: no card of a suit a
player showed void), it keeps a world's weight law (a world of weight 0 is never entered
from one that weighs something; without weights every hidden card wanders), a seed fixes
it, and ``master`` with it decides by the view alone; it runs only against a rules
player."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots.master import MasterBot
from chicago.bots.playmodel import observed_plays
from chicago.bots.worldchain import free_seats, movable_cards, walk
from chicago.cards import ids_of_mask
from chicago.engine.knowledge import Knowledge, knowledge
from chicago.engine.sampling import consistent, sample_hands
from chicago.sim import derive_seed, duplicate_game
from test_bots_isolation import _relabelled


def _trick_views(seed: int, deals: int, spec: str = "basic",
                 observe: Callable[[Game], None] | None = None) -> list[Knowledge]:
    """Seat 0's knowledge at each of its trick decisions with a choice and an opponent's card
    seen, in a pagat game of four ``basic`` up to deal ``deals`` (``observe`` sees the game
    there first)."""
    game = duplicate_game(Rules.preset("pagat"), 4, seed=derive_seed(seed, 0, 1),
                          deck_seed=derive_seed(seed, 0, 2))
    bots = [make_bot(spec if s == 0 else "basic") for s in range(4)]
    rngs = [random.Random(seed * 10 + s) for s in range(4)]
    out = []
    while not game.is_over and game.deal_number <= deals:
        seat = game.to_act
        assert seat is not None
        if seat == 0 and str(game.phase) == "play" and len(game.legal_actions()) > 1:
            k = knowledge(game.view(seat))
            if observed_plays(k):
                out.append(k)
                if observe is not None:
                    observe(game)
        game.apply(bots[seat].decide(game.view(seat), game.legal_actions(), rngs[seat]))
    return out


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), chain_seed=st.integers(0, 1000),
       steps=st.integers(1, 60), bias=st.integers(0, 51))
@example(seed=8505, chain_seed=0, steps=1, bias=0)  # a claimed full house beside a kept pair
def test_every_world_the_chain_reaches_fits_the_view_R_TRICK_2(
    seed: int, chain_seed: int, steps: int, bias: int
) -> None:
    """Whatever the weights (here any positive factor that favours one card), every world a
    walk reaches keeps every hand's size, the seat's own hand, the voids, the known and the
    claimed cards: :func:`~chicago.engine.sampling.consistent` finds nothing wrong. The walk
    starts from a world that fits (``exact``): the quick sampler may drop its softest
    constraint in a rare tangle (seed 8505: one player's claimed full house and another's
    protected pair of tens, R-ANN-1 and R-EX-4), and a walk cannot mend what it starts
    from."""
    rng = random.Random(chain_seed)

    def factor(seat: int, held: int) -> float:
        return 3.0 if held >> bias & 1 else 1.0 + seat / 10

    for k in _trick_views(seed, 2)[:6]:
        start = sample_hands(k, rng, exact=True)
        assert consistent(k, start) == []
        end = walk(k, start, steps, factor, rng)
        assert consistent(k, end) == [], (start, end)
        assert [h.bit_count() for h in end] == [h.bit_count() for h in start]


def test_a_world_of_weight_0_is_never_entered_and_a_seed_fixes_the_walk() -> None:
    """With a weight that rules out seat 1 holding a given card, a walk from a world where
    it does not hold it never puts it there; the same seed walks the same way; without
    weights (every world alike) the walks reach many distinct worlds, each hidden card of a
    free opponent landing in its hand about as often as its share says; a weight three
    times as large wherever the opponent holds a given card makes the chance ``p`` that it
    holds it ``3p / (3p + 1 - p)`` (the law the chain keeps)."""
    views = _trick_views(5, 2)
    assert views
    reached = 0
    for number, k in enumerate(views[:6]):
        start = sample_hands(k, random.Random(number))
        seats = free_seats(k, start)
        if 1 not in seats:
            continue
        movable = movable_cards(k, start, seats)
        banned = next(c for c in range(52) if movable >> c & 1 and not start[1] >> c & 1)

        def factor(seat: int, held: int, banned: int = banned) -> float:
            return 0.0 if seat == 1 and held >> banned & 1 else 1.0

        for chain in range(20):
            end = walk(k, start, 40, factor, random.Random(chain))
            assert not end[1] >> banned & 1
            assert end == walk(k, start, 40, factor, random.Random(chain))
        reached += 1
    assert reached
    k = views[0]
    start = sample_hands(k, random.Random(0))
    worlds = [walk(k, start, 60, lambda s, h: 1.0, random.Random(i)) for i in range(400)]
    assert len({tuple(w) for w in worlds}) > 300
    seats = free_seats(k, start)
    movable = movable_cards(k, start, seats)
    plain = 0
    for seat in seats:
        opp = k.opponents[seat]
        free = (start[seat] & movable).bit_count()
        if not free or opp.voids or opp.claim is not None or opp.kept:
            continue  # a void or a claim makes the shares unequal; the plain case is checked
        plain += 1
        share = free / movable.bit_count()
        for card in ids_of_mask(movable):
            seen = sum(1 for w in worlds if w[seat] >> card & 1) / len(worlds)
            assert seen == pytest.approx(share, abs=0.12)
    assert plain
    seat = seats[0]
    card = next(c for c in ids_of_mask(movable) if not start[seat] >> c & 1
                and not k.opponents[seat].voids >> (c & 3) & 1)
    base = sum(1 for w in worlds if w[seat] >> card & 1) / len(worlds)

    def favour(s: int, held: int) -> float:
        return 3.0 if s == seat and held >> card & 1 else 1.0

    tilted = [walk(k, start, 60, favour, random.Random(i)) for i in range(400)]
    share = sum(1 for w in tilted if w[seat] >> card & 1) / len(tilted)
    assert share == pytest.approx(3 * base / (3 * base + 1 - base), abs=0.08)


@pytest.mark.parametrize("spec", ["master:chain=10;samples=10",
                                  "master:exrule=2;samples=10",
                                  "master:exrule=1;chain=10;samples=10",
                                  "master:annrule=1;samples=10",
                                  "master:exrule=1;annrule=1;chain=10;samples=10",
                                  "master:exrule=1;exkept=1;samples=10"])
def test_master_with_the_chain_decides_by_the_view_alone_and_a_seed_fixes_it(
        spec: str) -> None:
    """At trick decisions from the third deal of a game against three ``basic`` (whose
    players the earlier deals show to play the rules of thumb), a copy of the game whose
    hidden cards are dealt anew (the same view) gets the same card, seed for seed, and every
    world searched fits the view: with the chain, with ``exrule`` (``basic``'s exchange
    rule as the dealing weight, tests/test_exchangerule.py) alone and with both, with
    ``annrule`` (``basic``'s announcements and passes, tests/test_announcerule.py) alone
    and with both, and with ``exkept`` (the rule read for protected combinations too)."""
    bot = make_bot(spec)
    assert isinstance(bot, MasterBot) and (bot.chain, bot.exrule, bot.annrule) in (
        (10, 0, 0), (0, 2, 0), (10, 1, 0), (0, 0, 1), (10, 1, 1), (0, 1, 0))
    rng = random.Random(3)
    checked = 0

    def compare(game: Game) -> None:
        nonlocal checked
        if game.deal_number < 3:
            return
        view = game.view(0)
        copy = _relabelled(game, 0, rng)
        assert copy.view(0) == view
        here = bot.decide(view, game.legal_actions(), random.Random(checked))
        there = bot.decide(copy.view(0), copy.legal_actions(), random.Random(checked))
        assert here == there
        k = knowledge(view)
        for position in bot._positions(k, random.Random(checked), None):
            assert consistent(k, list(position.hands)) == []
        checked += 1

    _trick_views(11, 5, spec, compare)
    assert checked > 5


def test_the_chain_runs_only_against_a_rules_player() -> None:
    """In a game's first deal nobody is known to play the rules of thumb (each model at its
    prior): ``chain=20`` searches exactly the worlds and card of ``chain=0``."""
    for k in _trick_views(8, 1)[:5]:
        worlds = []
        for spec in ("master:samples=8", "master:samples=8;chain=20"):
            bot = make_bot(spec)
            assert isinstance(bot, MasterBot)
            worlds.append([p.hands for p in bot._positions(k, random.Random(1), None)])
        assert worlds[0] == worlds[1]


def test_the_chain_option_is_checked() -> None:
    """``chain`` takes whole numbers 0-1000 and needs ``infer=3``."""
    assert MasterBot().chain == 0
    bot = make_bot("master:chain=1000")
    assert isinstance(bot, MasterBot) and bot.chain == 1000
    for bad in ("master:chain=-1", "master:chain=1001", "master:chain=2.5",
                "master:chain=abc", "master:infer=2;chain=5"):
        with pytest.raises(ValueError, match="chain"):
            make_bot(bad)
    with pytest.raises(ValueError, match="chain"):
        MasterBot(chain=-3)
