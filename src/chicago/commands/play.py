"""Play Chicago in the terminal against bots: full screen, or plain lines with --plain.

You sit at seat 0; the bots take the other seats. The game is saved after every action in
the data directory ($CHICAGO_DATA, else the user data directory, such as
~/.local/share/chicago; files in games/) or in --save FILE; a finished game's file is its
record for `chicago replay`. When stdin or stdout is not a terminal, --plain is implied.
The full screen needs the extra tui (pip install 'chicago-cardgame[tui]'); --plain needs none.

Examples:
  chicago play
  chicago play --rules wikipedia --players 3 --bots basic,expert
  chicago play --set lock_at=42 --seed 7 --name Anna
  chicago play --plain < answers.txt
  chicago play --resume               (the most recent unfinished game)
  chicago play --resume game.json
  chicago play --lang sv              (Swedish; the default follows LC_ALL, LC_MESSAGES, LANG)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

from chicago.commands._options import add_rules_arguments, parse_rules
from chicago.extras import require
from chicago.record import RecordError
from chicago.tui.lang import CODES, Lang, choose_lang
from chicago.tui.plain import (
    BROKEN_PIPE_STATUS,
    INTERRUPTED_STATUS,
    ignoring_interrupts,
    play_plain,
    silence_stdout,
)
from chicago.tui.session import PlaySession
from chicago.tui.storage import games_dir, latest_unfinished, new_game_path
from chicago.tui.words import Words

__all__ = ["add_arguments", "add_lang_argument", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``chicago play``."""
    add_rules_arguments(parser, several=True)
    parser.set_defaults(rules=None)  # None: not given (pagat), so that --resume can tell
    parser.add_argument(
        "--players", type=int, default=None, metavar="N",
        help="seats at the table, you included (default 4, or more if --bots lists more)",
    )
    parser.add_argument(
        "--bots", default="", metavar="LEVELS",
        help="bot levels for the other seats in order, comma-separated, e.g. basic,expert "
        "(the last one fills the remaining seats; default basic, random if basic is missing)",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of the shuffles (default: random)"
    )
    parser.add_argument(
        "--name", default=None, help="your name on the score table (default You)"
    )
    parser.add_argument(
        "--plain", action="store_true",
        help="plain lines on stdin/stdout: numbered choices, no colours (screen readers, scripts)",
    )
    parser.add_argument(
        "--resume", nargs="?", const="", default=None, metavar="FILE",
        help="continue a saved game (JSON record or text notation) with its own rules, "
        "seed, players, bots and names; without FILE the most recent unfinished game in the "
        "data directory",
    )
    parser.add_argument(
        "--save", type=Path, default=None, metavar="FILE",
        help="save the game here (.json, or .txt for the text notation; default: a new file "
        f"in {games_dir()})",
    )
    parser.add_argument("--no-save", action="store_true", help="do not save the game")
    parser.add_argument(
        "--delay", type=float, default=0.25, metavar="SECONDS",
        help="full screen: pause between the bots' actions (default 0.25)",
    )
    parser.add_argument(
        "--no-auto", action="store_true",
        help="answer forced decisions (a single legal action) yourself",
    )
    add_lang_argument(parser)


def add_lang_argument(parser: argparse.ArgumentParser, what: str = "the game") -> None:
    """``--lang sv|en``: the terminal's language (default: the locale's) for ``what``."""
    parser.add_argument(
        "--lang", choices=sorted(CODES), default=None,
        help=f"the language of {what}: sv (svenska) or en (English); default from the "
        "locale (LC_ALL, LC_MESSAGES, LANG: sv_SE and other sv locales give Swedish)",
    )


_GAME_FLAGS = (
    ("--rules", "rules"), ("--set", "set"), ("--variation", "variations"),
    ("--players", "players"), ("--bots", "bots"), ("--seed", "seed"), ("--name", "name"),
)
"""Flags that choose a new game; a resumed game has its own (checked by :func:`_check`)."""


