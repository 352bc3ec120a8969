"""``benchmarks/bench_oracle_gap.py``'s variants (issue 30): other ``master`` options asked
the very decisions ``master`` took, from the same view and a copy of the same random state,
their still-winning cards paired with ``master``'s (R-TRICK-2: the trick decisions and the
last trick's winner are the engine's)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from chicago import Rules
from script_loader import load_script


def _tool() -> ModuleType:
    return load_script("benchmarks/bench_oracle_gap.py")


def test_a_variant_with_master_s_own_options_picks_master_s_card_R_TRICK_2() -> None:
    """The same options from the same view and random state choose the same card at every
    recorded decision (the harness pairs decisions exactly); the summary pairs each
    variant with ``master`` and reports nothing gained for the copy."""
    tool = _tool()
    records: list[dict[str, Any]] = []
    options = {"samples": 6}
    tool.run([(0, 1)], Rules.preset("pagat", max_deals=3), 5, records, options=options,
             variants=[("same", dict(options)), ("pool=3", {**options, "pool": 3})],
             alts=False)
    assert records
    for r in records:
        assert r["variants"]["same"] == r["master"]
        assert r["variants"]["pool=3"] in r["cards"]
        assert set(r["ms"]) == {"same", "pool=3", "master"}
        assert r["alts"] == {}
    summary = tool.summarize(records)
    assert "same" in summary and "+0.00 ± 0.00 points; saves 0, breaks 0" in summary


def test_the_paired_error_is_clustered_by_deal() -> None:
    """Mean over decisions, standard error from the deals' sums about it."""
    tool = _tool()
    assert tool.clustered([]) == (0.0, 0.0, 0)
    mean, error, count = tool.clustered([[1, 0], [0], [-1, 0, 0], [1]])
    assert count == 7 and mean == pytest.approx(1 / 7)
    spread = sum((s - n / 7) ** 2 for s, n in ((1, 2), (0, 1), (-1, 3), (1, 1)))
    assert error == pytest.approx((spread * 4 / 3) ** 0.5 / 7)
