"""Bot matches on a Dask cluster: ``chicago simulate … --cluster ADDRESS``.

A match is cut into the same independent pieces as ``--jobs`` (a few duplicate *sets* each,
every set played in every seat rotation, see :mod:`chicago.sim`); each piece is one Dask task
that runs :func:`chicago.sim` code on a cluster worker and returns its game results. The
results are put back in set order and summed up exactly as a local match, and since every
random choice of a set comes from the match seed and the set number only, a match gives the
same results on a cluster as in one local process, whatever the number of workers, the order
the tasks finish in, or a task that is run again after a worker died.

``ADDRESS`` is a Dask scheduler (``tcp://host:8786``; start one with ``dask scheduler`` and
workers with ``dask worker tcp://host:8786`` on machines that have this package installed,
see docs/SCALING.md), or ``local`` / ``local:N`` for a cluster of N worker processes on this
machine started for the one match (N defaults to the number of CPUs).
"""

from __future__ import annotations

import importlib
import logging
import math
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from chicago.extras import install_command
from chicago.rules import Rules
from chicago.sim import (
    DEFAULT_DEAL_CAP,
    GameResult,
    MatchResult,
    _play_sets,
    check_match,
    summarize,
)

__all__ = ["ClusterError", "connect", "parse_local", "run_match_on_cluster"]

RETRIES = 2
"""Times a task is run again when its worker dies (safe: a task's result depends only on its
arguments)."""


class ClusterError(Exception):
    """The cluster could not be reached or used (the message says why)."""


def parse_local(address: str) -> int | None:
    """The worker count of a ``local`` / ``local:N`` address, or None for another address.

    >>> parse_local("local:3"), parse_local("tcp://10.0.0.5:8786")
    (3, None)
    """
    if address == "local":
        return max(1, os.cpu_count() or 1)
    if address.startswith("local:"):
        text = address[len("local:"):]
        if not text.isdigit() or int(text) < 1:
            raise ClusterError(f"local:N needs a worker count of at least 1, not {text!r}")
        return int(text)
    return None


@contextmanager
def connect(address: str, timeout: float = 30.0) -> Iterator[Any]:
    """A ``distributed.Client`` of the cluster at ``address`` (closed afterwards); ``local``
    and ``local:N`` start a cluster of worker processes on this machine for the block."""
    try:
        dd: Any = importlib.import_module("distributed")
    except ImportError as exc:
        raise ClusterError(
            f"--cluster needs Dask distributed: {install_command('cluster')}"
        ) from exc
    workers = parse_local(address)
    cluster = None
    try:
        if workers is not None:
            cluster = dd.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                dashboard_address=None, silence_logs=logging.ERROR,
            )
            client = dd.Client(cluster, set_as_default=False)
        else:
            client = dd.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _chunks(sets: int, workers: int) -> list[list[int]]:
    """The sets cut into pieces: about four per worker, at most eight sets each (as the
    local ``jobs`` runner does)."""
    size = max(1, min(8, sets // (workers * 4) or 1))
    return [list(range(i, min(sets, i + size))) for i in range(0, sets, size)]


def run_match_on_cluster(
    specs: Sequence[str],
    games: int,
    rules: Rules | None = None,
    *,
    seed: int = 0,
    address: str | None = None,
    client: Any = None,
    deal_cap: int = DEFAULT_DEAL_CAP,
    progress: Callable[[int], None] | None = None,
) -> MatchResult:
    """:func:`chicago.sim.run_match` on a Dask cluster: the same arguments and results.

    Give the cluster's ``address`` (or ``local``/``local:N``), or a connected
    ``distributed.Client`` as ``client``. ``progress(k)`` is called as k more games finish.
    Raises ValueError for bad arguments (as ``run_match``) and :class:`ClusterError` when
    the cluster cannot be used.
    """
    specs, rules = check_match(specs, games, rules)
    if client is None:
        if address is None:
            raise ValueError("give the cluster's address or a client")
        with connect(address) as connected:
            return run_match_on_cluster(specs, games, rules, seed=seed, client=connected,
                                        deal_cap=deal_cap, progress=progress)
    dd: Any = importlib.import_module("distributed")
    sets = math.ceil(games / len(specs))
    rules_data = rules.to_dict()
    workers = max(1, sum(client.nthreads().values()))
    chunks = _chunks(sets, workers)
    futures = [
        client.submit(_play_sets, specs, rules_data, seed, chunk, deal_cap, pure=False,
                      retries=RETRIES)
        for chunk in chunks
    ]
    index = {future.key: i for i, future in enumerate(futures)}
    batches: dict[int, list[GameResult]] = {}
    try:
        for future in dd.as_completed(futures, loop=client.loop):
            batch = future.result()
            batches[index[future.key]] = batch
            if progress is not None:
                progress(len(batch))
    finally:
        for future in futures:
            future.release()
    results = [game for i in range(len(chunks)) for game in batches[i]]
    return MatchResult(specs=specs, games=results, bots=summarize(specs, results))
