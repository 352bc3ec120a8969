"""How much knowing the hidden cards is worth to ``master``: a ceiling for any inference.

A benchmark-only *oracle* plays one seat against three ``expert`` seats, duplicate, on the
same deals as ``master`` itself. It is ``master`` (today's defaults) whose searches are handed
the TRUE hidden cards instead of sampled ones — read from the game object, which no bot ever
gets. It lives here, in ``benchmarks/``, and nowhere else: it is no bot level, is never
registered with :func:`chicago.bots.make_bot`, and nothing under ``src/chicago`` can reach it.

Settings (``--settings``; each plays the same sets of the same seed, in turn, round by round):

``master``
    ``master`` itself, no oracle: the base every other setting is compared with, set by set.
``play``
    The Chicago call and the trick play know the others' real hands: the search that deals
    40 worlds deals the one true world (exact: the perfect-information solver on the real
    cards). Exchanges and announcements are ``master``'s own, on sampled worlds.
``playouts``
    ``play``, with ``master``'s play-out search of every exchange and its announcement
    search (``exchanges=1;announce=1``) on sampled worlds: the control that tells what
    ``hands`` gains by knowing the hands from what it gains (or loses) by searching.
``hands``
    Also the exchanges (every round) and the announcements know the others' real hands:
    every exchange is played out by ``master``'s play-out search (``exchanges=1``) on worlds
    that hold the real hands and a random order of the cards left, the announcements by its
    announcement search (``announce=1``) on the real hands.
``stock``
    Also the order of the stock: the play-out search of the exchanges runs on the one true
    world (the real hands and every seat's real draw queue, :class:`~chicago.engine.sources.
    DuplicateDecks`) and looks at every hold ``ev`` lists, not its best six: an upper bound
    on what the exchange decisions can gain (the others' later exchanges are still
    modelled by rules of thumb, as in the search itself). After a reshuffle (R-EX-2) there
    are no queues to read and the search falls back to ``hands``' worlds.

The matches are ``chicago.sim``'s: :func:`chicago.sim.play_game` (its ``observer`` hands
the oracle the game before each decision) and :func:`chicago.sim.summarize`; the ``master``
setting's games are exactly the first games of ``chicago simulate`` / ``bench_bots.py`` with
the same seed. Per setting it prints the games, wins with their 95% Wilson interval, points
per deal with the standard error over sets, Chicagos made/declared, last tricks, scoring
rounds won by announcement, the paired difference to ``master`` set by set (wins and points
per deal, from ``bench_master.py``), and the oracle's CPU time per decision by phase.

    python benchmarks/bench_ceiling.py [--settings master play playouts hands stock] [--sets 5]
        [--rounds 8] [--seed 2026] [--preset pagat] [--json out.json]

One process, one core (run it under ``nice``); a seed fixes every choice.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_master import _paired, _set_totals  # a sibling script: its paired statistics
from chicago import Rules
from chicago.bots.base import Bot, make_bot
from chicago.bots.master import MasterBot, Phases
from chicago.bots.rollout import Option, Plan, World, make_world, value_options
from chicago.cards import mask_of
from chicago.engine.game import Game
from chicago.engine.knowledge import Knowledge
from chicago.engine.sources import DuplicateDecks
from chicago.sim import GameResult, play_game, summarize, wilson_interval

SETTINGS = ("master", "play", "playouts", "hands", "stock")
"""Every setting, the base first (module docstring)."""

ORACLE_SAMPLES = 1
"""Worlds of the trick and Chicago searches given the truth: one, the true one (every
sampled world would be the same)."""
LAST_DEALS = 24
"""Deals of ``master``'s own last-exchange search where the oracle does not know the hands
(``play``): the expert's 60% of 40 samples, as ``master`` searches it."""
ALL_HOLDS = 32
"""Holds the ``stock`` setting plays out: every hold ``ev`` lists."""
TRUE_WORLDS = 2
"""Copies of the one true world per exchange search (``stock``; the search needs two rows
to compare, and two equal rows give a zero standard error)."""


