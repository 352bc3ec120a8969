"""A game's copies share its log of events instead of copying it (issue 28, sixteenth pass).

``Game.copy()`` used to copy the whole log of events made so far, so every copy cost more as
the game went on, and the table server copies the game once per action (the action applied
to a copy). Now a copy shares the list: a game adds its own events to it in place only while
the list holds no more than that game's events, and a game whose copy went on takes its own
part as a list of its own when its whole log is next read. These tests check that each game
of a tree of copies, read in any order and in every way (the whole log, a part of it, its
count, the deal's events, each seat's view), reads exactly the events that the same actions
make on a game that was never copied.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chicago import Game, Rules
from chicago.engine.views import seat_view
from test_engine_properties import Case, cases


def _fresh(case: Case, actions: list[str]) -> Game:
    """The game of ``case`` after ``actions``, made without a copy."""
    game = Game(case.rules, players=case.players, seed=case.seed)
    for action in actions:
        game.apply(action)
    return game


def _check(game: Game, actions: list[str], case: Case, how: int) -> None:
    """``game`` (reached by ``actions``) reads what the fresh game reads, ``how`` choosing
    which reading comes first."""
    fresh = _fresh(case, actions)
    expected = fresh.events
    if how == 0:
        assert game.events == expected
    elif how == 1:
        assert game.event_count == len(expected)
        cut = len(expected) // 2
        assert game.events_between(cut) == expected[cut:]
        assert game.events_between(cut, cut + 3) == expected[cut:cut + 3]
    elif how == 2:
        assert game.deal_events == fresh.deal_events
    else:
        for seat in [None, *range(game.players)]:
            assert seat_view(game, seat) == seat_view(fresh, seat)
    assert game.event_count == len(expected)
    assert game.events == expected


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.randoms(use_true_random=False))
def test_every_copy_reads_its_own_events_as_a_game_never_copied_would(
        case: Case, chooser: random.Random) -> None:
    """A tree of copies of a random game of every preset and variation: at each step a game
    of the tree is copied, or goes on by a legal action, or is read (its whole log, a part,
    the deal's events, every seat's and the spectators' view: V-HIDDEN); each reads the
    events of a game that made its actions without a copy, whichever of them went on
    first."""
    rng = random.Random(case.seed)
    tree: list[tuple[Game, list[str]]] = [(Game(case.rules, players=case.players,
                                                seed=case.seed), [])]
    for _ in range(120):
        index = chooser.randrange(len(tree))
        game, actions = tree[index]
        step = chooser.random()
        if step < 0.25 and len(tree) < 12:
            tree.append((game.copy(), list(actions)))
        elif step < 0.8 and not game.is_over:
            action = rng.choice(game.legal_actions())
            game.apply(action)
            actions.append(str(action))
        else:
            _check(game, actions, case, chooser.randrange(4))
    for game, actions in tree:
        _check(game, actions, case, chooser.randrange(4))


def test_a_copy_shares_the_log_of_events_instead_of_copying_it() -> None:
    """The copy holds the very list of events (a copy used to cost more with every event
    made); the first side that goes on adds to it in place, the other takes its own part
    when it next reads its whole log, and neither sees the other's events."""
    game = Game(Rules.preset("pagat"), players=4, seed=3)
    rng = random.Random(3)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    made = list(game.events)
    twin = game.copy()
    assert twin._events is game._events
    twin.apply(twin.legal_actions()[0])
    longer = twin.events
    assert longer is game._events and len(longer) > len(made)  # added in place
    assert game.event_count == len(made)
    assert game.events_between(0) == made and game._events is longer  # nothing taken apart
    assert game.events == made and game._events is not longer  # its own part now
    assert twin.events is longer and twin.events[: len(made)] == made


def test_a_log_cut_short_in_place_is_read_as_cut() -> None:
    """A test aid that rewinds a deal cuts the list in place (``del game.events[i:]``): the
    game then counts and reads the list as cut, as it did when each game held a list of its
    own."""
    game = Game(Rules.preset("pagat"), players=4, seed=5)
    rng = random.Random(5)
    for _ in range(10):
        game.apply(rng.choice(game.legal_actions()))
    kept = game.events[:4]
    del game.events[4:]
    assert game.event_count == 4
    assert game.events == kept
    assert game.events_between(1) == kept[1:]
