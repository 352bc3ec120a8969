"""Duplicate games (per-seat stock queues, decks from a deck seed) as the table server plays
them: a copy goes on dealing and drawing as the original, and the game's record (JSON and
the text notation) replays to the same game."""

from __future__ import annotations

import random

import pytest

from chicago import Game, Rules
from chicago.engine.sources import DuplicateDecks
from chicago.record import RecordError, read_text, replay_record, start_game, write_text
from chicago.server.replay_pages import replay_page
from chicago.sim import deal_deck, duplicate_game

RULES = Rules.preset("pagat", max_deals=3)


def _play_random(game: Game, rng: random.Random, copy_every: int = 0) -> Game:
    """Random legal actions to the end; with ``copy_every``, the game continues as a copy
    every so many actions (as the table server does: it checks each action on a copy)."""
    count = 0
    while not game.is_over:
        if copy_every and count % copy_every == 0:
            game = game.copy()
        game.apply(rng.choice(game.legal_actions()))
        count += 1
    return game


def test_a_copy_keeps_dealing_and_drawing_per_seat() -> None:
    """The copy deals from its own DuplicateDecks, with its own queues: played on, it
    reaches exactly the state the original reaches with the same actions (R-EX-2 draws from
    the seat's queue), and the original is untouched by the copy's draws."""
    original = duplicate_game(RULES, 4, seed=11, deck_seed=23)
    copied = _play_random(duplicate_game(RULES, 4, seed=11, deck_seed=23),
                          random.Random(5), copy_every=1)
    assert isinstance(copied.source, DuplicateDecks)
    for seat, action in copied.actions:
        assert original.to_act == seat
        original.apply(action)
    assert original.hands == copied.hands and original.scores == copied.scores
    assert original.deal_number == copied.deal_number == 3
    fresh = duplicate_game(RULES, 4, seed=11, deck_seed=23)
    clone = fresh.copy()
    clone.apply(clone.legal_actions()[-1])
    assert fresh.actions == [] and fresh.stock_count == 32


def test_the_record_replays_as_a_duplicate_game() -> None:
    """The JSON record carries ``deck_seed``; replay rebuilds the per-seat stock and ends
    with the recorded result; every deal's deck is the deck seed's."""
    game = _play_random(duplicate_game(RULES, 3, seed=2, deck_seed=99), random.Random(1))
    record = game.record()
    assert record["deck_seed"] == 99
    again = replay_record(record)
    assert isinstance(again.source, DuplicateDecks)
    assert again.scores == game.scores and again.winners == game.winners
    assert record["decks"] == [[str(c) for c in deal_deck(99, i)] for i in range(3)]
    assert start_game(record).actions == []


def test_a_record_whose_decks_are_not_the_deck_seeds_is_refused() -> None:
    game = _play_random(duplicate_game(RULES, 2, seed=2, deck_seed=5), random.Random(2))
    record = game.record()
    record["decks"][1] = list(reversed(record["decks"][1]))
    with pytest.raises(RecordError, match="deck 2 is not the deck of deck seed 5"):
        replay_record(record)
    with pytest.raises(RecordError, match="deck_seed must be a whole number"):
        replay_record({**game.record(), "deck_seed": "5"})


def test_text_notation_carries_the_deck_seed() -> None:
    game = _play_random(duplicate_game(RULES, 4, seed=8, deck_seed=31), random.Random(3))
    text = write_text(game.record())
    assert '[DeckSeed "31"]' in text and "[Deck1 " not in text
    parsed = read_text(text)
    assert parsed.ok, parsed.errors
    assert parsed.record["deck_seed"] == 31
    assert replay_record(parsed.record).scores == game.scores


def test_the_web_replay_of_a_duplicate_game_reaches_its_end() -> None:
    game = _play_random(duplicate_game(RULES, 4, seed=4, deck_seed=6), random.Random(4))
    page = replay_page(game.record(), "all", 3)
    assert page["deal"] == 3
