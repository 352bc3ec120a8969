"""The numeric observation of chicago.env.observation: fixed size, bounded, seat-relative,
and built from the seat's view alone (hidden information never leaks)."""

from __future__ import annotations

import dataclasses
import pickle
import random
import types
from pathlib import Path

import numpy as np
import pytest

from chicago import Game, Rules
from chicago.env.observation import (
    LAYOUT,
    OBSERVATION_SIZE,
    PHASES,
    SCORE_CLIP,
    block,
    encode_view,
    view_text,
)
from engine_helpers import stack

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _games():
    for preset, variations, players in [
        ("pagat", (), 4),
        ("wikipedia", ("V-ONE-UP", "V-REDEAL-LOW", "V-QUADS-RESET", "V-TIE-SUIT"), 3),
        ("wikipedia-42", ("V-LARGE",), 6),
        ("denexa", (), 2),
    ]:
        rules = Rules.preset(preset, max_deals=2).with_variations(*variations)
        for seed in range(2):
            yield Game(rules, players, seed=seed), random.Random(seed)


def test_size_and_bounds_for_every_table():
    """One size for every rule set and table size; values finite within [-2, 2]."""
    steps = 0
    for game, rng in _games():
        while True:
            for seat in [*range(game.players), None]:
                obs = encode_view(game.view(seat))
                assert obs.shape == (OBSERVATION_SIZE,) and obs.dtype == np.float32
                assert np.isfinite(obs).all()
                assert obs.min() >= -SCORE_CLIP and obs.max() <= SCORE_CLIP
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
            steps += 1
    assert steps > 200


def test_blocks_hold_what_they_say():
    game = Game(Rules.preset("pagat"), 4, seed=11)
    seat = game.to_act
    view = game.view(seat)
    obs = encode_view(view)
    hand = obs[block("hand")]
    assert [i for i in range(52) if hand[i]] == sorted(
        [int(c) for c in game.hands[seat]])
    phase = obs[block("phase")]
    assert phase[PHASES.index("exchange")] == 1 and phase.sum() == 1
    assert obs[block("to_act")][0] == 1  # seat-relative: the observer is slot 0
    assert obs[block("seat_present")].tolist() == [1, 1, 1, 1, 0, 0]
    dealer = obs[block("dealer")]
    assert dealer[(game.dealer - seat) % 4] == 1


def test_encoding_is_seat_relative():
    """The same seat-relative situation encodes the same for every seat: after one deal's
    start, each seat sees itself in slot 0 and the dealer at its relative place."""
    game = Game(Rules.preset("pagat"), 4, seed=2)
    for seat in range(4):
        obs = encode_view(game.view(seat))
        assert obs[block("dealer")][(game.dealer - seat) % 4] == 1


def test_same_view_same_encoding_whatever_the_hidden_cards():
    """Hidden information never leaks: two deals that differ only in the other seats'
    cards give the seat the same view and the same encoding; the others' differ."""
    first = stack(4, 0, {1: "2c 5d 9h Js Ad", 2: "3c 6d Th Qs Kd", 3: "4c 7d 8h Ks Ac"})
    second = stack(4, 0, {1: "2c 5d 9h Js Ad", 2: "4c 7d 8h Ks Ac", 3: "3c 6d Th Qs Kd"})
    a = Game(Rules.preset("pagat"), 4, decks=[first], dealer=0, seed=1)
    b = Game(Rules.preset("pagat"), 4, decks=[second], dealer=0, seed=1)
    assert a.to_act == b.to_act == 1
    assert np.array_equal(encode_view(a.view(1)), encode_view(b.view(1)))
    assert not np.array_equal(encode_view(a.view(2)), encode_view(b.view(2)))
    a.apply("discard 2c 5d")
    b.apply("discard 2c 5d")
    assert np.array_equal(encode_view(a.view(1)), encode_view(b.view(1)))


def test_encoding_reads_only_the_view():
    """The encoder takes the view alone: a copy of it (pickled, no game behind it) gives the
    same vector."""
    game, rng = next(_games())
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(game.to_act)
    again = pickle.loads(pickle.dumps(view))
    assert np.array_equal(encode_view(view), encode_view(again))
    out = np.full(OBSERVATION_SIZE, 9.0, dtype=np.float32)
    assert encode_view(view, out) is out
    assert np.array_equal(out, encode_view(view))


