"""The hint's knowledge of where cards are (R-EX-2 reshuffles, one up, shows) and locked hands."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from chicago import Game, Rules, SeatView
from chicago.cards import parse_cards
from chicago.engine.events import Event as TypedEvent
from chicago.engine.events import event_from_json
from chicago.engine.knowledge import CardPlaces, card_places
from chicago.engine.views import hand_view
from chicago.odds import draw_odds
from chicago.poker import Category
from chicago.tui.hint_words import hint_lines
from chicago.tui.hints import hint, known_dead
from chicago.tui.render import hint_table
from test_tui_render import render

Event = dict[str, Any]


def deal(*events: Event) -> list[Event]:
    return [{"type": "deal", "deal": 1, "dealer": 3, "scores": [0, 0, 0, 0],
             "locked": [False] * 4}, *events]


def mine(discarded: list[str], drawn: list[str] | None = None) -> Event:
    """Seat 0's own exchange (the private event, addressed to it)."""
    return {"type": "exchanged", "seat": 0, "round": 1, "to": 0, "discarded": discarded,
            "drawn": drawn or []}


def exchange(seat: int, count: int, **extra: object) -> Event:
    return {"type": "exchange", "seat": seat, "round": 1, "discarded": count, "drawn": count,
            **extra}


def typed(events: Sequence[Event | TypedEvent]) -> list[TypedEvent]:
    """The typed events of JSON ones (typed ones as they are)."""
    return [e if isinstance(e, TypedEvent) else event_from_json(e) for e in events]


def knowledge(events: Sequence[Event | TypedEvent], seat: int) -> CardPlaces:
    """The engine's seat knowledge of where cards are (what the hint uses)."""
    return card_places(typed(events), seat)


def texts(cards: object) -> set[str]:
    return {str(c) for c in cards}  # type: ignore[attr-defined]


def show(seat: int, cards: str) -> Event:
    return {"type": "show", "seat": seat, "cards": cards.split(), "reason": "test"}


RESHUFFLE: Event = {"type": "reshuffle", "count": 20}


def test_before_a_reshuffle_every_card_seen_is_out_of_the_stock() -> None:
    events = deal(
        exchange(0, 2), mine(["2c", "3d"], ["4h", "5s"]),
        show(1, "Ah Ad 9c 8c 7c"), exchange(1, 3),
        exchange(2, 1, one_up=True), {"type": "one_up", "seat": 2, "card": "Kd"},
        {"type": "one_up_choice", "seat": 2, "card": "Kd", "accepted": False},
        exchange(3, 1, one_up=True), {"type": "one_up", "seat": 3, "card": "Qs"},
        {"type": "one_up_choice", "seat": 3, "card": "Qs", "accepted": True},
    )
    assert known_dead(typed(events), ["4h", "5s"]) == [
        "2c", "3d", "7c", "8c", "9c", "Qs", "Kd", "Ad", "Ah",
    ]


def test_after_a_reshuffle_the_old_pile_is_drawable_and_hands_are_not() -> None:
    """R-EX-2: the new stock is the pile as it was; what is known to be in a hand stays out."""
    events = deal(
        exchange(0, 2), mine(["2c", "3d"], ["4h", "5s"]),           # mine, before: back in
        show(1, "Ah Ad 9c 8c 7c"),                                   # seat 1 keeps them
        show(2, "Kc Kh 6d 6h 2s"), exchange(2, 2),                   # seat 2 breaks: maybe in
        exchange(3, 1, one_up=True), {"type": "one_up", "seat": 3, "card": "Qs"},
        {"type": "one_up_choice", "seat": 3, "card": "Qs", "accepted": True},   # in a hand
        {"type": "one_up_choice", "seat": 2, "card": "Jd", "accepted": False},  # pile: back in
        RESHUFFLE,
        exchange(0, 1), mine(["Ts"], ["3c"]),                        # mine, after: out
        show(3, "Tc Th 5c 5d Qs"), exchange(3, 1),                   # hand or new pile: out
        {"type": "one_up_choice", "seat": 1, "card": "8d", "accepted": False},  # new pile: out
    )
    known = knowledge(events, 0)
    assert known.reshuffles == 1
    assert texts(known.returned) == {"2c", "3d", "Jd"}
    dead = known_dead(typed(events), ["4h", "5s", "3c"], seat=0)
    assert set(dead) == {
        "Ah", "Ad", "9c", "8c", "7c",        # seat 1 has not exchanged since it showed them
        "Ts",                                 # my discard after the reshuffle
        "Tc", "Th", "5c", "5d", "Qs",        # seat 3: in its hand or the new pile
        "8d",                                 # rejected after the reshuffle
    }
    for maybe in ("2c", "3d", "Jd", "Kc", "Kh", "6d", "6h", "2s"):
        assert maybe not in dead  # may be in the new stock


