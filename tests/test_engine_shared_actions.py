"""A game's copies share its list of actions instead of copying it (issue 28, twenty-third
pass).

``Game.copy()`` copied the game's whole list of actions, so a copy cost more as the game
went on (3 µs at 150 actions, 8 at 900), and the table server copies the game for every
action. Now a copy shares the list, as it shares the log of events since the sixteenth
pass: a game adds its action to the list in place while the list holds no more than that
game's actions, and a game whose copy went on first takes its own part as a list of its
own on its next action. The list :attr:`Game.actions` gives out is the game's alone (a
copy starts without one), so a list read from a game never changes by its copy's play.

Both paths are checked: the accelerator's ``apply`` and copier (in C) and the pure-Python
ones, each against games that made the same actions without a copy.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.engine import state as state_module
from engine_helpers import PureGame
from test_engine_properties import Case, cases


class PureCopies(PureGame):
    """The engine without its accelerator: the pure-Python methods
    (:class:`engine_helpers.PureGame`) and the pure-Python copier."""

    def copy(self) -> PureCopies:
        other: PureCopies = _PURE_COPY(self)
        self._rng_shared = other._rng_shared = True
        return other


_PURE_COPY: Any = state_module._build_copier_python(PureCopies)
PATHS = (Game, PureCopies)
"""Each path: the game class whose ``apply`` and ``copy`` it uses (with the accelerator
built, ``Game`` runs in C; without it, both are pure Python)."""


def _long_game(cls: type[Game], actions: int, seed: int = 3) -> Game:
    game = cls(Rules.preset("pagat"), players=4, seed=seed)
    rng = random.Random(seed)
    while game.action_count < actions and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def _replayed(game: Game) -> Game:
    """The game of ``game``'s actions, made without a copy."""
    fresh = type(game)(game.rules, players=game.players, seed=game.seed)
    for _, action in game.actions:
        fresh.apply(action)
    return fresh


def _fresh(case: Case, cls: type[Game], actions: list[str]) -> Game:
    """The game of ``case`` after ``actions``, made without a copy."""
    game = cls(case.rules, players=case.players, seed=case.seed)
    for action in actions:
        game.apply(action)
    return game


def _check(game: Game, actions: list[str], case: Case, cls: type[Game], how: int) -> None:
    """``game`` (reached by ``actions``) reads the actions, record, events and state of a
    game that made them without a copy, ``how`` choosing which reading comes first."""
    fresh = _fresh(case, cls, actions)
    expected = fresh.actions
    assert [str(a) for _, a in expected] == actions
    if how == 0:
        assert game.actions == expected
    elif how == 1:
        assert game.action_count == len(expected)
        cut = len(expected) // 2
        assert game.actions_between(cut) == expected[cut:]
        assert game.actions_between(-1) == expected[-1:]
        assert game.actions_between(cut, cut + 3) == expected[cut:cut + 3]
    else:
        assert game.record() == fresh.record()
    assert game.action_count == len(game.actions) == len(expected)
    assert game.actions == expected
    assert game.events == fresh.events
    assert (game.phase, game.to_act, game.scores, game.hands) == (
        fresh.phase, fresh.to_act, fresh.scores, fresh.hands)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.sampled_from(PATHS), st.randoms(use_true_random=False))
