"""`chicago play` and `chicago replay` as processes: a reader that goes away, and Ctrl-C.

A closed pipe (``chicago replay F --plain | head -1``) ends the command silently with status
141, as ``cat`` does; Ctrl-C (SIGINT), also while a bot is deciding, saves the game and
ends with one line and status 130. Never a traceback.

The commands run as children that start with SIGINT at its default (:data:`_CHICAGO`): a
suite started in the background (``make test &``, nohup, some CI runners) inherits an
ignored SIGINT, which a child would keep, and then no Ctrl-C could reach it.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

import pytest

from chicago import Game, Rules
from chicago.tui.plain import BROKEN_PIPE_STATUS, INTERRUPTED_STATUS, play_plain
from chicago.tui.session import PlaySession

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and pipes")

SLOW_BOT = """
import sys, time
for line in sys.stdin:
    if '"act"' in line:
        with open(sys.argv[1], "w") as asked:  # a FIFO: tells the test it was asked
            asked.write("asked\\n")
        time.sleep(600)  # thinks forever: Ctrl-C arrives while chicago waits for it
"""


_CHICAGO = [
    sys.executable, "-c",
    "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from chicago.cli import main; sys.exit(main(sys.argv[1:]))",
]
"""``chicago`` with SIGINT handled as in a process started from a terminal (Python's own
KeyboardInterrupt handler), whatever this process inherited."""


def _env(data: Path) -> dict[str, str]:
    return {**os.environ, "CHICAGO_DATA": str(data), "PYTHONIOENCODING": "utf-8",
            "LC_ALL": "C.UTF-8"}


def _start(args: list[str], data: Path, stdin: int | IO[bytes] = subprocess.PIPE,
           stdout: int | IO[bytes] = subprocess.PIPE) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*_CHICAGO, *args], stdin=stdin, stdout=stdout, stderr=subprocess.PIPE,
        env=_env(data),
    )


def _read_until(stream: IO[bytes], marker: bytes, limit: float = 60.0) -> bytes:
    """Read lines from ``stream`` until one contains ``marker``."""
    seen = b""
    deadline = time.monotonic() + limit
    while marker not in seen:
        assert time.monotonic() < deadline, seen
        line = stream.readline()
        assert line, seen  # the process ended before saying it
        seen += line
    return seen


def _finished_record(path: Path, *, players: int = 2, target: int = 12) -> Path:
    game = Game(Rules.preset("pagat", target=target), players=players, seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    return path


def _small_pipe() -> tuple[int, int]:
    """A pipe that holds one page (Linux), so that a writer cannot get far ahead."""
    read, write = os.pipe()
    with contextlib.suppress(AttributeError, OSError):
        fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, 4096)
    return read, write


def test_replay_into_a_pipe_closed_early_ends_quietly(tmp_path: Path) -> None:
    """The replay (about 38 KB of lines) cannot have written itself whole into the pipe (one
    page) and the reader's first read (8 KB at most) before the reader goes away, however
    slow the reader is: it meets the closed pipe."""
    record = _finished_record(tmp_path / "done.json", players=4, target=52)
    read, write = _small_pipe()
    process = _start(["replay", str(record), "--plain"], tmp_path, stdout=write)
    os.close(write)
    process.stdout = os.fdopen(read, "rb")
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().startswith(b"Replay of a finished game")
    process.stdout.close()  # like `| head -1`
    assert process.wait(timeout=60) == BROKEN_PIPE_STATUS
    assert process.stderr.read() == b""


def test_play_into_a_pipe_closed_early_saves_and_ends_quietly(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    process = _start(
        ["play", "--plain", "--seed", "3", "--bots", "random", "--save", str(save)], tmp_path,
    )
    assert process.stdin is not None and process.stdout is not None
    assert process.stderr is not None
    _read_until(process.stdout, b"throw away which cards?")
    process.stdout.close()
    process.stdin.write(b"1\n" * 400)  # it goes on playing until it writes to the pipe
    process.stdin.close()
    assert process.wait(timeout=60) == BROKEN_PIPE_STATUS
    assert process.stderr.read() == b""
    record = json.loads(save.read_text(encoding="utf-8"))
    assert record["actions"]  # the game so far is saved
    Game.replay(record)


def _interrupt(process: subprocess.Popen[bytes]) -> tuple[int, str, str]:
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    return process.returncode, out.decode(), err.decode()


def test_ctrl_c_while_a_bot_decides_saves_with_one_line(tmp_path: Path) -> None:
    bot = tmp_path / "slow_bot.py"
    bot.write_text(SLOW_BOT, encoding="utf-8")
    save = tmp_path / "game.json"
    asked = tmp_path / "asked"
    os.mkfifo(asked)
    # opened both ways, so that it never blocks nor reads as ended before the bot writes
    signal_fd = os.open(asked, os.O_RDWR | os.O_NONBLOCK)
    spec = f"cmd:time_ms=600000 startup_ms=600000 {sys.executable} {bot} {asked}"
    # seed 1 with two players: the bot's seat exchanges first
    assert Game(Rules.preset("pagat"), players=2, seed=1).to_act == 1
    process = _start(
        ["play", "--plain", "--seed", "1", "--players", "2", "--bots", spec,
         "--save", str(save)], tmp_path,
    )
    assert process.stdout is not None
    _read_until(process.stdout, b"saved after every action")
    try:  # the event: the bot was asked (and sleeps), not a second that usually suffices
        ready, _, _ = select.select([signal_fd], [], [], 120)
        assert ready, "the bot was never asked"
        assert os.read(signal_fd, 64) == b"asked\n"
    finally:
        os.close(signal_fd)
    code, out, err = _interrupt(process)
    assert code == INTERRUPTED_STATUS
    assert "Traceback" not in err and "Traceback" not in out
    last = out.strip().splitlines()[-1]
    assert last.startswith(f"Interrupted: the game is saved in {save}")
    assert "chicago play --resume" in last
    Game.replay(json.loads(save.read_text(encoding="utf-8")))


def test_ctrl_c_at_a_question_saves_with_one_line(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    process = _start(
        ["play", "--plain", "--seed", "3", "--bots", "random", "--save", str(save)], tmp_path,
    )
    assert process.stdout is not None
    _read_until(process.stdout, b"throw away which cards?")
    code, out, err = _interrupt(process)
    assert code == INTERRUPTED_STATUS
    assert "Traceback" not in err
    assert out.strip().splitlines()[-1].startswith("Interrupted: the game is saved in")
    resumed = subprocess.run(
        [sys.executable, "-m", "chicago.cli", "play", "--plain", "--resume", str(save)],
        input="quit\n", capture_output=True, text=True, env=_env(tmp_path), timeout=60,
        check=False,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "Resumed." in resumed.stdout


def _wait_blocked_on_pipe(pid: int, limit: float = 60.0) -> None:
    """Wait until the process sleeps writing to a pipe (Linux /proc), else a moment."""
    wchan = Path(f"/proc/{pid}/wchan")
    if not wchan.exists():
        time.sleep(3.0)
        return
    deadline = time.monotonic() + limit
    while "pipe" not in wchan.read_text():
        assert time.monotonic() < deadline, "the replay never blocked on its output"
        time.sleep(0.05)


def test_ctrl_c_during_a_replay_is_one_line(tmp_path: Path) -> None:
    record = _finished_record(tmp_path / "done.json")
    read, write = os.pipe()  # a full pipe that nobody reads: the replay blocks writing to it
    os.set_blocking(write, False)
    with contextlib.suppress(BlockingIOError):
        while True:
            os.write(write, b"x" * 4096)
    os.set_blocking(write, True)
    process = _start(["replay", str(record), "--plain"], tmp_path, stdin=subprocess.DEVNULL,
                     stdout=write)
    os.close(write)
    try:
        _wait_blocked_on_pipe(process.pid)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        os.close(read)
    assert process.returncode == INTERRUPTED_STATUS
    assert err.decode().strip() == "chicago replay: interrupted"


class _InterruptedBot:
    name = "interrupted"

    def decide(self, view: object, legal_actions: object, rng: object) -> str:
        raise KeyboardInterrupt


class _ClosedOutput(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_interrupt_inside_a_bot_and_a_closed_output_save_the_game(tmp_path: Path) -> None:
    """In-process: Ctrl-C raised while a bot decides, and a closed stdout, both save first."""
    save = tmp_path / "game.json"
    session = PlaySession.new(
        Rules.preset("pagat"), players=2, bot_specs=["random"], seed=1, save_path=save,
    )
    session.bots[1] = _InterruptedBot()  # type: ignore[assignment]
    out = io.StringIO()
    assert play_plain(session, io.StringIO(""), out) == INTERRUPTED_STATUS
    assert out.getvalue().strip().splitlines()[-1].startswith("Interrupted: the game is saved")
    assert save.exists()

    save.unlink()
    session = PlaySession.new(
        Rules.preset("pagat"), players=2, bot_specs=["random"], seed=1, save_path=save,
    )
    save.unlink()
    with pytest.raises(BrokenPipeError):
        play_plain(session, io.StringIO("1\n" * 50), _ClosedOutput())
    assert Game.replay(json.loads(save.read_text(encoding="utf-8"))).seed == 1


_INTERRUPT_TESTS = (
    test_ctrl_c_while_a_bot_decides_saves_with_one_line,
    test_ctrl_c_at_a_question_saves_with_one_line,
    test_ctrl_c_during_a_replay_is_one_line,
)


def test_interrupts_still_reach_the_children_of_a_suite_that_ignores_sigint(
    tmp_path: Path,
) -> None:
    """``make test &`` (or nohup) starts the suite with SIGINT ignored: the three Ctrl-C tests
    above still pass, because their children start with SIGINT at its default."""
    here = Path(__file__).resolve()
    suite = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
        f"--basetemp={tmp_path / 'inner'}",
        *(f"{here}::{test.__name__}" for test in _INTERRUPT_TESTS),
    ]
    ignoring = (
        "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
        "os.execv(sys.executable, sys.argv[1:])"
    )
    done = subprocess.run(
        [sys.executable, "-c", ignoring, *suite], capture_output=True, text=True,
        timeout=400, check=False, cwd=here.parent.parent,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert f"{len(_INTERRUPT_TESTS)} passed" in done.stdout, done.stdout[-3000:]