def test_view_text_names_the_essentials():
    game = Game(Rules.preset("pagat"), 4, seed=4)
    seat = game.to_act
    text = view_text(game.view(seat))
    assert f"seat {seat}" in text and "phase exchange" in text
    assert " ".join(map(str, game.view(seat).hand)) in text
    other = (seat + 1) % 4
    assert " ".join(map(str, game.view(other).hand)) not in text


def test_environments_doc_lists_every_block():
    text = (DOCS / "ENVIRONMENTS.md").read_text(encoding="utf-8")
    missing = [name for name, _, _ in LAYOUT if f"`{name}`" not in text]
    assert not missing
    assert str(OBSERVATION_SIZE) in text


@pytest.mark.parametrize("name", [name for name, _, _ in LAYOUT])
def test_blocks_are_contiguous(name):
    part = block(name)
    assert 0 <= part.start < part.stop <= OBSERVATION_SIZE


def test_chicago_flags_cover_earlier_deals():
    """Who has declared or made a Chicago in the game (public, and what V-CHI-DECLARED and
    V-CHI-REQ3 turn on) is encoded seat-relative, from earlier deals too; it agrees with
    the whole game's public events."""
    game = Game(Rules.preset("wikipedia-42", max_deals=12), 4, seed=5)
    rng = random.Random(5)
    checked = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        declared = [False] * 4
        made = [False] * 4
        for event in game.events:
            if event.audience is None and event.data["type"] == "chicago" \
                    and event.data.get("declared"):
                declared[event.data["seat"]] = True
            if event.audience is None and event.data["type"] == "chicago_result" \
                    and event.data.get("made"):
                made[event.data["seat"]] = True
        for seat in range(4):
            view = game.view(seat)
            assert list(view.chicago_declared) == declared and list(view.chicago_made) == made
            obs = encode_view(view)
            relative = [(seat + i) % 4 for i in range(4)]
            assert list(obs[block("chicago_declared")][:4]) == [declared[s] for s in relative]
            assert list(obs[block("chicago_made")][:4]) == [made[s] for s in relative]
            assert not obs[block("chicago_declared")][4:].any()
        this_deal = any(e.data["type"] == "chicago" and e.data.get("declared")
                        for e in game.deal_events)
        if any(declared) and not this_deal:
            checked += 1  # the flags come from an earlier deal
    assert checked > 0
    text = view_text(game.view(0))
    assert "declared chicago " + " ".join(str(s) for s in range(4) if declared[s]) in text


# Options that change nothing a seat decides by (or have a single value) are left out of
# the ``rules`` block; every other option must move it.
_NOT_ENCODED = {"preset_name", "variations", "min_players", "max_players", "stake", "max_deals",
                "chicago_callers"}
"""Options that do not change play (and ``variations``, how the rules were built)."""


def _one_option_changed(key: str, value: object) -> object:
    """The pagat rules with one option changed, unchecked (alone, some values are not a valid
    rule set, e.g. an instant-win score without an instant win): what the features read."""
    base = Rules.preset("pagat")
    if key == "points":
        return base.replace(points=value)
    options = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
    return types.SimpleNamespace(**{**options, key: value})


def test_every_playing_rule_option_moves_the_rules_block():
    """Each rule option of Rules (all of RULES.md's R-/V- options that change play) is in the
    observation: changing it alone changes the ``rules`` block."""
    from chicago.env.observation import _rule_features

    features = _rule_features.__wrapped__  # uncached: a stand-in below is not hashable

    base = Rules.preset("pagat").to_dict()
    changed = {
        "points": {**base["points"], "PAIR": 2},
        "suit_order": "hdsc",
        "tie_mode": "category",
        "redeal_low": "below-ten",
        "chicago_required": "made",
        "instant_win_score": "keep",
        "chicago_min_score": None,
    }
    for key, value in base.items():
        if key in _NOT_ENCODED:
            continue
        if key in changed:
            other = changed[key]
        elif isinstance(value, bool):
            other = not value
        elif isinstance(value, int):
            other = value - 1
        else:
            raise AssertionError(f"no test value for rule option {key}")
        assert features(_one_option_changed(key, other)) != features(Rules.preset("pagat")), key
