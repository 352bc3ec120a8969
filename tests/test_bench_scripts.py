"""Every benchmark script still starts (issue 28: ``make bench`` runs every
``benchmarks/bench_*.py`` at its defaults, and one that no longer imported — a helper it
imports was rewritten under it — failed only there, 40 minutes in); and
``bench_cluster.py``'s check that its runs agree compares what a seed fixes."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from chicago.rules import Rules
from chicago.sim import MatchResult, run_match
from script_loader import ROOT, load_script

SCRIPTS = sorted(p.name for p in (ROOT / "benchmarks").glob("bench_*.py"))


def test_the_benchmarks_are_found() -> None:
    assert len(SCRIPTS) > 30 and "bench_workers.py" in SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS)
def test_each_benchmark_imports_and_parses_help(script: str) -> None:
    """``python benchmarks/bench_X.py --help`` (as ``make bench`` runs it, from the top folder
    with this Python) imports the script and its helpers and prints its usage without
    running anything."""
    done = subprocess.run([sys.executable, str(Path("benchmarks") / script), "--help"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "usage:" in done.stdout


@pytest.fixture(name="match", scope="module")
def match_fixture() -> MatchResult:
    return run_match(["random"] * 4, 2, Rules.preset("pagat"), seed=5)


def test_cluster_runs_differing_only_in_decision_times_are_identical(
        match: MatchResult) -> None:
    """Two runs of one seed differ in the bots' decision times (CPU times): still the same
    match (``bench_cluster`` said "identical results: False" for them and failed)."""
    bench = load_script("benchmarks/bench_cluster.py")
    again = run_match(["random"] * 4, 2, Rules.preset("pagat"), seed=5)
    retimed = replace(again, bots=[
        replace(b, decision_times={phase: {k: v + 1.0 for k, v in summary.items()}
                                   for phase, summary in b.decision_times.items()})
        for b in again.bots])
    assert retimed.to_dict() != match.to_dict()  # the times do differ
    assert bench.same_games(match, retimed)
    assert bench.same_games(match, again)


def test_cluster_runs_with_other_games_or_results_differ(match: MatchResult) -> None:
    """A real difference is still caught: other games (another seed), one game's result
    changed, one bot's summary changed."""
    bench = load_script("benchmarks/bench_cluster.py")
    other = run_match(["random"] * 4, 2, Rules.preset("pagat"), seed=6)
    assert not bench.same_games(match, other)
    first = match.games[0]
    changed_game = replace(match, games=[replace(first, scores=[s + 1 for s in first.scores]),
                                         *match.games[1:]])
    assert not bench.same_games(match, changed_game)
    changed_bot = replace(match, bots=[replace(match.bots[0], wins=match.bots[0].wins + 1),
                                       *match.bots[1:]])
    assert not bench.same_games(match, changed_bot)
