"""A server that cannot start (issue 23, finding 9) prints one line naming the cause and the
fix, prints no address, and exits non-zero (before: its address, then 46 to 147 lines of
traceback): a data directory it cannot write, a database it cannot reach, a URL that names
no database, a Redis that does not answer."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(120)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port  # nobody listens there now


def _serve(*options: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chicago.cli", "serve", "--port", "0", *options],
        capture_output=True, text=True, timeout=90, env={**os.environ, **env},
        stdin=subprocess.DEVNULL)


def _one_line(done: subprocess.CompletedProcess[str], *words: str) -> str:
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "http://" not in done.stdout and "Traceback" not in output, output
    lines = output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("chicago serve: "), output
    for word in words:
        assert word in lines[0], output
    return lines[0]


def test_a_data_directory_that_cannot_be_written() -> None:
    line = _one_line(_serve(CHICAGO_DATA="/proc/nonexist"), "/proc/nonexist",
                     "CHICAGO_DATA")
    assert "writable" in line


def test_a_database_nobody_answers_at() -> None:
    port = _free_port()
    line = _one_line(_serve("--db", f"postgresql://chicago:secret@127.0.0.1:{port}/chicago"),
                     "cannot reach the database", str(port), "--db")
    assert "secret" not in line  # the password is not printed


@pytest.mark.parametrize("url", ["foo://bar", "not a url"])
def test_a_url_that_names_no_database(url: str) -> None:
    _one_line(_serve("--db", url), "sqlite:///PATH", "postgresql://")


def test_a_redis_nobody_answers_at() -> None:
    base = os.environ.get("CHICAGO_TEST_PG_URL")
    if not base:
        pytest.skip("needs CHICAGO_TEST_PG_URL (--redis needs a PostgreSQL database)")
    port = _free_port()
    _one_line(_serve("--db", base, "--redis", f"redis://127.0.0.1:{port}/0"),
              "cannot reach Redis", str(port), "--redis")


def test_a_database_written_by_a_newer_chicago(tmp_path: Path) -> None:
    """A database whose schema revision this program does not know (a newer chicago migrated
    it) is named with its revision in one line, not an Alembic traceback; nothing in it
    changes."""
    from sqlalchemy import create_engine, text

    from chicago.server.storage import Store

    path = tmp_path / "newer.db"
    store = Store(f"sqlite:///{path}")
    store.migrate()
    store.close()
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999_from_the_future'"))
    line = _one_line(_serve("--db", f"sqlite:///{path}"), "9999_from_the_future",
                     str(path), "newer", "--db")
    assert "Traceback" not in line
    with engine.connect() as conn:  # the schema is left as it was
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() \
            == "9999_from_the_future"
    engine.dispose()