def test_copies_played_apart_are_the_games_played_from_scratch(
        case: Case, cls: type[Game], chooser: random.Random) -> None:
    """A tree of copies of a random game of every preset and variation, on each path: at
    each step a game of the tree is copied, or goes on by a legal action, or is read (its
    actions, a part of them, its record); each holds the actions, record, events and state
    of a game that made its actions without a copy, whichever of them went on first; and a
    list of actions read from a game changes only by that game's own play."""
    rng = random.Random(case.seed)
    tree: list[tuple[Game, list[str]]] = [(cls(case.rules, players=case.players,
                                               seed=case.seed), [])]
    held: list[tuple[Game, list[Any], list[Any]]] = []  # (game, its list read, a snapshot)
    for _ in range(150):
        index = chooser.randrange(len(tree))
        game, actions = tree[index]
        step = chooser.random()
        if step < 0.2 and len(tree) < 12:
            tree.append((game.copy(), list(actions)))
        elif step < 0.85 and not game.is_over:
            action = rng.choice(game.legal_actions())
            game.apply(action)
            actions.append(str(action))
        elif step < 0.9:
            read = game.actions
            held.append((game, read, list(read)))
        else:
            _check(game, actions, case, cls, chooser.randrange(3))
    for game, read, snapshot in held:
        assert read is game.actions and read[: len(snapshot)] == snapshot
    for game, actions in tree:
        _check(game, actions, case, cls, chooser.randrange(3))


def test_a_copy_shares_the_list_of_actions_instead_of_copying_it() -> None:
    """On each path a copy holds the very list of actions and its count, not a copy of its
    items, and so the list of event records not made yet (a copy cost more with every
    action taken: failed before, the copy held new lists); the first side that goes on adds
    to them in place, the other takes its own part on its next action, and neither sees
    the other's actions or events."""
    for cls in PATHS:
        game = _long_game(cls, 300)
        before = list(game.actions)
        twin = game.copy()
        assert twin._action_log is game._action_log and twin._pending is game._pending
        assert twin._action_count == game._action_count == len(before)
        assert twin._actions_given is None  # the list game.actions gave out is game's alone
        shared = game._action_log
        twin.apply(twin.legal_actions()[0])
        assert twin._action_log is shared and len(shared) == len(before) + 1  # in place
        assert game.actions == before and game.action_count == len(before)
        assert game.actions_between(0) == before
        records = twin._pending
        game.apply(game.legal_actions()[-1])
        assert game._action_log is not shared  # its own part, taken once
        assert game._pending is not records
        assert game.actions_between(0, -1) == before == twin.actions_between(0, -1)
        assert twin.actions == shared and len(twin.actions) == len(before) + 1
        assert game.events == _replayed(game).events
        assert twin.events == _replayed(twin).events


def test_a_copy_costs_the_same_at_any_length_of_the_game() -> None:
    """A copy references no action or event record of its original's (the lists are
    shared, not copied), at the game's start and near its end alike, whether the game's
    events were made (as the table server makes them) or not (a search's playouts): no
    list a copy holds of its own grows with the game's length (failed before: the actions,
    and the records of events not made, were copied)."""
    for cls in PATHS:
        for length in (10, 300):
            for made in (False, True):
                game = _long_game(cls, length, seed=7)
                if made:
                    assert game.events
                twin = game.copy()
                assert twin._action_log is game._action_log
                assert twin._pending is game._pending
                assert not any(
                    isinstance(value, list) and len(value) > 52
                    for name in state_module._plan(Game)[0]
                    if name not in ("_action_log", "_events", "_pending")
                    for value in [getattr(twin, name)]
                )
                assert twin.events == game.events


def test_a_list_read_before_the_copy_is_the_originals_alone() -> None:
    """A list read from a game (``game.actions``) goes on growing with that game's actions,
    as ever, and never with its copy's; the copy's list is another."""
    for cls in PATHS:
        game = _long_game(cls, 50)
        held = game.actions
        count = len(held)
        twin = game.copy()
        twin.apply(twin.legal_actions()[0])
        twin.apply(twin.legal_actions()[0])
        assert len(held) == count and held is game.actions
        assert twin.actions is not held and twin.actions[:count] == held
        game.apply(game.legal_actions()[-1])
        assert len(held) == count + 1 and held[-1] == game.actions_between(-1)[0]


