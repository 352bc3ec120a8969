"""Rules engine: views and event logs are independent snapshots with the documented schema.

R-EX-3 and R-ANN-5 (what is public), R-TRICK-5 (played cards), and the spectator view.
"""

from __future__ import annotations

import random
from typing import Any

from chicago import Game, Rules
from engine_helpers import advance_to, game, random_action, run, snapshot

VIEW_KEYS = {
    "seat", "players", "rules", "deal", "dealer", "phase", "round", "to_act", "scores",
    "locked", "hand", "hand_category", "discarded", "stock", "discard_pile", "exchanges",
    "announcements", "reveals", "round_results", "shown", "one_up", "chicago",
    "trick_number", "trick", "tricks", "played", "legal_actions", "events", "history", "over",
    "winners", "settlement", "chicago_declared", "chicago_made",
}


def _scribble(obj: Any) -> None:
    """Change every list and dict inside a JSON-like object, in place."""
    if isinstance(obj, dict):
        for value in list(obj.values()):
            _scribble(value)
        obj["scribbled"] = True
    elif isinstance(obj, list):
        for value in obj:
            _scribble(value)
        obj.append("Ah")


def test_views_and_logs_are_independent_copies() -> None:
    """Changing a view, a log or a history a caller got never changes the game."""
    rng = random.Random(5)
    g = Game(Rules.preset("pagat", max_deals=3), 3, seed=5)
    while not g.is_over:
        if rng.random() < 0.2:
            before = snapshot(g)
            for seat in (None, 0, 1, 2):
                _scribble(g.view(seat))
                _scribble(g.events_for(seat))
            _scribble(g.deal_history)
            _scribble(g.record())
            assert snapshot(g) == before
        g.apply(random_action(g, rng))


def test_view_schema() -> None:
    """Every view has the documented keys; a spectator's has no hand and no actions."""
    g = game("pagat", 3, dealer=2, hands=["9c 9d Kh 7s 2c"])
    for seat in (None, 0, 1, 2):
        view = g.view(seat)
        assert set(view) == VIEW_KEYS
        assert view["seat"] == seat and view["players"] == 3 and view["phase"] == "exchange"
    assert g.view(0)["hand"] == ["2c", "7s", "9c", "9d", "Kh"]
    assert g.view(0)["hand_category"] == "PAIR"
    assert g.view(0)["legal_actions"][0] == "keep" and g.view(1)["legal_actions"] == []
    spectator = g.view(None)
    assert spectator["hand"] == [] and spectator["legal_actions"] == []
    assert spectator["hand_category"] is None


def test_spectator_sees_only_public_cards() -> None:
    """R-EX-3 / R-TRICK-5: a spectator sees played and shown cards, never a hand."""
    g = game("pagat", 2, dealer=1, hands=["As Ad Kc 2h 3s", "Kh 4c 5d 6h 7c"])
    advance_to(g, "play")
    run(g, ["0: play As", "1: play Kh"])
    view = g.view(None)
    assert view["played"] == [["As"], ["Kh"]]
    assert view["tricks"] == [{"winner": 0, "cards": [{"seat": 0, "card": "As"},
                                                     {"seat": 1, "card": "Kh"}]}]
    text = str(view) + str(g.events_for(None))
    for card in ("Ad", "Kc", "2h", "3s", "4c", "5d", "6h", "7c"):
        assert card not in text
    assert all(e.get("to") is None for e in g.events_for(None))
