"""A game's counts kept, an exchange turn's options listed directly and the rules' two hand
flags read once, in the engine's C accelerator (issue 28, forty-third pass).

Shown here: the counts of a game's records and actions are kept ints (two games at the same
count hold the same object; before the pass each count past 256 was a new int), every
exchange turn of a game is listed by the new direct listing (``_engine.pass43_stats()``, which
main lacks), the listing gives the same actions in the same order as the pure-Python game for
every hand, limit and one-up setting, a hand's category follows the rules of its own game
when games of other rules run in between (the flags are read once per Rules object), and
random games of every preset with random variations and options, 2-6 seats, plain, stacked
and duplicate sources, two tables played in turn, are the same step by step as the
pure-Python games (legal actions, the whole state, events and record).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given

from accelerator_cases import derandomized, sourced_tables
from chicago import Action, Card, Game, Rules
from chicago.cards import parse_cards
from chicago.engine import ActionKind, Phase
from chicago.engine.native import ENGINE
from chicago.rules import PRESETS
from engine_helpers import PureGame
from test_engine_accelerator import new_games, state

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")


def play_to(game: Game, actions: int, seed: int) -> None:
    """``actions`` random actions (fewer if the game ends)."""
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))


def test_two_games_at_the_same_count_hold_the_same_int() -> None:
    """The counts of a game's records and actions come from a kept table of ints: two games
    played alike hold the same objects past 256 (before the pass each count was a new int)."""
    rules = Rules.preset("pagat")
    first, second = Game(rules, 4, seed=8), Game(rules, 4, seed=8)
    play_to(first, 400, 1)
    play_to(second, 400, 1)
    assert first._pending_count == second._pending_count > 256
    assert first._action_count == second._action_count > 256
    assert first._pending_count is second._pending_count
    assert first._action_count is second._action_count
    assert first.events == second.events and len(first.actions) == first._action_count


def test_every_exchange_turn_is_listed_directly() -> None:
    """R-EX-1: every exchange turn of a five-card hand is listed by the direct listing (none
    left to the old loop), and its options are the kept discards of up to three cards (the
    same objects in two games) and the recycled ones of four and five."""
    assert ENGINE is not None
    listed, left, _ = ENGINE.pass43_stats()
    turns = 0
    for preset in PRESETS:
        rules = Rules.preset(preset)
        for seed in range(10):
            first, second = Game(rules, 4, seed=seed), Game(rules, 4, seed=seed)
            rng = random.Random(seed)
            while not first.is_over and first.deal_number <= 2:
                a, b = first.legal_actions(), second.legal_actions()
                assert a == b
                if first.phase is Phase.EXCHANGE and len(first.hands[first.to_act]) == 5:
                    turns += 1
                    for x, y in zip(a, b, strict=True):
                        if x.kind is ActionKind.DISCARD and len(x.cards) <= 3:
                            assert x is y, (preset, seed, x)
                k = rng.randrange(len(a))
                first.apply(a[k])
                second.apply(b[k])
    now_listed, now_left, _ = ENGINE.pass43_stats()
    assert turns > 100
    assert now_listed - listed >= turns
    assert now_left == left


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_options_of_any_hand_are_the_pure_games(preset: str) -> None:
    """R-EX-1, R-EX-2, V-ONE-UP: for random hands, every discard limit (0-5) and one up on or
    off, the listed options are the pure-Python game's, in its order, each the action of
    its cards."""
    rng = random.Random(preset)
    for limit in range(6):
        for one_up in (False, True):
            rules = Rules.preset(preset).replace(max_discard=max(limit, 1), one_up=one_up)
            for seed in range(8):
                fast, pure = Game(rules, 4, seed=seed), PureGame(rules, 4, seed=seed)
                hand = rng.sample(range(52), 5)
                for game in (fast, pure):
                    assert game.phase is Phase.EXCHANGE
                    game.hands[game.to_act][:] = [Card(c) for c in hand]
                    game._legal = None
                    if limit == 0:  # an empty stock and pile: nothing to draw (R-EX-2)
                        game._stock[:] = []
                        game._discards[:] = []
                listed, expected = fast.legal_actions(), pure.legal_actions()
                assert listed == expected, (preset, limit, one_up, hand)
                for action in listed:
                    if action.kind is ActionKind.DISCARD:
                        assert action == Action.discard(action.cards)


def test_a_hands_category_follows_its_own_games_rules() -> None:
    """R-ANN-*: the announcement of a wheel (A-2-3-4-5 of mixed suits) is a straight only
    where wheel_straight is on, with games of both settings asked in turn (the flags are
    read once per Rules object, never carried over to another)."""
    wheel = list(parse_cards("AS 2H 3D 4C 5S"))
    games: list[tuple[Game, Game]] = []
    for on in (True, False, True, False):
        rules = Rules.preset("pagat").replace(wheel_straight=on)
        pair = (Game(rules, 4, seed=3), PureGame(rules, 4, seed=3))
        for game in pair:
            while game.phase is not Phase.ANNOUNCE:
                game.apply(game.legal_actions()[0])
            seat = game.to_act
            game.hands[seat][:] = wheel
            game._categories[seat] = None
            game._legal = None
        games.append(pair)
    for _ in range(2):
        for fast, pure in games:
            fast._categories[fast.to_act] = None
            fast._legal = None
            assert fast.legal_actions() == pure.legal_actions()
    straights = [len(fast.legal_actions()) for fast, _ in games]
    assert straights[0] == straights[2] == 2 and straights[1] == straights[3] == 1


def play_in_turn(one: tuple[Rules, int, int, str], two: tuple[Rules, int, int, str],
                 hold: float = 0.0) -> None:
    """Two tables (accelerated and pure-Python games of each) played in turn, random action
    for random action, now and then both copied: the same legal actions, state and counts
    after every action, the same events and record at the end. With ``hold``, the caller
    keeps the turn's listed options across the action that often, and they must not change."""
    pairs = [new_games(*one), new_games(*two)]
    rng = random.Random(one[2] ^ two[2])
    while not all(pure.is_over for _, pure in pairs):
        for k, (fast, pure) in enumerate(pairs):
            if pure.is_over:
                continue
            legal = pure.legal_actions()
            listed = fast.legal_actions()
            assert listed == legal
            held = fast._legal if hold and rng.random() < hold else None
            kept = list(held) if held is not None else None
            action = rng.choice(legal)
            pure.apply(action)
            fast.apply(listed[legal.index(action)])
            if held is not None:
                assert list(held) == kept
            assert state(fast) == state(pure), f"{action} at deal {pure.deal_number}"
            assert fast._pending_count == pure._pending_count
            assert fast._action_count == pure._action_count
            if rng.random() < 0.03:
                pairs[k] = (fast.copy(), pure.copy())
    for fast, pure in pairs:
        assert fast.events == pure.events and fast.record() == pure.record()


@derandomized(60)
@given(sourced_tables(3), sourced_tables(3))
def test_two_tables_in_turn_are_the_pure_games(
        one: tuple[Rules, int, int, str], two: tuple[Rules, int, int, str]) -> None:
    """Every variation drawn (R-EX-*'s discards, reshuffles and shown hands, R-ANN-*'s
    announcements, R-TRICK-* and R-FIN-1): two tables of different rules played in turn
    (the kept rules flags and counts shared between them) give the same legal actions,
    state, events and record as the pure-Python games, action for action."""
    play_in_turn(one, two)
