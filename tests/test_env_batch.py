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


def check_against_pure(batch: GameBatch, steps: int) -> None:
    """``batch``'s accelerated steps equal the pure-Python steps of the same batch."""
    pure = GameBatch(batch.count, batch.rules, batch.players, seed=batch.seed)
    rng = np.random.default_rng(batch.seed)
    fast_step = batch.reset()
    native = batch_module._NATIVE
    try:
        batch_module._NATIVE = None
        pure_step = pure.reset()
    finally:
        batch_module._NATIVE = native
    for _ in range(steps):
        for name in BatchStepFields:
            fast, slow = getattr(fast_step, name), getattr(pure_step, name)
            assert np.array_equal(fast, slow), name
            assert (fast.dtype, fast.shape) == (slow.dtype, slow.shape), name
            assert fast.flags.c_contiguous and fast.flags.writeable and fast.flags.owndata
        picks = batch.random_actions(rng)
        fast_step = batch.step(picks)
        try:
            batch_module._NATIVE = None
            pure_step = pure.step(picks)
        finally:
            batch_module._NATIVE = native
    assert [g.record() for g in batch.games] == [g.record() for g in pure.games]


@SMALL
@given(batches())
def test_the_accelerated_batch_is_the_pure_one(batch: GameBatch) -> None:
    """The accelerator's facts, observation, mask and step equal the pure-Python ones."""
    if batch_module._NATIVE is None:
        pytest.skip("the engine accelerator is not built")
    check_against_pure(batch, 120)


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


def test_show_records_made_in_an_exchange_are_off_the_collectors_watch() -> None:
    """R-EX-4: a seat that breaks a combination it announced as highest shows its hand; the
    Show record (made by Python during the accelerator's exchange) holds the hand's cards,
    objects the collector watches. With the accelerator every event record of a game, with
    the tuples inside it, is off the collector's watch once the action that made it is
    applied (these records were a third of what a collection walked in a large batch)."""
    if batch_module._NATIVE is None:
        pytest.skip("the engine accelerator is not built")
    batch = GameBatch(8, seed=21, max_deals=3)
    rng = np.random.default_rng(21)
    batch.reset()
    shows = 0

    def watched(value: object) -> bool:
        return gc.is_tracked(value) or (
            isinstance(value, tuple) and any(watched(item) for item in value
                                             if isinstance(item, tuple)))

    for _ in range(150):
        batch.step(batch.random_actions(rng))
        for game in batch.games:
            assert not any(watched(record) for record in game._pending)
            shows += sum(isinstance(record[-1], str) and "breaks" in record[-1]
                         for record in game._pending)
    assert shows  # the case this test is about


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
                 game.exchange_counts, game._action_log, game._pending, game._stock]
        assert not any(gc.is_tracked(value) for value in lists)
    game = batch.games[0]
    game._quads_claims = [{}]  # not a plain value: may hold anything
    batch.observe()
    assert gc.is_tracked(game._quads_claims) and not gc.is_tracked(game.hands)