def test_a_one_up_discard_joins_the_pile_after_a_reshuffle_for_the_rejected_card() -> None:
    """The one-up discard waits for the choice; a reshuffle for the next card cannot take it."""
    mine_one_up = deal(
        exchange(0, 1, one_up=True), mine(["Qs"], []), {"type": "one_up", "seat": 0, "card": "Jd"},
        RESHUFFLE,
        {"type": "one_up_choice", "seat": 0, "card": "Jd", "accepted": False},
        mine([], ["4c"]),
    )
    assert known_dead(typed(mine_one_up), ["4c"], seat=0) == ["Jd", "Qs"]
    theirs = deal(
        show(1, "Ah Ad 9c 8c 7c"), exchange(1, 1, one_up=True),
        {"type": "one_up", "seat": 1, "card": "Jd"}, RESHUFFLE,
        {"type": "one_up_choice", "seat": 1, "card": "Jd", "accepted": False},
    )
    assert known_dead(typed(theirs), [], seat=0) == ["7c", "8c", "9c", "Jd", "Ad", "Ah"]


def test_my_discards_of_the_exchange_that_empties_the_stock_stay_out() -> None:
    """The exchanging player's discards join the pile only after they have drawn (R-EX-2)."""
    events = deal(exchange(0, 3), mine(["2c", "3d"], ["4h", "5s"]), RESHUFFLE,
                  exchange(0, 2), mine(["7s", "8s"], ["9h", "Th"]))
    assert known_dead(typed(events), [], seat=0) == ["7s", "8s"]
    assert texts(knowledge(events, 0).returned) == {"2c", "3d"}


