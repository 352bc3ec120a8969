"""A lean core with extras (issue 15): the core never imports a package of an extra, and a
command whose extra is missing exits with status 2 and the exact ``pip install`` to run.

Missing packages are simulated in a child process: a finder first in ``sys.meta_path``
answers every import of a blocked top-level package with ``ModuleNotFoundError``, as if it
were not installed, and notes the attempt (:data:`BLOCKING`).
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from chicago import Game, Rules, cli
from chicago.extras import EXTRAS, MissingExtra, extra_for, install_command, require

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
EVERY_OPTIONAL = sorted({name for names in EXTRAS.values() for name in names})

BLOCKING = '''
import importlib.abc, json, os, sys

class _NotInstalled(importlib.abc.MetaPathFinder):
    def __init__(self, names):
        self.names = names
        self.tried = []

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in self.names:
            self.tried.append(name)
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

_blocked = _NotInstalled(set(sys.argv[1].split(",")))
assert not [m for m in sys.modules if m.partition(".")[0] in _blocked.names]
sys.meta_path.insert(0, _blocked)
del sys.argv[1]
'''
"""Run before the child's own code: ``python -c BLOCKING+CODE NAMES,… ARGS…``."""

CHICAGO = BLOCKING + "from chicago.cli import main\nsys.exit(main(sys.argv[1:]))\n"


def _chicago(blocked: list[str], *args: str, input: str = "",
             cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CHICAGO, ",".join(blocked), *args], input=input,
        capture_output=True, text=True, timeout=300, check=False, cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


CORE = BLOCKING + r'''
import contextlib, io
import chicago, chicago.cards, chicago.poker, chicago.odds, chicago.rules, chicago.engine
import chicago.record, chicago.sim, chicago.datadir, chicago.web, chicago.server.hints
import chicago.server.replay_pages, chicago.tui.plain, chicago.tui.session, chicago.cli
from chicago.bots import make_bot

def run(*argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.StringIO(stdin)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = chicago.cli.main(list(argv))
        except SystemExit as exc:
            code = exc.code
    return {"code": code, "out": out.getvalue(), "err": err.getvalue()}

game = chicago.Game(chicago.Rules.preset("pagat"), players=4, seed=3)
bots = [make_bot(level) for level in ("master:worlds=4;samples=8", "basic", "ev",
                                      "expert:budget=0.05")]
import random
rng = random.Random(3)
while not game.is_over:
    seat = game.to_act
    game.apply(bots[seat].decide(game.view(seat), game.legal_actions(), rng))
record = os.path.join(os.environ["CHICAGO_DATA"], "done.json")
with open(record, "w") as f:
    json.dump(game.record(), f)
results = {
    "accelerated": chicago.poker.ACCELERATED,
    "odds": run("odds", "Ah Kh Qh Jh 2c"),
    "simulate": run("simulate", "--bots", "basic,random", "--games", "2", "--no-progress"),
    "play": run("play", "--plain", "--seed", "5", "--bots", "random", stdin="1\n" * 3000),
    "replay": run("replay", record, "--plain"),
    "version": run("--version"),
    "help": [run(name, "--help")["code"] for name in sorted(chicago.cli.build_parser()[1])],
    "tried": _blocked.tried,
}
print(json.dumps(results))
'''


