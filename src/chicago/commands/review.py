"""Review a recorded game: every decision of a seat graded by the expected points it lost.

Each decision is judged only on what the seat knew then (its view): exact draw odds for the
exchanges, the bots' estimates for announcements, sampled deals of the hidden cards solved
exactly for the Chicago call and trick play (docs/REVIEW.md). Prints tables (drawn with
Rich on a terminal when the tui extra is installed, plain text otherwise) in English or
Swedish (--lang, default from the locale), or JSON with --json (the schema is in docs/REVIEW.md;
only each decision's ``reason`` sentence follows --lang). Records may be JSON or the text notation.

Examples:
  chicago review game.json --seat 0
  chicago review game.json --all --jobs 2
  chicago review game.txt --seat 2 --level ev --json > review.json
  chicago review game.json --lang sv
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from chicago.commands._text import Progress as ProgressLine
from chicago.commands.play import add_lang_argument
from chicago.record import RecordError
from chicago.review import LEVELS, Progress, ReviewLevel, ReviewSet, review_seats
from chicago.tui.lang import ENGLISH, Lang, choose_lang
from chicago.tui.replayer import human_seat
from chicago.tui.storage import load_record

__all__ = ["add_arguments", "progress_bar", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``chicago review``."""
    parser.add_argument("file", type=Path, metavar="FILE", help="a game record")
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--seat", type=int, default=None, metavar="N",
        help="review seat N (default: the seat of the player who saved the game)",
    )
    who.add_argument("--all", action="store_true", help="review every seat")
    parser.add_argument(
        "--level", default="expert", metavar="LEVEL",
        help=f"how hard to search: {', '.join(sorted(LEVELS))} (default expert), with "
        "options such as expert:samples=16",
    )
    parser.add_argument("--seed", type=int, default=0, help="review seed (default 0)")
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="J",
        help="worker processes (the same review for any number)",
    )
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    parser.add_argument(
        "--hindsight", action="store_true",
        help="also show each choice's value with all cards known (finished games only; "
        "never part of the grade)",
    )
    parser.add_argument(
        "--brief", action="store_true",
        help="only the summary and the biggest mistakes, not every decision",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_lang_argument(parser, "the tables and the reasons (in --json only 'reason' changes)")


def _fail(message: str) -> int:
    print(f"chicago review: {message}", file=sys.stderr)
    return 2


def _seats(args: argparse.Namespace, record: dict[str, Any], tags: dict[str, str]) -> list[int]:
    players = int(record.get("players", 0))
    if args.all:
        return list(range(players))
    if args.seat is not None:
        return [args.seat]
    human = human_seat(tags, players)
    if human is None:
        raise ValueError("the record does not say whose game it was: give --seat N or --all")
    return [human]


@contextlib.contextmanager
def progress_bar(show: bool, lang: Lang = ENGLISH) -> Iterator[Progress | None]:
    """A progress line on stderr (on a terminal only, erased at the end), as a
    ``progress(done, total)`` callback, labelled in ``lang``; None when not shown."""
    if not show or not sys.stderr.isatty():
        yield None
        return
    line: ProgressLine | None = None
    label = lang.t("tui.review.progress")
    with contextlib.ExitStack() as stack:

        def update(done: int, total: int) -> None:
            nonlocal line
            if line is None:  # the first call says how many decisions there are
                line = stack.enter_context(ProgressLine(label, total, stream=sys.stderr))
            line.advance(done - line.done)

        yield update


def run(args: argparse.Namespace) -> int:
    """Review, then print the table (or JSON); exit code 2 for a bad file or argument."""
    try:
        return _run(args)
    except KeyboardInterrupt:
        print("\nchicago review: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        from chicago.tui.plain import silence_stdout

        silence_stdout()
        return 141


def _run(args: argparse.Namespace) -> int:
    try:
        level = ReviewLevel.parse(args.level)
        if args.jobs < 1:
            raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
        loaded = load_record(args.file)
        seats = _seats(args, loaded.record, loaded.tags)
    except (OSError, ValueError, RecordError) as exc:
        return _fail(str(exc))
    lang = choose_lang(getattr(args, "lang", None), os.environ)
    names = {s: loaded.tags[f"Name{s}"] for s in seats if f"Name{s}" in loaded.tags}
    try:
        with progress_bar(not args.no_progress, lang) as progress:
            reviews = review_seats(
                loaded.record, seats, level=level, seed=args.seed, hindsight=args.hindsight,
                names=names, jobs=args.jobs, progress=progress,
            )
    except (ValueError, RecordError) as exc:
        return _fail(str(exc))
    human = human_seat(loaded.tags, reviews[0].record.players)
    if not reviews[0].record.finished and human is not None and any(s != human for s in seats):
        print(f"chicago review: {lang.t('tui.review.warn_other_seat', n=human)}",
              file=sys.stderr)
    if args.json:
        from chicago.tui.review_words import with_reasons
        from chicago.tui.words import Words, symbol_card

        worded = [with_reasons(r, Words([], card=symbol_card, lang=lang)) for r in reviews]
        data = worded[0].to_json() if len(worded) == 1 and not args.all else (
            ReviewSet(tuple(worded)).to_json()
        )
        print(json.dumps(data, indent=1))
        return 0
    from chicago.commands._review_table import render_review
    from chicago.commands._tables import TableOutput
    from chicago.review.graph import score_graph
    from chicago.tui.words import Words, symbol_card

    output = TableOutput(sys.stdout)
    words = Words([], card=symbol_card, lang=lang)
    seat_names = {s: loaded.tags[f"Name{s}"] for s in range(reviews[0].record.players)
                  if f"Name{s}" in loaded.tags}
    print("\n\n".join(
        render_review(r, brief=args.brief, words=words, output=output,
                      graph=score_graph(loaded.record, r), names=seat_names)
        for r in reviews))
    return 0