def test_pickled_and_recorded_copies_round_trip() -> None:
    """A copy left behind by its original (its shared list longer than its actions) and
    the original pickle and replay to the same games, which play on as the originals do."""
    for cls in PATHS:
        game = _long_game(cls, 120)
        twin = game.copy()
        twin.apply(twin.legal_actions()[0])  # game is left behind on the shared list
        for one in (game, twin):
            back = pickle.loads(pickle.dumps(one))
            replayed = cls.replay(one.record())
            assert back.actions == replayed.actions == one.actions
            assert back.record() == replayed.record() == one.record()
            for other in (back, replayed):
                other.apply(other.legal_actions()[0])
            one.apply(one.legal_actions()[0])
            assert back.actions == replayed.actions == one.actions
            assert back.events == replayed.events == one.events


def test_setting_the_actions_gives_the_game_that_list() -> None:
    """``game.actions = [...]`` (an old pickle's slot) makes that list the game's: read back
    as the very list, counted, and grown by the game's next action."""
    game = _long_game(Game, 20)
    mine = list(game.actions)
    game.actions = mine
    assert game.actions is mine and game.action_count == len(mine) == 20
    game.apply(game.legal_actions()[0])
    assert len(mine) == 21 and game.actions_between(0) == mine


# ---------------------------------------------------------------------- segments
# (issue 28, twenty-sixth pass: engine/segments.py)


def test_copies_of_a_standing_game_do_not_take_its_actions_apart() -> None:
    """A search copies one position again and again and plays each copy out: the first
    copy goes on in the shared list, and each later copy used to take the position's whole
    actions and event records as lists of its own at its first action (failed before: 301
    actions and as many records in every copy after the first). Now such a copy keeps the
    shared lists as a finished segment and goes on in lists of its own holding only its
    new items; each copy reads the actions, record and events of a game that made its
    actions without a copy, on each path."""
    for cls in PATHS:
        position = _long_game(cls, 300, seed=11)
        count = position.action_count
        copies = [position.copy() for _ in range(4)]
        rng = random.Random(5)
        for twin in copies:
            for _ in range(3):
                twin.apply(rng.choice(twin.legal_actions()))
        for twin in copies[1:]:
            assert len(twin._action_log) == 3  # its own actions only
            assert len(twin._pending) < 40  # its own records only (3 actions' worth)
        for twin in copies:
            fresh = _replayed(twin)
            assert twin.action_count == count + 3
            assert twin.actions_between(count - 2, count + 2) == fresh.actions[count - 2:
                                                                               count + 2]
            assert twin.actions_between(-5) == fresh.actions[-5:]
            assert twin.record() == fresh.record()
            assert twin.events == fresh.events
            assert twin.actions == fresh.actions
        assert position.action_count == count and position.events == _replayed(position).events


def test_a_chain_of_copies_reads_its_segments_in_order() -> None:
    """A lineage of copies each of which goes on after its original did (so each forks
    with many actions of its own: a new segment every time, and past eight of them all
    joined into one list): every game on it reads, in every part, the actions, record and
    events of a game that made them without a copy, on each path; and so does each
    original left behind."""
    rules = Rules.preset("pagat", target=400)
    for cls in PATHS:
        rng = random.Random(17)
        game = cls(rules, players=4, seed=17)
        left: list[Game] = []
        depths: set[int] = set()
        for level in range(14):
            twin = game.copy()
            game.apply(rng.choice(game.legal_actions()))  # the original goes on first
            left.append(game)
            game = twin
            for _ in range(35 + level):
                if game.is_over:
                    break
                game.apply(rng.choice(game.legal_actions()))
            depths.add(len(game._action_base) // 2)
            fresh = _replayed(game)
            expected = fresh.actions
            total = len(expected)
            assert game.action_count == total
            for start in range(0, total + 1, 7):
                for stop in (start, start + 1, start + 40, total, None):
                    assert game.actions_between(start, stop) == expected[start:stop]
            assert game.actions_between(-3, -1) == expected[-3:-1]
        assert {0, 1, 8} <= depths  # forked to eight segments, and joined past them
        assert game.record() == _replayed(game).record()
        assert game.events == _replayed(game).events
        for old in left:
            assert old.actions == _replayed(old).actions and old.events == _replayed(old).events
