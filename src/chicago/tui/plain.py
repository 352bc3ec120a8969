"""The plain line mode: a game or a replay as plain lines on stdin/stdout.

No colours and no cursor movement, so it works with screen readers, pipes and scripts.
Every question is one line; the answer is a number, cards or the action text (see
:mod:`chicago.tui.inputs`). ``help`` (the rules as plain text), ``hint``, ``look``,
``scores`` (every deal's points) and ``quit`` work at any question, in English or Swedish
(``hjälp``, ``tips``, ``läge``, ``poäng``, ``avsluta``). A wrong answer gets a one-line
reason in the player's words and the same question again. End of input saves the
game and exits cleanly; Ctrl-C (at a question or while a bot thinks) saves it and ends with
one line; a closed output (``chicago play --plain | head``) saves it and ends silently.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, TextIO

from chicago.engine import IllegalAction, SeatView
from chicago.tui.explain import why_not
from chicago.tui.hint_words import hint_lines, no_odds
from chicago.tui.hints import hint
from chicago.tui.inputs import (
    COMMANDS,
    SWEDISH_COMMANDS,
    InputError,
    command_of,
    parse_answer,
)
from chicago.tui.lang import Lang
from chicago.tui.notice import say
from chicago.tui.replayer import Replayer
from chicago.tui.rules_help import rules_text
from chicago.tui.session import PlaySession, Step
from chicago.tui.summary import score_history, score_lines
from chicago.tui.words import Words, card_format_for

if TYPE_CHECKING:
    from chicago.review import DecisionReview

__all__ = [
    "BROKEN_PIPE_STATUS",
    "INTERRUPTED_STATUS",
    "ignoring_interrupts",
    "play_plain",
    "replay_plain",
    "silence_stdout",
]

INTERRUPTED_STATUS = 130
"""Exit status after Ctrl-C (128 + SIGINT), as shells report an interrupted command."""

BROKEN_PIPE_STATUS = 141
"""Exit status when the reader of the output went away (128 + SIGPIPE), as for ``cat | head``."""


def silence_stdout() -> None:
    """Point stdout at /dev/null after a broken pipe, so exiting flushes nothing and says nothing.

    Python flushes ``sys.stdout`` once more at exit; with the reader gone that flush would
    print "Exception ignored … BrokenPipeError". Nothing more is said: the reader is gone.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout without a file descriptor
        pass


