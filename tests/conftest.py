"""Fixtures of the whole suite: no test ever writes to the real data directory.

Every shell keeps its data in :func:`chicago.datadir.data_dir` (``$CHICAGO_DATA``, else the
user's own data directory). The suite points ``CHICAGO_DATA`` at a directory of its own as
soon as it starts (also for what runs while tests are collected) and at a fresh one for each
test; child processes inherit it with ``os.environ``. A test that needs another data
directory sets ``CHICAGO_DATA`` itself (``monkeypatch.setenv`` or the child's ``env``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import chicago
from chicago.datadir import DATA_ENV

_SESSION_DATA: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    """Point CHICAGO_DATA at a throw-away directory for the whole run (this process and, by
    inheritance, xdist's workers and every child process); and put the source of the
    ``chicago`` under test first on every child's PYTHONPATH, so that a ``python -m chicago``
    the tests start runs this checkout, whichever one the interpreter's environment was
    installed from (and from whatever directory it starts in)."""
    global _SESSION_DATA
    _SESSION_DATA = tempfile.mkdtemp(prefix="chicago-test-data-")
    os.environ[DATA_ENV] = _SESSION_DATA
    source = str(Path(chicago.__file__).resolve().parents[1])
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != source]
    os.environ["PYTHONPATH"] = os.pathsep.join([source, *paths])


def pytest_unconfigure(config: pytest.Config) -> None:
    if _SESSION_DATA is not None:
        shutil.rmtree(_SESSION_DATA, ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path_factory: pytest.TempPathFactory,
                  monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Each test gets an empty data directory of its own in CHICAGO_DATA."""
    data = tmp_path_factory.mktemp("data")
    monkeypatch.setenv(DATA_ENV, str(data))
    yield data
