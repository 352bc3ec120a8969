"""Practise on your own mistakes: the decisions a review found costly, to take again.

Each game FILE is reviewed for the player's seat (the seat of the player who saved it, or
--seat N), as ``chicago review`` reviews it; every decision graded inaccuracy or worse
becomes an exercise. Each is shown as that seat saw it then (its hand, the scores, the trick
on the table), with the choices the review weighed; answer with a number. The program says
whether the answer is the best or how many points it loses, and why, graded exactly as the
review grades that choice. At the end: how many answers were the best, the points lost and
the accuracy of the run. q (or end of input) stops early.

Examples:
  chicago train game.json
  chicago train games/*.json --seat 0 --lang sv
  chicago train game.json --worst-first --limit 5
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from chicago.commands.play import add_lang_argument
from chicago.commands.review import progress_bar
from chicago.record import RecordError
from chicago.review import LEVELS, ReviewLevel, review_game
from chicago.review.practice import Answer, Exercise, answer, exercises_of
from chicago.tui.lang import choose_lang
from chicago.tui.replayer import human_seat
from chicago.tui.review_words import answer_lines, exercise_lines, ordered_choices, run_summary
from chicago.tui.storage import load_record
from chicago.tui.words import Words, symbol_card

__all__ = ["add_arguments", "run", "run_exercises"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``chicago train``."""
    parser.add_argument("files", type=Path, nargs="+", metavar="FILE", help="game records")
    parser.add_argument("--seat", type=int, default=None, metavar="N",
                        help="the seat to practise (default: the player who saved each game)")
    parser.add_argument("--level", default="expert", metavar="LEVEL",
                        help=f"the review's level: {', '.join(sorted(LEVELS))} (default expert)")
    parser.add_argument("--seed", type=int, default=0, help="review seed (default 0)")
    parser.add_argument("--worst-first", action="store_true",
                        help="the costliest mistakes first (default: in the order played)")
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="at most N exercises")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_lang_argument(parser, "the exercises")


def _fail(message: str) -> int:
    print(f"chicago train: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Review the games, then run the exercises on standard input and output."""
    try:
        level = ReviewLevel.parse(args.level)
        if args.limit is not None and args.limit < 1:
            raise ValueError(f"--limit must be at least 1, not {args.limit}")
        lang = choose_lang(getattr(args, "lang", None), os.environ)
        found: list[Exercise] = []
        for path in args.files:
            loaded = load_record(path)
            players = int(loaded.record.get("players", 0))
            seat = args.seat if args.seat is not None else human_seat(loaded.tags, players)
            if seat is None:
                raise ValueError(f"{path}: the record does not say whose game it was: "
                                 "give --seat N")
            with progress_bar(not args.no_progress, lang) as progress:
                review = review_game(loaded.record, seat, level=level, seed=args.seed,
                                     progress=progress)
            found += exercises_of(loaded.record, review)
    except (OSError, ValueError, RecordError) as exc:
        return _fail(str(exc))
    if args.worst_first:
        found.sort(key=lambda e: -e.choice(e.played).loss)
    if args.limit is not None:
        found = found[: args.limit]
    words = Words([], card=symbol_card, lang=lang)
    run_exercises(found, words, sys.stdin, sys.stdout)
    return 0


def run_exercises(
    exercises: Sequence[Exercise], words: Words, stdin: TextIO, stdout: TextIO
) -> list[Answer]:
    """Put each exercise on ``stdout``, read the answers from ``stdin``, say what each is
    worth; the run's score at the end. Returns the answers given."""
    write = stdout.write
    if not exercises:
        write(words.t("tui.train.none") + "\n")
        return []
    write(words.t("tui.train.head", n=len(exercises)) + "\n")
    given: list[Answer] = []
    for number, exercise in enumerate(exercises, start=1):
        write("\n" + "\n".join(exercise_lines(exercise, number, len(exercises), words)) + "\n")
        choice = _read_choice(exercise, words, stdin, stdout)
        if choice is None:
            break
        result = answer(exercise, choice)
        given.append(result)
        write("\n".join(answer_lines(exercise, result, words)) + "\n")
    write("\n" + run_summary(given, len(exercises), words) + "\n")
    return given


def _read_choice(exercise: Exercise, words: Words, stdin: TextIO,
                 stdout: TextIO) -> str | None:
    """The action of the number typed (asked again after anything else); None at q or at
    the end of the input."""
    options = ordered_choices(exercise)
    prompt = words.t("tui.train.prompt", n=len(options))
    while True:
        stdout.write(prompt)
        stdout.flush()
        line = stdin.readline()
        if not line:
            stdout.write("\n")
            return None
        text = line.strip().lower()
        if text in ("q", "quit", "sluta"):
            return None
        if text.isdigit() and 1 <= int(text) <= len(options):
            return options[int(text) - 1].action
        stdout.write(words.t("tui.train.bad", n=len(options)) + "\n")
