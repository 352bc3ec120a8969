"""Records and entries shared from a kept table, an exchange turn's tuple of options kept for
the next turn, and a few of the rules' reads kept, in the engine's C accelerator (issue 28,
forty-sixth pass).

Shown here: two games played alike hold the same record and entry tuples (before the pass
every record and every ``(seat, action)`` entry was a new tuple), the records are equal to the
pure-Python game's all the same; an exchange turn's tuple of options is used again at the next
turn (``_engine.pass46_stats()``, which main lacks) but never while anyone else holds it (a
caller, a copy of the game); a discard of four or five cards held by a kept entry is never
rewritten; the kept points, show-on-break flag and deal rules follow each game's own Rules
when games of other rules run in between; a hand of Cards that are not the engine's own is
shown as the pure game shows it; and random games of every preset with random variations and
options, 2-6 seats, plain, stacked and duplicate sources, two tables played in turn, are the
same step by step as the pure-Python games (legal actions, the whole state, events, record).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given

from accelerator_cases import derandomized, sourced_tables
from chicago import Card, Game, Rules
from chicago.cards import DECK
from chicago.engine import ActionKind, Phase
from chicago.engine.native import ENGINE
from chicago.rules import PRESETS
from engine_helpers import PureGame
from test_engine_accelerator import state
from test_engine_pass43 import play_in_turn

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")


def play_pairs(first: Game, second: Game, actions: int, seed: int) -> None:
    """The same ``actions`` random actions in both games, in turn (fewer if they end)."""
    rng = random.Random(seed)
    for _ in range(actions):
        if first.is_over:
            return
        legal = first.legal_actions()
        k = rng.randrange(len(legal))
        first.apply(legal[k])
        second.apply(second.legal_actions()[k])


def test_two_games_played_alike_share_their_records_and_entries() -> None:
    """R-TRICK-1, R-PHASE-*: the records of plays, tricks, passes and announcements, and the
    ``(seat, action)`` entries of the actions, come from a kept table: two games played alike,
    in turn, hold the same tuples (before the pass each was a new tuple), equal to the
    pure-Python game's."""
    rules = Rules.preset("pagat")
    first, second = Game(rules, 4, seed=21), Game(rules, 4, seed=21)
    pure = PureGame(rules, 4, seed=21)
    play_pairs(first, second, 300, 4)
    rng = random.Random(4)
    for _ in range(300):
        if pure.is_over:
            break
        legal = pure.legal_actions()
        pure.apply(legal[rng.randrange(len(legal))])
    assert first._pending == second._pending == pure._pending
    assert first.actions == second.actions == pure.actions
    records = first._pending[: first._pending_count]
    same = sum(a is b for a, b in zip(records, second._pending, strict=False))
    assert same >= 0.6 * len(records), (same, len(records))
    entries = first.actions
    shared = sum(a is b for a, b in zip(entries, second.actions, strict=True))
    assert shared >= 0.6 * len(entries), (shared, len(entries))
    assert first.events == pure.events and first.record() == pure.record()


def exchange_turn(seed: int) -> Game:
    """A pagat game at its first exchange turn of a five-card hand."""
    game = Game(Rules.preset("pagat"), 4, seed=seed)
    assert game.phase is Phase.EXCHANGE and len(game.hands[game.to_act]) == 5
    return game


def test_an_exchange_turns_tuple_of_options_is_used_again() -> None:
    """R-EX-1: after an exchange turn is taken, its tuple of 32 options is kept and filled
    again at the next exchange turn (counted by ``pass46_stats``); the options are the
    pure-Python game's all along."""
    assert ENGINE is not None
    before = ENGINE.pass46_stats()[2]
    rules = Rules.preset("pagat")
    fast, pure = Game(rules, 4, seed=5), PureGame(rules, 4, seed=5)
    turns = 0
    rng = random.Random(5)
    while fast.deal_number <= 3 and not fast.is_over:
        legal = fast.legal_actions()
        assert legal == pure.legal_actions()
        if fast.phase is Phase.EXCHANGE and len(fast.hands[fast.to_act]) == 5:
            turns += 1
        k = rng.randrange(len(legal))
        fast.apply(legal[k])
        pure.apply(pure.legal_actions()[k])
    assert turns >= 8
    assert ENGINE.pass46_stats()[2] - before >= turns - 1


