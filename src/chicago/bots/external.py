"""External bots: a program in any language plays a seat over stdin/stdout (``cmd:`` specs).

``make_bot("cmd:python mybot.py")`` starts the program and talks to it one JSON object per
line (docs/BOT_PROTOCOL.md): ``hello`` when it starts, ``new_game`` before its first
decision of a game, ``act`` for every decision (the seat's view in its JSON form,
:func:`~chicago.engine.viewjson.view_json`; the legal actions as text, the time allowed, a
seed), ``game_over`` at the end (when the shell reports it) and ``bye``
when it is closed. The program answers each ``act`` with one line: the action's text
(``play Ah``), or a JSON string or object (``{"action": "play Ah"}``).

Options may precede the command, as ``name=value`` words: ``time_ms`` (time per decision,
default 1000), ``startup_ms`` (extra time for the first decision after the program starts,
default 5000), ``fallback`` (the bot that plays a lost turn, default ``basic``, or
``random`` when ``basic`` is not installed), ``restarts`` (how often a program that died is
started again, default 3)::

    cmd:time_ms=200 fallback=random ./mybot --level 3

A program that crashes, does not answer in time, or answers something that is not one of
the legal actions loses that turn to the fallback bot, and the game goes on. Each lost
turn is counted in :attr:`ExternalBot.failures` (``crash``, ``timeout``, ``illegal``); a late
answer is read and thrown away before the next question, so the program stays in step.

Nothing waits on the program without a limit. Messages are written by a writer thread, and
every write must be done within the decision's time: a program that stops reading its input
(so that the pipe fills up) is stopped at once, the turn counts as a ``timeout``, and the
program is started again for the next decision like a crashed one (within ``restarts``).
Answers are read by a reader thread; a line longer than :data:`MAX_LINE` bytes is an
illegal answer.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import shlex
import shutil
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from typing import IO, TypedDict

import chicago
from chicago.bots.base import Bot, make_bot, register_bot
from chicago.engine.actions import Action, NotationError
from chicago.engine.jsontypes import JSON, JSONObject
from chicago.engine.viewjson import view_json
from chicago.engine.viewtypes import SeatView
from chicago.rules import Rules

__all__ = ["PROTOCOL_VERSION", "ExternalBot", "SpecOptions", "parse_spec", "start_problem"]

PROTOCOL_VERSION = 1
TRANSPORT_SLACK_MS = 100
"""Added to the time a program is given, for the pipes and the operating system."""

MAX_LINE = 1 << 20
"""Longest answer line read (bytes); a longer line is read to its end and counts as illegal."""

_OPTIONS = ("time_ms", "startup_ms", "fallback", "restarts")
_EOF = object()
_WAKE = object()
"""Put in the lines' queue by :meth:`ExternalBot.expire` to wake the wait for an answer."""
_TOO_LONG = "\x00 line too long"
_STOP_WAIT = 0.5
"""Seconds a program is given to end after its input is closed, before it is killed."""


class SpecOptions(TypedDict):
    """The options of a ``cmd:`` spec (the module docstring says what each means)."""

    time_ms: int
    startup_ms: int
    fallback: str | None
    restarts: int


def parse_spec(spec: str) -> tuple[list[str], SpecOptions]:
    """The command line and options of a ``cmd:`` spec (raises ``ValueError``)."""
    prefix, sep, rest = spec.partition(":")
    if prefix.strip().lower() != "cmd" or not sep:
        raise ValueError(f"an external bot spec is 'cmd:COMMAND', not {spec!r}")
    try:
        words = shlex.split(rest)
    except ValueError as exc:
        raise ValueError(f"cannot split the command of {spec!r}: {exc}") from None
    given: dict[str, str] = {}
    while words and "=" in words[0] and words[0].split("=", 1)[0] in _OPTIONS:
        name, value = words.pop(0).split("=", 1)
        given[name] = value

    def number(name: str, default: int) -> int:
        if name not in given:
            return default
        try:
            value = int(given[name])
        except ValueError:
            raise ValueError(f"option {name} of {spec!r} needs a number, not "
                             f"{given[name]!r}") from None
        if value < 0:
            raise ValueError(f"option {name} of {spec!r} cannot be negative")
        return value

    options = SpecOptions(time_ms=number("time_ms", 1000), startup_ms=number("startup_ms", 5000),
                          fallback=given.get("fallback"), restarts=number("restarts", 3))
    if not words:
        raise ValueError(f"{spec!r} names no command to run")
    return words, options


