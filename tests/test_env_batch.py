"""chicago.env.batch: many games at once, the same as single games, and nothing hidden.

- A batch's games are exactly single games of the seeds ``seed_of(slot, episode)`` played
  with the same actions (events, records, settlements; the rewards are the settlements),
  for presets, variations and table sizes drawn by Hypothesis.
- The accelerated observation, legal mask and step (chicago.engine._engine) equal the
  pure-Python ones on the same games.
- The legal mask is chicago.env.actions' mask of the game's legal actions; the observation's
  private blocks hold only the seat's own hand and discards (R-EX-3); an illegal id raises
  ValueError naming the game and changes no game.
"""

from __future__ import annotations

import gc
import random
import sys
import weakref

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.env import batch as batch_module
from chicago.env.actions import action_mask
from chicago.env.batch import BATCH_LAYOUT, BATCH_OBSERVATION_SIZE, GameBatch
from chicago.rules import PRESETS, VARIATIONS

SMALL = settings(max_examples=12, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.too_slow],
                 phases=[Stage.explicit, Stage.generate])


def block(observations: np.ndarray, name: str) -> np.ndarray:
    start = 0
    for block_name, shape, _ in BATCH_LAYOUT:
        size = int(np.prod(shape))
        if block_name == name:
            return observations[:, start : start + size].reshape(-1, *shape)
        start += size
    raise KeyError(name)


@st.composite
def batches(draw: st.DrawFn, preset: str | None = None) -> GameBatch:
    preset = preset or draw(st.sampled_from(sorted(PRESETS)))
    variations = draw(st.lists(st.sampled_from(sorted(VARIATIONS)), max_size=3, unique=True))
    players = draw(st.sampled_from([2, 3, 4, 5, 6]))
    if players > 4 and "V-LARGE" not in variations:
        variations.append("V-LARGE")
    overrides = {"max_deals": 3, **({"lock_at": 6} if draw(st.booleans()) else {})}
    rules = None
    while rules is None:
        try:
            rules = Rules.build(preset, variations=variations, overrides=overrides)
        except ValueError as exc:
            variations.remove(next(v for v in variations if v != "V-LARGE" and v in str(exc)))
    return GameBatch(draw(st.integers(1, 6)), rules, players, seed=draw(st.integers(0, 999)))


def play(batch: GameBatch, steps: int, seed: int) -> list[tuple[int, int, Game, np.ndarray]]:
    """Random steps; every game that ended: (slot, episode, the game, its rewards)."""
    rng = np.random.default_rng(seed)
    step = batch.reset()
    ended = []
    for _ in range(steps):
        games = batch.games
        step = batch.step(batch.random_actions(rng))
        for slot in np.flatnonzero(step.done):
            ended.append((int(slot), int(step.episodes[slot]) - 1, games[slot],
                          step.rewards[slot]))
    return ended


def single(batch: GameBatch, slot: int, episode: int, game: Game) -> Game:
    again = Game(batch.rules, batch.players, seed=batch.seed_of(slot, episode))
    for _, action in game.actions:
        again.apply(action)
    return again


def assert_single_games(batch: GameBatch, steps: int) -> None:
    """Every game of ``batch`` after ``steps`` random steps (ended or running) is the single
    game of its seed with the same actions; a game that ended paid its settlement as the
    rewards (R-END-2/3)."""
    ended = play(batch, steps, seed=batch.seed)
    for slot, episode, game, rewards in ended:
        again = single(batch, slot, episode, game)
        assert again.is_over and again.events == game.events
        assert again.record() == game.record()
        money = again.settlement()
        assert list(rewards[: len(money)]) == pytest.approx(money)
        assert not rewards[len(money) :].any()
    for slot, game in enumerate(batch.games):
        episode = sum(1 for s, *_ in ended if s == slot)
        again = single(batch, slot, episode, game)
        assert again.events == game.events and again.to_act == game.to_act


@SMALL
@given(batches())
def test_a_batch_plays_the_single_games_of_its_seeds(batch: GameBatch) -> None:
    """Every game of a batch is the single game of its seed with the same actions."""
    assert_single_games(batch, 150)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(SMALL, max_examples=4)
@given(data=st.data())
def test_every_preset_plays_the_single_games_of_its_seeds(preset: str,
                                                          data: st.DataObject) -> None:
    """Each preset (with variations and table sizes drawn by Hypothesis) gives in a batch
    the single games of its seeds; games end, so slots start their next games too."""
    assert_single_games(data.draw(batches(preset)), 200)