class Oracle(MasterBot):
    """``master`` whose searches see the true hidden cards of ``game`` (benchmark only).

    ``knows`` names the phases whose searches deal the real hands; ``stock`` adds the real
    draw queues to the exchange search. :meth:`observe` (the ``observer`` of
    :func:`chicago.sim.play_game`) hands it the game before each decision."""

    name = "oracle"

    def __init__(self, knows: frozenset[str], *, stock: bool = False, holds: int = 6,
                 exchanges: bool = False) -> None:
        super().__init__(samples=ORACLE_SAMPLES, last=LAST_DEALS, holds=holds,
                         phases=Phases(exchanges=exchanges, announce=exchanges))
        self.knows = knows
        self.stock = stock
        self.game: Game | None = None

    def observe(self, game: Game, seat: int) -> None:
        """Keep the game whose decision comes next (``play_game``'s observer)."""
        self.game = game

    def _true_hands(self) -> list[int]:
        game = self.game
        if game is None:
            raise RuntimeError("the oracle decides only in a game it observes")
        return [mask_of(hand) for hand in game.hands]

    def _sample(self, k: Knowledge, rng: random.Random) -> list[int]:
        """The real hands where this setting knows them, else ``master``'s sampled deal."""
        if str(k.phase) in self.knows:
            return self._true_hands()
        return super()._sample(k, rng)

    def _worlds(
        self, k: Knowledge, plan: Plan, options: Sequence[Option], rng: random.Random,
        count: int, exclude: int = 0,
    ) -> list[list[tuple[float, float]]]:
        """With ``stock``: the options valued on the one true world (real hands, real draw
        queues); else ``master``'s worlds (which hold the real hands where it knows them)."""
        world = self._true_world(k, rng) if self.stock else None
        if world is None:
            return super()._worlds(k, plan, options, rng, count, exclude)
        row = value_options(plan, world, options, self._utility(k))
        return [row for _ in range(TRUE_WORLDS)]

    def _true_world(self, k: Knowledge, rng: random.Random) -> World | None:
        """The real hands and every seat's real draw queue (None after a reshuffle, when the
        stock has no queues)."""
        queues = true_queues(self.game, k.players)
        if queues is None:
            return None
        spare = make_world([], [], 1, rng).spare
        return World(hands=self._true_hands(), queues=queues, spare=spare)


def true_queues(game: Game | None, players: int) -> list[list[int]] | None:
    """Each seat's draw queue of a duplicate game, next card first (None when the stock has
    none: after a reshuffle, or not a duplicate game). Reads the card source's private
    queues: the one place the oracle looks at the stock order."""
    if game is None or not isinstance(game.source, DuplicateDecks):
        return None
    queues: dict[int, list[int]] = getattr(game.source, "_queues", {})
    if not queues:
        return None
    return [[int(c) for c in queues.get(seat, [])] for seat in range(players)]


def first_seat(setting: str) -> Bot:
    """The bot of the first seat in ``setting`` (module docstring)."""
    if setting == "master":
        return make_bot("master")
    if setting == "play":
        return Oracle(frozenset({"chicago", "play"}))
    if setting == "playouts":
        return Oracle(frozenset({"chicago", "play"}), exchanges=True)
    if setting == "hands":
        return Oracle(frozenset({"exchange", "one up", "redeal", "announce", "chicago",
                                 "play"}), exchanges=True)
    if setting == "stock":
        return Oracle(frozenset({"exchange", "one up", "redeal", "announce", "chicago",
                                 "play"}), exchanges=True, stock=True, holds=ALL_HOLDS)
    raise ValueError(f"unknown setting {setting!r}: use {', '.join(SETTINGS)}")


def play_sets(setting: str, others: str, rules: Rules, seed: int, sets: Sequence[int],
              *, players: int = 4, make_first: Callable[[str], Bot] = first_seat,
              ) -> list[GameResult]:
    """Every rotation of ``sets``, the setting's bot first and ``others`` in the other
    seats; new bots each set, as :func:`chicago.sim.run_match` makes them."""
    games = []
    for set_index in sets:
        bots = [make_first(setting)] + [make_bot(others) for _ in range(players - 1)]
        observe = getattr(bots[0], "observe", None)
        for rotation in range(players):
            games.append(play_game(bots, rules, seed=seed, set_index=set_index,
                                   rotation=rotation, observer=observe))
    return games


def points_per_deal(games: Sequence[GameResult]) -> tuple[float, float]:
    """The first bot's points per deal over ``games`` and its standard error, from the
    spread of the sets' points per deal (the games of a set share their deals)."""
    totals = _set_totals(games)
    points = sum(t[1] for t in totals.values())
    deals = sum(t[2] for t in totals.values())
    per_set = [t[1] / max(1, t[2]) for t in totals.values()]
    if len(per_set) < 2:
        return points / max(1, deals), math.nan
    mean = sum(per_set) / len(per_set)
    variance = sum((v - mean) ** 2 for v in per_set) / (len(per_set) - 1)
    return points / max(1, deals), math.sqrt(variance / len(per_set))


