"""The peers' rows of ``benchmarks/bench_engine.py --peers`` count the unit of the engine's
own row, the deal (issue 28, README's speed tables re-measured).

Before, ``bench_openspiel`` counted OpenSpiel games, and a game of ``python_chicago`` is up
to ten deals: the printed "chicago pagat per deal" of that row set pagat's deals against
ten-deal games (331× where the per-decision ratio was 35×)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_engine

pyspiel = pytest.importorskip("pyspiel")


def test_python_chicago_counts_deals() -> None:
    """A timed run of ``python_chicago`` reports deals: fewer than 100 decisions per unit
    (a four-player deal has about 40), not the few hundred of a ten-deal game."""
    found = bench_engine.bench_openspiel("python_chicago", 0.05)
    assert found is not None
    units, decisions = found
    assert 10 < decisions / units < 100


def test_deals_of_a_finished_python_chicago_game() -> None:
    """``_deals_of`` reads the engine game's deal number: several deals in one game of at
    most ten; a Hearts game is one deal."""
    import chicago.env.openspiel  # noqa: F401  (registers python_chicago)

    game = pyspiel.load_game("python_chicago", {"players": 4, "preset": "pagat",
                                                "max_deals": bench_engine.PYTHON_CHICAGO_DEALS})
    state = game.new_initial_state()
    decisions = bench_engine.play_openspiel(state, random.Random(1))
    deals = bench_engine._deals_of(state)
    assert deals == state.table.game.deal_number
    assert 1 < deals <= bench_engine.PYTHON_CHICAGO_DEALS
    assert 10 < decisions / deals < 100

    hearts = pyspiel.load_game("hearts").new_initial_state()
    bench_engine.play_openspiel(hearts, random.Random(1))
    assert bench_engine._deals_of(hearts) == 1
