"""The four- and five-card discards recycled, and a turn's lists changed in place, in the
engine's C accelerator (issue 28, fortieth pass).

Until this pass every exchange turn made its four- and five-card discard actions anew (six of
its 32 options) and the caller freed them with its list. Now they come from a bounded table
(``_engine.recycled_discards()``): an action of the same mask is given out again, and one that
nobody else holds any more is rewritten in place for the next mask. Shown here: two games
listing the same hand share them, and every one a turn lists is the table's (both fail before
the pass); an action that anyone holds (a kept list, the game's log, a set) never changes;
and random games of every preset with random variations and options, 2-6 seats, plain,
stacked and duplicate sources, whose player keeps some old lists and actions and drops the
others, are the same step by step as the pure-Python game's (legal actions, the whole state,
the events and the record). The same lockstep covers the other cuts of the pass, which change
nothing a caller can see: the hand, stock and piles changed in place, the ints and masks read
from the objects, and the legal actions' list made at its size.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given

from accelerator_cases import derandomized, sourced_tables
from chicago import Action, Game, Rules
from chicago.engine import ActionKind, Phase
from chicago.engine.native import ENGINE
from chicago.rules import PRESETS
from test_engine_accelerator import new_games, state

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")

_K = ActionKind


def big(action: Action) -> bool:
    """A discard of four or five cards (the recycled ones)."""
    return action.kind is _K.DISCARD and len(action.cards) >= 4


def test_two_games_listing_the_same_hand_share_the_four_and_five_card_discards() -> None:
    """R-EX-1: the same hand's four- and five-card discards are the same objects in two games
    (before the pass each game made its own), equal to the action of their cards."""
    for preset in PRESETS:
        for seed in range(20):
            rules = Rules.preset(preset)
            first = Game(rules, 4, seed=seed).legal_actions()
            second = Game(rules, 4, seed=seed).legal_actions()
            pairs = [(x, y) for x, y in zip(first, second, strict=True) if big(x)]
            assert len(pairs) == 6  # C(5, 4) + 1 with max_discard 5
            for x, y in pairs:
                assert x is y and x == Action.discard(x.cards), (preset, seed, x)


def test_every_four_and_five_card_discard_listed_is_the_tables() -> None:
    """Random play as the benchmark plays it (each list dropped at the next): every four- and
    five-card discard listed is held by the table, which never holds more than its 1,024."""
    assert ENGINE is not None
    rng = random.Random(5)
    listed = 0
    for seed in range(20):
        game = Game(Rules.preset("pagat").replace(max_deals=5), 4, seed=seed)
        while not game.is_over:
            legal = game.legal_actions()
            held = {id(a) for a in ENGINE.recycled_discards()}
            for action in legal:
                if big(action):
                    listed += 1
                    assert id(action) in held, action
            game.apply(rng.choice(legal))
    assert listed > 500
    assert len(ENGINE.recycled_discards()) <= 1024


def test_an_action_held_anywhere_never_changes() -> None:
    """Actions kept in lists, a set and the games' logs, while thousands of turns go on
    through the same table: each still is the action of its cards, with that hash, and the
    logs read the same actions as a pure record of them."""
    rng = random.Random(9)
    kept: list[tuple[Action, int, int]] = []
    bag: set[Action] = set()
    games = []
    for seed in range(40):
        rules = Rules.preset(rng.choice(sorted(PRESETS))).replace(max_deals=5)
        game = Game(rules, rng.randint(2, min(6, rules.max_players)), seed=seed)
        log = []
        while not game.is_over:
            legal = game.legal_actions()
            for action in legal:
                if big(action) and rng.random() < 0.05:
                    kept.append((action, action.card_mask, hash(action)))
                    bag.add(action)
            action = rng.choice(legal)
            log.append((action.kind, action.card_mask))
            game.apply(action)
        games.append((game, log))
    assert len(kept) > 200
    for action, mask, hashed in kept:
        assert action.card_mask == mask and hash(action) == hashed
        assert action == Action.discard(action.cards) and action in bag
    for game, log in games:
        assert [(a.kind, a.card_mask) for _, a in game.actions] == log


@derandomized(80)
@given(sourced_tables(4))
def test_recycled_discards_and_lists_in_place_are_the_pure_games(
        table: tuple[Rules, int, int, str]) -> None:
    """Every variation drawn (R-EX-1's discards, R-EX-2's reshuffles, R-EX-4's shown hands,
    the plays R-TRICK-*): the accelerated game and the pure-Python one give the same legal
    actions, state, events and record, action for action, while the player keeps some old
    lists and actions (the table may not rewrite those) and drops the others."""
    fast, pure = new_games(*table)
    rng = random.Random(table[2])
    held: list[tuple[list[Action], list[tuple[object, ...]]]] = []
    while not pure.is_over:
        legal = pure.legal_actions()
        listed = fast.legal_actions()
        assert listed == legal
        if rng.random() < 0.2:
            held.append((listed, [tuple(a) for a in listed]))  # a list kept, its values
        if len(held) > 6:
            held.pop(rng.randrange(len(held)))
        action = rng.choice(legal)
        if pure.phase is Phase.EXCHANGE and rng.random() < 0.5:
            bigs = [a for a in legal if big(a)]
            action = rng.choice(bigs) if bigs else action
        pure.apply(action)
        fast.apply(listed[legal.index(action)])  # the fast game's own object
        assert state(fast) == state(pure), f"{action} at deal {pure.deal_number}"
        for was, values in held:
            assert [tuple(a) for a in was] == values
        if rng.random() < 0.05:
            fast, pure = fast.copy(), pure.copy()
    assert fast.events == pure.events and fast.record() == pure.record()
