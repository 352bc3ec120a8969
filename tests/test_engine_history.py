"""The finished deals of a view carry their public card play (issue 30).

Each :class:`~chicago.engine.viewtypes.DealRecord` of ``view.history`` holds the deal's
taken tricks and who declared Chicago in it (R-CHI-1): every card played to a trick was
seen by the whole table, so every seat and the spectators get the same history. Nothing
else of the deal's cards is there: no hand, no discard, no card of the stock (V-HIDDEN;
``test_engine_properties.check_history`` checks it after every action of random games of
every preset and variation, against the actions). A stored record made before the field
existed replays to a history that carries it, as the events of the replay say.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from pathlib import Path

import pytest

from chicago import Game, Rules
from chicago.engine import ActionKind
from chicago.engine.events import ChicagoCall, Deal, Event, Play, Trick
from chicago.engine.viewjson import view_json
from chicago.engine.viewtypes import DealRecord, PlayedCard, TakenTrick
from chicago.record import read_text
from test_engine_properties import cards_in
from test_schema import validator

GOLDEN = Path(__file__).parent / "golden"


def _play_from_events(events: Iterable[Event]) -> dict[int, tuple[tuple[TakenTrick, ...],
                                                                  int | None]]:
    """Per deal number: its taken tricks and its Chicago declarer, as the public events of
    the game tell them (the engine's events, not its records)."""
    out: dict[int, tuple[tuple[TakenTrick, ...], int | None]] = {}
    deal, tricks, plays, declarer = 0, [], [], None
    for event in events:
        if isinstance(event, Deal):
            if deal:
                out[deal] = (tuple(tricks), declarer)
            deal, tricks, plays, declarer = event.deal, [], [], None
        elif isinstance(event, ChicagoCall) and event.declared:
            declarer = event.seat
        elif isinstance(event, Play):
            plays.append(PlayedCard(event.seat, event.card))
        elif isinstance(event, Trick):
            tricks.append(TakenTrick(event.winner, tuple(plays)))
            plays = []
    out[deal] = (tuple(tricks), declarer)
    return out


def _check_history(game: Game) -> tuple[DealRecord, ...]:
    """The game's history is the card play its events tell, deal by deal, and every seat's
    view and the spectators' carry it."""
    history = game.deal_history
    told = _play_from_events(game.events_for(None))
    assert len(history) == game.deal_number - (0 if game.is_over else 1)
    for record in history:
        assert (record.tricks, record.chicago) == told[record.deal], record.deal
    for seat in (None, *range(game.players)):
        assert game.view(seat).history == history
    return history


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_a_stored_record_replays_to_a_history_with_its_card_play(path: Path) -> None:
    """The golden records (stored before ``DealRecord`` had tricks) still load, and their
    history carries each deal's tricks and Chicago declarer; the final view's JSON, history
    included, is valid against docs/schema.json."""
    game = Game.replay(json.loads(path.read_text())["record"])
    history = _check_history(game)
    assert sum(len(r.tricks) for r in history) > 0
    data = view_json(game.view(0))
    validator("view").validate(data)
    assert data["history"][0]["tricks"][0]["cards"][0].keys() == {"seat", "card"}


def test_the_stored_text_record_replays_to_the_same_history() -> None:
    """The record in the text notation (``pagat.txt``) loads too, and its history carries
    the card play its events tell."""
    parsed = read_text((GOLDEN / "pagat.txt").read_text())
    assert parsed.ok, parsed.errors
    _check_history(Game.replay(parsed.record))


def _declaring(game: Game, rng: random.Random) -> None:
    """A random action, declaring Chicago whenever it may (so Chicagos are broken)."""
    legal = game.legal_actions()
    chicago = [a for a in legal if a.kind is ActionKind.CHICAGO]
    game.apply(chicago[0] if chicago else rng.choice(legal))


def test_a_broken_chicago_keeps_the_tricks_played_and_no_other_card_R_CHI_1() -> None:
    """R-CHI-1, R-CHI-4: a deal ended by a broken Chicago holds the tricks up to the one that
    broke it and its declarer; the cards still in the hands then are in no view's history."""
    found = 0
    for seed in range(40):
        game = Game(Rules.preset("pagat", max_deals=3, chicago_min_score=None), 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            deal = game.deal_number
            held = [list(h) for h in game.hands]
            _declaring(game, rng)
            if game.deal_number == deal and not game.is_over:
                continue
            record = game.deal_history[-1]
            if record.chicago is None or len(record.tricks) >= 5:
                continue
            found += 1
            played = {str(p.card) for t in record.tricks for p in t.cards}
            left = {str(c) for hand in held for c in hand} - played  # the last card played
            assert len(left) == 4 * (5 - len(record.tricks)), left
            for seat in (None, 0, 1, 2, 3):
                shown = cards_in(view_json(game.view(seat))["history"][-1])
                assert shown == played and not shown & left
        _check_history(game)
    assert found >= 3


def test_a_deal_without_tricks_has_an_empty_card_play_V_QUADS_RESET() -> None:
    """V-QUADS-RESET: a deal ended by a four-of-a-kind reset (or a scored round that ends it)
    before any trick has no tricks in its record."""
    rules = Rules.preset("pagat", max_deals=4).with_variations("V-QUADS-RESET", "V-QUADS-52")
    for seed in range(400):
        game = Game(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        history = _check_history(game)
        if any(not r.tricks for r in history):
            empty = next(r for r in history if not r.tricks)
            assert empty.chicago is None
            return
    pytest.fail("no deal ended before its tricks")