def test_the_core_works_and_never_tries_to_import_an_optional_package() -> None:
    """With every package of every extra missing: the library, the bots, ``chicago odds``,
    ``chicago simulate``, ``chicago play --plain`` (a whole game), ``chicago replay --plain``,
    ``--version`` and every command's ``--help`` work, and none tries an optional import."""
    done = subprocess.run(
        [sys.executable, "-c", CORE, ",".join(EVERY_OPTIONAL)], capture_output=True,
        text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results["tried"] == []
    assert results["odds"]["code"] == 0 and "Draw odds for Ah Kh Qh Jh 2c" in results["odds"]["out"]
    assert results["simulate"]["code"] == 0 and "chicago simulate" in results["simulate"]["out"]
    play = results["play"]
    assert play["code"] == 0 and "The game is over" in play["out"], play["err"]
    assert results["replay"]["code"] == 0
    assert results["replay"]["out"].startswith("Replay of a finished game")
    assert results["version"]["code"] == 0
    assert results["help"] == [0] * len(results["help"])


@pytest.mark.parametrize(("blocked", "args", "extra"), [
    (["fastapi"], ["serve", "--port", "0"], "server"),
    (["uvicorn"], ["serve", "--port", "0"], "server"),
    (["sqlalchemy", "alembic"], [], "server"),  # `chicago` alone is `chicago serve`
    (["psycopg"], ["serve", "--db", "postgresql://u:p@127.0.0.1:9/db", "--port", "0"],
     "postgres"),
    (["redis"], ["serve", "--db", "postgresql://u:p@127.0.0.1:9/db", "--redis",
                 "redis://127.0.0.1:9/0", "--port", "0"], "redis"),
    (["distributed", "dask"], ["simulate", "--bots", "basic,random", "--games", "2",
                               "--no-progress", "--cluster", "local:1"], "cluster"),
])
def test_a_command_without_its_extra_names_the_pip_install(
    blocked: list[str], args: list[str], extra: str, tmp_path: Path
) -> None:
    done = _chicago(blocked, *args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"pip install 'chicago-cardgame[{extra}]'" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # nothing started, nothing written


def _on_a_terminal(blocked: list[str], *args: str) -> tuple[int, str]:
    """Run ``chicago ARGS`` with stdin and stdout on a pseudo-terminal: (status, stderr)."""
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-c", CHICAGO, ",".join(blocked), *args], stdin=follower,
            stdout=follower, stderr=subprocess.PIPE, text=True,
        )
        os.close(follower)
        _, err = process.communicate(timeout=120)
    finally:
        os.close(leader)
    return process.returncode, err


def test_the_full_screen_terminal_without_textual_names_the_pip_install(
    tmp_path: Path, _own_data_dir: Path
) -> None:
    record = tmp_path / "done.json"
    game = Game(Rules.preset("pagat", target=12), players=2, seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    record.write_text(json.dumps(game.record()), encoding="utf-8")
    for args in (["play"], ["replay", str(record)]):
        code, err = _on_a_terminal(["textual", "rich"], *args)
        assert code == 2, err
        assert err.strip().endswith("pip install 'chicago-cardgame[tui]'"), err
        assert "--plain needs no extra" in err and "Traceback" not in err
    assert list(_own_data_dir.iterdir()) == []  # no game was started or saved


def test_an_import_error_of_an_optional_package_anywhere_in_a_command_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The safety net of ``chicago``: a command that meets a missing package of an extra
    without checking first still ends with the pip line and status 2; any other import
    error is a bug and stays a traceback."""
    _, modules = cli.build_parser()

    def needs_numpy(args: argparse.Namespace) -> int:
        raise ModuleNotFoundError("No module named 'numpy.linalg'", name="numpy.linalg")

    monkeypatch.setattr(modules["odds"], "run", needs_numpy)
    assert cli.main(["odds"]) == 2
    assert capsys.readouterr().err == (
        "chicago odds needs the optional package numpy: pip install 'chicago-cardgame[rl]'\n")

    def broken(args: argparse.Namespace) -> int:
        raise ModuleNotFoundError("No module named 'chicago.nothing'", name="chicago.nothing")

    monkeypatch.setattr(modules["odds"], "run", broken)
    with pytest.raises(ModuleNotFoundError):
        cli.main(["odds"])


def test_require_imports_every_package_of_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    require("server", "the server")  # installed for the tests
    monkeypatch.setitem(sys.modules, "alembic", None)  # as if it were missing
    with pytest.raises(MissingExtra) as caught:
        require("server", "the server")
    assert caught.value.missing == ["alembic"]
    assert str(caught.value) == (
        "the server needs the optional package alembic: pip install 'chicago-cardgame[server]'")
    assert install_command("all") == "pip install 'chicago-cardgame[all]'"
    assert extra_for("pyspiel") == "openspiel" and extra_for("chicago.engine") is None


def _requirement_name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_pyproject_has_every_extra_and_a_core_of_openskill_alone() -> None:
    project = PYPROJECT["project"]
    assert [_requirement_name(r) for r in project["dependencies"]] == ["openskill"]
    extras = project["optional-dependencies"]
    assert set(extras) == {*EXTRAS, "all", "dev", "bench"}
    assert extras["all"] == [f"chicago-cardgame[{','.join(EXTRAS)}]"]
    assert "chicago-cardgame[server]" in extras["postgres"]
    assert "chicago-cardgame[postgres]" in extras["redis"]


def test_each_extra_installs_the_packages_that_extras_py_names() -> None:
    """Every distribution an extra lists provides a package that chicago.extras names for
    that extra (so the missing-extra messages point at the right extra)."""
    provided: dict[str, set[str]] = {}
    for module, distributions in packages_distributions().items():
        for distribution in distributions:
            provided.setdefault(distribution.lower().replace("_", "-"), set()).add(module)
    for extra, requirements in PYPROJECT["project"]["optional-dependencies"].items():
        if extra not in EXTRAS:
            continue
        for requirement in requirements:
            name = _requirement_name(requirement)
            if name == "chicago-cardgame" or name not in provided:  # another extra; not here
                continue
            assert provided[name] & set(EXTRAS[extra]), (extra, name, provided[name])


def test_the_makefile_installs_every_extra_and_the_development_tools() -> None:
    """``make run`` and ``make test`` stay the two commands: the checkout's .venv has the
    program with ``[all]`` and the tools of ``dev`` and ``bench``."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[all,dev,bench]'" in makefile


def test_evaluate_many_without_numpy_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from chicago.poker import evaluate_many

    monkeypatch.setitem(sys.modules, "numpy", None)  # as if it were not installed
    with pytest.raises(MissingExtra, match=re.escape("pip install 'chicago-cardgame[rl]'")):
        evaluate_many([[0, 1, 2, 3, 4]])


@pytest.mark.parametrize(("blocked", "module", "extra"), [
    (["numpy"], "chicago.env", "rl"),
    (["pettingzoo"], "chicago.env.pettingzoo", "rl"),
    (["pyspiel"], "chicago.env.openspiel", "openspiel"),
])
def test_the_environments_without_their_extra_name_the_pip_install(
    blocked: list[str], module: str, extra: str
) -> None:
    """Importing an environment whose packages are missing raises MissingExtra (an
    ImportError) with the pip command, not a bare ModuleNotFoundError of numpy or pyspiel."""
    code = BLOCKING + f'''
from chicago.extras import MissingExtra
try:
    import {module}
except MissingExtra as exc:
    print("missing:", exc.extra, "|", exc)
'''
    done = subprocess.run([sys.executable, "-c", code, ",".join(blocked)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"missing: {extra} |"), done.stdout
    assert install_command(extra) in done.stdout
    assert ", ".join(blocked) in done.stdout
