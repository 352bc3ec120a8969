"""The engine's C accelerator (``chicago.engine._engine``) against the pure-Python engine.

With the accelerator built, ``Game.legal_actions`` and ``Game.apply`` are its C methods,
which do the common turns in C and call the Python ones for the rest;
``Game._legal_actions_python`` and ``Game._apply_python`` stay the pure-Python methods.
``PureGame`` (tests/engine_helpers.py) uses only those, and the pure-Python twin of every
other method the accelerator puts in place. Random games of every preset, with random sets of
variations and options (R-*, every V-*), 2-6 players, plain, stacked and duplicate card
sources, are played both ways in lockstep with the same choices: the legal actions, the whole
state after every action, an illegal action's error, and at the end the event log and the
record must be the same. ``sources.shuffle`` (C) is checked against ``random.shuffle``.
Hypothesis runs derandomized: the same games on every run.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accelerator_cases import OPTIONS, derandomized, draw_table
from chicago import Action, Game, IllegalAction, Rules
from chicago.cards import DECK
from chicago.engine import ActionKind, Phase, sources
from chicago.engine import game as game_module
from chicago.engine.native import ENGINE
from chicago.engine.sources import DuplicateDecks
from engine_helpers import PureGame

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")

LOCKSTEP = derandomized(120)


def test_the_accelerator_is_in_place() -> None:
    assert game_module.ACCELERATED
    assert Game.apply is not Game._apply_python
    assert Game.legal_actions is not Game._legal_actions_python
    assert sources.shuffle is not sources._shuffle_python
    assert sources.copy_random is not sources._copy_random_python
    assert "legal" in (Game.apply.__doc__ or "") and Game.apply.__name__ == "apply"


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int, int, str]:
    """Rules (a preset, up to four variations, up to two options), seats, seed, source."""
    rules, players, seed = draw_table(draw, OPTIONS, max_deals=4)
    source = draw(st.sampled_from(["plain", "stacked", "duplicate"]))
    return rules, players, seed, source


def make_game(cls: type[Game], table: tuple[Rules, int, int, str]) -> Game:
    """A new game of ``cls`` at ``table`` (rules, players, seed and a card source: plain,
    stacked or duplicate)."""
    rules, players, seed, source = table
    if source == "stacked":
        deck = list(DECK)
        random.Random(seed).shuffle(deck)
        return cls(rules, players, seed=seed, decks=[deck])
    if source == "duplicate":
        return cls(rules, players, seed=seed, source=DuplicateDecks(seed // 3))
    return cls(rules, players, seed=seed)


def new_games(rules: Rules, players: int, seed: int, source: str) -> tuple[Game, Game]:
    table = (rules, players, seed, source)
    return make_game(Game, table), make_game(PureGame, table)


def state(g: Game) -> tuple[Any, ...]:
    """Everything a turn can change, the events not yet made included."""
    return (
        g.phase, g.to_act, g.round, g.deal_number, g.dealer, list(g.scores), g.winners,
        [list(h) for h in g.hands], [list(p) for p in g.played], list(g.trick), g.tricks,
        g.trick_number, list(g.locked), g.declarer, [list(c) for c in g.exchange_counts],
        g._stock, g._discards, [list(d) for d in g._own_discards], g._order, g._turn,
        g._announced, g._highest, g._protected, g._pending_one_up, g.actions, g._pending,
        len(g._events), g.shown, g.one_up_card, g.deal_history,
    )


def choose(g: Game, legal: list[Action], rng: random.Random) -> Action:
    action = rng.choice(legal)
    if action.kind is ActionKind.CHICAGO and rng.random() < 0.7:
        action = legal[0]  # declare now and then, so that Chicagos are made and broken
    return action


def illegal(g: Game, legal: list[Action], rng: random.Random) -> Action:
    assert g.to_act is not None
    hand = g.hands[g.to_act]
    for _ in range(100):
        candidate = rng.choice([
            Action.discard(hand[: rng.randrange(len(hand) + 1)] if len(hand) <= 5 else ()),
            Action.play(rng.choice(DECK)), Action.discard(rng.sample(DECK, rng.randrange(4))),
            Action.one_up(rng.choice(DECK)), Action.parse("pass"), Action.parse("chicago"),
            Action.parse("announce pair"), Action.parse("no chicago"), Action.parse("keep"),
        ])
        if candidate not in legal:
            return candidate
    raise AssertionError("no illegal action found")


@LOCKSTEP
@given(tables())
def test_accelerated_and_pure_games_are_the_same(table: tuple[Rules, int, int, str]) -> None:
    """Every preset and variation (R-*, V-*): the C turns and the Python turns give the same
    legal actions, the same state after every action, the same errors for illegal actions,
    and the same events and record."""
    fast, pure = new_games(*table)
    rng = random.Random(table[2])
    assert state(fast) == state(pure)
    steps = 0
    while not pure.is_over:
        legal = pure.legal_actions()
        if rng.random() < 0.6:  # else the accelerator checks the action without a list
            assert fast.legal_actions() == legal
        if rng.random() < 0.05:  # an illegal action: the same error, nothing changed
            bad = illegal(pure, legal, rng)
            with pytest.raises(IllegalAction) as pure_error:
                pure.apply(bad)
            with pytest.raises(IllegalAction) as fast_error:
                fast.apply(bad)
            assert fast_error.value.reason == pure_error.value.reason
            assert state(fast) == state(pure)
        action = choose(pure, legal, rng)
        if rng.random() < 0.1:
            action = Action.parse(str(action))  # an equal action, not the listed object
        pure.apply(action)
        fast.apply(action)
        assert state(fast) == state(pure), f"step {steps}: {action}"
        if rng.random() < 0.05:  # a copy plays on the same way
            pure, fast = pure.copy(), fast.copy()
        steps += 1
    assert fast.legal_actions() == [] and fast.is_over
    assert fast.events == pure.events and fast.record() == pure.record()
    assert fast.settlement() == pure.settlement()


def test_apply_without_asking_for_the_legal_actions() -> None:
    """apply() works out the legal actions itself when they were not asked for (a replay)."""
    pure = PureGame(Rules.preset("pagat"), 4, seed=5)
    rng = random.Random(5)
    actions = []
    while not pure.is_over and len(actions) < 400:
        action = rng.choice(pure.legal_actions())
        actions.append(str(action))
        pure.apply(action)
    fast = Game(Rules.preset("pagat"), 4, seed=5)
    for text in actions:
        fast.apply(Action.parse(text))
    assert state(fast) == state(pure) and fast.events == pure.events


def test_shuffle_is_random_shuffle() -> None:
    """sources.shuffle (C) and its pure-Python loop order cards as random.shuffle does, and
    leave the generator in the same state."""
    for seed in range(300):
        for size in (0, 1, 2, 3, 31, 52):
            expected, fast, slow = (list(range(size)) for _ in range(3))
            a, b, c = random.Random(seed), random.Random(seed), random.Random(seed)
            a.shuffle(expected)
            sources.shuffle(b, fast)
            sources._shuffle_python(c, slow)
            assert fast == expected == slow
            assert a.random() == b.random() == c.random()


def test_copy_random_is_getstate_setstate() -> None:
    """sources.copy_random (C: the generator's state copied whole) gives a generator equal
    to one set from getstate(), independent of the original, the pending gauss included."""
    rng = random.Random(11)
    rng.random()
    rng.gauss(0, 1)  # leaves a gauss_next behind
    fast, slow = sources.copy_random(rng), sources._copy_random_python(rng)
    assert type(fast) is random.Random and fast is not rng
    assert fast.getstate() == slow.getstate() == rng.getstate()
    assert fast.gauss(0, 1) == slow.gauss(0, 1)
    assert [fast.random() for _ in range(700)] == [slow.random() for _ in range(700)]
    before = rng.getstate()
    fast.random()
    assert rng.getstate() == before


def test_a_bad_text_or_a_foreign_object_takes_the_python_path() -> None:
    """A text that is no action and an object that is no Action are refused by the Python
    method; an action's text is applied (read as Action.parse reads it: in C since issue
    28's seventeenth pass, tests/test_engine_copy_and_text.py)."""
    g = Game(Rules.preset("pagat"), 4, seed=3)
    with pytest.raises(IllegalAction):
        g.apply("play As and more")
    with pytest.raises(IllegalAction):
        g.apply(("discard", 0, None, None))  # type: ignore[arg-type]
    g.apply("keep")
    assert g.actions[-1][1] == Action.parse("keep")
    assert g.phase in (Phase.EXCHANGE, Phase.ANNOUNCE)
