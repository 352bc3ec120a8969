"""Calibrated grades (issue 25): the review grades at least 42 of the 45 hand-labelled
decisions of ``tests/data/labelled_decisions.json`` as the player did and every one within
one grade; the plain ones (made hands kept or broken, sure and hopeless Chicagos, four of a
kind under every variation, the score situation) exactly. docs/REVIEW.md reports the
agreement."""

from __future__ import annotations

import pytest

from chicago.review import Grade
from labelled import judged, labelled

ORDER = [g.value for g in Grade]
PLAIN = {
    "flush-kept", "flush-broken-for-royal", "full-house-broken", "straight-broken",
    "kings-draw-three", "kings-broken", "kings-thrown", "trips-broken", "flush-passed",
    "sure-chicago-declined", "hopeless-chicago", "quads-reset-at-zero",
    "quads52-points-win", "quads52-reset-leaves-game-open", "quads-one-reset-zero",
    "quads-one-reset-leader",
}
"""Decisions whose grade no Chicago player would argue about: golden records."""


@pytest.fixture(scope="module")
def grades() -> dict[str, tuple[str, str, float]]:
    return {e["id"]: (e["label"], judged(e).grade.value, judged(e).loss) for e in labelled()}


def test_the_labels_are_written_down_with_their_reasons():
    entries = labelled()
    assert len(entries) >= 40
    assert len({e["id"] for e in entries}) == len(entries)
    for e in entries:
        assert e["label"] in ORDER and len(e["why"]) > 20, e["id"]
    assert {e["label"] for e in entries} == set(ORDER)


def test_the_plain_ones_are_graded_as_any_player_would(grades):
    for name in sorted(PLAIN):
        label, graded, loss = grades[name]
        assert graded == label, (name, label, graded, loss)


def test_the_review_agrees_with_the_player(grades):
    same = [n for n, (label, graded, _) in grades.items() if label == graded]
    near = [n for n, (label, graded, _) in grades.items()
            if abs(ORDER.index(label) - ORDER.index(graded)) <= 1]
    assert len(same) >= 42, sorted(set(grades) - set(same))
    assert len(near) == len(grades)
