"""One data directory for every shell (issue 15): ``$CHICAGO_DATA``, else the platform's user
data directory, the same for the server's SQLite file and the terminal's saved games, and
the same wherever a command is started."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from chicago.cli import main
from chicago.datadir import data_dir, user_data_dir
from chicago.tui.storage import games_dir, new_game_path

HOME = Path("/home/anna")


def test_chicago_data_wins_and_a_relative_one_is_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert data_dir({"CHICAGO_DATA": "/srv/chicago", "XDG_DATA_HOME": "/x"}) == Path(
        "/srv/chicago")
    assert data_dir({"CHICAGO_DATA": "~/cards"}, home=HOME) == Path.home() / "cards"
    monkeypatch.chdir(tmp_path)
    assert data_dir({"CHICAGO_DATA": "club"}) == tmp_path / "club"
    assert data_dir({"CHICAGO_DATA": "  "}, platform="linux", home=HOME) == (
        HOME / ".local" / "share" / "chicago")


@pytest.mark.parametrize(("platform", "env", "expected"), [
    ("linux", {}, HOME / ".local/share/chicago"),
    ("linux", {"XDG_DATA_HOME": "/data/anna"}, Path("/data/anna/chicago")),
    # the XDG Base Directory specification: a relative path is to be ignored
    ("linux", {"XDG_DATA_HOME": "relative/dir"}, HOME / ".local/share/chicago"),
    ("freebsd14", {"XDG_DATA_HOME": "/xdg"}, Path("/xdg/chicago")),
    ("darwin", {"XDG_DATA_HOME": "/xdg"}, HOME / "Library/Application Support/chicago"),
    ("win32", {"LOCALAPPDATA": "C:/Users/anna/AppData/Local"},
     Path("C:/Users/anna/AppData/Local/chicago")),
    ("win32", {}, HOME / "AppData/Local/chicago"),
])
def test_the_user_data_directory_of_each_platform(
    platform: str, env: dict[str, str], expected: Path
) -> None:
    """The directories platformdirs' ``user_data_dir("chicago", appauthor=False)`` names."""
    assert user_data_dir(env, platform=platform, home=HOME) == expected
    assert data_dir(env, platform=platform, home=HOME) == expected


def test_server_database_and_saved_games_share_the_directory_wherever_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("sqlalchemy")
    from chicago.server.settings import Settings, default_db_path

    monkeypatch.setenv("CHICAGO_DATA", str(tmp_path / "data"))
    seen = set()
    for cwd in (tmp_path, tmp_path / "elsewhere", Path("/")):
        cwd.mkdir(exist_ok=True)
        monkeypatch.chdir(cwd)
        seen.add((default_db_path(), games_dir(), Settings().db_url,
                  new_game_path(7, now=0).parent))
    assert seen == {(
        tmp_path / "data" / "chicago.sqlite3", tmp_path / "data" / "games",
        f"sqlite:///{tmp_path / 'data' / 'chicago.sqlite3'}", tmp_path / "data" / "games",
    )}


def test_the_suite_never_uses_the_real_data_directory(_own_data_dir: Path) -> None:
    """tests/conftest.py gives every test an empty CHICAGO_DATA of its own."""
    assert data_dir() == _own_data_dir != user_data_dir()
    assert list(_own_data_dir.iterdir()) == []


def test_help_names_the_data_directory(capsys: pytest.CaptureFixture[str],
                                       _own_data_dir: Path) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert str(_own_data_dir) in " ".join(capsys.readouterr().out.split())


def test_serve_without_chicago_data_keeps_its_database_in_the_user_data_directory(
    tmp_path: Path,
) -> None:
    """Started from any directory, `chicago serve` prints and uses
    ``$XDG_DATA_HOME/chicago/chicago.sqlite3`` and writes nothing where it was started."""
    pytest.importorskip("uvicorn")
    xdg, cwd = tmp_path / "xdg", tmp_path / "started-here"
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "CHICAGO_DATA"}
    env.update(XDG_DATA_HOME=str(xdg), HOME=str(tmp_path / "home"))
    process = subprocess.Popen(
        [sys.executable, "-m", "chicago.cli", "serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        database = xdg / "chicago" / "chicago.sqlite3"
        assert f"(data: {database})" in line, line
        address = re.search(r"http://\S+/", line)
        assert address, line
        # it listens before it prints the address: the request waits in the socket's
        # backlog while the app migrates the database and starts, then is answered
        with urllib.request.urlopen(address.group(0) + "api/health", timeout=120):
            pass
        assert database.is_file()
        assert list(cwd.iterdir()) == []
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_serve_points_at_a_database_left_in_dot_data_by_an_earlier_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    _own_data_dir: Path,
) -> None:
    """Earlier versions kept the database in ./data/ of the starting directory: the server
    says where that file is and how to keep using it (then fails here on a taken port)."""
    pytest.importorskip("uvicorn")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "chicago.sqlite3").write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert main(["serve", "--port", str(taken.getsockname()[1])]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert f"{tmp_path / 'data' / 'chicago.sqlite3'} is a database of an earlier version" in err
    assert f"now the data is in {_own_data_dir}" in err
    assert f"--db sqlite:///{tmp_path / 'data' / 'chicago.sqlite3'}" in err
    assert "cannot listen" in err
