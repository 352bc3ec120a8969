"""Bot matches on a Dask cluster (chicago.cluster, ``chicago simulate --cluster``): the same
results as a local run with the same seed; bad addresses are refused clearly.

One local cluster of two worker processes serves the whole module (it takes a few seconds
to start); the tests connect to it by its scheduler address, as to a real cluster.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from chicago import Rules
from chicago.cli import main
from chicago.cluster import ClusterError, connect, parse_local, run_match_on_cluster
from chicago.sim import run_match

distributed = pytest.importorskip("distributed", reason="needs the cluster extra (Dask)")


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A local Dask cluster: two worker processes, one thread each, no dashboard."""
    local = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    try:
        yield local
    finally:
        local.close()


def _games(result: Any) -> list[dict[str, Any]]:
    return [game.to_dict() for game in result.games]


def test_cluster_match_equals_local_match(cluster: Any) -> None:
    """Same seed, same games and summaries, game by game (duplicate sets are independent)."""
    specs = ["basic", "random", "random"]
    rules = Rules.preset("pagat")
    local = run_match(specs, 12, rules, seed=11)
    seen: list[int] = []
    with connect(cluster.scheduler_address) as client:
        remote = run_match_on_cluster(specs, 12, rules, seed=11, client=client,
                                      progress=seen.append)
    assert _games(remote) == _games(local)
    assert remote.to_dict(times=False) == local.to_dict(times=False)
    assert sum(seen) == len(local.games) == 12


def test_cluster_match_follows_the_seed_and_rules(cluster: Any) -> None:
    """Other rules (the wikipedia preset) and another seed, as locally."""
    rules = Rules.preset("wikipedia")
    specs = ["basic", "basic"]
    local = run_match(specs, 4, rules, seed=3)
    remote = run_match_on_cluster(specs, 4, rules, seed=3, address=cluster.scheduler_address)
    other = run_match_on_cluster(specs, 4, rules, seed=4, address=cluster.scheduler_address)
    assert _games(remote) == _games(local)
    assert _games(other) != _games(local)


def test_simulate_cli_on_the_cluster_prints_the_local_json(
    cluster: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", "--bots", "basic,random", "--games", "6", "--seed", "5", "--json",
            "--no-progress"]
    assert main(args) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*args, "--cluster", cluster.scheduler_address]) == 0
    remote = json.loads(capsys.readouterr().out)
    for report in (local, remote):  # CPU times are measured, not fixed by the seed
        for bot in report["bots"]:
            assert set(bot.pop("decision_times")) >= {"exchange", "play"}
    assert remote == local
    assert remote["games"] == 6


@pytest.mark.parametrize("extra, words", [
    (["--cluster", "local:0"], "local:N needs a worker count"),
    (["--cluster", "local:2", "--jobs", "2"], "not both"),
])
def test_simulate_cli_refuses_bad_cluster_options(
    extra: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["simulate", "--bots", "random,random", "--games", "2", "--no-progress",
                 *extra])
    assert code == 2
    assert words in capsys.readouterr().err


def test_unreachable_scheduler_is_a_cluster_error() -> None:
    with pytest.raises(ClusterError, match="cannot reach"), connect("tcp://127.0.0.1:9",
                                                                    timeout=1.0):
        pass


def test_parse_local() -> None:
    assert parse_local("local:4") == 4
    assert parse_local("tcp://127.0.0.1:8786") is None
    assert parse_local("local") >= 1  # type: ignore[operator]
