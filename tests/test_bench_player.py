"""The benchmark's random player (benchmarks/bench_engine.py) chooses what
``random.Random.choice`` chooses, drawn without its Python calls (issue 28, thirty-fourth
pass): the same actions, the same generator state, the same games."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from chicago import ActionKind, Game, Rules
from chicago.rules import PRESETS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_engine


def test_the_players_draws_are_random_choices() -> None:
    """Every preset: the player's action and the generator's state after it are those of
    ``rng.choice(legal)`` (then Chicago declined nine times in ten, as before)."""
    for preset in PRESETS:
        game = Game(Rules.preset(preset), 4, seed=5)
        mine, theirs = random.Random(9), random.Random(9)
        for _ in range(600):
            if game.is_over:
                break
            legal = game.legal_actions()
            expected = theirs.choice(legal)
            if expected.kind is ActionKind.CHICAGO and theirs.random() >= 0.1:
                expected = legal[0]
            action = bench_engine.random_action(game, mine)
            assert action == expected and mine.getstate() == theirs.getstate()
            game.apply(action)


def test_below_draws_as_choice() -> None:
    """``_below`` (pokerkit's and OpenSpiel's players) is ``choice``'s index, 1 to 70
    items."""
    mine, theirs = random.Random(3), random.Random(3)
    for n in list(range(1, 71)) * 20:
        items = list(range(n))
        assert bench_engine._below(mine, n) == theirs.choice(items)
    assert mine.getstate() == theirs.getstate()


def test_bench_games_plays_the_same_games_as_with_choice() -> None:
    """The timed loop draws as ``choice``: its actions over a short run are those of a loop
    with ``rng.choice`` (counted the same: deals and actions of whole games)."""
    rules = Rules.preset("pagat")
    rng = random.Random(1)
    actions = 0
    game = Game(rules, 4, seed=1)
    while game.to_act is not None and actions < 3000:
        legal = game.legal_actions()
        action = rng.choice(legal)
        if action[0] is ActionKind.CHICAGO and rng.random() >= 0.1:
            action = legal[0]
        game.apply(action)
        actions += 1
    replay = Game(rules, 4, seed=1)
    mine = random.Random(1)
    for _ in range(actions):
        replay.apply(bench_engine.random_action(replay, mine))
    assert replay.record() == game.record() and mine.getstate() == rng.getstate()
