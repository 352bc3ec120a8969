"""Learning the master bot's hand model from self-play (chicago.training, ``make train``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from chicago.bots.handmodel import HAND_FEATURES, HandModel
from chicago.training import Examples, collect, fit, fit_temper, main

FAST = ("basic", "ev")
"""Quick levels for the tests' games (make train seats the expert too)."""


def test_examples_pair_real_hands_with_sampled_ones() -> None:
    """Each situation has one real hand (label 1) and the sampler's hands (label 0), all of
    five cards, described by the model's features and the player's context keys."""
    examples = collect(4, seed=5, negatives=2, levels=FAST)
    assert examples.situations > 10
    assert len(examples.labels) == 3 * examples.situations
    assert sum(examples.labels) == examples.situations
    assert all(mask.bit_count() == 5 for mask in examples.cards)
    assert all(keys[0] == "bias" for keys in examples.keys)
    assert all(0 <= f < len(HAND_FEATURES) for row in examples.features for f in row)


def test_training_is_reproducible_and_writes_a_loadable_model(tmp_path: Path) -> None:
    """The same seed gives the same file (weights and temperature); the model loads; the
    calibration report has its three tables; ``--temper-only`` fits the power again and
    keeps the weights."""
    out = [tmp_path / "a.json", tmp_path / "b.json"]
    report = tmp_path / "report.md"
    for path in out:
        assert main(["--games", "4", "--tune-games", "4", "--check-games", "4", "--steps", "30",
                     "--seed", "7",
                     "--levels", ",".join(FAST), "--out", str(path),
                     "--report", str(report)]) == 0
    assert out[0].read_text() == out[1].read_text()
    model = HandModel.from_dict(json.loads(out[0].read_text()))
    assert model.weights and model.meta and model.meta["games"] == 4
    assert model.meta["tune_seed"] == 9 and 0.0 <= model.temper <= 1.2
    text = report.read_text()
    assert ("| category | real | uniform sampler | expert's weights | learned, raw | "
            "learned, tempered (" in text)
    assert "| rank | real |" in text and "| predicted chance |" in text
    again = tmp_path / "again.md"
    assert main(["--check-only", "--check-games", "4", "--out", str(out[0]),
                 "--report", str(again)]) == 0
    assert again.read_text() == text, "--check-only: the same games, seed and levels"
    assert out[0].read_text() == out[1].read_text(), "--check-only writes no model"
    assert main(["--temper-only", "--tune-games", "4", "--check-games", "4",
                 "--out", str(out[1])]) == 0
    tempered = HandModel.from_dict(json.loads(out[1].read_text()))
    assert tempered.weights == model.weights and tempered.temper == model.temper
    assert tempered.meta is not None and tempered.meta["tune_games"] == 4


def test_fit_learns_what_the_examples_show() -> None:
    """A context where real hands hold an ace and sampled ones do not gets a positive
    weight for an ace under it."""
    from chicago.training import Examples

    examples = Examples()
    ace = HAND_FEATURES.index("an ace")
    for i in range(200):
        examples.keys.append(["bias", "d1:4"])
        examples.features.append([0, ace] if i % 4 == 0 else [0])
        examples.labels.append(1 if i % 4 == 0 else 0)
        examples.groups.append(i // 4)
    model = fit(examples, steps=200, min_count=1)
    assert model.weights["d1:4"][ace] + model.weights["bias"][ace] > 1.0


def _mask(text: str) -> int:
    from chicago.cards import mask_of, parse_cards

    return mask_of(parse_cards(text))


def test_fit_temper_undoes_an_over_confident_model() -> None:
    """The raw model makes an ace eight times likelier (a weight of 2.08 on "an ace") where
    real hands hold one twice as often as the sampled ones: the power that predicts the
    cards best is about a third (0.69 / 2.08), and the raw power predicts worse."""
    ace = HAND_FEATURES.index("an ace")
    row = [0.0] * len(HAND_FEATURES)
    row[ace] = 3 * 0.6931
    model = HandModel(weights={"bias": tuple(row)})
    with_ace, without = _mask("Ac 9d 7h 5s 3c"), _mask("Tc 9d 7h 5s 3c")
    examples = Examples()
    for situation in range(30):
        real = without if situation % 3 == 2 else with_ace
        for label, hand in [(1, real), *((0, with_ace if i % 2 else without)
                                         for i in range(48))]:
            examples.keys.append(["bias"])
            examples.features.append([0])
            examples.labels.append(label)
            examples.groups.append(situation)
            examples.cards.append(hand)
            examples.unseen.append((1 << 52) - 1)
    found = fit_temper(model, examples)
    assert 0.25 <= found.temper <= 0.45
    brier = {power: score for power, score, _ in found.tried}
    assert brier[found.temper] < brier[1.0] and brier[found.temper] < brier[0.0]
    assert "(chosen)" in found.table()
    with pytest.raises(ValueError, match="no situation"):
        fit_temper(model, Examples())