def _default_fallback() -> Bot:
    try:
        return make_bot("basic")
    except ValueError:
        return make_bot("random")


def _pump(stream: IO[bytes], lines: queue.Queue[object]) -> None:
    """Reader thread: every line the program writes (decoded), then _EOF."""
    try:
        while True:
            raw = stream.readline(MAX_LINE)
            if not raw:
                break
            if len(raw) >= MAX_LINE and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):  # skip the rest of the line
                    raw = stream.readline(MAX_LINE)
                lines.put(_TOO_LONG)
                continue
            lines.put(raw.decode("utf-8", "replace"))
    except (OSError, ValueError):
        pass
    lines.put(_EOF)


class _Writer:
    """Writes to a program's input on a thread of its own, so that a program that stops
    reading can block only that thread, never the game (see :meth:`write`)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self._queue: queue.Queue[tuple[bytes, threading.Event] | None] = queue.Queue()
        self.broken = False
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                break
            data, done = item
            if not self.broken:
                try:
                    view = memoryview(data)
                    fd = self._stream.fileno()
                    while view:
                        view = view[os.write(fd, view):]
                except (OSError, ValueError):
                    self.broken = True
            done.set()
        with contextlib.suppress(OSError):
            self._stream.close()

    def write(self, data: bytes, timeout: float) -> bool | None:
        """Write ``data``: True when done, False when the input is closed (the program
        ended), None when it was not done within ``timeout`` seconds (the program does not
        read; it must then be stopped, which ends the blocked write)."""
        if self.broken:
            return False
        done = threading.Event()
        self._queue.put((data, done))
        if not done.wait(max(0.0, timeout)):
            return None
        return not self.broken

    def close(self) -> None:
        """Close the input once everything queued is written (at once if nothing is)."""
        self._queue.put(None)


def _stop(process: subprocess.Popen[bytes], writer: _Writer | None, *, kill: bool = False) -> None:
    """Ask the program to end (close its input), then kill it if it does not end within
    :data:`_STOP_WAIT` seconds; ``kill``: at once (a program that does not read)."""
    if process.poll() is None:
        if writer is not None and not kill:
            writer.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=_STOP_WAIT)
        if process.poll() is None:
            process.kill()
            process.wait()
    if writer is not None:
        writer.close()  # lets the writer thread end; its blocked write failed with the kill


class ExternalBot:
    """A seat played by an external program (see the module docstring).

    ``failures`` counts the turns the program lost, by cause; ``decisions`` counts every
    decision asked of it.
    """

    def __init__(self, spec: str, *, keep_stderr: bool = False) -> None:
        """``keep_stderr``: read the program's standard error and keep its last lines
        (:meth:`stderr_tail`) instead of letting it through to ours."""
        self.name = spec
        self.keep_stderr = keep_stderr
        self._stderr: deque[str] = deque(maxlen=20)
        self._stderr_reader: threading.Thread | None = None
        self.command, options = parse_spec(spec)
        if shutil.which(self.command[0]) is None:
            raise ValueError(f"{spec!r}: cannot find the program {self.command[0]!r}")
        self.time_ms: int = options["time_ms"]
        self.startup_ms: int = options["startup_ms"]
        self.restarts_left: int = options["restarts"]
        self.fallback: Bot = (
            make_bot(options["fallback"]) if options["fallback"] else _default_fallback()
        )
        self.failures: dict[str, int] = {"crash": 0, "timeout": 0, "illegal": 0}
        self.decisions = 0
        self.last_error: str | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._writer: _Writer | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._fresh = False
        self._owed = 0
        self._game_key: tuple[tuple[int | None, int, Rules], tuple[int, int]] | None = None
        self._finalizer: (
            weakref.finalize[[subprocess.Popen[bytes], _Writer | None], ExternalBot] | None
        ) = None
        self._asked = 0
        self._expired = threading.Event()

    # -- the Bot interface ----------------------------------------------------------------
    def decide(
        self, view: SeatView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Ask the program; on a crash, a timeout or an illegal answer the fallback decides."""
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        self.decisions += 1
        seed = rng.getrandbits(63)
        cause = self._ask(view, legal_actions, seed)
        if isinstance(cause, Action):
            return cause
        self.failures[cause] += 1
        return self.fallback.decide(view, legal_actions, random.Random(seed))

    def game_over(self, view: SeatView) -> None:
        """Tell the program the game has ended (``view`` is its seat's final view)."""
        if self._alive():
            self._send({"type": "game_over", "seat": view.seat, "view": view_json(view)},
                       self._deadline(self.time_ms + TRANSPORT_SLACK_MS))
        self._game_key = None

    def close(self) -> None:
        """Say ``bye`` and stop the program (it is killed if it does not end in 0.5 s)."""
        process = self._process
        if process is None:
            return
        stuck = False
        if process.poll() is None:
            stuck = self._send({"type": "bye"}, self._deadline(TRANSPORT_SLACK_MS)) is None
        _stop(process, self._writer, kill=stuck)
        if self._finalizer is not None:
            self._finalizer.detach()
        self._process = None
        self._writer = None

    def expire(self) -> None:
        """Run out the time of the answer the bot waits for now, or of the next one it
        waits for if it waits for none: that wait ends at once, as when its deadline passes
        (the turn counts as a ``timeout`` and a late answer is thrown away). Safe to call from
        any thread. A test gives a program an hour and runs its time out when the program
        has said it was asked, so no test waits for a time (docs/BOT_PROTOCOL.md)."""
        self._expired.set()
        self._lines.put(_WAKE)

    def stderr_tail(self) -> str:
        """The last line the program wrote to its standard error (with ``keep_stderr``),
        once it has ended; ``""`` if none."""
        if self._stderr_reader is not None:
            self._stderr_reader.join(timeout=_STOP_WAIT)
        return next((line for line in reversed(self._stderr) if line), "")

    def exit_status(self) -> int | None:
        """The program's exit status if it has ended, else None."""
        return None if self._process is None else self._process.poll()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the conversation -----------------------------------------------------------------
    @staticmethod
    def _deadline(ms: float) -> float:
        return time.monotonic() + ms / 1000.0

    def _ask(
        self, view: SeatView, legal_actions: Sequence[Action], seed: int
    ) -> Action | str:
        """The program's legal answer, or the cause of the failure.

        One deadline covers the whole decision: writing the messages and reading the answer.
        """
        if not self._alive() and not self._start():
            return "crash"
        allowed = self.time_ms + TRANSPORT_SLACK_MS + (self.startup_ms if self._fresh else 0)
        self._fresh = False
        deadline = self._deadline(allowed)
        data = view_json(view)
        key = (view.seat, view.players, view.rules)
        progress = (view.deal, len(view.events))
        if self._game_key is None or self._game_key[0] != key or self._game_key[1] >= progress:
            sent = self._send(
                {"type": "new_game", "seat": view.seat, "players": view.players,
                 "rules": data["rules"]},
                deadline,
            )
            if not sent:
                return "crash" if sent is False else "timeout"
        self._game_key = (key, progress)
        self._drain()
        self._asked += 1
        legal: list[JSON] = [str(a) for a in legal_actions]
        question: JSONObject = {
            "type": "act",
            "id": self._asked,
            "view": data,
            "legal": legal,
            "time_ms": self.time_ms,
            "seed": seed,
        }
        sent = self._send(question, deadline)
        if not sent:
            return "crash" if sent is False else "timeout"
        while True:
            remaining = deadline - time.monotonic()
            if self._expired.is_set():  # expire(): the deadline has passed now
                self._expired.clear()
                remaining = 0.0
            if remaining <= 0:
                self._owed += 1
                self.last_error = f"no answer within {allowed} ms"
                return "timeout"
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is _WAKE:
                continue
            if line is _EOF:
                self.last_error = "the program ended (or closed its output)"
                if self._process is not None:
                    _stop(self._process, self._writer)
                return "crash"
            assert isinstance(line, str)
            if self._owed:  # the late answer to a question that timed out
                self._owed -= 1
                continue
            if line is _TOO_LONG:
                self.last_error = f"the answer is longer than {MAX_LINE} bytes"
                return "illegal"
            text, answer_id = _answer_text(line)
            if answer_id is not None and answer_id != self._asked:
                continue
            return self._legal(text, legal_actions)

    def _legal(self, text: str | None, legal_actions: Sequence[Action]) -> Action | str:
        if text is None:
            self.last_error = "the answer is not an action"
            return "illegal"
        try:
            action = Action.parse(text)
        except NotationError as exc:
            self.last_error = str(exc)
            return "illegal"
        for legal in legal_actions:
            if legal == action:
                return legal
        self.last_error = f"{text.strip()!r} is not a legal action now"
        return "illegal"

    def _drain(self) -> None:
        """Throw away lines written since the last answer (late or unasked)."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is _EOF:
                self._lines.put(_EOF)
                return
            if line is _WAKE:
                continue
            if self._owed:
                self._owed -= 1

    def _alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def _start(self) -> bool:
        """Start (or restart) the program and say hello; False if it cannot run."""
        if self._process is not None:
            if self.restarts_left <= 0:
                return False
            self.restarts_left -= 1
            _stop(self._process, self._writer)
            self._process = None
            self._writer = None
        try:
            process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE if self.keep_stderr else None,
            )
        except OSError as exc:
            self.last_error = f"cannot start {self.command[0]!r}: {exc}"
            self.restarts_left = 0
            self._process = None
            return False
        assert process.stdin is not None and process.stdout is not None
        self._process = process
        self._writer = _Writer(process.stdin)
        if self._finalizer is not None:
            self._finalizer.detach()
        self._finalizer = weakref.finalize(self, _stop, process, self._writer)
        self._lines = queue.Queue()
        self._owed = 0
        self._game_key = None
        threading.Thread(target=_pump, args=(process.stdout, self._lines), daemon=True).start()
        if process.stderr is not None:
            self._stderr_reader = threading.Thread(
                target=_keep_lines, args=(process.stderr, self._stderr), daemon=True)
            self._stderr_reader.start()
        self._fresh = True
        allowed = self.time_ms + TRANSPORT_SLACK_MS + self.startup_ms
        return bool(self._send(
            {"type": "hello", "protocol": PROTOCOL_VERSION, "program": "chicago",
             "version": chicago.__version__},
            self._deadline(allowed),
        ))

    def _send(self, message: JSONObject, deadline: float) -> bool | None:
        """Write one message by ``deadline``: True when written; False when the program
        closed its input; None when it did not take the message in time (it does not read
        its input): then it is killed, and started again at the next decision."""
        process, writer = self._process, self._writer
        if process is None or writer is None:
            return False
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
        done = writer.write(data, deadline - time.monotonic())
        if done is None:
            self.last_error = "the program did not read its input in time (stopped)"
            _stop(process, writer, kill=True)
            return None
        if not done:
            self.last_error = "the program closed its input"
        return done


def _keep_lines(stream: IO[bytes], kept: deque[str]) -> None:
    """Reader thread: the program's standard error, line by line, into ``kept``."""
    with contextlib.suppress(OSError, ValueError):
        for raw in iter(lambda: stream.readline(MAX_LINE), b""):
            kept.append(raw.decode("utf-8", "replace").strip())


