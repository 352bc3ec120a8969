"""Replay a recorded game step by step: full screen with keys, or printed with --plain.

A finished game is shown with every card face up unless --seat N asks for one player's
view. An unfinished game is only shown as one seat saw it: the seat of the player who saved
it (`chicago play`), or --seat N, with a warning when that is another player's seat.
Records may be JSON (`chicago play` saves, Game.record()) or the text notation. Without
FILE: the most recent game in the data directory. The full screen needs the extra tui
(pip install 'chicago-cardgame[tui]'); --plain needs none. With --review each decision of the shown
seat (of every seat, for a finished game shown face up) gets its grade beside it, as
`chicago review` gives it.

Examples:
  chicago replay game.json
  chicago replay game.txt --seat 2
  chicago replay game.json --plain | less
  chicago replay game.json --review --seat 0
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from chicago.commands.play import add_lang_argument
from chicago.extras import require
from chicago.record import RecordError
from chicago.tui.lang import Lang, choose_lang
from chicago.tui.plain import (
    BROKEN_PIPE_STATUS,
    INTERRUPTED_STATUS,
    replay_plain,
    silence_stdout,
)
from chicago.tui.replayer import Replayer
from chicago.tui.storage import games_dir, load_record

if TYPE_CHECKING:
    from chicago.review import DecisionReview

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``chicago replay``."""
    parser.add_argument(
        "file", nargs="?", type=Path, default=None, metavar="FILE",
        help=f"a game record (default: the most recent game in {games_dir()})",
    )
    parser.add_argument(
        "--seat", type=int, default=None, metavar="N",
        help="show only what seat N saw (default: every card face up for a finished game, "
        "the saving player's seat for an unfinished one)",
    )
    parser.add_argument(
        "--plain", action="store_true", help="print the whole game as plain lines"
    )
    parser.add_argument(
        "--step", type=int, default=0, metavar="N", help="full screen: start at step N"
    )
    parser.add_argument(
        "--review", action="store_true",
        help="show each decision's grade beside it (chicago review; the shown seat's, or "
        "every seat's when all cards are shown)",
    )
    parser.add_argument(
        "--level", default="expert", metavar="LEVEL",
        help="with --review: how hard the review searches (default expert)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="J",
        help="with --review: worker processes (the same grades for any number)",
    )
    add_lang_argument(parser)


def _fail(message: str) -> int:
    print(f"chicago replay: {message}", file=sys.stderr)
    return 2


def _latest() -> Path | None:
    folder = games_dir()
    if not folder.is_dir():
        return None
    files = [p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")]
    return max(files, key=lambda p: p.stat().st_mtime, default=None)


def run(args: argparse.Namespace) -> int:
    """Show the replay; exit code 0, or 2 with a one-line message for a bad file or seat.

    Ctrl-C ends it with one line (status 130); a closed output (``… --plain | head``) ends
    it silently with status 141, as command-line tools do on a broken pipe.
    """
    try:
        return _run(args)
    except KeyboardInterrupt:
        with contextlib.suppress(OSError, ValueError):
            print("\nchicago replay: interrupted", file=sys.stderr)
        return INTERRUPTED_STATUS
    except BrokenPipeError:
        silence_stdout()
        return BROKEN_PIPE_STATUS


def _run(args: argparse.Namespace) -> int:
    path = args.file if args.file is not None else _latest()
    if path is None:
        return _fail(f"no FILE given and no saved game in {games_dir()}")
    try:
        loaded = load_record(path)
        replayer = Replayer.for_record(loaded.record, loaded.tags, args.seat)
    except (OSError, ValueError, RecordError) as exc:
        return _fail(str(exc))
    lang = choose_lang(getattr(args, "lang", None), os.environ)
    reviews = None
    if args.review:
        try:
            reviews = _reviews(loaded.record, replayer, args, lang)
        except (ValueError, RecordError) as exc:
            return _fail(str(exc))
    if args.plain or not sys.stdout.isatty():
        return replay_plain(replayer, sys.stdout, reviews, lang=lang)
    require("tui", "chicago replay (full screen; --plain needs no extra)")
    from chicago.tui.replay_app import ReplayApp

    ReplayApp(
        replayer, start=max(0, min(args.step, replayer.steps)), reviews=reviews, lang=lang
    ).run()
    return 0


def _reviews(
    record: dict[str, Any], replayer: Replayer, args: argparse.Namespace, lang: Lang
) -> dict[int, DecisionReview]:
    """Step → the review of the decision made there, for the seats the replay shows."""
    from chicago.commands.review import progress_bar
    from chicago.review import review_seats

    if args.jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
    seats = list(range(replayer.players)) if replayer.seat is None else [replayer.seat]
    with progress_bar(True, lang) as progress:
        reviews = review_seats(
            record, seats, level=args.level, jobs=args.jobs, progress=progress
        )
    return {d.step: d for review in reviews for d in review.decisions}