@contextlib.contextmanager
def ignoring_interrupts() -> Iterator[None]:
    """Ignore Ctrl-C inside the block (the final save), where the main thread allows it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


class _Out:
    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def __call__(self, line: str = "") -> None:
        self.stream.write(line + "\n")
        self.stream.flush()


def _names_line(session: PlaySession, words: Words) -> str:
    seats = []
    for seat in range(session.players):
        if seat == session.human:
            seats.append(words.t("tui.pl.seat_you", n=seat, name=words.name(seat)))
        else:
            level = words.level(session.tags.get(f"Bot{seat}", ""))
            seats.append(words.t("tui.pl.seat_bot", n=seat, name=session.names[seat],
                                 level=level))
    return words.t("tui.pl.players", seats="; ".join(seats))


def _report(out: _Out, words: Words, step: Step) -> None:
    lines = [text for ev in step.events if (text := words.event(ev))]
    if step.automatic and lines:
        lines[0] = words.t("tui.pl.automatic") + " " + lines[0]
    for line in lines:
        out(line)


def play_plain(
    session: PlaySession,
    stdin: TextIO,
    stdout: TextIO,
    *,
    resumed: bool = False,
    lang: Lang | str | None = None,
) -> int:
    """Play ``session`` to the end (or to the end of input) over plain lines; exit code 0.

    ``lang`` is the language of every line (English by default).

    Ctrl-C anywhere (at a question, or while a bot decides) saves the game, prints one
    line and returns :data:`INTERRUPTED_STATUS`. A ``BrokenPipeError`` from ``stdout``
    (its reader went away) saves the game and is raised again for the caller to exit
    quietly (see :func:`silence_stdout`).
    """
    out = _Out(stdout)
    words = Words(session.names, me=session.human, card=card_format_for(stdout), lang=lang)
    try:
        return _play(session, stdin, stdout, out, resumed, words)
    except KeyboardInterrupt:
        return _interrupted(out, session, words)
    except BrokenPipeError:
        with ignoring_interrupts():
            session.save()
        raise


def _interrupted(out: _Out, session: PlaySession, words: Words) -> int:
    """Save after Ctrl-C and say so in one line (on stderr if stdout is gone)."""
    with ignoring_interrupts():
        if session.save_path is None:
            line = words.t("tui.pl.interrupted_unsaved")
        elif session.save():
            line = words.t("tui.pl.interrupted_saved", path=session.save_path)
        else:
            line = words.t("tui.pl.interrupted_failed", problem=session.save_error)
        try:
            out()
            out(line)
        except (BrokenPipeError, OSError, ValueError):
            with contextlib.suppress(OSError, ValueError):
                print(line, file=sys.stderr)
    return INTERRUPTED_STATUS


def _play(
    session: PlaySession, stdin: TextIO, stdout: TextIO, out: _Out, resumed: bool,
    words: Words,
) -> int:
    """The game loop of :func:`play_plain`."""
    interactive = stdin.isatty()
    out(words.t(
        "tui.pl.intro", rules=session.rules.preset_name, n=session.players, seed=session.seed,
    ))
    out(_names_line(session, words))
    if session.save_path is not None:
        out(words.t("tui.pl.saved_every", path=session.save_path))
    for notice in session.notices:
        out(say(notice, words))
    if resumed:
        out(words.t("tui.pl.resumed"))
        for ev in session.view().events:
            if text := words.event(ev):
                out(text)
    else:
        for ev in session.history():
            if text := words.event(ev):
                out(text)
    shown_notices = len(session.notices)
    while True:
        while (step := session.step()) is not None:
            _report(out, words, step)
        for notice in session.notices[shown_notices:]:
            out(say(notice, words))
        shown_notices = len(session.notices)
        if session.save_error:
            out(words.t("tui.pl.warning", problem=session.save_error))
        if session.over:
            _finish(out, session, words)
            return 0
        view = session.view()
        for line in words.state_lines(view):
            out(line)
        asking = True
        while asking:
            out(words.question(view) + _choices(words, view))
            if interactive:
                stdout.write("> ")
                stdout.flush()
            line = stdin.readline()
            if not line:
                return _stop(out, session, words, "tui.pl.end_of_input")
            text = line.strip()
            request = command_of(text)
            if request == "quit":
                return _stop(out, session, words, "tui.pl.stopped")
            if request == "help":
                for help_line in [*rules_text(session.rules, words.lang), "", *_commands(words)]:
                    out(help_line)
                continue
            if request == "hint":
                try:
                    result = hint(view)
                except ValueError:
                    out(no_odds(len(view.hand), words))
                    continue
                for hint_line in hint_lines(result, words=words):
                    out(hint_line)
                continue
            if request == "scores":
                for score_line in score_lines(score_history(session.history()), words):
                    out(score_line)
                continue
            if request == "state":
                for state_line in words.state_lines(view):
                    out(state_line)
                continue
            try:
                action = parse_answer(text, view, menu=True)
            except InputError as exc:
                out(words.t("tui.not_accepted", why=exc.say(words)))
                continue
            try:
                step = session.act(action)
            except IllegalAction:
                out(words.t("tui.refused", why=why_not(action, view, words)))
                continue
            _report(out, words, step)
            asking = False


def _commands(words: Words) -> list[str]:
    """The requests that work at any question, for ``help``."""
    lines = [words.t("tui.pl.commands"), "-" * len(words.t("tui.pl.commands")), ""]
    for request in ("help", "hint", "state", "scores", "quit"):
        said = [
            word for word, meant in COMMANDS.items()
            if meant == request and (words.lang.code == "sv" or word not in SWEDISH_COMMANDS)
        ]
        said.sort(key=lambda word: word not in SWEDISH_COMMANDS)
        lines.append(f"- {', '.join(said)}: {words.t(f'tui.pl.cmd.{request}')}")
    lines.append(words.t("tui.pl.answers"))
    return lines


def _choices(words: Words, view: SeatView) -> str:
    if view.phase == "exchange":
        return ""
    return " " + words.t("tui.pl.choices", menu=words.menu(view.legal_actions, view))


def _stop(out: _Out, session: PlaySession, words: Words, why: str) -> int:
    reason = words.t(why)
    if session.save_path is None:
        out(words.t("tui.pl.not_saved", why=reason))
        return 0
    if session.save():
        out(words.t("tui.pl.saved_in", why=reason, path=session.save_path))
        out(words.t("tui.pl.continue_with", path=session.save_path))
    else:
        out(words.t("tui.pl.save_failed", why=reason, problem=session.save_error))
    return 0


def _finish(out: _Out, session: PlaySession, words: Words) -> None:
    view = session.view()
    out(words.t("tui.pl.final", scores=words.scores(view.scores)))
    settlement = view.settlement
    if settlement:
        out(words.t(
            "tui.settlement_at", stake=f"{session.rules.stake:g}", money=words.money(settlement)
        ))
    if session.save_path is not None and session.save():
        out(words.t("tui.record_in", path=session.save_path))
        out(words.t("tui.watch_again", path=session.save_path))


def replay_plain(
    replayer: Replayer, stdout: TextIO,
    reviews: Mapping[int, DecisionReview] | None = None,
    *,
    lang: Lang | str | None = None,
) -> int:
    """Print a recorded game step by step, as the replayer's seat (or everyone) saw it, in
    ``lang``; ``reviews`` (step → the review of the decision made there) adds each grade
    beside its decision (``chicago replay --review``)."""
    out = _Out(stdout)
    words = Words(replayer.names, me=replayer.you, card=card_format_for(stdout), lang=lang)
    out(replayer.title(words))
    for line in [*replayer.warnings, *replayer.notices]:
        out(say(line, words))
    for step in range(replayer.steps + 1):
        for ev in replayer.events_of(step):
            if text := words.event(ev):
                out(text)
        if reviews and step in reviews:
            from chicago.tui.review_words import decision_note

            out(f"  [{decision_note(reviews[step], words)}]")
    final = replayer.view_at(replayer.steps)
    if not final.over:
        out(words.t("tui.rp.ends_early", n=replayer.steps))
    return 0
