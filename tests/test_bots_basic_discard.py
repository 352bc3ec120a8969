"""The ``basic`` bot's exchange: the discard it picks by card masks is the one the plain
rule picks (issue 28: the bot's reply is part of every person's move on a server's table).

The rule (:func:`chicago.bots.basic._discard_action`): the legal plain discard that throws
exactly the cards not kept; else the one that throws the most of them and nothing else (the
first of equals); else the first legal action. Checked against the rule written with sets,
on the exchange turns of random games of every preset and variation, for random cards kept
and random parts of the legal actions (R-EX-1, R-EX-2: which discards are legal).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chicago import Game
from chicago.bots.basic import _discard_action
from chicago.cards import Card
from chicago.engine.actions import Action, ActionKind
from test_engine_properties import Case, cases


def _by_sets(legal: Sequence[Action], hand: Sequence[Card], keep: Sequence[Card]) -> Action:
    """The rule, written with sets of cards."""
    throw = {c for c in hand if c not in keep}
    best: Action | None = None
    for action in legal:
        if action.kind is not ActionKind.DISCARD:
            continue
        cards = set(action.cards)
        if cards == throw:
            return action
        if cards <= throw and (best is None or len(cards) > len(best.cards)):
            best = action
    return best if best is not None else legal[0]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(), st.randoms(use_true_random=False))
def test_the_discard_picked_by_masks_is_the_one_the_rule_picks_R_EX_1(
        case: Case, rng: random.Random) -> None:
    game = Game(case.rules, players=case.players, seed=case.seed)
    checked = 0
    while not game.is_over and checked < 60:
        legal = game.legal_actions()
        seat = game.to_act
        if seat is not None and any(a.kind is ActionKind.DISCARD for a in legal):
            hand = list(game.hands[seat])
            for _ in range(4):
                keep = rng.sample(hand, rng.randrange(len(hand) + 1))
                part = rng.sample(legal, rng.randrange(1, len(legal) + 1))
                for options in (legal, part):
                    assert _discard_action(options, hand, keep) == _by_sets(options, hand, keep)
                checked += 1
        game.apply(rng.choice(legal))
