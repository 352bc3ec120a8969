"""``benchmarks/bench_world_quality.py`` (issue 30): the worlds ``master`` searches at its
trick decisions (R-TRICK-1/2) judged card by card against the real hidden hands — it runs,
a seed fixes it, and its probabilities are consistent."""

from __future__ import annotations

import math
from types import ModuleType

import pytest

from script_loader import load_script


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    return load_script("benchmarks/bench_world_quality.py")


@pytest.fixture(scope="module")
def run(tool: ModuleType) -> tuple[list[object], list[object]]:
    decisions, records = tool.collect("master:samples=8", "basic", [0], deals=2, seed=5,
                                      uniform=40)
    return decisions, records


def test_every_card_s_places_sum_to_one_and_the_true_place_is_listed(
        tool: ModuleType, run: tuple[list[object], list[object]]) -> None:
    """Each source's probabilities over a hidden card's places (the opponents and nowhere)
    sum to one, and the real holder is one of the places."""
    decisions, records = run
    assert decisions and records
    for r in records:
        assert r.true in r.places
        for source in tool.SOURCES:
            assert math.isclose(sum(r.probs[source]), 1.0, abs_tol=1e-9)
            assert all(0.0 <= p <= 1.0 for p in r.probs[source])
        assert math.isfinite(tool.log_score(r, "weighted"))
        assert 0.0 <= tool.brier(r, "searched") <= 2.0


def test_the_uniform_law_never_rules_out_the_real_place(
        tool: ModuleType, run: tuple[list[object], list[object]]) -> None:
    """The real deal fits everything public, so no card is judged where every sampler and
    the real hands agree, and the pairs' held shares match the hands' sizes: the mean
    probability of an opponent holding a card equals the share of pairs it holds."""
    _, records = run
    pairs = tool.pairs_of(records)
    held = sum(y for *_, y in pairs) / len(pairs)
    for source in ("uniform", "prior", "weighted"):
        mean = sum(p[source] for _, _, p, _ in pairs) / len(pairs)
        assert math.isclose(mean, held, abs_tol=1e-9)


def test_a_seed_fixes_the_records(tool: ModuleType,
                                  run: tuple[list[object], list[object]]) -> None:
    """The same seed gives the same decisions and probabilities (the bot's generator is
    copied, never advanced, by the measurement)."""
    again = tool.collect("master:samples=8", "basic", [0], deals=2, seed=5, uniform=40)
    assert [(d.trick, d.llr, d.ess) for d in again[0]] == [
        (d.trick, d.llr, d.ess) for d in run[0]]
    assert [r.probs for r in again[1]] == [r.probs for r in run[1]]


def test_a_power_of_one_is_the_weighted_log_score(
        tool: ModuleType, run: tuple[list[object], list[object]]) -> None:
    """The calibration's power 1 leaves the weighted marginals as they are; the best power
    scores no worse than power 1."""
    _, records = run
    plain = sum(tool.log_score(r, "weighted") for r in records) / len(records)
    assert math.isclose(plain, sum(tool.log_score(r, "weighted", 1.0) for r in records)
                        / len(records))
    _, best = tool.best_power(records)
    assert best <= plain + 1e-12


def test_timed_bots_are_asked_every_measured_decision(tool: ModuleType) -> None:
    """``--time``: each timed bot is asked at every measured decision (a CPU time each),
    and timing them changes no record."""
    cpu: dict[str, list[float]] = {}
    decisions, records = tool.collect("master:samples=8", "basic", [0], deals=1, seed=5,
                                      uniform=20, timed=["master:samples=8", "expert:samples=4"],
                                      cpu=cpu)
    plain = tool.collect("master:samples=8", "basic", [0], deals=1, seed=5, uniform=20)
    assert [r.probs for r in records] == [r.probs for r in plain[1]]
    assert set(cpu) == {"master:samples=8", "expert:samples=4"}
    assert len(cpu["master:samples=8"]) == len(cpu["expert:samples=4"]) >= len(decisions)
