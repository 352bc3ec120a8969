"""The integer action space of chicago.env.actions: one id per legal action and back, for
every phase and variation (R-EX-1, R-ANN-1, R-CHI-1, R-TRICK-2, V-ONE-UP, V-LOCK-6,
V-REDEAL-LOW, V-QUADS-RESET), and the table in docs/ENVIRONMENTS.md."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from chicago import Action, ActionKind, Game, Rules
from chicago.env.actions import (
    ACTION_SEGMENTS,
    ANNOUNCE_BASE,
    DISCARD_BASE,
    DISCARD_SIXTH,
    NUM_ACTIONS,
    ONE_UP_BASE,
    SIMPLE_BASE,
    action_mask,
    action_to_index,
    describe_index,
    hand_of,
    index_to_action,
    legal_indices,
)

DOCS = Path(__file__).resolve().parent.parent / "docs"

CONFIGS = [
    ("pagat", (), 4),
    ("wikipedia", ("V-ONE-UP", "V-REDEAL-LOW", "V-QUADS-RESET"), 3),
    ("wikipedia-42", ("V-LARGE",), 6),
    ("denexa", ("V-TIE-SUIT",), 2),
]


def _random_decisions(preset: str, variations: tuple[str, ...], players: int, seed: int,
                      **overrides: object):
    rules = Rules.preset(preset, max_deals=3, **overrides).with_variations(*variations)
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        yield game
        game.apply(rng.choice(game.legal_actions()))


def test_segments_tile_the_space_and_count_113():
    assert NUM_ACTIONS == 113
    assert sum(count for _, count, _ in ACTION_SEGMENTS) == NUM_ACTIONS
    assert (DISCARD_BASE, DISCARD_SIXTH, ONE_UP_BASE, ANNOUNCE_BASE, SIMPLE_BASE) == (
        52, 84, 85, 90, 99)
    kinds = [index_to_action(SIMPLE_BASE + i, ()).kind for i in range(8)]
    assert kinds == [ActionKind.ACCEPT, ActionKind.REJECT, ActionKind.REDEAL, ActionKind.PASS,
                     ActionKind.CHICAGO, ActionKind.NO_CHICAGO, ActionKind.RESET,
                     ActionKind.SCORE]


@pytest.mark.parametrize(("preset", "variations", "players"), CONFIGS)
def test_every_legal_action_has_one_id_and_maps_back(preset, variations, players):
    """R-EX-1 … R-TRICK-2: for every decision of random games, ids are distinct and decode
    to the same legal actions; the mask has exactly those ids set."""
    decisions = 0
    for seed in range(3):
        for game in _random_decisions(preset, variations, players, seed):
            view = game.view(game.to_act)
            legal = game.legal_actions()
            ids = legal_indices(legal, view)
            assert len(set(ids)) == len(legal)
            assert sorted(ids) == ids
            assert all(0 <= i < NUM_ACTIONS for i in ids)
            assert [index_to_action(i, view) for i in ids] == sorted(
                legal, key=lambda a: action_to_index(a, view))
            mask = action_mask(legal, view)
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
            assert np.flatnonzero(mask).tolist() == ids
            decisions += 1
    assert decisions > 100


def test_discard_ids_are_positions_in_the_sorted_hand():
    """R-EX-1: bit i of (id - 52) is the i-th lowest card; 52 is keep."""
    hand = ["Ah", "2c", "Kd", "7s", "7h"]
    assert hand_of(hand) == hand_of(["2c", "7h", "7s", "Kd", "Ah"])
    assert str(index_to_action(52, hand)) == "keep"
    assert str(index_to_action(53, hand)) == "discard 2c"
    assert str(index_to_action(52 + 0b10110, hand)) == "discard 7h 7s Ah"
    assert action_to_index("discard Ah 7h 7s", hand) == 52 + 0b11010 - 0b01000 + 0b00100
    assert action_to_index("discard 2c 7h 7s Kd Ah", hand) == 83
    assert action_to_index("keep", hand) == 52


def test_keep_in_the_redeal_round_is_the_same_id():
    """V-REDEAL-LOW: keep is the engine's discard of nothing, id 52 in both phases."""
    rules = Rules.preset("pagat").with_variations("V-REDEAL-LOW")
    game = Game(rules, 4, seed=3)
    assert game.phase.value == "redeal"
    view = game.view(game.to_act)
    assert 52 in legal_indices(game.legal_actions(), view)


def test_lock_six_sixth_card_has_its_own_id():
    """V-LOCK-6: a six-card hand discards one card; the sixth has id 84."""
    hand = ["2c", "3d", "5h", "9s", "Jc", "As"]
    assert action_to_index("discard As", hand) == DISCARD_SIXTH
    assert str(index_to_action(DISCARD_SIXTH, hand)) == "discard As"
    assert action_to_index("discard 2c", hand) == 53
    with pytest.raises(ValueError):
        action_to_index("discard 2c As", hand)
    with pytest.raises(ValueError):
        index_to_action(DISCARD_SIXTH, hand[:5])


def test_lock_six_game_offers_the_sixth_card():
    """V-LOCK-6 in a real game: a locked seat holding six cards gets six ids."""
    rules = Rules.preset("wikipedia-42", lock_at=1, max_deals=4)
    found = False
    for seed in range(30):
        for game in _random_decisions("wikipedia-42", (), 4, seed, lock_at=1):
            view = game.view(game.to_act)
            if len(view.hand) == 6:
                ids = legal_indices(game.legal_actions(), view)
                assert ids == [53, 54, 56, 60, 68, DISCARD_SIXTH]
                found = True
                break
        if found:
            break
    assert found, rules


def test_one_up_ids_are_positions():
    """V-ONE-UP: id 85 + position of the card turned up."""
    hand = ["Ah", "2c", "Kd", "7s", "7h"]
    assert action_to_index("one up 2c", hand) == ONE_UP_BASE
    assert str(index_to_action(ONE_UP_BASE + 4, hand)) == "one up Ah"


def test_card_free_ids_do_not_need_a_hand():
    assert action_to_index("play As", ()) == 51
    assert action_to_index(Action.announce("two pair"), ()) == ANNOUNCE_BASE + 1
    assert str(index_to_action(ANNOUNCE_BASE + 8, ())) == "announce royal flush"
    assert describe_index(0) == "play 2c"
    assert describe_index(52) == "keep"
    assert describe_index(52 + 0b101) == "discard cards 1 3"
    assert describe_index(84) == "discard card 6"
    assert describe_index(86) == "one up card 2"
    assert describe_index(102) == "pass"


def test_bad_ids_and_cards_raise_clear_errors():
    hand = ["Ah", "2c", "Kd", "7s", "7h"]
    for bad in (-1, NUM_ACTIONS, True):
        with pytest.raises(ValueError, match="action id"):
            index_to_action(bad, hand)
        with pytest.raises(ValueError, match="action id"):
            describe_index(bad)
    with pytest.raises(ValueError, match="not in the hand"):
        action_to_index("discard 3c", hand)
    with pytest.raises(ValueError, match="only 4 cards"):
        index_to_action(52 + 0b10000, hand[:4])


def test_environments_doc_has_the_action_table():
    """docs/ENVIRONMENTS.md lists every segment with its first id and size."""
    text = (DOCS / "ENVIRONMENTS.md").read_text(encoding="utf-8")
    for first, count, _ in ACTION_SEGMENTS:
        assert f"| {first} | {count} |" in text