def test_the_accelerator_refuses_arrays_that_do_not_fit() -> None:
    """The C step and observation check the arrays they read and write (shapes, types) and
    raise ValueError, changing no game, rather than read or write out of bounds."""
    native = batch_module._NATIVE
    if native is None:
        pytest.skip("the engine accelerator is not built")
    batch = GameBatch(2, seed=3)
    step = batch.reset()
    held = batch._native_hold()
    make = (np.empty, *batch._shapes, np.dtype(np.float32), np.dtype(np.bool_),
            np.dtype(np.int64), batch._no_rewards, batch._not_done, batch._episodes,
            batch_module.BatchStep)
    notes = (batch_module._PLAYED, batch_module._ANNOUNCED, batch_module._DEAL)
    with pytest.raises(ValueError):
        native.hold_batch(np.zeros((2, 3), np.int64), batch._legal, batch._program, *notes,
                          make)
    with pytest.raises(ValueError):
        native.hold_batch(batch._facts, np.zeros((3, 113), np.bool_), batch._program,
                          *notes, make)
    with pytest.raises(ValueError):  # notes past the row of facts
        native.hold_batch(batch._facts, batch._legal, batch._program, 0, 0,
                          batch._facts.shape[1], make)
    with pytest.raises(ValueError):
        native.hold_batch(batch._facts, batch._legal, batch._program, *notes, make[:-1])
    out = np.empty((2, BATCH_OBSERVATION_SIZE), np.float32)
    seats = np.empty(2, np.int64)
    for wrong in (np.empty((2, 10), np.float32), np.empty((2, BATCH_OBSERVATION_SIZE))):
        with pytest.raises(ValueError):
            native.observe_batch(list(batch.games), None, held, wrong,
                                 np.empty_like(step.legal), seats)
    with pytest.raises(ValueError):
        native.observe_batch(list(batch.games), None, held, out, np.empty((2, 5), np.bool_),
                             seats)
    with pytest.raises(ValueError):  # read-only
        native.observe_batch(list(batch.games), None, held, out, np.empty_like(step.legal),
                             np.broadcast_to(np.int64(0), (2,)))
    before = [game.record() for game in batch.games]
    picks = batch.random_actions(np.random.default_rng(1))
    for wrong_picks in (picks.astype(np.int32), picks[:1], np.stack([picks, picks])):
        # left to the caller to check, then refused once the caller says they are checked
        assert native.step_batch(list(batch.games), wrong_picks, held) is NotImplemented
        with pytest.raises(ValueError):
            native.step_batch(list(batch.games), wrong_picks, held, True)
    with pytest.raises(ValueError):
        native.pick_legal(batch._legal, np.zeros(2), np.empty(3, np.int64))
    with pytest.raises(ValueError):
        native.pick_legal(batch._legal, np.zeros(3), np.empty(2, np.int64))
    with pytest.raises(ValueError):
        native.pick_legal(batch._legal, np.zeros(2, np.float32), np.empty(2, np.int64))
    assert [game.record() for game in batch.games] == before


def test_a_step_returns_new_arrays() -> None:
    """What a step returns is new: the next step leaves it as it was, and it shares no
    memory with the batch or with another step."""
    batch = GameBatch(3, seed=5, max_deals=1)
    rng = np.random.default_rng(5)
    steps = [batch.reset()]
    kept = [tuple(np.array(a, copy=True) for a in steps[0])]
    while not any(step.done.any() for step in steps):
        steps.append(batch.step(batch.random_actions(rng)))
        kept.append(tuple(np.array(a, copy=True) for a in steps[-1]))
    for step, copies in zip(steps, kept, strict=True):
        for array, copy in zip(step, copies, strict=True):
            assert np.array_equal(array, copy)
            assert array.flags.writeable and array.flags.c_contiguous
    last, before = steps[-1], steps[-2]
    assert last.rewards[last.done].any() and list(last.episodes) == list(batch._episodes)
    for name in BatchStepFields:
        for other in (getattr(before, name), batch._legal, batch._episodes):
            assert not np.shares_memory(getattr(last, name), other), name


BatchStepFields = ("observations", "legal", "to_act", "rewards", "done", "episodes")


def test_ids_of_any_integer_array_or_list_step_alike() -> None:
    """A step takes one id per game as int64 (contiguous or a slice), another integer type
    or a list, with the same result; anything else is a ValueError that changes nothing."""
    rng = np.random.default_rng(9)
    batches = [GameBatch(4, seed=9) for _ in range(4)]
    for batch in batches:
        batch.reset()
    for _ in range(60):
        picks = batches[0].random_actions(rng)
        strided = np.zeros(8, np.int64)
        strided[::2] = picks
        steps = [batches[0].step(picks), batches[1].step(strided[::2]),
                 batches[2].step(picks.astype(np.int16)), batches[3].step(picks.tolist())]
        for step in steps[1:]:
            for name in BatchStepFields:
                assert np.array_equal(getattr(step, name), getattr(steps[0], name)), name
    records = [game.record() for game in batches[0].games]
    assert all([g.record() for g in b.games] == records for b in batches[1:])
    for wrong in (np.zeros(4), np.zeros(3, np.int64), [[0] * 4]):
        with pytest.raises(ValueError):
            batches[0].step(wrong)  # type: ignore[arg-type]
    assert [game.record() for game in batches[0].games] == records


