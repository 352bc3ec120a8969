"""Many games at once for self-play and reinforcement learning (extra ``rl``: numpy).

:class:`GameBatch` runs ``count`` games side by side. Each step takes one action id per game
(the fixed action space of :mod:`chicago.env.actions`, 113 ids) for the seat to act there,
applies it, and returns a :class:`BatchStep` of numpy arrays: the observation of every
game's seat to act (``float32``, :data:`BATCH_OBSERVATION_SIZE` wide), its legal-action mask
(``bool``, 113 wide), who acts, and, where a game just ended, its settlement as rewards. A
finished game is replaced at once by the next game of its slot, so every step has an action
to take in every game.

The games are ordinary :class:`chicago.Game` objects (``batch.games``), seeded
``seed_of(slot, episode)``: a batch gives exactly the games that single games with those
seeds and the same actions give (tests/test_env_batch.py).

The observation of a seat holds only what that seat knows: its own hand, its own discards
this deal, and what everyone sees (cards played this deal by each seat, the trick, cards
shown by rule, a face-up card, the scoring rounds' announcements, scores, locks, how many
cards each seat exchanged this round, the Chicago declarer, the stock and the pile). Seats
are absolute (``seat`` says which one is observing); :data:`BATCH_LAYOUT` lists the blocks.
It is smaller than :func:`chicago.env.observation.encode_view`'s (the staged reveals and
the exchange history of earlier rounds are left out) and made from the games' state without
building views, so that it costs a few microseconds a game.

>>> import numpy as np
>>> batch = GameBatch(4, seed=7)
>>> step = batch.reset()
>>> step.observations.shape, step.legal.shape, bool(step.legal.any(axis=1).all())
((4, 882), (4, 113), True)
>>> step = batch.step(batch.random_actions(np.random.default_rng(1)))
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from chicago.engine.actions import ActionKind
from chicago.engine.game import Game, Phase
from chicago.engine.native import ENGINE
from chicago.engine.sources import mix_seed
from chicago.env.actions import (
    ANNOUNCE_BASE,
    DISCARD_BASE,
    DISCARD_SIXTH,
    NUM_ACTIONS,
    ONE_UP_BASE,
    RESET_SEAT_BASE,
    SIMPLE_BASE,
    SIMPLE_KINDS,
    action_to_index,
)
from chicago.env.observation import MAX_SCORING_ROUNDS, MAX_SEATS
from chicago.rules import Rules

__all__ = [
    "ACCELERATED", "BATCH_LAYOUT", "BATCH_OBSERVATION_SIZE", "BatchStep", "GameBatch",
]

S = MAX_SEATS
A = MAX_SCORING_ROUNDS
_PHASES = tuple(Phase)
_PHASE_INDEX = {phase: i for i, phase in enumerate(_PHASES)}
_K = ActionKind

BATCH_LAYOUT: tuple[tuple[str, tuple[int, ...], str], ...] = (
    ("hand", (52,), "own cards"),
    ("discarded", (52,), "own discards this deal"),
    ("trick", (52,), "cards of the trick being played"),
    ("shown", (52,), "cards shown to everyone this deal (R-EX-4, quads)"),
    ("one_up", (52,), "a face-up card waiting for its answer (V-ONE-UP)"),
    ("played", (S, 52), "cards each seat played this deal"),
    ("seat", (S,), "the observing seat (the one to act)"),
    ("dealer", (S,), "the dealer"),
    ("phase", (len(_PHASES),), "the phase: " + ", ".join(p.value for p in _PHASES)),
    ("round", (5,), "the exchange or scoring round"),
    ("trick_number", (6,), "the trick, 0 before the play"),
    ("declarer", (S + 1,), "who declared Chicago this deal (last: nobody)"),
    ("hand_category", (10,), "own hand's category (five cards)"),
    ("scores", (S,), "scores / target, clipped to [-2, 2]"),
    ("locked", (S,), "locked this deal (R-EX-5)"),
    ("exchanged", (S,), "cards each seat exchanged in the current exchange round, / 5"),
    ("counts", (3,), "cards in the stock / 52, in the discard pile / 52, players / 6"),
    ("announced", (A, S, 10),
     "per scoring round of this deal: pass (0) or the category announced (1-9)"),
)
"""The blocks of a batch observation: name, shape and meaning, in order."""

_OFFSETS: dict[str, int] = {}
_size = 0
for _name, _shape, _ in BATCH_LAYOUT:
    _OFFSETS[_name] = _size
    _size += int(np.prod(_shape))
BATCH_OBSERVATION_SIZE: int = _size
"""Width of :attr:`BatchStep.observations`."""
del _size, _name, _shape

FIELDS = (
    "hand", "discarded", "trick", "shown", "one_up", "seat", "dealer", "phase", "round",
    "trick_number", "declarer", "category", "players",
    *(f"scores{s}" for s in range(S)), "locked", *(f"exchanged{s}" for s in range(S)),
    "stock", "pile",
)
"""The facts of a game that the engine gives for an observation, in order: five card masks
(own hand, own discards, the trick, the cards shown, the face-up card), the seat to act,
the dealer, the phase's index, the round (at most 4), the trick number (at most 5), the
declarer (6: nobody), the own hand's category (-1 without five cards), the players, six
scores, the locked seats as bits, six counts of cards exchanged in the current exchange
round, the stock and the pile. The C accelerator makes the same rows."""
_COLUMNS = (*FIELDS, *(f"played{s}" for s in range(S)),
            *(f"announced{r}_{s}" for r in range(A) for s in range(S)), "deal")
"""A row of facts: the engine's, then what the batch notes itself from the actions it
applies (each seat's plays this deal as a card mask; each scoring round's announcement per
seat: -1 none, 0 pass, 1-9; the deal these notes are of)."""
_COLUMN = {name: i for i, name in enumerate(_COLUMNS)}
_TRACKED = len(FIELDS)
_PLAYED = _COLUMN["played0"]
_ANNOUNCED = _COLUMN["announced0_0"]
_DEAL = _COLUMN["deal"]
_SEAT = _COLUMN["seat"]

_BITS, _ONE_HOT, _SCALE, _CLIPPED, _SEATS = range(5)


def _program(target: float) -> npt.NDArray[np.float64]:
    """How an observation row is made from a row of facts: (kind, column, offset,
    divisor) per instruction (kinds as in ``_engine.c``'s encode_row)."""
    code: list[tuple[float, float, float, float]] = []

    def add(kind: int, column: str, offset: int, divisor: float = 1.0) -> None:
        code.append((kind, _COLUMN[column], offset, divisor))

    for name in ("hand", "discarded", "trick", "shown", "one_up"):
        add(_BITS, name, _OFFSETS[name])
    for s in range(S):
        add(_BITS, f"played{s}", _OFFSETS["played"] + 52 * s)
    for name in ("seat", "dealer", "phase", "round", "trick_number", "declarer"):
        add(_ONE_HOT, name, _OFFSETS[name])
    add(_ONE_HOT, "category", _OFFSETS["hand_category"])
    for s in range(S):
        add(_CLIPPED, f"scores{s}", _OFFSETS["scores"] + s, target)
        add(_SCALE, f"exchanged{s}", _OFFSETS["exchanged"] + s, 5.0)
    add(_SEATS, "locked", _OFFSETS["locked"])
    add(_SCALE, "stock", _OFFSETS["counts"], 52.0)
    add(_SCALE, "pile", _OFFSETS["counts"] + 1, 52.0)
    add(_SCALE, "players", _OFFSETS["counts"] + 2, 6.0)
    for r in range(A):
        for s in range(S):
            add(_ONE_HOT, f"announced{r}_{s}", _OFFSETS["announced"] + (r * S + s) * 10)
    return np.array(code, np.float64)


_SHIFTS = np.arange(52, dtype=np.uint64)
_INT64 = np.dtype(np.int64)


def encode(facts: npt.NDArray[np.int64], program: npt.NDArray[np.float64],
           out: npt.NDArray[np.float32]) -> None:
    """Make each row of ``out`` from the same row of ``facts`` by ``program`` with numpy
    (the pure-Python path of the accelerator's encode_row)."""
    out.fill(0.0)
    rows = np.arange(len(facts))
    width = out.shape[1]
    for kind_code, column_code, offset_code, divisor in program.tolist():
        kind, offset = int(kind_code), int(offset_code)
        value = facts[:, int(column_code)]
        if kind == _BITS:
            out[:, offset : offset + 52] = (value.astype(np.uint64)[:, None] >> _SHIFTS) & 1
        elif kind == _ONE_HOT:
            keep = (value >= 0) & (offset + value < width)
            out[rows[keep], offset + value[keep]] = 1.0
        elif kind == _SEATS:
            out[:, offset : offset + 6] = (value[:, None] >> np.arange(6)) & 1
        else:
            scaled = value / divisor
            out[:, offset] = np.clip(scaled, -2.0, 2.0) if kind == _CLIPPED else scaled


class BatchStep(NamedTuple):
    """What a step of a :class:`GameBatch` returns, one row per game (a named tuple: fields
    read by name, made in a fraction of a frozen dataclass's time, which counted at a few
    games a step)."""

    observations: npt.NDArray[np.float32]
    """``(count, BATCH_OBSERVATION_SIZE)``: each game's seat to act, as it sees the game."""
    legal: npt.NDArray[np.bool_]
    """``(count, NUM_ACTIONS)``: the legal action ids of that seat."""
    to_act: npt.NDArray[np.int64]
    """``(count,)``: the seat to act in each game."""
    rewards: npt.NDArray[np.float32]
    """``(count, 6)``: where a game ended at this step, its settlement (money per seat,
    R-END-2/3); zero elsewhere."""
    done: npt.NDArray[np.bool_]
    """``(count,)``: the game ended at this step (the next game of the slot took its place)."""
    episodes: npt.NDArray[np.int64]
    """``(count,)``: the number of the game now in each slot (0 for the first)."""


class GameBatch:
    """``count`` games of Chicago at once (see the module docstring).

    ``rules``: a :class:`~chicago.Rules` or a preset name (default ``pagat``), with
    ``variations`` and ``max_deals`` applied as :meth:`Rules.build` does; ``players`` 2-6;
    ``seed`` fixes every game of every slot.
    """

    def __init__(
        self,
        count: int,
        rules: Rules | str | None = None,
        players: int = 4,
        seed: int = 0,
        *,
        variations: Sequence[str] = (),
        max_deals: int | None = None,
    ) -> None:
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"count must be a whole number of games, 1 or more, not {count!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, not {seed!r}")
        overrides = {} if max_deals is None else {"max_deals": max_deals}
        if rules is None or isinstance(rules, str):
            rules = Rules.build(rules or "pagat", variations=variations, overrides=overrides)
        elif isinstance(rules, Rules):
            rules = rules.with_variations(*variations) if variations else rules
            rules = rules.replace(**overrides) if overrides else rules
        else:
            raise TypeError(f"rules must be a Rules or a preset name, not {rules!r}")
        self.rules: Rules = rules
        self.players: int = players
        self.seed: int = seed
        self.count: int = count
        self._program = _program(float(rules.target) or 1.0)
        self._games: list[Game] = []
        self._episodes = np.zeros(count, np.int64)
        self._ids: list[list[int]] = [[] for _ in range(count)]
        # kept from step to step (what a step returns is always a fresh array): each game's
        # row of facts and its mask, which checks the next step's picks
        self._legal = np.zeros((count, NUM_ACTIONS), np.bool_)
        self._facts = np.zeros((count, len(_COLUMNS)), np.int64)
        self._held: Any = None  # the accelerator's hold on these two and the program
        self._shapes = ((count, BATCH_OBSERVATION_SIZE), (count, NUM_ACTIONS), (count,))
        # what a step copies for its rewards and done when no game ended
        self._no_rewards = np.zeros((count, S), np.float32)
        self._not_done = np.zeros(count, np.bool_)
        # random_actions' uniforms, drawn into the same array every time (numpy's generator
        # makes them faster so than into a new one; only the picks made of them are returned)
        self._uniforms = np.empty(count, np.float64)
        if _NATIVE is not None:
            self._native_hold()
        self._start()

    def _start(self) -> None:
        self._episodes[:] = 0
        self._games = [Game(self.rules, self.players, seed=self.seed_of(i, 0))
                       for i in range(self.count)]
        for slot in range(self.count):
            self._forget(slot)

    def _forget(self, slot: int) -> None:
        """A new deal (or game) in ``slot``: nobody has played or announced in it yet."""
        facts = self._facts
        facts[slot, _PLAYED : _PLAYED + S] = 0
        facts[slot, _ANNOUNCED : _ANNOUNCED + A * S] = -1
        facts[slot, _DEAL] = self._games[slot].deal_number

    def seed_of(self, slot: int, episode: int) -> int:
        """The seed of game number ``episode`` (from 0) of slot ``slot``."""
        return mix_seed(self.seed, slot, episode)

    @property
    def games(self) -> tuple[Game, ...]:
        """The games now in the slots (read them; act through :meth:`step`)."""
        return tuple(self._games)

    def reset(self) -> BatchStep:
        """Start every slot again from its first game; the first step's arrays."""
        self._start()
        return self.observe()

    def observe(self) -> BatchStep:
        """The arrays of the current position, without acting (rewards and done are zero)."""
        out, legal, seats = self._fresh()
        self._observe(None, out, legal, seats)
        return BatchStep(out, legal, seats, np.zeros((self.count, S), np.float32),
                         np.zeros(self.count, np.bool_), self._episodes.copy())

    def random_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """One legal action id per game, uniformly at random (``rng``: numpy's generator)."""
        uniforms = rng.random(out=self._uniforms)  # the same draws as rng.random(count)
        if ARRAYS_MADE and _NATIVE is not None:  # the picks in an array the accelerator makes
            picks: npt.NDArray[np.int64] = _NATIVE.pick_legal(self._legal, uniforms, None)
            return picks
        return pick_uniform(self._legal, uniforms)

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> BatchStep:
        """Apply one action id per game for its seat to act; the next step's arrays.

        An id that is not legal in its game raises ``ValueError`` naming the game, before
        any game has changed. Python's cycle collector is paused while the games move and
        restored after (see :func:`_collector_paused`).
        """
        if _NATIVE is not None:
            # a contiguous int64 array of one id per game goes straight on; the
            # accelerator answers NotImplemented to anything else, checked here
            held = self._held if self._held is not None else self._native_hold()
            answer = _NATIVE.step_batch(self._games, actions, held)
            if answer is NotImplemented:
                answer = _NATIVE.step_batch(self._games, self._checked(actions), held, True)
            result: BatchStep
            result, finished = answer
            if finished:
                self._start_next_native(finished, result)
            return result
        chosen = self._checked(actions)
        paused = _collector_paused()
        try:
            out, legal, seats = self._fresh()
            finished = self._step_python(chosen.tolist())
            rewards = self._no_rewards.copy()
            done = self._not_done.copy()
            self._start_next(finished, rewards, done)
            self._observe(None, out, legal, seats)
            return BatchStep(out, legal, seats, rewards, done, self._episodes.copy())
        finally:
            if paused:
                gc.enable()

    def _start_next_native(self, finished: list[int], result: BatchStep) -> None:
        """After the accelerator's step (which made the step's arrays, new ones: what a step
        returned stays as it was, and observed every game that goes on): the slots whose
        game ended start their next game, observed into ``result``."""
        paused = _collector_paused()
        try:
            self._start_next(finished, result.rewards, result.done)
            self._observe(finished, result.observations, result.legal, result.to_act)
            result.episodes[:] = self._episodes
        finally:
            if paused:
                gc.enable()

    def _checked(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]
                 ) -> npt.NDArray[np.int64]:
        """``actions`` as the int64 array of one id per game that a step takes, or
        ``ValueError``."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.count,) or chosen.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.count} integer action ids, "
                             f"not an array of shape {chosen.shape} and type {chosen.dtype}")
        return np.ascontiguousarray(chosen, np.int64)

    def _start_next(self, finished: list[int], rewards: npt.NDArray[np.float32],
                    done: npt.NDArray[np.bool_]) -> None:
        """The games at ``finished`` ended: their settlements into ``rewards``, ``done``
        set, and the next game of each slot in its place."""
        for slot in finished:
            money = self._games[slot].settlement()
            rewards[slot, : len(money)] = money
            done[slot] = True
            self._episodes[slot] += 1
            self._games[slot] = Game(self.rules, self.players,
                                     seed=self.seed_of(slot, int(self._episodes[slot])))
            self._forget(slot)

    def _fresh(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_],
                              npt.NDArray[np.int64]]:
        """New arrays for what a step returns: observations, mask and seats to act."""
        shapes = self._shapes
        return (np.empty(shapes[0], np.float32), np.empty(shapes[1], np.bool_),
                np.empty(shapes[2], np.int64))

    def _native_hold(self) -> Any:
        """The accelerator's hold on the arrays kept from step to step (the facts, the mask
        and the program), opened once rather than at every step, and on what it makes a
        step's arrays from."""
        if self._held is None:
            shapes = self._shapes
            self._held = _NATIVE.hold_batch(
                self._facts, self._legal, self._program, _PLAYED, _ANNOUNCED, _DEAL,
                (np.empty, *shapes, np.dtype(np.float32), np.dtype(np.bool_), _INT64,
                 self._no_rewards, self._not_done, self._episodes, BatchStep))
        return self._held

    def _step_python(self, picks: list[int]) -> list[int]:
        """The accelerator's step_batch in Python: apply each game's pick, note its plays and
        announcements; the slots whose game ended (the caller observes every game after)."""
        places: list[int] = []
        for slot, (ids, pick) in enumerate(zip(self._ids, picks, strict=True)):
            try:
                places.append(ids.index(pick))
            except ValueError:
                raise ValueError(f"action id {pick} is not legal in game {slot} "
                                 f"(legal: {ids})") from None
        facts = self._facts
        finished = []
        for slot, (game, place) in enumerate(zip(self._games, places, strict=True)):
            seat = game.to_act
            assert seat is not None
            action = game.legal_actions()[place]
            if action[0] is _K.PLAY:
                facts[slot, _PLAYED + seat] |= action[1]
            elif game.phase is Phase.ANNOUNCE and game.round < A:
                category = action[2]
                facts[slot, _ANNOUNCED + game.round * S + seat] = (
                    0 if category is None else int(category))
            game.apply(action)
            if game.is_over:
                finished.append(slot)
            elif game.deal_number != facts[slot, _DEAL]:
                self._forget(slot)
        return finished

    # ------------------------------------------------------------------ observing
    def _observe(self, slots: list[int] | None, out: npt.NDArray[np.float32],
                 legal: npt.NDArray[np.bool_], seats: npt.NDArray[np.int64]) -> None:
        """Write the rows of the games at ``slots`` (None: every game) into the step's
        arrays: the facts, the mask (the batch's own and the copy returned), the seat to
        act, the observation."""
        facts, ids, mask = self._facts, self._ids, self._legal
        if _NATIVE is not None:
            _NATIVE.observe_batch(self._games, slots, self._native_hold(), out, legal, seats)
            return
        rows = range(self.count) if slots is None else slots
        for slot in rows:
            facts[slot, :_TRACKED], ids[slot] = _facts(self._games[slot])
            mask[slot] = False
            mask[slot, ids[slot]] = True
        chosen = list(rows)
        encoded = np.empty((len(chosen), out.shape[1]), np.float32)
        encode(facts[chosen], self._program, encoded)
        out[chosen] = encoded
        legal[chosen] = mask[chosen]
        seats[chosen] = facts[chosen, _SEAT]


