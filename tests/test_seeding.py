"""A generator seeded on its first draw gives the draws of one seeded at once (issue 28).

The table server hands each bot decision a :class:`chicago.seeding.SeededOnUse` seeded from
the table's secret, the sequence number and the seat; the choices must be exactly those of
``random.Random`` with the same seed, so a table's games stay what its seed makes them.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.seeding import SeededOnUse

seeds = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.text(max_size=40),
                  st.binary(max_size=20))


def _draws(rng: random.Random) -> list[object]:
    """A run of every kind of draw a bot might make."""
    items = list(range(20))
    rng.shuffle(items)
    return [rng.random(), rng.randrange(1000), rng.randint(-5, 5), rng.choice("abcdefg"),
            items, rng.sample(range(100), 7), rng.choices(range(10), k=4), rng.uniform(1, 2),
            rng.getrandbits(70), rng.gauss(0, 1), rng.randbytes(5), rng.random()]


@settings(max_examples=200)
@given(seeds)
def test_draws_are_those_of_a_generator_seeded_at_once(seed: int | str | bytes) -> None:
    assert _draws(SeededOnUse(seed)) == _draws(random.Random(seed))


@given(seeds)
def test_state_pickle_and_copy_are_those_of_the_seeded_generator(
        seed: int | str | bytes) -> None:
    """Asked for its state before any draw, it is seeded first; a pickled or copied one
    draws on as the original would."""
    assert SeededOnUse(seed).getstate() == random.Random(seed).getstate()
    for make in (lambda r: pickle.loads(pickle.dumps(r)), copy.copy, copy.deepcopy):
        fresh = make(SeededOnUse(seed))
        assert _draws(fresh) == _draws(random.Random(seed))
        used = SeededOnUse(seed)
        used.random()
        expected = random.Random(seed)
        expected.random()
        assert _draws(make(used)) == _draws(expected)


def test_seed_and_setstate_replace_the_waiting_seed() -> None:
    rng = SeededOnUse("first")
    rng.seed("second")
    assert _draws(rng) == _draws(random.Random("second"))
    rng = SeededOnUse("first")
    rng.setstate(random.Random(7).getstate())
    assert _draws(rng) == _draws(random.Random(7))


def test_unseeded_draws_come_from_the_system_as_random_random_none() -> None:
    """``SeededOnUse()`` (no seed) seeds from the system when first used, as
    ``random.Random()`` does: two of them differ."""
    assert SeededOnUse().getrandbits(128) != SeededOnUse().getrandbits(128)


@pytest.mark.parametrize("level", ["random", "basic", "ev", "expert"])
def test_bots_choose_the_same_with_a_generator_seeded_on_use(level: str) -> None:
    """Whole games of each built-in quick level: every decision given a ``SeededOnUse`` is
    the decision given ``random.Random`` with the same seed (the server's seeds)."""
    bot = make_bot(level)
    for game_seed in (1, 2):
        game = Game(Rules.preset("pagat"), players=4, seed=game_seed)
        steps = 0
        while not game.is_over and steps < 120:
            seat = game.to_act
            assert seat is not None
            key = f"secret:{steps}:{seat}"
            view, legal = game.view(seat), game.legal_actions()
            action = bot.decide(view, legal, SeededOnUse(key))
            assert action == bot.decide(view, legal, random.Random(key))
            game.apply(action)
            steps += 1