@SMALL
@given(batches())
def test_the_accelerated_batch_is_the_pure_one(batch: GameBatch) -> None:
    """The accelerator's facts, observation, mask and step equal the pure-Python ones."""
    if batch_module._NATIVE is None:
        pytest.skip("the engine accelerator is not built")
    pure = GameBatch(batch.count, batch.rules, batch.players, seed=batch.seed)
    rng = np.random.default_rng(batch.seed)
    fast_step = batch.reset()
    native = batch_module._NATIVE
    try:
        batch_module._NATIVE = None
        pure_step = pure.reset()
    finally:
        batch_module._NATIVE = native
    for _ in range(120):
        for name in ("observations", "legal", "to_act", "rewards", "done", "episodes"):
            assert np.array_equal(getattr(fast_step, name), getattr(pure_step, name)), name
        picks = batch.random_actions(rng)
        fast_step = batch.step(picks)
        try:
            batch_module._NATIVE = None
            pure_step = pure.step(picks)
        finally:
            batch_module._NATIVE = native
    assert [g.record() for g in batch.games] == [g.record() for g in pure.games]


def test_the_mask_and_the_private_blocks() -> None:
    """The mask is the legal actions' (chicago.env.actions); the hand and discard blocks
    are the seat's own (R-EX-3), the seat block says which seat that is."""
    batch = GameBatch(8, seed=3, max_deals=3)
    rng = np.random.default_rng(3)
    step = batch.reset()
    for _ in range(300):
        assert step.observations.shape == (8, BATCH_OBSERVATION_SIZE)
        hands = block(step.observations, "hand")
        discards = block(step.observations, "discarded")
        for slot, game in enumerate(batch.games):
            seat = game.to_act
            assert seat is not None and step.to_act[slot] == seat
            assert block(step.observations, "seat")[slot, seat] == 1.0
            hand = game.hands[seat]
            expected = action_mask(game.legal_actions(), hand).astype(bool)
            assert np.array_equal(step.legal[slot], expected)
            assert set(np.flatnonzero(hands[slot])) == set(map(int, hand))
            assert set(np.flatnonzero(discards[slot])) == set(map(int, game.discarded(seat)))
        step = batch.step(batch.random_actions(rng))


def test_an_illegal_id_changes_no_game() -> None:
    batch = GameBatch(3, seed=5)
    step = batch.reset()
    before = [g.record() for g in batch.games]
    picks = np.array([int(np.flatnonzero(row)[0]) for row in step.legal])
    illegal = int(np.flatnonzero(~step.legal[2])[0])
    picks[2] = illegal
    with pytest.raises(ValueError, match=f"action id {illegal} is not legal in game 2"):
        batch.step(picks)
    assert [g.record() for g in batch.games] == before
    with pytest.raises(ValueError, match="3 integer action ids"):
        batch.step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="count"):
        GameBatch(0)


def test_seeds_are_fixed_and_distinct() -> None:
    a, b = GameBatch(4, seed=9), GameBatch(4, seed=9)
    assert [g.record() for g in a.games] == [g.record() for g in b.games]
    seeds = {a.seed_of(slot, episode) for slot in range(4) for episode in range(50)}
    assert len(seeds) == 200
    assert random.Random(a.seed_of(0, 0)).random() != random.Random(a.seed_of(1, 0)).random()


