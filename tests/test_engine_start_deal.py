"""The accelerator's new deal (``Game._start_deal`` in C, issue 28's twenty-sixth pass)
against the pure-Python one (``Game._start_deal_python``).

The C method deals the plain flow (a card source of its own class past its stacked decks,
no win-again, no low-hand redeal; V-LOCK-6's sixth card since the thirty-fourth pass)
and hands every other deal to the Python method. Random games of every preset, with random
sets of variations and options, 2-6 players, plain, stacked and duplicate card sources,
are played in lockstep by two games that differ only in their new deal (both with the C
turns): after every action every declared attribute of the two is the same (the
generator's state, the records of events not made yet and where a deal's events start
included), and at the end their events and records.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given

from chicago import Game, Rules
from chicago.cards import DECK
from chicago.engine import state as state_module
from chicago.engine.native import ENGINE
from test_engine_accelerator import LOCKSTEP, choose, make_game, tables

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")


class PythonDeals(Game):
    """The C turns with the pure-Python new deal."""

    _start_deal = Game._start_deal_python


def make(cls: type[Game], table: tuple[Rules, int, int, str]) -> Game:
    """A new game of ``cls`` at ``table`` (:func:`test_engine_accelerator.make_game`)."""
    return make_game(cls, table)


def play_in_lockstep(table: tuple[Rules, int, int, str], other: type[Game]) -> None:
    """Plays a random game at ``table`` with a :class:`Game` and, action for action, with
    ``other`` (a subclass that differs in one method): every declared attribute of the two
    the same at the start and after every action (a copy of both goes on now and then),
    and their events and records at the end."""
    fast, slow = make(Game, table), make(other, table)
    assert slots(fast) == slots(slow)
    rng = random.Random(table[2])
    while not fast.is_over:
        action = choose(fast, fast.legal_actions(), rng)
        fast.apply(action)
        slow.apply(action)
        assert slots(fast) == slots(slow), f"{action} at deal {fast.deal_number}"
        if rng.random() < 0.05:  # a copy goes on the same way
            fast, slow = fast.copy(), slow.copy()
    assert fast.events == slow.events and fast.record() == slow.record()


NAMES = tuple(state_module._plan(Game)[0])


def slots(game: Game) -> dict[str, Any]:
    """Every declared attribute of ``game``, as a value to compare."""
    found: dict[str, Any] = {}
    for name in NAMES:
        value = getattr(game, name)
        if name == "_rng":
            value = value.getstate()
        elif name == "_source":
            value = (type(value).__name__, vars(value) if hasattr(value, "__dict__") else
                     tuple(getattr(value, s) for s in type(value).__slots__))
        elif name == "_memo":
            value = value is None
        found[name] = value
    return found


def test_the_c_deal_is_in_place() -> None:
    assert Game._start_deal is not Game._start_deal_python
    assert PythonDeals._start_deal is Game._start_deal_python


@LOCKSTEP
@given(tables())
def test_c_and_python_deals_make_the_same_games(table: tuple[Rules, int, int, str]) -> None:
    """Every preset and variation (R-DEAL-*, V-*): a game dealing in C and one dealing in
    Python hold the same attributes, every one, after every action, and the same events and
    record at the end."""
    play_in_lockstep(table, PythonDeals)


def test_a_first_deal_in_c_is_the_pythons() -> None:
    """A new game's first deal (made in its constructor) is the same in C and in Python,
    for every preset and number of players."""
    from chicago.rules import PRESETS
    for preset in sorted(PRESETS):
        for players in range(2, 7):
            for seed in range(5):
                rules = Rules.preset(preset)
                if players > 4:
                    rules = rules.with_variations("V-LARGE")
                assert slots(Game(rules, players, seed=seed)) == slots(
                    PythonDeals(rules, players, seed=seed))


def test_the_shuffle_draws_as_random_shuffle_across_the_generators_refills() -> None:
    """sources.shuffle (C, drawing from the Mersenne Twister's state directly since the
    twenty-sixth pass) orders the cards and leaves the generator as random.shuffle does,
    wherever in the generator's block of 624 words the shuffle starts (R-DEAL-1)."""
    from chicago.engine import sources
    for skip in range(0, 1400, 7):
        for size in (2, 5, 52):
            expected, fast = list(range(size)), list(range(size))
            a, b = random.Random(skip), random.Random(skip)
            for _ in range(skip):
                a.getrandbits(32)
                b.getrandbits(32)
            a.shuffle(expected)
            sources.shuffle(b, fast)
            assert fast == expected and a.getstate() == b.getstate()


