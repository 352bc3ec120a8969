"""Rules engine: views and event logs are independent snapshots with the documented schema.

R-EX-3 and R-ANN-5 (what is public), R-TRICK-5 (played cards), and the spectator view. The
view is typed (``Game.view`` gives a frozen ``SeatView``); its JSON form (``view_json``) has
the documented keys.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from chicago import Game, Rules, SeatView
from chicago.cards import parse_cards
from chicago.categories import Category
from chicago.engine.events import Event, Exchange, OneUpChoice, Reshuffle, Show
from chicago.engine.phases import Phase
from chicago.engine.viewjson import view_json
from engine_helpers import advance_to, game, keep_all, random_action, run, snapshot

VIEW_KEYS = {
    "seat", "players", "rules", "deal", "dealer", "phase", "round", "to_act", "scores",
    "locked", "hand", "hand_category", "discarded", "stock", "discard_pile", "exchanges",
    "announcements", "reveals", "round_results", "shown", "one_up", "chicago",
    "trick_number", "trick", "tricks", "played", "legal_actions", "events", "history", "over",
    "winners", "settlement", "chicago_declared", "chicago_made", "known_out",
    "hand_sizes", "scoring_round", "chicago_points", "lock_at", "exchange_rounds",
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
    """Changing a view's JSON form, a log or a record a caller got never changes the game,
    and the typed view cannot be changed at all."""
    rng = random.Random(5)
    g = Game(Rules.preset("pagat", max_deals=3), 3, seed=5)
    while not g.is_over:
        if rng.random() < 0.2:
            before = snapshot(g)
            for seat in (None, 0, 1, 2):
                view = g.view(seat)
                with pytest.raises(dataclasses.FrozenInstanceError):
                    view.hand = ()  # type: ignore[misc]
                _scribble(view_json(view))
                _scribble(g.events_for(seat))
            _scribble(g.record())
            assert snapshot(g) == before
        g.apply(random_action(g, rng))


def test_view_schema() -> None:
    """Every view's JSON form has the documented keys; a spectator's has no hand and no
    actions."""
    g = game("pagat", 3, dealer=2, hands=["9c 9d Kh 7s 2c"])
    for seat in (None, 0, 1, 2):
        view = view_json(g.view(seat))
        assert set(view) == VIEW_KEYS
        assert view["seat"] == seat and view["players"] == 3 and view["phase"] == "exchange"
    assert view_json(g.view(0))["hand"] == ["2c", "7s", "9c", "9d", "Kh"]
    assert view_json(g.view(0))["hand_category"] == "PAIR"
    assert view_json(g.view(0))["legal_actions"][0] == "keep"  # type: ignore[index]
    assert view_json(g.view(1))["legal_actions"] == []
    spectator = view_json(g.view(None))
    assert spectator["hand"] == [] and spectator["legal_actions"] == []
    assert spectator["hand_category"] is None


def test_the_view_is_typed() -> None:
    """Issue 24: ``Game.view`` is a frozen dataclass of typed values (cards, categories, the
    phase, actions, the rules, the typed events), the same facts as its JSON form."""
    g = game("pagat", 3, dealer=2, hands=["9c 9d Kh 7s 2c"])
    view = g.view(0)
    assert isinstance(view, SeatView)
    assert view.phase is Phase.EXCHANGE and view.rules == g.rules
    assert view.hand == tuple(parse_cards("2c 7s 9c 9d Kh"))
    assert view.hand_category is Category.PAIR
    assert view.legal_actions == tuple(g.legal_actions())
    assert all(isinstance(e, Event) for e in view.events)
    assert g.view(1).legal_actions == () and g.view(None).hand == ()
    assert view == g.view(0)  # equal values: a view is built anew from the same state


def test_spectator_sees_only_public_cards() -> None:
    """R-EX-3 / R-TRICK-5: a spectator sees played and shown cards, never a hand."""
    g = game("pagat", 2, dealer=1, hands=["As Ad Kc 2h 3s", "Kh 4c 5d 6h 7c"])
    advance_to(g, "play")
    run(g, ["0: play As", "1: play Kh"])
    view = view_json(g.view(None))
    assert view["played"] == [["As"], ["Kh"]]
    assert view["tricks"] == [{"winner": 0, "cards": [{"seat": 0, "card": "As"},
                                                     {"seat": 1, "card": "Kh"}]}]
    text = str(view) + str([e.to_json() for e in g.events_for(None)])
    for card in ("Ad", "Kc", "2h", "3s", "4c", "5d", "6h", "7c"):
        assert card not in text
    assert all(e.audience is None for e in g.events_for(None))


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
            if view.phase == "exchange" and len(view.hand) == 5:
                events = view.events
                known_held = _known_held(events, game, seat)
                cases.append({
                    "events": events, "hand": [str(c) for c in view.hand],
                    "known_out": [str(c) for c in view.known_out],
                    "stock": sorted(str(c) for c in game._stock),  # the engine's true stock
                    "held": sorted(known_held),
                })
                if known_held and any(isinstance(e, Reshuffle) for e in events):
                    after_reshuffle += 1
            actions = game.legal_actions()
            texts = [str(a) for a in actions]
            # take a face-up card now and then, so that some hands hold a known card
            accept = [a for a, t in zip(actions, texts, strict=True) if t == "accept"]
            game.apply(accept[0] if accept and rng.random() < 0.7 else rng.choice(actions))
    return cases, after_reshuffle


def _known_held(events: tuple[Event, ...], game: Game, seat: int) -> set[str]:
    """Cards that are, in truth, in another seat's hand and that this seat saw go there (a
    shown hand, an accepted face-up card) with no exchange by the holder since."""
    known: dict[int, set[str]] = {}
    for ev in events:
        if isinstance(ev, Show):
            known[ev.seat] = {str(c) for c in ev.cards}
        elif isinstance(ev, Exchange) and ev.discarded:
            known.pop(ev.seat, None)
        elif isinstance(ev, OneUpChoice) and ev.accepted:
            known.setdefault(ev.seat, set()).add(str(ev.card))
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


# ------------------------------------------------------------------ facts the browser shows
def test_hand_sizes_are_the_cards_each_seat_holds_V_LOCK_6_V_ONE_UP() -> None:
    """Issue 24: the view says how many cards each seat holds (what the browser draws as
    backs), the same for every audience: six for a locked player under V-LOCK-6 until it
    discards, four while a face-up card waits (V-ONE-UP), five less the cards played."""
    seen: set[int] = set()
    for preset, variations, lock in (("pagat", ("V-LOCK-6",), 1),
                                     ("wikipedia", ("V-ONE-UP",), 46)):
        rules = Rules.preset(preset, max_deals=4, lock_at=lock).with_variations(*variations)
        for seed in range(4):
            g = Game(rules, 4, seed=seed)
            rng = random.Random(seed)
            while not g.is_over:
                sizes = tuple(len(h) for h in g.hands)
                for seat in (None, 0, 1, 2, 3):
                    assert g.view(seat).hand_sizes == sizes
                played = g.view(None).played
                if g.phase == "play":
                    assert sizes == tuple(5 - len(p) for p in played)
                seen.update(sizes)
                g.apply(rng.choice(g.legal_actions()))
    assert {6, 5, 4, 1} <= seen


def test_the_scoring_round_the_table_shows_R_ANN_3() -> None:
    """The view's ``scoring_round``: the words in order, each seat's revealed stages and the
    result; kept after the result until the next exchange round begins (then null)."""
    g = game("pagat", 4, dealer=3, hands=["9c 9d Kh 7s 2c", "5c 5d Qs 8h 3c",
                                            "9h 9s Kd Tc 4c", "2d 3d 4h 6s 8c"])
    assert g.view(None).scoring_round is None
    keep_all(g)
    run(g, ["0: announce pair", "1: announce pair", "2: announce pair", "3: pass"])
    current = g.view(1).scoring_round
    assert current is not None and current.round == 1
    assert [(w.seat, w.category) for w in current.words] == [
        (0, Category.PAIR), (1, Category.PAIR), (2, Category.PAIR), (3, None)]
    assert current.result is not None and current.result.winner == 2
    assert [r.rank_text for r in current.stages[0]] == ["9", "K", "7"]
    assert [r.rank_text for r in current.stages[1]] == ["5"]
    assert view_json(g.view(None))["scoring_round"]["stages"]["2"][0] == {
        "type": "reveal", "seat": 2, "stage": 1, "rank": "9"}
    assert g.view(0).scoring_round == current == g.view(None).scoring_round  # public
    run(g, ["0: keep"])  # the second exchange round begins: the round is over on the table
    assert g.view(0).scoring_round is None


def test_the_rule_values_the_table_names() -> None:
    """The points of a Chicago, the lock score and the exchange rounds are in the view (and
    its compact state), so a client names them without the rules."""
    rules = Rules.preset("wikipedia", chicago_points=20, lock_at=40)
    view = Game(rules, 3, seed=1).view(0)
    assert (view.chicago_points, view.lock_at, view.exchange_rounds) == (20, 40, 2)
    state = view_json(view)
    assert (state["chicago_points"], state["lock_at"], state["exchange_rounds"]) == (20, 40, 2)
    assert Game(Rules.preset("denexa"), 3, seed=1).view(None).lock_at == Rules.preset(
        "denexa").lock_at