@pytest.mark.parametrize("mode", ["made", "direct", "buffer"])
def test_arrays_read_directly_or_through_the_buffer_protocol_alike(mode: str) -> None:
    """The accelerator reads numpy arrays through numpy's array head when the probes at
    setup agree (they do with the numpy installed), through the buffer protocol otherwise,
    and makes a step's arrays through numpy's C API table when it has one whose arrays
    check out (``made``), by calling numpy.empty otherwise; every way gives the pure-Python
    batch's steps."""
    if batch_module._NATIVE is None:
        pytest.skip("the engine accelerator is not built")
    assert batch_module.ARRAYS_DIRECT and batch_module.ARRAYS_MADE
    probes = batch_module._array_probes()
    config = {"made": probes, "direct": {**probes, "array_api": None}, "buffer": {}}[mode]
    try:
        assert batch_module._setup_native(config) is (mode != "buffer")
        assert batch_module.ARRAYS_MADE is (mode == "made")
        for seed in range(3):
            check_against_pure(GameBatch(5, "pagat", 4, seed=seed, max_deals=2), 400)
    finally:
        assert batch_module._setup_native(batch_module._array_probes())
        assert batch_module.ARRAYS_MADE


def test_a_table_that_is_not_numpys_makes_no_arrays() -> None:
    """setup_batch takes numpy's function that makes arrays only from a table whose type
    entry is numpy.ndarray (here the table of Python's datetime module, another C API
    capsule, is refused) and keeps reading arrays directly."""
    if batch_module._NATIVE is None:
        pytest.skip("the engine accelerator is not built")
    import datetime

    capsule = datetime.datetime_CAPI  # type: ignore[attr-defined]
    try:
        assert batch_module._setup_native({**batch_module._array_probes(),
                                           "array_api": capsule})
        assert not batch_module.ARRAYS_MADE
        check_against_pure(GameBatch(3, "pagat", 4, seed=5, max_deals=2), 200)
    finally:
        assert batch_module._setup_native(batch_module._array_probes())
        assert batch_module.ARRAYS_MADE


def test_probes_that_disagree_turn_direct_reading_off() -> None:
    """setup_batch reads arrays directly only if every probe reads the same through the
    head as through the buffer protocol (element type, contiguity, writability)."""
    if batch_module._NATIVE is None:
        pytest.skip("the engine accelerator is not built")
    good = batch_module._array_probes()
    probes = good["probes"]
    assert isinstance(probes, tuple)
    try:
        for swapped in ((probes[1], probes[0], *probes[2:]),  # element types
                        (*probes[:4], probes[0], probes[5]),  # contiguous as if not
                        (*probes[:5], probes[0])):  # writable as if read-only
            assert not batch_module._setup_native({**good, "probes": swapped})
    finally:
        assert batch_module._setup_native(good)


def test_a_card_shown_by_two_seats_is_one_card_of_the_shown_block() -> None:
    """R-EX-4: a card can be in two seats' shown hands (shown, discarded, drawn again after
    a reshuffle, shown again); the shown block holds it once, in both paths (the pure one
    summed the bits and so set the wrong cards)."""
    rules = Rules.build("denexa", variations=("V-TIE-SUIT", "V-NEG", "V-LARGE"),
                        overrides={"max_deals": 3, "lock_at": 6})
    batch = GameBatch(3, rules, 6, seed=49)
    rng = np.random.default_rng(49)
    batch.reset()
    for _ in range(30):
        batch.step(batch.random_actions(rng))
    game = batch.games[2]
    cards = [int(c) for hand in game.shown.values() for c in hand]
    assert len(cards) > len(set(cards))  # the case this test is about
    expected = np.zeros(52, np.float32)
    expected[sorted(set(cards))] = 1.0
    row, _ = batch_module._facts(game)
    assert row[batch_module.FIELDS.index("shown")] == sum(1 << c for c in set(cards))
    assert np.array_equal(block(batch.observe().observations, "shown")[2], expected)


def test_random_actions_draw_as_rng_random_of_the_batch_size() -> None:
    """random_actions draws its uniforms into an array of its own and takes the same draws
    as ``rng.random(count)`` (the same picks, the generator left in the same state); the
    picks are new at every call, in both paths."""
    batch = GameBatch(5, seed=11)
    batch.reset()
    mine, theirs = np.random.default_rng(3), np.random.default_rng(3)
    native = batch_module._NATIVE
    earlier = []
    for accelerated in (True, False):
        try:
            batch_module._NATIVE = native if accelerated else None
            for _ in range(20):
                picks = batch.random_actions(mine)
                expected = batch_module.pick_uniform(batch._legal, theirs.random(5))
                assert np.array_equal(picks, expected)
                assert not any(np.shares_memory(picks, other) for other in earlier)
                earlier.append(picks)
        finally:
            batch_module._NATIVE = native
    assert mine.bit_generator.state == theirs.bit_generator.state
