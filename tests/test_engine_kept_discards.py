"""The accelerator's discard actions of up to three cards are made once and kept (issue 28,
thirty-fourth pass; those of one and two cards were already): two games that list the
same exchange turn list the same objects for them, equal to the actions the pure path
makes (R-EX-1). Since the fortieth pass those of four and five cards come from a bounded
table of recycled actions (tests/test_engine_recycled_discards.py), so two games listing
the same turn one after the other share them too."""

from __future__ import annotations

import pytest

from chicago import Action, ActionKind, Game, Rules
from chicago.engine.native import ENGINE
from chicago.rules import PRESETS
from engine_helpers import PureGame

pytestmark = pytest.mark.skipif(ENGINE is None, reason="the engine accelerator is not built "
                                "(or CHICAGO_PURE_PYTHON is set)")


def test_discards_of_up_to_three_cards_are_kept_and_right() -> None:
    """R-EX-1: the legal actions are the pure path's; every discard listed is the action of
    its cards and the same object in two games with the same hand (those of four and five
    cards since the fortieth pass: the second game finds the first's in the table)."""
    for preset in PRESETS:
        for seed in range(30):
            a, b = Game(Rules.preset(preset), 4, seed=seed), Game(Rules.preset(preset), 4,
                                                                  seed=seed)
            assert a.hands == b.hands
            first, second = a.legal_actions(), b.legal_actions()
            assert first == second and first is not second
            assert first == PureGame(Rules.preset(preset), 4, seed=seed).legal_actions()
            discards = [(x, y) for x, y in zip(first, second, strict=True)
                        if x.kind is ActionKind.DISCARD]
            assert len(discards) == 32  # max_discard 5 in every preset, a full stock
            for x, y in discards:
                assert x == Action.discard(x.cards)
                assert x is y, (preset, seed, x)
