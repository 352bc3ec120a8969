"""Exact draw odds of a five-card hand: every way to keep cards, best expected points first.

A table (drawn with Rich on a terminal when the tui extra is installed, plain text
otherwise), or JSON with --json.

Examples:
  chicago odds "Ah Kh Qh Jh 2c"
  chicago odds "Ah Kh Qh Jh 2c" --dead "Th 9h" --rules wikipedia
  chicago odds "7c 7d Ks 9h 2c" --set wheel_straight=false --json
  chicago odds --seed 7          (no hand: a random one)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

from chicago.cards import DECK, Card, parse_cards
from chicago.commands._options import add_rules_arguments, rules_from_args
from chicago.commands._tables import TableOutput
from chicago.commands._text import Cell, Column, Table
from chicago.odds import CATEGORY_NAMES, Hold, draw_odds
from chicago.poker import Category
from chicago.rules import Rules

__all__ = ["add_arguments", "run"]

_SHORT = {
    "ROYAL_FLUSH": "RF",
    "STRAIGHT_FLUSH": "SF",
    "FOUR_OF_A_KIND": "4K",
    "FULL_HOUSE": "FH",
    "FLUSH": "Fl",
    "STRAIGHT": "St",
    "THREE_OF_A_KIND": "3K",
    "TWO_PAIR": "2P",
    "PAIR": "1P",
    "HIGH_CARD": "-",
}

_USAGE = (
    'Usage: chicago odds "Ah Kh Qh Jh 2c" [--dead "Th 9h"] [--rules pagat] '
    "[--set option=value] [--json]  (chicago odds --help for more)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``chicago odds``."""
    parser.add_argument(
        "hand", nargs="*", metavar="HAND",
        help='five cards, e.g. "Ah Kh Qh Jh 2c" (10 or T for tens); none: a random hand',
    )
    parser.add_argument(
        "--dead", default="", metavar="CARDS",
        help="cards known to be out of the stock (seen, discarded), e.g. \"Th 9h\"",
    )
    add_rules_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the holds as JSON")
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of the random hand dealt when none is given"
    )


def _fail(message: str) -> int:
    print(f"chicago odds: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Print the odds table (or JSON); exit code 2 with a message on stderr for bad input."""
    try:
        rules = rules_from_args(args)
    except ValueError as exc:
        return _fail(str(exc))
    text = " ".join(args.hand)
    dealt = not text.strip()
    seed = args.seed
    try:
        if dealt:
            if seed is None:
                seed = random.SystemRandom().randrange(1_000_000)
            try:
                dead = parse_cards(args.dead)
            except ValueError as exc:
                raise ValueError(f"bad dead cards: {exc}") from None
            stock = [c for c in DECK if c not in dead]
            if len(stock) < 5:
                raise ValueError("too many dead cards to deal a hand from the rest")
            hand: tuple[Card, ...] = tuple(random.Random(seed).sample(stock, 5))
            holds = draw_odds(hand, dead, rules)
        else:
            holds = draw_odds(text, args.dead, rules)
            hand = parse_cards(text)
    except ValueError as exc:
        return _fail(str(exc))
    try:
        if args.json:
            print(json.dumps([hold.to_dict() for hold in holds], indent=2))
            sys.stdout.flush()
            return 0
        if dealt:
            print(f"A random hand (--seed {seed}). {_USAGE}")
        print(TableOutput(sys.stdout).render(_table(hand, args.dead, rules, holds)))
        sys.stdout.flush()
    except BrokenPipeError:
        return _closed_pipe()
    return 0


def _closed_pipe() -> int:
    """The reader went away (``chicago odds … | head``): stop quietly, exit code 1.

    That is what the Python documentation advises for EPIPE. Standard output is pointed at
    /dev/null so that the interpreter's last flush at exit does not raise (and print) the
    same error again.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file descriptor (a test's captured stdout)
        pass
    return 1


def _hold_text(hand: tuple[Card, ...], hold: Hold) -> Cell:
    """The hand with the discarded cards shown as ``··`` (red hearts and diamonds)."""
    spans: list[tuple[str, str]] = []
    for index, card in enumerate(hand):
        if index:
            spans.append((" ", ""))
        if card in hold.keep:
            spans.append((str(card), "red" if card.suit in (1, 2) else ""))
        else:
            spans.append(("··", "dim"))
    return spans


def _table(hand: tuple[Card, ...], dead: str, rules: Rules, holds: list[Hold]) -> Table:
    names = [
        n for n in CATEGORY_NAMES
        if n != "HIGH_CARD" and (n != "ROYAL_FLUSH" or rules.royal_separate)
    ]
    title = f"Draw odds for {' '.join(str(c) for c in hand)}"
    if dead.strip():
        title += f" (dead: {' '.join(str(c) for c in parse_cards(dead))})"
    legend = ", ".join(f"{_SHORT[n]} {n.lower().replace('_', ' ')} {rules.points[Category[n]]}"
                       for n in names)
    table = Table(
        title=title,
        caption=(
            "·· = discard; exp. = expected points; percent chance after the draw. "
            f"Rules {rules.preset_name}, points: {legend}."
        ),
        columns=[Column("keep"), Column("exp.", right=True, style="bold")]
        + [Column(_SHORT[name], right=True) for name in names],
    )
    for hold in holds:
        cells = [_percent(hold.probabilities[n]) for n in names]
        table.add_row(_hold_text(hand, hold), f"{hold.expected_points:.3f}", *cells)
    return table


def _percent(p: float) -> str:
    if p == 0:
        return "·"
    if p < 0.001:
        return "<.1"
    return f"{p * 100:.1f}"
