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
    "winners", "settlement", "chicago_declared", "chicago_made", "known_out",
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


# ------------------------------------------------------------------ known_out vs the stock
def _dead_cases(games: int) -> tuple[list[dict[str, Any]], int]:
    """Exchange decisions of random six-seat games with the face-up card (wikipedia rules:
    two exchanges, so the 22-card stock often runs out): the seat's events and hand, the
    cards really in the stock, and the cards known to be in another hand.
    Returns the cases and how many of them came after a reshuffle with a held card known."""
    rules = Rules.preset("wikipedia", max_deals=1).with_variations("V-LARGE")
    cases: list[dict[str, Any]] = []
    after_reshuffle = 0
    for seed in range(games):
        game = Game(rules, players=6, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            if view["phase"] == "exchange" and len(view["hand"]) == 5:
                events = view["events"]
                known_held = _known_held(events, game, seat)
                cases.append({
                    "events": events, "hand": view["hand"], "known_out": view["known_out"],
                    "stock": sorted(str(c) for c in game._stock),  # the engine's true stock
                    "held": sorted(known_held),
                })
                if known_held and any(e["type"] == "reshuffle" for e in events):
                    after_reshuffle += 1
            actions = game.legal_actions()
            texts = [str(a) for a in actions]
            # take a face-up card now and then, so that some hands hold a known card
            accept = [a for a, t in zip(actions, texts, strict=True) if t == "accept"]
            game.apply(accept[0] if accept and rng.random() < 0.7 else rng.choice(actions))
    return cases, after_reshuffle


def _known_held(events: list[dict[str, Any]], game: Game, seat: int) -> set[str]:
    """Cards that are, in truth, in another seat's hand and that this seat saw go there (a
    shown hand, an accepted face-up card) with no exchange by the holder since."""
    known: dict[int, set[str]] = {}
    for ev in events:
        if ev["type"] == "show":
            known[ev["seat"]] = set(ev["cards"])
        elif ev["type"] == "exchange" and ev.get("discarded"):
            known.pop(ev["seat"], None)
        elif ev["type"] == "one_up_choice" and ev["accepted"]:
            known.setdefault(ev["seat"], set()).add(ev["card"])
    hands = {s: {str(c) for c in game.hands[s]} for s in range(game.players)}
    return {c for s, cards in known.items() if s != seat for c in cards if c in hands[s]}


def test_known_out_cards_are_never_in_the_stock_and_keep_held_cards_after_a_reshuffle() -> None:
    """The view's ``known_out`` (the engine's seat knowledge, what the browser's hint sends):
    at exchange decisions of random six-seat games with reshuffles and face-up cards, never
    a card that is in the stock (R-EX-2), always a card known to be in another hand, also
    after a reshuffle, and never a card of the seat's own hand."""
    cases, after_reshuffle = _dead_cases(60)
    assert after_reshuffle >= 5, "too few decisions after a reshuffle with a held card known"
    for case in cases:
        dead = case["known_out"]
        assert not set(dead) & set(case["stock"]), "a card counted out of the stock is in it"
        assert set(case["held"]) <= set(dead), "a card known to be held counts as drawable"
        assert not set(dead) & set(case["hand"])
