"""Fitting the experts' card play from self-play (chicago.training_play, ``make
train-play``): the examples, a tiny reproducible training run and its report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from chicago.bots.playpolicy import PlayPolicy, legal_cards
from chicago.training_play import collect_plays, main

FAST = "basic"
"""A quick level for the tests' games (make train-play fits the expert's)."""


def test_examples_are_plays_with_a_choice_from_the_players_own_view() -> None:
    """Every recorded play had two legal cards or more, the card played is one of them,
    and the cards gone are neither in the hand nor on the trick."""
    examples = collect_plays(4, seed=5, level=FAST)
    assert len(examples) > 100
    for hand, table, gone, card in zip(examples.hands, examples.tables, examples.gone,
                                       examples.played, strict=True):
        legal = legal_cards(hand, table)
        assert len(legal) > 1 and card in legal
        assert not any(gone >> c & 1 for c in (*hand, *table))
    assert collect_plays(4, seed=5, level=FAST).played == examples.played


def test_training_is_reproducible_and_writes_a_loadable_policy(tmp_path: Path) -> None:
    """The same seed gives the same file; it loads; the report compares the fitted policy
    with the rules of thumb and a uniform choice."""
    out = [tmp_path / "a.json", tmp_path / "b.json"]
    report = tmp_path / "report.md"
    for path in out:
        assert main(["--games", "4", "--check-games", "4", "--steps", "30", "--seed", "7",
                     "--level", FAST, "--out", str(path), "--report", str(report)]) == 0
    assert out[0].read_text() == out[1].read_text()
    policy = PlayPolicy.from_dict(json.loads(out[0].read_text()))
    assert policy.meta is not None and policy.meta["games"] == 4 and policy.meta["seed"] == 7
    assert any(policy.weights)
    text = report.read_text()
    assert "| hand size | plays | first: uniform | first: rules of thumb (miss 0.3) |" in text
    assert "| fitted chance | mean chance | share played | cards |" in text