def test_environments_doc_lists_every_batch_block() -> None:
    """docs/ENVIRONMENTS.md's table of the batch observation: every block, offset, size."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "ENVIRONMENTS.md").read_text(
        encoding="utf-8")
    start = 0
    for name, shape, _ in BATCH_LAYOUT:
        size = int(np.prod(shape))
        assert f"| `{name}` | {start} | {size} |" in text, name
        start += size
    assert f"`BATCH_OBSERVATION_SIZE` = {BATCH_OBSERVATION_SIZE}" in text


def test_a_step_leaves_the_cycle_collector_as_it_found_it() -> None:
    """The step pauses Python's cycle collector while the games move and restores it, also
    when an action is refused; a collector the caller disabled stays disabled."""
    batch = GameBatch(3, seed=2)
    rng = np.random.default_rng(2)
    step = batch.reset()
    was = gc.isenabled()
    try:
        gc.enable()
        step = batch.step(batch.random_actions(rng))
        assert gc.isenabled()
        picks = batch.random_actions(rng)
        picks[1] = int(np.flatnonzero(~step.legal[1])[0])
        with pytest.raises(ValueError, match="not legal in game 1"):
            batch.step(picks)
        assert gc.isenabled()
        gc.disable()
        batch.step(batch.random_actions(rng))
        assert not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_finished_games_leave_memory_without_the_cycle_collector() -> None:
    """The games hold no reference cycles, so pausing the collector during a step keeps
    nothing alive: with the collector off, every game that ended is freed as soon as the
    next game of its slot replaces it, and a collection afterwards finds no garbage."""
    batch = GameBatch(4, seed=11, max_deals=2)
    rng = np.random.default_rng(11)
    batch.reset()
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        gone: list[weakref.ref[Game]] = []
        for _ in range(300):
            games = [weakref.ref(game) for game in batch.games]
            step = batch.step(batch.random_actions(rng))
            gone.extend(games[slot] for slot in np.flatnonzero(step.done))
            del games
        assert len(gone) >= 4
        assert all(ref() is None for ref in gone)
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


def test_no_cycle_collection_runs_inside_a_step() -> None:
    """With the collector eager (threshold 1), collections still happen between steps but
    never while a step moves the games: with hundreds of games the full collections set
    off inside a step walked every game's history (a third of the CPU at 1,024 games)."""
    step_code = GameBatch.step.__code__
    inside: list[bool] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            frame = sys._getframe(1)
            while frame is not None and frame.f_code is not step_code:
                frame = frame.f_back
            inside.append(frame is not None)

    batch = GameBatch(8, seed=4, max_deals=2)
    rng = np.random.default_rng(4)
    batch.reset()
    was, threshold = gc.isenabled(), gc.get_threshold()
    gc.enable()
    gc.set_threshold(1)
    gc.callbacks.append(note)
    try:
        for _ in range(50):
            batch.step(batch.random_actions(rng))
    finally:
        gc.callbacks.remove(note)
        gc.set_threshold(*threshold)
        (gc.enable if was else gc.disable)()
    assert inside and not any(inside)


def test_the_games_lists_are_off_the_collectors_watch() -> None:
    """With the accelerator, a game's lists of cards, seats and counts (and its history of
    actions and event records) are off the cycle collector's watch once observed or moved
    (they can hold no cycle), so collections do not walk a thousand games' state; a list
    holding anything else stays watched."""
    if batch_module._NATIVE is None:
        pytest.skip("the engine accelerator is not built")
    batch = GameBatch(3, seed=6, max_deals=2)
    rng = np.random.default_rng(6)
    batch.reset()
    for _ in range(60):
        batch.step(batch.random_actions(rng))
    for game in batch.games:
        lists = [game.hands, *game.hands, game.played, game.trick, game.locked, game.scores,
                 game.exchange_counts, game.actions, game._pending, game._stock]
        assert not any(gc.is_tracked(value) for value in lists)
    game = batch.games[0]
    game._quads_claims = [{}]  # not a plain value: may hold anything
    batch.observe()
    assert gc.is_tracked(game._quads_claims) and not gc.is_tracked(game.hands)


def test_the_accelerator_refuses_arrays_that_do_not_fit() -> None:
    """The C step and observation check the arrays they write (shapes, types) and raise
    ValueError, changing no game, rather than write out of bounds."""
    native = batch_module._NATIVE
    if native is None:
        pytest.skip("the engine accelerator is not built")
    batch = GameBatch(2, seed=3)
    step = batch.reset()
    held = batch._native_hold()
    with pytest.raises(ValueError):
        native.hold_batch(np.zeros((2, 3), np.int64), batch._legal, batch._program)
    with pytest.raises(ValueError):
        native.hold_batch(batch._facts, np.zeros((3, 113), np.bool_), batch._program)
    out = np.empty((2, BATCH_OBSERVATION_SIZE), np.float32)
    seats = np.empty(2, np.int64)
    for wrong in (np.empty((2, 10), np.float32), np.empty((2, BATCH_OBSERVATION_SIZE))):
        with pytest.raises(ValueError):
            native.observe_batch(list(batch.games), None, held, wrong,
                                 np.empty_like(step.legal), seats)
    before = [game.record() for game in batch.games]
    with pytest.raises(ValueError):
        native.step_batch(list(batch.games), batch.random_actions(np.random.default_rng(1)),
                          0, 0, 0, held, out, np.empty((2, 5), np.bool_), seats)
    assert [game.record() for game in batch.games] == before