def start_problem(
    spec: str, view: SeatView, legal_actions: Sequence[Action]
) -> str | None:
    """Why the program of the ``cmd:`` bot ``spec`` cannot play, in one line; None when it
    can. It is started and asked a first decision (``view``, ``legal_actions``: a seat's
    first of a game): a program that cannot be started, ends (the last line of its
    standard error says why) or does not answer within its start-up time cannot play. An
    illegal answer is no start problem (it loses that turn, as in a match). Raises
    ``ValueError`` for a bad spec."""
    with ExternalBot(spec, keep_stderr=True) as bot:
        bot.restarts_left = 0
        cause = bot._ask(view, legal_actions, 0)
        if isinstance(cause, Action) or cause == "illegal":
            return None
        status = bot.exit_status()
        why = bot.last_error or "it did not answer"
        if status is not None:
            why = f"the program ended with status {status} before its first answer"
        tail = bot.stderr_tail()
    return f"{spec}: the bot cannot play: {why}" + (f": {tail}" if tail else "")


def _answer_text(line: str) -> tuple[str | None, int | None]:
    """The action text of an answer line and the question id it names (if any)."""
    text = line.strip()
    if text.startswith(("{", '"')):
        try:
            data = json.loads(text)
        except ValueError:
            return None, None
        if isinstance(data, str):
            return data, None
        if isinstance(data, dict) and isinstance(data.get("action"), str):
            answer_id = data.get("id")
            return data["action"], answer_id if isinstance(answer_id, int) else None
        return None, None
    return text, None


register_bot("cmd", ExternalBot, level=False)
