"""Fair matches between bots: duplicate play, a table of results per bot.

Every deal sequence is played once per rotation of the seats, so each bot plays every seat
on the same cards; each seat draws from its own queue of the stock (see docs/BOTS.md). The
table is drawn with Rich on a terminal when the tui extra is installed, else as plain text.

Examples:
  chicago simulate --bots expert,basic,basic,basic --games 200
  chicago simulate --bots basic,random,random,random --games 1000 --jobs 2 --json
  chicago simulate --bots ev,basic,basic --rules wikipedia --set lock_at=45 --seed 7
  chicago simulate --bots expert,basic,basic,basic --games 2000 --cluster tcp://head:8786
"""

from __future__ import annotations

import argparse
import json
import sys

from chicago.bots import level_names
from chicago.commands._options import add_rules_arguments, rules_from_args
from chicago.commands._tables import TableOutput
from chicago.commands._text import Column, Progress, Table, fold
from chicago.sim import LOST_CAUSES, MatchResult, run_match, split_specs

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``chicago simulate``."""
    parser.add_argument(
        "--bots", required=True, metavar="SPECS",
        help="one bot spec per seat, separated by commas: a level ("
        + ", ".join(level_names()) + "), with options (expert:budget=0.2) or a program "
        "(cmd:python bot.py) …",
    )
    parser.add_argument(
        "--games", type=int, default=100,
        help="games to play (rounded up to whole sets, one game per seat rotation; "
        "default 100)",
    )
    add_rules_arguments(parser)
    parser.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    parser.add_argument(
        "--jobs", type=int, default=1, help="worker processes (same results for any number)"
    )
    parser.add_argument(
        "--cluster", metavar="ADDRESS", default=None,
        help="run on a Dask cluster: its scheduler (tcp://host:8786), or local / local:N "
        "for N worker processes here; same results as a local run (docs/SCALING.md)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress bar on stderr"
    )


def _fail(message: str) -> int:
    print(f"chicago simulate: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """Play the match, then print a table (or JSON); exit code 2 for bad input."""
    try:
        rules = rules_from_args(args)
        specs = split_specs(args.bots)
        if args.games < 1:
            raise ValueError(f"--games must be at least 1, not {args.games}")
        if args.jobs < 1:
            raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
        if args.cluster is not None and args.jobs > 1:
            raise ValueError("give --jobs or --cluster, not both")
        n = len(specs)
        if not rules.min_players <= n <= rules.max_players:
            raise ValueError(
                f"{n} bots given; these rules allow {rules.min_players}-{rules.max_players}"
            )
        from chicago.bots import make_bot

        for spec in specs:
            make_bot(spec)
        from chicago import Game
        from chicago.bots.external import start_problem

        first = Game(rules, players=n, seed=0)  # a first decision to ask each program
        seat = first.to_act
        assert seat is not None
        for spec in dict.fromkeys(s for s in specs if s.lower().startswith("cmd:")):
            problem = start_problem(spec, first.view(seat), first.legal_actions())
            if problem is not None:
                raise ValueError(problem)
    except ValueError as exc:
        return _fail(str(exc))
    total = -(-args.games // n) * n
    with Progress("games", total, stream=sys.stderr, enabled=not args.no_progress) as progress:
        if args.cluster is not None:
            from chicago.cluster import ClusterError, run_match_on_cluster

            try:
                result = run_match_on_cluster(
                    specs, args.games, rules, seed=args.seed, address=args.cluster,
                    progress=progress.advance,
                )
            except ClusterError as exc:
                return _fail(str(exc))
        else:
            result = run_match(
                specs, args.games, rules, seed=args.seed, jobs=args.jobs,
                progress=progress.advance,
            )
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    print(_table(result, rules.preset_name, args.seed, TableOutput(sys.stdout, color=False)))
    return 0


LABEL_WIDTH = 18
"""Longest bot label in the table (so that it fits 80 columns); a longer spec is shortened
and given in full below the table."""


def _label(spec: str) -> str:
    """A bot's label for the table: its spec, or a short form of a long one (a ``cmd:``
    spec without its options and with file names instead of paths)."""
    if len(spec) <= LABEL_WIDTH:
        return spec
    short = spec
    if spec.lower().startswith("cmd:"):
        words = [w for w in spec[4:].split() if not (
            "=" in w and w.split("=", 1)[0] in ("time_ms", "startup_ms", "fallback", "restarts")
        )]
        short = "cmd:" + " ".join(w.rstrip("/").rsplit("/", 1)[-1] for w in words)
    if len(short) > LABEL_WIDTH:
        short = short[: LABEL_WIDTH - 1] + "…"
    return short


def _table(
    result: MatchResult, preset: str, seed: int, output: TableOutput | None = None
) -> str:
    """The results table; under it the full specs of shortened labels and, when an external
    bot lost turns, a table of them by cause (drawn by ``output``: plain text by default)."""
    output = output or TableOutput(color=False, use_rich=False)
    games = len(result.games)
    capped = sum(1 for g in result.games if g.capped)
    caption = (
        f"{games} duplicate games, rules {preset}, seed {seed}. wins: games won (ties "
        "shared), 95% Wilson interval; pts/deal: mean points per deal; Chic.: Chicagos "
        "made/declared; ann.: scoring rounds won; last: last tricks won; rating: OpenSkill "
        "mean (--json has sigma too)."
    )
    if capped:
        caption += f" {capped} games stopped at the deal cap."
    specs = [b.bot for b in result.bots]
    short = [_label(spec) for spec in specs]
    labels = list(short)
    for i, label in enumerate(short):
        if any(short[j] == label and specs[j] != specs[i] for j in range(len(specs))):
            # two different long specs with one short form: numbered
            prefix = f"{i + 1}:"
            room = LABEL_WIDTH - len(prefix)
            labels[i] = prefix + (label if len(label) <= room else label[: room - 1] + "…")
    # The bot column may fold (never needed below LABEL_WIDTH); the numbers never do.
    table = Table(
        title="chicago simulate", caption=caption,
        columns=[Column("bot", fold=True)] + [
            Column(header, right=True)
            for header in ("wins", "win % (95% CI)", "pts/deal", "Chic.", "ann.", "last",
                           "rating")
        ],
    )
    for label, b in zip(labels, result.bots, strict=True):
        table.add_row(
            label,
            f"{b.wins:g}",
            f"{b.win_rate:.1%} ({b.ci95[0]:.0%}-{b.ci95[1]:.0%})",
            f"{b.points_per_deal:.2f}",
            f"{b.chicago_made}/{b.chicago_calls}",
            str(b.announce_wins),
            str(b.last_tricks),
            f"{b.rating:.1f}",
        )
    parts = [output.render(table)]
    shown: set[str] = set()
    for label, spec in zip(labels, specs, strict=True):
        if label != spec and label not in shown:
            shown.add(label)
            parts.append(fold(f"{label} = {spec}"))
    if any(b.counters.get("bot_failures") for b in result.bots):
        lost = Table(
            title="turns lost to the fallback bot",
            caption="crash: the program ended or could not start; timeout: no answer in "
            "time, or it did not read its input; illegal: an answer that is not a legal "
            "action.",
            columns=[Column("bot", fold=True)] + [
                Column(header, right=True)
                for header in ("crash", "timeout", "illegal", "total", "decisions")
            ],
        )
        for label, b in zip(labels, result.bots, strict=True):
            causes = b.lost_turns
            if not any(causes.values()):
                continue
            lost.add_row(label, *(str(causes[c]) for c in LOST_CAUSES),
                         str(sum(causes.values())), str(b.counters.get("decisions", 0)))
        parts.append("\n" + output.render(lost))
    return "\n".join(parts)
