"""What ``make run`` starts: ``chicago`` alone runs ``chicago serve``, which prints the address
and serves the browser app there."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

import chicago.commands.serve as serve
from chicago.cli import DEFAULT_COMMAND, main


def test_chicago_alone_runs_serve_on_its_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[argparse.Namespace] = []
    monkeypatch.setattr(serve, "run", lambda args: seen.append(args) or 0)
    assert DEFAULT_COMMAND == "serve"
    assert main([]) == 0
    (args,) = seen
    assert args.command == "serve" and args.host == "127.0.0.1" and args.port == 8000
    assert args.db is None


def test_makefile_run_target_starts_serve() -> None:
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    target = makefile[makefile.index("\nrun:"):].split("\n\n")[0]
    assert "chicago serve" in target


def test_chicago_serve_prints_the_address_and_serves_the_app(tmp_path: Path) -> None:
    env = {**os.environ, "CHICAGO_DATA": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "chicago.cli", "serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        assert match, line
        # it listens before it prints the address: the request waits in the socket's
        # backlog while the app migrates the database and starts, then is answered
        with urllib.request.urlopen(match.group(1), timeout=120) as response:
            page = response.read().decode()
        # (the page names its modules under the app's version: chicago.server.static)
        assert re.search(r'<script type="module" src="(v/[0-9a-f]+/)?js/app\.js">', page)
        assert (tmp_path / "chicago.sqlite3").exists()
    finally:
        process.terminate()
        process.wait(timeout=20)