def test_a_tuple_of_options_someone_holds_is_never_emptied() -> None:
    """R-EX-1: the options' tuple is kept only when the game held it alone: a tuple a caller
    holds, or one a copy of the game shares, keeps its options after the turn is taken."""
    game = exchange_turn(9)
    game.legal_actions()
    held = game._legal
    assert held is not None and len(held) >= 32
    expected = list(held)
    game.apply(expected[3])
    assert list(held) == expected  # still whole: the caller's
    other = exchange_turn(10)
    other.legal_actions()
    copy = other.copy()
    options = list(other._legal or ())
    other.apply(options[-1])
    assert copy._legal is not None and list(copy._legal) == options
    assert copy.legal_actions() == options
    copy.apply(options[0])
    assert copy.hands != other.hands


def test_a_kept_entrys_large_discard_is_never_rewritten() -> None:
    """R-EX-2: a discard of four or five cards (from the recycled table, rewritten in place
    only while nobody holds it) that a kept ``(seat, action)`` entry holds keeps its cards
    while many more turns list other large discards."""
    rules = Rules.preset("pagat").replace(max_discard=5)
    game = Game(rules, 4, seed=31)
    big = next(a for a in game.legal_actions()
               if a.kind is ActionKind.DISCARD and len(a.cards) >= 4)
    cards = big.cards
    game.apply(big)
    entry = game.actions[-1]
    assert entry[1] is big
    for seed in range(40):
        other = Game(rules, 4, seed=seed)
        for _ in range(12):
            if other.phase is not Phase.EXCHANGE:
                break
            other.apply(other.legal_actions()[-1])
    assert big.cards == cards and entry[1].cards == cards
    assert game.actions[-1] == (entry[0], big)


def test_the_kept_rules_reads_follow_each_games_rules() -> None:
    """R-HAND-1, R-FIN-1, R-EX-4: points, show-on-break and the deal's rules are kept per Rules
    object; games of different point tables and settings played in turn score, show and deal
    as the pure-Python games do."""
    tables = []
    for k, preset in enumerate(sorted(PRESETS) * 2):
        base = Rules.preset(preset)
        points = (0, *(p + k for p in base.points[1:]))
        rules = base.replace(points=points, show_on_break=bool(k % 2))
        tables.append((Game(rules, 4, seed=k), PureGame(rules, 4, seed=k)))
    rng = random.Random(2)
    for _ in range(120):
        for fast, pure in tables:
            if pure.is_over:
                continue
            legal = pure.legal_actions()
            action = legal[rng.randrange(len(legal))]
            pure.apply(action)
            fast.apply(action)
            assert state(fast) == state(pure)
    for fast, pure in tables:
        assert fast.events == pure.events


def test_a_hand_of_other_card_objects_is_shown_as_the_pure_game_shows_it() -> None:
    """R-EX-4 (show on break): a hand whose Cards are not the engine's own objects is sorted
    as sorted() sorts it; a hand of the engine's own is sorted in C. Both show the pure
    game's cards."""
    rules = Rules.preset("pagat").replace(show_on_break=True)
    for own in (False, True):
        fast, pure = Game(rules, 4, seed=7), PureGame(rules, 4, seed=7)
        for game in (fast, pure):
            seat = game.to_act
            assert seat is not None
            ids = (51, 38, 25, 12, 3)
            # the engine's own Card objects, or equal Cards that are other objects
            hand = [DECK[c] if own else int.__new__(Card, c) for c in ids]
            assert all((card is DECK[c]) is own for card, c in zip(hand, ids, strict=True))
            game.hands[seat][:] = hand
            game._protected[seat] = sum(1 << int(c) for c in hand[:4])
            game._legal = None
        discard = next(a for a in pure.legal_actions()
                       if a.kind is ActionKind.DISCARD and a.cards == (Card(51),))
        pure.apply(discard)
        fast.apply(discard)
        assert state(fast) == state(pure)
        assert fast.shown == pure.shown and pure.shown, "nothing was shown"
        assert fast.events == pure.events


@derandomized(60)
@given(sourced_tables(3), sourced_tables(3))
def test_two_tables_in_turn_are_the_pure_games(
        one: tuple[Rules, int, int, str], two: tuple[Rules, int, int, str]) -> None:
    """Every variation drawn (R-EX-*'s discards, reshuffles and shown hands, R-ANN-*'s
    announcements, R-TRICK-* and R-FIN-1): two tables of different rules played in turn (the
    kept records, options' tuples and rules reads shared between them) give the same legal
    actions, state, events and record as the pure-Python games, action for action; a
    caller now and then holds the turn's options across the action."""
    play_in_turn(one, two, hold=0.1)