def test_a_generator_that_draws_its_own_way_is_asked() -> None:
    """A generator whose class has a getrandbits of its own is drawn from through it."""
    from chicago.engine import sources

    class Counted(random.Random):
        calls = 0

        def getrandbits(self, k: int, /) -> int:
            Counted.calls += 1
            return super().getrandbits(k)

    expected, fast = list(range(52)), list(range(52))
    random.Random(4).shuffle(expected)
    sources.shuffle(Counted(4), fast)
    assert fast == expected and Counted.calls >= 51


def test_the_c_taken_trick_is_the_pythons() -> None:
    """views._taken in C (the deal's record made at its end: issue 28, twenty-sixth pass)
    makes the TakenTrick views._taken_python makes, of the same shared PlayedCards, kept in
    and read from the same memo, which is emptied when it holds 4,096; anything that is not
    a trick of seats and cards goes to Python (its answer or its error)."""
    from chicago.engine import views
    assert views._taken is not views._taken_python
    rng = random.Random(6)
    memo = views._TAKEN
    for _ in range(6000):
        n = rng.randrange(2, 7)
        plays = tuple((rng.randrange(n), DECK[rng.randrange(52)])
                      for _ in range(rng.randrange(1, 7)))
        trick = (rng.randrange(n), plays)
        made = views._taken(trick)
        assert memo[trick] is made and views._taken(trick) is made
        del memo[trick]
        expected = views._taken_python(trick)
        assert made == expected and type(made) is type(expected)
        assert all(a is b for a, b in zip(made.cards, expected.cards, strict=True))
        assert len(memo) <= 4096
    with pytest.raises(IndexError):
        views._taken((0, ((9, DECK[0]),)))  # no such seat: Python's error
    with pytest.raises(TypeError):
        views._taken((0, [(0, DECK[0])]))  # type: ignore[arg-type]  # a list: unhashable


def test_a_locked_seats_sixth_card_is_dealt_in_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """V-LOCK-6 (wikipedia-42): the C deal deals a locked seat's sixth card itself (issue 28,
    thirty-fourth pass: it went to Python before, a fifth of a wikipedia-42 playout), from
    the top of the stock after the five rounds, in turn order, the same as Python's deal;
    Python's deal (its ``_reset_deal_state``) is not called."""
    calls: list[int] = []
    reset = Game._reset_deal_state

    def counted(game: Game) -> None:
        calls.append(1)
        reset(game)

    rules = Rules.preset("wikipedia-42")
    assert rules.lock_six and rules.lock_at == 42
    for seed in range(40):
        rng = random.Random(seed)
        scores = [rng.choice((0, 41, 42, 60)) for _ in range(4)]
        fast, slow = Game(rules, 4, seed=seed), PythonDeals(rules, 4, seed=seed)
        for game in (fast, slow):
            game.scores = list(scores)
        monkeypatch.setattr(Game, "_reset_deal_state", counted)
        fast._start_deal()
        assert not calls, "the C deal called Python's"
        monkeypatch.setattr(Game, "_reset_deal_state", reset)
        slow._start_deal()
        assert slots(fast) == slots(slow)
        assert [len(h) for h in fast.hands] == [6 if s >= 42 else 5 for s in scores]
        assert len(fast._stock) == 52 - 20 - sum(s >= 42 for s in scores)


@LOCKSTEP
@given(tables())
def test_c_and_python_deals_agree_when_seats_lock_early(
        table: tuple[Rules, int, int, str]) -> None:
    """V-LOCK-6 with a low lock (every few deals a seat or more is dealt six cards): a game
    dealing in C and one dealing in Python stay the same after every action."""
    rules, players, seed, source = table
    rules = rules.replace(lock_at=random.Random(seed).randrange(1, 12), lock_six=True)
    play_in_lockstep((rules, players, seed, source), PythonDeals)
