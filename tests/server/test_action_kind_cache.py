"""An update's action kind and whether its text is shown to every seat, read once per
stored text (issue 28, the twenty-second pass: before, ``Action.parse`` once per entry and
audience)."""

from __future__ import annotations

import random
from typing import Any

from server_support import count_parses

from chicago import Game
from chicago.engine.actions import ActionKind
from chicago.rules import PRESETS, Rules
from chicago.server.core import frames


def test_the_kept_kind_is_the_kind_read_afresh_R_EX_2_V_ONE_UP(monkeypatch: Any) -> None:
    """For every legal action of random games of every preset (with V-ONE-UP), the kind and
    the shown flag are those of the parsed action (a discard's or a one-up request's cards
    are never shown to the others), and a text asked about again is not parsed again."""
    for preset in sorted(PRESETS):
        game = Game(Rules.preset(preset).with_variations("V-ONE-UP"), players=4, seed=11)
        rng = random.Random(11)
        for _ in range(150):
            if game.is_over:
                break
            for action in game.legal_actions():
                text = str(action)
                hidden = action.kind in (ActionKind.DISCARD, ActionKind.ONE_UP) and bool(
                    action.cards)
                assert frames._action_kind(text) == (action.kind.value, not hidden)
            game.apply(rng.choice(game.legal_actions()))
    parsed = count_parses(monkeypatch)
    frames._action_kind.cache_clear()
    for _ in range(3):
        assert frames._action_kind("discard 2h 7c") == ("discard", False)
        assert frames._action_kind("play Ah") == ("play", True)
    assert parsed == ["discard 2h 7c", "play Ah"]