def _collector_paused() -> bool:
    """Pause Python's cycle collector if it runs; whether it did (the caller enables it
    again when its work is done).

    A step makes and drops many small containers in every game. With hundreds of games
    interleaved, objects that live for a turn or a deal outlast the collector's young
    generations (counted in allocations, and a step of N games makes N times as many), so
    they are promoted and the full collections that follow walk every game's history: a
    third of the CPU time at 1,024 games. With the collector paused for the step, the young
    collections come between steps and count turns, whatever N is. The games hold no
    reference cycles (tests/test_env_batch.py), so nothing waits on the collector to be
    freed; the pause only moves when it runs. The accelerator also takes each game's lists
    off the collector's watch (``_engine.c``'s plain_state), so what the collections
    between steps walk is small too.
    """
    if not gc.isenabled():
        return False
    gc.disable()
    return True


def pick_uniform(legal: npt.NDArray[np.bool_],
                 uniforms: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """Per row of ``legal``, its k-th legal id, k = floor(uniform * the number of legal
    ids): a uniform choice for uniforms in [0, 1)."""
    out = np.empty(len(legal), np.int64)
    if _NATIVE is not None:
        _NATIVE.pick_legal(legal, uniforms, out)
        return out
    counts = legal.sum(axis=1)
    picks = np.minimum((uniforms * counts).astype(np.int64), counts - 1)
    out[:] = np.argmax(np.cumsum(legal, axis=1) > picks[:, None], axis=1)
    return out


def _mask(cards: Iterable[int]) -> int:
    """The 52-bit mask of ``cards`` (each card once however often it comes)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _facts(game: Game) -> tuple[list[int], list[int]]:
    """The facts of ``game``'s seat to act (:data:`FIELDS`) and the ids of its legal
    actions in their order, from the game's public API (the pure-Python path)."""
    seat = game.to_act
    if seat is None:
        raise ValueError("a game of the batch has nobody to act")
    own = game.hands[seat]
    hand = _mask(own)
    discarded = _mask(game.discarded(seat))
    trick = _mask(c for _, c in game.trick)
    # a card may be in two seats' shown hands (shown, discarded, drawn again after a
    # reshuffle and shown once more): a set of cards, not a sum
    shown = _mask(c for cards in game.shown.values() for c in cards)
    face_up = game.one_up_card
    value = game.hand_value(seat) if len(own) == 5 else None
    declarer = game.declarer
    phase = game.phase
    scores = list(game.scores[:S]) + [0] * (S - min(S, len(game.scores)))
    locked = sum(1 << s for s, flag in enumerate(game.locked[:S]) if flag)
    exchanged = [0] * S
    if phase is Phase.EXCHANGE and game.exchange_counts:
        for s, count in enumerate(game.exchange_counts[-1][:S]):
            exchanged[s] = count
    row = [
        hand, discarded, trick, shown, 0 if face_up is None else 1 << face_up[1], seat,
        game.dealer, _PHASE_INDEX[phase], min(game.round, 4), min(game.trick_number, 5),
        S if declarer is None else declarer, -1 if value is None else int(value.category),
        game.players, *scores, locked, *exchanged, game.stock_count, game.discard_count,
    ]
    sorted_hand = tuple(sorted(own))
    return row, [action_to_index(action, sorted_hand) for action in game.legal_actions()]


def _array_probes() -> dict[str, object]:
    """What the accelerator checks before it reads numpy arrays' memory directly rather
    than through the buffer protocol (``_engine.c``'s setup_arrays): the array type, the
    four element types it uses, and one array of each, then a float32 array that is not
    C-contiguous and one that is read-only."""
    dtypes = tuple(np.dtype(t) for t in (np.float32, np.bool_, np.int64, np.float64))
    probes = [np.zeros((3, 5), dtype) for dtype in dtypes]
    read_only = np.zeros((3, 5), np.float32)
    read_only.flags.writeable = False
    return {"ndarray": np.ndarray, "dtypes": dtypes,
            "probes": (*probes, np.zeros((3, 10), np.float32)[:, ::2], read_only),
            "array_api": _numpy_array_api()}


def _numpy_array_api() -> object:
    """The capsule of numpy's C API table (the one numpy's own extensions import), where
    the accelerator finds the function that makes an array (``_engine.c``'s NEW_ARRAY);
    None if this numpy has none where numpy 1.26 and 2.x keep it."""
    for name in ("numpy._core._multiarray_umath", "numpy.core._multiarray_umath"):
        try:
            return importlib.import_module(name)._ARRAY_API
        except (ImportError, AttributeError):
            continue
    return None


def _setup_native(arrays: dict[str, object]) -> bool:
    """Tell the accelerator the action ids, phases and kinds of this module, and, with
    ``arrays`` (:func:`_array_probes`, or empty for the buffer protocol only), how numpy
    arrays look; whether it reads numpy arrays directly."""
    global ARRAYS_MADE
    facts_count, direct, ARRAYS_MADE = _NATIVE.setup_batch({
        "ids": {"discard": DISCARD_BASE, "sixth": DISCARD_SIXTH, "one_up": ONE_UP_BASE,
                "announce": ANNOUNCE_BASE, "reset_seat": RESET_SEAT_BASE},
        "phases": _PHASES, "kinds": {k: SIMPLE_BASE + i for i, k in enumerate(SIMPLE_KINDS)},
        "K_PLAY": _K.PLAY, "K_ONE_UP": _K.ONE_UP, "K_ANNOUNCE": _K.ANNOUNCE,
        "K_RESET": _K.RESET, **arrays,
    })
    assert facts_count == len(FIELDS), (facts_count, len(FIELDS))
    return bool(direct)


ARRAYS_DIRECT: bool
"""Whether the accelerator reads numpy arrays' memory through numpy's array head (checked
on probe arrays when this module loads) rather than through the buffer protocol."""
ARRAYS_MADE: bool = False
"""Whether the accelerator makes a step's arrays through numpy's C API table (checked on
arrays it made when this module loads) rather than by calling ``numpy.empty``."""
if ENGINE is not None and hasattr(ENGINE, "setup_batch"):
    _NATIVE: Any = ENGINE
    ARRAYS_DIRECT = _setup_native(_array_probes())
else:
    _NATIVE, ARRAYS_DIRECT = None, False
ACCELERATED: bool = _NATIVE is not None
"""Whether the engine's C accelerator makes the observations, masks and steps."""
