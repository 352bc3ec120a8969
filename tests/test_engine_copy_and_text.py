"""Two changes of the accelerator for the table server (docs/SERVER.md, issue 28's
seventeenth pass), each checked against the pure-Python engine on random games of every
preset and variation:

- an action given as its text (as the server and replays give it) is read as
  ``Action.parse`` reads it and applied in C when it can be, not by the Python method; the
  game after it, and the error for a text that is not an action or not legal, are the same;
- a copy keeps off the cycle collector's watch the lists that the engine took off it (before,
  each copy's forty-odd lists were all watched again).
"""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest
from hypothesis import given

from chicago.engine.game import Game, IllegalAction
from chicago.engine.native import ENGINE
from chicago.engine.state import _plan
from chicago.rules import Rules
from test_engine_accelerator import LOCKSTEP, choose, illegal, new_games, state, tables

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")

NOT_ACTIONS = ("", "   ", "fly", "play", "play Zz", "discard Ah Ah", "announce nothing",
               "play Ah Kh", 7)
"""Texts (and a non-text) that are no action at all."""


@LOCKSTEP
@given(tables())
def test_an_actions_text_gives_the_same_game(table: tuple[Rules, int, int, str]) -> None:
    """Every preset and variation (R-*, V-*): applying each action as its text (in any
    case, with spaces around it, now and then) gives the accelerated game the same state,
    events and record as the pure one, and a text that is no action or an illegal one the
    same error, changing nothing."""
    fast, pure = new_games(*table)
    rng = random.Random(table[2])
    while not pure.is_over:
        legal = pure.legal_actions()
        if rng.random() < 0.05:
            bad: Any = rng.choice([*NOT_ACTIONS, str(illegal(pure, legal, rng))])
            with pytest.raises(IllegalAction) as pure_error:
                pure.apply(bad)
            with pytest.raises(IllegalAction) as fast_error:
                fast.apply(bad)
            assert (fast_error.value.reason, fast_error.value.action, fast_error.value.seat) \
                == (pure_error.value.reason, pure_error.value.action, pure_error.value.seat)
            assert state(fast) == state(pure)
        text = str(choose(pure, legal, rng))
        if rng.random() < 0.2:
            text = f"  {text.upper()} "
        pure.apply(text)
        fast.apply(text)
        assert state(fast) == state(pure), text
        if rng.random() < 0.05:
            pure, fast = pure.copy(), fast.copy()
    with pytest.raises(IllegalAction) as pure_over:
        pure.apply("pass")
    with pytest.raises(IllegalAction) as fast_over:
        fast.apply("pass")
    assert fast_over.value.reason == pure_over.value.reason
    assert fast.events == pure.events and fast.record() == pure.record()


def _lists(game: Game) -> dict[str, list[Any]]:
    """The game's lists that a copy makes anew (a list of lists' inner ones as
    ``name[i]``)."""
    plan, _ = _plan(Game)
    found: dict[str, list[Any]] = {}
    for name, kind in plan.items():
        if kind in ("list", "lists"):
            value = getattr(game, name)
            found[name] = value
            if kind == "lists":
                found.update({f"{name}[{i}]": inner for i, inner in enumerate(value)})
    return found


def _watched(game: Game) -> dict[str, bool]:
    return {name: gc.is_tracked(value) for name, value in _lists(game).items()}


@LOCKSTEP
@given(tables())
def test_a_copy_watches_the_lists_its_original_watches(
        table: tuple[Rules, int, int, str]) -> None:
    """Every preset and variation: at random points of a game, each list of a copy is off
    the collector's watch exactly when the original's is (before this pass every list of a
    copy was watched), and the copy, played on with collections in between, stays the same
    game as the pure engine's."""
    # The heap that was there before this example (in a worker late in the suite, millions
    # of objects) is frozen, so each full collection below scans this game's objects, not
    # the whole suite's: unfrozen, one example took minutes in CI.
    gc.freeze()
    try:
        fast, pure = new_games(*table)
        rng = random.Random(table[2])
        while not pure.is_over:
            if rng.random() < 0.15:
                copy = fast.copy()
                assert _watched(copy) == _watched(fast)
                assert state(copy) == state(fast)
                fast, pure = copy, pure.copy()
                if rng.random() < 0.3:
                    gc.collect()
            action = choose(pure, pure.legal_actions(), rng)
            pure.apply(action)
            fast.apply(action)
            assert state(fast) == state(pure)
        assert fast.events == pure.events and fast.record() == pure.record()
    finally:
        gc.unfreeze()


def test_a_list_that_holds_a_container_stays_watched_in_a_copy() -> None:
    """A list the engine left on the watch (it may hold a container) is watched in the copy
    too; the lists it took off are not."""
    game = Game(Rules.preset("pagat"), 4, seed=2)
    rng = random.Random(2)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    game._quads_claims = [{}]
    copy = game.copy()
    assert gc.is_tracked(copy._quads_claims)
    assert not gc.is_tracked(game.hands) and not gc.is_tracked(copy.hands)
    assert not any(gc.is_tracked(hand) for hand in copy.hands)
    assert copy._quads_claims == [{}] and copy._quads_claims is not game._quads_claims