def _positions(rules: Rules, players: int, seeds: range,
               want: Callable[[Game], bool]) -> list[Game]:
    """Positions of random games (big discards, so that the stock runs out) where want holds."""
    found = []
    for seed in seeds:
        game = Game(rules, players=players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if want(game):
                found.append(game.copy())
            legal = game.legal_actions()
            big = [a for a in legal if len(str(a).split()) >= 4 and str(a).startswith("discard")]
            game.apply(rng.choice(big) if big and rng.random() < 0.7 else rng.choice(legal))
    return found


def test_dead_cards_are_never_in_the_stock_in_real_games() -> None:
    """Against the engine's stock and pile: sound at every exchange, reshuffles included."""
    rules = Rules.preset("wikipedia", max_deals=4).with_variations("V-LARGE")
    seen_reshuffle = 0
    for game in _positions(rules, 6, range(4), lambda g: g.phase.value == "exchange"):
        stock = {str(c) for c in game._stock}
        pile = {str(c) for c in game._discards}
        for seat in range(game.players):
            view = game.view(seat)
            hand = [str(c) for c in view.hand]
            known = knowledge(view.events, seat)
            dead = set(known_dead(view.events, hand, seat))
            assert not dead & stock, (seat, dead & stock)
            assert not (texts(known.held) - set(hand)) & (stock | pile)
            assert texts(known.pile) <= pile
            seen_reshuffle += known.reshuffles > 0
    assert seen_reshuffle > 50


def test_holds_past_the_end_of_the_stock_count_the_pile_as_drawable() -> None:
    rules = Rules.preset("pagat", max_deals=4).with_variations("V-LARGE")

    def short(game: Game) -> bool:
        if game.to_act is None:
            return False
        view = game.view(game.to_act)
        return (view.phase == "exchange" and len(view.hand) == 5
                and 0 < view.stock < 5 <= view.stock + view.discard_pile)

    games = _positions(rules, 6, range(6), short)
    assert games
    for game in games[:10]:
        view = game.view(game.to_act)
        result = hint(view)
        stock = view.stock
        assert result.short_stock == stock
        assert view.seat is not None
        hand = [str(c) for c in view.hand]
        in_hands = texts(knowledge(view.events, view.seat).held) - set(hand)
        within = {h.keep: h for h in draw_odds(hand, result.dead, rules)}
        beyond = {h.keep: h for h in draw_odds(hand, sorted(in_hands), rules)}
        assert len(result.holds) == 32
        for hold in result.holds:
            expected = within if len(hold.discard) <= stock else beyond
            assert hold.probabilities == expected[hold.keep].probabilities
        # ranked by what each hold is worth at the table (chicago.advice), best first
        assert [a.hold for a in result.advice] == result.holds
        assert [a.value for a in result.advice] == sorted(
            (a.value for a in result.advice), reverse=True)
        assert any("The stock has" in line for line in hint_lines(result))


def _locked_view(six: bool) -> SeatView:
    rules = Rules.preset("pagat", lock_at=1, max_deals=6)
    if six:
        rules = rules.with_variations("V-LOCK-6")

    def locked_me(game: Game) -> bool:
        view = game.view(0)
        if six:  # asked to discard one of six
            return (game.to_act == 0 and view.phase == "exchange" and view.locked[0]
                    and len(view.hand) == 6)
        # a locked seat is never asked to exchange: it looks while the others do
        return view.phase == "exchange" and view.locked[0] and len(view.hand) == 5

    games = _positions(rules, 3, range(20), locked_me)
    assert games
    return games[0].view(0)


def test_a_locked_hand_gets_its_category_not_draw_odds() -> None:
    view = _locked_view(six=False)
    result = hint(view)
    assert not result.can_exchange and result.holds == []
    assert result.reason == "you are locked and cannot exchange this deal"
    assert view.hand_category is not None and result.category == view.hand_category.name
    (line,) = hint_lines(result)
    assert line.startswith("No draw odds: you are locked and cannot exchange this deal. ")
    assert "No draw odds" in render(hint_table(result))


def test_a_locked_six_card_hand_gets_the_best_five_of_six() -> None:
    """V-LOCK-6: the six discards, each with the hand it leaves and its points, best first."""
    view = _locked_view(six=True)
    rules = view.rules
    hand = {str(c) for c in view.hand}
    result = hint(view)
    assert not result.can_exchange and len(result.six) == 6
    assert {c.discard for c in result.six} == hand
    keys = [c.key for c in result.six]
    assert keys == sorted(keys, reverse=True)
    for choice in result.six:
        assert set(choice.keep) == hand - {choice.discard}
        assert choice.points == rules.points_for(Category[choice.category])
    lines = hint_lines(result)
    assert lines[0].startswith("No draw: you are locked with six cards")
    assert lines[1].startswith(f"1. throw away {result.six[0].discard}: keep ")
    assert "Locked with six cards" in render(hint_table(result))


def test_no_odds_after_the_last_exchange() -> None:
    game = Game(Rules.preset("pagat"), players=2, seed=3)
    while game.phase.value not in ("play",):
        game.apply(game.legal_actions()[0])
    view = game.view(0)
    assert len(view.hand) == 5  # nobody has played yet
    result = hint(view)
    assert not result.can_exchange
    assert "exchanges of this deal are over" in hint_lines(result)[0]
    with pytest.raises(ValueError, match="five cards"):
        hint(hand_view(parse_cards("2c")))