def _check(args: argparse.Namespace) -> str | None:
    """A one-line complaint about flags that do not go together, or None."""
    if args.name is not None and not args.name.strip():
        return "--name needs a name"
    if args.resume is None:
        return None
    given = [flag for flag, dest in _GAME_FLAGS if getattr(args, dest, None) not in (None, [], "")]
    if not given:
        return None
    return (
        f"{' and '.join([', '.join(given[:-1]), given[-1]] if len(given) > 1 else given)} "
        f"cannot be used with --resume: a saved game goes on with its own rules, seed, "
        "players, bots and names"
    )


def _fail(message: str) -> int:
    print(f"chicago play: {message}", file=sys.stderr)
    return 2


def _session(args: argparse.Namespace, lang: Lang) -> PlaySession:
    auto = not args.no_auto
    if args.resume is not None:
        path = Path(args.resume) if args.resume else latest_unfinished()
        if path is None:
            raise ValueError(f"no unfinished game to resume in {games_dir()}")
        save = None if args.no_save else args.save
        session = PlaySession.resume(path, save_path=save, auto=auto)
        if args.no_save:
            session.save_path = None
        return session
    rules = parse_rules(args.rules or "pagat", args.set, args.variations)
    bots = [b for b in args.bots.split(",") if b.strip()]
    players = args.players if args.players is not None else max(4, len(bots) + 1)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000_000)
    if args.no_save:
        save_path = None
    else:
        save_path = args.save if args.save is not None else new_game_path(seed)
    return PlaySession.new(
        rules, players=players, bot_specs=bots, seed=seed, name=args.name or "You",
        save_path=save_path, auto=auto, lang=lang,
    )


def run(args: argparse.Namespace) -> int:
    """Play a game; exit code 0, or 2 with a one-line message for bad options or files.

    Ctrl-C saves the game and ends with one line (status 130); when the reader of the
    output goes away (``chicago play --plain | head``) the game is saved and the command
    ends silently with status 141, as command-line tools do on a broken pipe.
    """
    problem = _check(args)
    if problem is not None:
        return _fail(problem)
    plain = args.plain or not (sys.stdin.isatty() and sys.stdout.isatty())
    if not plain:  # before any game is started or saved
        require("tui", "chicago play (full screen; --plain needs no extra)")
    session: PlaySession | None = None
    try:
        lang = choose_lang(getattr(args, "lang", None), os.environ)
        try:
            session = _session(args, lang)
        except (ValueError, OSError, RecordError) as exc:
            return _fail(str(exc))
        resumed = args.resume is not None
        if plain:
            return play_plain(session, sys.stdin, sys.stdout, resumed=resumed, lang=lang)
        return _full_screen(session, args, lang)
    except KeyboardInterrupt:
        with ignoring_interrupts():
            if session is not None and session.save_path is not None and session.save():
                print(f"\nchicago play: interrupted; the game is saved in {session.save_path} "
                      f"(continue with: chicago play --resume {session.save_path})",
                      file=sys.stderr)
            else:
                print("\nchicago play: interrupted", file=sys.stderr)
        return INTERRUPTED_STATUS
    except BrokenPipeError:
        if session is not None:
            with ignoring_interrupts():
                session.save()
        silence_stdout()
        return BROKEN_PIPE_STATUS


def _full_screen(session: PlaySession, args: argparse.Namespace, lang: Lang) -> int:
    """The Textual app; after it, save and print where the game is."""
    from chicago.tui.app import PlayApp

    PlayApp(session, delay=max(0.0, args.delay), lang=lang).run()
    if session.save_path is not None:
        session.save()
        words = Words(session.names, me=session.human, lang=lang)
        path = session.save_path
        if session.over:
            print(words.t("tui.record_in", path=path), words.t("tui.watch_again", path=path))
        else:
            print(words.t("tui.pl.saved_in", why=words.t("tui.pl.stopped"), path=path),
                  words.t("tui.pl.continue_with", path=path))
    return 0