def report(setting: str, games: Sequence[GameResult], others: str, players: int) -> str:
    """One setting's line: wins, points per deal, Chicagos, last tricks, decision times."""
    specs = [setting] + [others] * (players - 1)
    summary = summarize(specs, games)
    first, rest = summary[0], summary[1:]
    low, high = wilson_interval(first.wins, len(games))
    ppd, error = points_per_deal(games)

    def mean(key: str) -> float:
        return float(sum(getattr(b, key) for b in rest)) / len(rest)

    spread = "± n/a (one set)" if math.isnan(error) else f"±{error:.2f}"
    times = "; ".join(f"{phase} {t['median_ms']:.1f}/{t['p99_ms']:.1f}/{t['max_ms']:.0f}"
                      for phase, t in first.decision_times.items()) or "(not in a saved file)"
    return (f"   {setting:7s} {len(games):4d} games  wins {first.win_rate:6.1%} "
            f"[{low:.1%}, {high:.1%}]  pts/deal {ppd:.2f} {spread} (others "
            f"{mean('points_per_deal'):.2f})  Chicago {first.chicago_made}/"
            f"{first.chicago_calls} (others {mean('chicago_made'):.1f}/"
            f"{mean('chicago_calls'):.1f})  last {first.last_tricks} (others "
            f"{mean('last_tricks'):.0f})  announce {first.announce_wins} (others "
            f"{mean('announce_wins'):.0f})\n      CPU ms median/p99/max: {times}")


def summary(played: dict[str, list[GameResult]], others: str, players: int) -> str:
    """Every setting's line (:func:`report`), with its paired difference set by set to the
    first setting (the base) and to the setting before it (what that one step adds)."""
    names = list(played)
    lines = []
    for index, setting in enumerate(names):
        lines.append(report(setting, played[setting], others, players))
        for earlier in dict.fromkeys(names[:index][:1] + names[:index][-1:]):
            lines.append("      " + _paired(_set_totals(played[earlier]),
                                            _set_totals(played[setting])).replace(
                                                "vs first", f"vs {earlier}"))
    return "\n".join(lines)


def _load(path: str) -> tuple[dict[str, Any], dict[str, list[GameResult]]]:
    """A saved run (``--json``): its fields and every setting's games (without the decision
    times, which the file does not keep)."""
    with open(path) as handle:
        data: dict[str, Any] = json.load(handle)
    return data, {s: [GameResult(**g) for g in games] for s, games in data["games"].items()}


def _save(path: str, args: argparse.Namespace, played: dict[str, list[GameResult]]) -> None:
    data: dict[str, Any] = {
        "preset": args.preset, "others": args.others, "seed": args.seed,
        "settings": {}, "games": {s: [g.to_dict() for g in gs] for s, gs in played.items()},
    }
    for setting, games in played.items():
        if games:
            specs = [setting] + [args.others] * (args.players - 1)
            first = summarize(specs, games)[0]
            _, error = points_per_deal(games)
            data["settings"][setting] = {**first.to_dict(), "points_per_deal_se": error}
    temporary = f"{path}.part"
    with open(temporary, "w") as handle:
        json.dump(data, handle)
    os.replace(temporary, path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=SETTINGS)
    parser.add_argument("--others", default="expert", help="spec of the other seats")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", default="pagat")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--sets", type=int, default=1,
                        help="sets per round (1: a smoke run for make bench)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--first-set", type=int, default=0)
    parser.add_argument("--json", default=None, help="write every game's results here")
    parser.add_argument("--from-json", default=None,
                        help="print the summary of a saved run (--json) and play nothing")
    args = parser.parse_args()
    if args.from_json:
        data, saved = _load(args.from_json)
        print(f"== {args.from_json}: {data['preset']}, one seat against "
              f"{args.players - 1} {data['others']}, seed {data['seed']}")
        print(summary(saved, data["others"], args.players))
        return 0
    rules = Rules.preset(args.preset)
    played: dict[str, list[GameResult]] = {s: [] for s in args.settings}
    for round_index in range(args.rounds):
        first = args.first_set + round_index * args.sets
        sets = range(first, first + args.sets)
        for setting in args.settings:
            played[setting] += play_sets(setting, args.others, rules, args.seed, sets,
                                         players=args.players)
            if args.json:
                _save(args.json, args, played)
        print(f"== after round {round_index + 1} (sets {args.first_set}..{sets[-1]} of seed "
              f"{args.seed}), {args.preset}, one seat against {args.players - 1} "
              f"{args.others}")
        print(summary(played, args.others, args.players))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
